"""Fit the keyword ranking's BM25F field weights by cross-validation over servers.

    python benchmarks/search/fit_weights.py [--folds 5] [--sets all fresh]

The requests of the given sets are pooled and split into folds by the server of their
first expected tool (as `generalization.py` splits servers). For each fold the grid point
with the best MRR on the other folds is chosen and scored on the fold: the cross-validated
figure says what fitting is worth on servers it never saw. The point best over all folds is
printed last; copy it into `search.FIELD_WEIGHTS` only if the cross-validated figure beats
the current weights. Sealed sets are never read here.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from collect import cache_dir  # noqa: E402
from generalization import fold_requests, server_folds  # noqa: E402
from run import (  # noqa: E402
    LIMIT,
    Quality,
    Request,
    WorkbenchRegistry,
    check_requests,
    load_catalogs,
    load_requests,
)

GRIDS: dict[str, dict[str, tuple[float, ...]]] = {
    "fields": {
        "name": (1.5, 3.0, 4.5),
        "title": (1.0, 2.0),
        "server": (1.0, 1.5, 3.0),
        "description": (1.0,),
        "params": (0.3, 0.6, 1.0),
        "K1": (0.9, 1.2, 2.0),
        "B": (0.5, 0.75),
    },
    "routes": {
        "SYNONYM_DISCOUNT": (0.2, 0.4, 0.6),
        "TYPO_DISCOUNT": (0.5, 0.7, 0.9),
        "NAME_COVERAGE_BONUS": (0.25, 0.5, 1.0),
    },
}
FIELDS = ("name", "title", "server", "description", "params")


def points(grid: dict[str, tuple[float, ...]]) -> Iterator[dict[str, float]]:
    """Every combination of the grid's values."""
    keys = list(grid)
    for values in itertools.product(*(grid[k] for k in keys)):
        yield dict(zip(keys, values, strict=True))


def current(grid: dict[str, tuple[float, ...]]) -> dict[str, float]:
    """The search module's values of the grid's keys."""
    from workbench.registry import search

    return {k: search.FIELD_WEIGHTS[k] if k in FIELDS else getattr(search, k) for k in grid}


def apply(point: dict[str, float]) -> None:
    """Set the search module's weights to a grid point (a benchmark-only patch)."""
    from workbench.registry import search

    patched: Any = search
    weights = {**search.FIELD_WEIGHTS, **{f: v for f, v in point.items() if f in FIELDS}}
    patched.FIELD_WEIGHTS = weights
    patched._WEIGHTS = tuple(weights[f] for f in FIELDS)
    for key, value in point.items():
        if key not in FIELDS:
            setattr(patched, key, value)


def mrr_by_fold(
    catalogs: dict[str, Any], folds: list[list[Request]], point: dict[str, float]
) -> list[Quality]:
    """One Quality per fold for a grid point (one index for all folds: nothing here is
    learned from catalogs, so building per fold would give the same index)."""
    apply(point)
    searcher = WorkbenchRegistry()
    searcher.build(catalogs)
    out = []
    for requests in folds:
        quality = Quality()
        for req in requests:
            quality.add(req, searcher.search(req.query, LIMIT))
        out.append(quality)
    return out


def _mrr(qualities: Sequence[Quality]) -> float:
    rows = [r for q in qualities for r in q.rows if r["kind"] != "no_answer"]
    return float(sum(1 / r["rank"] for r in rows if r["rank"])) / max(len(rows), 1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--sets", nargs="+", default=["all", "fresh"])
    parser.add_argument("--grid", choices=tuple(GRIDS), default="fields")
    opts = parser.parse_args(argv)
    if any(s.startswith("sealed") for s in opts.sets):
        parser.error("sealed sets are never fitted on")
    catalogs = load_catalogs(cache_dir())
    pooled = [r for s in opts.sets for r in check_requests(load_requests(s), catalogs)]
    pooled = [r for r in pooled if r.expected]
    groups = server_folds(catalogs, opts.folds)
    folds = [fold_requests(pooled, g, i, opts.folds) for i, g in enumerate(groups)]
    print(f"{len(pooled)} requests in {opts.folds} server folds: {[len(f) for f in folds]}")

    grid = GRIDS[opts.grid]
    now = current(grid)
    table = [(point, mrr_by_fold(catalogs, folds, point)) for point in points(grid)]
    base = mrr_by_fold(catalogs, folds, now)
    apply(now)
    chosen = []
    for i in range(len(folds)):
        best = max(table, key=lambda t: _mrr([q for j, q in enumerate(t[1]) if j != i]))
        chosen.append(best[1][i])
        print(f"fold {i}: chose {best[0]}")
    overall = max(table, key=lambda t: _mrr(t[1]))
    print(f"current weights, MRR over folds:      {_mrr(base):.3f}  {now}")
    print(f"fitted on other folds, MRR per fold:  {_mrr(chosen):.3f}")
    print(f"best over all folds (in-sample):      {_mrr(overall[1]):.3f}  {overall[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
