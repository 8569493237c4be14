"""``%%resource`` and ``%%prompt``: a cell served as a resource or a prompt of the notebook.

``%%resource URI`` serves the cell's text at URI (``--mime-type``, ``--name``...);
``--python`` runs the cell instead and serves the function it defines (its parameters are a
template's variables) or, with no function, its last expression, evaluated at each read.
``%%prompt NAME`` serves the cell as a prompt template: ``{argument}`` placeholders are its
arguments (``{{`` for a brace). A ``%%tool`` cell serves the ``@resource`` and ``@prompt``
functions it defines too (``split_offers``). Each cell owns what it defined: re-running it
replaces that, and drops what it no longer defines.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, one_line, usage_errors
from workbench.names import LOCAL_SERVER

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.tools.prompt_definition import PromptDefinition
    from workbench.tools.resource_definition import ResourceDefinition

    Offers = tuple[list[ResourceDefinition], list[PromptDefinition]]


@magic_arguments(name="%resource")
@argument("uri", help="The resource's URI (with --python, may be a {variable} template).")
@argument("--mime-type", help="Its MIME type (default: text/plain, or from the value).")
@argument("--name", help="Its name (default: the URI's last segment, or the function's).")
@argument("--title", help="A human-readable title.")
@argument("--description", help="What it holds.")
@argument(
    "--python",
    action="store_true",
    help="Run the cell: serve the function it defines, else its last expression, "
    "evaluated at each read.",
)
def resource_cell(state: KernelState, shell: InteractiveShell, line: str, cell: str) -> None:
    """Serve the cell's text (or, with --python, what the cell computes) as a resource of
    the 'notebook' server. Re-running the cell replaces it."""
    from workbench.tools.resource_definition import ResourceDefinition, template_variables

    args = parse_line(resource_cell, line)
    cell_id = state.cell_id
    options: dict[str, Any] = {
        "mime_type": args.mime_type,
        "title": args.title,
        "description": args.description,
    }
    with usage_errors():
        if args.python:
            definition = _python_resource(shell, cell, args.uri, args.name, options)
        else:
            if template_variables(args.uri):
                raise fail(
                    f"%%resource: {args.uri} is a template; a text cell serves one URI. Use "
                    "--python with a function taking its variables."
                )
            text = cell[:-1] if cell.endswith("\n") else cell
            name = args.name or _last_segment(args.uri)
            definition = ResourceDefinition(lambda: text, args.uri, name=name, text=text, **options)
    owner = f"cell:{cell_id}" if cell_id else f"resource:{definition.uri}"
    _serve(state, owner, [definition], [])


@magic_arguments(name="%prompt")
@argument("name", help="The prompt's name.")
@argument("--title", help="A human-readable title.")
@argument("--description", help="What the prompt is for.")
def prompt_cell(state: KernelState, shell: InteractiveShell, line: str, cell: str) -> None:
    """Serve the cell as a prompt of the 'notebook' server: one user message, the cell's
    text with each {argument} filled in ({{ and }} for braces). Re-running it replaces it."""
    from workbench.tools.prompt_definition import text_prompt

    args = parse_line(prompt_cell, line)
    cell_id = state.cell_id
    text = cell[:-1] if cell.endswith("\n") else cell
    with usage_errors():
        definition = text_prompt(args.name, text, description=args.description, title=args.title)
    owner = f"cell:{cell_id}" if cell_id else f"prompt:{definition.name}"
    _serve(state, owner, [], [definition])


def split_offers(namespace: dict[str, Any], names: Sequence[str]) -> tuple[list[str], Offers]:
    """The names that are no ``@resource`` / ``@prompt`` (tools), and those that are."""
    from workbench.tools.prompt_definition import PromptDefinition
    from workbench.tools.resource_definition import ResourceDefinition

    tools: list[str] = []
    resources: list[ResourceDefinition] = []
    prompts: list[PromptDefinition] = []
    for name in names:
        value = namespace.get(name)
        if isinstance(value, ResourceDefinition):
            resources.append(value)
        elif isinstance(value, PromptDefinition):
            prompts.append(value)
        else:
            tools.append(name)
    return tools, (resources, prompts)


def serve_offers(state: KernelState, owner: str, offers: Offers) -> int:
    """Make ``offers`` what ``owner`` serves (a ``%%tool`` cell); how many it serves."""
    resources, prompts = offers
    _serve(state, owner, resources, prompts)
    return len(resources) + len(prompts)


def offers_owner(state: KernelState, offers: Offers) -> str:
    """A cell without a front-end id: the owner of a URI or prompt it defines again, else
    one named after the first."""
    resources, prompts = offers
    workbench = state.existing
    if workbench is not None:
        found = [workbench.resource_owner(d.uri) for d in resources]
        found += [workbench.prompt_owner(p.name) for p in prompts]
        for owner in found:
            if owner is not None:
                return owner
    if resources:
        return f"resource:{resources[0].uri}"
    return f"prompt:{prompts[0].name}" if prompts else "function:"


def _serve(
    state: KernelState,
    owner: str,
    resources: list[ResourceDefinition],
    prompts: list[PromptDefinition],
) -> None:
    with usage_errors():
        change = state.workbench.set_owned_offers(owner, resources, prompts)
    dropped = [*change.removed_resources, *change.removed_prompts]
    if dropped:
        print(f"Removed {', '.join(dropped)} from {LOCAL_SERVER}.")
    for definition in resources:
        kind = "resource template" if definition.is_template else "resource"
        print(f"Serving {kind} {definition.uri} ({definition.name}) on {LOCAL_SERVER}.")
    for prompt in prompts:
        arguments = ", ".join(a.name for a in prompt.arguments) or "no arguments"
        print(f"Serving prompt {prompt.name} ({arguments}) on {LOCAL_SERVER}.")


def _python_resource(
    shell: InteractiveShell, cell: str, uri: str, name: str | None, options: dict[str, Any]
) -> ResourceDefinition:
    """The function the cell defines, or its last expression evaluated at each read."""
    from workbench.tools.resource_definition import ResourceDefinition

    try:
        tree = ast.parse(shell.transform_cell(cell))  # type: ignore[no-untyped-call]
    except SyntaxError as error:
        raise fail(f"%%resource: SyntaxError on line {error.lineno}: {error.msg}.") from None
    defined = (ast.FunctionDef, ast.AsyncFunctionDef)
    functions = [n.name for n in tree.body if isinstance(n, defined) and n.name[:1] != "_"]
    last = tree.body[-1] if tree.body else None
    if not functions and not isinstance(last, ast.Expr):
        raise fail("%%resource --python: the cell defines no function and ends in no expression.")
    if len(functions) > 1:
        raise fail(f"%%resource --python: the cell defines {', '.join(functions)}; keep one.")
    result = shell.run_cell(cell, store_history=False, silent=True)  # type: ignore[no-untyped-call]
    raised = result.error_before_exec or result.error_in_exec
    if raised is not None:
        raise fail(f"%%resource: the cell raised {type(raised).__name__}; nothing was served.")
    namespace = shell.user_ns
    if functions:
        fn = namespace[functions[0]]
        return ResourceDefinition(fn, uri, name=name, **options)
    assert isinstance(last, ast.Expr)
    code = compile(ast.Expression(last.value), f"<%%resource {uri}>", "eval")
    source = one_line(ast.unparse(last.value), 60)

    def read() -> Any:
        return eval(code, namespace)

    read.__doc__ = f"The value of {source}, at each read."
    read._workbench_expression = source  # type: ignore[attr-defined]  # export says why not
    return ResourceDefinition(read, uri, name=name or _last_segment(uri), **options)


def _last_segment(uri: str) -> str:
    """``data://notes/today`` -> ``today``: a resource's default name."""
    tail = uri.rstrip("/").rsplit("/", 1)[-1]
    return tail.split(":")[-1] or uri
