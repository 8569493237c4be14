"""``%mcp history``: the calls made in this kernel, and their export to JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, count, magic_arguments, parse_line
from workbench.magics.parsing import fail
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp history")
@argument("--last", type=count, metavar="N", help="Only the last N calls.")
@argument("--export", metavar="FILE.json", help="Write every call, with its result, to a file.")
@argument("--clear", action="store_true", help="Forget the calls kept so far (after --export).")
def history(state: KernelState, line: str) -> None:
    """Show past calls (tool, status, duration, start), oldest first, or export them all.
    The history keeps the newest wb.history.limit calls (5,000 unless changed)."""
    args = parse_line(history, line)
    calls = state.workbench.history
    if args.export is not None:
        try:
            target = calls.export(args.export)
        except OSError as error:
            raise fail(f"%mcp history: cannot write {args.export}: {error.strerror}.") from None
        print(f"Exported {len(calls)} call{'' if len(calls) == 1 else 's'} to {target}.")
        if args.last is None and not args.clear:
            return
    if args.clear:
        calls.clear()
        print("The history is cleared.")
        return
    from workbench.display import HistoryTable

    show(HistoryTable(calls.last(args.last)))
