"""Notebook tools run where the notebook's objects live, never on the bridge loop (F17, F18).

Async notebook tools run on the kernel's loop when it is free (awaited and widget calls), on a
worker loop while a sync call blocks it; sync ones in a worker thread. A tool that blocks
delays only calls to itself, and its timeout is reported at the deadline; a queue made in a
cell feeds an awaited tool at once; the same tool called synchronously gets an error saying to
``await`` the call - at once when asyncio says the object belongs to the kernel's loop, else
at the call's timeout - and a tool that only looks stuck finishes. Unpatched kernels and
nest_asyncio ones alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.kernel

SETUP = """
import asyncio, threading, time
from workbench import Workbench, tool

wb = Workbench()
wb.connect("demo")
q = asyncio.Queue()

@tool
async def blocking_async(seconds: float = 4) -> str:
    "An async tool with blocking code inside."
    time.sleep(seconds)
    return "done"

@tool
async def take(timeout: float = 5) -> str:
    "The next item of the cell's queue."
    return str(await asyncio.wait_for(q.get(), timeout))

@tool
async def where() -> str:
    "The thread the tool runs in."
    return threading.current_thread().name

@tool
async def take_fresh(timeout: float = 1) -> str:
    "The next item of a queue made in a later cell."
    return str(await asyncio.wait_for(fresh.get(), timeout))

@tool
async def take_forever() -> str:
    "The next item of a queue made in a later cell, however long it takes."
    return str(await forever.get())

@tool
async def hold() -> str:
    "Waits until a cell sets the release event."
    await release.wait()
    return "released"

@tool
async def hand_over() -> str:
    "Runs a coroutine on the kernel's loop and waits for it."
    async def on_kernel():
        return "ran on the kernel's loop"
    work = asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop)
    return await asyncio.wrap_future(work)

@tool
async def thread_sets_event() -> str:
    "Its own Event, set by another thread through call_soon_threadsafe after 0.6 s."
    event, loop = asyncio.Event(), asyncio.get_running_loop()
    threading.Timer(0.6, loop.call_soon_threadsafe, args=(event.set,)).start()
    await event.wait()
    return "set by a thread"

kernel_loop = asyncio.get_running_loop()
wb.add_tools(
    blocking_async, take, where, take_fresh, take_forever, hold, hand_over, thread_sets_event
)
"""
ADVICE = "call it with `await wb.acall(...)`"


@pytest.fixture(scope="module")
def session(nest_patch: Any, kernel_launcher: Callable[..., Any]) -> Iterator[Any]:
    kernel = kernel_launcher()
    status, _, err = kernel.execute(nest_patch.code + "\n" + SETUP, timeout=90)
    assert status == "ok", err
    yield kernel
    kernel.execute("wb.close()", timeout=30)
    kernel.shutdown()


def ok(session: Any, code: str, timeout: float = 30) -> str:
    status, out, err = session.execute(code, timeout=timeout)
    assert status == "ok", err
    return str(out)


def test_f17_f18_awaited_tools_run_on_the_kernels_loop_sync_ones_off_the_bridge(
    session: Any,
) -> None:
    assert ok(session, 'print((await wb.acall("notebook.where")).text)').strip() == "MainThread"
    thread = ok(session, 'print(wb.call("notebook.where").text)').strip()
    assert thread not in ("MainThread", "workbench-bridge")


def test_f17_a_blocking_async_tool_does_not_delay_a_demo_call(session: Any) -> None:
    out = ok(
        session,
        'blocked = wb.submit("notebook.blocking_async", {"seconds": 4})\n'
        "time.sleep(0.5)\n"
        "started = time.monotonic()\n"
        'added = wb.call("demo.add", {"a": 1, "b": 2})\n'
        "print(added.structured_content['result'], time.monotonic() - started)\n"
        "print(blocked.result(10).text)",
    )
    first, second = out.splitlines()
    result, seconds = first.split()
    assert result == "3"
    assert float(seconds) < 2, f"demo.add waited {float(seconds):.1f} s for the blocking tool"
    assert second == "done"


def test_f17_a_notebook_tool_over_its_timeout_is_reported_at_the_deadline(session: Any) -> None:
    out = ok(
        session,
        "started = time.monotonic()\n"
        'late = wb.call("notebook.blocking_async", {"seconds": 4}, timeout=1)\n'
        "print(late.error_kind.value, time.monotonic() - started)",
    )
    kind, seconds = out.split()
    assert kind == "timeout"
    assert float(seconds) < 2.5, f"timeout reported after {float(seconds):.1f} s"


def test_f18_a_queue_made_in_a_cell_feeds_an_awaited_tool(session: Any) -> None:
    out = ok(
        session,
        'asyncio.get_running_loop().call_later(0.2, q.put_nowait, "hello")\n'
        "started = time.monotonic()\n"
        'got = await wb.acall("notebook.take", {"timeout": 5})\n'
        "print(got.text, time.monotonic() - started)\n"
        # The kernel's own use of the queue is intact afterwards.
        'asyncio.get_running_loop().call_later(0.1, q.put_nowait, "again")\n'
        "print(await asyncio.wait_for(q.get(), 2))",
    )
    first, second = out.splitlines()
    text, seconds = first.split()
    assert text == "hello"
    assert float(seconds) < 2, f"the item arrived after {float(seconds):.1f} s"
    assert second == "again"


def test_f18_a_tool_needing_the_kernels_loop_called_synchronously_says_to_await(
    session: Any,
) -> None:
    # A consumer that has waited on the queue in the kernel's loop binds it there.
    ok(
        session,
        "try:\n    await asyncio.wait_for(q.get(), 0.01)\nexcept asyncio.TimeoutError:\n    pass",
    )
    out = ok(
        session,
        "started = time.monotonic()\n"
        'stuck = wb.call("notebook.take", {"timeout": 5}, timeout=20)\n'
        "print(stuck.is_error, time.monotonic() - started)\n"
        "print(stuck.error_message)",
        timeout=40,
    )
    first, message = out.split("\n", 1)
    is_error, seconds = first.split()
    assert is_error == "True"
    assert float(seconds) < 2, f"the error came after {float(seconds):.1f} s"
    assert "await" in message and "kernel's event loop" in message, message
    # And awaited, the same tool works.
    out = ok(
        session,
        'asyncio.get_running_loop().call_later(0.2, q.put_nowait, "later")\n'
        'print((await wb.acall("notebook.take", {"timeout": 5})).text)',
    )
    assert out.strip() == "later"


def test_f18_a_cells_queue_first_waited_on_in_a_sync_call_stays_usable(session: Any) -> None:
    """No consumer has waited on ``fresh`` yet: the displaced tool binds it to its own loop,
    which must give it back, or the kernel could never wait on it again."""
    out = ok(
        session,
        "fresh = asyncio.Queue()\n"
        'empty = wb.call("notebook.take_fresh", {"timeout": 0.5}, timeout=10)\n'
        "print(empty.is_error)",
    )
    assert out.strip() == "True"
    out = ok(
        session,
        'asyncio.get_running_loop().call_later(0.1, fresh.put_nowait, "again")\n'
        "print(await asyncio.wait_for(fresh.get(), 2))",
    )
    assert out.strip() == "again"


def test_f18_a_sync_call_of_a_tool_waiting_on_a_fresh_cell_object_times_out_saying_to_await(
    session: Any,
) -> None:
    """Nothing but a cell could feed ``forever``, and the sync call blocks every cell: the
    tool ends at the call's timeout, which says to await it; awaited, it runs."""
    out = ok(
        session,
        "forever = asyncio.Queue()\n"
        "started = time.monotonic()\n"
        'stuck = wb.call("notebook.take_forever", timeout=1)\n'
        "print(stuck.error_kind.value, time.monotonic() - started)\n"
        "print(stuck.error_message)",
        timeout=60,
    )
    first, message = out.split("\n", 1)
    kind, seconds = first.split()
    assert kind == "timeout"
    assert float(seconds) < 6, f"the timeout came after {float(seconds):.1f} s"
    assert ADVICE in message and "kernel's event loop" in message, message
    # Given back when it was cancelled: the kernel's loop can wait on the queue.
    out = ok(
        session,
        'asyncio.get_running_loop().call_later(0.2, forever.put_nowait, "fed")\n'
        'print((await wb.acall("notebook.take_forever")).text)',
    )
    assert out.strip() == "fed"


def test_a_sync_call_of_a_tool_whose_own_event_a_thread_sets_finishes(session: Any) -> None:
    """Once stopped as stuck after 0.3 s by a check that read asyncio's internals."""
    out = ok(session, 'print(wb.call("notebook.thread_sets_event", timeout=10).text)')
    assert out.strip() == "set by a thread"


def test_f18_blocking_on_a_tool_already_on_the_kernels_loop_says_to_await(
    session: Any,
) -> None:
    """``f.result()`` after the kernel's loop took the tool would stop that loop for good."""
    out = ok(
        session,
        "release = asyncio.Event()\n"
        'f = wb.submit("notebook.hold")\n'
        "await asyncio.sleep(0.5)\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    f.result(30)\n"
        "except Exception as error:\n"
        "    print(type(error).__name__, time.monotonic() - started)\n"
        "    print(error)\n"
        "release.set()\n"
        "print((await asyncio.wrap_future(f)).text)",
        timeout=60,
    )
    first, message, last = out.strip().split("\n")
    name, seconds = first.split()
    assert name == "KernelLoopBusyError"
    assert float(seconds) < 3, f"raised after {float(seconds):.1f} s"
    assert "notebook.hold" in message and "await asyncio.wrap_future" in message, message
    assert last == "released"


def test_f17_a_tool_handing_work_to_the_kernels_loop_in_a_sync_call_times_out_saying_to_await(
    session: Any,
) -> None:
    out = ok(
        session,
        "started = time.monotonic()\n"
        'stuck = wb.call("notebook.hand_over", timeout=1)\n'
        "print(stuck.error_kind.value, time.monotonic() - started)\n"
        "print(stuck.error_message)\n"
        'print((await wb.acall("notebook.hand_over")).text)',
        timeout=60,
    )
    first, message, awaited = out.strip().split("\n")
    kind, seconds = first.split()
    assert kind == "timeout"
    assert float(seconds) < 6, f"the timeout came after {float(seconds):.1f} s"
    assert "work handed to that loop" in message and ADVICE in message, message
    assert awaited == "ran on the kernel's loop"
