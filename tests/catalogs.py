"""Synthetic tool catalogs of any size, written once for tests and benchmarks.

``synthetic_catalog()`` fills a Registry with 10,000 tools (1,000 servers of 10): names and
descriptions from a small vocabulary of verbs and nouns, two parameters each, the same
catalog on every run (seeded). ``benchmarks/search_query_length.py``, the ToolList tests and
the real-kernel browser test all search this one catalog.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.registry import Registry

TOOLS = 10_000
PER_SERVER = 10
VERBS = "get list create update delete search send read write run check export".split()
NOUNS = (
    "file issue ticket message channel calendar event invoice customer repository branch "
    "commit page table record metric alert user team document note order payment"
).split()


def synthetic_tools(
    tools: int = TOOLS, per_server: int = PER_SERVER, seed: int = 12
) -> list[tuple[str, list[dict[str, Any]]]]:
    """``(server, MCP tool dicts)`` pairs: ``srv0`` .. ``srvN``, ``per_server`` tools each."""
    rng = random.Random(seed)
    servers: list[tuple[str, list[dict[str, Any]]]] = []
    for server in range(tools // per_server):
        listed: list[dict[str, Any]] = []
        for index in range(per_server):
            verb, noun, other = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(NOUNS)
            listed.append(
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
        servers.append((f"srv{server}", listed))
    return servers


def synthetic_catalog(registry: Registry | None = None, tools: int = TOOLS) -> Registry:
    """``registry`` (a new one if None) filled with :func:`synthetic_tools`."""
    if registry is None:
        from workbench.registry import Registry

        registry = Registry()
    for server, listed in synthetic_tools(tools):
        registry.add_tools(server, listed)
    return registry


def distinct_words(length: int) -> str:
    """``length`` characters of different misspelt-looking 20-letter words: each may need
    its typo fixes (the most work a query of that length can ask of search)."""
    rng = random.Random(length)
    letters = "abcdefghijklmnopqrstuvwxyz"
    text = ""
    while len(text) < length:
        text += "".join(rng.choice(letters) for _ in range(20)) + " "
    return text[:length]
