"""``FormView``: a tool's input form drawn with ipywidgets, and the validator's verdict shown
under the fields it names.

The form converts (``arguments()``, raising ``FormError`` for what cannot become JSON); the
registry's validator judges (``ToolEntry.problems``), and ``show_problems`` puts each of its
sentences under its field. The call path uses the same validator, so the form and the call
never disagree about what is valid.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from workbench.display import markup
from workbench.errors import FormError
from workbench.widgets.form.fields import ROOT_PATH, FormField, ObjectField, validator_path
from workbench.widgets.form.kit import Kit, error_html
from workbench.widgets.form.nested import make
from workbench.widgets.form.nodes import Node
from workbench.widgets.form.schema import build_form
from workbench.widgets.form.values import (
    convert,
    initial_values,
    json_text,
    to_arguments,
    values_from_arguments,
)

Problems = Sequence[tuple[str, str]]
"""What ``ToolEntry.problems`` returns: ``(path, message)`` pairs (``Problem``s, which may
carry a ``detail``), paths as the validator writes them (``people.0.name``)."""
Validate = Callable[[dict[str, Any]], Problems]


class FormView:
    """An ipywidgets form for one tool's input schema, with a raw-JSON editor always available.

    ``schema`` None is a tool without arguments. ``arguments`` fill the form ("run again");
    without them it shows the schema's defaults. ``validate`` (``entry.problems``) lets
    ``check()`` read and judge the form in one step.
    """

    def __init__(
        self,
        schema: Mapping[str, Any] | None,
        *,
        arguments: Mapping[str, Any] | None = None,
        validate: Validate | None = None,
    ) -> None:
        self.form: FormField = build_form({"type": "object"} if schema is None else schema)
        self.validate = validate
        self.problems: list[tuple[str, str]] = []
        self._kit = Kit()
        start = initial_values(self.form)
        # An object's fields stand on their own; anything else keeps its label.
        bare = isinstance(self.form, ObjectField)
        self._root = make(self.form, self._kit, "", "", start, bare=bare)
        self._json_mode = False
        self._marked: list[Node] = []
        self._build_chrome()
        if arguments is not None:
            self.set_arguments(arguments)

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

    # --- reading, judging, writing --------------------------------------------------------

    def values(self) -> Any:
        """The generated form's values, in ``values.py``'s convention."""
        return self._root.get()

    def arguments(self) -> dict[str, Any]:
        """The call arguments: from the form, or parsed from the JSON editor in JSON mode.

        Clears what was shown before. Raises ``FormError`` only for values that cannot
        become arguments, shown under their fields (or above the editor); whether the
        arguments are valid is ``show_problems``'s business. With ``validate``, the rest of
        the form is judged too before raising, so every problem shows in one round (the
        error then counts them all).
        """
        self._clear_errors()
        if self._json_mode:
            try:
                return self._parse_editor()
            except FormError as error:
                self._show_error(error)
                raise
        arguments, failed = convert(self.form, self._root.get())
        if not failed:
            return arguments
        found: list[tuple[str, str]] = [_as_problem(error) for error in failed]
        if self.validate is not None:
            found += [p for p in self.validate(arguments) if not _under(p[0], failed)]
        self.show_problems(found)
        if len(found) == 1:
            raise failed[0]
        raise FormProblems(len(found))

    def show_problems(self, problems: Problems) -> None:
        """Show the validator's problems, each under the field its path names (or, with no
        such field on screen or in JSON mode, above the form); ``[]`` clears."""
        self._clear_errors()
        self.problems = list(problems)
        nodes = {} if self._json_mode else self._nodes_by_path()
        lines: dict[int, tuple[Node, list[tuple[str, str | None]]]] = {}
        loose: list[tuple[str, str | None]] = []
        for problem in self.problems:
            path, message = problem
            detail = getattr(problem, "detail", None)
            node, rest = _place(nodes, path)
            if node is None:
                loose.append((f"{path}: {message}", detail))
            else:
                shown = f"{rest}: {message}" if rest else message
                lines.setdefault(id(node), (node, []))[1].append((shown, detail))
        for node, found in lines.values():
            node.show_errors(found)
            self._marked.append(node)
        if loose:
            self._show_message(error_html(loose))

    def check(self) -> list[tuple[str, str]]:
        """Read the arguments and show ``validate``'s verdict on them; the problems (none
        without ``validate``). Raises ``FormError`` as ``arguments()`` does."""
        arguments = self.arguments()
        if self.validate is None:
            return []
        self.show_problems(self.validate(arguments))
        return self.problems

    def set_arguments(self, arguments: Mapping[str, Any]) -> None:
        """Fill the form and the JSON editor with these arguments ("run again")."""
        self._clear_errors()
        self._fill(dict(arguments))
        self._editor.value = json_text(dict(arguments))

    def reset(self) -> None:
        """Back to the schema's defaults, in the form and in the JSON editor."""
        self._clear_errors()
        self._root.set(initial_values(self.form))
        try:
            self._editor.value = json_text(to_arguments(self.form, self._root.get()))
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
            self._editor.value = json_text(to_arguments(self.form, self._root.get()))
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

    def _nodes_by_path(self) -> dict[str, Node]:
        """The fields on screen by the validator's path; the outermost node of a path (a
        choice, not its option) and never the root, whose problems go above the form."""
        nodes: dict[str, Node] = {}
        for node in self._root.walk():
            if node.where:
                nodes.setdefault(validator_path(node.where), node)
        return nodes

    def _show_error(self, error: FormError) -> None:
        node = None
        if not self._json_mode and error.path != ROOT_PATH:
            node = self._nodes_by_path().get(validator_path(error.path))
        if node is None:
            self._show_message(error_html([(str(error), None)]))
        else:
            node.show_errors([(error.message, None)])
            self._marked.append(node)

    def _show_message(self, html: str | None) -> None:
        """A message above the form or the editor (bad JSON, problems with no field)."""
        self._message = None if html is None else self._kit.note(html, ("wb-form-message",))
        self._show_main(self._main)

    def _show_main(self, main: Any) -> None:
        self._main = main
        self._body.children = (main,) if self._message is None else (self._message, main)

    def _clear_errors(self) -> None:
        for node in self._marked:
            node.show_errors(())
        self._marked = []
        self.problems = []
        if self._message is not None:
            self._show_message(None)


class FormProblems(FormError):
    """Several values of the form are wrong; each is shown under its field."""

    def __init__(self, count: int) -> None:
        super().__init__(ROOT_PATH, f"{count} problems in the form: see under the fields.")
        self.args = (self.message,)

    def __str__(self) -> str:
        return self.message


def _as_problem(error: FormError) -> tuple[str, str]:
    """A conversion error as the validator words a problem: its path, then why."""
    return validator_path(error.path), error.message


def _under(path: str, failed: Sequence[FormError]) -> bool:
    """Whether a validator problem is about a value that did not convert (it was sent as
    null, so the validator's word on it is beside the point)."""
    for error in failed:
        where = validator_path(error.path)
        if where == ROOT_PATH or path == where or path.startswith(where + "."):
            return True
    return False


def _place(nodes: Mapping[str, Node], path: str) -> tuple[Node | None, str]:
    """The node a problem's path names, else its nearest ancestor on screen (with the rest of
    the path, e.g. inside a raw-JSON field); ``(None, path)`` when there is none."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        node = nodes.get(".".join(parts[:cut]))
        if node is not None:
            return node, ".".join(parts[cut:])
    return None, path
