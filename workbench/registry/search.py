"""Keyword ranking over every registered tool (BM25F over weighted fields).

Fields: the tool name (split into words), title, server name, description, and parameter
names and descriptions. The index updates per tool, so re-registering one server costs time
proportional to that server. Ties break by id so results are deterministic.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from workbench.registry.entry import ToolEntry
from workbench.tools.annotations import ToolAnnotations

FIELD_WEIGHTS: dict[str, float] = {
    "name": 3.0,
    "title": 2.0,
    "server": 1.5,
    "description": 1.0,
    "params": 0.6,
}
_FIELDS = tuple(FIELD_WEIGHTS)
K1 = 1.2
B = 0.75
PREFIX_DISCOUNT = 0.7
DESCRIPTION_LIMIT = 200

_CAMEL = re.compile(
    r"(?<=[a-z])(?=[A-Z])"  # camelCase
    r"|(?<=[A-Z])(?=[A-Z][a-z])"  # HTTPResponse
    r"|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])"  # s3list
)
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_SERVER_FILTER = re.compile(r"\bserver:(\S+)")
_STOPWORDS = frozenset(
    "a an and are as at be by for from how i in into is it me my of on or please some that the "
    "this to use using via want what which with you your".split()
)


def words(text: str) -> list[str]:
    """Split prose and identifiers (camelCase, snake_case, kebab-case, digits) into words."""
    spaced = _CAMEL.sub(" ", _NON_WORD.sub(" ", text))
    return [word.lower() for word in spaced.split()]


def stem(word: str) -> str:
    """A light suffix stripper: "files" meets "file", "listing" meets "list"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    for suffix in ("ing", "ed", "s"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    # A final "e" goes too, so "create", "creates" and "created" meet at "creat".
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def terms(text: str) -> list[str]:
    """The index terms of a text."""
    return [stem(word) for word in words(text) if word not in _STOPWORDS]


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
        "name": terms(entry.name),
        "title": terms(entry.display_title if entry.title or entry.annotations else ""),
        "server": terms(entry.server),
        "description": terms(entry.description),
        "params": params,
    }


class SearchIndex:
    """An incrementally updated BM25F index of registry entries."""

    def __init__(self) -> None:
        self._entries: dict[str, ToolEntry] = {}
        self._lengths: dict[str, tuple[int, ...]] = {}
        self._postings: dict[str, dict[str, tuple[int, ...]]] = {}
        self._total_lengths = [0] * len(_FIELDS)
        self._vocabulary: list[str] = []
        self._vocabulary_stale = False

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, entry: ToolEntry) -> None:
        """Index an entry (replacing any entry with the same id)."""
        if entry.id in self._entries:
            self.remove(entry.id)
        fields = _fields_of(entry)
        counts = [Counter(fields[name]) for name in _FIELDS]
        lengths = tuple(len(fields[name]) for name in _FIELDS)
        for term in set().union(*counts):
            postings = self._postings.setdefault(term, {})
            if not postings:
                self._vocabulary_stale = True
            postings[entry.id] = tuple(count[term] for count in counts)
        self._entries[entry.id] = entry
        self._lengths[entry.id] = lengths
        self._total_lengths = [a + b for a, b in zip(self._total_lengths, lengths, strict=True)]

    def remove(self, entry_id: str) -> None:
        """Forget an entry; a no-op for unknown ids."""
        entry = self._entries.pop(entry_id, None)
        if entry is None:
            return
        lengths = self._lengths.pop(entry_id)
        self._total_lengths = [a - b for a, b in zip(self._total_lengths, lengths, strict=True)]
        for term in {t for field in _fields_of(entry).values() for t in field}:
            postings = self._postings.get(term)
            if postings is not None:
                postings.pop(entry_id, None)
                if not postings:
                    del self._postings[term]
                    self._vocabulary_stale = True

    def search(self, query: str, limit: int = 15, *, server: str | None = None) -> SearchResults:
        """Rank entries for a query; ``server:NAME`` in the query filters like ``server``."""
        named = _SERVER_FILTER.findall(query)
        server = server or (named[-1] if named else None)
        query_terms = terms(_SERVER_FILTER.sub(" ", query))
        scores: dict[str, float] = {}
        for position, term in enumerate(query_terms):
            is_last = position == len(query_terms) - 1
            for matched, discount in self._expand(term, allow_prefix=is_last):
                self._accumulate(matched, discount, scores)
        candidates = [
            (score, entry_id)
            for entry_id, score in scores.items()
            if server is None or self._entries[entry_id].server == server
        ]
        candidates.sort(key=lambda pair: (-pair[0], pair[1]))
        hits = [self._hit(entry_id, score) for score, entry_id in candidates[: max(limit, 0)]]
        return SearchResults(query, hits, no_good_match=not hits)

    def _expand(self, term: str, *, allow_prefix: bool) -> list[tuple[str, float]]:
        """The index terms a query term stands for: itself, or (as-you-type) its completions."""
        if term in self._postings:
            return [(term, 1.0)]
        if not allow_prefix or len(term) < 3:
            return []
        vocabulary = self._sorted_vocabulary()
        start = bisect.bisect_left(vocabulary, term)
        completions: list[tuple[str, float]] = []
        for candidate in vocabulary[start : start + 50]:
            if not candidate.startswith(term):
                break
            completions.append((candidate, PREFIX_DISCOUNT))
        return completions

    def _accumulate(self, term: str, weight: float, scores: dict[str, float]) -> None:
        postings = self._postings[term]
        count = len(self._entries)
        idf = math.log(1 + (count - len(postings) + 0.5) / (len(postings) + 0.5))
        averages = [total / count if count else 0.0 for total in self._total_lengths]
        for entry_id, frequencies in postings.items():
            lengths = self._lengths[entry_id]
            pseudo = 0.0
            for i, frequency in enumerate(frequencies):
                if frequency:
                    norm = 1 - B + B * (lengths[i] / averages[i] if averages[i] else 1.0)
                    pseudo += FIELD_WEIGHTS[_FIELDS[i]] * frequency / norm
            scores[entry_id] = scores.get(entry_id, 0.0) + weight * idf * pseudo / (K1 + pseudo)

    def _sorted_vocabulary(self) -> list[str]:
        if self._vocabulary_stale:
            self._vocabulary = sorted(self._postings)
            self._vocabulary_stale = False
        return self._vocabulary

    def _hit(self, entry_id: str, score: float) -> SearchHit:
        entry = self._entries[entry_id]
        return SearchHit(
            id=entry.id,
            server=entry.server,
            name=entry.name,
            title=entry.title,
            score=round(score, 6),
            description=shorten(entry.description),
            annotations=entry.annotations,
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
