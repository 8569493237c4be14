"""``%%tool``: run a cell, and serve every public function it defines as a notebook tool.

Re-running a cell replaces its tools and removes the ones it no longer defines, so a cell
must be recognised across runs (its *owner*). The front end's cell id is the owner when
there is one (JupyterLab and Notebook 7 send it); otherwise the owner of any tool name the
cell defines again, so editing a cell keeps its identity as long as one name survives.

The functions stay the plain functions the cell defined: the tool is served from a copy of
their description, and ``type()``, pickling and debugging of the function are unchanged.
"""

from __future__ import annotations

import ast
import inspect
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.offer_cells import offers_owner, serve_offers, split_offers
from workbench.magics.parsing import fail, one_line, usage_errors
from workbench.magics.views import show
from workbench.names import LOCAL_SERVER

if TYPE_CHECKING:
    from argparse import Namespace

    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.magics.offer_cells import Offers
    from workbench.tools.definition import ToolDefinition

HINTS = {
    "read_only": "readOnlyHint",
    "destructive": "destructiveHint",
    "idempotent": "idempotentHint",
    "open_world": "openWorldHint",
}


@magic_arguments(name="%tool")
@argument("--name", help="The tool's name (default: the function's).")
@argument("--title", help="A human-readable title.")
@argument("--description", help="The description (default: the docstring).")
@argument("--read-only", action="store_true", help="It changes nothing (readOnlyHint).")
@argument("--destructive", action="store_true", help="It may delete or overwrite.")
@argument("--idempotent", action="store_true", help="Repeating a call changes nothing more.")
@argument("--open-world", action="store_true", help="It reaches outside systems.")
@argument("--tags", action="append", default=[], metavar="TAG[,TAG...]", help="Tags.")
@argument(
    "--icon",
    action="append",
    default=[],
    metavar="SRC",
    help="An icon: a data: URI, an https URL or a local image file (read now); repeatable.",
)
@argument(
    "--enabled",
    metavar="EXPR",
    help="A Python expression, evaluated in the notebook whenever the tools are served "
    "(listed or called by an outside client): false hides them.",
)
@argument(
    "--task",
    nargs="?",
    const="optional",
    choices=["optional", "required"],
    help="Outside clients that speak the MCP tasks extension get a task back (optional), "
    "or only they may call it (required).",
)
@argument(
    "--ui",
    metavar="APP",
    help="The MCP App (a %%%%app APP cell: ui://notebook/APP) that shows its results.",
)
@argument(
    "--app-only",
    action="store_true",
    help="With --ui: only Apps call it; models and tool lists do not see it (visibility app).",
)
def tool_cell(state: KernelState, shell: InteractiveShell, line: str, cell: str) -> None:
    """Run the cell; serve each public top-level function it defines as a tool on the
    'notebook' server and show its card. The options apply to a cell with one function.

    Re-running the cell replaces its tools and removes those it no longer defines. A cell
    that fails, or a function that cannot become a tool, registers nothing.
    """
    args = parse_line(tool_cell, line)
    cell_id = state.cell_id  # read now: the cell run below fires pre_run_cell again
    names = _public_functions(shell, cell)
    options = _options(args)
    enabled = _enabled(shell, args.enabled)
    if options and len(names) != 1:
        listed = f" ({', '.join(names)})" if names else ""
        raise fail(
            "%%tool: --name, --title, --description, the hints, --tags, --icon and --ui apply to "
            f"a cell that defines one function; this one defines {len(names)}{listed}."
        )
    result = _run_body(shell, cell)
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
        kind = type(error).__name__
        raise fail(f"%%tool: the cell raised {kind}; no tools were registered from it.")
    names, offers = split_offers(shell.user_ns, names)  # @resource and @prompt functions
    definitions = _definitions(shell.user_ns, names, options)
    for definition in definitions:
        if enabled is not None:
            definition.enabled = enabled
        if args.task is not None:
            definition.task = args.task
        nudge = _nudge(definition)
        if nudge:
            _tip(nudge)
    owner = _owner(state, cell_id, [definition.name for definition in definitions], offers)
    with usage_errors():
        change = state.workbench.set_owned_tools(owner, definitions)
    entries = change.entries
    if change.removed:
        print(f"Removed {', '.join(f'{LOCAL_SERVER}.{name}' for name in change.removed)}.")
    if serve_offers(state, owner, offers) == 0 and not entries:
        print("This cell defines no public function, so it serves no tools.")
    from workbench.display import ToolCard

    for entry in entries:
        show(ToolCard(entry))


def _run_body(shell: InteractiveShell, cell: str) -> Any:
    """Run the body as part of its cell, so tracebacks and a tool's errors name the cell
    as the notebook shows it: numbered like it (IPython counted the cell before running it)
    and with the lines below the ``%%tool`` line where the cell shows them."""
    shell.execution_count -= 1
    try:
        # A comment stands for the %%tool line: IPython drops leading blank lines.
        return shell.run_cell("# %%tool\n" + cell, store_history=False)  # type: ignore[no-untyped-call]
    finally:
        shell.execution_count += 1


def _public_functions(shell: InteractiveShell, cell: str) -> list[str]:
    """Names of the functions the cell defines at top level, not starting with ``_``.

    A cell that does not parse is never run: one line says where and why, instead of a
    traceback naming another prompt's cell followed by a second error.
    """
    try:
        source: str = shell.transform_cell(cell)  # type: ignore[no-untyped-call]
        tree = ast.parse(source)
    except SyntaxError as error:
        where = f" on line {error.lineno}" if error.lineno else ""
        text = f": {one_line(error.text)}" if error.text and error.text.strip() else ""
        raise fail(
            f"%%tool: SyntaxError{where}: {error.msg}{text}. No tools were registered."
        ) from None
    except ValueError as error:  # a null byte, say
        raise fail(f"%%tool: the cell cannot be read: {one_line(str(error))}.") from None
    defined = (ast.FunctionDef, ast.AsyncFunctionDef)
    names = [node.name for node in tree.body if isinstance(node, defined)]
    return [name for name in dict.fromkeys(names) if not name.startswith("_")]


def _options(args: Namespace) -> dict[str, Any]:
    """The ``@tool`` keywords the flags ask for (none when no flag was given)."""
    options: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("name", "title", "description")
        if getattr(args, key) is not None
    }
    hints = {hint: True for flag, hint in HINTS.items() if getattr(args, flag)}
    if hints:
        options["annotations"] = hints
    tags = [tag.strip() for given in args.tags for tag in given.split(",") if tag.strip()]
    if tags:
        options["tags"] = tags
    if args.icon:
        options["icons"] = list(args.icon)
    if args.ui is not None or args.app_only:
        from workbench.tools.app_definition import Visibility, with_ui

        visibility: list[Visibility] | None = ["app"] if args.app_only else None
        with usage_errors():
            options["meta"] = with_ui(None, args.ui, visibility, "%%tool --ui")
    return options


def _enabled(shell: InteractiveShell, expression: str | None) -> Callable[[], object] | None:
    """``--enabled EXPR`` as a predicate evaluated in the user namespace at each use."""
    if expression is None:
        return None
    try:
        code = compile(expression, "<%%tool --enabled>", "eval")
    except SyntaxError as error:
        raise fail(
            f"%%tool: --enabled {expression!r} is no Python expression: {error.msg}."
        ) from None
    namespace = shell.user_ns
    return lambda: eval(code, namespace)


def _definitions(
    namespace: dict[str, Any], names: Sequence[str], options: dict[str, Any]
) -> list[ToolDefinition[Any, Any]]:
    """A ToolDefinition per function, all made before any is registered; a function that
    cannot become a tool stops the cell. Schema fallbacks are allowed, and shown."""
    from workbench.tools.definition import ToolDefinition
    from workbench.tools.from_function import FunctionTool

    definitions: list[ToolDefinition[Any, Any]] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in names:
            value = namespace.get(name)
            if isinstance(value, ToolDefinition):
                if options:
                    raise fail(f"%%tool: {name} is already a @tool; give it options there.")
                definitions.append(value)
                continue
            if not callable(value):
                raise fail(f"%%tool: {name} is no longer a function after the cell ran.")
            try:
                definitions.append(FunctionTool(value, **options))
            except Exception as error:  # a ToolDefinitionError, or pydantic refusing a type
                raise fail(
                    f"%%tool: {name} cannot become a tool: {one_line(str(error), 200)} "
                    "No tools were registered from this cell."
                ) from None
    for warning in caught:
        print(f"Warning: {warning.message}", file=sys.stderr)
    return definitions


def _nudge(definition: ToolDefinition[Any, Any]) -> str | None:
    """One line for a function that says nothing about itself: its hints become the schema
    and its docstring the description, which is all a caller (or a model) gets to read."""
    fn = getattr(definition, "fn", None)
    if fn is None:
        return None
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    missing = []
    if any(parameter.annotation is parameter.empty for parameter in parameters):
        missing.append("type hints")
    if not inspect.getdoc(fn):
        missing.append("docstring")
    if not missing:
        return None
    return (
        f"Tip: {LOCAL_SERVER}.{definition.name} has no {' and no '.join(missing)}; a tool's "
        "type hints become its schema and its docstring the description callers read."
    )


def _tip(text: str) -> None:
    """A tip as a display, not printed: a notebook draws printed text with ``word-break:
    break-all`` (JupyterLab's stream output), which breaks the sentence mid-word."""
    from IPython.display import display

    from workbench.display import markup

    html = f'<div style="margin:3px 0">{markup.span(text, tone="accent")}</div>'
    display({"text/plain": text, "text/html": html}, raw=True)  # type: ignore[no-untyped-call]


def _owner(
    state: KernelState, cell_id: str | None, names: Sequence[str], offers: Offers = ([], [])
) -> str:
    """Which cell this is: its front-end id, else the owner of a name it defines again,
    else a new owner named after its first tool (or resource, or prompt)."""
    if cell_id:
        return f"cell:{cell_id}"
    if not names:
        return offers_owner(state, offers)
    workbench = state.existing
    for name in names:
        owner = workbench.tool_owner(name) if workbench is not None else None
        if owner is not None:
            return owner
    return f"function:{names[0]}" if names else "function:"
