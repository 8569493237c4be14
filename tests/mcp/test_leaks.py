"""No leaks: after many calls and connect/disconnect cycles, threads, open file descriptors
and child processes are back where they started."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.polling import eventually
from tests.processes import children, run_python
from workbench.session import Workbench

CALLS, CYCLES = 300, 8
"""Enough that a leak per call or per connection stands out (+300, +8), in a fraction of
the 50 s that 1,000 calls and 20 cycles took."""


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def settled(count: Callable[[], int], seconds: float = 10.0) -> int:
    """``count()`` once two looks a quarter second apart agree: the warm-up's streams and
    processes close in the background, and a busy machine closes them late."""
    deadline = time.monotonic() + seconds
    before = count()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = count()
        if now == before:
            return now
        before = now
    return before


def new_threads(before: set[threading.Thread], seconds: float = 5.0) -> list[str]:
    """Threads started since ``before`` that are still alive after a moment to stop."""
    deadline = time.monotonic() + seconds
    while True:
        extra = [t.name for t in threading.enumerate() if t not in before]
        if not extra or time.monotonic() > deadline:
            return extra
        time.sleep(0.05)


@pytest.mark.integration
def test_many_calls_and_cycles_leave_nothing_behind(everything_stdio: list[str]) -> None:
    # Warm up once so one-time costs (imports, the validation warm-up thread) are excluded.
    with Workbench() as wb:
        wb.connect("warm", command=everything_stdio[0], args=everything_stdio[1:])
        wb.call("warm.echo", {"message": "hi"})
    threads, fds, kids = set(threading.enumerate()), settled(open_fds), children()

    with Workbench() as wb:
        wb.connect("demo")
        for i in range(CALLS):
            assert not wb.call("demo.add", {"a": i, "b": 1}).is_error
        for cycle in range(CYCLES):
            wb.connect("everything", command=everything_stdio[0], args=everything_stdio[1:])
            assert wb.call("everything.echo", {"message": str(cycle)}).text.endswith(str(cycle))
            wb.disconnect("everything")
        assert len(wb.history) == CALLS + CYCLES

    assert new_threads(threads) == []
    # More descriptors than before is a leak; fewer is earlier tests' garbage going away.
    assert eventually(lambda: open_fds() <= fds), f"{open_fds()} fds open, {fds} before"
    assert children() == kids


@pytest.mark.integration
def test_the_stderr_log_folder_goes_away_with_the_process(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from workbench.mcp import transports\n"
        "from workbench.session import Workbench\n"
        "wb = Workbench()\n"
        "wb.connect('demo_stdio', command=sys.executable, args=['-m', 'workbench.demo'])\n"
        "print(transports._log_dir)\n"
        "wb.close()\n"
    )
    folder = Path(run_python(script).stdout.strip().splitlines()[-1])
    assert folder.name.startswith("workbench-logs-")
    assert not folder.exists()
