"""The served server's provider: which requests ask a worker thread (issue 29, item 6)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

from workbench.serving.app import NotebookProvider
from workbench.serving.surface import Surface
from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import tool
from workbench.tools.schema import Observation


class CountingPool(concurrent.futures.ThreadPoolExecutor):
    """A real worker pool that counts what it is handed (``asyncio.to_thread`` uses it)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.handed = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        self.handed += 1
        return super().submit(fn, *args, **kwargs)


def ping() -> str:
    """Answer."""
    return "pong"


def pong() -> str:
    """Answer too."""
    return "ping"


async def never(*_: Any) -> Observation:
    raise AssertionError("not called here")


def worker_hops(definitions: dict[str, ToolDefinition[Any, Any]], name: str) -> tuple[int, int]:
    """Worker-thread hands of one ``tools/call`` lookup of ``name`` and of one ``tools/list``."""
    provider = NotebookProvider(lambda: definitions, Surface(), never)
    pool = CountingPool()
    loop = asyncio.new_event_loop()
    loop.set_default_executor(pool)
    try:
        assert loop.run_until_complete(provider._get_tool(name)) is not None
        looked_up = pool.handed
        assert len(loop.run_until_complete(provider._list_tools())) == len(definitions)
        return looked_up, pool.handed - looked_up
    finally:
        loop.close()
        pool.shutdown()


def test_without_an_enabled_predicate_calls_and_lists_stay_on_the_loop() -> None:
    """Filters alone are set lookups: no thread hop on a served call's path."""
    plain = {"ping": tool(ping), "pong": tool(pong)}
    assert worker_hops(plain, "ping") == (0, 0)  # type: ignore[arg-type]


def test_an_enabled_predicate_is_still_asked_in_a_worker_thread() -> None:
    """enabled() is notebook code: it never runs on the bridge loop."""
    mixed = {"ping": tool(enabled=lambda: True)(ping), "pong": tool(pong)}
    assert worker_hops(mixed, "ping") == (1, 1)  # type: ignore[arg-type]
    assert worker_hops(mixed, "pong") == (0, 1)  # type: ignore[arg-type]
