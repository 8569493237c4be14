"""The documents the sidebar is sent, as pure functions of a Workbench.

Plain JSON-ready dicts, so the comm only sends them and the tests read them as the panel
does. Every line that may carry a server's words (an error) goes through ``mask_text`` and
is cut to one line; the served surface shows its URL and tool count, never its token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.secrets import mask_text

if TYPE_CHECKING:
    from workbench.registry import Registry, ToolEntry
    from workbench.session import Workbench

LINE = 200
"""Characters of an error line or a tool summary the panel is sent."""
MAX_HITS = 100
"""The most search hits one answer carries, whatever the panel asks for."""
MAX_QUERY = 1_000
"""Characters of a query searched and echoed (the registry's own search bound)."""
ICON_CHARS = 16 * 1024
"""The longest icon a hit carries; only ``data:`` images are ever sent, never a URL the
page would fetch (``workbench/tools/icons.py``)."""


def one_line(text: str | None, limit: int = LINE) -> str:
    """``text`` flattened to one line and cut to ``limit`` characters ('' for None)."""
    flat = " ".join((text or "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def state_document(workbench: Workbench | None, served: dict[str, Any] | None) -> dict[str, Any]:
    """What the panel shows above its search: every server with its status, the tool
    count, and what is served (``served`` as :func:`served_document` made it)."""
    if workbench is None or workbench.closed:
        return {"type": "state", "servers": [], "served": None, "tools": 0}
    servers = [
        {
            "name": info.name,
            "status": info.status,
            "transport": info.transport,
            "tools": info.tool_count,
            "error": one_line(mask_text(info.last_error)) if info.last_error else None,
            **_icon(info.drawable_icons(ICON_CHARS)),
        }
        for info in workbench.servers()
    ]
    return {
        "type": "state",
        "servers": servers,
        "served": served,
        "tools": len(workbench.registry),
    }


def served_document(workbench: Workbench | None) -> dict[str, Any] | None:
    """The running ``%mcp serve`` surface: URL, tools, clients and how it is guarded (the
    token as it may be shown, ``***`` or a ``${env:VAR}`` template), or None.

    Asks the surface for its tools, which runs their ``enabled`` predicates: call it on the
    kernel's main thread only, never from a registry listener on the bridge thread.
    """
    handle = None if workbench is None or workbench.closed else workbench.serving
    if handle is None:
        return None
    return {
        "url": handle.url,
        "server": handle.server,
        "tools": len(handle.tools()),
        "clients": handle.clients,
        "auth": handle.token_shown,
    }


def search_document(registry: Registry, query: str, limit: int = 40) -> dict[str, Any]:
    """The hits of ``query``, best first, each with its server and a one-line summary; an
    empty query lists every tool by id. ``suggestions`` when nothing matched well."""
    query = query[:MAX_QUERY]
    limit = max(1, min(int(limit), MAX_HITS))
    if not query.strip():
        entries = sorted(registry, key=lambda entry: entry.id)
        return {
            "type": "results",
            "query": query,
            "hits": [_hit(entry) for entry in entries[:limit]],
            "total": len(entries),
            "noGoodMatch": False,
            "suggestions": [],
        }
    results = registry.search(query, limit)
    hits = [_hit(registry.get(hit.id)) for hit in results]
    suggestions = registry.suggest(query.strip()) if results.no_good_match or not hits else []
    return {
        "type": "results",
        "query": query,
        "hits": hits,
        "total": len(hits),
        "noGoodMatch": results.no_good_match,
        "suggestions": [s for s in suggestions if s not in {hit["id"] for hit in hits}],
    }


def _hit(entry: ToolEntry) -> dict[str, Any]:
    annotations = entry.annotations
    return {
        **_icon(entry.drawable_icons(ICON_CHARS)),
        "id": entry.id,
        "server": entry.server,
        "name": entry.name,
        "title": entry.title,
        "summary": one_line(_first_paragraph(entry.description)),
        "readOnly": bool(annotations and annotations.read_only_hint),
        "destructive": bool(annotations and annotations.destructive_hint),
    }


def _icon(shown: dict[str, str]) -> dict[str, Any]:
    """The ``icon`` field of a hit or server row: present only when one may be drawn."""
    return {"icon": shown} if shown else {}


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0]
