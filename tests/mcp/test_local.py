"""Where notebook tools run, seen from plain Python (the kernel-level tests are in
``tests/kernel/test_notebook_tools_kernel.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from workbench import Workbench, tool
from workbench.tools.schema import ErrorKind


def test_f17_notebook_tools_never_run_on_the_bridge_thread(wb: Workbench) -> None:
    @tool
    async def async_thread() -> str:
        """The thread an async tool runs in."""
        return threading.current_thread().name

    @tool
    def sync_thread() -> str:
        """The thread a sync tool runs in."""
        return threading.current_thread().name

    wb.add_tools(async_thread, sync_thread)
    names = {wb.call(f"notebook.{name}").text for name in ("async_thread", "sync_thread")}
    assert "workbench-bridge" not in names
    assert "MainThread" not in names  # the main thread is blocked in the sync call

    async def awaited() -> str:
        return (await wb.acall("notebook.async_thread")).text

    assert asyncio.run(awaited()) == "MainThread"  # the caller's loop is free: it runs it


def test_f18_a_sync_call_of_a_tool_needing_the_callers_loop_says_to_await(
    wb: Workbench,
) -> None:
    async def bind_to_this_loop() -> asyncio.Queue[str]:
        made: asyncio.Queue[str] = asyncio.Queue()
        with contextlib.suppress(asyncio.TimeoutError):  # a consumer waited: bound here
            await asyncio.wait_for(made.get(), 0.01)
        return made

    async def main() -> None:
        queue = await bind_to_this_loop()

        @tool
        async def take() -> str:
            """The next item of the caller's queue."""
            return await asyncio.wait_for(queue.get(), 5)

        wb.add_tools(take)
        blocked = wb.call("notebook.take", timeout=10)  # blocks this loop: a worker runs it
        assert blocked.error_kind is ErrorKind.TOOL_ERROR
        assert blocked.error_message is not None
        assert "await wb.acall" in blocked.error_message
        assert "bound to a different event loop" in blocked.error_message
        asyncio.get_running_loop().call_later(0.05, queue.put_nowait, "hello")
        assert (await wb.acall("notebook.take")).text == "hello"

    asyncio.run(main())
