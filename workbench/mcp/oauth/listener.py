"""A one-shot listener on 127.0.0.1 for the browser's redirect after sign-in.

FastMCP's callback server (uvicorn), run for one sign-in and stopped with ``should_exit``
(cancelling it left the port bound, so a second sign-in could not listen again).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

STARTUP_LIMIT = 10.0
STOP_LIMIT = 5.0


class Listener:
    """What the listener caught: the code, state and issuer of the first redirect."""

    def __init__(self, result: Any, ready: anyio.Event) -> None:
        self._result = result
        self._ready = ready

    async def redirect(self) -> tuple[str, str | None, str | None]:
        """(code, state, iss) once the browser came back; raises what it came back with
        (an ``error=`` of the authorization server)."""
        await self._ready.wait()
        if self._result.error is not None:
            raise self._result.error
        return str(self._result.code), self._result.state, self._result.iss


@asynccontextmanager
async def listening(host: str, port: int, server_url: str) -> AsyncIterator[Listener]:
    """Listen on ``host:port`` while the block runs; the port is free again after it."""
    from fastmcp.client.oauth_callback import OAuthCallbackResult, create_oauth_callback_server

    result, ready = OAuthCallbackResult(), anyio.Event()
    server = create_oauth_callback_server(
        port=port, host=host, server_url=server_url, result_container=result, result_ready=ready
    )
    failed: list[BaseException] = []
    stopped = anyio.Event()

    async def serve() -> None:
        # Shielded: a cancelled uvicorn keeps its port; it is always stopped by
        # ``should_exit`` below instead, whatever ends the block.
        try:
            with anyio.CancelScope(shield=True):
                await server.serve()
        except (SystemExit, OSError) as error:  # uvicorn exits when it cannot bind
            failed.append(error)
        finally:
            stopped.set()

    raised: list[Exception] = []  # re-raised outside the task group, not as a group
    async with anyio.create_task_group() as group:
        group.start_soon(serve)
        try:
            with anyio.move_on_after(STARTUP_LIMIT):
                while not server.started and not failed:
                    await anyio.sleep(0.01)
            if server.started:
                yield Listener(result, ready)
        except Exception as error:
            raised.append(error)
        finally:
            server.should_exit = True
            with anyio.CancelScope(shield=True), anyio.move_on_after(STOP_LIMIT):
                await stopped.wait()
    if raised:
        raise raised[0]
    if not server.started:
        raise OSError(
            f"the sign-in listener could not start on http://{host}:{port}; is the port "
            "already in use? Give another callback_port, or sign in with paste"
        )
