"""How models are shown, without the model room knowing the views.

``Action`` and ``Observation`` answer rich (``__rich__``) and Jupyter
(``_repr_mimebundle_``) by asking for the view installed for their type. The display room
installs its views (``workbench.display.install_views``), so there is one rendering
per model and ``workbench/tools`` imports neither rich nor ``workbench.display``. Before
any view is installed a model shows as its plain ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

ViewFactory = Callable[[Any], Any]
"""Makes a view (a rich renderable with ``_repr_mimebundle_``) of one model."""

_VIEWS: dict[type, ViewFactory] = {}


def install_view(model: type, make_view: ViewFactory) -> None:
    """Show ``model`` (and its subclasses) through ``make_view``; the display room calls it."""
    _VIEWS[model] = make_view


def view_of(value: object) -> Any | None:
    """The view installed for ``value``'s type (or a base of it), or None."""
    for kind in type(value).__mro__:
        make_view = _VIEWS.get(kind)
        if make_view is not None:
            return make_view(value)
    return None


class Viewed:
    """Mixin: display through the installed view, or as ``repr`` when there is none."""

    def __rich__(self) -> Any:
        view = view_of(self)
        return repr(self) if view is None else view

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        view = view_of(self)
        if view is None:
            return {"text/plain": repr(self)}
        bundle: dict[str, Any] = view._repr_mimebundle_(include, exclude)
        return bundle
