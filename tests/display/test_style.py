"""Tones: what each status, log level and badge means."""

from __future__ import annotations

from workbench.display.style import CSS_COLOR, RICH_STYLE, badge_tone, level_tone, status_tone


def test_every_tone_has_a_terminal_style_and_a_css_colour() -> None:
    assert set(RICH_STYLE) == set(CSS_COLOR)


def test_status_tones() -> None:
    assert status_tone("connected") == "ok" and status_tone("ok") == "ok"
    assert status_tone("connecting") == "warn" and status_tone("cancelled") == "warn"
    assert status_tone("closed") == "muted"
    assert status_tone("failed") == "error" and status_tone("timeout") == "error"


def test_level_and_badge_tones() -> None:
    assert level_tone("DEBUG") == "muted" and level_tone("warning") == "warn"
    assert level_tone("critical") == "error"
    assert badge_tone("destructive") == "error" and badge_tone("something-new") == "muted"
