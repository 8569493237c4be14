"""``%mcp log-level``: ask a server to send its log messages from a level up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.features.log_levels import LOG_LEVELS as LEVELS
from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import usage_errors

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp log-level")
@argument("server", metavar="SERVER", help="A connected server.")
@argument("level", metavar="LEVEL", help=f"One of {', '.join(LEVELS)}.")
def log_level(state: KernelState, line: str) -> None:
    """Ask a server to send log messages at LEVEL and above (MCP's logging/setLevel).

    The workbench shows those at workbench.current().log_level and above.
    """
    args = parse_line(log_level, line)
    with usage_errors():
        state.workbench.set_server_log_level(args.server, args.level)
    print(f"{args.server} now sends log messages at {args.level} and above.")
