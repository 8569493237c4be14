"""A notebook tool that could never finish says so at once, not at its timeout (F17, F18).

The test's main thread plays the kernel: a loop running in it is "the kernel's loop", and a
sync ``bridge.run`` from it blocks that loop as a sync call in a cell does. Each stalled shape
has a twin that only looks alike - a tool waiting on a thread, a sleep, or on its own
producer - which must run to its end.
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
from workbench.bridge.stalls import CELL_OBJECT, KERNEL_WORK
from workbench.errors import KernelLoopBusyError

run_in_new_loop = asyncio.run
NEVER = 30.0
"""A wait no test should reach: hitting it means the stall went unnoticed."""


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    with Bridge(name="test-stalls") as b:
        yield b


def placed(tool: Callable[[], Coroutine[Any, Any, Any]]) -> Coroutine[Any, Any, Any]:
    async def call() -> Any:
        return await run_in_notebook(tool, "notebook.tool")

    return call()


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    started = time.monotonic()
    try:
        return run(), time.monotonic() - started
    except KernelLoopBusyError as error:
        return error, time.monotonic() - started


@pytest.mark.integration
def test_f18_a_displaced_tool_waiting_on_a_fresh_cell_queue_is_stopped(bridge: Bridge) -> None:
    queue: asyncio.Queue[str] = asyncio.Queue()  # made "in a cell", never waited on yet

    async def take() -> str:
        return await queue.get()

    outcome, seconds = timed(lambda: bridge.run(placed(take), timeout=NEVER))
    assert isinstance(outcome, KernelLoopBusyError), outcome
    assert str(outcome) == CELL_OBJECT
    assert seconds < 5, f"stopped after {seconds:.1f} s"
    queue.put_nowait("still usable")  # given back to no loop: a later loop may wait on it
    assert run_in_new_loop(queue.get()) == "still usable"


@pytest.mark.integration
@pytest.mark.parametrize(
    "primitive", ["event", "lock", "condition", "semaphore", "wait_for", "gather"]
)
def test_f18_every_asyncio_object_a_stuck_tool_can_wait_on_is_recognised(
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

    outcome, seconds = timed(lambda: bridge.run(placed(wait), timeout=NEVER))
    assert isinstance(outcome, KernelLoopBusyError), outcome
    assert seconds < 5, f"stopped after {seconds:.1f} s"


@pytest.mark.integration
def test_f17_a_tool_handing_work_to_the_blocked_kernel_loop_is_stopped(bridge: Bridge) -> None:
    async def kernel() -> tuple[Any, float]:
        kernel_loop = asyncio.get_running_loop()

        async def on_kernel() -> str:
            return "ran on the kernel's loop"

        async def hand_over() -> str:
            work = asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop)
            return await asyncio.wrap_future(work)

        # A sync call in a cell: the kernel's loop stays blocked until it returns.
        return timed(lambda: bridge.run(placed(hand_over), timeout=NEVER))

    outcome, seconds = run_in_new_loop(kernel())
    assert isinstance(outcome, KernelLoopBusyError), outcome
    assert str(outcome) == KERNEL_WORK
    assert seconds < 5, f"stopped after {seconds:.1f} s"


def test_f17_the_same_hand_over_awaited_runs(bridge: Bridge) -> None:
    async def kernel() -> Any:
        kernel_loop = asyncio.get_running_loop()

        async def on_kernel() -> str:
            return "ran on the kernel's loop"

        async def hand_over() -> str:
            work = asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop)
            return await asyncio.wrap_future(work)

        return await bridge.arun(placed(hand_over), timeout=NEVER)

    assert run_in_new_loop(kernel()) == ("ran on the kernel's loop", False)


@pytest.mark.integration
@pytest.mark.parametrize("shape", ["thread", "sleep", "own producer", "other thread's future"])
def test_tools_that_only_look_stuck_run_to_their_end(bridge: Bridge, shape: str) -> None:
    """A wait something on the tool's own loop or thread will end is never stopped."""
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
        future: concurrent.futures.Future[str] = concurrent.futures.Future()
        threading.Timer(0.6, future.set_result, args=("set by a timer thread",)).start()
        return await asyncio.wrap_future(future)

    result, displaced = bridge.run(placed(tool), timeout=NEVER)
    assert displaced
    assert result in (
        "slept in a thread",
        "slept",
        "made by the tool",
        "set by a timer thread",
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

        future = bridge.submit(placed(on_kernel))
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
