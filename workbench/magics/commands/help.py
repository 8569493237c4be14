"""``%mcp help``: the usage of one subcommand, or of all of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp help")
@argument("subcommand", nargs="?", metavar="SUBCOMMAND", help="The subcommand to explain.")
def help(state: KernelState, line: str) -> None:
    """Show how to use a subcommand (or list them all)."""
    args = parse_line(help, line)
    from workbench.magics.router import command, overview

    print(overview() if args.subcommand is None else command(args.subcommand).help)
