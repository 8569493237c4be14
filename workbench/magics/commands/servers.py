"""``%mcp servers``: every connection and its health, in one table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import magic_arguments, parse_line
from workbench.magics.parsing import usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp servers")
def servers(state: KernelState, line: str) -> None:
    """Show every connection: name, transport, target, status, tool count and last error."""
    parse_line(servers, line)
    from workbench.display import ServerTable

    with usage_errors():
        show(ServerTable(state.workbench.servers()))
