"""Who may see a tool: MCP Apps' ``_meta.ui.visibility`` (``"model"``, ``"app"``).

A tool whose visibility lacks ``"model"`` is app-only: it is kept out of the surfaces a
model reads (``Registry.search``, ``find_tools``), yet a person (``wb.call``) and its App
may call it. The spec's default is both audiences, and a server's junk (not a list, no
known word) reads as that default: visibility is a declaration, never a reason to fail.
``workbench/apps/ui_meta.py`` reads the rest of ``_meta.ui``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MODEL, APP = "model", "app"
DEFAULT = (MODEL, APP)


def visibility(meta: object) -> tuple[str, ...]:
    """The audiences of a tool's ``_meta`` (``DEFAULT`` when absent or junk)."""
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    given: Any = ui.get("visibility") if isinstance(ui, Mapping) else None
    if not isinstance(given, list | tuple):
        return DEFAULT
    known = tuple(word for word in (MODEL, APP) if word in given)
    return known or DEFAULT


def model_visible(meta: object) -> bool:
    """Whether a model may find and call the tool (its visibility names ``model``)."""
    return MODEL in visibility(meta)


def app_visible(meta: object) -> bool:
    """Whether an App may call the tool (its visibility names ``app``)."""
    return APP in visibility(meta)
