"""An App's HTML, read from its own server once per (server, uri, version).

The HTML is the ``ui://`` resource the tool's listing names, read with ``resources/read``
over the tool's own connection, on the bridge loop (the call path's). It is kept until its
version moves: a server's ``notifications/resources/updated`` for that URI, its
``resources/list_changed``, or a new listing of its tools (a reconnect lists them again)
move it. A resource that is no App (its mimeType is not ``text/html;profile=mcp-app``) or
is larger than ``MAX_HTML_BYTES`` is refused with a one-line reason, kept like HTML; a read
that failed is not kept, so the next call tries again.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.apps.ui_meta import ResourceUi, is_app_mime_type, resource_ui, shown
from workbench.errors import RequestFailedError, UnknownServerError
from workbench.tools.app_definition import APP_MIME_TYPE

if TYPE_CHECKING:
    from workbench.mcp.connection import Connection, ServerChange
    from workbench.mcp.manager import ConnectionManager

MAX_HTML_BYTES = 5_000_000
"""The largest App the kernel reads and a notebook keeps (UTF-8 bytes)."""

Key = tuple[str, str]
"""(server, uri)"""
Version = tuple[int, int]
"""(the server's generation, the URI's own)"""


@dataclass(frozen=True)
class AppHtml:
    """An App's HTML as its server gave it, and what its resource asked of the host."""

    server: str
    uri: str
    html: str
    sha256: str
    ui: ResourceUi = field(default_factory=ResourceUi)


@dataclass(frozen=True)
class Refusal:
    """Why an App is not drawn, as one line (``App <uri> is not drawn: <reason>.``)."""

    uri: str | None
    reason: str

    @property
    def line(self) -> str:
        return (
            f"App {self.uri} is not drawn: {self.reason}."
            if self.uri
            else (f"The App is not drawn: {self.reason}.")
        )


Outcome = AppHtml | Refusal


class HtmlCache:
    """Apps' HTML by (server, uri), each kept for the version it was read at."""

    def __init__(
        self,
        manager: ConnectionManager,
        on_update: Callable[[str, str], object] | None = None,
    ) -> None:
        self._manager = manager
        self._on_update = on_update
        self._lock = threading.Lock()  # versions move on any thread; reads are on the bridge
        self._generations: dict[str, int] = {}
        self._versions: dict[Key, int] = {}
        self._kept: dict[Key, tuple[Version, Outcome]] = {}
        self._subscribed: set[tuple[str, str, int]] = set()
        self._reading: asyncio.Lock | None = None
        self.reads = 0
        """How many times an App's HTML was read from a server (for tests and benchmarks)."""

    # -- versions ---------------------------------------------------------------------------

    def version(self, server: str, uri: str) -> Version:
        with self._lock:
            return self._generations.get(server, 0), self._versions.get((server, uri), 0)

    def server_changed(self, server: str) -> None:
        """Every App of ``server`` is read again (its tools were listed again: a reconnect,
        ``tools/list_changed``, a re-run ``%%tool`` cell)."""
        with self._lock:
            self._generations[server] = self._generations.get(server, 0) + 1

    def forget(self, server: str, uri: str) -> None:
        """Read this App again at its next use."""
        with self._lock:
            self._versions[(server, uri)] = self._versions.get((server, uri), 0) + 1

    def announced(self, change: ServerChange) -> None:
        """A server's notification (any thread): its resources changed, or this one did."""
        if change.what == "resources":
            self.server_changed(change.server)
        elif change.what == "resource" and change.uri is not None:
            self.forget(change.server, change.uri)
            with self._lock:
                shown_before = (change.server, change.uri) in self._kept
            if shown_before and self._on_update is not None:
                self._on_update(change.server, change.uri)

    def kept(self, server: str, uri: str) -> Outcome | None:
        """What was read last for this App, whatever its version."""
        with self._lock:
            found = self._kept.get((server, uri))
        return None if found is None else found[1]

    # -- reading (on the bridge loop) -------------------------------------------------------

    async def get(self, server: str, uri: str) -> Outcome:
        """The App's HTML at its current version, read now if it has not been."""
        if self._reading is None:
            self._reading = asyncio.Lock()
        async with self._reading:  # two calls of one App read it once
            version = self.version(server, uri)
            with self._lock:
                found = self._kept.get((server, uri))
            if found is not None and found[0] == version:
                return found[1]
            outcome, keep = await self._read(server, uri, version)
            if keep:
                with self._lock:
                    self._kept[(server, uri)] = (version, outcome)
            return outcome

    async def _read(self, server: str, uri: str, version: Version) -> tuple[Outcome, bool]:
        """(what the server gave, whether to keep it for this version)."""
        try:
            connection = self._manager.get(server)
        except UnknownServerError:
            return Refusal(uri, f"{server!r} is not connected"), False
        self.reads += 1
        try:
            result = await connection.request(
                f"reading {uri}", lambda client: client.read_resource_mcp(uri)
            )
        except RequestFailedError as error:
            return Refusal(uri, " ".join(str(error).split()).rstrip(".")), False
        await self._subscribe(connection, uri, version[0])
        items = [item.model_dump(mode="json", by_alias=True) for item in result.contents]
        mine = [item for item in items if item.get("uri") == uri] or items
        if not mine:
            return Refusal(uri, "its server returned no contents"), True
        return html_of(server, uri, mine[0]), True

    async def _subscribe(self, connection: Connection, uri: str, generation: int) -> None:
        """Ask for ``notifications/resources/updated`` of the App, where the server offers
        subscriptions (once per connection generation); a refusal only means no reloads."""
        from workbench.mcp import offerings

        key = (connection.name, uri, generation)
        offered = connection.capabilities.get("resources", {})
        if key in self._subscribed or not (isinstance(offered, dict) and offered.get("subscribe")):
            return
        self._subscribed.add(key)
        with contextlib.suppress(RequestFailedError):
            await offerings.subscribe(connection, uri)


def html_of(server: str, uri: str, contents: dict[str, Any]) -> Outcome:
    """An App from one resource contents (MCP JSON), or why it is none."""
    mime_type = contents.get("mimeType")
    if not is_app_mime_type(mime_type):
        return Refusal(uri, f"its mimeType {shown(mime_type)} is not {APP_MIME_TYPE}")
    text = contents.get("text")
    if not isinstance(text, str):
        blob = contents.get("blob")
        if not isinstance(blob, str) or len(blob) > MAX_HTML_BYTES * 4 // 3 + 4:
            return _too_big(uri, None) if isinstance(blob, str) else _no_text(uri)
        try:
            text = base64.b64decode(blob, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return Refusal(uri, "its blob is not base64 of UTF-8 text")
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_HTML_BYTES:
        return _too_big(uri, len(data))
    digest = hashlib.sha256(data).hexdigest()
    return AppHtml(server, uri, text, digest, resource_ui(contents.get("_meta")))


def _too_big(uri: str, size: int | None) -> Refusal:
    what = f"{size:,} bytes" if size is not None else "too large"
    return Refusal(uri, f"its HTML is {what}, over the {MAX_HTML_BYTES:,} bytes an App may be")


def _no_text(uri: str) -> Refusal:
    return Refusal(uri, "its contents hold no text")
