"""``%mcp servers``: every connection and its health, in one table; or one server in detail
with what the MCP libraries logged about it (``%mcp servers NAME``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.session import Workbench

DETAIL = "%mcp servers NAME"


@magic_arguments(name="mcp servers")
@argument(
    "name", metavar="NAME", nargs="?", default=None,
    help="One server in detail: its row and the recent log of the MCP libraries about it.",
)  # fmt: skip
def servers(state: KernelState, line: str) -> None:
    """Show every connection: name, transport, target, status, tools, ping and last error."""
    args = parse_line(servers, line)
    from workbench.display import ServerDetail, ServerTable

    with usage_errors():
        workbench = state.workbench
        if args.name is None:
            show(ServerTable(workbench.servers(ping=True), hints=_hints(workbench)))
            return
        log = workbench.server_log(args.name)
        [info] = [info for info in workbench.servers() if info.name == args.name]
        everything = f"workbench.current().server_log({args.name!r})"
        show(ServerDetail(info, log, everything=everything))


def _hints(workbench: Workbench) -> list[str]:
    """A line naming the servers whose library log holds warnings or errors, and one saying
    what is served to outside clients."""
    from workbench.display.server_detail import has_warnings

    hints = []
    logged = [
        info.name for info in workbench.servers() if has_warnings(workbench.server_log(info.name))
    ]
    if logged:
        names = ", ".join(logged)
        hints.append(f"Warnings or errors were logged for {names}: {DETAIL} shows them.")
    served = workbench.serving
    if served is not None:
        tools, clients = len(served.tools()), served.clients
        hints.append(
            f"Serving {tools} tool{'' if tools == 1 else 's'} of {served.server} at {served.url} "
            f"to {clients} connected client{'' if clients == 1 else 's'} (%mcp serve --stop)."
        )
    return hints
