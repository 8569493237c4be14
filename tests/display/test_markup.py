"""HTML pieces: escaping everywhere, theme variables, JupyterLab overrides."""

from __future__ import annotations

from workbench.display import markup


def test_every_piece_escapes_its_text() -> None:
    evil = '<img src=x onerror="alert(1)">'
    pieces = [
        markup.esc(evil),
        markup.span(evil, tone="error", mono=True, bold=True),
        markup.pre(evil),
        markup.badge(evil),
        markup.notice(evil),
        markup.code(evil),
        markup.table([evil], [[markup.esc(evil)]], title=evil),
        markup.box(evil, ""),
    ]
    for piece in pieces:
        assert "<img" not in piece and 'onerror="' not in piece


def test_colours_are_theme_variables_with_fallbacks() -> None:
    html = markup.span("x", tone="error")
    assert "var(--jp-error-color1, #d32f2f)" in html
    assert "var(--jp-ui-font-color1, inherit)" in markup.box("x", "")


def test_table_overrides_jupyterlab_centring_and_right_alignment() -> None:
    html = markup.table(["a"], [["1"]])
    assert "margin:3px 0" in html and "text-align:left" in html


def test_badge_tone_follows_the_hint() -> None:
    assert "var(--jp-error-color1" in markup.badge("destructive")
    assert "var(--jp-success-color1" in markup.badge("read-only")
