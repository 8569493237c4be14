"""Suggestions: a server's completions for the text fields of a form, as a row of buttons.

Prompts and resource templates take text arguments a server can complete
(``completion/complete``). Each time a field changes, the server is asked for what fits
the text typed so far (the other fields' values as context); its answers become buttons
under the form, and a click fills the field. Bounded whatever is typed: at most
``MAX_PREFIX`` characters are sent, ``SHOWN`` suggestions shown, answers cached
(``CACHED``), so typing back over a prefix asks nothing. A failure shows no suggestions.

The fields are found by the CSS classes the form documents (``wb-input`` and
``path_class(name)``), so nothing private of ``FormView`` is reached.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from workbench.display import markup
from workbench.display.formatting import shorten
from workbench.widgets.form import path_class

Complete = Callable[[str, str, Mapping[str, str]], Sequence[str]]
"""``complete(argument, typed, other values)``: the server's suggestions."""

MAX_PREFIX = 200
SHOWN = 12
CACHED = 128
LABEL_WIDTH = 40


def mime_output(*shown: Any) -> tuple[dict[str, Any], ...]:
    """Output-widget outputs for anything with ``_repr_mimebundle_`` (a view, a
    PromptResult); set from any thread, unlike ``with output:``."""
    return tuple(
        {"output_type": "display_data", "data": item._repr_mimebundle_(), "metadata": {}}
        for item in shown
    )


def text_inputs(root: Any, names: Sequence[str]) -> dict[str, Any]:
    """The text inputs of a form's top-level fields ``names`` (by their documented classes)."""
    wanted = {path_class(name): name for name in names}
    found: dict[str, Any] = {}
    for widget in _walk(root):
        classes = getattr(widget, "_dom_classes", ())
        if "wb-input" in classes and isinstance(widget, widgets.Text | widgets.Textarea):
            for css in classes:
                if css in wanted:
                    found.setdefault(wanted[css], widget)
    return found


def _walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


class Suggestions:
    """Buttons under a form with the server's completions for the field last changed."""

    def __init__(self, root: Any, names: Sequence[str], complete: Complete) -> None:
        self._complete = complete
        self._inputs = text_inputs(root, names)
        self._cache: OrderedDict[tuple[Any, ...], list[str]] = OrderedDict()
        self.field: str | None = None
        self.values: list[str] = []
        self.label = widgets.HTML()
        self.buttons = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.HBox(
            [self.label, self.buttons], layout=widgets.Layout(align_items="center")
        )
        self.widget.add_class("wb-suggestions")
        for name, box in self._inputs.items():
            box.observe(lambda change, name=name: self.suggest(name), names="value")

    @property
    def fields(self) -> list[str]:
        return list(self._inputs)

    def suggest(self, name: str) -> list[str]:
        """Ask for (or recall) the suggestions for field ``name`` and show them."""
        box = self._inputs.get(name)
        if box is None:
            return []
        typed = str(box.value)[:MAX_PREFIX]
        context = {
            other: str(widget.value)[:MAX_PREFIX]
            for other, widget in self._inputs.items()
            if other != name and widget.value
        }
        key = (name, typed, tuple(sorted(context.items())))
        found = self._cache.get(key)
        if found is None:
            try:
                found = [str(value) for value in self._complete(name, typed, context)]
            except Exception:  # a server without completions, or one that failed: none
                found = []
            self._cache[key] = found
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        self._show(name, found)
        return found

    def _show(self, name: str, values: list[str]) -> None:
        self.field, self.values = name, values[:SHOWN]
        if not self.values:
            self.label.value = ""
            self.buttons.children = ()
            return
        self.label.value = markup.span(f"{name}:", tone="muted", mono=True)
        buttons = []
        for value in self.values:
            button = widgets.Button(
                description=shorten(value, LABEL_WIDTH),
                tooltip=value,
                layout=widgets.Layout(width="auto"),
            )
            button.add_class("wb-suggestion")
            button.on_click(lambda _, value=value: self.choose(name, value))
            buttons.append(button)
        for old in self.buttons.children:
            old.close()
        self.buttons.children = tuple(buttons)

    def choose(self, name: str, value: str) -> None:
        """Fill field ``name`` with a suggestion (what a click on its button does)."""
        box = self._inputs.get(name)
        if box is not None:
            box.value = value

    def close(self) -> None:
        for old in self.buttons.children:
            old.close()
