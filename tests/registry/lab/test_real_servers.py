"""The lab on a kernel's catalog of real servers: the demo, server-everything and
mcp-server-time over stdio, measured through ``wb.registry`` as a notebook would."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.registry.lab.embedders import HashingEmbedder
from workbench.session import Workbench

pytestmark = pytest.mark.integration

REQUESTS = [
    {"text": "what time is it in Tokyo", "expected": ["time.get_current_time"], "kind": "lexical"},
    {"text": "convert 3pm London time to New York", "expected": ["time.convert_time"]},
    {"text": "add two numbers", "expected": ["demo.add", "everything.get-sum"], "kind": "lexical"},
    {"text": "repeat my words back to me", "expected": ["everything.echo"], "kind": "paraphrase"},
    {"text": "show environment variables", "expected": ["everything.get-env"], "kind": "lexical"},
    {"text": "compress a file", "expected": ["everything.gzip-file-as-resource"]},
    {"text": "order a pizza to my door", "expected": None, "kind": "no_answer"},
]


@pytest.fixture(scope="module")
def wb(everything_stdio: list[str], time_server: list[str]) -> Iterator[Workbench]:
    workbench = Workbench()
    try:
        workbench.connect("demo")
        workbench.connect("everything", command=everything_stdio[0], args=everything_stdio[1:])
        workbench.connect("time", command=time_server[0], args=time_server[1:])
        yield workbench
    finally:
        workbench.close()


def test_the_report_on_three_real_servers(wb: Workbench) -> None:
    report = wb.registry.lab(REQUESTS).report
    assert report.problems == []  # every expected id is in the catalog
    assert report.n == 6 and report.n_unanswerable == 1
    rows = report.rows()
    assert rows[0]["rank"] is not None and rows[0]["rank"] <= 5
    assert rows[0]["first"].startswith(("time.", "demo.get_time"))
    assert rows[2]["rank"] == 1  # either adding tool counts
    assert 0 < report.top1 <= report.top5 <= 1 and 0 < report.mrr <= 1
    assert set(report.by_kind) == {"lexical", "paraphrase"}
    for miss in report.misses:  # each explained: what ranked above, and by which words
        assert miss.above and all(ranked.id in wb.registry for ranked in miss.above)
        assert all(ranked.matched for ranked in miss.above)


def test_compare_and_an_embedder_on_the_kernels_registry(wb: Workbench) -> None:
    lab = wb.registry.lab(REQUESTS)
    keyword = lab.compare(["keyword", "keyword-no-synonyms"])
    assert keyword["keyword"].top1 >= keyword["keyword-no-synonyms"].top1
    wb.registry.set_embedder(HashingEmbedder())
    try:
        with_embedder = lab.compare(["search", "embedder-only", "keyword+embedder-only"])
        assert with_embedder["search"].n == 6
        assert with_embedder["embedder-only"].index_seconds is not None
        assert with_embedder["keyword+embedder-only"].rows()[0]["rank"] is not None
    finally:
        wb.registry.set_embedder(None)
