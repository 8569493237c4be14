"""Search time against query length, at 10,000 tools (issue 12, F10).

A search box takes whatever is typed or pasted; a long paste must not block the kernel. This
builds a synthetic catalog of 10,000 tools (1,000 servers of 10, names and descriptions from
a small vocabulary, with parameters) and times ``Registry.search`` for queries of 1 to
100,000 characters, three shapes each: prose (words repeated), one unbroken word, and
distinct 20-letter words (the most typo fixes a query can ask for). Each figure is the median
of several runs after one warm-up; the ratio is to a typical three-word query's time.

    .venv/bin/python benchmarks/search_query_length.py
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from workbench import Registry

TOOLS = 10_000
PER_SERVER = 10
LENGTHS = (1, 10, 100, 1_000, 10_000, 100_000)
RUNS = 5
VERBS = "get list create update delete search send read write run check export".split()
NOUNS = (
    "file issue ticket message channel calendar event invoice customer repository branch "
    "commit page table record metric alert user team document note order payment"
).split()
PROSE = "create a calendar event for the team meetng next week and invite everyone "


def catalog() -> Registry:
    """10,000 tools across 1,000 servers; the same catalog on every run (seeded)."""
    rng = random.Random(12)
    registry = Registry()
    for server in range(TOOLS // PER_SERVER):
        tools: list[dict[str, Any]] = []
        for index in range(PER_SERVER):
            verb, noun, other = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(NOUNS)
            tools.append(
                {
                    "name": f"{verb}_{noun}_{index}",
                    "description": f"{verb.title()} a {noun} of the {other}, by id or name.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            f"{noun}_id": {"type": "string", "description": f"The {noun}."},
                            "limit": {"type": "integer", "description": "How many at most."},
                        },
                    },
                }
            )
        registry.add_tools(f"srv{server}", tools)
    return registry


def median_ms(registry: Registry, query: str) -> float:
    registry.search(query)  # warm-up: compiled postings, typo keys
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        registry.search(query)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def distinct_words(length: int) -> str:
    """Different misspelt-looking words of 20 letters: each may need its typo fixes."""
    rng = random.Random(length)
    letters = "abcdefghijklmnopqrstuvwxyz"
    text = ""
    while len(text) < length:
        text += "".join(rng.choice(letters) for _ in range(20)) + " "
    return text[:length]


def main() -> None:
    started = time.perf_counter()
    registry = catalog()
    print(f"catalog: {len(registry)} tools, built in {time.perf_counter() - started:.1f} s")
    typical = median_ms(registry, "create calendar event")
    print(f"typical query 'create calendar event': {typical:.2f} ms")
    print(f"{'characters':>10}  {'prose ms':>9}  {'one word ms':>11}  {'distinct ms':>11}  slowest")
    for length in LENGTHS:
        shapes = (
            (PROSE * (length // len(PROSE) + 1))[:length],
            "q" * length,
            distinct_words(length),
        )
        prose_ms, word_ms, distinct_ms = (median_ms(registry, query) for query in shapes)
        slowest = max(prose_ms, word_ms, distinct_ms)
        print(
            f"{length:>10,}  {prose_ms:>9.2f}  {word_ms:>11.2f}  {distinct_ms:>11.2f}"
            f"  x{slowest / typical:.1f} typical"
        )


if __name__ == "__main__":
    main()
