"""Fixtures for serving tests: a Workbench serving notebook tools, and outside clients.

An outside client is a real ``fastmcp.Client`` in another process (``outside_client.py``),
driven one JSON line at a time, so nothing in this process stands in for the network.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastmcp import Client

from tests.processes import JsonLines

SCRIPT = Path(__file__).with_name("outside_client.py")
T = TypeVar("T")


class Outside(JsonLines):
    """One outside client process; ``ask(line)`` sends a command and returns its answer."""

    def __init__(self, url: str, token: str | None, mode: str = "legacy") -> None:
        super().__init__(
            [sys.executable, str(SCRIPT), url, token or "-", mode], stderr=subprocess.PIPE
        )
        assert self.read(60) == {"ready": True}

    def close(self) -> None:
        self.quit()

    def silence(self) -> str:
        self.process.kill()
        _, err = self.process.communicate(timeout=10)
        return f"the outside client gave no answer:\n{err[-3000:]}"


@pytest.fixture
def outside() -> Iterator[type[Outside]]:
    """Start outside clients with ``outside(url, token, mode)``; all are stopped after."""
    started: list[Outside] = []

    class Tracked(Outside):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    yield Tracked
    for client in started:
        client.close()


def with_client(
    url: str, token: str | None, work: Callable[[Client[Any]], Awaitable[T]], mode: str = "auto"
) -> T:
    """Run ``work(client)`` with a real ``fastmcp.Client`` over HTTP, on a loop of the test's
    own (the server runs on the Workbench's bridge loop, in another thread)."""

    async def main() -> T:
        async with Client(url, auth=token, mode=mode) as client:  # type: ignore[arg-type]
            return await work(client)

    return asyncio.run(main())
