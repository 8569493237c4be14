"""ipywidgets for a tool's input form: ``FormView`` draws ``form.build_form``'s tree.

People at a workshop would rather fill fields than type JSON, so every field gets an input
of its kind; the raw-JSON editor stays one click away ("Form | JSON") for whoever prefers it
and for what the form cannot express. ``form.py`` owns the logic (schema to fields, values
to arguments); this module only shows values and reads them back, in ``form.py``'s convention.

Inputs by kind:

- string: ``Text`` (``Textarea`` for names like ``body`` or ``code``), the format as its
  placeholder; an enum is a ``Dropdown`` with an empty ``—`` option unless required. Empty
  text is an empty field (left out, or null when required and nullable).
- number / integer: ``Text``, so that empty is possible; the placeholder names the kind and
  the bounds (``integer, 5..600``, with an en dash). Bounds, lengths, patterns and item
  counts are checked when the arguments are read, and shown under their field.
- boolean: a ``Checkbox`` when the field must be true or false (required, not nullable);
  otherwise a ``Dropdown`` of ``—`` (or ``null``), ``true`` and ``false``, so that it can stay
  unset and the server's default applies.
- const: the value, shown, not edited (an optional one is a checkbox that sends it or not).
- object: a bordered group of its fields; an optional (or nullable) one has an "include"
  checkbox and builds its fields when first ticked (included but left empty, it is still
  left out: ``form.py``'s rule).
- array: its items, each with a remove button, and an "Add item" button (disabled at
  ``maxItems``). An optional array without items is left out; one set to ``[]`` sends it.
- choice (anyOf / oneOf / a list of types): a ``Dropdown`` naming the options, then the
  chosen option's sub-form (built when first chosen); ``—`` / ``null`` when it may be empty.
- json: a ``Textarea`` of JSON text with the reason the form fell back to it.

Arguments the form has no field for (unknown keys, values of the wrong type), given to
``set_arguments`` or switching from JSON to the form, are named in a note above the form.

CSS classes, for styling and for browser tests to find things:

- ``wb-form`` the whole form; ``wb-form-header``, ``wb-mode`` (Form | JSON), ``wb-reset``,
  ``wb-json-editor`` (the raw-JSON editor), ``wb-form-message`` (a form-wide message).
- ``wb-field`` and ``wb-field-<kind>`` each field's box; ``wb-label`` its label, with
  ``wb-required`` when required; ``wb-error`` the error line under it.
- ``wb-input`` each field's input, with ``path_class(path)``: ``wb-path-`` and the field's
  path as ``FormError`` names it (``people[0].name``), the option index added after a
  choice's path for the inputs of that option (``pet<1>.good``, ``size<0>``), every
  character but ASCII letters, digits and ``_`` replaced by ``-``: ``wb-path-people-0--name``,
  ``wb-path-pet-1--good``. The root's path is ``(arguments)`` (``wb-path--arguments-``). The
  input of a choice is its selector (also ``wb-choice``); of an optional object, its
  include checkbox (also ``wb-include``). Array items are re-numbered when one is removed.
- ``wb-group`` an object's bordered box; ``wb-item`` an array item's row,
  ``wb-add-item`` / ``wb-remove-item`` its buttons.

Speed: each ipywidget is a model of its own (a comm in a kernel), layouts and styles
included, so one form shares its layouts and styles, optional objects and choice options are
built when first opened, and error lines only when there is an error.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_button import ButtonStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from workbench.display import markup
from workbench.display.style import BORDER, CSS_COLOR
from workbench.widgets.form import (
    ROOT_PATH,
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormError,
    FormField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    build_form,
    initial_values,
    to_arguments,
    values_from_arguments,
)

EMPTY = "—"
"""The label of the option that leaves a dropdown's field empty."""
DESCRIPTION_CHARS = 300
"""Longer descriptions are cut under the label; the input's tooltip has all of it."""
LONG_TEXT_NAMES = frozenset(
    {"body", "code", "content", "markdown", "prompt", "script", "source", "sql", "text"}
)
"""String fields with these names get a multi-line ``Textarea``."""
FORMAT_HINTS = {
    "date": "date, e.g. 2025-05-01",
    "time": "time, e.g. 14:30:00",
    "date-time": "date-time, e.g. 2025-05-01T14:30:00Z",
    "email": "email, e.g. ada@example.org",
    "uri": "uri, e.g. https://example.org",
    "url": "url, e.g. https://example.org",
    "uuid": "uuid",
}


def path_class(path: str) -> str:
    """The CSS class that names the input at ``path`` (see the module docstring)."""
    return "wb-path-" + re.sub(r"[^A-Za-z0-9_]", "-", path or ROOT_PATH)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _dump(arguments: Any) -> str:
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)


def _fresh(field: FormField) -> Any:
    """What a part of the form starts with when the user opens it (an item added, an option
    chosen, an optional object included): its default, else what a required field starts with."""
    value = initial_values(field)
    if value is None:
        value = initial_values(replace(field, required=True, nullable=False, has_default=False))
    return value


def _short(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else repr(float(number))


# --- shared layouts, styles and labels --------------------------------------------------------


class _Kit:
    """The layouts and styles every widget of one form shares.

    Each is a widget model of its own; sharing them makes a form several times faster to build
    (and, in a kernel, sends several times fewer comm messages).
    """

    def __init__(self) -> None:
        # Grows to fill an array item's row; in a column there is no room to grow into.
        self.field = widgets.Layout(margin="2px 0 6px 0", min_width="0", flex="1 1 auto")
        self.group = widgets.Layout(
            border_left=f"2px solid {BORDER}", padding="2px 0 2px 10px", margin="2px 0"
        )
        self.plain = widgets.Layout(min_width="0")
        self.input = widgets.Layout(width="min(100%, 32em)")
        self.area = widgets.Layout(width="100%", height="7em")
        self.auto = widgets.Layout(width="auto", align_self="flex-start")  # never stretched
        self.head = widgets.Layout(align_items="center", min_width="0")
        self.row = widgets.Layout(align_items="flex-start", width="100%")
        self.text_style = TextStyle()
        self.html = HTMLStyle()
        self.check = CheckboxStyle()
        self.choice = DescriptionStyle()
        self.button_style = ButtonStyle()

    # Classes and tooltips go to the constructors: set afterwards, each is one more message.

    def label(self, field: FormField) -> Any:
        """The field's name, a red star when required, its description as a muted line."""
        classes = ("wb-label", "wb-required") if _starred(field) else ("wb-label",)
        return self.note(_label_html(field), classes)

    def note(self, html: str, classes: tuple[str, ...] = ()) -> Any:
        """A line of HTML (a label, a muted note, an error)."""
        return widgets.HTML(html, layout=self.plain, style=self.html, _dom_classes=classes)

    def box(
        self, children: Any, layout: Any, classes: tuple[str, ...] = (), *, row: bool = False
    ) -> Any:
        """A ``VBox`` (an ``HBox`` when ``row``)."""
        kind = widgets.HBox if row else widgets.VBox
        return kind(children, layout=layout, _dom_classes=classes)

    def text(
        self, value: str, placeholder: str, traits: dict[str, Any], *, long: bool = False
    ) -> Any:
        """A one-line ``Text``, or a ``Textarea`` when ``long``."""
        kind = widgets.Textarea if long else widgets.Text
        layout = self.area if long else self.input
        return kind(
            value=value, placeholder=placeholder, layout=layout, style=self.text_style, **traits
        )

    def dropdown(
        self, options: list[tuple[str, int]], value: int | None, traits: dict[str, Any]
    ) -> Any:
        """A ``Dropdown`` whose values are indexes (labels may repeat; ``1 == True`` is no
        trouble)."""
        return widgets.Dropdown(
            options=options, value=value, layout=self.input, style=self.choice, **traits
        )

    def checkbox(self, value: bool, description: str, traits: dict[str, Any]) -> Any:
        """A ``Checkbox`` without the indent ipywidgets leaves for a description column."""
        return widgets.Checkbox(
            value=value,
            description=description,
            indent=False,
            layout=self.auto,
            style=self.check,
            **traits,
        )

    def button(
        self, description: str, icon: str, tooltip: str, on_click: Callable[[], Any], *classes: str
    ) -> Any:
        """A small button calling ``on_click``."""
        button = widgets.Button(
            description=description,
            icon=icon,
            tooltip=tooltip,
            layout=self.auto,
            style=self.button_style,
            _dom_classes=classes,
        )
        button.on_click(lambda _: on_click())
        return button


def _starred(field: FormField) -> bool:
    return field.required and not isinstance(field, ConstField)


def _label_html(field: FormField) -> str:
    name = markup.span(field.display_name, bold=True)
    if field.name and field.name != field.display_name:
        name += " " + markup.span(field.name, tone="muted", mono=True)
    if _starred(field):
        star = f'<span style="color:{CSS_COLOR["error"]}" title="required">*</span>'
        name += " " + star
    description = field.description or ""
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    if description:
        style = f"font-size:11px;line-height:1.35;color:{CSS_COLOR['muted']}"
        name += f'<div style="{style}">{markup.esc(description)}</div>'
    return f'<div style="line-height:1.4">{name}</div>'


def _error_html(message: str) -> str:
    return f'<div style="font-size:12px">{markup.span(message, tone="error")}</div>'


# --- one node per field on screen -------------------------------------------------------------


class _Node:
    """One field on screen: ``widget`` holds its label, its input(s) and an error line.

    ``where`` is the field's path as ``FormError`` names it; ``dom`` the path its inputs' CSS
    class carries (``where`` plus the option index of every choice on the way).
    """

    def __init__(self, field: FormField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        self.field = field
        self.kit = kit
        self.where = where
        self.dom = dom
        self.inputs: list[Any] = []
        self.error: Any = None
        self.head: tuple[Any, ...] = () if bare else (kit.label(field),)
        self.body: tuple[Any, ...] = ()
        self.widget = kit.box((), kit.field, ("wb-field", f"wb-field-{field.kind}"))

    def get(self) -> Any:
        """The field's value in ``form.py``'s convention."""
        raise NotImplementedError

    def set(self, value: Any) -> None:
        """Show a value given in ``form.py``'s convention."""
        raise NotImplementedError

    def active(self) -> Iterator[_Node]:
        """The nodes inside this one that take part in its value now."""
        return iter(())

    def problem(self) -> str | None:
        """What the schema forbids in a value ``to_arguments`` accepted (bounds, lengths)."""
        return None

    def walk(self) -> Iterator[_Node]:
        """This node and every active node inside it, depth first."""
        yield self
        for child in self.active():
            yield from child.walk()

    def traits(self, *classes: str, tooltip: bool = True) -> dict[str, Any]:
        """The classes (and tooltip) of an input of this field, for its constructor."""
        traits: dict[str, Any] = {"_dom_classes": ("wb-input", path_class(self.dom), *classes)}
        if tooltip and self.field.description:
            traits["tooltip"] = self.field.description
        return traits

    def mark(self, widget: Any) -> Any:
        """Register ``widget`` as an input of this field (``place`` re-classes it)."""
        self.inputs.append(widget)
        return widget

    def show(self, *body: Any) -> None:
        """Put these widgets under the label."""
        self.body = body
        self._compose()

    def show_error(self, message: str | None) -> None:
        """Show an error line under the field, or take it away."""
        self.error = self.kit.note(_error_html(message), ("wb-error",)) if message else None
        self._compose()

    def _compose(self) -> None:
        tail = (self.error,) if self.error is not None else ()
        self.widget.children = (*self.head, *self.body, *tail)

    def place(self, where: str, dom: str) -> None:
        """Move the node to a new path (an array item before it was removed)."""
        old, new = path_class(self.dom), path_class(dom)
        self.where, self.dom = where, dom
        if old != new:
            for widget in self.inputs:
                widget.remove_class(old)
                widget.add_class(new)
        self.place_children()

    def place_children(self) -> None:
        """Give the nodes inside this one their paths again."""


class _StringNode(_Node):
    field: StringField

    def __init__(self, field: StringField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.choices = list(field.choices)
        if self.choices:
            self.input = self.mark(_choices_dropdown(kit, field, self.choices, self.traits()))
        else:
            long = (field.name or "").lower() in LONG_TEXT_NAMES
            self.input = self.mark(kit.text("", _string_hint(field), self.traits(), long=long))
        self.show(self.input)

    def get(self) -> Any:
        if self.choices:
            return _choice_of(self.input.value, self.choices)
        return self.input.value or None

    def set(self, value: Any) -> None:
        if self.choices:
            self.input.value = _index_of(value, self.choices, self.input)
        else:
            self.input.value = "" if value is None else str(value)

    def problem(self) -> str | None:
        text, field = self.get(), self.field
        if not isinstance(text, str) or self.choices:
            return None
        if field.min_length is not None and len(text) < field.min_length:
            return f"needs at least {field.min_length} characters"
        if field.max_length is not None and len(text) > field.max_length:
            return f"takes at most {field.max_length} characters"
        if field.pattern and not _matches_pattern(field.pattern, text):
            return f"must match {field.pattern}"
        return None


class _NumberNode(_Node):
    field: NumberField

    def __init__(self, field: NumberField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.choices = list(field.choices)
        if self.choices:
            self.input = self.mark(_choices_dropdown(kit, field, self.choices, self.traits()))
        else:
            self.input = self.mark(kit.text("", _number_hint(field), self.traits()))
        self.show(self.input)

    def get(self) -> Any:
        if self.choices:
            return _choice_of(self.input.value, self.choices)
        return self.input.value if self.input.value.strip() else None

    def set(self, value: Any) -> None:
        if self.choices:
            self.input.value = _index_of(value, self.choices, self.input)
        elif value is None:
            self.input.value = ""
        else:
            self.input.value = value if isinstance(value, str) else json.dumps(value)

    def problem(self) -> str | None:
        value = self.get()
        if value is None or self.choices:
            return None
        try:
            number = float(str(value).strip().replace("_", ""))
        except ValueError:
            return None  # to_arguments said why
        return _number_problem(self.field, number)


class _BooleanNode(_Node):
    """A checkbox when the field must be true or false; else a dropdown that can stay unset."""

    OPTIONS = (None, True, False)

    def __init__(self, field: BooleanField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.tri_state = not field.required or field.nullable
        if self.tri_state:
            empty = "null" if field.required else EMPTY
            options = [(empty, 0), ("true", 1), ("false", 2)]
            self.input = self.mark(kit.dropdown(options, 0, self.traits()))
        else:
            self.input = self.mark(kit.checkbox(False, "", self.traits()))
        self.show(self.input)

    def get(self) -> Any:
        if self.tri_state:
            return self.OPTIONS[self.input.value or 0]
        return bool(self.input.value)

    def set(self, value: Any) -> None:
        if self.tri_state:
            self.input.value = 1 if value is True else 2 if value is False else 0
        else:
            self.input.value = value is True


class _ConstNode(_Node):
    """A fixed value, shown; an optional one is a checkbox that sends it or leaves it out."""

    field: ConstField

    def __init__(self, field: ConstField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        text = json.dumps(field.value, ensure_ascii=False)
        self.input: Any = None
        if not field.required:
            self.input = self.mark(kit.checkbox(False, f"send {text}", self.traits()))
            self.show(self.input)
        elif not bare:  # as a choice's option, the selector already names it
            shown = kit.note(markup.span(text, mono=True), self.traits()["_dom_classes"])
            self.show(self.mark(shown))

    def get(self) -> Any:
        if self.input is not None and not self.input.value:
            return None
        return self.field.value

    def set(self, value: Any) -> None:
        if self.input is not None:
            self.input.value = value is not None


class _JsonNode(_Node):
    """The raw-JSON editor for one field the form cannot express, with the reason why."""

    field: JsonField

    def __init__(self, field: JsonField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.input = self.mark(kit.text("", "JSON", self.traits(), long=True))
        reason = markup.span(f"JSON: {field.reason}", tone="muted")
        note = kit.note(reason, ("wb-json-reason",))
        self.show(self.input, note)

    def get(self) -> Any:
        return self.input.value if self.input.value.strip() else None

    def set(self, value: Any) -> None:
        if value is None:
            self.input.value = ""
        else:
            self.input.value = value if isinstance(value, str) else _dump(value)


class _ObjectNode(_Node):
    """A bordered group of fields; optional objects are included by a checkbox, built then."""

    field: ObjectField

    def __init__(self, field: ObjectField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        root = not dom and bare
        self.group = kit.box((), kit.plain if root else kit.group, ("wb-group",))
        self.nodes: list[_Node] | None = None
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

    def _built(self, values: Mapping[str, Any] | None) -> list[_Node]:
        """The property nodes, built on first use (with ``values``, else their fresh values)."""
        if self.nodes is None:
            self.nodes = [
                _make(
                    prop,
                    self.kit,
                    _join(self.where, prop.name),
                    _join(self.dom, prop.name),
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

    def active(self) -> Iterator[_Node]:
        return iter(self.nodes or ()) if self.included else iter(())

    def place_children(self) -> None:
        for node in self.nodes or ():
            node.place(_join(self.where, node.field.name), _join(self.dom, node.field.name))


class _ArrayNode(_Node):
    """Items, each with a remove button, and an "Add item" button."""

    field: ArrayField

    def __init__(self, field: ArrayField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.items: list[_Node] = []
        self.item_rows: dict[int, Any] = {}  # by id(node): the row with its remove button
        self.present = False
        self.rows = kit.box((), kit.plain)
        classes = self.traits("wb-add-item", tooltip=False)["_dom_classes"]
        self.add_button = kit.button("Add item", "plus", "Add an item", self.add, *classes)
        self.mark(self.add_button)
        self.show(self.rows, self.add_button)

    def add(self, value: Any = None, *, fresh: bool = True) -> _Node:
        """Add an item at the end (with its fresh values unless ``fresh`` is off)."""
        index = len(self.items)
        item = self.field.item
        node = _make(
            item,
            self.kit,
            f"{self.where}[{index}]",
            f"{self.dom}[{index}]",
            _fresh(item) if fresh else value,
            bare=True,
        )
        remove = self.kit.button(
            "×", "", "Remove this item", lambda: self.remove(node), "wb-remove-item"
        )
        row = self.kit.box((node.widget, remove), self.kit.row, ("wb-item",), row=True)
        self.item_rows[id(node)] = row
        self.items.append(node)
        self.present = True
        self._rows_changed()
        return node

    def remove(self, node: _Node) -> None:
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

    def active(self) -> Iterator[_Node]:
        return iter(self.items)

    def problem(self) -> str | None:
        value, field = self.get(), self.field
        if value is None:
            return None
        if field.min_items is not None and len(value) < field.min_items:
            return f"needs at least {field.min_items} item{'s' * (field.min_items != 1)}"
        if field.max_items is not None and len(value) > field.max_items:
            return f"takes at most {field.max_items} items"
        return None

    def place_children(self) -> None:
        for index, node in enumerate(self.items):
            node.place(f"{self.where}[{index}]", f"{self.dom}[{index}]")


class _ChoiceNode(_Node):
    """A selector naming the options, then the chosen option's sub-form (built when chosen)."""

    field: ChoiceField

    def __init__(self, field: ChoiceField, kit: _Kit, where: str, dom: str, *, bare: bool) -> None:
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
        self.options: dict[int, _Node] = {}
        self.selector.observe(lambda _: self._refresh(), "value")
        self._refresh()

    @property
    def chosen(self) -> int | None:
        index = self.selector.value
        return index if isinstance(index, int) and index >= 0 else None

    def _option(self, index: int, value: Any = None, *, fresh: bool = True) -> _Node:
        if index not in self.options:
            option = self.field.options[index]
            start = _fresh(option) if fresh else value
            dom = f"{self.dom}<{index}>"
            self.options[index] = _make(option, self.kit, self.where, dom, start, bare=True)
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

    def active(self) -> Iterator[_Node]:
        index = self.chosen
        return iter(() if index is None else (self._option(index),))

    def place_children(self) -> None:
        for index, node in self.options.items():
            node.place(self.where, f"{self.dom}<{index}>")


_NODES: dict[type[FormField], type[_Node]] = {
    StringField: _StringNode,
    NumberField: _NumberNode,
    BooleanField: _BooleanNode,
    ConstField: _ConstNode,
    JsonField: _JsonNode,
    ObjectField: _ObjectNode,
    ArrayField: _ArrayNode,
    ChoiceField: _ChoiceNode,
}


def _make(
    field: FormField, kit: _Kit, where: str, dom: str, value: Any, *, bare: bool = False
) -> _Node:
    """The node for a field, showing ``value``."""
    node = _NODES.get(type(field), _JsonNode)(field, kit, where, dom, bare=bare)
    node.set(value)
    return node


# --- small helpers for inputs -----------------------------------------------------------------


def _choices_dropdown(
    kit: _Kit, field: FormField, choices: list[Any], traits: dict[str, Any]
) -> Any:
    options = [(str(choice), index) for index, choice in enumerate(choices)]
    if not field.required or field.nullable:
        options.insert(0, ("null" if field.required else EMPTY, -1))
    return kit.dropdown(options, -1 if options[0][1] == -1 else None, traits)


def _choice_of(index: Any, choices: list[Any]) -> Any:
    return choices[index] if isinstance(index, int) and 0 <= index < len(choices) else None


def _index_of(value: Any, choices: list[Any], dropdown: Any) -> int | None:
    for index, choice in enumerate(choices):
        if choice == value and isinstance(choice, bool) == isinstance(value, bool):
            return index
    return -1 if dropdown.options and dropdown.options[0][1] == -1 else None


def _string_hint(field: StringField) -> str:
    parts = [FORMAT_HINTS.get(field.format, field.format)] if field.format else []
    low, high = field.min_length, field.max_length
    if low is not None and high is not None:
        parts.append(f"{low}–{high} characters")
    elif high is not None:
        parts.append(f"up to {high} characters")
    elif low is not None and low > 1:
        parts.append(f"at least {low} characters")
    if field.nullable and field.required:
        parts.append("empty = null")
    return ", ".join(parts)


def _number_hint(field: NumberField) -> str:
    parts = [field.kind]
    low, high = field.minimum, field.maximum
    if low is not None and high is not None:
        parts.append(f"{_short(low)}–{_short(high)}")
    elif low is not None:
        parts.append(f"≥ {_short(low)}")
    elif high is not None:
        parts.append(f"≤ {_short(high)}")
    if field.exclusive_minimum is not None:
        parts.append(f"> {_short(field.exclusive_minimum)}")
    if field.exclusive_maximum is not None:
        parts.append(f"< {_short(field.exclusive_maximum)}")
    if field.multiple_of is not None:
        parts.append(f"multiple of {_short(field.multiple_of)}")
    if field.nullable and field.required:
        parts.append("empty = null")
    return ", ".join(parts)


def _number_problem(field: NumberField, number: float) -> str | None:
    if field.minimum is not None and number < field.minimum:
        return f"must be at least {_short(field.minimum)}"
    if field.maximum is not None and number > field.maximum:
        return f"must be at most {_short(field.maximum)}"
    if field.exclusive_minimum is not None and number <= field.exclusive_minimum:
        return f"must be more than {_short(field.exclusive_minimum)}"
    if field.exclusive_maximum is not None and number >= field.exclusive_maximum:
        return f"must be less than {_short(field.exclusive_maximum)}"
    step = field.multiple_of
    if step:
        ratio = number / step
        if not math.isclose(ratio, round(ratio), rel_tol=1e-9, abs_tol=1e-9):
            return f"must be a multiple of {_short(step)}"
    return None


def _matches_pattern(pattern: str, text: str) -> bool:
    """JSON Schema patterns are ECMA-262 regexes; Python reads most of them the same. One it
    cannot read is not checked here (the registry's validator still is)."""
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return True


# --- the form ---------------------------------------------------------------------------------


class FormView:
    """An ipywidgets form for one tool's input schema, with a raw-JSON editor always available.

    ``schema`` None is a tool without arguments. ``arguments`` fill the form ("run again");
    without them it shows the schema's defaults.
    """

    def __init__(
        self, schema: Mapping[str, Any] | None, *, arguments: Mapping[str, Any] | None = None
    ) -> None:
        self.form: FormField = build_form({"type": "object"} if schema is None else schema)
        self._kit = _Kit()
        start = initial_values(self.form)
        self._root = _make(self.form, self._kit, "", "", start, bare=self._bare_root())
        self._json_mode = False
        self._marked: list[_Node] = []
        self._build_chrome()
        if arguments is not None:
            self.set_arguments(arguments)

    def _bare_root(self) -> bool:
        """An object's fields stand on their own; anything else keeps its label."""
        return isinstance(self.form, ObjectField)

    def _build_chrome(self) -> None:
        kit = self._kit
        self._mode = widgets.ToggleButtons(
            options=["Form", "JSON"],
            value="Form",
            tooltips=["Fill in the generated form", "Edit the arguments as JSON"],
            style={"button_width": "5em"},
            _dom_classes=("wb-mode",),
        )
        self._mode.observe(self._on_mode, "value")
        self._reset = kit.button("Reset", "undo", "Back to the defaults", self.reset, "wb-reset")
        header = kit.box((self._mode, self._reset), kit.head, ("wb-form-header",), row=True)
        self._editor = widgets.Textarea(
            value="",
            placeholder="{}",
            layout=widgets.Layout(width="100%", height="16em"),
            style=kit.text_style,
            _dom_classes=("wb-json-editor",),
        )
        self._message: Any = None
        self._main: Any = self._root.widget
        self._body = kit.box((self._main,), kit.plain)
        self.widget = kit.box((header, self._body), kit.plain, ("wb-form",))

    # --- reading and writing --------------------------------------------------------------

    def values(self) -> Any:
        """The generated form's values, in ``form.py``'s convention."""
        return self._root.get()

    def arguments(self) -> dict[str, Any]:
        """The call arguments: from the form, or parsed from the JSON editor in JSON mode.

        Raises ``FormError`` and shows it under the failing field (or above the editor).
        """
        self._clear_errors()
        try:
            if self._json_mode:
                return self._parse_editor()
            arguments = to_arguments(self.form, self._root.get())
            self._check()
        except FormError as error:
            self._show_error(error)
            raise
        return arguments

    def set_arguments(self, arguments: Mapping[str, Any]) -> None:
        """Fill the form and the JSON editor with these arguments ("run again")."""
        self._clear_errors()
        self._fill(dict(arguments))
        self._editor.value = _dump(dict(arguments))

    def reset(self) -> None:
        """Back to the schema's defaults, in the form and in the JSON editor."""
        self._clear_errors()
        self._root.set(initial_values(self.form))
        try:
            self._editor.value = _dump(to_arguments(self.form, self._root.get()))
        except FormError:
            self._editor.value = "{}"

    # --- JSON mode ------------------------------------------------------------------------

    @property
    def json_mode(self) -> bool:
        """Whether the raw-JSON editor is shown instead of the generated form."""
        return self._json_mode

    @json_mode.setter
    def json_mode(self, on: bool) -> None:
        if on != self._json_mode:
            self._clear_errors()
            if on:
                self._to_json()
            else:
                self._to_form()
        self._mode.value = "JSON" if self._json_mode else "Form"

    def _on_mode(self, change: Mapping[str, Any]) -> None:
        self.json_mode = change["new"] == "JSON"

    def _to_json(self) -> None:
        """Write the form's arguments into the editor; if they do not convert, keep its text."""
        try:
            self._editor.value = _dump(to_arguments(self.form, self._root.get()))
        except FormError as error:
            note = f"The form does not convert yet ({error}); the editor keeps its last text."
            self._show_message(markup.span(note, tone="warn"))
            if not self._editor.value.strip():
                self._editor.value = "{}"
        self._json_mode = True
        self._show_main(self._editor)

    def _to_form(self) -> None:
        """Fill the form from the editor's JSON; bad JSON keeps the editor, with the error."""
        try:
            arguments = self._parse_editor()
        except FormError as error:
            self._show_error(error)
            return
        self._fill(arguments)
        self._json_mode = False
        self._show_main(self._root.widget)

    def _fill(self, arguments: dict[str, Any]) -> None:
        """Show arguments in the form, saying which of them it had no field for."""
        values = values_from_arguments(self.form, arguments)
        self._root.set(values)
        if isinstance(self.form, ObjectField) and isinstance(values, Mapping):
            unfit = [
                key
                for key, value in arguments.items()
                if key not in values or (value is not None and values[key] is None)
            ]
            if unfit:
                note = f"Not in the form (no field fits them): {', '.join(unfit)}."
                self._show_message(markup.span(note, tone="warn"))

    def _parse_editor(self) -> dict[str, Any]:
        text = self._editor.value
        if not text.strip():
            return {}
        try:
            arguments = json.loads(text)
        except json.JSONDecodeError as error:
            where = f"line {error.lineno}, column {error.colno}"
            raise FormError(ROOT_PATH, f"not valid JSON: {error.msg} ({where})") from None
        if not isinstance(arguments, dict):
            raise FormError(ROOT_PATH, "the arguments must be a JSON object")
        return arguments

    # --- errors ---------------------------------------------------------------------------

    def _check(self) -> None:
        """What ``to_arguments`` leaves to the validator but a form can show by its field."""
        for node in self._root.walk():
            problem = node.problem()
            if problem:
                raise FormError(node.where or ROOT_PATH, problem)

    def _show_error(self, error: FormError) -> None:
        node = None if self._json_mode else self._find(error.path)
        if node is None:
            self._show_message(_error_html(str(error)))
        else:
            node.show_error(error.message)
            self._marked.append(node)

    def _find(self, path: str) -> _Node | None:
        where = "" if path == ROOT_PATH else path
        return next((node for node in self._root.walk() if node.where == where), None)

    def _show_message(self, html: str | None) -> None:
        """A message above the form or the editor (bad JSON, a form that does not convert)."""
        self._message = None if html is None else self._kit.note(html, ("wb-form-message",))
        self._show_main(self._main)

    def _show_main(self, main: Any) -> None:
        self._main = main
        self._body.children = (main,) if self._message is None else (self._message, main)

    def _clear_errors(self) -> None:
        for node in self._marked:
            node.show_error(None)
        self._marked = []
        if self._message is not None:
            self._show_message(None)
