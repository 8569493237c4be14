"""``%mcp logout``: forget a server's cached OAuth tokens (the next connection signs in)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import usage_errors

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp logout")
@argument("name", metavar="NAME", help="The server signed in to with OAuth.")
def logout(state: KernelState, line: str) -> None:
    """Sign out of a server: remove its cached OAuth tokens and client registration.

    The connection is closed; its settings stay, so a reconnect signs in again.
    """
    args = parse_line(logout, line)
    with usage_errors():
        removed = state.workbench.logout(args.name)
    if removed:
        print(
            f"Signed out of {args.name}: its cached tokens were removed "
            f"(%mcp reconnect {args.name} signs in again)."
        )
    else:
        print(f"No cached tokens for {args.name}: nothing was removed.")
