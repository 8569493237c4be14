"""``%mcp search-eval FILE``: the lab's report on the connected tools, from a file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles, shown

Mcp = Callable[[str], Any]

REQUESTS = [
    {"text": "add two numbers", "expected": ["demo.add"], "kind": "lexical"},
    {"text": "schedule a meeting", "expected": ["demo.create_event"], "kind": "paraphrase"},
    {"text": "transfer money to my landlord", "expected": None},
]


@pytest.fixture
def requests_file(tmp_path: Path) -> Path:
    path = tmp_path / "requests.jsonl"
    path.write_text("# written for the test\n" + "\n".join(json.dumps(r) for r in REQUESTS))
    return path


def test_the_report_shows_as_text_and_as_a_table_with_a_chart(
    mcp: Mcp, requests_file: Path
) -> None:
    value, captured = mcp(f"search-eval {requests_file}")
    assert value is None
    text = shown(captured)
    assert text.startswith("SearchReport (search): 3 requests, 2 answerable")
    assert "lexical (n=1): top-1 100.0%" in text
    (bundle,) = bundles(captured)
    assert "<svg" in bundle["text/html"] and "<table>" in bundle["text/html"]


def test_compare_lists_each_method_with_its_times(mcp: Mcp, requests_file: Path) -> None:
    _, captured = mcp(f"search-eval {requests_file} --compare --method keyword-no-synonyms")
    lines = shown(captured).splitlines()
    assert lines[0] == "Comparison of 1 methods:"
    assert lines[1].split()[-2:] == ["ms/query", "index"]
    assert lines[2].startswith("keyword-no-synonyms")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("search-eval nowhere.jsonl", "No requests file 'nowhere.jsonl'."),
        ("search-eval {file} --method bm42", "Unknown search method 'bm42'"),
    ],
)
def test_usage_errors(mcp: Mcp, requests_file: Path, line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        mcp(line.format(file=requests_file))


def test_bad_rows_are_named_by_line(mcp: Mcp, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "add"}\n{"text": "ok", "expected": ["demo.add"]}\n{oops\n')
    with pytest.raises(UsageError) as caught:
        mcp(f"search-eval {path}")
    assert str(caught.value).splitlines()[1:] == [
        "line 1: no 'expected' (a list of tool ids, or null when nothing should match)",
        "line 3: not JSON (Expecting property name enclosed in double quotes)",
    ]
