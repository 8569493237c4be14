"""How well tool search generalizes: tuned, leave-servers-out and sealed figures in one run.

    python benchmarks/search/generalization.py [--folds 5] [--no-speed] [--methods ...]
        [--sets tuned lso sealed fresh sealed2 sealed3 sealed4 [sealed5]] [--configs "" -syn]

Request sets, each per request kind, for the keyword ranking (`workbench`) and the
semantic mode (`workbench-semantic`, when the `semantic` extra is installed):

- **tuned**: `requests_dev.jsonl`, the requests the ranking was tuned on (an upper bound).
- **leave-servers-out** (LSO): the servers are split into folds; each fold's requests are
  those whose first expected tool lives on one of its servers (expected ids narrowed to that
  fold), drawn from the dev and holdout files. The whole catalog is searched, but any
  vocabulary data learned from catalogs is learned from the other folds' servers only.
- **sealed**: `requests_sealed.jsonl`, written from tool names and servers only, never from
  descriptions or ranking output, and never tuned on.
- **fresh** / **sealed2**: a second set written that way from tools drawn at random, split in
  two: fresh may be looked at while working, sealed2 is run once at the end (see README).
- **sealed3**, **sealed4**, **sealed5**: later sets written the same way; sealed5 stays closed
  (left out unless named in ``--sets``) until the end of the next piece of work.

The hand-written synonym groups (`vocabulary.SYNONYM_GROUPS`) were written from dev failures,
so every set is run with them and without them (`-syn`). The gap between the tuned and the
sealed figures is the over-fitting: a change that widens it is not progress.

Also: no-answer precision and recall (a flag is a positive), and query latency and index time
at about 1,000 and 10,000 tools (as `run.py`). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from collect import cache_dir  # noqa: E402
from run import (  # noqa: E402
    KINDS,
    LIMIT,
    METHODS,
    SIZES,
    Catalogs,
    Quality,
    Request,
    Searcher,
    check_requests,
    load_catalogs,
    load_requests,
    measure_speed,
)

SETS = ("tuned", "lso", "sealed", "fresh", "sealed2", "sealed3", "sealed4")
UNSEEN = ("sealed", "fresh", "sealed2", "sealed3", "sealed4", "sealed5")  # never tuned on
CLOSED = ("sealed5",)  # sealed sets not yet run: left out unless asked (--sets)
CONFIGS = ("", "-syn")  # with the hand-written synonym groups, and without them
DEFAULT_METHODS = ("workbench", "workbench-semantic")


# --------------------------------------------------------------------------------------
# vocabulary switches


@contextlib.contextmanager
def vocabulary(config: str, train: Catalogs) -> Iterator[None]:
    """Search as configured: ``-syn`` without the hand-written synonym groups; the word
    associations the package mines from catalogs (if it has any) mined from ``train`` only."""
    from workbench.registry import search as search_module
    from workbench.registry import vocabulary as vocabulary_module

    patched: Any = search_module
    saved = {name: getattr(search_module, name, None) for name in ("synonyms", "associations")}
    mine = getattr(vocabulary_module, "mine_associations", None)
    if mine is not None and saved["associations"] is not None:
        table = mine(training_texts(train))
        patched.associations = lambda term: table.get(term, ())
    if config == "-syn":
        patched.synonyms = lambda term: frozenset()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is not None:
                setattr(search_module, name, value)


def training_texts(catalogs: Catalogs) -> list[tuple[str, str, str]]:
    """``(server, tool name, description)`` of every tool, what associations are mined from."""
    return [
        (server, str(tool.get("name", "")), str(tool.get("description") or ""))
        for server, tools in catalogs.items()
        for tool in tools
    ]


# --------------------------------------------------------------------------------------
# folds


def server_folds(catalogs: Catalogs, folds: int) -> list[set[str]]:
    """Servers split into ``folds`` groups by a stable hash of the name (not by size or order,
    so no one tunes which servers are held out)."""
    groups: list[set[str]] = [set() for _ in range(folds)]
    for server in catalogs:
        groups[zlib.crc32(server.encode()) % folds].add(server)
    return groups


def fold_requests(
    requests: Sequence[Request], held_out: set[str], fold: int, folds: int
) -> list[Request]:
    """The requests a fold answers: those whose first expected tool is on a held-out server
    (expected narrowed to held-out servers), and every ``folds``-th no-answer request."""
    out: list[Request] = []
    no_answer = 0
    for req in requests:
        if not req.expected:
            if no_answer % folds == fold:
                out.append(req)
            no_answer += 1
            continue
        if req.expected[0].partition(".")[0] not in held_out:
            continue
        kept = tuple(e for e in req.expected if e.partition(".")[0] in held_out)
        out.append(Request(req.query, kept, req.kind, req.line))
    return out


# --------------------------------------------------------------------------------------
# measuring


def evaluate(
    factory: Callable[[], Searcher],
    config: str,
    catalogs: Catalogs,
    sets: dict[str, list[Request]],
    lso: list[Request],
    folds: list[set[str]],
) -> dict[str, Quality]:
    """Quality per set for one method and configuration."""
    out = {name: Quality() for name in (*sets, "lso")}
    with vocabulary(config, catalogs):
        searcher = factory()
        searcher.build(catalogs)
        for name in sets:
            for req in sets[name]:
                out[name].add(req, searcher.search(req.query, LIMIT))
    for fold, held_out in enumerate(folds):
        train = {s: t for s, t in catalogs.items() if s not in held_out}
        with vocabulary(config, train):
            searcher = factory()
            searcher.build(catalogs)
            for req in fold_requests(lso, held_out, fold, len(folds)):
                out["lso"].add(req, searcher.search(req.query, LIMIT))
    return out


def cached_speed(
    factory: Callable[[], Searcher], catalogs: Catalogs, queries: list[str]
) -> dict[str, Any]:
    """Semantic speed when the vectors are on disk already: one build fills a temporary
    cache, the timed one (a new kernel) reads it; ``texts_embedded`` should be 0."""
    import tempfile

    from workbench.registry.semantic import MODEL_DIMENSIONS, MODEL_NAME
    from workbench.registry.vector_cache import VectorCache

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            factory_any: Any = factory
            factory_any.vector_cache = VectorCache(MODEL_NAME, MODEL_DIMENSIONS, Path(folder))
            measure_speed(factory, catalogs, queries[:1], size)  # fills the cache
            factory_any.vector_cache = VectorCache(MODEL_NAME, MODEL_DIMENSIONS, Path(folder))
            out[str(size)] = measure_speed(factory, catalogs, queries, size)
            factory_any.vector_cache = None
    return out


def no_answer_pr(quality: Quality) -> tuple[float | None, float | None]:
    """Precision and recall of the "nothing fits" flag (a flag is a positive)."""
    flagged = [r for r in quality.rows if r["no_good_match"]]
    unanswerable = [r for r in quality.rows if r["kind"] == "no_answer"]
    hits = sum(r["kind"] == "no_answer" for r in flagged)
    precision = hits / len(flagged) if flagged else None
    recall = hits / len(unanswerable) if unanswerable else None
    return precision, recall


# --------------------------------------------------------------------------------------
# report


def _cell(scores: dict[str, float] | None) -> str:
    if scores is None:
        return "-"
    return f"{scores['top1'] * 100:3.0f}/{scores['top5'] * 100:3.0f}/{scores['mrr']:.2f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def print_table(results: dict[str, Quality]) -> dict[str, Any]:
    """One block per method+config, one column per set; rows per kind: top-1 % / top-5 % /
    MRR. Then the gap between the tuned figures and each set never tuned on."""
    summaries = {c: results[c].summary() for c in results}
    blocks = list(dict.fromkeys(c.split(" ")[0] for c in results))
    for block in blocks:
        _print_columns(results, summaries, [c for c in results if c.split(" ")[0] == block])
    gaps: dict[str, dict[str, float]] = {}
    for column in results:
        block, _, name = column.partition(" ")
        if name in UNSEEN and f"{block} tuned" in summaries:
            tuned = summaries[f"{block} tuned"]["overall"]
            unseen = summaries[column]["overall"]
            gaps[column] = {
                "top1": tuned["top1"] - unseen["top1"],
                "top5": tuned["top5"] - unseen["top5"],
            }
    print("\ntuned - unseen gap (points, top-1 / top-5):")
    for block in blocks:
        cells = [
            f"{c.partition(' ')[2]} {g['top1'] * 100:+.0f}/{g['top5'] * 100:+.0f}"
            for c, g in gaps.items()
            if c.split(" ")[0] == block
        ]
        print(f"  {block:10s} " + ", ".join(cells))
    return {"summaries": summaries, "gaps": gaps}


def _print_columns(
    results: dict[str, Quality], summaries: dict[str, Any], columns: list[str]
) -> None:
    width = max(16, *(len(c) + 2 for c in columns))
    print(f"\n{'top-1 % / top-5 % / MRR':24s}" + "".join(f"{c:>{width}}" for c in columns))
    for group in ("overall", *KINDS[:-1]):
        if not any(group in summaries[c] for c in columns):
            continue
        ns = "/".join(
            str(summaries[c][group]["n"]) if group in summaries[c] else "0" for c in columns
        )
        print(f"{group:12s}{'n=' + ns:>12s}")
        print(f"{'':24s}" + "".join(f"{_cell(summaries[c].get(group)):>{width}}" for c in columns))
    rows: dict[str, Callable[[str], str]] = {
        "no-answer recall": lambda c: _pct(no_answer_pr(results[c])[1]),
        "no-answer precision": lambda c: _pct(no_answer_pr(results[c])[0]),
        "false alarm (answerable)": lambda c: _pct(summaries[c]["false_alarm"]),
    }
    for label, value in rows.items():
        print(f"{label:24s}" + "".join(f"{value(c):>{width}}" for c in columns))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--methods", nargs="+", choices=tuple(METHODS), default=DEFAULT_METHODS)
    parser.add_argument("--no-speed", action="store_true", help="skip the latency runs")
    parser.add_argument(
        "--sets", nargs="+", choices=(*SETS, *CLOSED), default=SETS, help="request sets"
    )
    parser.add_argument("--configs", nargs="+", choices=CONFIGS, default=CONFIGS)
    parser.add_argument("--label", default="", help="a name for the results file")
    opts = parser.parse_args(argv)

    root = cache_dir()
    catalogs = load_catalogs(root)
    n_tools = sum(len(tools) for tools in catalogs.values())
    print(f"{len(catalogs)} servers, {n_tools} tools; {opts.folds} server folds")
    sets = {
        name: check_requests(load_requests("dev" if name == "tuned" else name), catalogs)
        for name in opts.sets
        if name != "lso"
    }
    lso = check_requests(load_requests("all"), catalogs)
    folds = server_folds(catalogs, opts.folds)

    results: dict[str, Quality] = {}
    speed: dict[str, Any] = {}
    for method in opts.methods:
        factory = METHODS[method]
        try:
            factory()
        except ImportError as exc:
            print(f"{method}: not available ({exc}); skipped")
            continue
        short = (
            "kw" if method == "workbench" else "sem" if method == "workbench-semantic" else method
        )
        for config in opts.configs:
            by_set = evaluate(factory, config, catalogs, sets, lso, folds)
            for name in opts.sets:
                results[f"{short}{config} {name}"] = by_set[name]
        if not opts.no_speed:
            queries = [r.query for name in sets for r in sets[name]]
            with vocabulary("", catalogs):
                speed[method] = {
                    str(size): measure_speed(factory, catalogs, queries, size) for size in SIZES
                }
                if method == "workbench-semantic":
                    speed[f"{method} (new kernel, vectors on disk)"] = cached_speed(
                        factory, catalogs, queries
                    )
        print(f"  {method}: done", flush=True)
    if not results:
        return 1
    report = print_table(results)
    for method, sizes in speed.items():
        for figures in sizes.values():
            embedded = figures.get("texts_embedded")
            print(
                f"{method:20s} @{figures['tools']:>6} tools: query median "
                f"{figures['median_ms']:.3f} ms, p95 {figures['p95_ms']:.3f} ms, "
                f"index {figures['build_s']:.3f} s"
                + ("" if embedded is None else f" ({embedded} texts embedded)")
            )
    out_dir = root / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    data = {
        **report,
        "speed": speed,
        "requests": {c: q.rows for c, q in results.items()},
    }
    name = f"generalization{'-' + opts.label if opts.label else ''}"
    text = json.dumps(data, indent=1) + "\n"
    (out_dir / f"{stamp}-{name}.json").write_text(text)
    (out_dir / f"latest-{name}.json").write_text(text)
    print(f"results: {out_dir / f'latest-{name}.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
