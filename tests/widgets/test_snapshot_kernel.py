"""The browser's display in a real ipykernel: one display_data holding the widget view and the
snapshot, then update_display_data under the same display id, sent as children of the cell
that displayed it (that is how JupyterLab routes them to that cell's output) whichever
message or thread caused them; a burst of keystrokes is coalesced; the page's quiet clock and
the end of a cell flush what is pending. Shutting the kernel down leaves the display (and
the live widget) as they were, though its servers go one by one (newcomer-3, friction 3).

The client plays the page: it sends the comm messages a page sends (a keystroke's
``request`` update, the clock's ``settled`` custom message) and reads iopub.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kernel.conftest import KernelSession, launch_kernel

pytestmark = pytest.mark.kernel

BROWSER_MIME = "application/vnd.workbench.browser+json"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
SETUP = "%load_ext workbench\n%mcp connect demo"
SHOW = "import workbench\nbrowser = workbench.browse()\nbrowser"
IDS = "print(browser.tool_list.comm.comm_id, browser.output.clock.comm.comm_id)"


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[KernelSession]:
    session = launch_kernel(tmp_path)
    yield session
    session.shutdown()


def iopub_until_idle(kernel: KernelSession, msg_id: str, timeout: float = 30.0) -> list[Any]:
    """Every iopub message (whatever its parent) until ``msg_id``'s request went idle."""
    deadline = time.monotonic() + timeout
    seen: list[dict[str, Any]] = []
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no idle for {msg_id} within {timeout} s: {seen[-5:]}"
        try:
            msg = kernel.kc.get_iopub_msg(timeout=min(remaining, 1.0))
        except queue.Empty:
            continue
        seen.append(msg)
        if (
            msg["parent_header"].get("msg_id") == msg_id
            and msg["msg_type"] == "status"
            and msg["content"]["execution_state"] == "idle"
        ):
            return seen


def run(kernel: KernelSession, code: str) -> tuple[str, list[Any]]:
    msg_id = kernel.send(code)
    messages = iopub_until_idle(kernel, msg_id)
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert not errors, errors
    return msg_id, messages


def comm_message(kernel: KernelSession, comm_id: str, data: dict[str, Any]) -> str:
    """A message from the page to a widget's model; returns its id."""
    msg = kernel.kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kernel.kc.shell_channel.send(msg)
    return str(msg["header"]["msg_id"])


def keystroke(kernel: KernelSession, comm_id: str, query: str, seq: int) -> str:
    state = {"request": {"query": query, "server": "", "seq": seq}}
    return comm_message(kernel, comm_id, {"method": "update", "state": state})


def updates(messages: list[Any], display_id: str) -> list[Any]:
    return [
        m
        for m in messages
        if m["msg_type"] == "update_display_data"
        and m["content"]["transient"].get("display_id") == display_id
    ]


def test_the_display_is_updated_in_place_as_a_child_of_its_cell(kernel: KernelSession) -> None:
    run(kernel, SETUP)
    shown_by, messages = run(kernel, SHOW)
    displays = [m for m in messages if m["msg_type"] == "display_data"]
    assert len(displays) == 1, [m["msg_type"] for m in messages]
    data = displays[0]["content"]["data"]
    assert set(data) == {WIDGET_MIME, BROWSER_MIME, "text/html", "text/plain"}
    assert "VBox(" not in data["text/plain"]
    display_id = displays[0]["content"]["transient"]["display_id"]
    _, messages = run(kernel, IDS)
    out = "".join(m["content"]["text"] for m in messages if m["msg_type"] == "stream")
    list_comm, clock_comm = out.split()

    # A keystroke from the page (its own parent): the update goes to the browser's cell.
    time.sleep(0.5)
    key = keystroke(kernel, list_comm, "add numbers", 1)
    found = updates(iopub_until_idle(kernel, key), display_id)
    assert len(found) == 1
    assert found[0]["parent_header"]["msg_id"] == shown_by
    assert found[0]["content"]["data"][BROWSER_MIME]["query"] == "add numbers"
    assert found[0]["content"]["data"][WIDGET_MIME] == data[WIDGET_MIME]

    # A burst of keys within the interval: held back, then sent once the page's clock
    # says the browser went quiet.
    words = "calendar event"
    burst: list[Any] = []
    for seq, end in enumerate(range(1, len(words) + 1), start=2):
        burst += iopub_until_idle(kernel, keystroke(kernel, list_comm, words[:end], seq))
    sent = updates(burst, display_id)
    assert len(sent) <= 2, f"{len(sent)} updates for {len(words)} keys"
    settle = comm_message(
        kernel, clock_comm, {"method": "custom", "content": {"settled": len(words) + 1}}
    )
    final = updates(iopub_until_idle(kernel, settle), display_id)
    assert final, "the quiet clock's message flushed nothing"
    assert final[-1]["content"]["data"][BROWSER_MIME]["query"] == words
    assert all(m["parent_header"]["msg_id"] == shown_by for m in sent + final)

    # Without a page, the end of any cell flushes too.
    time.sleep(0.5)
    for seq, query in enumerate(("s", "sl", "slow"), start=100):
        iopub_until_idle(kernel, keystroke(kernel, list_comm, query, seq))
    _, messages = run(kernel, "pass")
    last = updates(messages, display_id)[-1]["content"]["data"][BROWSER_MIME]
    assert last["query"] == "slow"

    # Python opens a tool and calls it: published at once, in the browser's cell.
    _, messages = run(
        kernel,
        "browser.open('demo.add', {'a': 2, 'b': 40})\nrun = browser.panel.call()\n"
        "assert run is not None and run.done.wait(15)",
    )
    time.sleep(0.5)  # the finished call's update comes from the bridge thread
    messages += iopub_until_idle(kernel, kernel.send("pass"))
    docs = [m["content"]["data"][BROWSER_MIME] for m in updates(messages, display_id)]
    assert docs[-1]["open"]["id"] == "demo.add"
    assert docs[-1]["lastCall"]["observation"]["structuredContent"] == {"result": 42}

    # Closed, the display keeps the final snapshot without the widget.
    _, messages = run(kernel, "browser.close()")
    closing = updates(messages, display_id)[-1]["content"]["data"]
    assert WIDGET_MIME not in closing and closing[BROWSER_MIME]["query"] == "slow"

    # Shutting the kernel down tears its servers down one by one: a browser left open keeps
    # its last live state, in its display and in its widget (no update, no widget message).
    _, messages = run(
        kernel, "browser = workbench.browse('chart')\nbrowser.open('demo.draw_chart')\nbrowser"
    )
    display_id = next(m for m in messages if m["msg_type"] == "display_data")["content"][
        "transient"
    ]["display_id"]
    run(kernel, "pass")
    after = shut_down(kernel)
    assert any(m["msg_type"] == "shutdown_reply" for m in after), [m["msg_type"] for m in after]
    assert not updates(after, display_id), updates(after, display_id)[-1]["content"]["data"]
    assert not [m for m in after if m["msg_type"] == "comm_msg"]


def shut_down(kernel: KernelSession, timeout: float = 20.0) -> list[Any]:
    """Ask the kernel to shut down, as Kernel > Shut Down Kernel does; every iopub message
    until its process has ended."""
    kernel.kc.shutdown()
    deadline = time.monotonic() + timeout
    seen: list[Any] = []
    while time.monotonic() < deadline:
        try:
            seen.append(kernel.kc.get_iopub_msg(timeout=0.2))
        except queue.Empty:
            if not kernel.km.is_alive():
                return seen
    raise AssertionError(f"the kernel still runs {timeout} s after shutdown_request")
