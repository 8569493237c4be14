"""Run requests through a search method and collect the report.

Expected ids are resolved against the catalog first (a bare tool name that one server has
becomes ``server.tool``); an id the catalog lacks is reported, and its request counts as
missed rather than silently dropped.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from workbench.errors import AmbiguousToolError, ToolNotFoundError
from workbench.registry.lab.explain import matched_terms
from workbench.registry.lab.methods import Method, method_named
from workbench.registry.lab.report import Miss, Outcome, Ranked, SearchReport
from workbench.registry.lab.requests import RequestsSource, SearchRequest, load_requests

if TYPE_CHECKING:
    from workbench.registry.registry import Registry

__all__ = ["LIMIT", "build_method", "evaluate", "resolve_expected"]

LIMIT = 10
"""Tools ranked per request: a miss beyond it has no rank."""
ABOVE = 5
"""Tools kept per miss from those ranked above the expected one."""


def resolve_expected(
    registry: Registry, requests: Sequence[SearchRequest]
) -> tuple[list[tuple[str, ...] | None], list[str]]:
    """Each request's expected ids as the catalog names them, and one line per id it lacks."""
    resolved: list[tuple[str, ...] | None] = []
    problems: list[str] = []
    for number, request in enumerate(requests, 1):
        if request.expected is None:
            resolved.append(None)
            continue
        ids: list[str] = []
        for ref in request.expected:
            try:
                ids.append(registry.get(ref).id)
            except (ToolNotFoundError, AmbiguousToolError) as exc:
                line = request.line if request.line is not None else number
                problems.append(f"line {line}: expected {ref!r}: {_first_line(exc)}")
                ids.append(ref)
        resolved.append(tuple(dict.fromkeys(ids)))
    return resolved, problems


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def build_method(registry: Registry, method: str | Method) -> tuple[Method, float | None]:
    """The method built from the registry's current tools, and how long building took
    (None for the registry's own search, which is always built)."""
    chosen = method_named(method, registry) if isinstance(method, str) else method
    if chosen.name == "search" and chosen.keyword_index is registry._index:
        return chosen, None
    with registry._lock:  # what search may return (an App-only tool never is a hit)
        searchable = registry._index._slots
        entries = [entry for entry in registry.tools() if entry.id in searchable]
    start = time.perf_counter()
    chosen.build(entries)
    return chosen, time.perf_counter() - start


def evaluate(
    registry: Registry,
    requests: RequestsSource,
    *,
    method: str | Method = "search",
    limit: int = LIMIT,
) -> SearchReport:
    """Search every request with ``method`` (default: the registry's ``search`` as it is
    configured) and report top-1, top-5, MRR, "nothing fits" precision and recall, per kind,
    and each miss with what ranked above the expected tool and the words that put it there."""
    loaded = load_requests(requests)
    built, index_seconds = build_method(registry, method)
    return run(registry, built, loaded, limit=limit, index_seconds=index_seconds)


def run(
    registry: Registry,
    method: Method,
    requests: Sequence[SearchRequest],
    *,
    limit: int = LIMIT,
    index_seconds: float | None = None,
) -> SearchReport:
    """Search the requests with a built method (the lab's inner loop, shared by compare)."""
    expected_ids, problems = resolve_expected(registry, requests)
    outcomes: list[Outcome] = []
    misses: list[Miss] = []
    if requests:  # the first search compiles what the index caches: not a request's time
        method.search(requests[0].text, limit)
    for request, expected in zip(requests, expected_ids, strict=True):
        start = time.perf_counter()
        found = method.search(request.text, limit)
        seconds = time.perf_counter() - start
        ranking = tuple(hit.id for hit in found.hits)
        rank = _rank(ranking, expected)
        outcome = Outcome(request, expected, rank, ranking, found.no_good_match, seconds)
        outcomes.append(outcome)
        if not outcome.hit and (expected is not None or ranking):
            misses.append(_miss(registry, method, outcome))
    return SearchReport(method.name, outcomes, misses, problems, index_seconds)


def _rank(ranking: tuple[str, ...], expected: tuple[str, ...] | None) -> int | None:
    if expected is None:
        return None
    wanted = set(expected)
    return next((i for i, entry_id in enumerate(ranking, 1) if entry_id in wanted), None)


def _miss(registry: Registry, method: Method, outcome: Outcome) -> Miss:
    request, expected = outcome.request, outcome.expected or ()
    stop = (outcome.rank - 1) if outcome.rank else len(outcome.ranking)
    above = list(outcome.ranking[: min(stop, ABOVE)])
    best = next((e for e in outcome.ranking if e in expected), expected[0] if expected else "")
    index = method.keyword_index
    if index is None:
        explained: dict[str, tuple[str, ...]] = {}
    else:
        with registry._lock:
            explained = matched_terms(index, request.text, [*above, best])
    return Miss(
        text=request.text,
        kind=request.kind,
        expected=expected,
        rank=outcome.rank,
        above=tuple(Ranked(entry_id, explained.get(entry_id, ())) for entry_id in above),
        expected_matched=explained.get(best, ()) if best else (),
        line=request.line,
    )
