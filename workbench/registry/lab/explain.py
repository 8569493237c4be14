"""Why a tool ranked where it did: the query words that reached it, and by which route.

Reads the keyword index the way ``SearchIndex.search`` does (same words, stems, compounds,
synonym, typo and completion routes) without scoring, so a miss can say "ranked above
because 'file' matched, and 'doc' reached 'document' through a synonym".
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.registry.entry import ToolEntry
from workbench.registry.search import (
    SearchIndex,
    split_server_filter,
)
from workbench.registry.vocabulary import stem, words

__all__ = ["matched_terms"]


def _spellings(entry: ToolEntry) -> dict[str, str]:
    """Index terms (stems) of a tool, each as the tool first spells it ("messag" ->
    "message"), so an explanation quotes the tool's own word."""
    texts = [entry.name, entry.title or "", entry.description]
    properties = entry.input_schema.get("properties")
    if isinstance(properties, dict):
        for key, sub in properties.items():
            texts.append(str(key))
            if isinstance(sub, dict) and isinstance(sub.get("description"), str):
                texts.append(sub["description"])
    found: dict[str, str] = {}
    for word in words(" ".join(texts)):
        found.setdefault(stem(word), word)
    return found


def matched_terms(index: SearchIndex, query: str, ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """For each id the index holds, the query words that reach it: ``"file"``, or
    ``"doc→document"`` when the word reached an index term other than its own stem."""
    text, _ = split_server_filter(query)
    spelled, routes = index.query_routes(text)
    found: dict[str, tuple[str, ...]] = {}
    for entry_id in ids:
        slot = index._slots.get(entry_id)
        if slot is None:
            continue
        have = index._terms_of[slot]
        entry = index._entries[slot]
        spelt = _spellings(entry) if entry is not None else {}
        shown: list[str] = []
        for term, term_routes in routes.items():
            word = spelled.get(term, term)
            reached = [route.term for route in term_routes if route.term in have]
            if term in reached:
                shown.append(word)
            elif reached:
                shown.append(f"{word}→{spelt.get(reached[0], reached[0])}")
        found[entry_id] = tuple(dict.fromkeys(shown))
    return found
