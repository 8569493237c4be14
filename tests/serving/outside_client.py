"""An outside MCP client for served-notebook tests: a plain ``fastmcp.Client`` in its own process.

Run as ``python outside_client.py URL TOKEN MODE`` (TOKEN ``-`` for none; MODE ``legacy`` for
a handshake-era session, ``auto`` for 2026-07-28, which listens with ``subscriptions/listen``).
It prints ``{"ready": true}`` once connected, then answers one JSON line per command line read
from stdin:

- ``list``: every tool name (``list_tools`` follows cursors);
- ``describe``: every tool as listed (name, description, schemas, annotations), by name;
- ``pages``: the size of each page and whether a cursor came with it, walking ``nextCursor``;
- ``cursor TEXT``: ``tools/list`` with that cursor; the error code it got, if any;
- ``cursor_of_first_page``: the ``nextCursor`` of the first ``tools/list`` page;
- ``call NAME JSON``: the result's error flag, text and structured content;
- ``wait_changed SECONDS``: whether a ``tools/list_changed`` arrived since the last one seen;
- ``quit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Any

from fastmcp import Client
from fastmcp.client.messages import MessageHandler
from mcp.client.subscriptions import listen
from mcp.shared.exceptions import MCPError


class Changes(MessageHandler):
    def __init__(self) -> None:
        self.event = asyncio.Event()

    async def on_tool_list_changed(self, message: Any) -> None:
        self.event.set()


def say(value: dict[str, Any]) -> None:
    print(json.dumps(value), flush=True)


async def answer(client: Client[Any], changes: Changes, line: str) -> dict[str, Any]:
    command, _, rest = line.strip().partition(" ")
    if command == "list":
        return {"names": [tool.name for tool in await client.list_tools()]}
    if command == "describe":
        listed = await client.list_tools()
        return {tool.name: tool.model_dump(mode="json", by_alias=True) for tool in listed}
    if command == "pages":
        sizes, names, cursor = [], [], None
        while True:
            page = await client.list_tools_mcp(cursor=cursor)
            sizes.append(len(page.tools))
            names += [tool.name for tool in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                return {"sizes": sizes, "names": names}
    if command == "cursor_of_first_page":
        return {"cursor": (await client.list_tools_mcp()).next_cursor}
    if command == "cursor":
        try:
            page = await client.list_tools_mcp(cursor=rest)
        except MCPError as error:
            return {"code": error.code, "message": str(error)}
        return {"tools": len(page.tools)}
    if command == "call":
        name, _, arguments = rest.partition(" ")
        result = await client.call_tool(name, json.loads(arguments or "{}"), raise_on_error=False)
        text = " ".join(getattr(block, "text", "") for block in result.content)
        return {"is_error": result.is_error, "text": text, "structured": result.structured_content}
    if command == "wait_changed":
        try:
            await asyncio.wait_for(changes.event.wait(), float(rest or 10))
        except asyncio.TimeoutError:
            return {"changed": False}
        changes.event.clear()
        return {"changed": True}
    raise ValueError(f"unknown command {line!r}")


async def follow(client: Client[Any], changes: Changes, ready: asyncio.Event) -> None:
    """2026-07-28 clients hear of changes on a ``subscriptions/listen`` stream."""
    async with listen(client.session, tools_list_changed=True) as subscription:
        ready.set()
        async for _ in subscription:
            changes.event.set()


async def main(url: str, token: str, mode: str) -> None:
    changes = Changes()
    auth = None if token == "-" else token
    async with Client(url, auth=auth, mode=mode, message_handler=changes) as client:  # type: ignore[arg-type]
        ready = asyncio.Event()
        follower = None
        if mode != "legacy":
            follower = asyncio.create_task(follow(client, changes, ready))
            await asyncio.wait_for(ready.wait(), 10)
        say({"ready": True})
        while True:
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line or line.strip() == "quit":
                break
            say(await answer(client, changes, line))
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await follower


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
