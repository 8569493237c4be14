"""Where a served task begins: at the call (the default), or where the tool says.

A ``task=True`` tool marked ``@asks_before_task`` asks its questions first and begins its
task later: to a 2026-07-28 client that declared the tasks extension, its questions before
``get_context().begin_task()`` go by ``InputRequiredResult`` rounds (SEP-2322), and the round
that reaches ``begin_task()`` answers with the ``CreateTaskResult`` (SEP-2663); the rest of
the call runs as that task (its questions make it ``input_required``). To any other caller
``begin_task()`` does nothing: the call simply goes on. Plain data and a contextvar: the
served side (``task_rounds.py``) sets the beginner around the call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

MARK = "__workbench_asks_before_task__"

Beginner = Callable[[], None]
"""Begins the task of the call in flight; called from the tool's thread or loop."""
_beginner: ContextVar[Beginner | None] = ContextVar("workbench_task_beginner", default=None)


def asks_before_task(fn: F) -> F:
    """Mark a task tool's function: its task begins at ``get_context().begin_task()``, not
    at the call, so the questions it asks before go to the client as rounds."""
    setattr(fn, MARK, True)
    return fn


def asks_first(definition: object) -> bool:
    """Whether ``definition`` (a notebook tool) is marked ``@asks_before_task``."""
    fn = getattr(definition, "fn", None)
    return bool(getattr(fn, MARK, False))


@contextmanager
def beginning(begin: Beginner) -> Iterator[None]:
    """``begin`` begins the task of the calls made in this context (and what they start)."""
    token = _beginner.set(begin)
    try:
        yield
    finally:
        _beginner.reset(token)


def begin_task() -> bool:
    """Begin the call's task; False when the call runs no deferred task (a plain call, a
    client without the tasks extension, a task already begun): nothing changes then."""
    begin = _beginner.get()
    if begin is None:
        return False
    begin()
    return True
