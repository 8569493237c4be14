"""Code the kernel tests run in their kernels, written once."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.polling import wait_for

WAIT_HERE = """cancelled = threading.Event()
import pathlib as _pathlib, tempfile as _tempfile
wait_here_started = _pathlib.Path(_tempfile.mkdtemp(prefix="wait-here-")) / "started"

@tool
async def wait_here(seconds: float = 30) -> str:
    "Sleep on the local notebook server; note a cancellation."
    wait_here_started.touch()
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    return "finished"

wb.add_tools(wait_here)
"""
"""Kernel code: a 30 s notebook tool that sets ``cancelled`` when its call is cancelled and
touches the file ``wait_here_started`` when it starts (needs ``asyncio``, ``threading``,
``tool`` and a Workbench ``wb`` in the kernel)."""

SETTLE = 0.5
"""Seconds given to a waiting cell after its tool or coroutine said it started, before the
interrupt: the cell's thread is then in its wait, as a person's stop press finds it. (A
fixed second before, this was about 25 s of the suite's time. At 0.1 s, one fresh-clone run
of 36 interrupt tests saw a notebook tool not cancelled on the server within 5 s in the
nest_asyncio sync-cell case; not understood yet, so half a second, nearer what was stable.)"""


def forget_started(session: Any) -> Path:
    """Remove the kernel's ``wait_here_started`` file (between two cells); return its path."""
    status, out, err = session.execute(
        "wait_here_started.unlink(missing_ok=True)\nprint(wait_here_started)", timeout=30
    )
    assert status == "ok", err
    return Path(out.strip())


def wait_until_started(started: Path, timeout: float = 10.0) -> None:
    """Block until ``wait_here`` has started on the kernel's notebook server, then settle."""
    wait_for(started.exists, timeout, "notebook.wait_here to start on the server")
    time.sleep(SETTLE)


CANCELLED_ON_THE_SERVER = """
import sys as _sys, traceback as _traceback
if not cancelled.wait(15):
    print("history:", [(c.tool_id, c.status) for c in wb.history[-3:]])
    for _thread, _frame in _sys._current_frames().items():
        print("thread", _thread, "".join(_traceback.format_stack(_frame)[-8:]))
print("cancelled:", cancelled.is_set())
"""
"""Kernel code: wait for ``wait_here`` to be cancelled on the server; if it was not, print the
last calls and every thread's stack (what a rare miss in CI needs to be understood). Its last
line says ``cancelled: True`` or ``cancelled: False``."""


def cancelled_on_the_server(session: Any) -> None:
    """Assert ``wait_here`` was cancelled on the notebook server (15 s: loose, since it is the
    cancellation that is checked; the time to idle after an interrupt is bounded apart)."""
    status, out, err = session.execute(CANCELLED_ON_THE_SERVER, timeout=40)
    assert status == "ok", err
    assert str(out).strip().endswith("cancelled: True"), out
