"""A tool's call form: from its input JSON Schema to fields, values, arguments and widgets.

People at a workshop would rather fill fields than type JSON, so every field gets an input of
its kind, and the raw-JSON editor stays one click away ("Form | JSON") for whoever prefers it
and for what the form cannot express. The rooms, pure ones first (no ipywidgets):

- ``fields.py``: the ``FormField`` dataclasses; paths and their CSS class (``path_class``).
- ``refs.py``, ``leaves.py`` and ``schema.py``: ``build_form(schema)``, which never raises.
- ``values.py``: ``to_arguments`` / ``initial_values`` / ``values_from_arguments``.
- ``hints.py``: placeholder texts (``integer, 5..600``, with an en dash).
- ``kit.py``, ``nodes.py``, ``nested.py``, ``view.py``: ``FormView``, the ipywidgets.

Only the registry's validator (``ToolEntry.problems``) judges arguments; the form converts
them and shows the validator's problems under their fields (``FormView.show_problems``).
``FormView`` is imported on first use, so importing the pure names loads no ipywidgets.

CSS classes, for styling and for browser tests to find things:

- ``wb-form`` the whole form; ``wb-form-header``, ``wb-mode`` (Form | JSON), ``wb-reset``,
  ``wb-json-editor`` (the raw-JSON editor), ``wb-form-message`` (a form-wide message:
  bad JSON, problems with no field on screen, arguments the form has no field for).
- ``wb-field`` and ``wb-field-<kind>`` each field's box; ``wb-label`` its label, with
  ``wb-required`` when required; ``wb-error`` the error lines under it (a line's ``title``
  holds the problem's detail, such as the pattern a value missed).
- ``wb-input`` each field's input, with ``path_class(path)``: ``wb-path-`` and the field's
  path as ``FormError`` names it (``people[0].name``), the option index added after a
  choice's path for the inputs of that option (``pet<1>.good``, ``size<0>``), every
  character but ASCII letters, digits and ``_`` replaced by ``-``: ``wb-path-people-0--name``,
  ``wb-path-pet-1--good``. The root's path is ``(arguments)`` (``wb-path--arguments-``). The
  input of a choice is its selector (also ``wb-choice``); of an optional object, its
  include checkbox (also ``wb-include``). Array items are re-numbered when one is removed.
- ``wb-group`` an object's bordered box; ``wb-item`` an array item's row,
  ``wb-add-item`` / ``wb-remove-item`` its buttons; ``wb-json-reason`` why a field is JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.widgets.form.fields import (
    ROOT_PATH,
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    path_class,
    validator_path,
)
from workbench.widgets.form.schema import build_form
from workbench.widgets.form.values import initial_values, to_arguments, values_from_arguments

if TYPE_CHECKING:
    from workbench.widgets.form.view import FormView

__all__ = [
    "ROOT_PATH",
    "ArrayField",
    "BooleanField",
    "ChoiceField",
    "ConstField",
    "FormField",
    "FormView",
    "JsonField",
    "NumberField",
    "ObjectField",
    "StringField",
    "build_form",
    "initial_values",
    "path_class",
    "to_arguments",
    "validator_path",
    "values_from_arguments",
]


def __getattr__(name: str) -> Any:
    """``FormView`` on first use: it loads ipywidgets, which the pure names do not need."""
    if name == "FormView":
        from workbench.widgets.form.view import FormView

        return FormView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
