"""A real OAuth-protected server for every sign-in test (OAuth core, widgets, magics, kernel),
and the headless stand-in for the person's browser.

The server is ``tests/mcp/oauth/guarded_server.py``: FastMCP behind FastMCP's in-memory
OAuth server on 127.0.0.1 (dynamic registration, an /authorize that approves at once). The
browser GETs the authorization URL without following the redirect: the Location is the
address a browser would end on (``code=...&state=...``), which a person pastes, or which
the browser itself visits so the kernel's one-shot listener catches it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.processes import unused_port, wait_until_answering

SERVER = Path(__file__).with_name("guarded_server.py")


@contextmanager
def guarded_server(ttl: int | None = None) -> Iterator[str]:
    """Start the guarded server (access tokens living ``ttl`` seconds, if given); its MCP
    URL. Stopped after."""
    port = unused_port()
    command = [sys.executable, str(SERVER), str(port), *([str(ttl)] if ttl else [])]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        metadata = f"http://127.0.0.1:{port}/.well-known/oauth-authorization-server"
        wait_until_answering(metadata, process, "the guarded server", timeout=30)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def ended_on(authorization_url: str) -> str:
    """Where a browser that signed in ends: the authorization server's redirect."""
    response = httpx.get(authorization_url, follow_redirects=False, timeout=10)
    assert response.status_code in (302, 303, 307), response.status_code
    return str(response.headers["location"])


def come_back(authorization_url: str) -> None:
    """A browser on the kernel's machine: it follows the redirect to the local listener."""
    response = httpx.get(ended_on(authorization_url), timeout=10)
    assert response.status_code == 200, response.status_code
