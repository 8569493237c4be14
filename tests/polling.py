"""Waiting in tests for something another thread or process does: poll a condition until it
holds or a deadline passes, never a fixed sleep (a slow machine waits longer, a fast one not
at all).

``eventually`` answers whether it came to hold (for ``assert eventually(...), message``);
``wait_for`` fails the test saying what it waited for.
"""

from __future__ import annotations

import time
from collections.abc import Callable

INTERVAL = 0.02
"""Seconds between two looks at the condition."""


def eventually(condition: Callable[[], object], seconds: float = 15.0) -> bool:
    """Whether ``condition()`` is truthy within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(INTERVAL)
    return True


def wait_for(condition: Callable[[], object], seconds: float = 15.0, what: str = "") -> None:
    """Return once ``condition()`` is truthy; fail the test after ``seconds``."""
    if not eventually(condition, seconds):
        raise AssertionError(f"timed out after {seconds:g} s waiting for {what or condition}")
