"""One asyncio event loop, in a daemon thread, that owns every MCP client.

Why a thread: a Jupyter kernel already runs a loop in its main thread, cells may be synchronous
(plain code, widget callbacks) or asynchronous (top-level ``await``), and an MCP session works
only on the loop it was entered on. So every client lives on the bridge's loop, and callers either
block on it (:meth:`Bridge.run`) or await it from their own loop (:meth:`Bridge.arun`). Nothing
here runs the caller's loop (no ``run_until_complete``), so the bridge behaves the same in plain
scripts, in sync and async cells, and with or without ``nest_asyncio``/``nest-asyncio2``.

This is the only module in the workbench that creates, runs or touches an event loop, and the
only one that starts threads (:func:`start_daemon_thread` for background work such as warm-ups).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import contextvars
import functools
import gc
import logging
import re
import signal
import sys
import threading
import time
import warnings
import weakref
from asyncio.mixins import _LoopBoundMixin
from collections.abc import Callable, Coroutine, Iterator
from types import FrameType
from typing import Any, Generic, TypeVar

from workbench.errors import BridgeError

__all__ = [
    "Bridge",
    "BridgeError",
    "bound_to_another_loop",
    "loop_patched_by_nest_asyncio",
    "run_in_notebook",
    "start_daemon_thread",
]

T = TypeVar("T")

_log = logging.getLogger(__name__)

# A SIGINT may be delivered to any thread; the main thread acts on it only when it wakes up.
# Waiting in short slices (sync and async alike) bounds how late a kernel interrupt lands.
_WAIT_SLICE = 0.1
# After a timeout, how long to wait for the cancelled task to unwind before raising.
_CANCEL_GRACE = 1.0
_ATEXIT_TIMEOUT = 2.0
# How long an async notebook tool waits for the kernel's loop to take it when the loop is busy
# with something other than a wait on the bridge (then a worker thread runs it), and how often
# that wait looks whether the main thread has started blocking on the bridge meanwhile.
_HOST_CLAIM_WAIT = 0.25
_HOST_POLL = 0.01
# What asyncio says when an object or future of one loop is used from another.
_OTHER_LOOP = re.compile(r"(bound to|attached to|belongs to) a different (event )?loop")

_STOCK_RUN_UNTIL_COMPLETE = asyncio.BaseEventLoop.run_until_complete

# nest_asyncio and nest-asyncio2 patch the *class* of the loop they are applied to, which is
# the class of every default loop - including one already running in another thread. A subclass
# that pins asyncio's own methods keeps the bridge loop stock and non-reentrant either way.
if sys.platform == "win32":  # pragma: no cover - the proactor overrides run_forever itself

    class _BridgeLoop(asyncio.ProactorEventLoop):
        """The bridge's loop: asyncio's, immune to nest_asyncio's class patch."""

        host: _Host | None = None

    _PINNED: tuple[str, ...] = ("run_until_complete", "_run_once", "_check_running")
else:

    class _BridgeLoop(asyncio.SelectorEventLoop):
        """The bridge's loop: asyncio's, immune to nest_asyncio's class patch."""

        host: _Host | None = None

    _PINNED = ("run_forever", "run_until_complete", "_run_once", "_check_running")

for _name in _PINNED:
    if hasattr(asyncio.BaseEventLoop, _name):
        setattr(_BridgeLoop, _name, getattr(asyncio.BaseEventLoop, _name))


class _Escaped(Exception):
    """Carries KeyboardInterrupt/SystemExit out of a bridged coroutine.

    Raised raw inside a task they would propagate out of ``run_forever`` and kill the bridge.
    """

    def __init__(self, original: BaseException) -> None:
        super().__init__(repr(original))
        self.original = original


async def _guarded(coro: Coroutine[Any, Any, T]) -> T:
    try:
        return await coro
    except (KeyboardInterrupt, SystemExit) as exc:
        raise _Escaped(exc) from exc


def _create_task(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], ctx: contextvars.Context
) -> asyncio.Task[T]:
    """Create the task in the caller's context (``create_task(context=)`` is 3.11+)."""
    if sys.version_info >= (3, 11):
        return loop.create_task(coro, context=ctx)
    return ctx.run(loop.create_task, coro)  # pragma: no cover - Python 3.10


class _BridgedFuture(concurrent.futures.Future[T]):
    """The future of a submitted call: every way of waiting on it can be interrupted.

    ``result()`` cancels the call when its wait is interrupted (and, in the main thread, a
    SIGINT cancels it even when the kernel's own handler would only queue a callback). Awaited
    through ``asyncio.wrap_future`` it keeps the awaiting loop waking in short slices: an
    ipykernel interrupt lands only when the kernel's loop wakes, and cancelling the awaiting
    task then cancels this future, hence the bridged task.
    """

    _job: _Job[T] | None = None

    def result(self, timeout: float | None = None) -> T:
        job = self._job
        if self.done() or job is None:
            return super().result(timeout)
        try:
            with _cancel_on_sigint() as target, _blocking(job.loop):
                target.job = job
                return super().result(timeout)
        except concurrent.futures.CancelledError:
            if job.interrupted:
                raise KeyboardInterrupt from None
            raise
        except (concurrent.futures.TimeoutError, TimeoutError):
            raise  # the caller may wait again
        except BaseException:
            self.cancel()
            raise

    def add_done_callback(self, fn: Callable[[concurrent.futures.Future[T]], object]) -> None:
        super().add_done_callback(fn)
        if self.done():
            return
        with contextlib.suppress(RuntimeError):  # not called from a running loop
            _keep_waking(asyncio.get_running_loop(), self)


def _keep_waking(loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any]) -> None:
    """Wake ``loop`` every slice until ``future`` is done (see :class:`_BridgedFuture`)."""

    def tick() -> None:
        if not future.done() and not loop.is_closed():
            loop.call_later(_WAIT_SLICE, tick)

    loop.call_later(_WAIT_SLICE, tick)


class _Job(Generic[T]):
    """One submitted coroutine: its bridge task (once started) and a thread-safe future.

    Settling the future happens on the bridge thread only, exactly once.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, T],
        forget: Callable[[_Job[Any]], None],
    ) -> None:
        self.loop = loop
        self.coro: Coroutine[Any, Any, T] | None = coro  # until started, so it can be closed
        self.task: asyncio.Task[T] | None = None
        self.future: _BridgedFuture[T] = _BridgedFuture()
        self.future._job = self
        self.done = threading.Event()
        self.cancel_requested = False
        self.interrupted = False  # set by the chained SIGINT handler
        self._settled = False
        self._forget = forget
        self.future.add_done_callback(self._on_future_done)

    def start(self, ctx: contextvars.Context) -> None:
        """On the bridge loop: wrap the coroutine in a task running in ``ctx``."""
        coro, self.coro = self.coro, None
        if coro is None or self._settled:
            return
        if self.cancel_requested or self.future.cancelled():
            coro.close()
            self._settle_cancelled()
            return
        wrapped = _guarded(coro)
        try:
            task = _create_task(self.loop, wrapped, ctx)
        except BaseException as exc:
            wrapped.close()
            coro.close()
            self._settled = True
            if self.future.set_running_or_notify_cancel():
                self.future.set_exception(exc)
            return
        self.task = task
        task.add_done_callback(self._settle)

    def cancel(self) -> None:
        """Ask the bridge loop to cancel the task; safe from any thread and signal handlers."""
        self.cancel_requested = True
        with contextlib.suppress(RuntimeError):  # loop closed: its finalizer settled every job
            self.loop.call_soon_threadsafe(self._cancel_task)

    def abandon(self) -> None:
        """The loop is gone: close a never-started coroutine and release every waiter."""
        coro, self.coro = self.coro, None
        if coro is not None:
            coro.close()
        self._settle_cancelled()

    def _cancel_task(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _settle(self, task: asyncio.Task[T]) -> None:
        if self._settled:
            return
        if task.cancelled():
            self._settle_cancelled()
            return
        self._settled = True
        if not self.future.set_running_or_notify_cancel():
            return  # cancelled through submit()'s future meanwhile
        exc = task.exception()
        if exc is None:
            self.future.set_result(task.result())
        else:
            self.future.set_exception(exc.original if isinstance(exc, _Escaped) else exc)

    def _settle_cancelled(self) -> None:
        if self._settled:
            return
        self._settled = True
        self.future.cancel()
        # Moves CANCELLED to CANCELLED_AND_NOTIFIED so concurrent.futures.wait() callers wake.
        self.future.set_running_or_notify_cancel()

    def _on_future_done(self, future: concurrent.futures.Future[T]) -> None:
        self.done.set()
        if future.cancelled() and not self._settled:
            self.cancel()  # a submit() caller cancelled the future: stop the task too
        self._forget(self)


def _timeout_error(timeout: float | None) -> TimeoutError:
    return TimeoutError(f"The bridged call did not finish within {timeout:g} s and was cancelled.")


def _block_until(event: threading.Event, seconds: float) -> bool:
    """``event.wait(seconds)`` in short slices, so signals reach the main thread promptly."""
    deadline = time.monotonic() + seconds
    while not event.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        event.wait(min(_WAIT_SLICE, left))
    return True


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class _SigintTarget:
    """The job a chained SIGINT handler cancels, set as soon as the job exists."""

    job: _Job[Any] | None = None


@contextlib.contextmanager
def _cancel_on_sigint() -> Iterator[_SigintTarget]:
    """While the main thread blocks on the bridge, make SIGINT cancel the bridged task first.

    Inside an async cell this wait blocks the kernel loop, so ipykernel's own handler - which
    only queues a callback on that loop - would take effect only after the call ends. The
    previous handler still runs, right after the cancel. Installed before the job is submitted,
    so no interrupt slips between the two.
    """
    target = _SigintTarget()
    previous = signal.getsignal(signal.SIGINT)
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
            signal.signal(signal.SIGINT, handler)
            installed = handler
    try:
        yield target
    finally:
        if installed is not None and signal.getsignal(signal.SIGINT) is installed:
            signal.signal(signal.SIGINT, previous)


class _Host:
    """The kernel's loop (the one running in the main thread) and whether the main thread is
    blocked waiting on the bridge, which leaves that loop unable to run anything."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.blocked = 0  # changed by the main thread only

    def learn(self) -> None:
        """Note the loop running in the main thread, if this is it."""
        if threading.current_thread() is not threading.main_thread():
            return
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            if not isinstance(loop, _BridgeLoop):
                self.loop = loop

    @contextlib.contextmanager
    def blocking(self) -> Iterator[None]:
        """Mark the main thread as blocked on the bridge for the duration."""
        main = threading.current_thread() is threading.main_thread()
        if main:
            self.blocked += 1
        try:
            yield
        finally:
            if main:
                self.blocked -= 1

    def free_loop(self) -> asyncio.AbstractEventLoop | None:
        """The kernel's loop if it is running and not blocked on the bridge."""
        loop = self.loop
        if loop is None or self.blocked or loop.is_closed() or not loop.is_running():
            return None
        return loop


def _blocking(loop: asyncio.AbstractEventLoop) -> contextlib.AbstractContextManager[None]:
    host = getattr(loop, "host", None)
    return host.blocking() if isinstance(host, _Host) else contextlib.nullcontext()


class _Handoff(Generic[T]):
    """An async notebook tool offered to the kernel's loop: whoever claims it first runs it,
    the kernel's loop or (when that loop does not take it) a worker thread."""

    def __init__(self, make: Callable[[], Coroutine[Any, Any, T]], ctx: contextvars.Context):
        self._make = make
        self._ctx = ctx
        self._lock = threading.Lock()
        self._owner = ""
        self._claimed = threading.Event()
        self._waiter: asyncio.Future[None] | None = None  # on the bridge loop: woken at claim
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[T] | None = None
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def claim(self, who: str) -> bool:
        with self._lock:
            if self._owner:
                return False
            self._owner = who
            return True

    async def offer(self, loop: asyncio.AbstractEventLoop, host: _Host) -> bool:
        """True once the kernel's loop has taken the tool; False when the caller runs it."""
        self._loop = loop
        waiter = self._waiter = asyncio.get_running_loop().create_future()
        try:
            loop.call_soon_threadsafe(self._start)
        except RuntimeError:  # closed meanwhile
            return not self.claim("worker")
        deadline = time.monotonic() + _HOST_CLAIM_WAIT
        while not self._claimed.is_set():
            if host.blocked or time.monotonic() >= deadline:
                return not self.claim("worker")
            await asyncio.wait((waiter,), timeout=_HOST_POLL)
        return True

    async def result(self) -> T:
        """Await the tool on the kernel's loop; cancelling this cancels it there."""
        try:
            return await asyncio.wrap_future(self.future)
        except BaseException:
            if self._loop is not None:
                with contextlib.suppress(RuntimeError):
                    self._loop.call_soon_threadsafe(self._cancel)
            raise

    def _start(self) -> None:
        if self._loop is None or not self.claim("host"):
            return
        self._claimed.set()
        waiter = self._waiter
        if waiter is not None:
            with contextlib.suppress(RuntimeError):  # the bridge loop is closed
                waiter.get_loop().call_soon_threadsafe(_resolve, waiter)
        try:
            self._task = _create_task(self._loop, self._make(), self._ctx)
        except BaseException as exc:
            _settle_future(self.future, None, exc)
            return
        self._task.add_done_callback(self._copy)

    def _copy(self, task: asyncio.Task[T]) -> None:
        if task.cancelled():
            _settle_future(self.future, None, asyncio.CancelledError())
        else:
            exc = task.exception()
            _settle_future(self.future, None if exc is not None else task.result(), exc)

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _settle_future(
    future: concurrent.futures.Future[T], result: T | None, exc: BaseException | None
) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):  # cancelled meanwhile
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(result)  # type: ignore[arg-type]


class _Worker(Generic[T]):
    """An async notebook tool run on a thread of its own with a loop of its own."""

    def __init__(self, make: Callable[[], Coroutine[Any, Any, T]], ctx: contextvars.Context):
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task[T] | None = None
        threading.Thread(
            target=self._main, args=(make, ctx), name="workbench-notebook-tool", daemon=True
        ).start()

    async def result(self) -> T:
        try:
            return await asyncio.wrap_future(self.future)
        except BaseException:
            with contextlib.suppress(RuntimeError):  # finished and closed
                self._loop.call_soon_threadsafe(self._cancel)
            raise

    def _main(self, make: Callable[[], Coroutine[Any, Any, T]], ctx: contextvars.Context) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        result: T | None = None
        error: BaseException | None = None
        try:
            task = self._task = _create_task(loop, make(), ctx)
            loop.run_until_complete(asyncio.wait((task,)))
            if task.cancelled():
                error = asyncio.CancelledError()
            else:
                error = task.exception()
                result = None if error is not None else task.result()
        except BaseException as exc:
            error = exc
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            asyncio.set_event_loop(None)
            _unbind(loop)  # before the caller hears back: it may use them at once
            loop.close()
            _settle_future(self.future, result, error)

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _unbind(loop: asyncio.AbstractEventLoop) -> None:
    """Release the asyncio objects (queues, events, locks) a displaced tool bound to its
    throwaway loop by waiting on them first - say a queue made in a cell - so the kernel's
    loop can use them afterwards instead of meeting "bound to a different event loop"."""
    for referrer in gc.get_referrers(loop):
        # Python 3.10 keeps attributes in a dict; later versions refer from the object.
        owners = gc.get_referrers(referrer) if isinstance(referrer, dict) else [referrer]
        for owner in owners:
            if isinstance(owner, _LoopBoundMixin) and getattr(owner, "_loop", None) is loop:
                owner._loop = None  # type: ignore[attr-defined]


async def run_in_notebook(make: Callable[[], Coroutine[Any, Any, T]]) -> tuple[T, bool]:
    """Run an async notebook tool where the notebook's objects live; ``(result, displaced)``.

    On the bridge loop a tool that blocks would stall every server's calls and timeouts, and
    the kernel's asyncio objects would wake it late or not at all. So the kernel's loop runs
    it whenever that loop is free (awaited calls, widget calls); while the main thread is
    blocked on the bridge (a sync call) - or the loop does not take it within 0.25 s - a
    worker thread with its own loop does, and ``displaced`` is True. Elsewhere than on a
    bridge loop (a server served by another loop), the current loop awaits it.
    """
    loop = asyncio.get_running_loop()
    host = getattr(loop, "host", None)
    if not isinstance(host, _Host):
        return await make(), False
    ctx = contextvars.copy_context()
    kernel_loop = host.free_loop()
    if kernel_loop is not None:
        handoff = _Handoff(make, ctx)
        if await handoff.offer(kernel_loop, host):
            return await handoff.result(), False
    return await _Worker(make, ctx).result(), True


def bound_to_another_loop(message: str) -> bool:
    """Whether an error message is asyncio's for an object or future of another loop."""
    return _OTHER_LOOP.search(message) is not None


class Bridge:
    """An event loop in a daemon thread that owns every MCP client.

    It starts lazily, on first use. Callers in any thread block with :meth:`run`, await from
    their own loop with :meth:`arun`, or fire and track with :meth:`submit`. Coroutines run with
    a copy of the caller's contextvars, so in a kernel their ``print()`` lands in the calling cell.
    """

    def __init__(self, *, name: str = "workbench-bridge") -> None:
        self._name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._close_deadline: float | None = None
        self._jobs: set[_Job[Any]] = set()
        self._host = _Host()
        self._host.learn()  # made in a cell: the kernel's loop is running
        # Registered now, not at first use: atexit runs hooks last-in first-out, so cleanup
        # that still needs the bridge (closing clients) must be registered after creating it.
        self._atexit = functools.partial(_close_at_exit, weakref.ref(self))
        atexit.register(self._atexit)

    def __repr__(self) -> str:
        state = "closed" if self._closed else "running" if self._loop is not None else "idle"
        return f"<Bridge {self._name!r} {state}>"

    def __enter__(self) -> Bridge:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The bridge's event loop, starting its thread if needed; BridgeError once closed."""
        with self._lock:
            return self._started_loop()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (or the loop died); the bridge cannot restart."""
        return self._closed

    def in_bridge_thread(self) -> bool:
        """True when called from the bridge's own thread, where blocking would deadlock."""
        thread = self._thread
        return thread is not None and threading.current_thread() is thread

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the bridge and block this thread until it finishes.

        Safe inside a running loop (a sync call inside an async cell just blocks that loop for
        the duration). Any exception while waiting - KeyboardInterrupt included - cancels the
        bridged task; ``timeout`` cancels it and raises :class:`TimeoutError`.
        """
        if self.in_bridge_thread():
            coro.close()
            raise BridgeError(
                "Bridge.run() was called on the bridge's own thread, where blocking would "
                "deadlock; await the coroutine there instead."
            )
        target = None
        try:
            with _cancel_on_sigint() as target, self._host.blocking():
                return self._wait(self._submit(coro, target), timeout)
        except BaseException:
            if target is not None and target.job is not None:
                target.job.cancel()
            raise

    async def arun(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Await ``coro`` on the bridge from another loop without blocking that loop.

        Waits in short slices so the caller's loop wakes regularly: in ipykernel an interrupt
        during an async cell is acted on only when the kernel loop wakes. Cancelling the awaiting
        task (or any other exception here) cancels the bridged task.
        """
        try:
            caller = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            raise
        job = self._submit(coro)
        waiter: asyncio.Future[None] = caller.create_future()

        def wake(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the caller's loop is closed
                caller.call_soon_threadsafe(_resolve, waiter)

        # The plain callback: this loop already wakes every slice below.
        concurrent.futures.Future.add_done_callback(job.future, wake)
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while not job.future.done():
                slice_ = _WAIT_SLICE
                if deadline is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        job.cancel()
                        await asyncio.wait((waiter,), timeout=_CANCEL_GRACE)
                        raise _timeout_error(timeout)
                    slice_ = min(slice_, left)
                await asyncio.wait((waiter,), timeout=slice_)
        except BaseException:
            job.cancel()
            raise
        return self._outcome(job)

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coro`` on the bridge and return at once; cancelling the future cancels it."""
        return self._submit(coro).future

    def call_soon(self, fn: Callable[..., object], *args: Any) -> None:
        """Schedule a plain callback on the bridge loop from any thread, in the caller's context."""
        ctx = contextvars.copy_context()
        with self._lock:
            loop = self._started_loop()
            try:
                loop.call_soon_threadsafe(fn, *args, context=ctx)
            except RuntimeError as exc:
                raise BridgeError("The bridge's event loop has stopped.") from exc

    def close(self, timeout: float = 5.0) -> None:
        """Cancel pending tasks, stop the loop and join the thread. Idempotent.

        Afterwards :meth:`run`, :meth:`arun` and :meth:`submit` raise :class:`BridgeError`.
        """
        with self._lock:
            already = self._closed
            self._closed = True
            loop, thread = self._loop, self._thread
            if not already:
                self._close_deadline = time.monotonic() + timeout
        atexit.unregister(self._atexit)
        if loop is None or thread is None:
            return
        if not already:
            with contextlib.suppress(RuntimeError):  # the loop died on its own
                loop.call_soon_threadsafe(loop.stop)
        if thread is threading.current_thread():
            return  # the thread finishes once the current callback returns
        thread.join(timeout + 0.5)
        if thread.is_alive():
            _log.warning("Bridge thread %r did not stop within %.1f s.", self._name, timeout)

    # -- internals ---------------------------------------------------------------------------

    def _started_loop(self) -> asyncio.AbstractEventLoop:
        """The running loop, starting the thread on first use. Call with the lock held."""
        if self._closed:
            raise BridgeError("This bridge is closed; create a new Bridge.")
        if self._loop is None:
            loop = _BridgeLoop()
            loop.host = self._host
            ready = threading.Event()
            thread = threading.Thread(
                target=self._main, args=(loop, ready), name=self._name, daemon=True
            )
            self._loop, self._thread = loop, thread
            thread.start()
            ready.wait()
        return self._loop

    def _submit(self, coro: Coroutine[Any, Any, T], target: _SigintTarget | None = None) -> _Job[T]:
        if not asyncio.iscoroutine(coro):
            raise TypeError(f"The bridge runs coroutine objects, not {type(coro).__name__}.")
        ctx = contextvars.copy_context()
        self._host.learn()
        with self._lock:
            try:
                loop = self._started_loop()
            except BaseException:
                coro.close()
                raise
            job = _Job(loop, coro, self._forget)
            if target is not None:
                target.job = job
            try:
                loop.call_soon_threadsafe(job.start, ctx)
            except RuntimeError as exc:
                coro.close()
                raise BridgeError("The bridge's event loop has stopped.") from exc
            if not job.done.is_set():
                self._jobs.add(job)
        return job

    def _forget(self, job: _Job[Any]) -> None:
        with self._lock:
            self._jobs.discard(job)

    def _wait(self, job: _Job[T], timeout: float | None) -> T:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not job.done.is_set():
            if deadline is None:
                job.done.wait(_WAIT_SLICE)
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                job.cancel()
                _block_until(job.done, _CANCEL_GRACE)
                raise _timeout_error(timeout)
            job.done.wait(min(_WAIT_SLICE, left))
        return self._outcome(job)

    def _outcome(self, job: _Job[T]) -> T:
        future = job.future
        if future.cancelled():
            if job.interrupted:
                raise KeyboardInterrupt
            if self._closed:
                raise BridgeError("The bridge was closed while a call was waiting on it.")
            raise BridgeError("The bridged coroutine was cancelled on the bridge loop.")
        if job.interrupted:
            exc = future.exception()
            if exc is not None:
                raise KeyboardInterrupt from exc
        return future.result()

    def _main(self, loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        """The bridge thread: run the loop until stopped, then tidy up and close it."""
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
        finally:
            ready.set()
            self._closed = True
            try:
                self._drain(loop)
            except BaseException:
                _log.exception("Error while shutting down the bridge loop.")
            finally:
                asyncio.set_event_loop(None)
                loop.close()
                with self._lock:
                    jobs = list(self._jobs)
                for job in jobs:
                    job.abandon()

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """Cancel what is left and wait for it, within the close() deadline."""
        deadline = self._close_deadline or time.monotonic() + 5.0

        def left() -> float:
            return max(deadline - time.monotonic(), 0.01)

        tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            loop.run_until_complete(asyncio.wait(tasks, timeout=left()))
            stuck = [task for task in tasks if not task.done()]
            if stuck:
                _log.warning("%d bridge task(s) ignored cancellation: %r", len(stuck), stuck)
        loop.run_until_complete(loop.shutdown_asyncgens())
        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
            loop.run_until_complete(asyncio.wait_for(loop.shutdown_default_executor(), left()))


def _close_at_exit(ref: weakref.ReferenceType[Bridge]) -> None:
    bridge = ref()
    if bridge is not None:
        bridge.close(timeout=_ATEXIT_TIMEOUT)


def start_daemon_thread(fn: Callable[..., object], *args: Any, name: str) -> threading.Thread:
    """Run ``fn(*args)`` in a new daemon thread and return it at once.

    For background work nobody waits for (importing a slow module ahead of its first use):
    a daemon thread never holds up the interpreter's exit, unlike an executor's workers.
    """
    thread = threading.Thread(target=fn, args=args, name=name, daemon=True)
    thread.start()
    return thread


def loop_patched_by_nest_asyncio(loop: asyncio.AbstractEventLoop | None = None) -> bool:
    """Whether ``nest_asyncio`` or ``nest-asyncio2`` made ``loop`` reentrant.

    By default checks the loop running in this thread, else this thread's current loop (never
    creating one). Worth knowing: the patch swaps the class's scheduler for a slower reentrant
    one and makes new tasks pure-Python. The bridge's own loop is pinned and reports False.
    """
    if loop is None:
        loop = _current_loop()
        if loop is None:
            return False
    if not getattr(loop, "_nest_patched", False):
        return False
    return getattr(type(loop), "run_until_complete", None) is not _STOCK_RUN_UNTIL_COMPLETE


def _current_loop() -> asyncio.AbstractEventLoop | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.get_running_loop()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        policy = asyncio.get_event_loop_policy()
    # Read the policy's current loop without get_event_loop(), which would create one.
    loop = getattr(getattr(policy, "_local", None), "_loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) else None
