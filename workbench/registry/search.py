"""Keyword ranking over every registered tool (BM25F over weighted fields).

Fields: the tool name (split into words), title, server name, description, and parameter
names and descriptions. A query term also reaches the index through its synonyms, a
one-letter typo, a completion while typing, or a compound it forms with its neighbour
("on call" -> "oncall"); each such route counts for less than the word itself. Tools whose
name the query covers whole rank higher. The index updates per tool, so re-registering one
server costs time proportional to that server. Ties break by id so results are deterministic.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from workbench.registry.entry import ToolEntry
from workbench.registry.vocabulary import (
    STOPWORDS,
    deletions,
    edit_distance_at_most_one,
    stem,
    swaps,
    synonyms,
    terms,
    words,
)
from workbench.tools.annotations import ToolAnnotations

FIELD_WEIGHTS: dict[str, float] = {
    "name": 3.0,
    "title": 2.0,
    "server": 1.5,
    "description": 1.0,
    "params": 0.6,
}
_FIELDS = tuple(FIELD_WEIGHTS)
_WEIGHTS = tuple(FIELD_WEIGHTS.values())
_NAME = _FIELDS.index("name")
_SERVER = _FIELDS.index("server")
K1 = 1.2
B = 0.75
SYNONYM_DISCOUNT = 0.4
TYPO_DISCOUNT = 0.7
PREFIX_DISCOUNT = 0.7
NAME_COVERAGE_BONUS = 0.5
EXACT_NAME_BONUS = 1.5
"""A request made of a tool's own name words, perhaps with its server's ("read a file" for
read_file), puts that tool ahead of tools whose descriptions merely repeat the words."""
NO_GOOD_MATCH_COVERAGE = 0.25
TYPO_MIN_LENGTH = 4
TYPO_MAX_LENGTH = 20
"""Longer words get no typo fixes: the work grows with the square of a word's length."""
MAX_QUERY_CHARS = 1_000
"""Characters of a query read; the rest of a pasted page is ignored."""
MAX_QUERY_TERMS = 32
"""Distinct query terms looked up; more add little to a ranking and cost a pass each."""
DESCRIPTION_LIMIT = 200

_SERVER_FILTER = re.compile(r"\bserver:(\S+)")

__all__ = [
    "SearchHit",
    "SearchIndex",
    "SearchResults",
    "shorten",
    "split_server_filter",
    "stem",
    "terms",
    "words",
]


def split_server_filter(query: str) -> tuple[str, str | None]:
    """The query without its ``server:NAME`` words, and the last NAME given (or None)."""
    named = _SERVER_FILTER.findall(query)
    return _SERVER_FILTER.sub(" ", query), (named[-1] if named else None)


@dataclass(frozen=True)
class SearchHit:
    """One ranked tool, with what a person or an agent needs to choose it."""

    id: str
    server: str
    name: str
    title: str | None
    score: float
    description: str
    annotations: ToolAnnotations | None
    weak: bool = False
    """It answers too little of the query to be credible (the rule of ``no_good_match``)."""


class SearchResults(Sequence[SearchHit]):
    """Hits best first; ``no_good_match`` says when none of them is a credible answer."""

    def __init__(self, query: str, hits: list[SearchHit], no_good_match: bool) -> None:
        self.query = query
        self.hits = hits
        self.no_good_match = no_good_match

    @overload
    def __getitem__(self, index: int) -> SearchHit: ...
    @overload
    def __getitem__(self, index: slice) -> list[SearchHit]: ...
    def __getitem__(self, index: int | slice) -> SearchHit | list[SearchHit]:
        return self.hits[index]

    def __len__(self) -> int:
        return len(self.hits)

    def __iter__(self) -> Iterator[SearchHit]:
        return iter(self.hits)

    def __repr__(self) -> str:
        ids = ", ".join(hit.id for hit in self.hits[:5])
        more = f", +{len(self.hits) - 5}" if len(self.hits) > 5 else ""
        return f"<SearchResults {self.query!r}: [{ids}{more}] no_good_match={self.no_good_match}>"


def shorten(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """Cut text to ``limit`` characters at a word boundary, marking the cut with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",.;:") + "…"


def _fields_of(entry: ToolEntry) -> dict[str, list[str]]:
    params: list[str] = []
    properties = entry.input_schema.get("properties")
    if isinstance(properties, dict):
        for key, sub in properties.items():
            params.extend(terms(str(key)))
            if isinstance(sub, dict) and isinstance(sub.get("description"), str):
                params.extend(terms(sub["description"]))
    return {
        # Names keep words a request would drop ("get_file" is not just "file").
        "name": terms(entry.name, keep_stopwords=True),
        "title": terms(entry.display_title if entry.title or entry.annotations else ""),
        "server": terms(entry.server),
        "description": terms(entry.description),
        "params": params,
    }


@dataclass(frozen=True)
class _Route:
    """How a query term reaches an index term, and what that route is worth."""

    term: str
    weight: float


class SearchIndex:
    """An incrementally updated BM25F index of registry entries.

    Each entry has a slot (a row in the score array). Postings keep raw per-field term
    counts, so adding or removing one entry touches only its own terms; the per-term arrays
    that scoring uses (slots and saturated BM25F weights) are compiled on first use after a
    change and cached, so repeated searches cost a few vector additions per query term.
    """

    def __init__(self) -> None:
        self._slots: dict[str, int] = {}
        self._server_slots: dict[str, set[int]] = {}
        self._entries: list[ToolEntry | None] = []
        self._ids: list[str] = []
        self._short: list[str | None] = []
        self._free: list[int] = []
        self._lengths: list[tuple[int, ...]] = []
        self._terms_of: list[frozenset[str]] = []
        self._name_terms: list[frozenset[str]] = []
        self._server_terms: list[frozenset[str]] = []
        self._postings: dict[str, set[int]] = {}  # term -> slots having it in any field
        self._field_postings: list[dict[str, dict[int, int]]] = [{} for _ in _FIELDS]
        self._total_lengths = [0] * len(_FIELDS)
        self._compiled: dict[str, tuple[Any, Any]] = {}
        self._vocabulary: list[str] = []
        self._typo_keys: dict[str, set[str]] = {}
        self._vocabulary_stale = False

    def __len__(self) -> int:
        return len(self._slots)

    def add(self, entry: ToolEntry) -> None:
        """Index an entry (replacing any entry with the same id)."""
        entry_id = entry.id
        if entry_id in self._slots:
            self.remove(entry_id)
        fields = list(_fields_of(entry).values())
        slot = self._free.pop() if self._free else len(self._entries)
        if slot == len(self._entries):
            self._entries.append(None)
            self._ids.append("")
            self._short.append(None)
            self._lengths.append(())
            self._terms_of.append(frozenset())
            self._name_terms.append(frozenset())
            self._server_terms.append(frozenset())
        every: set[str] = set()
        for field_terms, field_postings in zip(fields, self._field_postings, strict=True):
            counted = Counter(field_terms)
            for term, count in counted.items():
                slots = field_postings.get(term)
                if slots is None:
                    field_postings[term] = {slot: count}
                else:
                    slots[slot] = count
            every.update(counted)
        for term in every:
            holders = self._postings.get(term)
            if holders is None:
                self._postings[term] = {slot}
                self._vocabulary_stale = True
            else:
                holders.add(slot)
        lengths = tuple(len(field_terms) for field_terms in fields)
        self._slots[entry_id] = slot
        self._server_slots.setdefault(entry.server, set()).add(slot)
        self._entries[slot] = entry
        self._ids[slot] = entry_id
        self._short[slot] = None  # the cut description, made on first display
        self._lengths[slot] = lengths
        self._terms_of[slot] = frozenset(every)
        self._name_terms[slot] = frozenset(fields[_NAME])
        self._server_terms[slot] = frozenset(fields[_SERVER])
        self._total_lengths = [a + b for a, b in zip(self._total_lengths, lengths, strict=True)]
        self._compiled.clear()

    def remove(self, entry_id: str) -> None:
        """Forget an entry; a no-op for unknown ids."""
        slot = self._slots.pop(entry_id, None)
        if slot is None:
            return
        lengths = self._lengths[slot]
        self._total_lengths = [a - b for a, b in zip(self._total_lengths, lengths, strict=True)]
        for term in self._terms_of[slot]:
            holders = self._postings[term]
            holders.discard(slot)
            if not holders:
                del self._postings[term]
                self._vocabulary_stale = True
            for field_postings in self._field_postings:
                slots = field_postings.get(term)
                if slots is not None and slots.pop(slot, None) is not None and not slots:
                    del field_postings[term]
        server_slots = self._server_slots[entry_id.partition(".")[0]]
        server_slots.discard(slot)
        if not server_slots:
            del self._server_slots[entry_id.partition(".")[0]]
        self._entries[slot] = None
        self._terms_of[slot] = self._name_terms[slot] = self._server_terms[slot] = frozenset()
        self._free.append(slot)
        self._compiled.clear()

    def search(self, query: str, limit: int = 15, *, server: str | None = None) -> SearchResults:
        """Rank entries for a query; ``server:NAME`` in the query filters like ``server``."""
        import numpy as np

        text, named = split_server_filter(query)
        server = server or named
        _, routes = self.query_routes(text)
        scores = np.zeros(len(self._entries))
        for term_routes in routes.values():
            for route in term_routes:
                slots, weights = self._compile(route.term)
                scores[slots] += route.weight * weights
        if server is not None:
            keep = np.zeros(len(scores), dtype=bool)
            keep[list(self._server_slots.get(server, ()))] = True
            scores[~keep] = 0
        hits = self._top(scores, max(limit, 0), routes)
        found = [
            self._hit(slot, score, self._coverage(routes, slot) < NO_GOOD_MATCH_COVERAGE)
            for score, slot in hits
        ]
        return SearchResults(query, found, not found or found[0].weak)

    # -- how query terms reach the index ------------------------------------------------

    def query_routes(self, text: str) -> tuple[dict[str, str], dict[str, list[_Route]]]:
        """A query's terms (each stem and the word as typed) and the index terms each stands
        for: what ``search`` scores and the search lab explains. Bounded work whatever was
        typed or pasted (F10): a query's first characters, its first distinct terms."""
        raw = words(text[:MAX_QUERY_CHARS])
        spelled = {stem(word): word for word in raw if word not in STOPWORDS}
        query_terms = [*spelled, *self._compounds(raw)]
        if len(query_terms) > MAX_QUERY_TERMS:
            query_terms = list(dict.fromkeys(query_terms))[:MAX_QUERY_TERMS]
        routes = {
            term: self._routes(
                term, spelled.get(term, term), allow_prefix=position == len(query_terms) - 1
            )
            for position, term in enumerate(query_terms)
        }
        return spelled, routes

    def _routes(self, term: str, word: str, *, allow_prefix: bool) -> list[_Route]:
        """The index terms a query term (``word`` as typed) stands for: itself and its
        synonyms; failing that, a one-edit typo fix, or (for the last word, as-you-type)
        its completions."""
        routes = [_Route(term, 1.0)] if term in self._postings else []
        routes += [_Route(s, SYNONYM_DISCOUNT) for s in synonyms(term) if s in self._postings]
        if term in self._postings:
            return routes
        routes += [_Route(fix, TYPO_DISCOUNT) for fix in self._typo_fixes(term, word)]
        if allow_prefix and len(term) >= 3:
            routes += [_Route(c, PREFIX_DISCOUNT) for c in self._completions(term)]
        return routes

    def _compounds(self, raw: list[str]) -> list[str]:
        """Adjacent words that the index knows as one word ("on call" -> "oncall")."""
        joined = (stem(first + second) for first, second in itertools.pairwise(raw))
        return [term for term in joined if term in self._postings]

    def _completions(self, prefix: str) -> list[str]:
        vocabulary = self._sorted_vocabulary()
        start = bisect.bisect_left(vocabulary, prefix)
        found = []
        for candidate in vocabulary[start : start + 50]:
            if not candidate.startswith(prefix):
                break
            found.append(candidate)
        return found

    def _typo_fixes(self, term: str, word: str) -> list[str]:
        """Index terms one edit away (insertion, deletion, substitution or swap) from the
        stemmed term, or reached by stemming the typed word with one letter dropped or two
        swapped: a typo can stem apart ("repositoreis", "postgress")."""
        if not TYPO_MIN_LENGTH <= len(term) <= TYPO_MAX_LENGTH:
            return []
        self._sorted_vocabulary()
        keys = self._typo_keys
        candidates = set(keys.get(term, ())) | {d for d in deletions(term) if d in self._postings}
        for deleted in deletions(term):
            candidates |= keys.get(deleted, set())
        found = {c for c in candidates if edit_distance_at_most_one(term, c)}
        if len(word) <= TYPO_MAX_LENGTH:
            found |= {s for s in map(stem, deletions(word) | swaps(word)) if s in self._postings}
        return sorted(found)

    def _sorted_vocabulary(self) -> list[str]:
        """The vocabulary, sorted for completions and keyed by deletions for typo fixes;
        rebuilt lazily after the vocabulary changed."""
        if self._vocabulary_stale:
            self._vocabulary = sorted(self._postings)
            keys: dict[str, set[str]] = {}
            for term in self._vocabulary:
                if TYPO_MIN_LENGTH - 1 <= len(term) <= TYPO_MAX_LENGTH + 1:
                    for deleted in deletions(term):
                        keys.setdefault(deleted, set()).add(term)
            self._typo_keys = keys
            self._vocabulary_stale = False
        return self._vocabulary

    # -- scoring ------------------------------------------------------------------------

    def _idf(self, term: str) -> float:
        count = len(self._slots)
        documents = len(self._postings.get(term, ()))
        return math.log(1 + (count - documents + 0.5) / (documents + 0.5))

    def _compile(self, term: str) -> tuple[Any, Any]:
        """A term's slots and their ``idf * saturated BM25F`` weights, cached until the next
        change to the index."""
        compiled = self._compiled.get(term)
        if compiled is not None:
            return compiled
        import numpy as np

        count = len(self._slots)
        pseudo = dict.fromkeys(self._postings[term], 0.0)
        for i, field_postings in enumerate(self._field_postings):
            slots = field_postings.get(term)
            if not slots:
                continue
            average = self._total_lengths[i] / count if count else 0.0
            weight, lengths = _WEIGHTS[i], self._lengths
            for slot, frequency in slots.items():
                norm = 1 - B + B * (lengths[slot][i] / average if average else 1.0)
                pseudo[slot] += weight * frequency / norm
        values = np.fromiter(pseudo.values(), dtype=float, count=len(pseudo))
        weights = self._idf(term) * values / (K1 + values)
        compiled = (np.fromiter(pseudo, dtype=np.intp, count=len(pseudo)), weights)
        self._compiled[term] = compiled
        return compiled

    def _top(
        self, scores: Any, limit: int, routes: dict[str, list[_Route]]
    ) -> list[tuple[float, int]]:
        """The best ``limit`` slots after the name-coverage bonus, ties broken by id."""
        import numpy as np

        if not limit:
            return []
        matched = np.flatnonzero(scores)
        pool = max(limit * 4, 60)
        if len(matched) > pool:
            matched = matched[np.argpartition(-scores[matched], pool - 1)[:pool]]
        reached = {route.term for term_routes in routes.values() for route in term_routes}
        asked = frozenset(term for term in routes if term in self._postings)
        ranked = [
            (float(scores[slot]) * self._name_bonus(int(slot), reached, asked), int(slot))
            for slot in matched
        ]
        ids = self._ids
        ranked.sort(key=lambda pair: (-pair[0], ids[pair[1]]))
        return ranked[:limit]

    def _name_bonus(self, slot: int, reached: set[str], asked: frozenset[str]) -> float:
        """Up to ``1 + NAME_COVERAGE_BONUS`` when the query covers every word of the name,
        times ``EXACT_NAME_BONUS`` when the query's own words (typed, not reached through a
        synonym or a fix) are the name's, give or take the server's."""
        name_terms = self._name_terms[slot]
        if not name_terms:
            return 1.0
        covered = len(name_terms & reached) / len(name_terms)
        bonus = 1 + NAME_COVERAGE_BONUS * covered**2
        server_terms = self._server_terms[slot]
        own = name_terms - server_terms
        if own and asked and own <= asked and asked <= name_terms | server_terms:
            bonus *= EXACT_NAME_BONUS
        return bonus

    def _coverage(self, routes: dict[str, list[_Route]], slot: int) -> float:
        """How much of the query (weighted by rarity) the given entry answers. A word the
        index lacks weighs as much as its rarest route, or, with none, as a word no tool
        has: "sms" in "send an SMS" is the point of the request, not noise."""
        have = self._terms_of[slot]
        total = answered = 0.0
        for term, term_routes in routes.items():
            if term in self._postings:
                weight = self._idf(term)
            elif term_routes:
                weight = max(self._idf(route.term) for route in term_routes)
            else:
                weight = self._idf(term)  # no tool has it: the highest rarity there is
            total += weight
            answered += weight * max((r.weight for r in term_routes if r.term in have), default=0)
        return answered / total if total else 0.0

    def _hit(self, slot: int, score: float, weak: bool) -> SearchHit:
        entry = self._entries[slot]
        assert entry is not None
        short = self._short[slot]
        if short is None:
            short = self._short[slot] = shorten(entry.description)
        return SearchHit(
            id=self._ids[slot],
            server=entry.server,
            name=entry.name,
            title=entry.title,
            score=round(score, 6),
            description=short,
            annotations=entry.annotations,
            weak=weak,
        )


def hit_to_dict(hit: SearchHit) -> dict[str, Any]:
    """A hit as plain JSON data (for the proxy and the magics)."""
    return {
        "id": hit.id,
        "server": hit.server,
        "name": hit.name,
        "title": hit.title,
        "score": hit.score,
        "description": hit.description,
        "annotations": hit.annotations.to_mcp() if hit.annotations else None,
    }
