"""``%mcp reconnect``: reopen a connection with the settings it was made with."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import usage_errors
from workbench.magics.views import show, tool_table

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp reconnect")
@argument("name", metavar="NAME", help="The server to reconnect.")
def reconnect(state: KernelState, line: str) -> None:
    """Reconnect a server (a restarted process, a refreshed token) and show its tools."""
    args = parse_line(reconnect, line)
    with usage_errors():
        workbench = state.workbench
        info = workbench.reconnect(args.name)
    show(tool_table(workbench, [info.name]))
