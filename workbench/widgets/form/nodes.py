"""One node per field on screen: the base ``Node`` and the leaves (text, number, boolean,
constant, raw JSON). ``nested.py`` holds the nodes with fields inside them.

Inputs by kind:

- string: ``Text`` (``Textarea`` for names like ``body`` or ``code``), the format as its
  placeholder; an enum is a ``Dropdown`` with an empty ``—`` option unless required. Empty
  text is an empty field (left out, or null when required and nullable).
- number / integer: ``Text``, so that empty is possible; the placeholder names the kind and
  the bounds (``integer, 5..600``, with an en dash). The registry's validator checks the bounds.
- boolean: a ``Checkbox`` when the field must be true or false (required, not nullable);
  otherwise a ``Dropdown`` of ``—`` (or ``null``), ``true`` and ``false``, so that it can stay
  unset and the server's default applies.
- const: the value, shown, not edited (an optional one is a checkbox that sends it or not).
- json: a ``Textarea`` of JSON text with the reason the form fell back to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from workbench.display import markup
from workbench.widgets.form.fields import (
    BooleanField,
    ConstField,
    FormField,
    JsonField,
    NumberField,
    StringField,
    path_class,
)
from workbench.widgets.form.hints import EMPTY, is_long_text, number_hint, string_hint
from workbench.widgets.form.kit import Kit, error_html
from workbench.widgets.form.values import json_text


class Node:
    """One field on screen: ``widget`` holds its label, its input(s) and its error lines.

    ``where`` is the field's path as ``FormError`` names it; ``dom`` the path its inputs' CSS
    class carries (``where`` plus the option index of every choice on the way).
    """

    def __init__(self, field: FormField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
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
        """The field's value in ``values.py``'s convention."""
        raise NotImplementedError

    def set(self, value: Any) -> None:
        """Show a value given in ``values.py``'s convention."""
        raise NotImplementedError

    def active(self) -> Iterator[Node]:
        """The nodes inside this one that take part in its value now."""
        return iter(())

    def walk(self) -> Iterator[Node]:
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

    def show_errors(self, lines: Sequence[tuple[str, str | None]]) -> None:
        """Show error lines ``(message, detail)`` under the field; none takes them away."""
        self.error = self.kit.note(error_html(lines), ("wb-error",)) if lines else None
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


class StringNode(Node):
    """Text, or a dropdown of an enum's values."""

    field: StringField

    def __init__(self, field: StringField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.choices = list(field.choices)
        if self.choices:
            self.input = self.mark(choices_dropdown(kit, field, self.choices, self.traits()))
        else:
            long = is_long_text(field)
            self.input = self.mark(kit.text("", string_hint(field), self.traits(), long=long))
        self.show(self.input)

    def get(self) -> Any:
        if self.choices:
            return choice_of(self.input.value, self.choices)
        return self.input.value or None

    def set(self, value: Any) -> None:
        if self.choices:
            self.input.value = index_of(value, self.choices, self.input)
        else:
            self.input.value = "" if value is None else str(value)


class NumberNode(Node):
    """Text read as a number (so that empty is possible), or a dropdown of an enum's values."""

    field: NumberField

    def __init__(self, field: NumberField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
        super().__init__(field, kit, where, dom, bare=bare)
        self.choices = list(field.choices)
        if self.choices:
            self.input = self.mark(choices_dropdown(kit, field, self.choices, self.traits()))
        else:
            self.input = self.mark(kit.text("", number_hint(field), self.traits()))
        self.show(self.input)

    def get(self) -> Any:
        if self.choices:
            return choice_of(self.input.value, self.choices)
        return self.input.value if self.input.value.strip() else None

    def set(self, value: Any) -> None:
        if self.choices:
            self.input.value = index_of(value, self.choices, self.input)
        elif value is None:
            self.input.value = ""
        else:
            self.input.value = value if isinstance(value, str) else json.dumps(value)


class BooleanNode(Node):
    """A checkbox when the field must be true or false; else a dropdown that can stay unset."""

    OPTIONS = (None, True, False)

    def __init__(self, field: BooleanField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
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


class ConstNode(Node):
    """A fixed value, shown; an optional one is a checkbox that sends it or leaves it out."""

    field: ConstField

    def __init__(self, field: ConstField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
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


class JsonNode(Node):
    """The raw-JSON editor for one field the form cannot express, with the reason why."""

    field: JsonField

    def __init__(self, field: JsonField, kit: Kit, where: str, dom: str, *, bare: bool) -> None:
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
            self.input.value = value if isinstance(value, str) else json_text(value)


# --- dropdowns of an enum's values ------------------------------------------------------------


def choices_dropdown(kit: Kit, field: FormField, choices: list[Any], traits: dict[str, Any]) -> Any:
    """A dropdown of ``choices``, with an empty first option unless the field needs a value."""
    options = [(str(choice), index) for index, choice in enumerate(choices)]
    if not field.required or field.nullable:
        options.insert(0, ("null" if field.required else EMPTY, -1))
    return kit.dropdown(options, -1 if options[0][1] == -1 else None, traits)


def choice_of(index: Any, choices: list[Any]) -> Any:
    """The value a dropdown's index stands for; None for the empty option."""
    return choices[index] if isinstance(index, int) and 0 <= index < len(choices) else None


def index_of(value: Any, choices: list[Any], dropdown: Any) -> int | None:
    """The dropdown index that shows ``value`` (``True`` is not ``1``)."""
    for index, choice in enumerate(choices):
        if choice == value and isinstance(choice, bool) == isinstance(value, bool):
            return index
    return -1 if dropdown.options and dropdown.options[0][1] == -1 else None
