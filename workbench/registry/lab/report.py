"""What a search lab run found: figures overall and per kind, and the misses explained.

A report is plain data (``rows()``, ``to_dataframe()`` when pandas is installed) that shows
itself as a table and a small bar chart in a notebook and as text in a terminal.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from workbench.registry.lab.requests import SearchRequest

__all__ = ["KindFigures", "Miss", "Outcome", "Ranked", "SearchReport"]


@dataclass(frozen=True)
class Ranked:
    """A tool in a ranking, with the query words that reached it (``"doc→document"`` when
    a word reached it through a synonym, a typo fix or a completion)."""

    id: str
    matched: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """One request, searched: where its first expected tool ranked (None: not in the list)."""

    request: SearchRequest
    expected: tuple[str, ...] | None
    """The expected ids as the catalog names them (a bare name resolved to ``server.tool``)."""
    rank: int | None
    ranking: tuple[str, ...]
    no_good_match: bool
    seconds: float = 0.0

    @property
    def hit(self) -> bool:
        """Answered as the person meant: the expected tool first, or "nothing fits" flagged."""
        return self.rank == 1 if self.expected is not None else self.no_good_match


@dataclass(frozen=True)
class Miss:
    """A request not answered at rank 1: what ranked above the expected tool and why."""

    text: str
    kind: str | None
    expected: tuple[str, ...]
    """Empty when nothing should have matched (and search did not say "nothing fits")."""
    rank: int | None
    above: tuple[Ranked, ...]
    expected_matched: tuple[str, ...] = ()
    """The query words that reached the best-placed expected tool."""
    line: int | None = None


@dataclass(frozen=True)
class KindFigures:
    """Figures of the answerable requests of one kind (fractions, 0 to 1)."""

    n: int
    top1: float
    top5: float
    mrr: float

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> KindFigures:
        ranks = [o.rank for o in outcomes]
        if not ranks:
            return cls(0, 0.0, 0.0, 0.0)
        n = len(ranks)
        return cls(
            n,
            sum(r == 1 for r in ranks) / n,
            sum(r is not None and r <= 5 for r in ranks) / n,
            sum(1 / r for r in ranks if r) / n,
        )


@dataclass
class SearchReport:
    """Figures of one search method on a set of requests.

    ``top1``, ``top5`` and ``mrr`` count the answerable requests; ``no_match_precision`` is
    the share of "nothing fits" answers that were right, ``no_match_recall`` the share of
    unanswerable requests that got one (None when there is nothing to count).
    """

    method: str
    outcomes: list[Outcome]
    misses: list[Miss] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Expected ids the catalog lacks, one line each (those requests count as missed)."""
    index_seconds: float | None = None

    def __post_init__(self) -> None:
        answerable = [o for o in self.outcomes if o.expected is not None]
        overall = KindFigures.of(answerable)
        self.n = overall.n
        self.top1, self.top5, self.mrr = overall.top1, overall.top5, overall.mrr
        kinds = dict.fromkeys(o.request.kind for o in answerable if o.request.kind)
        self.by_kind: dict[str, KindFigures] = {
            kind: KindFigures.of(o for o in answerable if o.request.kind == kind) for kind in kinds
        }
        flagged = [o for o in self.outcomes if o.no_good_match]
        unanswerable = [o for o in self.outcomes if o.expected is None]
        self.no_match_precision: float | None = (
            sum(o.expected is None for o in flagged) / len(flagged) if flagged else None
        )
        self.no_match_recall: float | None = (
            sum(o.no_good_match for o in unanswerable) / len(unanswerable) if unanswerable else None
        )
        self.n_unanswerable = len(unanswerable)

    @property
    def latency_ms(self) -> float | None:
        """Median time of one search, in milliseconds."""
        times = sorted(o.seconds for o in self.outcomes)
        return 1000 * times[len(times) // 2] if times else None

    def figures(self) -> dict[str, Any]:
        """The headline figures as one flat dict."""
        return {
            "method": self.method,
            "n": self.n,
            "top1": self.top1,
            "top5": self.top5,
            "mrr": self.mrr,
            "no_match_precision": self.no_match_precision,
            "no_match_recall": self.no_match_recall,
            "latency_ms": self.latency_ms,
            "index_seconds": self.index_seconds,
        }

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict per request: what was asked, expected, and found."""
        return [
            {
                "line": o.request.line,
                "text": o.request.text,
                "kind": o.request.kind,
                "expected": list(o.expected) if o.expected is not None else None,
                "rank": o.rank,
                "first": o.ranking[0] if o.ranking else None,
                "no_good_match": o.no_good_match,
                "hit": o.hit,
                "ms": round(1000 * o.seconds, 3),
            }
            for o in self.outcomes
        ]

    def to_dataframe(self) -> Any:
        """``rows()`` as a pandas DataFrame (pandas is not a dependency: install it to use)."""
        try:
            pd: Any = importlib.import_module("pandas")
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas: pip install pandas") from exc
        return pd.DataFrame(self.rows())

    def __repr__(self) -> str:
        from workbench.registry.lab.render import report_text

        return report_text(self)

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        from workbench.registry.lab.render import report_html, report_text

        return {"text/plain": report_text(self), "text/html": report_html(self)}
