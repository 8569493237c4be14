"""transports.py: what the HTTP client's hook keeps of a refused request (no server: a mock
transport answers)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
import pytest

from workbench.mcp.transports import http_client_factory


def refusals(response: httpx2.Response) -> list[Any]:
    """What the hooks saw when a POST was answered ``response``; the body stays readable."""
    seen: list[Any] = []

    async def post() -> bytes:
        make = http_client_factory(seen.append, lambda status, said: seen.append((status, said)))
        async with make(transport=httpx2.MockTransport(lambda request: response)) as client:
            answer = await client.post("http://127.0.0.1:1/mcp", json={})
            return bytes(await answer.aread())

    body = asyncio.run(post())
    assert body == response.content  # the SDK still reads the same body after the hook
    return seen


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            {
                "jsonrpc": "2.0",
                "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"},
            },
            "Bad Request: No valid session ID provided",
        ),
        ({"message": "No valid session ID"}, "No valid session ID"),
        ({"detail": "nope"}, '{"detail":"nope"}'),
    ],
)
def test_f12_a_refusal_keeps_the_servers_own_words(body: dict[str, Any], said: str) -> None:
    assert refusals(httpx2.Response(400, json=body)) == [400, (400, said)]


def test_f12_a_refusal_without_words_says_nothing() -> None:
    assert refusals(httpx2.Response(404, content=b"\x89PNG")) == [404, (404, "")]
    assert refusals(httpx2.Response(200, json={"ok": True})) == []
