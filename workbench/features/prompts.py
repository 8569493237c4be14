"""Prompts: what a server lists (name, arguments) and what a get returns (messages)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from workbench.features.resources import Listing
from workbench.tools.icons import Icon
from workbench.tools.schema import ContentBlock
from workbench.tools.viewing import Viewed


@dataclass(frozen=True)
class PromptArgument:
    name: str
    description: str | None = None
    required: bool = False


@dataclass(frozen=True)
class Prompt:
    """One prompt of one server (``prompts/list``)."""

    server: str
    name: str
    title: str | None = None
    description: str | None = None
    arguments: tuple[PromptArgument, ...] = field(default_factory=tuple)
    icons: tuple[Icon, ...] = field(default=(), repr=False)
    """As listed, kept as data (``workbench/tools/icons.py`` says which may be drawn)."""

    def missing(self, given: dict[str, Any]) -> list[str]:
        """The required arguments ``given`` lacks (checked before any round trip)."""
        return [a.name for a in self.arguments if a.required and given.get(a.name) in (None, "")]

    def unknown(self, given: dict[str, Any]) -> list[str]:
        """Names in ``given`` the prompt does not take."""
        known = {a.name for a in self.arguments}
        return [name for name in given if name not in known]


class PromptList(Listing[Prompt]):
    """``Workbench.prompts()``."""


class PromptMessage(BaseModel):
    """One message of a prompt: a role and one content block (text, image, resource...)."""

    model_config = ConfigDict(populate_by_name=True)

    role: Literal["user", "assistant"]
    content: ContentBlock


class PromptResult(Viewed, BaseModel):
    """What ``prompts/get`` returned: the conversation the server wrote."""

    model_config = ConfigDict(populate_by_name=True)

    server: str
    name: str
    arguments: dict[str, str] = Field(default_factory=dict)
    description: str | None = None
    messages: list[PromptMessage] = Field(default_factory=list)
    duration: float | None = None

    @property
    def text(self) -> str:
        """The messages' text, one ``role: text`` paragraph each (for scripts and LLMs)."""
        lines = []
        for message in self.messages:
            body = getattr(message.content, "text", None)
            if body is None:
                body = f"[{message.content.type}]"
            lines.append(f"{message.role}: {body}")
        return "\n\n".join(lines)

    def to_messages(self) -> list[dict[str, Any]]:
        """The messages as MCP JSON (``{"role", "content"}``), ready for an LLM client."""
        return [m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in self.messages]
