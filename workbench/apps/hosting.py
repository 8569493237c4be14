"""The kernel's side of hosting MCP Apps: a UI tool's call carries its App to the display.

``Workbench._call`` asks ``AppHost.prepare`` for the App of a finished call (the HTML read
once, on the bridge loop, through ``cache.py``) and ``attach`` puts the App document
(``display/schemas/app.schema.json``) on the Observation it returns, so every way of
calling (magics, ``wb.call``, ``await wb.acall``, the browser, the sidebar's cells) shows
it, and a repr reads nothing. Calls from outside clients and from Apps get none: nobody
draws them here. The App's own requests (``lab/apps_comm.py``) come back through
``call``-like submissions made ``from_app`` and ``read``, recorded with the source ``app``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from workbench.apps.cache import AppHtml, HtmlCache, Outcome, Refusal
from workbench.apps.ui_meta import tool_ui
from workbench.history import APP, CALL_SOURCE, KERNEL
from workbench.listeners import Listeners
from workbench.tools.schema import ErrorKind, Observation

if TYPE_CHECKING:
    from workbench.bridge import Bridge
    from workbench.history import History
    from workbench.mcp.connection import ServerChange
    from workbench.mcp.manager import ConnectionManager
    from workbench.registry import Registry, ToolEntry

APP_DOCUMENT_VERSION = 1
DRAWN = (None, ErrorKind.TOOL_ERROR)
"""Error kinds of calls whose App is drawn: a result, or the server's own error result."""

Reload = tuple[str, str, str]
"""(server, uri, html_sha256) of an App whose HTML changed."""


class AppHost:
    """Apps of one Workbench: their HTML, the documents of calls, the App's requests."""

    def __init__(
        self,
        bridge: Bridge,
        manager: ConnectionManager,
        registry: Registry,
        history: History,
        changes: Listeners[ServerChange],
    ) -> None:
        self._bridge = bridge
        self._manager = manager
        self._history = history
        self.cache = HtmlCache(manager, on_update=self._updated)
        self.reloads: Listeners[Reload] = Listeners("App reloads")
        """Told (on the bridge thread) when a drawn App's HTML changed on its server."""
        registry.subscribe(self.cache.server_changed)
        changes.subscribe(self.cache.announced)

    # -- calls from the kernel --------------------------------------------------------------

    async def prepare(self, entry: ToolEntry, observation: Observation) -> Outcome | None:
        """The App of a finished call of ``entry`` (None: no App to draw for it)."""
        if CALL_SOURCE.get() != KERNEL or observation.error_kind not in DRAWN:
            return None
        ui = tool_ui(entry.meta)
        if ui.problem is not None:
            return Refusal(None, ui.problem)
        if ui.resource_uri is None:
            return None
        return await self.cache.get(entry.server, ui.resource_uri)

    @staticmethod
    def attach(
        observation: Observation,
        entry: ToolEntry,
        arguments: dict[str, Any],
        call_id: int,
        prepared: Outcome | None,
    ) -> Observation:
        """The Observation with its App (or the line saying why there is none)."""
        if prepared is None:
            return observation
        if isinstance(prepared, Refusal):
            app: dict[str, Any] = {"uri": prepared.uri, "refused": prepared.line}
        else:
            app = app_document(entry, arguments, observation, call_id, prepared)
        return observation.model_copy(update={"app": app})

    # -- requests of an App (lab/apps_comm.py) ----------------------------------------------

    def html(self, server: str, uri: str) -> concurrent.futures.Future[Outcome]:
        """The App's HTML from the cache (read again when its version moved)."""
        return self._bridge.submit(self.cache.get(server, uri))

    def read(self, server: str, uri: str) -> concurrent.futures.Future[Observation]:
        """An App's ``resources/read`` on its own server, recorded as the App's read."""
        return self._bridge.submit(self._read(server, uri))

    def push_reload(self, server: str, uri: str) -> None:
        """Read the App again (it changed: a re-run ``%%app`` cell) and tell ``reloads``."""
        self.cache.forget(server, uri)
        self._updated(server, uri)

    async def _read(self, server: str, uri: str) -> Observation:
        from workbench.mcp import offerings

        with from_app():
            if server in self._manager:
                observation = await offerings.read_resource(self._manager.get(server), uri)
            else:
                message = f"{server!r} is not connected."
                observation = Observation.error(ErrorKind.NOT_FOUND, message, duration=0.0)
            return self._history.record_read(uri, server, {}, observation)

    def _updated(self, server: str, uri: str) -> None:
        """A drawn App changed on its server (any thread): read it, then tell ``reloads``."""
        before = self.cache.kept(server, uri)

        async def reread() -> None:
            outcome = await self.cache.get(server, uri)
            if isinstance(outcome, AppHtml) and (
                not isinstance(before, AppHtml) or before.sha256 != outcome.sha256
            ):
                self.reloads.notify((server, uri, outcome.sha256))

        with contextlib.suppress(Exception):  # a closing bridge: nobody draws it any more
            self._bridge.submit(reread())


@contextlib.contextmanager
def from_app() -> Iterator[None]:
    """Calls and reads started inside are the App's (history source ``app``): the bridge
    copies the context of whoever submits."""
    token = CALL_SOURCE.set(APP)
    try:
        yield
    finally:
        CALL_SOURCE.reset(token)


def app_document(
    entry: ToolEntry,
    arguments: dict[str, Any],
    observation: Observation,
    call_id: int,
    html: AppHtml,
    *,
    live: bool = True,
) -> dict[str, Any]:
    """The App document of one call (contract C1): no credential, only the call's data."""
    return {
        "version": APP_DOCUMENT_VERSION,
        "server": entry.server,
        "tool": entry.name,
        "uri": html.uri,
        "html": html.html,
        "html_sha256": html.sha256,
        "csp": html.ui.csp,
        "permissions": html.ui.permissions,
        "prefers_border": html.ui.prefers_border,
        "input": arguments,
        "result": result_json(observation),
        "call_id": str(call_id),
        "live": live,
    }


def result_json(observation: Observation) -> dict[str, Any]:
    """An Observation as MCP's CallToolResult JSON (what an App is given)."""
    result: dict[str, Any] = {
        "content": [
            block.model_dump(mode="json", by_alias=True, exclude_none=True)
            for block in observation.content
        ],
        "isError": observation.is_error,
    }
    if observation.structured_content is not None:
        result["structuredContent"] = observation.structured_content
    return result
