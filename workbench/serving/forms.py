"""What a notebook tool's question asks for, and its answer as the tool reads it.

``get_context().elicit(message, schema)`` takes MCP's restricted form schema as a dict (an
object of flat properties: strings, numbers, booleans, enums), sent as written; or, as FastMCP's
``ctx.elicit`` does, a type (``bool``, ``str``, a dataclass, a pydantic model, a list of
choices), turned into that schema by FastMCP and the answer turned back into the type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.features.asking import ElicitationAnswer


@dataclass(frozen=True)
class Answer(ElicitationAnswer):
    """An answer to a tool's question: ``action`` is accept, decline or cancel; ``content``
    the accepted form as sent; ``value`` the content as the type asked for (the content
    itself when the question was a schema dict; None unless accepted)."""

    value: Any = None

    @property
    def accepted(self) -> bool:
        return self.action == "accept"


@dataclass(frozen=True)
class Form:
    """A question's schema and how to read its answer back."""

    schema: dict[str, Any]
    config: Any = None  # FastMCP's ElicitConfig when a type was asked for

    @classmethod
    def of(cls, schema: Any) -> Form:
        """A schema dict as it is; anything else as FastMCP's ``ctx.elicit`` reads it."""
        if isinstance(schema, dict) and ("properties" in schema or schema.get("type") == "object"):
            return cls({"type": "object", **schema})
        if schema is None:
            raise TypeError(
                "elicit() needs a schema: a JSON Schema object of flat properties, or a type "
                "(bool for a yes/no question, a dataclass or pydantic model for a form)."
            )
        from fastmcp.server.elicitation import parse_elicit_response_type

        config = parse_elicit_response_type(schema)
        return cls(dict(config.schema), config)

    def answer(self, answer: ElicitationAnswer) -> Answer:
        """The caller's answer, with its ``value`` read as the question's type."""
        content = answer.content
        if answer.action != "accept":
            return Answer(answer.action)
        if self.config is None:
            return Answer("accept", content, content)
        from fastmcp.server.elicitation import handle_elicit_accept

        return Answer("accept", content, handle_elicit_accept(self.config, content).data)
