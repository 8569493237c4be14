"""Where notebook tools run, seen from plain Python (the kernel-level tests are in
``tests/kernel/test_notebook_tools_kernel.py``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import threading

from tests.tools.export_fixtures import tiny_png
from workbench import Workbench, tool
from workbench.tools.schema import EmbeddedResource, ErrorKind, ImageContent


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
