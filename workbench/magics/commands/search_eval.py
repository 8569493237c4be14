"""``%mcp search-eval FILE``: how well search finds the expected tools of your requests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, count, magic_arguments, parse_line
from workbench.magics.parsing import fail, one_line, usage_errors
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState

LIMIT = 10


@magic_arguments(name="mcp search-eval")
@argument(
    "file",
    metavar="FILE",
    help='Requests, a JSONL or CSV file: {"text": ..., "expected": [ids] or null, "kind": ...}.',
)
@argument(
    "--compare",
    action="store_true",
    help="Every search method available side by side (keyword, no synonyms, semantic, "
    "your embedder, fusions), with query time and index time.",
)
@argument("--method", metavar="NAME", help="One method instead of search as configured.")
@argument("--limit", type=count, default=LIMIT, metavar="N", help=f"Rank N tools ({LIMIT}).")
def search_eval(state: KernelState, line: str) -> None:
    """Measure search on the connected tools: top-1, top-5, MRR, per kind, misses explained."""
    args = parse_line(search_eval, line)
    path = Path(args.file).expanduser()
    if not path.is_file():
        raise fail(f"No requests file {one_line(str(path))!r}.")
    from workbench.registry.lab import SearchLab

    with usage_errors():
        lab = SearchLab(state.workbench.registry, path, limit=args.limit)
        try:
            if args.compare:
                result: object = lab.compare([args.method] if args.method else None)
            else:
                result = lab.evaluate(args.method or "search")
        except ValueError as error:  # an unknown method name
            raise fail(str(error)) from None
    show(result)
