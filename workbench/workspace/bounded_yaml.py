"""YAML that cannot blow up a load: aliases counted, no document inside itself, bounded depth.

``yaml.safe_load`` gives an alias the very object its anchor made, so a few hundred bytes of
aliases to aliases (a "billion laughs") stand for billions of nodes, which every copy or walk
of the document (``asyncapi.jsonable``, ``$ref`` bundling, the meta-schema check) expands;
an alias inside its own anchor makes a document that contains itself, which JSON cannot hold
and every walk follows until RecursionError. Anchors themselves stay allowed: hand-written
AsyncAPI documents use them to share a payload or a trait, and other AsyncAPI tools load
them. Instead, while the document is composed, each alias adds the number of nodes it stands
for to a budget, an alias met inside its own anchor is refused, and so is nesting deeper
than any schema needs. A refusal is a ``YamlRefused`` carrying the line it was found on.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import AliasEvent, Event
from yaml.nodes import MappingNode, Node, SequenceNode

MAX_ALIAS_NODES = 100_000
"""Nodes the aliases of one document may stand for in all, once copied."""
MAX_DEPTH = 100
"""Levels of nesting a document may have (a schema nested this deep is no schema)."""


class YamlRefused(yaml.YAMLError):
    """A document refused before it is built: why, and the (1-based) line where."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def load(text: str) -> Any:
    """The one document in ``text``, like ``yaml.safe_load``; YamlRefused for a bomb, a
    document inside itself or one nested too deep (other YAMLErrors as PyYAML raises them)."""
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with the composer's two hooks watched."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._sizes: dict[int, int] = {}  # id(node) -> nodes it stands for, aliases expanded
        self._open: set[str] = set()  # anchors whose node is being composed
        self._aliased = 0
        self._depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event: Event = self.peek_event()  # type: ignore[no-untyped-call]  # untyped in stubs
        line = event.start_mark.line + 1 if event.start_mark else 0
        anchor = getattr(event, "anchor", None)
        if isinstance(event, AliasEvent):
            if anchor in self._open:
                raise YamlRefused(
                    f"the YAML alias *{anchor} refers to itself (it is inside its anchor "
                    f"&{anchor}), which JSON cannot hold; a recursive schema uses $ref",
                    line,
                )
            node = super().compose_node(parent, index)
            self._aliased += self._sizes.get(id(node), 1)
            if self._aliased > MAX_ALIAS_NODES:
                raise YamlRefused(
                    f"its YAML aliases stand for more than {MAX_ALIAS_NODES:,} nodes once "
                    "copied (an alias bomb?); refused",
                    line,
                )
            return node
        if self._depth >= MAX_DEPTH:
            raise YamlRefused(f"nested deeper than {MAX_DEPTH} levels; refused", line)
        self._depth += 1
        if anchor is not None:
            self._open.add(anchor)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
            if anchor is not None:
                self._open.discard(anchor)
        if node is not None:
            parts = _children(node)
            self._sizes[id(node)] = 1 + sum(self._sizes.get(id(part), 1) for part in parts)
        return node


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []
