"""``%mcp browse``: the tool browser widget, over the Workbench the magics use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.widgets.browser import ToolBrowser


@magic_arguments(name="mcp browse")
@argument("words", nargs="*", metavar="WORDS", help="Start with this search typed in.")
@argument("--server", default="", metavar="NAME", help="Start with one server's tools only.")
def browse(state: KernelState, line: str) -> ToolBrowser:
    """Open a widget to search, open and call every connected tool, with forms from each
    tool's schema and a History tab; it follows new connections and %%tool cells live.
    Re-running the cell replaces the browser it made before."""
    args = parse_line(browse, line)
    servers = state.workbench.registry.servers()
    if args.server and args.server not in servers:
        known = ", ".join(servers) or "none yet"
        raise fail(f"%mcp browse: no server named {args.server!r} (connected: {known}).")
    return state.browse(" ".join(args.words), server=args.server)
