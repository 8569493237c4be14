"""Unit tests for the event-loop bridge (no kernel; nest_asyncio patches run in subprocesses)."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import os
import selectors
import signal
import textwrap
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest

from tests.processes import run_python
from workbench.bridge import Bridge, bound_to_another_loop, run_in_notebook
from workbench.bridge.loops import loop_patched_by_nest_asyncio
from workbench.errors import BridgeError, WorkbenchError

# The tests play the caller: they need a loop of their own in the calling thread.
run_in_new_loop = asyncio.run

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("REQUEST_ID", default="unset")


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    with Bridge(name="test-bridge") as b:
        yield b


@pytest.fixture(autouse=True)
def python_sigint_handler() -> Iterator[None]:
    """Python's own SIGINT handler, as in a kernel or a terminal, even when the run was
    started in the background (a shell starts background jobs with SIGINT ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


async def add(a: int, b: int) -> int:
    await asyncio.sleep(0.001)
    return a + b


class Slow:
    """A long coroutine that records, thread-safely, whether it was cancelled."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.cancelled = threading.Event()

    async def __call__(self, seconds: float = 30.0) -> str:
        self.started.set()
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return "finished"


def interrupt_main_thread_after(seconds: float) -> threading.Timer:
    """Send SIGINT to this process (any thread may receive it, as in a kernel)."""
    timer = threading.Timer(seconds, os.kill, args=(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


# -- starting, running, closing ------------------------------------------------------------


def test_starts_lazily_and_runs_from_plain_code(bridge: Bridge) -> None:
    assert not any(t.name == "test-bridge" for t in threading.enumerate())
    assert repr(bridge) == "<Bridge 'test-bridge' idle>"

    async def where() -> tuple[str, bool]:
        return threading.current_thread().name, bridge.in_bridge_thread()

    assert bridge.run(add(1, 2)) == 3
    assert bridge.run(where()) == ("test-bridge", True)
    assert not bridge.in_bridge_thread()
    assert bridge.loop.is_running()
    assert repr(bridge) == "<Bridge 'test-bridge' running>"


def test_run_inside_a_running_loop_does_not_touch_it(bridge: Bridge) -> None:
    """A sync call inside an async cell: the caller's loop is running in this thread."""

    async def cell() -> tuple[int, bool]:
        caller = asyncio.get_running_loop()

        async def on_bridge() -> bool:
            return asyncio.get_running_loop() is caller

        # run_until_complete on this running, unpatched loop would raise RuntimeError.
        return bridge.run(add(2, 3)), bridge.run(on_bridge())

    assert run_in_new_loop(cell()) == (5, False)


def test_run_from_many_threads(bridge: Bridge) -> None:
    results: list[int] = []

    def worker(i: int) -> None:
        results.append(bridge.run(add(i, i)))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(results) == [2 * i for i in range(10)]


def test_exceptions_propagate_unchanged(bridge: Bridge) -> None:
    error = ValueError("boom")

    async def fail() -> None:
        raise error

    with pytest.raises(ValueError, match="boom") as info:
        bridge.run(fail())
    assert info.value is error


@pytest.mark.parametrize("exc_type", [KeyboardInterrupt, SystemExit])
def test_base_exceptions_in_the_coroutine_do_not_kill_the_loop(
    bridge: Bridge, exc_type: type[BaseException]
) -> None:
    async def fail() -> None:
        raise exc_type

    with pytest.raises(exc_type):
        bridge.run(fail())
    assert bridge.run(add(1, 1)) == 2


def test_rejects_non_coroutines(bridge: Bridge) -> None:
    with pytest.raises(TypeError, match="coroutine"):
        bridge.run(add)  # type: ignore[arg-type]


def test_close_leaves_no_thread_and_is_final() -> None:
    before = threading.active_count()
    bridge = Bridge(name="closing-bridge")
    assert threading.active_count() == before  # lazy: nothing yet
    assert bridge.run(add(1, 1)) == 2
    assert threading.active_count() == before + 1

    bridge.close()
    bridge.close()  # idempotent
    assert bridge.closed
    assert threading.active_count() == before
    assert not any(t.name == "closing-bridge" for t in threading.enumerate())

    late = add(1, 1)
    with pytest.raises(BridgeError, match="closed"):
        bridge.run(late)
    assert inspect.getcoroutinestate(late) == inspect.CORO_CLOSED  # no "never awaited"
    with pytest.raises(BridgeError):
        run_in_new_loop(bridge.arun(add(1, 1)))
    with pytest.raises(BridgeError):
        bridge.submit(add(1, 1))
    with pytest.raises(BridgeError):
        _ = bridge.loop
    assert issubclass(BridgeError, WorkbenchError)


def test_close_of_a_never_started_bridge() -> None:
    before = threading.active_count()
    bridge = Bridge()
    bridge.close()
    assert bridge.closed
    assert threading.active_count() == before


def test_close_shuts_down_the_default_executor() -> None:
    """Executor threads (e.g. getaddrinfo for HTTP servers) must not outlive the bridge."""
    before = threading.active_count()
    bridge = Bridge()

    async def in_executor() -> int:
        return await asyncio.get_running_loop().run_in_executor(None, sum, [1, 2])

    assert bridge.run(in_executor()) == 3
    assert threading.active_count() > before + 1
    bridge.close()
    assert threading.active_count() == before


def test_close_cancels_pending_tasks_and_releases_waiters() -> None:
    bridge = Bridge()
    slow, waited = Slow(), Slow()
    future = bridge.submit(slow())
    outcome: list[BaseException] = []

    def waiter() -> None:
        try:
            bridge.run(waited())
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=waiter)
    thread.start()
    assert slow.started.wait(5)
    assert waited.started.wait(5)
    bridge.close()
    thread.join(5)
    assert slow.cancelled.is_set()
    assert waited.cancelled.is_set()
    assert future.cancelled()
    assert len(outcome) == 1
    assert isinstance(outcome[0], BridgeError)
    assert "closed" in str(outcome[0])


EXIT_SCRIPT = textwrap.dedent(
    """
    import asyncio, atexit
    from workbench.bridge import Bridge

    bridge = Bridge()

    async def forever():
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            print("bridge hook cancelled the pending task", flush=True)
            raise

    async def add(a, b):
        return a + b

    # An owner registers exit-time cleanup that still needs the bridge (e.g. closing clients).
    atexit.register(lambda: print("owner cleanup ran:", bridge.run(add(1, 2)), flush=True))
    pending = bridge.submit(forever())
    print("exiting", flush=True)
    """
)


def test_at_exit_owners_cleanup_runs_before_the_bridge_closes() -> None:
    proc = run_python(EXIT_SCRIPT, timeout=60)
    assert proc.stdout.splitlines() == [
        "exiting",
        "owner cleanup ran: 3",
        "bridge hook cancelled the pending task",
    ]
    assert proc.stderr == ""


def test_context_manager_closes() -> None:
    with Bridge() as bridge:
        assert bridge.run(add(2, 2)) == 4
    assert bridge.closed


# -- awaiting from another loop ---------------------------------------------------------------


@pytest.mark.integration
def test_arun_does_not_block_the_callers_loop(bridge: Bridge) -> None:
    async def cell() -> tuple[str, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        task = asyncio.create_task(ticker())
        result = await bridge.arun(asyncio.sleep(0.5, result="slept"))
        task.cancel()
        return result, ticks

    result, ticks = run_in_new_loop(cell())
    assert result == "slept"
    assert ticks >= 10  # ~25 if the loop was free


@pytest.mark.integration
def test_arun_wakes_the_callers_loop_in_short_slices(bridge: Bridge) -> None:
    """The caller's selector never blocks longer than ~0.1 s while arun waits."""

    class CountingSelector(selectors.DefaultSelector):
        timeouts: list[float | None] = []  # noqa: RUF012

        def select(self, timeout: float | None = None) -> Any:
            self.timeouts.append(timeout)
            return super().select(timeout)

    selector = CountingSelector()
    loop = asyncio.SelectorEventLoop(selector)
    try:
        result = loop.run_until_complete(bridge.arun(asyncio.sleep(0.6, result=1)))
    finally:
        loop.close()
    assert result == 1
    waits = [t for t in selector.timeouts if t != 0]
    assert None not in waits, "arun blocked the caller's selector indefinitely"
    assert max(w for w in waits if w is not None) <= 0.15
    assert len(waits) >= 4


def test_arun_returns_promptly_when_done(bridge: Bridge) -> None:
    async def cell() -> float:
        await bridge.arun(add(0, 0))  # warm up
        start = time.perf_counter()
        for _ in range(50):
            await bridge.arun(add(1, 1))
        return (time.perf_counter() - start) / 50

    assert run_in_new_loop(cell()) < 0.05  # far below the 0.1 s wait slice


def test_arun_gathers_concurrent_calls(bridge: Bridge) -> None:
    async def cell() -> tuple[list[int], float]:
        start = time.monotonic()

        async def sleepy(i: int) -> int:
            await asyncio.sleep(0.3)
            return i

        results = await asyncio.gather(*(bridge.arun(sleepy(i)) for i in range(20)))
        return results, time.monotonic() - start

    results, elapsed = run_in_new_loop(cell())
    assert results == list(range(20))
    assert elapsed < 2.0  # concurrent, not 20 x 0.3 s


def test_cancelling_the_awaiting_task_cancels_the_bridge_task(bridge: Bridge) -> None:
    slow = Slow()

    async def cell() -> None:
        task = asyncio.create_task(bridge.arun(slow()))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run_in_new_loop(cell())
    assert slow.cancelled.wait(2)
    assert bridge.run(add(1, 2)) == 3


def test_arun_from_the_bridge_loop_itself(bridge: Bridge) -> None:
    async def outer() -> int:
        return await bridge.arun(add(20, 22))

    assert bridge.run(outer()) == 42


# -- timeouts, interrupts, cancellation -------------------------------------------------------


def test_run_timeout_cancels_and_raises_builtin_timeout_error(bridge: Bridge) -> None:
    slow = Slow()
    start = time.monotonic()
    with pytest.raises(TimeoutError, match=r"0\.2 s") as info:
        bridge.run(slow(), timeout=0.2)
    assert type(info.value) is TimeoutError
    assert time.monotonic() - start < 1.5
    assert slow.cancelled.is_set()  # run() waited for the cancellation to land
    assert bridge.run(add(1, 1)) == 2


def test_arun_timeout_cancels_and_raises_builtin_timeout_error(bridge: Bridge) -> None:
    slow = Slow()
    with pytest.raises(TimeoutError) as info:
        run_in_new_loop(bridge.arun(slow(), timeout=0.2))
    assert type(info.value) is TimeoutError
    assert slow.cancelled.is_set()


def test_fast_calls_ignore_a_generous_timeout(bridge: Bridge) -> None:
    assert bridge.run(add(1, 2), timeout=5) == 3
    assert run_in_new_loop(bridge.arun(add(1, 2), timeout=5)) == 3


def test_keyboard_interrupt_while_waiting_cancels_the_bridge_task(bridge: Bridge) -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    slow = Slow()
    timer = interrupt_main_thread_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        bridge.run(slow(), timeout=5)
    timer.join()
    assert time.monotonic() - start < 1.0
    assert slow.cancelled.wait(2)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
    assert bridge.run(add(1, 2)) == 3


def test_sigint_cancels_even_when_the_previous_handler_does_not_raise(bridge: Bridge) -> None:
    """ipykernel's async-cell handler only queues a callback on the (blocked) kernel loop."""
    calls: list[int] = []

    def queue_only(signum: int, frame: FrameType | None) -> None:
        calls.append(signum)

    original = signal.signal(signal.SIGINT, queue_only)
    try:
        slow = Slow()
        timer = interrupt_main_thread_after(0.3)
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            bridge.run(slow(), timeout=5)
        timer.join()
        assert time.monotonic() - start < 1.0
        assert slow.cancelled.is_set()
        assert calls == [signal.SIGINT]  # the previous handler still ran
        assert signal.getsignal(signal.SIGINT) is queue_only  # and is back in place
    finally:
        signal.signal(signal.SIGINT, original)


def test_sigint_handler_is_chained_only_in_the_main_thread(bridge: Bridge) -> None:
    async def handler_now() -> Any:
        return signal.getsignal(signal.SIGINT)

    assert bridge.run(handler_now()) is not signal.default_int_handler  # chained while waiting
    seen: list[Any] = []
    thread = threading.Thread(target=lambda: seen.append(bridge.run(handler_now())))
    thread.start()
    thread.join(5)
    assert seen == [signal.default_int_handler]


def test_sigint_ignored_stays_ignored(bridge: Bridge) -> None:
    async def handler_now() -> Any:
        return signal.getsignal(signal.SIGINT)

    original = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert bridge.run(handler_now()) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, original)


def test_blocking_from_the_bridge_thread_raises(bridge: Bridge) -> None:
    inner = add(1, 1)

    async def nested() -> int:
        return bridge.run(inner)

    with pytest.raises(BridgeError, match="deadlock") as info:
        bridge.run(nested(), timeout=5)
    assert "\n" not in str(info.value)
    assert inspect.getcoroutinestate(inner) == inspect.CORO_CLOSED
    assert bridge.run(add(1, 1)) == 2


def test_bridge_loop_is_not_reentrant(bridge: Bridge) -> None:
    async def nested() -> None:
        inner = asyncio.sleep(0)
        try:
            asyncio.get_running_loop().run_until_complete(inner)
        finally:
            inner.close()

    with pytest.raises(RuntimeError, match="already running"):
        bridge.run(nested())


# -- submit, contextvars ----------------------------------------------------------


def test_submit_returns_a_future_and_cancelling_it_cancels_the_task(bridge: Bridge) -> None:
    assert bridge.submit(add(2, 2)).result(timeout=5) == 4
    slow = Slow()
    future = bridge.submit(slow())
    assert slow.started.wait(5)
    assert future.cancel()
    assert slow.cancelled.wait(2)


def test_f15_interrupting_submit_result_cancels_the_task(bridge: Bridge) -> None:
    slow = Slow()
    future = bridge.submit(slow())
    assert slow.started.wait(5)
    timer = interrupt_main_thread_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        future.result()
    timer.join()
    assert slow.cancelled.wait(2)
    assert future.cancelled()


def test_f15_submit_result_cancels_on_sigint_when_the_handler_does_not_raise(
    bridge: Bridge,
) -> None:
    """``submit().result()`` inside an async cell: ipykernel's handler only queues a callback."""
    original = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        slow = Slow()
        future = bridge.submit(slow())
        timer = interrupt_main_thread_after(0.3)
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            future.result(timeout=5)
        timer.join()
        assert time.monotonic() - start < 1.0
        assert slow.cancelled.wait(2)
    finally:
        signal.signal(signal.SIGINT, original)


@pytest.mark.integration
def test_f15_a_timed_out_result_leaves_the_call_running(bridge: Bridge) -> None:
    slow = Slow()
    future = bridge.submit(slow(0.5))
    with pytest.raises(TimeoutError):
        future.result(timeout=0.05)
    assert future.result(timeout=5) == "finished"


@pytest.mark.integration
def test_f15_wrap_future_keeps_the_awaiting_loop_waking_and_cancels_the_task(
    bridge: Bridge,
) -> None:
    """An interrupt in an async cell lands only when the kernel's loop wakes up."""

    class CountingSelector(selectors.DefaultSelector):
        timeouts: list[float | None] = []  # noqa: RUF012

        def select(self, timeout: float | None = None) -> Any:
            self.timeouts.append(timeout)
            return super().select(timeout)

    slow = Slow()

    async def await_then_cancel() -> None:
        task = asyncio.ensure_future(asyncio.wrap_future(bridge.submit(slow())))
        await asyncio.sleep(0)
        assert await asyncio.to_thread(slow.started.wait, 5)
        selector.timeouts.clear()
        await asyncio.wait((task,), timeout=0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    selector = CountingSelector()
    loop = asyncio.SelectorEventLoop(selector)
    try:
        loop.run_until_complete(await_then_cancel())
    finally:
        loop.close()
    assert slow.cancelled.wait(2)
    waits = [t for t in selector.timeouts if t]
    assert waits and max(w for w in waits if w is not None) <= 0.15, selector.timeouts


async def thread_name() -> str:
    return threading.current_thread().name


def test_f17_notebook_coroutines_run_on_the_callers_free_loop_else_on_a_worker(
    bridge: Bridge,
) -> None:
    async def placed() -> tuple[str, bool]:
        return await run_in_notebook(thread_name)

    # A sync wait blocks the main thread: a worker loop runs the tool.
    assert bridge.run(placed()) == ("workbench-notebook-tool", True)

    async def awaited() -> tuple[str, bool]:
        return await bridge.arun(placed())

    # Awaited, the caller's loop (the kernel's, in a notebook) is free: it runs the tool.
    assert run_in_new_loop(awaited()) == ("MainThread", False)


@pytest.mark.integration
def test_f17_a_blocking_notebook_coroutine_leaves_the_bridge_free(bridge: Bridge) -> None:
    async def block() -> str:
        time.sleep(1.0)
        return "done"

    future = bridge.submit(run_in_notebook(block))
    start = time.monotonic()
    assert bridge.run(add(1, 2)) == 3
    assert time.monotonic() - start < 0.5
    assert future.result(5) == ("done", True)


def test_f18_objects_a_displaced_coroutine_bound_are_given_back(bridge: Bridge) -> None:
    queue: asyncio.Queue[str] = asyncio.Queue()  # made here, never waited on yet

    async def take() -> str:
        return await asyncio.wait_for(queue.get(), 0.05)

    async def placed() -> tuple[str, bool]:
        return await run_in_notebook(take)

    with pytest.raises(asyncio.TimeoutError):
        bridge.run(placed())  # the worker loop waited on the queue first

    async def later() -> str:
        asyncio.get_running_loop().call_later(0.01, queue.put_nowait, "x")
        return await queue.get()

    assert run_in_new_loop(later()) == "x"


def test_f18_asyncio_wording_for_objects_of_another_loop() -> None:
    assert bound_to_another_loop("<Queue at 0x1> is bound to a different event loop")
    assert bound_to_another_loop("Task got Future <Future> attached to a different loop")
    assert bound_to_another_loop("The future belongs to a different loop than the one ...")
    assert not bound_to_another_loop("division by zero")


def test_coroutines_see_the_callers_contextvars(bridge: Bridge) -> None:
    async def read_and_write() -> str:
        seen = REQUEST_ID.get()
        REQUEST_ID.set("changed on the bridge")
        return seen

    token = REQUEST_ID.set("cell-1")
    try:
        assert bridge.run(read_and_write()) == "cell-1"
        assert REQUEST_ID.get() == "cell-1"  # a copy: the bridge's changes do not leak back

        async def cell() -> str:
            REQUEST_ID.set("cell-2")
            return await bridge.arun(read_and_write())

        assert run_in_new_loop(cell()) == "cell-2"
        assert bridge.submit(read_and_write()).result(5) == "cell-1"
    finally:
        REQUEST_ID.reset(token)


def test_loop_patched_by_nest_asyncio_is_false_without_the_patch(bridge: Bridge) -> None:
    assert loop_patched_by_nest_asyncio() is False

    async def cell() -> bool:
        return loop_patched_by_nest_asyncio()

    assert run_in_new_loop(cell()) is False
    assert loop_patched_by_nest_asyncio(bridge.loop) is False


# -- nest_asyncio / nest-asyncio2 (each in its own interpreter: the patch is global) ----------

NEST_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys, threading
    from workbench.bridge import Bridge
    from workbench.bridge.loops import loop_patched_by_nest_asyncio

    PATCH = sys.argv[1]
    early = Bridge(name="early")          # started before the patch
    assert early.run(asyncio.sleep(0, result=1)) == 1

    nest = __import__(PATCH)
    nest.apply()                           # patches the main thread's loop (and its class)
    late = Bridge(name="late")             # started after the patch
    facts = {"asyncio.Task is pure-Python": asyncio.Task is asyncio.tasks._PyTask}

    async def add(a, b):
        await asyncio.sleep(0.001)
        return a + b

    async def bridge_facts():
        loop = asyncio.get_running_loop()
        inner = asyncio.sleep(0)
        try:
            loop.run_until_complete(inner)
            reentrant = True
        except RuntimeError:
            reentrant = False
        finally:
            inner.close()
        return {
            "task class": type(asyncio.current_task()).__module__,
            "patched": loop_patched_by_nest_asyncio(),
            "reentrant": reentrant,
        }

    calls = []
    caller_class = type(asyncio.get_event_loop())
    original = caller_class.run_until_complete

    def spy(self, future):
        calls.append(self)
        return original(self, future)

    results = {"top level": late.run(add(1, 2)), "early": early.run(add(2, 2))}

    async def cell():
        caller_class.run_until_complete = spy
        try:
            facts["caller patched"] = loop_patched_by_nest_asyncio()
            results["sync in async"] = late.run(add(3, 4))
            results["await"] = await late.arun(add(5, 6))
            results["await early"] = await early.arun(add(6, 6))
            gathered = await asyncio.gather(*(late.arun(add(i, 1)) for i in range(20)))
            results["gather"] = sum(gathered)
            results["nested sync"] = asyncio.get_event_loop().run_until_complete(
                asyncio.sleep(0, result=late.run(add(0, 9)))
            )
        finally:
            caller_class.run_until_complete = original

    asyncio.run(cell())                    # the patched asyncio.run reuses the patched loop
    facts["early bridge"] = early.run(bridge_facts())
    facts["late bridge"] = late.run(bridge_facts())
    facts["bridge loops patched"] = [loop_patched_by_nest_asyncio(b.loop) for b in (early, late)]
    bridge_loops = (early.loop, late.loop)
    facts["bridge calls on the caller's loop"] = sum(1 for c in calls if c in bridge_loops)
    facts["caller run_until_complete calls"] = len(calls)
    early.close(); late.close()
    facts["threads left"] = [t.name for t in threading.enumerate() if t.name in ("early", "late")]
    print(json.dumps({"results": results, "facts": facts}))
    """
)


@pytest.mark.parametrize("patch", ["nest_asyncio", "nest_asyncio2"])
def test_under_nest_asyncio(patch: str) -> None:
    proc = run_python(NEST_SCRIPT, patch)
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    results, facts = report["results"], report["facts"]
    assert results == {
        "top level": 3,
        "early": 4,
        "sync in async": 7,
        "await": 11,
        "await early": 12,
        "gather": 210,
        "nested sync": 9,
    }
    assert facts["caller patched"] is True
    # The only run_until_complete on the caller's loop is the test's own nested one.
    assert facts["caller run_until_complete calls"] == 1
    assert facts["bridge calls on the caller's loop"] == 0
    # The patch is global (pure-Python tasks everywhere), but the bridge loops stay stock.
    assert facts["asyncio.Task is pure-Python"] is True
    for which in ("early bridge", "late bridge"):
        assert facts[which]["patched"] is False
        assert facts[which]["reentrant"] is False
    assert facts["bridge loops patched"] == [False, False]
    assert facts["threads left"] == []
