"""A workspace in a real ipykernel: ``%mcp load-workspace``, a workspace tool and an event
tool called with ``%mcp call``, and the live ``%mcp events`` table updated in place."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kernel.conftest import KernelSession

pytestmark = pytest.mark.kernel

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "workspace"


@pytest.fixture(scope="module")
def session(kernel_launcher: Callable[..., KernelSession]) -> Iterator[KernelSession]:
    launched = kernel_launcher()
    yield launched
    launched.shutdown()


def run(session: KernelSession, code: str, timeout: float = 60.0) -> list[dict[str, Any]]:
    """Run a cell; every iopub message until it is idle, whatever cell it belongs to (a live
    table's updates belong to the cell that displayed it)."""
    msg_id = session.send(code)
    deadline = time.monotonic() + timeout
    seen: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        try:
            msg = session.kc.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        seen.append(msg)
        mine = msg["parent_header"].get("msg_id") == msg_id
        if mine and msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            errors = [m["content"] for m in seen if m["msg_type"] == "error"]
            assert not errors, errors
            return seen
    raise TimeoutError(f"cell did not finish: {code!r}")


def texts(messages: list[dict[str, Any]], *kinds: str) -> str:
    return "\n".join(
        str(m["content"].get("data", {}).get("text/plain", m["content"].get("text", "")))
        for m in messages
        if m["msg_type"] in kinds
    )


def test_a_workspace_loads_and_its_tools_and_event_tools_are_called(
    session: KernelSession,
) -> None:
    run(session, "%load_ext workbench")
    loaded = run(session, f"%mcp load-workspace {FIXTURE}")
    shown = texts(loaded, "display_data")
    assert "5 tools loaded" in shown and "place_order" in shown and "SyntaxError" in shown
    assert "SchemaFallbackWarning" not in texts(loaded, "stream")

    live = run(session, "%mcp events")
    assert "No events yet." in texts(live, "display_data")
    table_id = next(m for m in live if m["msg_type"] == "display_data")["content"]["transient"]
    counted = run(
        session, 'obs = %mcp call notebook.count_words text="a bc"\nprint(obs.structured_content)'
    )
    assert "{'words': 2, 'letters': 3}" in texts(counted, "stream")

    called = run(
        session,
        "%mcp call notebook.place_order "
        '{"order_id": "o-1", "items": [{"sku": "tea", "quantity": 2}]}',
    )
    updates = [
        m for m in called
        if m["msg_type"] == "update_display_data" and m["content"]["transient"] == table_id
    ]  # fmt: skip
    assert updates, [m["msg_type"] for m in called]
    assert "orders/{orderId}/placed" in updates[-1]["content"]["data"]["text/plain"]
    assert "evt-000001" in texts(called, "execute_result", "display_data")

    printed = run(
        session,
        "import workbench\n"
        "print([(e.id, e.payload['order_id']) for e in workbench.current().events])",
    )
    assert "[('evt-000001', 'o-1')]" in texts(printed, "stream")

    refused = run(session, '%mcp call notebook.place_order {"order_id": "o-2", "items": []}')
    assert "needs at least 1 item" in texts(refused, "execute_result", "display_data")
    printed = run(session, "print(len(workbench.current().events))")
    assert texts(printed, "stream").strip() == "1"
