"""ToolEntry: one tool in the registry, its summary now and its heavy parts on demand.

"Deferred" inside the process means the argument validator and the Action model are built
on the first call of that tool, not when a server lists a thousand of them.

Nulls. A ``null`` (Python ``None``) for a parameter that is not required, where the schema
does not take null there, means "not given": it is dropped before the arguments are judged
and sent, so the server gets the call its schema allows (and a notebook tool its default).
MCP reads it so too: SEP-2243 has a client omit the ``Mcp-Param-*`` header of a null argument
as of an absent one. A null the schema takes (``"type": ["boolean", "null"]``, an ``anyOf``
with null) is sent as is; a null for a required parameter is still refused.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from workbench import json_pointer
from workbench.errors import InvalidArgumentsError, ToolListError, WorkbenchWarning
from workbench.registry.problems import FORMATS, ROOT, Problem, problems_of
from workbench.tools.annotations import ToolAnnotations
from workbench.tools.definition import ToolDefinition
from workbench.tools.icons import Icon, icons_of, shown_icons
from workbench.tools.schema import Action

_PERMISSIVE: dict[str, Any] = {"type": "object"}


class SchemaAction(Action):
    """An Action for a tool known only by JSON Schema: the schema validator checks it."""

    model_config = ConfigDict(extra="allow")


@dataclass(eq=False)
class ToolEntry:
    """A tool of one server, addressed as ``server.tool``."""

    server: str
    name: str
    description: str = ""
    title: str | None = None
    annotations: ToolAnnotations | None = None
    input_schema: dict[str, Any] = field(default_factory=lambda: dict(_PERMISSIVE))
    output_schema: dict[str, Any] | None = None
    tags: tuple[str, ...] = ()
    meta: dict[str, Any] | None = None
    definition: ToolDefinition[Any, Any] | None = None
    icons: tuple[Icon, ...] = field(default=(), repr=False)
    """As listed, kept as data; ``workbench/tools/icons.py`` says which one may be drawn."""
    _refused: Problem | None = field(default=None, init=False, repr=False)

    @property
    def id(self) -> str:
        """The registry-wide id, ``server.tool``."""
        return f"{self.server}.{self.name}"

    @classmethod
    def from_tool(cls, server: str, tool: object) -> ToolEntry:
        """Read a ToolDefinition, an MCP ``Tool`` object, or a dict in MCP's shape."""
        if isinstance(tool, ToolDefinition):
            return cls(
                server=server,
                name=tool.name,
                description=tool.description,
                title=tool.title,
                annotations=tool.annotations,
                input_schema=tool.input_schema,
                output_schema=tool.output_schema,
                tags=tool.tags,
                meta=tool.meta,
                definition=tool,
                icons=tool.icons,
            )
        data = _as_mapping(tool)
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise ToolListError(f"A tool of server {server!r} has no name: {tool!r}")
        schema = _first(data, "inputSchema", "input_schema", "parameters")
        meta = _first(data, "_meta", "meta")
        # FastMCP servers send tags inside _meta rather than as a field of the tool.
        fastmcp_meta = meta.get("fastmcp") if isinstance(meta, dict) else None
        tags = data.get("tags") or (fastmcp_meta or {}).get("tags") or ()
        return cls(
            server=server,
            name=name,
            description=data.get("description") or "",
            title=data.get("title") or None,
            annotations=ToolAnnotations.coerce(data.get("annotations")),
            input_schema=dict(schema) if isinstance(schema, Mapping) else dict(_PERMISSIVE),
            output_schema=_first(data, "outputSchema", "output_schema"),
            tags=tuple(sorted(tags)),
            meta=meta,
            icons=icons_of(data.get("icons")),
        )

    @property
    def display_title(self) -> str:
        """The title to show people: explicit, from annotations, or the name."""
        annotated = self.annotations.title if self.annotations else None
        return self.title or annotated or self.name

    def drawable_icons(self, max_chars: int) -> dict[str, str]:
        """The icon a view may draw, by theme (``workbench/tools/icons.py``'s rule): for
        views that cannot reach the tool model themselves, as the sidebar's documents."""
        return shown_icons(self.icons, max_chars)

    @cached_property
    def validator(self) -> Any:
        """The JSON Schema validator of the arguments, or None if the schema is unusable.

        Only references inside the schema are followed: one to a URL or a file is never
        fetched (MCP forbids network references) and every call is refused naming it
        (``_refused``), since the schema cannot judge the arguments without it."""
        try:
            return json_pointer.validator_for(
                self.input_schema, validate_formats=True, formats=FORMATS
            )
        except json_pointer.ExternalRefError as error:
            self._refused = Problem(ROOT, str(error))
            return None
        except Exception as error:
            warnings.warn(
                f"{self.id}: its input schema cannot be used for validation ({error}); "
                "arguments go to the server unchecked.",
                WorkbenchWarning,
                stacklevel=2,
            )
            return None

    @cached_property
    def action_type(self) -> type[Action]:
        """The Action model of this tool (the definition's, or one built from the schema)."""
        if self.definition is not None:
            return self.definition.action_type
        camel = "".join(part[:1].upper() + part[1:] for part in self.name.split("_"))
        model: type[Action] = create_model(f"{camel}Action", __base__=SchemaAction)
        return model

    def sendable(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments as they are judged and sent: without a null the schema refuses for
        a parameter that is not required (the module's rule on nulls)."""
        values = dict(arguments)
        if self.validator is None or not any(value is None for value in values.values()):
            return values
        required = self.input_schema.get("required")
        needed = set(required) if isinstance(required, list) else set()
        refused = {
            error.instance_path[0]
            for error in self.validator.iter_errors(values)
            if len(error.instance_path) == 1
            and error.instance_path[0] not in needed
            and values.get(error.instance_path[0], False) is None
        }
        return {key: value for key, value in values.items() if key not in refused}

    def problems(self, arguments: Mapping[str, Any]) -> list[Problem]:
        """Every way the arguments break the input schema, as ``(field, why)`` pairs whose
        ``why`` is a sentence for people (``problems.py``)."""
        if self.validator is None:
            return [] if self._refused is None else [self._refused]
        return problems_of(self.validator.iter_errors(self.sendable(arguments)))

    def action_from_arguments(self, arguments: Mapping[str, Any] | None) -> Action:
        """Validate arguments into an Action, or raise naming every bad field.

        The schema's validator judges every tool, notebook tools too, so a call and the
        browser's form never disagree (pydantic's lax mode would take ``"5"`` for an
        integer the form calls wrong); a definition's own model then builds the Action."""
        values = self.sendable(arguments or {})
        problems = self.problems(values)
        if problems:
            raise InvalidArgumentsError(self.id, problems)
        if self.definition is not None:
            return self.definition.action_from_arguments(values)  # type: ignore[no-any-return]
        return self.action_type.model_validate(values)


def _first(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if data.get(key) is not None:
            return data[key]
    return None


def _as_mapping(tool: object) -> Mapping[str, Any]:
    if isinstance(tool, Mapping):
        return tool
    if isinstance(tool, BaseModel):
        return tool.model_dump(by_alias=True, exclude_none=True)
    names = ("name", "title", "description", "inputSchema", "input_schema", "parameters")
    extra = ("annotations", "outputSchema", "output_schema", "tags", "meta", "icons")
    return {key: getattr(tool, key) for key in (*names, *extra) if hasattr(tool, key)}
