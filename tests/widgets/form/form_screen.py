"""Finding a form's widgets the way a browser test does: by CSS class, on screen only.

``shown`` walks the widget tree as it is displayed (a hidden optional object's fields are not
in it); the rest pick widgets by the classes ``workbench.widgets.form`` documents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from workbench.widgets.form import FormView, path_class


def shown(widget: Any, parent: Any = None) -> Iterator[tuple[Any, Any]]:
    """Every widget on screen under ``widget``, with its parent: what a browser would see."""
    yield widget, parent
    for child in getattr(widget, "children", ()):
        yield from shown(child, widget)


def having(view: FormView, *classes: str) -> list[Any]:
    """The widgets on screen that carry all these CSS classes."""
    return [w for w, _ in shown(view.widget) if set(classes) <= set(w._dom_classes)]


def the(view: FormView, *classes: str) -> Any:
    """The one widget on screen with these classes."""
    found = having(view, *classes)
    assert len(found) == 1, (classes, found)
    return found[0]


def field_input(view: FormView, path: str, *classes: str) -> Any:
    """The input of the field at ``path`` (``people[0].name``, ``size<1>``)."""
    return the(view, "wb-input", path_class(path), *classes)


def box_of(view: FormView, widget: Any) -> Any:
    """The ``wb-field`` box an input belongs to (its nearest one)."""
    parents = {id(w): p for w, p in shown(view.widget)}
    box = parents[id(widget)]
    while "wb-field" not in box._dom_classes:
        box = parents[id(box)]
    return box


def remove_of(view: FormView, widget: Any) -> Any:
    """The remove button of the array item ``widget`` is in (its nearest one)."""
    parents = {id(w): p for w, p in shown(view.widget)}
    row = parents[id(widget)]
    while "wb-item" not in row._dom_classes:
        row = parents[id(row)]
    button = row.children[-1]
    assert "wb-remove-item" in button._dom_classes
    return button


def errors(view: FormView) -> list[str]:
    """The texts of every error line and form message on screen."""
    return [w.value for w in having(view, "wb-error") + having(view, "wb-form-message")]


def click(view: FormView, *classes: str) -> None:
    """Click the one button with these classes."""
    the(view, *classes).click()
