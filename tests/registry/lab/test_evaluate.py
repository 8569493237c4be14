"""The lab's report on the real demo server's catalog: figures, kinds, misses, display."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.processes import modules_after
from workbench import Registry
from workbench.registry.lab import SearchLab, SearchReport

REQUESTS: list[dict[str, Any]] = [
    {"text": "add two numbers", "expected": ["demo.add"], "kind": "lexical"},
    {"text": "reserve a table at a restaurant", "expected": ["book_table"], "kind": "paraphrase"},
    {
        "text": "put a meeting in my calendar",
        "expected": ["demo.create_event"],
        "kind": "paraphrase",
    },
    {"text": "count words in a text", "expected": ["demo.text_stats"], "kind": "lexical"},
    {"text": "transfer money to my landlord", "expected": None, "kind": "no_answer"},
]


def test_report_figures_are_fractions_of_the_answerable_requests(demo_registry: Registry) -> None:
    report = demo_registry.evaluate(REQUESTS)
    assert isinstance(report, SearchReport)
    ranks = [row["rank"] for row in report.rows()]
    answerable = list(ranks[:4])
    assert report.n == 4
    assert report.top1 == sum(rank == 1 for rank in answerable) / 4
    assert report.top5 == sum(rank is not None and rank <= 5 for rank in answerable) / 4
    assert report.mrr == pytest.approx(sum(1 / rank for rank in answerable if rank) / 4)
    assert ranks[0] == 1  # "add two numbers" finds demo.add first
    assert set(report.by_kind) == {"lexical", "paraphrase"}
    assert report.by_kind["lexical"].n == 2
    # A bare tool name resolves to its id.
    assert report.rows()[1]["expected"] == ["demo.book_table"]
    assert report.no_match_recall is not None


def test_a_miss_names_what_ranked_above_and_the_words_that_put_it_there(
    demo_registry: Registry,
) -> None:
    # "book" reaches demo.book_table by its own name; the request means a calendar event.
    report = demo_registry.evaluate(
        [{"text": "book a meeting with Ada", "expected": ["demo.create_event"]}]
    )
    (miss,) = report.misses
    assert miss.expected == ("demo.create_event",)
    assert miss.rank is not None and miss.rank > 1
    first = miss.above[0]
    assert first.id == "demo.book_table"
    assert "book" in first.matched
    # The expected tool was reached through a synonym route, shown as word→term.
    assert any(word.startswith("meeting→") for word in miss.expected_matched)


def test_an_unknown_expected_id_is_reported_and_counts_as_missed(demo_registry: Registry) -> None:
    report = demo_registry.evaluate([{"text": "add numbers", "expected": ["demo.plus"]}])
    assert report.top1 == 0.0
    assert len(report.problems) == 1
    assert report.problems[0].startswith("line 1: expected 'demo.plus': ")


def test_no_match_precision_and_recall(demo_registry: Registry) -> None:
    requests = [
        {"text": "add two numbers", "expected": ["demo.add"]},
        {"text": "zzzz qqqq", "expected": None},
        {"text": "transfer money to my landlord", "expected": None},
    ]
    report = demo_registry.evaluate(requests)
    rows = report.rows()
    flagged = [row for row in rows if row["no_good_match"]]
    assert rows[1]["no_good_match"] is True  # words no tool has
    assert report.no_match_precision == sum(r["expected"] is None for r in flagged) / len(flagged)
    assert report.no_match_recall == sum(r["no_good_match"] for r in rows[1:]) / 2


def test_text_and_notebook_forms_escape_the_servers_words(demo_tools: list[Any]) -> None:
    registry = Registry()
    registry.add_tools("demo", demo_tools)
    registry.add_tools(
        "evil", [{"name": "add_numbers", "description": "<script>alert(1)</script> add numbers"}]
    )
    report = registry.evaluate(
        [{"text": "add numbers <b>now</b>", "expected": ["demo.text_stats"], "kind": "<i>k</i>"}]
    )
    assert "evil.add_numbers" in [ranked.id for ranked in report.misses[0].above]
    bundle = report._repr_mimebundle_()
    html = bundle["text/html"]
    assert "<script" not in html and "<b>now" not in html and "<i>k" not in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html
    assert re.search(r"<svg [^>]*>.*</svg>", html, re.S)
    assert "on" + "click" not in html.lower()
    assert bundle["text/plain"] == repr(report)
    assert repr(report).startswith("SearchReport (search): 1 requests, 1 answerable")


def test_rows_hold_what_a_table_needs(demo_registry: Registry) -> None:
    rows = demo_registry.evaluate(REQUESTS[:1]).rows()
    assert set(rows[0]) == {
        "line",
        "text",
        "kind",
        "expected",
        "rank",
        "first",
        "no_good_match",
        "hit",
        "ms",
    }


def test_to_dataframe_without_pandas_says_how_to_get_it(demo_registry: Registry) -> None:
    report = demo_registry.evaluate(REQUESTS[:1])
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            report.to_dataframe()
    else:
        assert list(report.to_dataframe()["text"]) == ["add two numbers"]


def test_lab_reads_the_catalog_live(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    assert isinstance(lab, SearchLab)
    before = lab.report.top1
    demo_registry.remove_tools("demo", ["add"])
    after = lab.report
    assert after.rows()[0]["rank"] is None and after.top1 < before
    assert repr(lab).startswith("<SearchLab: 5 requests on <Registry: 10 tools")


def test_other_methods_by_name(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    plain = lab.evaluate("keyword-no-synonyms")
    assert plain.method == "keyword-no-synonyms"
    assert plain.index_seconds is not None and plain.index_seconds > 0
    # Without the synonym groups "meeting" no longer reaches the calendar's "event".
    meeting = [{"text": "schedule a meeting", "expected": ["demo.create_event"]}]
    assert demo_registry.evaluate(meeting, method="keyword").top5 == 1.0
    assert demo_registry.evaluate(meeting, method="keyword-no-synonyms").top5 == 0.0
    with pytest.raises(ValueError, match="Unknown search method 'bm42'"):
        lab.evaluate("bm42")


def test_the_lab_loads_only_when_used_and_never_an_embedding_library() -> None:
    used = modules_after(
        "import sys\n"
        "from workbench import Registry\n"
        "r = Registry()\n"
        "r.add_tools('s', [{'name': 'add', 'description': 'Add two numbers.'}])\n"
        "r.search('add')\n"
        "assert not [m for m in sys.modules if m.startswith('workbench.registry.lab')]\n"
        "r.evaluate([{'text': 'add', 'expected': ['s.add']}])\n"
    )
    assert "workbench.registry.lab.evaluate" in used
    assert not used & {"pandas", "model2vec", "fastembed", "wordllama", "sentence_transformers"}


def test_a_word_reached_through_a_route_is_quoted_as_the_tool_spells_it(
    demo_registry: Registry,
) -> None:
    (miss,) = demo_registry.evaluate([{"text": "send an sms", "expected": None}]).misses
    matched = {ranked.id: ranked.matched for ranked in miss.above}
    assert matched["demo.fail"] == ("send→message",)  # not the stem "messag"
