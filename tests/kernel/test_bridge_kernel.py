"""The bridge inside a real ipykernel: sync and async cells, output routing, interrupts.

Each scenario runs three ways - no patch, ``nest_asyncio.apply()``, ``nest_asyncio2.apply()`` -
with one kernel per variant, reused across the tests of that variant.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.kernel.snippets import SETTLE

pytestmark = pytest.mark.kernel

SETUP = """
import asyncio, threading, time
from workbench.bridge import Bridge
from workbench.bridge.loops import loop_patched_by_nest_asyncio

bridge = Bridge()

async def add(a, b):
    await asyncio.sleep(0.01)
    return a + b

async def where():
    return threading.current_thread().name

async def sleepy(i):
    await asyncio.sleep(0.3)
    return i

async def shout(text, delay=0.01):
    await asyncio.sleep(delay)
    print(text)
    return len(text)

def make_slow():
    state = {"started": threading.Event(), "cancelled": threading.Event()}

    async def slow(seconds=30):
        state["started"].set()
        print("slow started")
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            state["cancelled"].set()
            raise
        return "finished"

    return state, slow

print(loop_patched_by_nest_asyncio(), loop_patched_by_nest_asyncio(bridge.loop))
"""

# Each records, on the kernel's clock (CLOCK_MONOTONIC is system-wide), when control came back.
INTERRUPTED_CELLS = {
    "sync cell": "bridge.run(slow())",
    "sync run in async cell": "await asyncio.sleep(0)\nbridge.run(slow())",
    "await arun": "await bridge.arun(slow())",
}
INTERRUPTED_CELL = """
state, slow = make_slow()
try:
{body}
finally:
    state["returned"] = time.monotonic()
"""


@dataclass
class Variant:
    name: str
    kernel: Any  # conftest's KernelSession

    def run_ok(self, code: str, timeout: float = 20.0) -> str:
        status, out, err = self.kernel.execute(code, timeout=timeout)
        assert status == "ok", f"{self.name}: {err}"
        return str(out)


@pytest.fixture(scope="module")
def wb(nest_patch: Any, kernel_launcher: Callable[..., Any]) -> Iterator[Variant]:
    """A kernel with the variant's patch applied and a bridge created in an earlier cell."""
    kernel = kernel_launcher()
    status, out, err = kernel.execute(nest_patch.code + "\n" + SETUP, timeout=60)
    assert status == "ok", err
    patched = bool(nest_patch.code)
    assert out.split() == [str(patched), "False"]  # the bridge loop is never patched
    yield Variant(nest_patch.name, kernel)
    kernel.shutdown()


def test_sync_run_in_a_later_cell(wb: Variant) -> None:
    assert wb.run_ok("print(bridge.run(add(1, 2)), bridge.run(where()))") == "3 workbench-bridge\n"
    assert wb.run_ok("print(bridge.run(add(2, 3)))") == "5\n"


def test_await_at_top_level(wb: Variant) -> None:
    assert wb.run_ok("print(await bridge.arun(add(4, 5)))") == "9\n"


def test_sync_run_inside_an_async_cell(wb: Variant) -> None:
    assert wb.run_ok("await asyncio.sleep(0)\nprint(bridge.run(add(6, 7)))") == "13\n"


def test_twenty_concurrent_awaited_calls(wb: Variant) -> None:
    out = wb.run_ok(
        "start = time.monotonic()\n"
        "results = await asyncio.gather(*(bridge.arun(sleepy(i)) for i in range(20)))\n"
        "print(sum(results), round(time.monotonic() - start, 2))",
    )
    total, elapsed = out.split()
    assert total == "190"
    assert float(elapsed) < 2.0  # concurrent: 20 x 0.3 s would be 6 s


def test_print_lands_in_the_calling_cell(wb: Variant) -> None:
    assert wb.run_ok("n = bridge.run(shout('hello from a sync call'))") == (
        "hello from a sync call\n"
    )
    assert wb.run_ok("n = await bridge.arun(shout('hello from an await'))") == (
        "hello from an await\n"
    )
    # Output printed after its cell ended still belongs to that cell, not the running one.
    first = wb.kernel.send("future = bridge.submit(shout('late from the first cell', delay=0.5))")
    assert wb.kernel.collect(first)[0] == "ok"
    others: list[dict[str, Any]] = []
    second = wb.kernel.send("time.sleep(1.0)\nprint('second cell', future.result(5))")
    status, out, err = wb.kernel.collect(second, timeout=20, others=others)
    assert status == "ok", err
    assert out == "second cell 24\n"
    late = [
        m["content"]["text"]
        for m in others
        if m["msg_type"] == "stream" and m["parent_header"].get("msg_id") == first
    ]
    assert "".join(late) == "late from the first cell\n"


@pytest.mark.parametrize("cell", list(INTERRUPTED_CELLS))
def test_interrupt_cancels_the_bridged_call(
    wb: Variant, cell: str, record_timing: Callable[[str, float], None]
) -> None:
    """An interrupt into a 30 s bridged sleep, once it has started, returns control
    promptly."""
    body = "\n".join("    " + line for line in INTERRUPTED_CELLS[cell].splitlines())
    msg_id = wb.kernel.send(INTERRUPTED_CELL.format(body=body))
    wb.kernel.wait_for_stdout(msg_id, "slow started", timeout=20)
    time.sleep(SETTLE)
    sent = time.monotonic()
    wb.kernel.interrupt()
    status, _, err = wb.kernel.collect(msg_id, timeout=30)
    replied = time.monotonic() - sent
    record_timing(f"interrupt -> execute_reply,            {wb.name}, {cell}", replied)
    assert status == "error", f"{wb.name}/{cell}: the cell was not interrupted"
    assert "KeyboardInterrupt" in err or "CancelledError" in err, err
    # The coroutine on the bridge saw the cancellation, and the bridge still works.
    out = wb.run_ok(
        "print(state['started'].is_set(), state['cancelled'].wait(5), state['returned'])"
    )
    started, cancelled, returned = out.split()
    assert (started, cancelled) == ("True", "True")
    returned_after = float(returned) - sent
    record_timing(f"interrupt -> control back in the cell, {wb.name}, {cell}", returned_after)
    assert 0 < returned_after < 5.0
    assert replied < 5.0
    assert wb.run_ok("print(bridge.run(add(1, 1)))") == "2\n"
    assert wb.run_ok("print(await bridge.arun(add(1, 2)))") == "3\n"
