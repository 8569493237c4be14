"""Several search methods on the same catalog and requests, side by side.

Each method is built from one snapshot of the catalog (its index time measured), then asked
every request (its median query time measured). Methods that need something absent here (the
``[semantic]`` extra, an embedder) are left out of the default list, never failed on.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from workbench.registry.lab.evaluate import LIMIT, build_method, run
from workbench.registry.lab.methods import Method
from workbench.registry.lab.render import bar_chart, percent
from workbench.registry.lab.requests import RequestsSource, load_requests

if TYPE_CHECKING:
    from workbench.registry.lab.report import SearchReport
    from workbench.registry.registry import Registry

__all__ = ["Comparison", "compare", "default_methods"]

COLUMNS = ("method", "n", "top-1", "top-5", "MRR", "nothing-fits P", "nothing-fits R")


def default_methods(registry: Registry) -> list[str]:
    """Every method available here: keyword with and without synonyms; with the
    ``[semantic]`` extra its model fused, alone, and rank-fused with keyword; likewise the
    registry's own embedder when it has one."""
    names = ["keyword", "keyword-no-synonyms"]
    if importlib.util.find_spec("wordllama") is not None:
        names += ["semantic", "semantic-only", "keyword+semantic-only"]
    if getattr(registry, "embedder", None) is not None:
        names += ["embedder", "embedder-only", "keyword+embedder-only"]
    return names


@dataclass
class Comparison:
    """Reports by method name, in the order asked."""

    reports: dict[str, SearchReport]

    def __getitem__(self, method: str) -> SearchReport:
        return self.reports[method]

    @property
    def best(self) -> str:
        """The method with the highest MRR (ties: top-1, then the order asked)."""
        return max(self.reports, key=lambda name: (self[name].mrr, self[name].top1))

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict of figures per method (fractions; latency in ms, index time in s)."""
        return [report.figures() for report in self.reports.values()]

    def to_dataframe(self) -> Any:
        """``rows()`` as a pandas DataFrame (install pandas to use it)."""
        try:
            pd: Any = importlib.import_module("pandas")
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas: pip install pandas") from exc
        return pd.DataFrame(self.rows())

    def _cells(self, report: SearchReport) -> list[str]:
        return [
            report.method,
            str(report.n),
            percent(report.top1),
            percent(report.top5),
            f"{report.mrr:.3f}",
            percent(report.no_match_precision),
            percent(report.no_match_recall),
            _ms(report.latency_ms),
            _seconds(report.index_seconds),
        ]

    def __repr__(self) -> str:
        header = [*COLUMNS, "ms/query", "index"]
        table = [header] + [self._cells(report) for report in self.reports.values()]
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines = [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in table
        ]
        return "\n".join([f"Comparison of {len(self.reports)} methods:", *lines])

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        head = "".join(f"<th>{escape(h)}</th>" for h in (*COLUMNS, "ms/query", "index"))
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in self._cells(r)) + "</tr>"
            for r in self.reports.values()
        )
        groups = [(name, report) for name, report in self.reports.items()]
        html = (
            f"<div><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"{bar_chart(groups)}</div>"
        )
        return {"text/plain": repr(self), "text/html": html}


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _seconds(value: float | None) -> str:
    return "(live)" if value is None else f"{value:.3f} s"


def compare(
    registry: Registry,
    requests: RequestsSource,
    methods: Sequence[str | Method] | None = None,
    *,
    limit: int = LIMIT,
) -> Comparison:
    """Each method's report on the same requests, with query latency and index time."""
    loaded = load_requests(requests)
    chosen = list(methods) if methods is not None else default_methods(registry)
    reports: dict[str, SearchReport] = {}
    for method in chosen:
        built, seconds = build_method(registry, method)
        reports[built.name] = run(registry, built, loaded, limit=limit, index_seconds=seconds)
    return Comparison(reports)
