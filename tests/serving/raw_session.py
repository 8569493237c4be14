"""A handshake-era (2025-06-18) MCP session spoken in raw HTTP with httpx, for tests that
need to do exactly what a client does and nothing more: initialize, send
``notifications/initialized``, open the standalone GET stream, and read what arrives on it.

A ``fastmcp.Client`` sends more than that (it lists tools, pings, ...), which would hide a
server that only learns a session from those extra requests.
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx

VERSION = "2025-06-18"
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages in an SSE body (or the one message of a JSON body)."""
    if text.lstrip().startswith("{"):
        return [json.loads(text)]
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


class RawSession:
    """One handshake-era session; ``stream()`` opens its GET stream in a thread and puts
    each JSON-RPC message it reads into ``heard``."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url = url
        self.headers = dict(ACCEPT)
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.http = httpx.Client(timeout=10)
        self.session_id: str | None = None
        self.heard: queue.Queue[dict[str, Any]] = queue.Queue()
        self.streaming = threading.Event()
        self._reader: threading.Thread | None = None

    def initialize(self) -> None:
        """initialize, then notifications/initialized: nothing else."""
        response = self.http.post(
            self.url,
            headers=self.headers,
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            },
        )
        assert response.status_code == 200, response.text
        self.session_id = response.headers["mcp-session-id"]
        self.headers |= {"mcp-session-id": self.session_id, "mcp-protocol-version": VERSION}
        done = self.http.post(
            self.url,
            headers=self.headers,
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        )
        assert done.status_code == 202, done.text

    def request(self, method: str, params: dict[str, Any] | None = None) -> httpx.Response:
        body = {"jsonrpc": "2.0", "id": 2, "method": method, "params": params or {}}
        return self.http.post(self.url, headers=self.headers, json=body)

    def stream(self) -> None:
        """Open the GET stream; returns once the server answered it with 200."""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        assert self.streaming.wait(10), "the GET stream was not answered"

    def close(self) -> None:
        self.http.close()
        if self._reader is not None:
            self._reader.join(10)

    def _read(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10, read=60)) as http,
                http.stream("GET", self.url, headers=self.headers) as response,
            ):
                assert response.status_code == 200
                self.streaming.set()
                for line in response.iter_lines():
                    if line.startswith("data:"):
                        self.heard.put(json.loads(line[5:]))
        except (httpx.HTTPError, AssertionError):
            pass  # the server ended the stream (stopped), or refused it
