"""``%mcp search``: rank every connected tool for a few words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, count, magic_arguments, parse_line
from workbench.magics.parsing import usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState

LIMIT = 15


@magic_arguments(name="mcp search")
@argument("words", nargs="+", metavar="WORDS", help="What the tool should do, in a few words.")
@argument("--server", metavar="NAME", help="Search one server's tools only.")
@argument("--limit", type=count, default=LIMIT, metavar="N", help=f"At most N hits ({LIMIT}).")
def search(state: KernelState, line: str) -> None:
    """Search tool names, titles and descriptions of every server at once; best first."""
    args = parse_line(search, line)
    from workbench.display import SearchTable

    with usage_errors():
        results = state.workbench.registry.search(
            " ".join(args.words), args.limit, server=args.server
        )
    show(SearchTable(results))
