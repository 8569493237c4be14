"""HTML building blocks with inline styles: no stylesheet to inject, nothing to leak.

Every function escapes the text it is given and returns HTML; callers only join the pieces.
Inline styles also override JupyterLab's own table defaults (centred, right-aligned cells).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from workbench.display.style import (
    BORDER,
    CSS_COLOR,
    FONT,
    MONO,
    SUBTLE,
    TEXT,
    Tone,
    badge_tone,
)


def esc(value: object) -> str:
    """Escape text for HTML content and attribute values alike."""
    return html.escape(str(value), quote=True)


def box(kind: str, inner: str, *, tone: Tone | None = None) -> str:
    """The outer frame of a view; ``wb-{kind}`` lets people and tests find it."""
    edge = CSS_COLOR[tone] if tone else BORDER
    style = (
        f"font-family:{FONT};color:{TEXT};font-size:13px;line-height:1.45;"
        f"border-left:3px solid {edge};padding:4px 0 4px 10px;margin:2px 0"
    )
    return f'<div class="wb-{esc(kind)}" style="{style}">{inner}</div>'


def span(text: object, *, tone: Tone | None = None, mono: bool = False, bold: bool = False) -> str:
    """A run of text with an optional tone, monospace or weight."""
    style = ""
    if tone:
        style += f"color:{CSS_COLOR[tone]};"
    if mono:
        style += f"font-family:{MONO};"
    if bold:
        style += "font-weight:600;"
    return f'<span style="{style}">{esc(text)}</span>' if style else esc(text)


def line(*pieces: str) -> str:
    """Pieces of HTML on one row, spaced evenly and wrapping on narrow screens."""
    inner = "".join(piece for piece in pieces if piece)
    return (
        f'<div style="display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline">{inner}</div>'
    )


def block(inner: str, *, tone: Tone | None = None) -> str:
    """A paragraph of already-built HTML, with a little space around it."""
    color = f"color:{CSS_COLOR[tone]};" if tone else ""
    return f'<div style="{color}margin:3px 0">{inner}</div>'


def pre(text: str, *, tone: Tone | None = None) -> str:
    """Preformatted text that still wraps: tool output keeps its layout, never overflows."""
    color = f"color:{CSS_COLOR[tone]};" if tone else ""
    style = (
        f"{color}font-family:{MONO};font-size:12px;white-space:pre-wrap;word-break:break-word;"
        "margin:3px 0;padding:0;background:none;border:none"
    )
    return f'<pre style="{style}">{esc(text)}</pre>'


def badge(word: str) -> str:
    """A pill for an annotation hint; coloured border and text read on either theme."""
    color = CSS_COLOR[badge_tone(word)]
    style = (
        f"display:inline-block;padding:0 6px;margin-right:4px;border:1px solid {color};"
        f"border-radius:9px;color:{color};font-size:11px;line-height:16px;white-space:nowrap"
    )
    return f'<span style="{style}">{esc(word)}</span>'


def badges(words: Iterable[str]) -> str:
    """Pills for every word, side by side."""
    return "".join(badge(word) for word in words)


def notice(text: str, *, tone: Tone = "muted") -> str:
    """A small italic line: truncation notices and empty-table messages."""
    return f'<div style="color:{CSS_COLOR[tone]};font-style:italic;margin:3px 0">{esc(text)}</div>'


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, title: str = "") -> str:
    """A compact left-aligned table; the cells are HTML already built by the caller.

    Styles sit on rows where they can: a table of a thousand tools stays small.
    """
    cell = "text-align:left;vertical-align:top;padding:2px 10px 2px 0"
    rule = f'<tr style="border-bottom:1px solid {BORDER}">'
    head = "".join(f'<th style="{cell};font-weight:600">{esc(name)}</th>' for name in headers)
    body = "".join(
        rule + "".join(f'<td style="{cell}">{value}</td>' for value in row) + "</tr>"
        for row in rows
    )
    caption = (
        f'<caption style="text-align:left;font-weight:600;padding:2px 0;caption-side:top">'
        f"{esc(title)}</caption>"
        if title
        else ""
    )
    style = "border-collapse:collapse;table-layout:auto;margin:3px 0;font-size:12px;border:none"
    return (
        f'<table style="{style}">{caption}'
        f"<thead>{rule}{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def code(text: str) -> str:
    """Inline code: identifiers and URIs, on a faint background."""
    style = f"font-family:{MONO};font-size:12px;background:{SUBTLE};padding:0 3px;border-radius:3px"
    return f'<code style="{style}">{esc(text)}</code>'


DOWNLOAD_MIME = "application/octet-stream"
"""The type of every Save link: bytes to keep, never a page (``text/html``, SVG, XHTML) the
browser might draw as the server wrote it (G14)."""


def download(name: str, data: str) -> str:
    """A Save link whose target is the base64 ``data`` itself: it works in a saved notebook,
    with no kernel. ``name`` must be safe already (``saving.file_name``)."""
    href = esc(f"data:{DOWNLOAD_MIME};base64,{data}")
    style = f"color:{CSS_COLOR['accent']};font-weight:600"
    return f'<a download="{esc(name)}" href="{href}" style="{style}">Save</a>'
