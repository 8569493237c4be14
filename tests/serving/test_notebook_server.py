"""Where notebook tools run, seen from plain Python (the kernel-level tests are in
``tests/kernel/test_notebook_tools_kernel.py``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import threading
import time

import pytest

from tests.export.fixtures import tiny_png
from workbench import Workbench, tool
from workbench.tools.schema import EmbeddedResource, ErrorKind, ImageContent, Observation


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


ADVICE = "call it with `await wb.acall(...)`"


@pytest.mark.integration
@pytest.mark.parametrize("shape", ["Event", "Queue", "Lock held by the caller", "hand over"])
def test_f18_a_sync_call_of_a_tool_stuck_on_the_callers_loop_times_out_saying_to_await(
    wb: Workbench, shape: str
) -> None:
    """Nothing but the caller's loop, blocked by the sync call, could wake the tool: it ends
    at the call's timeout, and the timeout says how to call it instead; awaited, it runs."""

    async def main() -> tuple[Observation, str]:
        caller = asyncio.get_running_loop()
        event, queue, lock = asyncio.Event(), asyncio.Queue[str](), asyncio.Lock()
        if shape == "Lock held by the caller":
            await lock.acquire()

        async def on_caller() -> str:
            return "ran on the caller's loop"

        @tool
        async def stuck() -> str:
            """Waits on what only the caller's loop provides."""
            if shape == "Event":
                await event.wait()
                return "set"
            if shape == "Queue":
                return await queue.get()
            if shape == "hand over":
                work = asyncio.run_coroutine_threadsafe(on_caller(), caller)
                return await asyncio.wrap_future(work)
            async with lock:
                return "locked"

        wb.add_tools(stuck)
        timed_out = wb.call("notebook.stuck", timeout=1)  # blocks this loop: a worker runs it
        caller.call_later(0.05, event.set)
        caller.call_later(0.05, queue.put_nowait, "fed")
        if lock.locked():
            caller.call_later(0.05, lock.release)
        return timed_out, (await wb.acall("notebook.stuck", timeout=10)).text

    timed_out, awaited = asyncio.run(main())
    assert timed_out.error_kind is ErrorKind.TIMEOUT
    message = timed_out.error_message or ""
    assert "did not answer within 1 s" in message and ADVICE in message, message
    assert message in timed_out.text  # what a model reads says it too
    assert timed_out.duration is not None and timed_out.duration < 6
    assert awaited in ("set", "fed", "locked", "ran on the caller's loop")


@pytest.mark.integration
def test_a_timeout_says_to_await_only_for_a_displaced_async_tool(wb: Workbench) -> None:
    @tool
    async def slow_async() -> str:
        """Sleeps past its caller's timeout."""
        await asyncio.sleep(3)
        return "late"

    @tool
    def slow_sync() -> str:
        """Sleeps past its caller's timeout, in a worker thread."""
        time.sleep(3)
        return "late"

    wb.add_tools(slow_async, slow_sync)

    async def awaited() -> Observation:  # on the caller's free loop: not displaced
        return await wb.acall("notebook.slow_async", timeout=0.5)

    for timed_out in (asyncio.run(awaited()), wb.call("notebook.slow_sync", timeout=0.5)):
        assert timed_out.error_kind is ErrorKind.TIMEOUT
        assert "await" not in (timed_out.error_message or ""), timed_out.error_message
    displaced = wb.call("notebook.slow_async", timeout=0.5)  # no loop runs here: a worker
    assert displaced.error_kind is ErrorKind.TIMEOUT
    assert ADVICE in (displaced.error_message or "")


@pytest.mark.integration
def test_a_tool_cancelled_on_the_callers_loop_is_an_error_and_the_server_lives_on(
    wb: Workbench,
) -> None:
    """The caller's loop cancels the tool it runs (its loop stopping, a cell's task
    cancelled) while the server still awaits it: an error result, never a CancelledError
    that cancels the server's handler from outside and ends the in-process session (the
    next call then found "Connection closed")."""
    running: list[asyncio.Task[object]] = []

    @tool
    async def waits() -> str:
        """Waits until cancelled."""
        task = asyncio.current_task()
        assert task is not None
        running.append(task)
        await asyncio.sleep(30)
        return "never"

    @tool
    def echo(text: str) -> str:
        """Says the text back."""
        return text

    wb.add_tools(waits, echo)

    async def cancelled_on_this_loop() -> Observation:
        call = asyncio.ensure_future(wb.acall("notebook.waits", timeout=20))
        while not running:  # the free loop took the tool: it runs here
            await asyncio.sleep(0.01)
        running[0].cancel()  # the caller's side, not the server's, cancels it
        return await call

    cancelled = asyncio.run(asyncio.wait_for(cancelled_on_this_loop(), timeout=15))
    assert cancelled.is_error, cancelled
    assert "cancelled on the kernel's event loop" in cancelled.text, cancelled.text
    after = wb.call("notebook.echo", {"text": "still here"})
    assert not after.is_error, after.text
    assert after.text == "still here"


@pytest.mark.integration
def test_a_displaced_tool_whose_own_event_a_thread_sets_finishes(wb: Workbench) -> None:
    """The usual bridge from a callback API; a check that read asyncio's internals once
    stopped it as stuck after 0.3 s, although the thread would have set the event."""

    @tool
    async def thread_sets_event() -> str:
        """Its own Event, set by another thread through call_soon_threadsafe after 0.6 s."""
        event, loop = asyncio.Event(), asyncio.get_running_loop()
        threading.Timer(0.6, loop.call_soon_threadsafe, args=(event.set,)).start()
        await event.wait()
        return "set by a thread"

    wb.add_tools(thread_sets_event)

    async def main() -> Observation:
        return wb.call("notebook.thread_sets_event", timeout=10)  # blocks this loop

    finished = asyncio.run(main())
    assert not finished.is_error, finished.error_message
    assert finished.text == "set by a thread"


def test_a_tool_returning_bytes_gives_image_audio_or_blob_content(wb: Workbench) -> None:
    png = tiny_png()

    @tool
    def picture(kind: str) -> bytes:
        """Bytes of one kind."""
        return {"png": png, "gif": b"GIF89a\x01\x00", "pdf": b"%PDF-1.7"}[kind]

    @tool
    def pictures() -> list[bytes | ImageContent]:
        """Bytes and a ready block together."""
        return [bytearray(png), ImageContent(data="AAAA", mime_type="image/webp")]

    assert picture.output_schema is None  # nothing for the client to validate against
    wb.add_tools(picture, pictures)
    shown = [wb.call("notebook.picture", {"kind": kind}) for kind in ("png", "gif", "pdf")]
    assert not any(observation.is_error for observation in shown), shown
    image, gif, pdf = (observation.content for observation in shown)
    assert image == [ImageContent(data=base64.b64encode(png).decode(), mime_type="image/png")]
    assert isinstance(gif[0], ImageContent) and gif[0].mime_type == "image/gif"
    (blob,) = pdf
    assert isinstance(blob, EmbeddedResource) and blob.resource.mime_type == "application/pdf"
    both = wb.call("notebook.pictures").content
    assert [(block.type, getattr(block, "mime_type", "")) for block in both] == [
        ("image", "image/png"),
        ("image", "image/webp"),
    ]


def test_the_notebook_server_lists_no_workbench_key(wb: Workbench) -> None:
    @tool
    def count() -> int:
        """A number, wrapped as {"result": ...} in structured content."""
        return 1

    wb.add_tools(count)
    listed = wb.registry.get("notebook.count").output_schema  # as tools/list gave it
    assert listed is not None and listed["properties"]["result"] == {"type": "integer"}
    assert not [key for key in listed if key.startswith("x-workbench-")]
    assert wb.call("notebook.count").structured_content == {"result": 1}


def test_the_notebook_server_says_it_is_the_workbench_of_this_version() -> None:
    """Its serverInfo is the workbench's name for it and the workbench's version, not
    FastMCP's (as every served surface says: serving/identity.py)."""
    from fastmcp import Client

    from workbench.__about__ import __version__
    from workbench.serving.notebook_server import LocalServer

    async def info() -> tuple[str, str]:
        async with Client(LocalServer().server) as client:
            seen = client.server_info
            assert seen is not None
            return seen.name, seen.version

    assert asyncio.run(info()) == ("notebook", __version__)
