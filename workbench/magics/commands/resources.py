"""``%mcp resources``: the resources (or resource templates) servers list, in one table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp resources")
@argument("server", nargs="?", metavar="SERVER", help="One server (default: every server).")
@argument("--templates", action="store_true", help="List resource templates ({variables}).")
@argument("--cursor", metavar="CURSOR", help="Only the page after this cursor (one SERVER).")
def resources(state: KernelState, line: str) -> None:
    """List the resources of every server or of one; --templates lists URI templates.

    Read one with `%mcp read URI`, a template with `%mcp read TEMPLATE name=value`.
    """
    args = parse_line(resources, line)
    if args.cursor is not None and args.server is None:
        raise fail("%mcp resources: --cursor pages through one server; name the SERVER.")
    with usage_errors():
        workbench = state.workbench
        listing = workbench.resource_templates if args.templates else workbench.resources
        show(listing(args.server, cursor=args.cursor))
