"""``%mcp prompts``: the prompts servers list, with their arguments, in one table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp prompts")
@argument("server", nargs="?", metavar="SERVER", help="One server (default: every server).")
@argument("--cursor", metavar="CURSOR", help="Only the page after this cursor (one SERVER).")
def prompts(state: KernelState, line: str) -> None:
    """List the prompts of every server or of one; get one with `%mcp prompt NAME`."""
    args = parse_line(prompts, line)
    if args.cursor is not None and args.server is None:
        raise fail("%mcp prompts: --cursor pages through one server; name the SERVER.")
    with usage_errors():
        show(state.workbench.prompts(args.server, cursor=args.cursor))
