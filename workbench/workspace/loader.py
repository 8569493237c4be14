"""A workspace directory (OpenAgents' layout) loaded as notebook tools.

``DIR/tools/*.py`` gives tools (``tool_files.py``), ``DIR/events/*.yaml`` event tools
(``asyncapi.py``, ``event_tools.py``). Each file is one owner, ``workspace:DIR/tools/a.py``,
of the tools it defines (``Workbench.set_owned_tools``), so loading again replaces a file's
tools, and drops those of a file that is gone or now fails. A file is loaded whole or not at
all: one whose tool name another source already has (an earlier file of the workspace, by
path order, tools before events; a notebook tool or a cell's) is refused with one line
naming both, like a file that does not compile.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from workbench.errors import SchemaFallbackWarning, WorkspaceError
from workbench.events import EventLog
from workbench.tools.definition import ToolDefinition
from workbench.workspace.asyncapi import DocumentError, read_document
from workbench.workspace.event_tools import EventTool
from workbench.workspace.tool_files import ToolFiles

EVENT_SUFFIXES = (".yaml", ".yml")


class ToolHost(Protocol):
    """What loading needs of a Workbench: who owns a tool name, and to set an owner's tools."""

    def tool_owner(self, name: str) -> str | None: ...
    def set_owned_tools(self, owner: str, tools: Iterable[ToolDefinition[Any, Any]]) -> Any: ...


@dataclass(frozen=True)
class WorkspaceRow:
    """One line of the report: a tool loaded, or something skipped or failed, and why."""

    status: str  # loaded, skipped or failed
    kind: str  # tool, event tool, function, operation or file
    name: str
    source: str  # the file, relative to the workspace
    note: str = ""


@dataclass(frozen=True)
class WorkspaceReport:
    """What a load did: its rows, in file order, and the tool names it removed."""

    root: Path
    rows: tuple[WorkspaceRow, ...]
    removed: tuple[str, ...] = ()

    @property
    def loaded(self) -> list[str]:
        """The names of the tools and event tools now served."""
        return [row.name for row in self.rows if row.status == "loaded"]

    @property
    def failed(self) -> list[WorkspaceRow]:
        return [row for row in self.rows if row.status == "failed"]

    @property
    def skipped(self) -> list[WorkspaceRow]:
        return [row for row in self.rows if row.status == "skipped"]

    def __str__(self) -> str:
        lines = [f"Workspace {self.root}: {len(self.loaded)} loaded"]
        for row in self.rows:
            note = f" ({row.note})" if row.note else ""
            lines.append(f"  {row.status} {row.kind} {row.name} [{row.source}]{note}")
        return "\n".join(lines)


@dataclass
class _Source:
    """One file's candidates before conflicts are judged."""

    relative: str
    tools: list[ToolDefinition[Any, Any]] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    rows: list[WorkspaceRow] = field(default_factory=list)
    error: str = ""


def workspace_root(directory: str | Path) -> Path:
    """The workspace's absolute path; WorkspaceError if it has neither tools/ nor events/."""
    root = Path(directory).expanduser().resolve()
    if not root.is_dir():
        raise WorkspaceError(f"No workspace at {root}: not a directory.")
    if not (root / "tools").is_dir() and not (root / "events").is_dir():
        raise WorkspaceError(f"No workspace at {root}: it has neither tools/ nor events/.")
    return root


class Workspace:
    """One workspace directory, loaded (again) into a ToolHost."""

    def __init__(self, root: Path, events: EventLog) -> None:
        self.root = root
        self.events = events
        self.files = ToolFiles(root)
        self._owners: set[str] = set()

    def owner(self, relative: str) -> str:
        """The owner of the tools of one file: ``workspace:ROOT/tools/a.py``."""
        return f"workspace:{(self.root / relative).as_posix()}"

    def load(self, host: ToolHost) -> WorkspaceReport:
        """Read every file, refuse conflicting ones, then serve what loaded."""
        sources = [*self._tool_sources(), *self._event_sources()]
        self._refuse_conflicts(host, sources)
        for source in sources:
            for name, note in source.notes.items():
                if note and not source.error:
                    shown = f"{source.relative}: event tool {name!r}: {note}"
                    warnings.warn(shown, SchemaFallbackWarning, stacklevel=3)
        loaded = {self.owner(s.relative): s.tools for s in sources if not s.error}
        removed: list[str] = []
        for owner in sorted(self._owners - set(loaded)):
            removed.extend(_removed(host.set_owned_tools(owner, [])))
        for owner, tools in loaded.items():
            removed.extend(_removed(host.set_owned_tools(owner, tools)))
        self._owners = set(loaded)
        rows = [row for source in sources for row in _rows(source)]
        return WorkspaceReport(self.root, tuple(rows), tuple(sorted(set(removed))))

    def _tool_sources(self) -> list[_Source]:
        paths = sorted((self.root / "tools").glob("*.py"))
        self.files.forget(set(paths))
        sources = []
        for path in paths:
            made = self.files.load(path)
            source = _Source(self._relative(path), error=made.error)
            for definition in made.tools:
                source.tools.append(definition)
                source.kinds[definition.name] = "tool"
            for name in made.undecorated:
                source.rows.append(
                    WorkspaceRow("skipped", "function", name, source.relative, "no @tool")
                )
            sources.append(source)
        return sources

    def _event_sources(self) -> list[_Source]:
        folder = self.root / "events"
        paths = sorted(p for p in folder.glob("*") if p.suffix in EVENT_SUFFIXES)
        sources = []
        for path in paths:
            source = _Source(self._relative(path))
            try:
                document = read_document(path, self.root)
            except DocumentError as error:
                source.error = str(error)
                sources.append(source)
                continue
            owner = self.owner(source.relative)
            for operation in document.operations:
                source.tools.append(EventTool(operation, self.events, owner))
                source.kinds[operation.name] = "event tool"
                source.notes[operation.name] = operation.note
            for left in document.skipped:
                row = WorkspaceRow("skipped", "operation", left.operation, source.relative)
                source.rows.append(replace(row, note=left.reason))
            sources.append(source)
        return sources

    def _refuse_conflicts(self, host: ToolHost, sources: list[_Source]) -> None:
        """Mark each source whose tool names are taken as failed, naming both sources."""
        mine = {self.owner(source.relative) for source in sources} | self._owners
        claimed: dict[str, str] = {}
        for source in sources:
            if source.error:
                continue
            names = [definition.name for definition in source.tools]
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                source.error = f"{source.relative} defines the tool {twice[0]!r} twice"
                continue
            for name in names:
                other = claimed.get(name)
                if other is None:
                    holder = host.tool_owner(name)
                    if holder is not None and holder not in mine:
                        other = _shown_owner(holder)
                if other is not None:
                    source.error = (
                        f"the tool {name!r} of {self.owner(source.relative)} is already "
                        f"defined by {other}"
                    )
                    break
            if not source.error:
                claimed.update(dict.fromkeys(names, self.owner(source.relative)))

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()


def _shown_owner(owner: str) -> str:
    if owner.startswith("workspace:"):
        return owner
    if not owner:
        return "a notebook tool (Workbench.add_tools)"
    return f"a notebook tool of cell {owner!r}"


def _rows(source: _Source) -> list[WorkspaceRow]:
    if source.error:
        return [WorkspaceRow("failed", "file", source.relative, source.relative, source.error)]
    loaded = [
        WorkspaceRow(
            "loaded", source.kinds[d.name], d.name, source.relative, source.notes.get(d.name, "")
        )
        for d in source.tools
    ]
    return [*loaded, *source.rows]


def _removed(change: Any) -> list[str]:
    removed = getattr(change, "removed", [])
    return [str(name) for name in removed]
