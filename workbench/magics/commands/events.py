"""``%mcp events``: what event tools emitted, as a table that follows new events live."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, count, magic_arguments, parse_line
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.display.events import LiveEventTable
    from workbench.kernel import KernelState

_LIVE: weakref.WeakKeyDictionary[Any, LiveEventTable] = weakref.WeakKeyDictionary()
"""The live table of each event log: a new ``%mcp events`` stops the one before."""


@magic_arguments(name="mcp events")
@argument("--last", type=count, metavar="N", help="Show the last N events, not following.")
@argument("--clear", action="store_true", help="Forget the events kept so far.")
def events(state: KernelState, line: str) -> None:
    """Show the kernel's event log (events emitted by event tools, newest last), updated
    in place as new events come; --last N shows a still snapshot."""
    args = parse_line(events, line)
    log = state.workbench.events
    if args.clear:
        log.clear()
        print("The event log is cleared.")
        return
    from workbench.display.events import EventTable, LiveEventTable

    if args.last is not None:
        show(EventTable(log.last(args.last), total=len(log)))
        return
    previous = _LIVE.pop(log, None)
    if previous is not None:
        previous.close()
    table = LiveEventTable(log)
    if table.live:
        _LIVE[log] = table
    else:
        show(table.view())
