"""The page side of the two anywidget lists (``ToolList``, ``OfferingList``), joined here.

Both lists share their search protocol and look (``static/list_core.js|css``). anywidget
imports a widget's ``_esm`` text from a ``blob:`` URL, where a relative ``import`` cannot
resolve, so each list's ``_esm`` (and ``_css``) is the core's text followed by its own part.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"


def joined(*names: str) -> str:
    """The files ``names`` of ``static/``, in order, as one text."""
    return "\n".join((STATIC / name).read_text(encoding="utf-8") for name in names)
