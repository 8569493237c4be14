"""Search methods the lab can measure side by side, each built from the same tool entries.

A method is built once from a snapshot of the catalog (``build``, timed as index time) and
then searched like ``Registry.search``. Names: ``search`` (the registry as configured),
``keyword``, ``keyword-no-synonyms``, ``semantic`` (the ``[semantic]`` extra's model fused
with keyword, as ``Registry(semantic=True)``), ``semantic-only`` (its cosine alone),
``embedder`` / ``embedder-only`` (the registry's own embedder, the same two ways), and
``a+b``: reciprocal-rank fusion of named methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from workbench.registry.entry import ToolEntry
from workbench.registry.search import (
    SYNONYM_DISCOUNT,
    SearchHit,
    SearchIndex,
    SearchResults,
    _Route,
)
from workbench.registry.vocabulary import synonyms

if TYPE_CHECKING:
    from workbench.registry.registry import Registry
    from workbench.registry.semantic import Encoder, SemanticIndex
    from workbench.registry.vector_cache import VectorCache

__all__ = [
    "Embedding",
    "Keyword",
    "Method",
    "ReciprocalRankFusion",
    "RegistrySearch",
    "method_named",
]

RRF_K = 60
"""The usual constant of reciprocal-rank fusion: 1 / (k + rank)."""
RRF_POOL = 30


@runtime_checkable
class Method(Protocol):
    """A way of ranking tools for a request."""

    name: str

    def build(self, entries: Sequence[ToolEntry]) -> None: ...

    def search(self, query: str, limit: int) -> SearchResults: ...

    @property
    def keyword_index(self) -> SearchIndex | None:
        """The keyword index whose matched words explain a ranking (None: no words)."""
        ...


class _NoSynonymIndex(SearchIndex):
    """The keyword index without the hand-written synonym groups (typos and completions
    kept), to see what the groups add on this catalog."""

    def _routes(self, term: str, word: str, *, allow_prefix: bool) -> list[_Route]:
        groups = synonyms(term)
        return [
            route
            for route in super()._routes(term, word, allow_prefix=allow_prefix)
            if not (route.weight == SYNONYM_DISCOUNT and route.term in groups)
        ]


class RegistrySearch:
    """The registry's own ``search``, as configured (keyword, or semantic when enabled)."""

    def __init__(self, registry: Registry, name: str = "search") -> None:
        self.name = name
        self._registry = registry

    def build(self, entries: Sequence[ToolEntry]) -> None:
        return None  # the registry keeps its index up to date itself

    def search(self, query: str, limit: int) -> SearchResults:
        return self._registry.search(query, limit)

    @property
    def keyword_index(self) -> SearchIndex | None:
        return self._registry._index


class Keyword:
    """The keyword ranking (BM25F with routes), with or without the synonym groups."""

    def __init__(self, *, synonyms: bool = True) -> None:
        self.name = "keyword" if synonyms else "keyword-no-synonyms"
        self._index: SearchIndex = SearchIndex() if synonyms else _NoSynonymIndex()

    def build(self, entries: Sequence[ToolEntry]) -> None:
        for entry in entries:
            self._index.add(entry)
        self._index.search("warm up", 1)  # compile the vocabulary now: part of indexing

    def search(self, query: str, limit: int) -> SearchResults:
        return self._index.search(query, limit)

    @property
    def keyword_index(self) -> SearchIndex | None:
        return self._index


class Embedding:
    """Vectors of an encoder: fused with keyword as the registry fuses them, or alone."""

    def __init__(
        self,
        name: str,
        encoder: Encoder | None = None,
        cache: VectorCache | None = None,
        *,
        fused: bool = True,
    ) -> None:
        from workbench.registry.semantic import SemanticIndex

        self.name = name
        self._semantic: SemanticIndex = SemanticIndex(encoder, cache)
        self._keyword = SearchIndex()
        self._fused = fused

    def build(self, entries: Sequence[ToolEntry]) -> None:
        for entry in entries:
            self._semantic.add(entry)
            if self._fused:
                self._keyword.add(entry)
        self._semantic.prepare()

    def search(self, query: str, limit: int) -> SearchResults:
        return self._semantic.search(query, limit, keyword=self._keyword)

    @property
    def keyword_index(self) -> SearchIndex | None:
        return self._keyword if self._fused else None


class ReciprocalRankFusion:
    """Several methods' rankings merged by ``sum 1 / (k + rank)``; "nothing fits" only when
    every method says so."""

    def __init__(self, methods: Sequence[Method], k: int = RRF_K) -> None:
        self.name = "+".join(method.name for method in methods)
        self._methods = list(methods)
        self._k = k

    def build(self, entries: Sequence[ToolEntry]) -> None:
        for method in self._methods:
            method.build(entries)

    def search(self, query: str, limit: int) -> SearchResults:
        scores: dict[str, float] = {}
        hits: dict[str, SearchHit] = {}
        flags = []
        for method in self._methods:
            found = method.search(query, max(limit, RRF_POOL))
            flags.append(found.no_good_match)
            for rank, hit in enumerate(found.hits, 1):
                scores[hit.id] = scores.get(hit.id, 0.0) + 1 / (self._k + rank)
                hits.setdefault(hit.id, hit)
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[: max(limit, 0)]
        out = [_rescored(hits[entry_id], score) for entry_id, score in ranked]
        return SearchResults(query, out, all(flags) or not out)

    @property
    def keyword_index(self) -> SearchIndex | None:
        return next((m.keyword_index for m in self._methods if m.keyword_index), None)


def _rescored(hit: SearchHit, score: float) -> SearchHit:
    return SearchHit(
        hit.id,
        hit.server,
        hit.name,
        hit.title,
        round(score, 6),
        hit.description,
        hit.annotations,
        hit.weak,
    )


def method_named(name: str, registry: Registry) -> Method:
    """A fresh method by its lab name (see the module's docstring)."""
    if "+" in name:
        return ReciprocalRankFusion([method_named(part, registry) for part in name.split("+")])
    if name == "search":
        return RegistrySearch(registry)
    if name in ("keyword", "keyword-no-synonyms"):
        return Keyword(synonyms=name == "keyword")
    if name in ("semantic", "semantic-only"):
        return Embedding(name, fused=name == "semantic")
    if name in ("embedder", "embedder-only"):
        embedder = getattr(registry, "embedder", None)
        if embedder is None:
            raise ValueError("The registry has no embedder: set one with set_embedder(fn)")
        return Embedding(name, embedder.encoder, embedder.cache, fused=name == "embedder")
    raise ValueError(
        f"Unknown search method {name!r}: search, keyword, keyword-no-synonyms, semantic, "
        "semantic-only, embedder, embedder-only, or names joined by '+' (rank fusion)"
    )
