"""Telling a notebook tool that can never finish from one that is merely slow.

A tool displaced to a worker loop (the kernel's loop is blocked by a sync call) may wait on
something only the kernel's loop would ever provide: an asyncio object made in a cell that a
cell would set, or work it handed to the kernel's loop with ``run_coroutine_threadsafe``.
Both wait until the call's timeout - a silent hang to the person at the notebook. A watchdog
on the worker loop looks for exactly these shapes and nothing vaguer:

- the loop is idle: nothing ready, no I/O watched, no timer but timeouts' own; and
- every task of the tool waits on another task, on an asyncio object's waiter (a Queue,
  Event, Lock, Condition or Semaphore bound to this loop), or on a future of work queued on
  or running on the blocked kernel's loop - at least one on the last two kinds.

Then nothing but another thread could ever wake the tool, and no thread of the notebook
does, so it is stopped with a message that says to ``await`` the call. A tool waiting on a
thread of its own (``asyncio.to_thread``), a socket, a sleep or anything else never matches.
Only CPython's asyncio internals are read, and an unfamiliar shape reads as "not stalled".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
from asyncio.mixins import _LoopBoundMixin
from collections.abc import Iterable
from typing import Any

from workbench.bridge.loops import Host

CHECK_EVERY = 0.1
CHECKS_TO_STOP = 3
"""Consecutive stalled checks before the tool is stopped (about 0.3 s)."""

CELL_OBJECT = (
    "waits on an asyncio object (a Queue, Event or Lock) that only the kernel's event loop "
    "could set, and a synchronous call keeps that loop busy"
)
KERNEL_WORK = (
    "waits on work it handed to the kernel's event loop, which a synchronous call keeps busy"
)

_TIMEOUT_CALLBACKS = {"_release_waiter", "Timeout._on_timeout"}
_WAITER_LISTS = ("_waiters", "_getters", "_putters")


def diagnose(
    loop: asyncio.AbstractEventLoop, host: Host | None, ignore: Iterable[asyncio.Future[Any]]
) -> str | None:
    """Why the tool on ``loop`` can never finish, or None when it may still (the usual)."""
    if not _idle(loop):
        return None
    skip = set(map(id, ignore))
    tasks = [task for task in asyncio.all_tasks(loop) if id(task) not in skip]
    waiters = [getattr(task, "_fut_waiter", None) for task in tasks]
    if not waiters or any(waiter is None for waiter in waiters):
        return None  # a task about to run
    settled_by_tasks = _settled_by(tasks)
    pending = [
        waiter
        for waiter in waiters
        if not _aggregate(waiter) and id(waiter) not in settled_by_tasks
    ]
    chained = [waiter for waiter in pending if _source_of(waiter) is not None]
    if chained:
        kernel = host.loop if host is not None and host.blocked else None
        if kernel is None or not all(_queued_on(kernel, _source_of(w)) for w in chained):
            return None
    plain = [waiter for waiter in pending if _source_of(waiter) is None]
    if plain and not set(map(id, plain)) <= _object_waiters(loop):
        return None
    if plain:
        return CELL_OBJECT
    return KERNEL_WORK if chained else None


def _idle(loop: asyncio.AbstractEventLoop) -> bool:
    ready = getattr(loop, "_ready", None)
    scheduled = getattr(loop, "_scheduled", None)
    selector = getattr(loop, "_selector", None)
    self_pipe = getattr(loop, "_ssock", None)
    if ready is None or scheduled is None or selector is None or self_pipe is None:
        return False
    if ready:
        return False
    for handle in scheduled:
        if not handle.cancelled() and _name_of(handle._callback) not in _TIMEOUT_CALLBACKS:
            return False
    watched = [key.fd for key in selector.get_map().values()]
    return watched == [self_pipe.fileno()]


def _name_of(callback: Any) -> str:
    return str(getattr(getattr(callback, "__func__", callback), "__qualname__", ""))


def _aggregate(waiter: Any) -> bool:
    """Waiting on other tasks (``await task``, ``gather``): judged by those tasks."""
    return isinstance(waiter, asyncio.Task) or type(waiter).__name__ == "_GatheringFuture"


def _settled_by(tasks: Iterable[asyncio.Task[Any]]) -> set[int]:
    """The futures these tasks settle when they end (``wait_for``'s and ``wait``'s waiters):
    waiting on one is waiting on those tasks."""
    found: set[int] = set()
    for task in tasks:
        for callback, _ in getattr(task, "_callbacks", None) or ():
            held = list(getattr(callback, "args", ()))  # a functools.partial
            function = getattr(callback, "func", callback)
            for cell in getattr(function, "__closure__", None) or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    held.append(cell.cell_contents)
            found.update(id(value) for value in held if isinstance(value, asyncio.Future))
    return found


def _source_of(waiter: Any) -> concurrent.futures.Future[Any] | None:
    """The other thread's future an asyncio future was chained to (``wrap_future``)."""
    for callback, _ in getattr(waiter, "_callbacks", None) or ():
        if _name_of(callback).endswith("_call_check_cancel"):
            source: concurrent.futures.Future[Any] | None = _closed_over(
                callback, concurrent.futures.Future
            )
            return source
    return None


def _closed_over(function: Any, kind: type[Any]) -> Any:
    for cell in getattr(function, "__closure__", None) or ():
        with contextlib.suppress(ValueError):  # an empty cell
            if isinstance(cell.cell_contents, kind):
                return cell.cell_contents
    return None


def _queued_on(
    kernel: asyncio.AbstractEventLoop, source: concurrent.futures.Future[Any] | None
) -> bool:
    """Whether ``source`` is the future of work waiting on (or running in) the kernel's loop."""
    if source is None:
        return False
    callbacks: list[Any] = []
    with contextlib.suppress(RuntimeError):  # another thread appended meanwhile
        callbacks = [handle._callback for handle in list(getattr(kernel, "_ready", ()))]
        for task in list(asyncio.all_tasks(kernel)):
            callbacks.extend(callback for callback, _ in getattr(task, "_callbacks", None) or ())
    return any(
        _closed_over(callback, concurrent.futures.Future) is source for callback in callbacks
    )


def _object_waiters(loop: asyncio.AbstractEventLoop) -> set[int]:
    """The futures waiting in the asyncio objects (queues, events, locks) bound to ``loop``."""
    found: set[int] = set()
    for owner in bound_to(loop):
        for name in _WAITER_LISTS:
            found.update(map(id, getattr(owner, name, None) or ()))
    return found


def bound_to(loop: asyncio.AbstractEventLoop) -> list[_LoopBoundMixin]:
    """The asyncio objects (queues, events, locks) bound to ``loop`` by a first wait."""
    bound: list[_LoopBoundMixin] = []
    for referrer in gc.get_referrers(loop):
        # Python 3.10 keeps attributes in a dict; later versions refer from the object.
        owners = gc.get_referrers(referrer) if isinstance(referrer, dict) else [referrer]
        bound.extend(
            owner
            for owner in owners
            if isinstance(owner, _LoopBoundMixin) and getattr(owner, "_loop", None) is loop
        )
    return bound
