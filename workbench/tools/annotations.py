"""MCP tool annotations: hints about what a tool does to the world."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from workbench.errors import ToolAnnotationsError


class ToolAnnotations(BaseModel):
    """The MCP behaviour hints of a tool.

    Python code uses snake_case (``read_only_hint=True``); dumps use MCP's camelCase
    (``readOnlyHint``), and both spellings are accepted on input.
    """

    model_config = ConfigDict(populate_by_name=True, frozen=True, extra="allow")

    title: str | None = None
    read_only_hint: bool | None = Field(default=None, alias="readOnlyHint")
    destructive_hint: bool | None = Field(default=None, alias="destructiveHint")
    idempotent_hint: bool | None = Field(default=None, alias="idempotentHint")
    open_world_hint: bool | None = Field(default=None, alias="openWorldHint")

    def to_mcp(self) -> dict[str, Any]:
        """The hints that are set, in MCP's camelCase spelling."""
        return self.model_dump(by_alias=True, exclude_none=True)

    def badges(self) -> list[str]:
        """Short words for the hints that are true (for tables and cards)."""
        named = [
            (self.read_only_hint, "read-only"),
            (self.destructive_hint, "destructive"),
            (self.idempotent_hint, "idempotent"),
            (self.open_world_hint, "open-world"),
        ]
        return [word for value, word in named if value]

    @classmethod
    def coerce(cls, value: object) -> ToolAnnotations | None:
        """Accept annotations as this model, a dict, or any object with MCP's fields."""
        if value is None or isinstance(value, ToolAnnotations):
            return value
        if isinstance(value, dict):
            return cls.model_validate(value)
        if isinstance(value, BaseModel):
            return cls.model_validate(value.model_dump(by_alias=True, exclude_none=True))
        raise ToolAnnotationsError(f"Cannot read tool annotations from {type(value).__name__}.")
