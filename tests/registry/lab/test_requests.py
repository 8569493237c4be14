"""Requests load from dicts, JSONL, JSON, CSV and a cell's text; bad rows are all named."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.registry.lab import RequestsError, SearchRequest, load_requests


def test_dicts_load_with_their_position_as_line() -> None:
    found = load_requests(
        [
            {"text": "add two numbers", "expected": ["demo.add"], "kind": "lexical"},
            {"query": "  book   a table ", "expected": "demo.book_table"},
            {"text": "send an sms", "expected": None},
            {"text": "fly to the moon", "expected": []},
        ]
    )
    assert found == [
        SearchRequest("add two numbers", ("demo.add",), "lexical", 1),
        SearchRequest("book a table", ("demo.book_table",), None, 2),
        SearchRequest("send an sms", None, None, 3),
        SearchRequest("fly to the moon", None, None, 4),
    ]
    assert [r.answerable for r in found] == [True, True, False, False]


def test_jsonl_file_skips_comments_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text(
        "# written from what a user would ask\n\n"
        '{"text": "what time is it in Tokyo", "expected": ["time.get_current_time"]}\n'
        '{"text": "nothing here", "expected": null, "kind": "no_answer"}\n'
    )
    found = load_requests(path)
    assert [(r.text, r.line, r.kind) for r in found] == [
        ("what time is it in Tokyo", 3, None),
        ("nothing here", 4, "no_answer"),
    ]
    assert load_requests(str(path)) == found


def test_csv_text_splits_expected_ids_and_reads_empty_as_nothing() -> None:
    cell = (
        "text,expected,kind\n"
        "add numbers,demo.add,lexical\n"
        '"sum, then book","demo.add; demo.book_table",paraphrase\n'
        "send an sms,,no_answer\n"
    )
    found = load_requests(cell)
    assert [(r.text, r.expected, r.kind, r.line) for r in found] == [
        ("add numbers", ("demo.add",), "lexical", 2),
        ("sum, then book", ("demo.add", "demo.book_table"), "paraphrase", 3),
        ("send an sms", None, "no_answer", 4),
    ]


def test_json_list_file(tmp_path: Path) -> None:
    path = tmp_path / "requests.json"
    path.write_text('[{"text": "add", "expected": ["demo.add"]}]')
    assert load_requests(path) == [SearchRequest("add", ("demo.add",), None, 1)]


def test_every_bad_row_is_named_by_its_line_in_one_error() -> None:
    cell = "\n".join(
        [
            '{"text": "fine", "expected": ["a.b"]}',
            '{"text": "no expected key"}',
            "{not json",
            '{"expected": ["a.b"]}',
            '{"text": "bad ids", "expected": [1, 2]}',
            '["a list"]',
        ]
    )
    with pytest.raises(RequestsError) as caught:
        load_requests(cell)
    assert caught.value.problems == [
        "line 2: no 'expected' (a list of tool ids, or null when nothing should match)",
        "line 3: not JSON (Expecting property name enclosed in double quotes)",
        "line 4: no 'text' (what a person would type)",
        "line 5: 'expected' must be a list of tool ids (strings), one id, or null",
        "line 6: expected an object with 'text' and 'expected', got list",
    ]
    assert str(caught.value).splitlines()[0] == "5 bad request row(s):"


def test_csv_without_a_text_column_is_refused() -> None:
    with pytest.raises(RequestsError, match="header with a 'text' column"):
        load_requests("request,ids\nadd,demo.add\n")
