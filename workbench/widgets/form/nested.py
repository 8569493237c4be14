"""The nodes with fields inside them (objects, arrays, choices) and ``make``, which picks a
node for any field.

- object: a bordered group of its fields; an optional (or nullable) one has an "include"
  checkbox and builds its fields when first ticked (included but left empty, it is still
  left out: ``values.py``'s rule).
- array: its items, each with a remove button, and an "Add item" button (disabled at
  ``maxItems``). An optional array without items is left out; one set to ``[]`` sends it.
- choice (anyOf / oneOf / a list of types): a ``Dropdown`` naming the options, then the
  chosen option's sub-form (built when first chosen); ``—`` / ``null`` when it may be empty.

Parts built only when opened keep a big form cheap: each ipywidget is a comm in a kernel.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from workbench.widgets.form.fields import (
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    join,
)
from workbench.widgets.form.hints import EMPTY
from workbench.widgets.form.kit import Kit
from workbench.widgets.form.nodes import (
    BooleanNode,
    ConstNode,
    JsonNode,
    Node,
    NumberNode,
    StringNode,
)
from workbench.widgets.form.values import fresh_values, initial_values


class ObjectNode(Node):
    """A bordered group of fields; optional objects are included by a checkbox, built then."""

    field: ObjectField

    def __init__(self, field: ObjectField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        root = not dom and bare
        self.group = kit.box((), kit.plain if root else kit.group, ("wb-group",))
        self.nodes: list[Node] | None = None
        self.include: Any = None
        if not root and (not field.required or field.nullable):
            include = kit.checkbox(False, "include", self.traits("wb-include", tooltip=False))
            self.include = self.mark(include)
            self.include.observe(lambda _: self._refresh(), "value")
            self.head = (kit.box((*self.head, self.include), kit.head, row=True),)

    @property
    def included(self) -> bool:
        return self.include is None or bool(self.include.value)

    def _refresh(self) -> None:
        if self.included:
            self._built(None)
            self.show(self.group)
        else:
            self.show()

    def _built(self, values: Mapping[str, Any] | None) -> list[Node]:
        """The property nodes, built on first use (with ``values``, else their fresh values)."""
        if self.nodes is None:
            self.nodes = [
                make(
                    prop,
                    self.kit,
                    join(self.where, prop.name),
                    join(self.dom, prop.name),
                    values.get(prop.name) if values is not None else initial_values(prop),
                )
                for prop in self.field.properties
            ]
            self.group.children = [node.widget for node in self.nodes]
        return self.nodes

    def get(self) -> Any:
        if not self.included:
            return None
        return {node.field.name: node.get() for node in self._built(None)}

    def set(self, value: Any) -> None:
        if value is None and self.include is not None:
            self.include.value = False
        else:
            values = value if isinstance(value, Mapping) else {}
            if self.nodes is None:
                self._built(values)
            else:
                for node in self.nodes:
                    node.set(values.get(node.field.name))
            if self.include is not None:
                self.include.value = True
        self._refresh()

    def active(self) -> Iterator[Node]:
        return iter(self.nodes or ()) if self.included else iter(())

    def place_children(self) -> None:
        for node in self.nodes or ():
            node.place(join(self.where, node.field.name), join(self.dom, node.field.name))


class ArrayNode(Node):
    """Items, each with a remove button, and an "Add item" button."""

    field: ArrayField

    def __init__(self, field: ArrayField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.items: list[Node] = []
        self.item_rows: dict[int, Any] = {}  # by id(node): the row with its remove button
        self.present = False
        self.rows = kit.box((), kit.plain)
        classes = self.traits("wb-add-item", tooltip=False)["_dom_classes"]
        self.add_button = kit.button("Add item", "plus", "Add an item", self.add, *classes)
        self.mark(self.add_button)
        self.show(self.rows, self.add_button)

    def add(self, value: Any = None, *, fresh: bool = True) -> Node:
        """Add an item at the end (with its fresh values unless ``fresh`` is off)."""
        index = len(self.items)
        item = self.field.item
        start = fresh_values(item) if fresh else value
        where, dom = f"{self.where}[{index}]", f"{self.dom}[{index}]"
        node = make(item, self.kit, where, dom, start, bare=True)
        remove = self.kit.button(
            "×", "", "Remove this item", lambda: self.remove(node), "wb-remove-item"
        )
        row = self.kit.box((node.widget, remove), self.kit.row, ("wb-item",), row=True)
        self.item_rows[id(node)] = row
        self.items.append(node)
        self.present = True
        self._rows_changed()
        return node

    def remove(self, node: Node) -> None:
        """Remove an item; the ones after it move up (and are re-numbered)."""
        index = self.items.index(node)
        del self.items[index]
        del self.item_rows[id(node)]
        for position, later in enumerate(self.items[index:], start=index):
            later.place(f"{self.where}[{position}]", f"{self.dom}[{position}]")
        if not self.items and not self.field.required:
            self.present = False
        self._rows_changed()

    def _rows_changed(self) -> None:
        self.rows.children = [self.item_rows[id(node)] for node in self.items]
        limit = self.field.max_items
        self.add_button.disabled = limit is not None and len(self.items) >= limit

    def get(self) -> Any:
        if not self.items and not self.present and not self.field.required:
            return None
        return [node.get() for node in self.items]

    def set(self, value: Any) -> None:
        self.items, self.item_rows = [], {}
        for item in value if isinstance(value, list) else ():
            self.add(item, fresh=False)
        self.present = isinstance(value, list)
        self._rows_changed()

    def active(self) -> Iterator[Node]:
        return iter(self.items)

    def place_children(self) -> None:
        for index, node in enumerate(self.items):
            node.place(f"{self.where}[{index}]", f"{self.dom}[{index}]")


class ChoiceNode(Node):
    """A selector naming the options, then the chosen option's sub-form (built when chosen)."""

    field: ChoiceField

    def __init__(self, field: ChoiceField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.empty = not field.required or field.nullable
        options = [
            (option.label or option.title or option.kind, index)
            for index, option in enumerate(field.options)
        ]
        if self.empty:
            options.insert(0, ("null" if field.required else EMPTY, -1))
        start = -1 if self.empty else None
        self.selector = self.mark(kit.dropdown(options, start, self.traits("wb-choice")))
        self.options: dict[int, Node] = {}
        self.selector.observe(lambda _: self._refresh(), "value")
        self._refresh()

    @property
    def chosen(self) -> int | None:
        index = self.selector.value
        return index if isinstance(index, int) and index >= 0 else None

    def _option(self, index: int, value: Any = None, *, fresh: bool = True) -> Node:
        if index not in self.options:
            option = self.field.options[index]
            start = fresh_values(option) if fresh else value
            dom = f"{self.dom}<{index}>"
            self.options[index] = make(option, self.kit, self.where, dom, start, bare=True)
        elif not fresh:
            self.options[index].set(value)
        return self.options[index]

    def _refresh(self) -> None:
        index = self.chosen
        if index is None:
            self.show(self.selector)
        else:
            self.show(self.selector, self._option(index).widget)

    def get(self) -> Any:
        index = self.chosen
        if index is None:
            return None
        return {"option": index, "value": self._option(index).get()}

    def set(self, value: Any) -> None:
        index = value.get("option") if isinstance(value, Mapping) else None
        if not isinstance(index, int) or not 0 <= index < len(self.field.options):
            self.selector.value = -1 if self.empty else None
            return
        self._option(index, value.get("value"), fresh=False)
        self.selector.value = index
        self._refresh()

    def active(self) -> Iterator[Node]:
        index = self.chosen
        return iter(() if index is None else (self._option(index),))

    def place_children(self) -> None:
        for index, node in self.options.items():
            node.place(self.where, f"{self.dom}<{index}>")


_NODES: dict[type[FormField], type[Node]] = {
    StringField: StringNode,
    NumberField: NumberNode,
    BooleanField: BooleanNode,
    ConstField: ConstNode,
    JsonField: JsonNode,
    ObjectField: ObjectNode,
    ArrayField: ArrayNode,
    ChoiceField: ChoiceNode,
}


def make(
    field: FormField, kit: Kit, where: str, dom: str, value: Any, *, bare: bool = False
) -> Node:
    """The node for a field, showing ``value``."""
    node = _NODES.get(type(field), JsonNode)(field, kit, where, dom, bare=bare)
    node.set(value)
    return node
