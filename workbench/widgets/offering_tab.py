"""OfferingTab: what the Prompts and Resources tabs share, a listing and what is open.

Both tabs put an ``OfferingList`` of every server's offerings on the left and the item
clicked on the right. This holds the listing's side: the keyed items behind the rows,
loading (on the main thread: it waits for servers), the bridge thread's "listing changed"
(``refresh``), and a click opening an item; each tab says how it lists (``_load``) and
what opening shows (``show``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import ipywidgets as widgets

from workbench.errors import WorkbenchError
from workbench.widgets.offering_list import OfferingList, Row

if TYPE_CHECKING:
    from workbench.session import Workbench

T = TypeVar("T")


def failed_note(failed: Mapping[str, str]) -> str:
    """The listing's note: each server whose listing failed, and why."""
    return "; ".join(f"{server} failed: {why}" for server, why in failed.items())


class OfferingTab(ABC, Generic[T]):
    """A tab's listing: ``items`` by row key, the ``list`` showing them, ``show`` on a click."""

    def __init__(self, workbench: Workbench, *, noun: str, placeholder: str) -> None:
        self.workbench = workbench
        self.items: dict[str, T] = {}
        self.list = OfferingList(self._load, noun=noun, placeholder=placeholder)
        self.list.layout = widgets.Layout(flex="1 1 40%", min_width="0")
        self.list.observe(self._on_selected, names="selected")

    @property
    def loaded(self) -> bool:
        return self.list.loaded

    def load(self) -> None:
        """List every server's offerings (main thread: waits for servers)."""
        self.list.load()

    def refresh(self) -> None:
        """The listing changed (any thread): reloaded when the page asks next."""
        self.list.mark_stale()

    @abstractmethod
    def _load(self) -> tuple[Sequence[Row], str]:
        """The rows and the note (``failed_note``), with ``items`` set to match the rows."""

    @abstractmethod
    def show(self, item: T) -> None:
        """Open an item, as a click on its row does."""

    def _select(self, matches: Callable[[T], bool], missing: str) -> None:
        """Select the first listed item that ``matches``; WorkbenchError ``missing`` if none."""
        for key, item in self.items.items():
            if matches(item):
                self.list.selected = key
                return
        raise WorkbenchError(missing)

    def _on_selected(self, change: dict[str, Any]) -> None:
        item = self.items.get(change["new"])
        if item is not None:
            self.show(item)
