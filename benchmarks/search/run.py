"""Tool-search quality and speed benchmark over real MCP catalogs.

Loads the catalogs that collect.py stored in the cache, feeds them to the workbench
`Registry` (only through `add_tools` and `search`) and to two baselines defined here
(word-count overlap and plain BM25), runs the hand-written requests and prints found-in-top-1,
found-in-top-5, MRR, no-answer handling, query latency and index build time.

    python benchmarks/search/run.py [--split dev|holdout|all] [--methods overlap bm25 workbench]

`workbench-semantic` (the Registry with `semantic=True`) runs too when the `semantic` extra
(wordllama) is installed; its build time includes embedding every tool.

The holdout split exists to check, once, that tuning on dev did not overfit: leave it alone
until tuning is over.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

from collect import cache_dir, collect, load_manifest  # noqa: E402
from forms import print_survey, survey_forms  # noqa: E402

LIMIT = 15
KINDS = ("lexical", "paraphrase", "server", "typo", "identifier", "ambiguous", "no_answer")
SPLITS = {
    "dev": ("requests_dev.jsonl",),
    "holdout": ("requests_holdout.jsonl",),
    "all": ("requests_dev.jsonl", "requests_holdout.jsonl"),
    "sealed": ("requests_sealed.jsonl",),
    "fresh": ("requests_fresh.jsonl",),
    "sealed2": ("requests_sealed2.jsonl",),
    "sealed3": ("requests_sealed3.jsonl",),
    "sealed4": ("requests_sealed4.jsonl",),
    "sealed5": ("requests_sealed5.jsonl",),
}
SIZES = (1_000, 10_000)

Tool = dict[str, Any]
Catalogs = dict[str, list[Tool]]


# --------------------------------------------------------------------------------------
# data


@dataclass(frozen=True)
class Request:
    """One hand-written request and the tool ids that answer it."""

    query: str
    expected: tuple[str, ...]
    kind: str
    line: str  # file:line, for messages


def load_catalogs(root: Path) -> Catalogs:
    """Every collected catalog, by server name, in a stable order."""
    catalogs: Catalogs = {}
    for path in sorted((root / "catalogs").glob("*.json")):
        data = json.loads(path.read_text())
        catalogs[data["server"]] = data["tools"]
    return catalogs


def load_requests(split: str) -> list[Request]:
    """Parse and check the request files; a malformed line is an error, not a skip."""
    requests: list[Request] = []
    for filename in SPLITS[split]:
        for number, raw in enumerate((HERE / filename).read_text().splitlines(), 1):
            if not raw.strip():
                continue
            where = f"{filename}:{number}"
            row = json.loads(raw)
            kind, expected = row["kind"], tuple(row["expected"])
            if kind not in KINDS:
                raise ValueError(f"{where}: unknown kind {kind!r}")
            if (kind == "no_answer") != (not expected):
                raise ValueError(f"{where}: no_answer requests, and only they, expect []")
            requests.append(Request(row["query"], expected, kind, where))
    return requests


def check_requests(requests: list[Request], catalogs: Catalogs) -> list[Request]:
    """Drop expected ids not collected here, and flag paraphrases that share a name word."""
    known = {f"{server}.{tool['name']}" for server, tools in catalogs.items() for tool in tools}
    kept: list[Request] = []
    for req in requests:
        if req.kind == "paraphrase":  # by definition it shares no word with the tool name
            query = set(_split_words(req.query))
            for expected in req.expected:
                shared = query & set(_split_words(expected.split(".", 1)[1]))
                if shared:
                    print(
                        f"  {req.line}: paraphrase shares {sorted(shared)} with {expected}",
                        file=sys.stderr,
                    )
        present = tuple(e for e in req.expected if e in known)
        if req.expected and not present:
            print(
                f"  skipped {req.line}: none of {list(req.expected)} is in the catalogs",
                file=sys.stderr,
            )
            continue
        if len(present) < len(req.expected):
            missing = sorted(set(req.expected) - set(present))
            print(f"  {req.line}: {missing} not in the catalogs", file=sys.stderr)
        kept.append(Request(req.query, present, req.kind, req.line))
    return kept


def _split_words(text: str) -> list[str]:
    """Words of a query or identifier, camelCase split, with a crude plural strip."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in plain_words(spaced)]


def resize(catalogs: Catalogs, target: int) -> Catalogs:
    """Whole real catalogs, copied under renamed servers (github_r2 ...), until ~target tools.

    Servers are added one at a time, so the size lands just above the target; below the
    real total this takes a subset, above it, copies.
    """
    out: Catalogs = {}
    total = 0
    for copy in range(1, 1000):
        for server, tools in catalogs.items():
            if total >= target:
                return out
            out[server if copy == 1 else f"{server}_r{copy}"] = tools
            total += len(tools)
    return out


# --------------------------------------------------------------------------------------
# searchers


@dataclass
class Ranking:
    """What a searcher answers: ids best first, and whether it thinks nothing fits."""

    ids: list[str]
    no_good_match: bool


class Searcher(Protocol):
    name: str

    def build(self, catalogs: Catalogs) -> None: ...

    def search(self, query: str, limit: int) -> Ranking: ...


_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "a an and are as at be by can do for from get how i in into is it me my of on or please "
    "some that the this to use using want what which with you your".split()
)


def plain_words(text: str) -> list[str]:
    """Baseline tokenizer: lowercase alphanumeric runs, stopwords out; camelCase stays whole."""
    return [w for w in _TOKEN.findall(text.lower()) if w not in _STOP]


def _doc_text(tool: Tool) -> str:
    return f"{tool.get('name', '')} {tool.get('description') or ''}"


def _coverage_says_nothing(query_terms: set[str], matched: set[str]) -> bool:
    """Baselines' no-answer rule: the best hit matches under half of the query's words."""
    return not query_terms or len(matched & query_terms) * 2 < len(query_terms)


class WordOverlap:
    """Naive baseline: count the query words that also occur in name + description."""

    name = "overlap"

    def build(self, catalogs: Catalogs) -> None:
        self.docs = [
            (f"{server}.{tool['name']}", frozenset(plain_words(_doc_text(tool))))
            for server, tools in catalogs.items()
            for tool in tools
        ]

    def search(self, query: str, limit: int) -> Ranking:
        q = set(plain_words(query))
        scored = [(len(q & words), doc_id, words) for doc_id, words in self.docs]
        scored = [s for s in scored if s[0] > 0]
        scored.sort(key=lambda s: (-s[0], s[1]))
        top = scored[:limit]
        return Ranking([s[1] for s in top], not top or _coverage_says_nothing(q, set(top[0][2])))


class PlainBM25:
    """BM25 (k1=1.5, b=0.75) over name + description with an inverted index."""

    name = "bm25"
    k1 = 1.5
    b = 0.75

    def build(self, catalogs: Catalogs) -> None:
        self.ids: list[str] = []
        self.terms: list[set[str]] = []
        lengths: list[int] = []
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for server, tools in catalogs.items():
            for tool in tools:
                words = plain_words(_doc_text(tool))
                doc = len(self.ids)
                self.ids.append(f"{server}.{tool['name']}")
                self.terms.append(set(words))
                lengths.append(len(words))
                for term, tf in Counter(words).items():
                    postings[term].append((doc, tf))
        n = len(self.ids)
        avg = sum(lengths) / max(n, 1)
        self.norm = [self.k1 * (1 - self.b + self.b * length / avg) for length in lengths]
        self.idf = {
            t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()
        }
        self.postings = dict(postings)

    def search(self, query: str, limit: int) -> Ranking:
        q = plain_words(query)
        scores: dict[int, float] = defaultdict(float)
        for term in set(q):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for doc, tf in self.postings[term]:
                scores[doc] += idf * tf * (self.k1 + 1) / (tf + self.norm[doc])
        top = sorted(scores.items(), key=lambda s: (-s[1], self.ids[s[0]]))[:limit]
        if not top:
            return Ranking([], True)
        return Ranking(
            [self.ids[d] for d, _ in top], _coverage_says_nothing(set(q), self.terms[top[0][0]])
        )


class WorkbenchRegistry:
    """The package's Registry, used only through the public contract."""

    name = "workbench"

    def __init__(self) -> None:
        try:
            from workbench import Registry
        except ImportError:
            sys.path.insert(0, str(REPO))
            from workbench import Registry
        self._cls = Registry

    def build(self, catalogs: Catalogs) -> None:
        self.registry = self._cls()
        for server, tools in catalogs.items():
            self.registry.add_tools(server, tools)

    def search(self, query: str, limit: int) -> Ranking:
        hits = self.registry.search(query, limit=limit)
        return Ranking([hit.id for hit in hits], bool(hits.no_good_match))


class WorkbenchSemantic(WorkbenchRegistry):
    """The Registry in semantic mode; building includes embedding every tool, timed apart."""

    name = "workbench-semantic"
    vector_cache: Any = None  # a VectorCache: vectors read from disk, as in a new kernel

    def __init__(self) -> None:
        super().__init__()
        if importlib.util.find_spec("wordllama") is None:
            raise ImportError("wordllama is missing: pip install 'jupyter-mcp-workbench[semantic]'")
        from workbench.registry.semantic import load_encoder

        rss = _rss_mb()
        started = time.perf_counter()
        self._encoder = load_encoder()  # once per process; later instances reuse it
        self.figures = {
            "model_load_s": time.perf_counter() - started,
            "model_rss_mb": _rss_mb() - rss,
        }

    def build(self, catalogs: Catalogs) -> None:
        from workbench.registry.semantic import SemanticIndex

        embedded = 0

        def counting(texts: Sequence[str]) -> Any:
            nonlocal embedded
            embedded += len(texts)
            return self._encoder(texts)

        self.registry = self._cls()
        cached = () if self.vector_cache is None else (self.vector_cache,)  # older packages
        index = self.registry.enable_semantic(SemanticIndex(counting, *cached))
        for server, tools in catalogs.items():
            self.registry.add_tools(server, tools)
        rss = _rss_mb()
        started = time.perf_counter()
        index.prepare()  # otherwise the first search would embed every tool
        self.figures["encode_s"] = time.perf_counter() - started
        self.figures["texts_embedded"] = embedded
        self.figures["encode_rss_mb"] = _rss_mb() - rss

    def extras(self, queries: list[str]) -> dict[str, float]:
        """Model and embedding costs next to the common figures."""
        times = []
        for query in queries:
            started = time.perf_counter()
            self._encoder([query])
            times.append((time.perf_counter() - started) * 1000)
        return {**self.figures, "query_embed_ms": statistics.median(times)}


def _rss_mb() -> float:
    """This process's resident memory (Linux; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


METHODS: dict[str, Callable[[], Searcher]] = {
    "overlap": WordOverlap,
    "bm25": PlainBM25,
    "workbench": WorkbenchRegistry,
    "workbench-semantic": WorkbenchSemantic,
}


# --------------------------------------------------------------------------------------
# measuring


@dataclass
class Quality:
    """Per-request outcome, kept so a regression can be traced to its requests."""

    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, req: Request, ranking: Ranking) -> None:
        rank = next((i for i, hit in enumerate(ranking.ids, 1) if hit in req.expected), None)
        self.rows.append(
            {
                "query": req.query,
                "kind": req.kind,
                "expected": list(req.expected),
                "rank": rank,
                "no_good_match": ranking.no_good_match,
                "top3": ranking.ids[:3],
            }
        )

    def summary(self) -> dict[str, Any]:
        answerable = [r for r in self.rows if r["kind"] != "no_answer"]
        unanswerable = [r for r in self.rows if r["kind"] == "no_answer"]
        out: dict[str, Any] = {"overall": _scores(answerable)}
        for kind in KINDS[:-1]:
            rows = [r for r in answerable if r["kind"] == kind]
            if rows:
                out[kind] = _scores(rows)
        out["no_answer_flagged"] = _fraction(r["no_good_match"] for r in unanswerable)
        out["false_alarm"] = _fraction(r["no_good_match"] for r in answerable)
        out["n_no_answer"] = len(unanswerable)
        return out


def _fraction(flags: Iterable[bool]) -> float | None:
    values = list(flags)
    return sum(values) / len(values) if values else None


def _scores(rows: list[dict[str, Any]]) -> dict[str, float]:
    ranks = [r["rank"] for r in rows]
    return {
        "n": len(rows),
        "top1": sum(r == 1 for r in ranks) / len(rows),
        "top5": sum(r is not None and r <= 5 for r in ranks) / len(rows),
        "mrr": sum(1 / r for r in ranks if r) / len(rows),
    }


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def measure_speed(
    factory: Callable[[], Searcher], catalogs: Catalogs, queries: list[str], target: int
) -> dict[str, float]:
    """Build over ~target tools, then time each query once after one warm-up pass."""
    big = resize(catalogs, target)
    searcher = factory()
    t0 = time.perf_counter()
    searcher.build(big)
    build_s = time.perf_counter() - t0
    for query in queries[:20]:
        searcher.search(query, LIMIT)
    times = []
    for query in queries:
        t = time.perf_counter()
        searcher.search(query, LIMIT)
        times.append((time.perf_counter() - t) * 1000)
    figures = getattr(searcher, "figures", {})
    return {
        "tools": sum(len(t) for t in big.values()),
        "build_s": build_s,
        "median_ms": statistics.median(times),
        "p95_ms": _percentile(times, 0.95),
        **{k: v for k, v in figures.items() if k in ("encode_s", "texts_embedded")},
    }


# --------------------------------------------------------------------------------------
# report


def _pct(value: float | None) -> str:
    return "  -  " if value is None else f"{value * 100:5.1f}"


def print_report(results: dict[str, Any], methods: list[str]) -> None:
    width = max(12, *(len(m) + 2 for m in methods))
    head = "".join(f"{m:>{width}}" for m in methods)

    def row(label: str, cells: Iterable[str]) -> None:
        print(f"{label:34s}" + "".join(f"{c:>{width}}" for c in cells))

    print()
    print(f"{'':34s}{head}")
    quality = {m: results["methods"][m]["quality"] for m in methods}
    groups = ["overall"] + [k for k in KINDS[:-1] if k in quality[methods[0]]]
    for group in groups:
        n = quality[methods[0]][group]["n"]
        for metric, label in (("top1", "top-1 %"), ("top5", "top-5 %"), ("mrr", "MRR")):
            cells = []
            for m in methods:
                value = quality[m][group][metric]
                cells.append(f"{value:.3f}" if metric == "mrr" else _pct(value))
            row(f"{group} (n={n}) {label}" if metric == "top1" else f"  {label}", cells)
    n_no = quality[methods[0]]["n_no_answer"]
    row(f"no_answer flagged % (n={n_no})", [_pct(quality[m]["no_answer_flagged"]) for m in methods])
    row("false alarm % (answerable flagged)", [_pct(quality[m]["false_alarm"]) for m in methods])
    for size in results["sizes"]:
        speeds = {m: results["methods"][m]["speed"][str(size)] for m in methods}
        tools = speeds[methods[0]]["tools"]
        row(f"query ms median @{tools} tools", [f"{speeds[m]['median_ms']:.3f}" for m in methods])
        row(f"query ms p95    @{tools} tools", [f"{speeds[m]['p95_ms']:.3f}" for m in methods])
        row(f"build s         @{tools} tools", [f"{speeds[m]['build_s']:.3f}" for m in methods])
        if any("encode_s" in speeds[m] for m in methods):
            row(
                "  of which embedding s (texts)",
                [_figure(speeds[m], "encode_s", "texts_embedded") for m in methods],
            )
    extras = {m: results["methods"][m].get("extras", {}) for m in methods}
    for key, label in (
        ("model_load_s", "model load s (first, cold)"),
        ("model_rss_mb", "model memory MB (RSS)"),
        ("encode_s", f"embedding s @{results['tools']} tools"),
        ("encode_rss_mb", "embedding memory MB (RSS)"),
        ("query_embed_ms", "query embedding ms median"),
    ):
        if any(key in extras[m] for m in methods):
            row(label, [f"{extras[m][key]:.3f}" if key in extras[m] else "-" for m in methods])
    print()


def _figure(speed: dict[str, Any], seconds: str, count: str) -> str:
    return f"{speed[seconds]:.2f} ({speed[count]})" if seconds in speed else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=tuple(SPLITS), default="dev")
    parser.add_argument("--methods", nargs="+", choices=tuple(METHODS), default=list(METHODS))
    parser.add_argument("--no-speed", action="store_true", help="skip the latency runs")
    opts = parser.parse_args(argv)

    root = cache_dir()
    if not any((root / "catalogs").glob("*.json")):
        print(f"no catalogs in {root}: collecting them first (takes minutes)")
        collect(root)
    catalogs = load_catalogs(root)
    n_tools = sum(len(tools) for tools in catalogs.values())
    print(f"{len(catalogs)} servers, {n_tools} tools from {root / 'catalogs'}")
    requests = check_requests(load_requests(opts.split), catalogs)
    counts = Counter(r.kind for r in requests)
    print(
        f"{len(requests)} {opts.split} requests: "
        + ", ".join(f"{k} {counts[k]}" for k in KINDS if counts[k])
    )

    forms = survey_forms(catalogs)
    print_survey(forms)

    methods: list[str] = []
    results: dict[str, Any] = {
        "forms": forms,
        "split": opts.split,
        "servers": len(catalogs),
        "tools": n_tools,
        "requests": dict(counts),
        "sizes": [] if opts.no_speed else list(SIZES),
        "manifest_versions": {
            k: v.get("version")
            for k, v in load_manifest(root)["servers"].items()
            if v.get("status") == "ok"
        },
        "methods": {},
    }
    for method in opts.methods:
        factory = METHODS[method]
        try:
            searcher = factory()
        except ImportError as exc:
            print(f"{method}: not available ({exc}); skipped")
            continue
        searcher.build(catalogs)
        quality = Quality()
        for req in requests:
            quality.add(req, searcher.search(req.query, LIMIT))
        entry: dict[str, Any] = {
            "quality": quality.summary(),
            "requests": quality.rows,
            "speed": {},
        }
        queries = [r.query for r in requests]
        extras = getattr(searcher, "extras", None)
        if extras is not None:
            entry["extras"] = extras(queries)
        for size in results["sizes"]:
            entry["speed"][str(size)] = measure_speed(factory, catalogs, queries, size)
        results["methods"][method] = entry
        methods.append(method)
        print(f"  {method}: done", flush=True)
    if not methods:
        return 1
    print_report(results, methods)
    out_dir = root / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = json.dumps(results, indent=1) + "\n"
    (out_dir / f"{stamp}-{opts.split}.json").write_text(text)
    (out_dir / f"latest-{opts.split}.json").write_text(text)
    print(f"results: {out_dir / f'latest-{opts.split}.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
