"""Notebook tools as a standalone FastMCP server script (``%mcp export FILE.py``).

``build_script(definitions)`` writes, as text: the imports the tools' code uses, the code
itself (each function's source and the helpers, classes and literals it reaches:
``source.py``), the listing of each tool exactly as the notebook server lists it,
and the serving half (``runtime.py``). The script runs as ``python FILE.py``
(stdio) or ``python FILE.py --http [--port N] [--token T]`` (127.0.0.1; a bearer token, Host
and Origin checked) with fastmcp installed, not the workbench.

A tool whose code cannot be written out, or whose name is no valid tool name, is skipped
with the reason; the others are exported. ``write_script`` writes atomically and never
replaces a file unless asked.
Generating imports nothing of fastmcp: the script does, when it runs.
"""

from __future__ import annotations

import os
import pprint
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.__about__ import __version__
from workbench.errors import ExportError
from workbench.export.apps import APPS_RUNTIME, serves_apps
from workbench.export.offers import OFFERS_RUNTIME, gather, offer_listings
from workbench.export.runtime import CONTEXT, GET_CONTEXT, RUNTIME, media_runtime
from workbench.export.source import Pieces, Unrecoverable, recover
from workbench.tools.definition import ToolDefinition, valid_tool_name
from workbench.tools.prompt_definition import PromptDefinition
from workbench.tools.resource_definition import ResourceDefinition

_SERVER_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Skipped:
    """A tool left out of the script, and why."""

    name: str
    reason: str


@dataclass
class Script:
    """The generated script's text, the tools it serves and the tools it had to leave out."""

    text: str
    exported: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    offered: list[str] = field(default_factory=list)
    """The resources (by URI) and prompts (by name) it serves too."""


@dataclass
class ExportResult:
    """What ``Workbench.export`` wrote."""

    path: Path
    server_name: str
    exported: list[str]
    skipped: list[Skipped]
    offered: list[str] = field(default_factory=list)

    def stdio_command(self, python: str) -> list[str]:
        return [python, str(self.path)]

    def http_command(self, python: str, port: int = 8000) -> list[str]:
        return [python, str(self.path), "--http", "--port", str(port)]

    def mcp_json(self, python: str) -> dict[str, Any]:
        """A ready ``mcpServers`` entry (Claude Desktop, Cursor) running the script."""
        entry = {"command": python, "args": [str(self.path)]}
        return {"mcpServers": {self.server_name: entry}}


def server_name_for(path: Path) -> str:
    """The exported server's name: the file's stem, made a safe server name."""
    name = _SERVER_NAME_UNSAFE.sub("_", path.stem).strip("_")[:64]
    return name or "tools"


def build_script(
    definitions: Iterable[ToolDefinition[Any, Any]],
    *,
    server_name: str = "notebook",
    resources: Sequence[ResourceDefinition] = (),
    prompts: Sequence[PromptDefinition] = (),
) -> Script:
    """The script serving every definition (and resource and prompt: ``offers.py``) whose
    code can be recovered."""
    merged = Pieces()
    meanings: dict[str, str] = {}
    listings: list[tuple[str, dict[str, Any]]] = []
    script = Script(text="")
    for definition in definitions:
        try:
            function_name, pieces = _pieces_of(definition)
            _check_meanings(pieces, meanings)
        except Unrecoverable as why:
            script.skipped.append(Skipped(definition.name, str(why)))
            continue
        for name, code in pieces.bound():
            meanings[name] = code
        merged.imports.update(pieces.imports)
        merged.constants.update(pieces.constants)
        merged.blocks.update(pieces.blocks)
        listings.append((function_name, listing(definition)))
        script.exported.append(definition.name)

    def merge(pieces: Pieces) -> None:
        _check_meanings(pieces, meanings)
        meanings.update(pieces.bound())
        merged.imports.update(pieces.imports)
        merged.constants.update(pieces.constants)
        merged.blocks.update(pieces.blocks)

    found, asked, script.offered, left = gather(resources, prompts, merge)
    script.skipped += [Skipped(name, reason) for name, reason in left]
    offers = offer_listings(found, asked) if script.offered else ""
    script.text = _render(merged, listings, server_name, offers, serves_apps(found))
    return script


def listing(definition: ToolDefinition[Any, Any]) -> dict[str, Any]:
    """The tool as the notebook server lists it (``to_mcp_tool``'s fields) plus its tags."""
    made: dict[str, Any] = {
        "name": definition.name,
        "title": definition.title,
        "description": definition.description or None,
        "inputSchema": definition.input_schema,
        "outputSchema": definition.output_schema,
        "annotations": definition.annotations.to_mcp() if definition.annotations else None,
        "icons": [icon.to_mcp() for icon in definition.icons],
        "tags": sorted(definition.tags),
        "meta": definition.meta,
    }
    return {key: value for key, value in made.items() if value not in (None, [])}


def _pieces_of(definition: ToolDefinition[Any, Any]) -> tuple[str, Pieces]:
    if not valid_tool_name(definition.name):  # renamed after its checked construction
        raise Unrecoverable(f"its name {definition.name!r} is not a valid tool name")
    fn = getattr(definition, "fn", None)
    if fn is None:
        kind = type(definition).__name__
        raise Unrecoverable(
            f"it is a {kind} built by hand, not from a function, so it has no source to copy"
        )
    pieces = recover(fn)
    return fn.__name__, pieces


def _check_meanings(pieces: Pieces, meanings: dict[str, str]) -> None:
    """One name, one meaning in the script: two tools whose code gives a name different
    meanings (two helpers called ``load``) cannot share a module."""
    for name, code in pieces.bound():
        if name in meanings and meanings[name] != code:
            raise Unrecoverable(
                f"its code's name {name} means something else in a tool exported before it"
            )


def _render(
    pieces: Pieces,
    listings: Sequence[tuple[str, dict[str, Any]]],
    name: str,
    offers: str = "",
    apps: bool = False,
) -> str:
    add = "_wb_add_offers(server, _WB_RESOURCES, _WB_PROMPTS)"
    if apps:  # an App among the resources: declare the UI extension too (apps.py)
        add = f"_wb_declare_apps(server) or {add}"
    imports = sorted(set(pieces.imports.values()), key=lambda line: (line.startswith("from"), line))
    logs = any(code.endswith(f"= {GET_CONTEXT}") for code in pieces.constants.values())
    parts = [
        _header(name, [entry["name"] for _, entry in listings]),
        "\n".join(imports),
        CONTEXT.strip(),
        "\n".join(pieces.constants.values()),
        "\n\n\n".join(pieces.blocks.values()),
        _listings(listings),
        offers,
        media_runtime(),
        RUNTIME.strip(),
        OFFERS_RUNTIME.strip() if offers else "",
        APPS_RUNTIME.strip() if apps else "",
        f'if __name__ == "__main__":\n    _wb_main({name!r}, _WB_TOOLS, {__version__!r}, {logs!r}'
        + (f", offers=lambda server: {add})" if offers else ")"),
    ]
    return "\n\n\n".join(part for part in parts if part.strip()) + "\n"


def _header(name: str, tools: Sequence[str]) -> str:
    listed = ", ".join(tools) if tools else "none"
    return (
        f'"""The MCP server {name!r}, exported by workbench from a notebook\'s tools.\n\n'
        f"Tools: {listed}.\n\n"
        f"Written by workbench {__version__}; it needs fastmcp (and what the tools import "
        "above), not the workbench.\n"
        "    python THIS_FILE.py                  # stdio\n"
        "    python THIS_FILE.py --http --port N  # streamable HTTP on 127.0.0.1:N/mcp\n\n"
        "Over HTTP: WORKBENCH_TOKEN=... (or --token) makes clients send that bearer token\n"
        "(else 401); Host and Origin are checked (DNS rebinding); --host ADDRESS\n"
        "--allow-remote serves beyond this machine, with a token only.\n"
        '"""'
    )


def _listings(listings: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Each tool's listing as a Python literal, its function by name."""
    rows = [
        pprint.pformat({"function": _Code(function_name), **entry}, sort_dicts=False, width=92)
        for function_name, entry in listings
    ]
    body = "".join(f"    {_indent(row)},\n" for row in rows)
    return (
        "# What each tool lists (as the notebook served it) and the function it runs.\n"
        f"_WB_TOOLS = [\n{body}]"
    )


class _Code:
    """A name written into a literal as code, not as a string."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __repr__(self) -> str:
        return self.code


def _indent(text: str) -> str:
    return text.replace("\n", "\n    ")


def write_script(path: str | os.PathLike[str], text: str, *, overwrite: bool = False) -> Path:
    """Write ``text`` to ``path`` atomically: the whole script or nothing, and an existing
    file only with ``overwrite`` (checked at the rename, so a race cannot clobber one)."""
    target = Path(path).expanduser().resolve()
    if target.suffix != ".py":
        raise ExportError(f"Export to a .py file, not {target.name!r}.")
    if not target.parent.is_dir():
        raise ExportError(f"Cannot export to {target}: the folder {target.parent} does not exist.")
    if target.exists() and not overwrite:
        raise ExportError(f"{target} already exists; pass --force (overwrite=True) to replace it.")
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.stem}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o644)
        if overwrite:
            os.replace(temporary, target)
        else:
            os.link(temporary, target)  # fails if the file appeared meanwhile
    except FileExistsError:
        raise ExportError(
            f"{target} already exists; pass --force (overwrite=True) to replace it."
        ) from None
    except OSError as error:
        raise ExportError(f"Cannot write {target}: {error.strerror or error}.") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


def export_tools(
    definitions: Sequence[ToolDefinition[Any, Any]],
    path: str | os.PathLike[str],
    *,
    tools: Iterable[str] | None = None,
    overwrite: bool = False,
    resources: Sequence[ResourceDefinition] = (),
    prompts: Sequence[PromptDefinition] = (),
) -> ExportResult:
    """Write the script of ``definitions``, ``resources`` and ``prompts`` (those named in
    ``tools``, if given: a resource by URI or name) to ``path``.

    Names that are none of them are skipped with that reason; when nothing at all can be
    written out, nothing is written and the error says why for each.
    """
    chosen = list(definitions)
    missing: list[Skipped] = []
    if tools is not None:
        wanted = list(dict.fromkeys(tools))
        known = {definition.name: definition for definition in chosen}
        chosen = [known[name] for name in wanted if name in known]
        resources = [r for r in resources if r.uri in wanted or r.name in wanted]
        prompts = [p for p in prompts if p.name in wanted]
        offered = {r.uri for r in resources} | {r.name for r in resources}
        offered |= {p.name for p in prompts}
        missing = [
            Skipped(name, "there is no notebook tool, resource or prompt by that name")
            for name in wanted
            if name not in known and name not in offered
        ]
    target = Path(path).expanduser().resolve()
    server_name = server_name_for(target)
    script = build_script(chosen, server_name=server_name, resources=resources, prompts=prompts)
    skipped = missing + script.skipped
    if not script.exported and not script.offered:
        reasons = "; ".join(f"{item.name}: {item.reason}" for item in skipped)
        raise ExportError(
            "No notebook tool can be exported"
            + (f" ({reasons})." if reasons else ": define one with @tool or %%tool first.")
        )
    written = write_script(target, script.text, overwrite=overwrite)
    return ExportResult(written, server_name, script.exported, skipped, script.offered)
