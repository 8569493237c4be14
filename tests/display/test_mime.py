"""The Displayable base: plain-text rendering and the mime bundle protocol."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from workbench.display import OBSERVATION_MIME, Displayable, render_plain


class Sample(Displayable):
    def __init__(self, document: dict[str, Any] | None = None) -> None:
        self.document = document

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("[bold]not markup[/bold] :smile:", style="red")

    def to_html(self) -> str:
        return "<p>sample</p>"

    def to_json(self) -> dict[str, Any] | None:
        return self.document


def test_plain_text_has_no_colour_markup_emoji_or_trailing_spaces() -> None:
    assert Sample().to_plain() == "[bold]not markup[/bold] :smile:"
    table = Table("a", "b")
    table.add_row("1", "2")
    plain = render_plain(table)
    assert "\x1b" not in plain and all(line == line.rstrip() for line in plain.splitlines())


def test_plain_text_wraps_at_the_display_width() -> None:
    text = Text("word " * 50)
    assert max(len(line) for line in render_plain(text).splitlines()) <= 100
    assert max(len(line) for line in render_plain(text, width=40).splitlines()) <= 40


def test_bundle_leaves_out_a_missing_json_document() -> None:
    assert Sample()._repr_mimebundle_() == {
        "text/plain": "[bold]not markup[/bold] :smile:",
        "text/html": "<p>sample</p>",
    }
    assert Sample({"kind": "x"})._repr_mimebundle_()[OBSERVATION_MIME] == {"kind": "x"}


def test_bundle_renders_only_what_is_asked() -> None:
    class Counting(Sample):
        calls = 0

        def to_html(self) -> str:
            Counting.calls += 1
            return super().to_html()

    view = Counting()
    assert set(view._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}
    assert set(view._repr_mimebundle_(exclude=["text/html"])) == {"text/plain"}
    assert Counting.calls == 0


def test_ipython_uses_the_bundle() -> None:
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(Sample({"kind": "x"}))  # type: ignore[no-untyped-call]
    assert data["text/html"] == "<p>sample</p>"
    assert data[OBSERVATION_MIME] == {"kind": "x"}


def test_displayable_is_abstract() -> None:
    with pytest.raises(TypeError):
        Displayable()  # type: ignore[abstract]
