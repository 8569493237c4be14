"""``%mcp tools``: the tools of every server or of one, or one tool's card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, one_line, usage_errors
from workbench.magics.views import show, tool_table

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp tools")
@argument("ref", nargs="?", metavar="SERVER | TOOL", help="A server, or a tool id for its card.")
def tools(state: KernelState, line: str) -> None:
    """List tools: every tool, one server's tools, or one tool's card with its parameters."""
    args = parse_line(tools, line)
    with usage_errors():
        workbench = state.workbench
        servers = [info.name for info in workbench.servers()]
    if args.ref is None:
        show(tool_table(workbench, sorted({*servers, *workbench.registry.servers()})))
        return
    if args.ref in servers or args.ref in workbench.registry.servers():
        show(tool_table(workbench, [args.ref]))
        return
    from workbench.display import ToolCard
    from workbench.errors import AmbiguousToolError, ToolNotFoundError

    try:
        entry = workbench.registry.get(args.ref)
    except AmbiguousToolError as error:
        raise fail(str(error)) from None
    except ToolNotFoundError as error:
        hint = f" Did you mean: {', '.join(error.suggestions)}?" if error.suggestions else ""
        known = ", ".join(servers) or "none connected"
        raise fail(
            f"No server or tool named {one_line(args.ref)!r} (servers: {known}).{hint}"
        ) from None
    show(ToolCard(entry))
