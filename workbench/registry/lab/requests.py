"""Requests a person expects search to answer: what they type, and the tools that fit.

One request is ``{"text": ..., "expected": [ids] | None, "kind": ...}``: ``expected`` None
(or empty) says nothing in the catalog should match; ``kind`` groups figures ("paraphrase",
"lexical"...). ``query`` is read as ``text``, so the benchmark's own files load too. Requests
come as a list of dicts, a JSONL or CSV file, or a cell's text. Every bad row is named by its
line, all of them in one error: no row is dropped quietly.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError

__all__ = ["RequestsError", "SearchRequest", "load_requests"]

MAX_ERRORS_SHOWN = 20
_ID_SEPARATORS = re.compile(r"[;|,\s]+")
_COMMENT = ("#", "//")


class RequestsError(WorkbenchError, ValueError):
    """Some rows could not be read; the message names each one by its line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = problems[:MAX_ERRORS_SHOWN]
        more = len(problems) - len(shown)
        tail = [f"... and {more} more"] if more else []
        super().__init__("\n".join([f"{len(problems)} bad request row(s):", *shown, *tail]))


@dataclass(frozen=True)
class SearchRequest:
    """What a person would type, and which tools answer it (None: no tool should)."""

    text: str
    expected: tuple[str, ...] | None
    kind: str | None = None
    line: int | None = None
    """Where it came from (line of a file or cell, or position in a list; from 1)."""

    @property
    def answerable(self) -> bool:
        return self.expected is not None


RequestsSource = str | Path | Iterable[Mapping[str, Any] | SearchRequest]


def load_requests(source: RequestsSource) -> list[SearchRequest]:
    """Requests from a list of dicts, a ``.jsonl``/``.json``/``.csv`` path, or text (JSONL
    when its first row starts with ``{``, else CSV with a header row). Lines starting with
    ``#`` or ``//`` and blank lines are skipped in JSONL."""
    if isinstance(source, Path) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source).expanduser()
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".csv":
            return _from_csv(text)
        if path.suffix.lower() == ".json":
            return _from_rows(list(enumerate(_json_list(text), 1)))
        return _from_jsonl(text)
    if isinstance(source, str):
        first = next((s.strip() for s in source.splitlines() if _is_row(s)), "")
        if first.startswith("["):
            return _from_rows(list(enumerate(_json_list(source), 1)))
        return _from_jsonl(source) if first.startswith("{") else _from_csv(source)
    return _from_rows(list(enumerate(source, 1)))


def _looks_like_path(text: str) -> bool:
    stripped = text.strip()
    if "\n" in stripped or stripped.startswith(("{", "[")):
        return False
    return stripped.lower().endswith((".jsonl", ".json", ".csv")) or Path(stripped).is_file()


def _is_row(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(_COMMENT)


def _json_list(text: str) -> list[Any]:
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestsError([f"line {exc.lineno}: not JSON ({exc.msg})"]) from None
    if not isinstance(rows, list):
        raise RequestsError(["line 1: a JSON file of requests holds a list of objects"])
    return rows


def _from_jsonl(text: str) -> list[SearchRequest]:
    rows: list[tuple[int, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not _is_row(line):
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            problems.append(f"line {number}: not JSON ({exc.msg})")
    return _from_rows(rows, problems)


def _from_csv(text: str) -> list[SearchRequest]:
    reader = csv.DictReader(io.StringIO(text.strip("\n")))
    fields = {name.strip().lower() for name in reader.fieldnames or ()}
    if not fields & {"text", "query"}:
        raise RequestsError(["line 1: a CSV of requests needs a header with a 'text' column"])
    rows: list[tuple[int, Any]] = []
    for row in reader:
        cells = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        ids = [part for part in _ID_SEPARATORS.split(cells.get("expected", "")) if part]
        cells_out: dict[str, Any] = {**cells, "expected": ids or None}
        rows.append((reader.line_num, cells_out))
    return _from_rows(rows)


def _from_rows(
    rows: list[tuple[int, Any]], problems: list[str] | None = None
) -> list[SearchRequest]:
    found: list[SearchRequest] = []
    problems = list(problems or [])
    for number, row in rows:
        if isinstance(row, SearchRequest):
            found.append(row)
            continue
        try:
            found.append(_request(row, number))
        except ValueError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        problems.sort(key=lambda text: int(text.split(":")[0].split()[1]))
        raise RequestsError(problems)
    return found


def _request(row: Any, number: int) -> SearchRequest:
    if not isinstance(row, Mapping):
        raise ValueError(f"expected an object with 'text' and 'expected', got {type(row).__name__}")
    text = row.get("text", row.get("query"))
    if not isinstance(text, str) or not text.strip():
        raise ValueError("no 'text' (what a person would type)")
    if "expected" not in row:
        raise ValueError("no 'expected' (a list of tool ids, or null when nothing should match)")
    expected = row["expected"]
    if isinstance(expected, str):
        expected = [expected]
    if expected is not None and (
        not isinstance(expected, list) or not all(isinstance(i, str) and i for i in expected)
    ):
        raise ValueError("'expected' must be a list of tool ids (strings), one id, or null")
    kind = row.get("kind")
    if kind is not None and not isinstance(kind, str):
        raise ValueError("'kind' must be a string")
    ids = tuple(dict.fromkeys(i.strip() for i in expected)) if expected else None
    return SearchRequest(" ".join(text.split()), ids, kind or None, number)
