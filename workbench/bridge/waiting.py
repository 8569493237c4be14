"""Waiting on the bridge so that a kernel interrupt always lands.

A SIGINT may be delivered to any thread; the main thread acts on it only when it wakes up, and
ipykernel acts on it only when its loop wakes. So every wait here is cut into short slices, and
a blocking wait in the main thread chains a SIGINT handler that cancels the bridged task first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.bridge.jobs import Job

# The C functions where there are (CPython's _signal): signal's own wrap each handler in an
# enum first, by raising, ~40 us of every call's wait.
_c_signal: Any = signal
with contextlib.suppress(ImportError):
    import _signal as _c_signal  # type: ignore[import-not-found,no-redef]
_getsignal, _setsignal = _c_signal.getsignal, _c_signal.signal

# Waiting in short slices (sync and async alike) bounds how late a kernel interrupt lands.
WAIT_SLICE = 0.1
# After a timeout, how long to wait for the cancelled task to unwind before raising.
CANCEL_GRACE = 1.0


def timeout_error(timeout: float | None) -> TimeoutError:
    return TimeoutError(f"The bridged call did not finish within {timeout:g} s and was cancelled.")


def block_until(event: threading.Event, seconds: float) -> bool:
    """``event.wait(seconds)`` in short slices, so signals reach the main thread promptly."""
    deadline = time.monotonic() + seconds
    while not event.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        event.wait(min(WAIT_SLICE, left))
    return True


def resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class SigintTarget:
    """The job a chained SIGINT handler cancels, set as soon as the job exists."""

    job: Job[Any] | None = None


@contextlib.contextmanager
def cancel_on_sigint() -> Iterator[SigintTarget]:
    """While the main thread blocks on the bridge, make SIGINT cancel the bridged task first.

    Inside an async cell this wait blocks the kernel loop, so ipykernel's own handler - which
    only queues a callback on that loop - would take effect only after the call ends. The
    previous handler still runs, right after the cancel. Installed before the job is submitted,
    so no interrupt slips between the two.
    """
    target = SigintTarget()
    previous = _getsignal(signal.SIGINT)
    installed = None
    # Leave SIG_IGN, SIG_DFL and C-level handlers alone; signals belong to the main thread.
    if callable(previous) and threading.current_thread() is threading.main_thread():
        chained = previous

        def handler(signum: int, frame: FrameType | None) -> Any:
            job = target.job
            if job is not None:
                job.interrupted = True
                job.cancel()
            return chained(signum, frame)

        with contextlib.suppress(ValueError):  # not the main interpreter
            _setsignal(signal.SIGINT, handler)
            installed = handler
    try:
        yield target
    finally:
        if installed is not None and _getsignal(signal.SIGINT) is installed:
            _setsignal(signal.SIGINT, previous)


def keep_waking(loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any]) -> None:
    """Wake ``loop`` every slice until ``future`` is done (see :class:`BridgedFuture`)."""

    def tick() -> None:
        if not future.done() and not loop.is_closed():
            loop.call_later(WAIT_SLICE, tick)

    loop.call_later(WAIT_SLICE, tick)
