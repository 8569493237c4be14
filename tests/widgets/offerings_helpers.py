"""What the Resources and Prompts tab tests share: a page's part played in Python, and
server-everything's command line (installed by `make servers`; missing fails, never skips)."""

from __future__ import annotations

import shutil
from typing import Any

from tests.installed import ROOT, Installed
from workbench.widgets.offering_list import OfferingList

SERVERS = Installed(ROOT / ".cache" / "servers", "servers", "MCP servers")


def everything_command() -> list[str]:
    """``node <server-everything's bin js> stdio``."""
    SERVERS.node()
    home, manifest = SERVERS.npm_package(
        "server-everything", "EVERYTHING_VERSION", prefix=SERVERS.folder / "npm"
    )
    script = SERVERS.script(home, manifest["bin"]["mcp-server-everything"])
    return [str(shutil.which("node")), str(script), "stdio"]


def page_asks(listing: OfferingList, query: str | None = None) -> dict[str, Any]:
    """What ``offering_list.js`` does on a keystroke or a ``stale`` bump: one request (the
    query typed so far); returns the answer."""
    request = dict(listing.request)
    seq = int(request.get("seq") or 0) + 1
    listing.request = {"query": request.get("query", "") if query is None else query, "seq": seq}
    assert listing.answer["seq"] == seq
    return dict(listing.answer)


def labels(answer: dict[str, Any]) -> list[str]:
    return [row["label"] for row in answer["rows"]]


def html_of(outputs: Any) -> str:
    return "\n".join(output["data"].get("text/html", "") for output in outputs)
