"""Search time against query length, at 10,000 tools (issue 12, F10).

A search box takes whatever is typed or pasted; a long paste must not block the kernel. This
builds a synthetic catalog of 10,000 tools (1,000 servers of 10, names and descriptions from
a small vocabulary, with parameters) and times ``Registry.search`` for queries of 1 to
100,000 characters, three shapes each: prose (words repeated), one unbroken word, and
distinct 20-letter words (the most typo fixes a query can ask for). Then the same for the
browser's search box (``ToolList``): the kernel's work for one keystroke, from the page's
``request`` to the ``answer`` (search, rows, note), and the answer's size on the wire. Each
figure is the median of several runs after one warm-up; the ratio is to a typical three-word
query's time. The catalog is ``tests/catalogs.py``'s, as the tests search.

    .venv/bin/python benchmarks/search_query_length.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.catalogs import distinct_words, synthetic_catalog  # noqa: E402
from workbench.widgets.tool_list import ToolList  # noqa: E402

LENGTHS = (1, 10, 100, 1_000, 10_000, 100_000)
RUNS = 5
PROSE = "create a calendar event for the team meetng next week and invite everyone "


def median_ms(search: Callable[[str], object], query: str) -> float:
    search(query)  # warm-up: compiled postings, typo keys
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        search(query)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def shapes(length: int) -> tuple[str, str, str]:
    """Prose (words repeated), one unbroken word, distinct 20-letter words."""
    return ((PROSE * (length // len(PROSE) + 1))[:length], "q" * length, distinct_words(length))


def table(title: str, search: Callable[[str], object], wire: Callable[[], int] | None) -> None:
    """One row per length: each shape's median, the slowest against a typical query."""
    typical = median_ms(search, "create calendar event")
    print(f"\n{title}; typical query 'create calendar event': {typical:.2f} ms")
    extra = "  answer bytes" if wire else ""
    print(
        f"{'characters':>10}  {'prose ms':>9}  {'one word ms':>11}  {'distinct ms':>11}"
        f"  {'slowest':>14}{extra}"
    )
    for length in LENGTHS:
        prose_ms, word_ms, distinct_ms = (median_ms(search, query) for query in shapes(length))
        slowest = max(prose_ms, word_ms, distinct_ms)
        size = ""
        if wire:
            size = f"  {max(wire_after(search, wire, query) for query in shapes(length)):>12,}"
        print(
            f"{length:>10,}  {prose_ms:>9.2f}  {word_ms:>11.2f}  {distinct_ms:>11.2f}"
            f"  {f'x{slowest / typical:.1f} typical':>14}{size}"
        )


def wire_after(search: Callable[[str], object], wire: Callable[[], int], query: str) -> int:
    search(query)
    return wire()


def main() -> None:
    started = time.perf_counter()
    registry = synthetic_catalog()
    print(f"catalog: {len(registry)} tools, built in {time.perf_counter() - started:.1f} s")
    table("Registry.search", registry.search, None)
    tool_list = ToolList(registry)
    table(
        "ToolList, the browser's search box: a keystroke's request to its answer",
        tool_list.search,
        lambda: len(json.dumps(tool_list.answer)),
    )


if __name__ == "__main__":
    main()
