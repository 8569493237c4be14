"""What loading a workspace did: each tool and event tool with its file, and what was not
loaded, and why. Rows have the shape of ``workbench.workspace.WorkspaceRow``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from workbench.display.style import Tone
from workbench.display.tables import Cell, Note, TableView

_TONES: dict[str, Tone] = {"loaded": "ok", "skipped": "muted", "failed": "error"}


class WorkspaceRowLike(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def note(self) -> str: ...


class WorkspaceTable(TableView):
    """One line per tool loaded, and per file, function or operation left out."""

    kind = "workspace-table"
    headers = ("status", "kind", "name", "source", "note")

    def __init__(self, root: str, rows: Iterable[WorkspaceRowLike]) -> None:
        listed = list(rows)
        cells = [
            (
                Cell(row.status, _TONES.get(row.status)),
                Cell(row.kind),
                Cell(row.name, "accent", mono=True),
                Cell(row.source, mono=True),
                Cell(row.note, "error" if row.status == "failed" else "muted"),
            )
            for row in listed
        ]
        loaded = sum(row.status == "loaded" for row in listed)
        notes = [] if listed else [Note("Nothing to load: tools/*.py and events/*.yaml are empty.")]
        title = f"Workspace {root}: {loaded} tool{'' if loaded == 1 else 's'} loaded"
        super().__init__(title, cells, notes)
