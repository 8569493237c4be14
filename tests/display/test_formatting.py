"""Text helpers: durations, sizes, cuts and the structured-content twin check."""

from __future__ import annotations

import pytest

from workbench.display.formatting import (
    base64_size,
    cut,
    first_line,
    format_duration,
    format_size,
    more_notice,
    shorten,
    to_json,
)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(None, ""), (0.0004, "0.4 ms"), (0.25, "250.0 ms"), (1.0, "1.00 s"), (75.3, "75.3 s")],
)
def test_format_duration(seconds: float | None, text: str) -> None:
    assert format_duration(seconds) == text


def test_format_size_and_base64_size() -> None:
    assert [format_size(n) for n in (12, 2048, 3_500_000)] == ["12 B", "2.0 kB", "3.5 MB"]
    assert base64_size("aGVsbG8=") == 5


def test_cut_and_notice() -> None:
    assert cut("abcdef", 4) == ("abcd", 2)
    assert cut("abc", 4) == ("abc", 0)
    assert more_notice(1) == "… 1 more character not shown"
    assert more_notice(12345) == "… 12,345 more characters not shown"


def test_shorten_takes_the_first_paragraph_on_one_line() -> None:
    assert shorten("Summary\nline.\n\nDetails.") == "Summary line."
    long = shorten("word " * 40, 30)
    assert len(long) <= 30 and long.endswith("…")
    assert shorten("x" * 100, 10) == "x" * 9 + "…"


def test_first_line_skips_blank_lines() -> None:
    assert first_line("\n  Failed: boom\nTraceback") == "Failed: boom"
    assert first_line(None) == ""


def test_to_json_keeps_unicode_and_survives_objects() -> None:
    assert to_json({"é": 1}) == '{"é": 1}'
    assert to_json({1, 2}).startswith('"{')
