"""The browser's search box in a real kernel: a 100,000-character paste at 10,000 tools (F10).

The page's keystroke is a comm message to the kernel (an ipywidgets ``update`` of the
ToolList's ``request``). Here the client sends those messages itself, as a page would, then
runs a cell: the cell must be answered, and the kernel's answer to each paste (the comm
message back to the page) must be as small as a short query's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.catalogs import distinct_words
from tests.kernel.conftest import KernelSession

pytestmark = pytest.mark.kernel

SETUP = """
from tests.catalogs import synthetic_catalog
from workbench import Workbench
from workbench.widgets.browser import ToolBrowser

wb = Workbench()
synthetic_catalog(wb.registry)
browser = ToolBrowser(wb)
print(len(wb.registry), browser.tool_list.comm.comm_id)
"""


def keystroke(kernel: KernelSession, comm_id: str, query: str, seq: int) -> str:
    """What the page sends when its box changes: returns the message's id."""
    state = {"request": {"query": query, "server": "", "seq": seq}}
    content = {"comm_id": comm_id, "data": {"method": "update", "state": state}}
    msg = kernel.kc.session.msg("comm_msg", content)
    kernel.kc.shell_channel.send(msg)
    return str(msg["header"]["msg_id"])


def answers(messages: list[dict[str, Any]], parent: str) -> list[dict[str, Any]]:
    """The ``answer`` updates the kernel sent the page in reply to one keystroke."""
    found = []
    for msg in messages:
        if msg["parent_header"].get("msg_id") != parent or msg["msg_type"] != "comm_msg":
            continue
        state = msg["content"]["data"].get("state", {})
        if "answer" in state:
            found.append(msg["content"])
    return found


def test_f10_a_100000_character_paste_leaves_the_kernel_answering(
    kernel_launcher: Callable[..., KernelSession],
) -> None:
    kernel = kernel_launcher()
    status, out, err = kernel.execute(SETUP, timeout=90)
    assert status == "ok", err
    count, comm_id = out.split()
    assert count == "10000"
    pastes = {
        "typical": "create calendar event",
        "one word": "a" * 100_000,
        "distinct words": distinct_words(100_000),
        "prose": "create calendar event " * 5_000,
    }
    sent = {
        shape: (keystroke(kernel, comm_id, paste, seq), seq)
        for seq, (shape, paste) in enumerate(pastes.items(), start=1)
    }
    others: list[dict[str, Any]] = []
    # The keystrokes are handled in order before this cell: its reply arriving at all
    # (within the generous timeout) is the kernel staying responsive.
    status, out, err = kernel.collect(
        kernel.send("a = browser.tool_list.answer\nprint(a['seq'], len(a['rows']))"),
        timeout=60,
        others=others,
    )
    assert status == "ok", err
    assert out.split() == [str(len(pastes)), "40"]
    sizes = {}
    for shape, (msg_id, seq) in sent.items():
        [update] = answers(others, msg_id)
        answer = update["data"]["state"]["answer"]
        assert answer["seq"] == seq
        assert len(answer["rows"]) <= 40
        sizes[shape] = len(json.dumps(update))
    assert max(sizes.values()) < 2 * sizes["typical"], sizes
    kernel.execute("browser.close(); wb.close()", timeout=30)
