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
