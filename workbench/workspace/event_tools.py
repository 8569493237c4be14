"""Event tools: calling one puts an event in the kernel's event log and answers at once.

An ``EventTool`` is an ordinary ToolDefinition whose input schema is an AsyncAPI operation's
payload (``asyncapi.py``), so it is served by the ``notebook`` server and called through the
one call path: the registry's validator judges the payload before anything is emitted. Its
answer is the event's receipt, ``{"event_id", "channel", "time"}``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import ConfigDict

from workbench.events import EventLog
from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import observation_from_value
from workbench.tools.schema import Action, Observation
from workbench.workspace.asyncapi import WRAPPED, EventOperation

RECEIPT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "event_id": {"type": "string"},
        "channel": {"type": "string"},
        "time": {"type": "string", "format": "date-time"},
    },
    "required": ["event_id", "channel", "time"],
}


class PayloadAction(Action):
    """An event's payload as arguments: the schema validator has already judged them."""

    model_config = ConfigDict(extra="allow")


class EventTool(ToolDefinition[PayloadAction, Observation]):
    """One AsyncAPI operation as a tool that emits its event to ``events``."""

    def __init__(self, operation: EventOperation, events: EventLog, source: str = "") -> None:
        super().__init__(
            name=operation.name,
            action_type=PayloadAction,
            executor=self._emit,
            description=operation.description,
            annotations={"readOnlyHint": False, "destructiveHint": False},
            output_schema=RECEIPT_SCHEMA,
            meta={"workbench/event": {"channel": operation.channel, "source": source}},
        )
        self.operation = operation
        self.events = events
        self.source = source

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """The operation's payload schema, as the document gave it (``$ref``s resolved)."""
        return dict(self.operation.input_schema)

    def _emit(self, action: PayloadAction) -> Observation:
        arguments = action.to_arguments()
        payload = arguments.get(WRAPPED) if self.operation.wrapped else arguments
        event = self.events.emit(
            self.operation.channel,
            payload,
            tool=self.name,
            operation=self.operation.operation,
            source=self.source,
        )
        return observation_from_value(event.receipt())
