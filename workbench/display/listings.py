"""Tables of what servers offer besides tools: resources, resource templates, prompts.

Each shows the server of every row, a count ("7 resources from 2 servers"), the servers
whose listing failed (with why) and, when a page was asked for, how to ask for the next.
The items have the shape of ``workbench.features`` (plain data, no MCP).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from workbench.display.formatting import format_size, shorten
from workbench.display.icons import IconBudget, Shown
from workbench.display.tables import DESCRIPTION_WIDTH, Cell, Note, TableView, count_noun
from workbench.secrets import mask_text

if TYPE_CHECKING:
    from workbench.features.prompts import Prompt
    from workbench.features.resources import Resource, ResourceTemplate

REQUIRED_MARK = "*"


class ListingTable(TableView):
    """A listing of one or more servers: rows, count, failures and the next page's call.

    ``method`` is the Workbench method and ``magic`` the ``%mcp`` line (``{server}``,
    ``{cursor}``; empty: none) that list the next page; ``listing`` may be a
    ``workbench.features`` list (``.next_cursor``, ``.failed``) or any iterable of items."""

    noun = "item"
    method = ""
    magic = ""

    def __init__(self, listing: Iterable[Any]) -> None:
        items = list(listing)
        self._icons = IconBudget()  # each item's drawable icon, within the table's budget
        rows = [self.row(item) for item in items]
        servers = list(dict.fromkeys(item.server for item in items))
        title = count_noun(len(items), self.noun)
        if servers:
            title += f" from {count_noun(len(servers), 'server')}"
        notes = self.legend(items) if items else [Note(f"No {self.noun}s.")]
        failed: dict[str, str] = getattr(listing, "failed", None) or {}
        notes += [Note(f"{name}: {mask_text(why)}", "error") for name, why in failed.items()]
        cursor: str | None = getattr(listing, "next_cursor", None)
        if cursor:
            notes.append(Note(self.more(servers[0] if len(servers) == 1 else "SERVER", cursor)))
        super().__init__(title, rows, notes)

    def row(self, item: Any) -> Sequence[Cell]:
        """The cells of one item."""
        raise NotImplementedError

    def legend(self, items: list[Any]) -> list[Note]:
        """Notes that explain the rows' marks (none by default)."""
        return []

    def icon(self, item: Any) -> Shown:
        """The item's icon to draw before its name (``workbench/display/icons.py``)."""
        return self._icons.take(getattr(item, "icons", ()))

    def more(self, server: str, cursor: str) -> str:
        """How to ask for the page after this one, in Python and as a magic."""
        python = f"wb.{self.method}({server!r}, cursor={cursor!r})"
        if not self.magic:
            return f"More: {python}"
        magic = self.magic.format(server=server, cursor=shlex.quote(cursor))
        return f"More: {python} or {magic}"


class ResourceTable(ListingTable):
    """``Workbench.resources()``: what each server lets you read, by URI."""

    kind = "resource-table"
    headers = ("server", "uri", "name", "type", "size", "description")
    noun = "resource"
    method = "resources"
    magic = "%mcp resources {server} --cursor {cursor}"

    def __init__(self, resources: Iterable[Resource]) -> None:
        super().__init__(resources)

    def row(self, item: Resource) -> Sequence[Cell]:
        return (
            Cell(item.server, "accent", mono=True),
            Cell(item.uri, mono=True),
            Cell(item.title or item.name, icons=self.icon(item)),
            Cell(item.mime_type or "", "muted"),
            Cell(format_size(item.size) if item.size is not None else "", "muted"),
            Cell(shorten(item.description or "", DESCRIPTION_WIDTH)),
        )


class TemplateTable(ListingTable):
    """``Workbench.resource_templates()``: URI templates and the ``{variables}`` a read
    fills in (``wb.read_resource(template, name=value)``)."""

    kind = "template-table"
    headers = ("server", "uri template", "variables", "name", "type", "description")
    noun = "template"
    method = "resource_templates"
    magic = "%mcp resources {server} --templates --cursor {cursor}"

    def __init__(self, templates: Iterable[ResourceTemplate]) -> None:
        super().__init__(templates)

    def row(self, item: ResourceTemplate) -> Sequence[Cell]:
        return (
            Cell(item.server, "accent", mono=True),
            Cell(item.uri_template, mono=True),
            Cell(", ".join(f"{{{name}}}" for name in item.variables), "accent", mono=True),
            Cell(item.title or item.name, icons=self.icon(item)),
            Cell(item.mime_type or "", "muted"),
            Cell(shorten(item.description or "", DESCRIPTION_WIDTH)),
        )


class PromptTable(ListingTable):
    """``Workbench.prompts()``: each prompt's arguments, the required ones marked ``*``."""

    kind = "prompt-table"
    headers = ("server", "name", "arguments", "description")
    noun = "prompt"
    method = "prompts"
    magic = "%mcp prompts {server} --cursor {cursor}"

    def __init__(self, prompts: Iterable[Prompt]) -> None:
        super().__init__(prompts)

    def row(self, item: Prompt) -> Sequence[Cell]:
        return (
            Cell(item.server, "accent", mono=True),
            Cell(item.name, "accent", mono=True, icons=self.icon(item)),
            Cell(arguments(item), mono=True),
            Cell(shorten(item.description or item.title or "", DESCRIPTION_WIDTH)),
        )

    def legend(self, items: list[Prompt]) -> list[Note]:
        required = any(argument.required for item in items for argument in item.arguments)
        return [Note(f"{REQUIRED_MARK} required argument")] if required else []


def arguments(prompt: Prompt) -> str:
    """A prompt's argument names, the required ones marked: ``city*, state``."""
    return ", ".join(
        argument.name + (REQUIRED_MARK if argument.required else "")
        for argument in prompt.arguments
    )
