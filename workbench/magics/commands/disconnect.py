"""``%mcp disconnect``: close connections, stopping their processes and dropping their tools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, one_line, usage_errors
from workbench.names import LOCAL_SERVER

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp disconnect")
@argument("names", nargs="*", metavar="NAME", help="The servers to disconnect.")
@argument("--all", action="store_true", help="Disconnect every server (except 'notebook').")
def disconnect(state: KernelState, line: str) -> None:
    """Disconnect servers: stop their processes and remove their tools from the registry.

    Naming 'notebook' drops the tools of every %%tool cell; re-run a cell to serve its
    tools again. --all leaves 'notebook' alone.
    """
    args = parse_line(disconnect, line)
    if bool(args.names) == args.all:
        raise fail("%mcp disconnect: give server names or --all (not both).")
    workbench = state.existing
    connected = [info.name for info in workbench.servers()] if workbench else []
    if args.all:
        names = [name for name in connected if name != LOCAL_SERVER]
    else:
        names = list(dict.fromkeys(args.names))
        unknown = [name for name in names if name not in connected]
        if unknown:
            known = ", ".join(name for name in connected if name != LOCAL_SERVER) or "none"
            raise fail(f"No server named {one_line(unknown[0])!r} (connected: {known}).")
    if workbench is None or not names:
        print("No servers to disconnect.")
        return
    with usage_errors():
        workbench.disconnect(*names)
    print(f"Disconnected {', '.join(names)}.")
