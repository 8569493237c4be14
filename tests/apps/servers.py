"""An MCP Apps server of the tests' own, in process (FastMCP): a UI tool and its ``ui://``
App, an App-only tool, and Apps a host must refuse (a plain-text resource, one over the size
cap, a URI that is no ``ui://``), plus a ``subscriptions/listen`` stream the tests publish
list changes on, as a 2026-07-28 server does."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types
from fastmcp import FastMCP
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler

from workbench.apps.cache import MAX_HTML_BYTES

APP_URI = "ui://counter/app.html"
PLAIN_URI = "ui://counter/plain.html"
BIG_URI = "ui://counter/big.html"
STUCK_URI = "ui://counter/stuck.html"
APP_MIME_TYPE = "text/html;profile=mcp-app"
CSP = {"connectDomains": ["https://api.example"], "resourceDomains": []}


class AppServer:
    """The server and what the tests change on it: the App's HTML, and its listen bus."""

    def __init__(self, name: str = "counter") -> None:
        self.html = "<!doctype html><title>counter</title><p>one</p>"
        self.bus = InMemorySubscriptionBus()
        self.server = FastMCP(name)
        self.server._mcp_server.add_request_handler(
            "subscriptions/listen",
            mcp_types.SubscriptionsListenRequestParams,
            ListenHandler(self.bus),
        )
        self._add()

    def _add(self) -> None:
        server, ui = self.server, lambda uri, **more: {"ui": {"resourceUri": uri, **more}}

        @server.tool(meta=ui(APP_URI))
        def count(start: int = 0) -> dict[str, Any]:
            """Count up from a number, drawn by the counter App."""
            return {"value": start + 1}

        @server.tool(meta=ui(APP_URI, visibility=["app"]))
        def reset_counter() -> str:
            """Reset the counter (the App's button; no model sees it)."""
            return "reset"

        @server.tool(meta=ui(APP_URI, visibility=["model"]))
        def model_only() -> str:
            """A tool only a model calls."""
            return "model"

        @server.tool(meta={"ui/resourceUri": APP_URI})
        def flat_key() -> str:
            """Names its App with the drafts' flat key."""
            return "flat"

        @server.tool(meta=ui(PLAIN_URI))
        def plain() -> str:
            """Its App is plain text, no App."""
            return "plain"

        @server.tool(meta=ui(BIG_URI))
        def big() -> str:
            """Its App is over the size cap."""
            return "big"

        @server.tool(meta=ui("https://evil.example/app.html", visibility="app"))
        def elsewhere() -> str:
            """Names an App that is no ui:// resource (and a visibility that is no list)."""
            return "elsewhere"

        @server.tool(meta=ui(STUCK_URI))
        def stuck() -> str:
            """Its App's server never answers the read."""
            return "stuck"

        @server.tool
        def no_app() -> str:
            """A tool with no App."""
            return "none"

        meta = {"ui": {"csp": CSP, "prefersBorder": True, "permissions": {"clipboardWrite": {}}}}

        @server.resource(APP_URI, mime_type=APP_MIME_TYPE, meta=meta)
        def app() -> str:
            return self.html

        @server.resource(PLAIN_URI, mime_type="text/plain")
        def plain_app() -> str:
            return "no html"

        @server.resource(STUCK_URI, mime_type=APP_MIME_TYPE)
        async def stuck_app() -> str:
            await asyncio.Event().wait()  # until the read is cancelled
            return ""

        @server.resource(BIG_URI, mime_type=APP_MIME_TYPE)
        def big_app() -> str:
            return "<p>" + "x" * MAX_HTML_BYTES + "</p>"
