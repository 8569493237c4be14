"""ToolDefinition: a named tool with an input model, annotations and an executor.

Two ways to make one, as in the OpenHands SDK design this follows:

- stateless tools: instantiate ``ToolDefinition(name=..., action_type=..., executor=...)``
  directly (``@tool`` does this for plain functions);
- stateful tools: subclass and implement the ``create(...)`` class method, which builds the
  executor's state and returns the tool instance(s) sharing it.
"""

from __future__ import annotations

import inspect
import re
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import cached_property
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

from pydantic import ValidationError
from typing_extensions import Self

from workbench.errors import InvalidArgumentsError, ProtocolError, ToolDefinitionError
from workbench.tools.annotations import ToolAnnotations
from workbench.tools.failures import failure_message
from workbench.tools.icons import IconLike, declared_icons
from workbench.tools.schema import Action, ErrorKind, Observation
from workbench.tools.task_support import TaskSupport, task_support

ActionT = TypeVar("ActionT", bound=Action)
ObservationT = TypeVar("ObservationT", bound=Observation)
ActionT_contra = TypeVar("ActionT_contra", bound=Action, contravariant=True)
ObservationT_co = TypeVar("ObservationT_co", bound=Observation, covariant=True)

TOOL_NAME = re.compile(r"\A[A-Za-z0-9_\-.]{1,128}\Z")
"""A notebook tool's name, matched whole: it ends at the end of the text, since ``$`` also
matches before a final newline."""
_CONTROL = frozenset({"Cc", "Cs", "Zl", "Zp"})


def valid_tool_name(name: object) -> TypeGuard[str]:
    """Whether ``name`` can name a notebook tool (``@tool``, ``%%tool``, workspaces, export)."""
    return isinstance(name, str) and TOOL_NAME.fullmatch(name) is not None


def check_tool_name(name: object) -> str:
    """``name`` if it can name a notebook tool, else a one-line ToolDefinitionError."""
    if not valid_tool_name(name):
        raise ToolDefinitionError(
            f"Tool name {name!r} is not valid: use 1-128 letters, digits, '_', '-' or '.'."
        )
    return name


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character (a line break among them), a line or
    paragraph separator or a lone surrogate: a name with one could end a line of code,
    a log line or a table row wherever it is written."""
    return any(unicodedata.category(char) in _CONTROL for char in text)


class ToolExecutor(Protocol[ActionT_contra, ObservationT_co]):
    """Runs an Action; may be a plain function, a coroutine function or a stateful object."""

    def __call__(
        self, action: ActionT_contra, /
    ) -> ObservationT_co | Awaitable[ObservationT_co]: ...


def validation_problems(error: ValidationError) -> list[tuple[str, str]]:
    """Each bad field of a pydantic error as ``(dotted.path, why)``, in a user's words."""
    problems: list[tuple[str, str]] = []
    for item in error.errors(include_url=False):
        path = ".".join(str(part) for part in item["loc"]) or "(arguments)"
        if item["type"] == "missing":
            why = "required but missing"
        elif item["type"] == "extra_forbidden":
            why = "unexpected argument"
        else:
            why = f"{item['msg']} (got {item['input']!r})"
        problems.append((path, why))
    return problems


class ToolDefinition(Generic[ActionT, ObservationT]):
    """A tool: its public description plus the executor that performs its Actions."""

    def __init__(
        self,
        *,
        name: str,
        action_type: type[ActionT],
        executor: ToolExecutor[ActionT, ObservationT] | None = None,
        description: str = "",
        title: str | None = None,
        observation_type: type[Observation] = Observation,
        annotations: ToolAnnotations | Mapping[str, Any] | None = None,
        tags: Sequence[str] = (),
        output_schema: dict[str, Any] | None = None,
        meta: dict[str, Any] | None = None,
        enabled: Callable[[], object] | None = None,
        icons: Sequence[IconLike] | None = None,
        task: TaskSupport = False,
    ) -> None:
        self.name = check_tool_name(name)
        self.action_type = action_type
        self.executor = executor
        self.description = description
        self.title = title
        self.observation_type = observation_type
        self.annotations = ToolAnnotations.coerce(annotations)
        self.tags = tuple(tags)
        self.output_schema = output_schema
        self.meta = meta
        self.enabled = enabled
        """Asked at each ``tools/list`` and ``tools/call`` of a served surface; a falsy answer
        (or an exception) hides the tool from outside clients. Never part of the schema."""
        self.icons = declared_icons(icons)
        """Listed with the tool (MCP ``icons``); local files already read into ``data:`` URIs."""
        self.task = task_support(task)
        """``"optional"`` (``task=True``): outside clients that speak the tasks extension get a
        task back; ``"required"``: only they may call it; ``"forbidden"`` (the default)."""

    @classmethod
    def create(cls, *args: Any, **kwargs: Any) -> Sequence[Self]:
        """Build this tool class's instances with their shared state (stateful tools)."""
        raise ToolDefinitionError(
            f"{cls.__name__} has no create() factory; instantiate it directly instead."
        )

    @property
    def is_async(self) -> bool:
        """Whether the executor is a coroutine function (so callers can avoid blocking)."""
        executor = self.executor
        return inspect.iscoroutinefunction(executor) or inspect.iscoroutinefunction(
            getattr(executor, "__call__", None)  # noqa: B004 - objects with async __call__
        )

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the Action's fields (built once)."""
        schema = self.action_type.model_json_schema()
        schema.pop("title", None)
        drop_generated_titles(schema)
        return schema

    def action_from_arguments(self, arguments: Mapping[str, Any] | None) -> ActionT:
        """Validate raw arguments into an Action, or raise naming every bad field."""
        try:
            return self.action_type.model_validate(dict(arguments or {}))
        except ValidationError as error:
            raise InvalidArgumentsError(self.name, validation_problems(error)) from None

    def execute(self, action: ActionT) -> ObservationT:
        """Run the executor synchronously (async executors need ``aexecute``)."""
        result = self._executor()(action)
        if inspect.isawaitable(result):
            if inspect.iscoroutine(result):
                result.close()
            raise ToolDefinitionError(
                f"Tool {self.name!r} is async: use 'await tool.acall(...)' or call it "
                "through the Workbench."
            )
        return result

    async def aexecute(self, action: ActionT) -> ObservationT:
        """Run the executor, awaiting it when it is async."""
        result = self._executor()(action)
        if inspect.isawaitable(result):
            return await result
        return result

    def call(self, arguments: Mapping[str, Any] | None = None) -> Observation:
        """Validate and execute; every failure comes back as an error Observation."""
        started = time.perf_counter()
        try:
            action = self.action_from_arguments(arguments)
        except InvalidArgumentsError as error:
            return _invalid(error, started)
        try:
            observation: Observation = self.execute(action)
        except ToolDefinitionError:
            raise
        except Exception as error:
            observation = _failed(self.name, error)
        return _timed(observation, started)

    async def acall(self, arguments: Mapping[str, Any] | None = None) -> Observation:
        """``call`` for async executors (works for sync ones too)."""
        started = time.perf_counter()
        try:
            action = self.action_from_arguments(arguments)
        except InvalidArgumentsError as error:
            return _invalid(error, started)
        try:
            observation: Observation = await self.aexecute(action)
        except Exception as error:
            observation = _failed(self.name, error)
        return _timed(observation, started)

    def to_mcp_tool(self) -> Any:
        """This tool as an ``mcp.types.Tool``."""
        from workbench.tools.export import to_mcp_tool

        return to_mcp_tool(self)

    def to_openai_tool(self) -> dict[str, Any]:
        """This tool as an OpenAI chat-completions function tool."""
        from workbench.tools.export import to_openai_tool

        return to_openai_tool(self)

    def to_responses_tool(self) -> dict[str, Any]:
        """This tool as an OpenAI Responses API function tool."""
        from workbench.tools.export import to_responses_tool

        return to_responses_tool(self)

    def to_anthropic_tool(self) -> dict[str, Any]:
        """This tool as an Anthropic Messages API tool."""
        from workbench.tools.export import to_anthropic_tool

        return to_anthropic_tool(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def _executor(self) -> ToolExecutor[ActionT, ObservationT]:
        if self.executor is None:
            raise ToolDefinitionError(f"Tool {self.name!r} has no executor.")
        return self.executor


def drop_generated_titles(schema: dict[str, Any]) -> None:
    """Remove the titles pydantic derives from property names: tokens that say nothing."""
    for key, sub in schema.get("properties", {}).items():
        if isinstance(sub, dict):
            if sub.get("title") == key.replace("_", " ").title():
                del sub["title"]
            drop_generated_titles(sub)
    for keyword in ("items", "additionalProperties"):
        if isinstance(schema.get(keyword), dict):
            drop_generated_titles(schema[keyword])
    for keyword in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(keyword, []):
            drop_generated_titles(sub)
    for sub in schema.get("$defs", {}).values():
        drop_generated_titles(sub)


def _invalid(error: InvalidArgumentsError, started: float) -> Observation:
    observation = Observation.error(ErrorKind.INVALID_ARGUMENTS, str(error))
    return _timed(observation, started)


def _failed(name: str, error: Exception) -> Observation:
    if isinstance(error, ProtocolError):  # the tool refuses the call: a JSON-RPC error
        message = f"{name} refused the call (JSON-RPC error {error.code}): {error.message}"
        return Observation.error(
            ErrorKind.PROTOCOL, message, error_code=error.code, error_data=error.data
        )
    return Observation.error(ErrorKind.TOOL_ERROR, failure_message(name, error))


def _timed(observation: Observation, started: float) -> Observation:
    return observation.model_copy(update={"duration": time.perf_counter() - started})
