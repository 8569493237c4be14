"""Resources and resource templates as a server lists them, one page at a time."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar, overload

from workbench.features import uri_template
from workbench.tools.icons import Icon
from workbench.tools.viewing import Viewed

T = TypeVar("T")


@dataclass(frozen=True)
class Resource:
    """One resource of one server (``resources/list``)."""

    server: str
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    icons: tuple[Icon, ...] = field(default=(), repr=False)
    """As listed, kept as data (``workbench/tools/icons.py`` says which may be drawn)."""


@dataclass(frozen=True)
class ResourceTemplate:
    """A family of resources addressed by an RFC 6570 template (``{id}``)."""

    server: str
    uri_template: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    icons: tuple[Icon, ...] = field(default=(), repr=False)
    """As listed, kept as data (``workbench/tools/icons.py`` says which may be drawn)."""

    @property
    def variables(self) -> list[str]:
        return uri_template.variables(self.uri_template)

    def expand(self, values: dict[str, str]) -> str:
        return uri_template.expand(self.uri_template, values)


@dataclass(frozen=True)
class Page(Generic[T]):
    """Items of one or more pages, and the cursor of the page after them (None: the end)."""

    items: list[T] = field(default_factory=list)
    next_cursor: str | None = None


class Listing(Viewed, Sequence[T]):
    """Items listed by one or more servers, shown as a table in a notebook.

    A read-only sequence (index, iterate, ``len``, compare with a list). Not a ``list``
    subclass: IPython prints lists its own way, over the table. ``next_cursor`` is the cursor
    of the page after these when one page of one server was asked for (None: the end);
    ``failed`` names servers whose listing failed, with why."""

    def __init__(
        self,
        items: Iterable[T] = (),
        next_cursor: str | None = None,
        failed: dict[str, str] | None = None,
    ) -> None:
        self._items = list(items)
        self.next_cursor = next_cursor
        self.failed = dict(failed or {})

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Listing):
            return self._items == other._items
        return isinstance(other, list) and self._items == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"


class ResourceList(Listing[Resource]):
    """``Workbench.resources()``."""


class TemplateList(Listing[ResourceTemplate]):
    """``Workbench.resource_templates()``."""
