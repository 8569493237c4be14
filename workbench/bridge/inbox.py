"""Work for the main thread while it blocks on the bridge.

A sync call in a kernel blocks the main thread, so nothing can be shown or clicked until it
ends; yet a server may ask the person a question during that very call. The blocked thread
still wakes every slice (``waiting.WAIT_SLICE``) to check its job: it also runs what was
posted here (``input()`` asking the question), and the answer goes back to the bridge loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class MainInbox:
    """Callables posted from the bridge loop, run by the main thread between wait slices."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], concurrent.futures.Future[Any]]]
        self._queue = queue.SimpleQueue()

    def post(self, fn: Callable[[], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._queue.put((fn, future))
        return future

    def run_pending(self) -> None:
        """Run what was posted (main thread, between slices); a KeyboardInterrupt while one
        runs cancels it and goes on up, ending the wait like any interrupt."""
        while True:
            try:
                fn, future = self._queue.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn()
            except BaseException as error:
                future.set_exception(error if isinstance(error, Exception) else RuntimeError(error))
                if not isinstance(error, Exception):
                    raise
            else:
                future.set_result(result)

    def cancel_pending(self) -> None:
        """The main thread stops waiting: what it did not start is cancelled."""
        while True:
            try:
                _, future = self._queue.get_nowait()
            except queue.Empty:
                return
            future.cancel()


async def await_inbox(future: concurrent.futures.Future[T], timeout: float) -> T:
    """The posted work's result, on the bridge loop; TimeoutError when the main thread did not
    answer within ``timeout`` or stopped waiting before running it."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
    except asyncio.TimeoutError:
        future.cancel()
        raise TimeoutError from None
    except asyncio.CancelledError:
        if future.cancelled():
            raise TimeoutError from None
        with contextlib.suppress(Exception):
            future.cancel()
        raise
