"""Methods side by side on the demo catalog: figures, query latency and index time each."""

from __future__ import annotations

import importlib.util
from typing import Any

from tests.registry.lab.embedders import HashingEmbedder
from workbench import Registry
from workbench.registry.lab.methods import Keyword

REQUESTS: list[dict[str, Any]] = [
    {"text": "add two numbers", "expected": ["demo.add"], "kind": "lexical"},
    {"text": "supper for four tonight", "expected": ["demo.book_table"], "kind": "paraphrase"},
    {"text": "schedule a meeting", "expected": ["demo.create_event"], "kind": "paraphrase"},
    {"text": "what hour is it in Lima", "expected": ["demo.get_time"], "kind": "paraphrase"},
    {"text": "transfer money to my landlord", "expected": None, "kind": "no_answer"},
]
SEMANTIC = importlib.util.find_spec("wordllama") is not None


def test_every_available_method_is_measured(demo_tools: list[Any]) -> None:
    registry = Registry(embedder=HashingEmbedder())
    registry.add_tools("demo", demo_tools)
    comparison = registry.lab(REQUESTS).compare()
    expected = ["keyword", "keyword-no-synonyms"]
    if SEMANTIC:
        expected += ["semantic", "semantic-only", "keyword+semantic-only"]
    expected += ["embedder", "embedder-only", "keyword+embedder-only"]
    assert list(comparison.reports) == expected
    for name, report in comparison.reports.items():
        assert report.method == name and report.n == 4
        assert report.index_seconds is not None and report.index_seconds > 0
        assert report.latency_ms is not None and report.latency_ms > 0
    # The embedder reaches the dinner request that keyword cannot.
    assert comparison["keyword"].rows()[1]["rank"] != 1
    assert comparison["embedder"].rows()[1]["rank"] == 1
    assert comparison["embedder"].mrr > comparison["keyword"].mrr
    assert comparison.best in comparison.reports
    rows = comparison.rows()
    assert [row["method"] for row in rows] == expected
    assert set(rows[0]) >= {"top1", "top5", "mrr", "latency_ms", "index_seconds"}
    text = repr(comparison)
    assert text.splitlines()[1].split()[:3] == ["method", "n", "top-1"]
    html = comparison._repr_mimebundle_()["text/html"]
    assert html.count("<tr>") == len(expected) + 1 and "<svg" in html


def test_methods_by_name_or_object_and_the_live_search(demo_registry: Registry) -> None:
    comparison = demo_registry.lab(REQUESTS).compare(["search", Keyword(synonyms=False)])
    assert list(comparison.reports) == ["search", "keyword-no-synonyms"]
    assert comparison["search"].index_seconds is None  # the registry's index is always built
    assert "(live)" in repr(comparison)
    assert comparison["search"].top1 >= comparison["keyword-no-synonyms"].top1
