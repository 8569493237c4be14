"""A displaced notebook tool waiting on what only the blocked kernel's loop could provide ends
at its call's timeout, and gives back what it bound (F17, F18).

The test's main thread plays the kernel: a loop running in it is "the kernel's loop", and a
sync ``bridge.run`` from it blocks that loop as a sync call in a cell does. Nothing guesses
that a tool is stuck: each stuck shape ends at a short timeout, cancelled on its worker loop,
and tools that only look stuck - waiting on a thread, a sleep or their own producer - run to
their end, however long they wait.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

from workbench.bridge import Bridge, run_in_notebook
from workbench.errors import KernelLoopBusyError

run_in_new_loop = asyncio.run
SHORT = 1.0
"""The call's timeout in the stuck cases: they end there."""
NEVER = 30.0
"""A wait no test should reach."""


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    with Bridge(name="test-notebook") as b:
        yield b


class Placed:
    """A tool handed to ``run_in_notebook``, noting whether it was displaced and cancelled."""

    def __init__(self, tool: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        self.tool = tool
        self.displaced = 0
        self.ended: list[concurrent.futures.Future[None]] = []
        self.cancelled = threading.Event()

    async def run(self) -> Any:
        try:
            return await self.tool()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise

    def call(self) -> Coroutine[Any, Any, Any]:
        def noted(ended: concurrent.futures.Future[None]) -> None:
            self.displaced += 1
            self.ended.append(ended)

        return run_in_notebook(self.run, "notebook.tool", noted)


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    started = time.monotonic()
    try:
        return run(), time.monotonic() - started
    except (TimeoutError, KernelLoopBusyError) as error:
        return error, time.monotonic() - started


def assert_ended_at_the_timeout(placed: Placed, outcome: Any, seconds: float) -> None:
    assert isinstance(outcome, TimeoutError), outcome
    assert SHORT <= seconds < SHORT + 5, f"ended after {seconds:.1f} s"
    assert placed.displaced == 1
    assert placed.cancelled.wait(5)  # stopped on its worker loop, not left running
    placed.ended[0].result(5)  # and the worker ended, having given back what it bound


@pytest.mark.integration
def test_f18_a_displaced_tool_waiting_on_a_fresh_cell_queue_ends_at_its_timeout(
    bridge: Bridge,
) -> None:
    queue: asyncio.Queue[str] = asyncio.Queue()  # made "in a cell", never waited on yet

    async def take() -> str:
        return await queue.get()

    placed = Placed(take)
    outcome, seconds = timed(lambda: bridge.run(placed.call(), timeout=SHORT))
    assert_ended_at_the_timeout(placed, outcome, seconds)
    queue.put_nowait("still usable")  # given back to no loop: a later loop may wait on it
    assert run_in_new_loop(queue.get()) == "still usable"


@pytest.mark.integration
@pytest.mark.parametrize(
    "primitive", ["event", "lock", "condition", "semaphore", "wait_for", "gather"]
)
def test_f18_a_tool_waiting_on_any_cell_object_ends_at_its_timeout(
    bridge: Bridge, primitive: str
) -> None:
    event, lock, condition = asyncio.Event(), asyncio.Lock(), asyncio.Condition()
    semaphore = asyncio.Semaphore(0)

    async def wait() -> Any:
        if primitive == "event":
            return await event.wait()
        if primitive == "lock":
            async with lock:  # the tool takes the lock, then waits on it again
                return await lock.acquire()
        if primitive == "condition":
            async with condition:
                return await condition.wait()
        if primitive == "semaphore":
            return await semaphore.acquire()
        if primitive == "wait_for":
            return await asyncio.wait_for(event.wait(), NEVER)
        return await asyncio.gather(event.wait(), semaphore.acquire())

    placed = Placed(wait)
    outcome, seconds = timed(lambda: bridge.run(placed.call(), timeout=SHORT))
    assert_ended_at_the_timeout(placed, outcome, seconds)

    async def later() -> bool:  # every object is free for the caller's loop again
        asyncio.get_running_loop().call_soon(event.set)
        await asyncio.wait_for(event.wait(), 2)
        semaphore.release()
        await asyncio.wait_for(semaphore.acquire(), 2)
        async with condition:
            condition.notify_all()
        return lock.locked()

    assert run_in_new_loop(later()) is False  # the cancelled tool released its lock


@pytest.mark.integration
def test_f17_a_tool_handing_work_to_the_blocked_kernel_loop_ends_at_its_timeout(
    bridge: Bridge,
) -> None:
    async def kernel() -> tuple[Placed, Any, float]:
        kernel_loop = asyncio.get_running_loop()

        async def on_kernel() -> str:
            return "ran on the kernel's loop"

        async def hand_over() -> str:
            work = asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop)
            return await asyncio.wrap_future(work)

        placed = Placed(hand_over)
        # A sync call in a cell: the kernel's loop stays blocked until it returns.
        outcome, seconds = timed(lambda: bridge.run(placed.call(), timeout=SHORT))
        return placed, outcome, seconds

    assert_ended_at_the_timeout(*run_in_new_loop(kernel()))


def test_f17_the_same_hand_over_awaited_runs_and_is_not_displaced(bridge: Bridge) -> None:
    async def kernel() -> tuple[Any, int]:
        kernel_loop = asyncio.get_running_loop()

        async def on_kernel() -> str:
            return "ran on the kernel's loop"

        async def hand_over() -> str:
            work = asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop)
            return await asyncio.wrap_future(work)

        placed = Placed(hand_over)
        return await bridge.arun(placed.call(), timeout=NEVER), placed.displaced

    assert run_in_new_loop(kernel()) == (("ran on the kernel's loop", False), 0)


@pytest.mark.integration
@pytest.mark.parametrize(
    "shape",
    ["thread", "sleep", "own producer", "other thread's future", "own Event a thread sets"],
)
def test_tools_that_only_look_stuck_run_to_their_end(bridge: Bridge, shape: str) -> None:
    """A wait something on the tool's own loop or thread will end is never stopped. The last
    shape - the usual bridge from a callback API - was once stopped as stuck by a check that
    read asyncio's internals (after 0.3 s idle), although the thread would have set it."""
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def produce() -> None:
        await asyncio.sleep(0.6)
        queue.put_nowait("made by the tool")

    async def tool() -> str:
        if shape == "thread":
            await asyncio.to_thread(time.sleep, 0.6)
            return "slept in a thread"
        if shape == "sleep":
            await asyncio.sleep(0.6)
            return "slept"
        if shape == "own producer":
            done, _ = await asyncio.gather(queue.get(), produce())
            return done
        if shape == "own Event a thread sets":
            event, loop = asyncio.Event(), asyncio.get_running_loop()
            threading.Timer(0.6, loop.call_soon_threadsafe, args=(event.set,)).start()
            await event.wait()
            return "set by a thread"
        future: concurrent.futures.Future[str] = concurrent.futures.Future()
        threading.Timer(0.6, future.set_result, args=("set by a timer thread",)).start()
        return await asyncio.wrap_future(future)

    placed = Placed(tool)
    result, displaced = bridge.run(placed.call(), timeout=NEVER)
    assert displaced and placed.displaced == 1
    assert result in (
        "slept in a thread",
        "slept",
        "made by the tool",
        "set by a timer thread",
        "set by a thread",
    )


@pytest.mark.integration
def test_f18_blocking_on_a_tool_running_on_the_kernels_loop_says_to_await(
    bridge: Bridge,
) -> None:
    async def kernel() -> tuple[Any, float, str]:
        release = asyncio.Event()

        async def on_kernel() -> str:
            await release.wait()
            return "released"

        future = bridge.submit(Placed(on_kernel).call())
        await asyncio.sleep(0.5)  # the kernel's loop is free: it takes the tool
        outcome, seconds = timed(lambda: future.result(NEVER))
        release.set()  # the call went on: awaited, it finishes
        result, displaced = await asyncio.wrap_future(future)
        return outcome, seconds, f"{result} {displaced}"

    outcome, seconds, finished = run_in_new_loop(kernel())
    assert isinstance(outcome, KernelLoopBusyError), outcome
    assert "notebook.tool runs on the kernel's event loop" in str(outcome)
    assert "await asyncio.wrap_future(future)" in str(outcome)
    assert seconds < 5, f"raised after {seconds:.1f} s"
    assert finished == "released False"
