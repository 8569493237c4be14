"""The Workbench inside a real ipykernel, with and without nest_asyncio patches.

A connection opened in one cell is used in later cells, from sync cells, awaited, from a
sync call inside an async cell, concurrently; an interrupt during a 30 s tool returns
control quickly, cancels the tool on the server and leaves the connection usable; a killed
stdio server is followed by a successful call.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.kernel.snippets import (
    WAIT_HERE,
    cancelled_on_the_server,
    forget_started,
    wait_until_started,
)
from tests.processes import children

pytestmark = pytest.mark.kernel

SETUP = """
import asyncio, os, signal, sys, threading, time
from workbench import Workbench, tool

wb = Workbench()
wb.connect("demo")
wb.connect("stdio_demo", command=sys.executable, args=["-m", "workbench.demo"])

{WAIT_HERE}
print(sorted(info.status for info in wb.servers()))
""".replace("{WAIT_HERE}", WAIT_HERE)
# The kernel's children(): the very function the other tests use, defined from its source.
SETUP += "\n" + inspect.getsource(children)


class Kernel:
    """One kernel of a patch variant, with the Workbench made by SETUP."""

    def __init__(self, name: str, session: Any) -> None:
        self.name = name
        self.session = session

    def ok(self, code: str, timeout: float = 30.0) -> str:
        status, out, err = self.session.execute(code, timeout=timeout)
        assert status == "ok", f"{self.name}: {err}"
        return str(out)


@pytest.fixture(scope="module")
def kernel(nest_patch: Any, kernel_launcher: Callable[..., Any]) -> Iterator[Kernel]:
    session = kernel_launcher()
    status, out, err = session.execute(nest_patch.code + "\n" + SETUP, timeout=90)
    assert status == "ok", err
    assert out.split() == ["['connected',", "'connected',", "'connected']"]
    yield Kernel(nest_patch.name, session)
    session.execute("wb.close()", timeout=30)
    session.shutdown()


def test_sync_call_in_a_later_cell(kernel: Kernel) -> None:
    out = kernel.ok('print(wb.call("demo.add", {"a": 2, "b": 3}).structured_content)')
    assert out.strip() == "{'result': 5}"
    out = kernel.ok('print(wb.call("stdio_demo.add", {"a": 1, "b": 1}).structured_content)')
    assert out.strip() == "{'result': 2}"


def test_awaited_call(kernel: Kernel) -> None:
    out = kernel.ok('o = await wb.acall("demo.text_stats", {"text": "a b c"})\nprint(o.text)')
    assert '"words":3' in out.replace(" ", "")


def test_sync_call_inside_an_async_cell(kernel: Kernel) -> None:
    out = kernel.ok(
        'await asyncio.sleep(0)\nprint(wb.call("demo.add", {"a": 1, "b": 2}).structured_content)'
    )
    assert out.strip() == "{'result': 3}"


def test_twenty_concurrent_awaited_calls(kernel: Kernel) -> None:
    out = kernel.ok(
        "started = time.monotonic()\n"
        "obs = await asyncio.gather(*(wb.acall('demo.slow_count', {'seconds': 0.5, 'steps': 1})"
        " for _ in range(20)))\n"
        "print(sum(not o.is_error for o in obs), time.monotonic() - started)"
    )
    ok, seconds = out.split()
    assert ok == "20"
    assert float(seconds) < 5  # one after another would take 10 s


INTERRUPTED = {
    "sync cell": 'wb.call("notebook.wait_here", {"seconds": 30})',
    "await": 'await wb.acall("notebook.wait_here", {"seconds": 30})',
    "sync call in async cell": (
        'await asyncio.sleep(0)\nwb.call("notebook.wait_here", {"seconds": 30})'
    ),
}


@pytest.mark.parametrize("cell", list(INTERRUPTED))
def test_interrupt_returns_control_and_cancels_on_the_server(
    kernel: Kernel, cell: str, record_timing: Callable[[str, float], None]
) -> None:
    kernel.ok("cancelled.clear()")
    started = forget_started(kernel.session)
    msg_id = kernel.session.send(f'print("calling", flush=True)\n{INTERRUPTED[cell]}')
    kernel.session.wait_for_stdout(msg_id, "calling", timeout=10)
    wait_until_started(started)
    sent = time.monotonic()
    kernel.session.interrupt()
    status, _, err = kernel.session.collect(msg_id, timeout=15)
    elapsed = time.monotonic() - sent
    record_timing(f"interrupt of a 30 s tool: {kernel.name}, {cell}", elapsed)
    # ipykernel ends an interrupted sync cell with KeyboardInterrupt and an awaiting one by
    # cancelling its task.
    assert status == "error" and ("KeyboardInterrupt" in err or "CancelledError" in err)
    assert elapsed < 5
    cancelled_on_the_server(kernel.session)
    assert kernel.ok("print(wb.history[-1].status)").strip() == "cancelled"
    out = kernel.ok('print(wb.call("notebook.wait_here", {"seconds": 0}).text)')
    assert out.strip() == "finished"


def test_f11_a_stdio_server_killed_between_calls_is_restarted_by_the_next_call(
    kernel: Kernel,
) -> None:
    out = kernel.ok(
        "before = children()\n"
        'wb.reconnect("stdio_demo")\n'
        "fresh = [pid for pid in children() if pid not in before] or children()\n"
        "for pid in fresh:\n"
        "    os.kill(pid, signal.SIGKILL)\n"
        "time.sleep(0.5)\n"
        'first = wb.call("stdio_demo.add", {"a": 1, "b": 1})\n'
        'status = {i.name: i.status for i in wb.servers()}["stdio_demo"]\n'
        "print(first.error_kind, status, first.structured_content)"
    )
    assert out.strip() == "None connected {'result': 2}"
