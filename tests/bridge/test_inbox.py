"""Work for a main thread blocked on the bridge (workbench/bridge/inbox.py): the inbox
itself, and ``Bridge.run_in_main_thread`` with the test's main thread blocked in
``Bridge.run``, as a sync call blocks a kernel's main thread while a server asks a question."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from workbench.bridge import Bridge
from workbench.bridge.inbox import MainInbox


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    with Bridge(name="inbox-bridge") as b:
        yield b


def test_main_thread_runs_pytest_tests() -> None:
    """What the bridge tests below rely on: pytest runs them in the main thread."""
    assert threading.current_thread() is threading.main_thread()


# -- MainInbox ------------------------------------------------------------------------------


def test_posted_work_waits_until_run_pending_runs_it_in_order() -> None:
    inbox = MainInbox()
    ran: list[str] = []

    def note(name: str, result: int) -> int:
        ran.append(name)
        return result

    first = inbox.post(lambda: note("first", 1))
    second = inbox.post(lambda: note("second", 2))
    assert ran == [] and not first.done()
    inbox.run_pending()
    assert ran == ["first", "second"]
    assert (first.result(0), second.result(0)) == (1, 2)
    inbox.run_pending()  # nothing left: runs nothing again
    assert ran == ["first", "second"]


def test_an_error_goes_to_the_poster_not_the_main_thread() -> None:
    inbox = MainInbox()

    def broken() -> None:
        raise ValueError("bad answer")

    failed = inbox.post(broken)
    after = inbox.post(lambda: "still run")
    inbox.run_pending()
    with pytest.raises(ValueError, match="bad answer"):
        failed.result(0)
    assert after.result(0) == "still run"


def test_an_interrupt_fails_the_work_and_goes_on_up() -> None:
    inbox = MainInbox()

    def interrupted() -> None:
        raise KeyboardInterrupt

    future = inbox.post(interrupted)
    later = inbox.post(lambda: "later")
    with pytest.raises(KeyboardInterrupt):
        inbox.run_pending()
    assert isinstance(future.exception(0), RuntimeError)
    assert not later.done()  # left for the next wait, or cancelled when the wait ends


def test_cancel_pending_cancels_what_did_not_start() -> None:
    inbox = MainInbox()
    ran: list[int] = []
    futures = [inbox.post(functools.partial(ran.append, i)) for i in range(3)]
    inbox.cancel_pending()
    assert all(f.cancelled() for f in futures)
    inbox.run_pending()
    assert ran == []


def test_work_cancelled_by_its_poster_is_skipped() -> None:
    inbox = MainInbox()
    ran: list[str] = []
    gone = inbox.post(lambda: ran.append("gone"))
    kept = inbox.post(lambda: ran.append("kept"))
    gone.cancel()
    inbox.run_pending()
    assert ran == ["kept"] and kept.done()


# -- Bridge.run_in_main_thread --------------------------------------------------------------


def asking(bridge: Bridge, fn: Any, timeout: float) -> Any:
    """A coroutine for the bridge loop that has the main thread run ``fn``, and records
    where the waiting happened."""

    async def ask() -> tuple[Any, threading.Thread]:
        answer = await bridge.run_in_main_thread(fn, timeout)
        return answer, threading.current_thread()

    return ask()


def test_posted_work_runs_in_the_main_thread_blocked_in_run(bridge: Bridge) -> None:
    ran_in: list[threading.Thread] = []

    def question() -> str:
        ran_in.append(threading.current_thread())
        return "typed answer"

    assert not bridge.main_thread_blocked()
    answer, waited_in = bridge.run(asking(bridge, question, timeout=5))
    assert answer == "typed answer"
    assert ran_in == [threading.main_thread()]
    assert waited_in is not threading.main_thread()  # the bridge loop waited for it


def test_the_bridge_knows_when_the_main_thread_is_blocked(bridge: Bridge) -> None:
    async def seen() -> bool:
        return bridge.main_thread_blocked()

    assert bridge.run(seen()) is True
    assert bridge.main_thread_blocked() is False
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # another thread blocking: no
        assert pool.submit(bridge.run, seen()).result(10) is False


def test_timeout_error_at_once_when_the_main_thread_is_not_blocked(bridge: Bridge) -> None:
    """An awaited call leaves the main thread free (its loop shows forms instead): nothing
    is posted, and the asker hears so at once, not after its timeout."""
    ran: list[bool] = []
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        asyncio.run(bridge.arun(asking(bridge, lambda: ran.append(True), timeout=5)))
    assert time.monotonic() - started < 2
    assert ran == []


def test_posted_work_runs_in_the_main_thread_blocked_in_a_future_result(bridge: Bridge) -> None:
    """``wb.submit(...).result()`` in a cell blocks the main thread like ``run``."""
    ran_in: list[threading.Thread] = []

    def question() -> str:
        ran_in.append(threading.current_thread())
        return "typed answer"

    async def once_blocked() -> Any:
        # submit() starts the coroutine at once: on a loaded machine it may ask before this
        # thread is in result(), and a question to a main thread not blocked is refused.
        for _ in range(500):
            if bridge.main_thread_blocked():
                break
            await asyncio.sleep(0.01)
        return await asking(bridge, question, timeout=5)

    future = bridge.submit(once_blocked())
    assert future.result(10)[0] == "typed answer"
    assert ran_in == [threading.main_thread()]


def test_timeout_error_when_another_thread_blocks(bridge: Bridge) -> None:
    """Only the main thread takes questions: a worker thread blocked in run() never runs them."""
    ran: list[bool] = []
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        future = pool.submit(bridge.run, asking(bridge, lambda: ran.append(True), timeout=5))
        with pytest.raises(TimeoutError):
            future.result(10)
    assert ran == []


@pytest.mark.integration
def test_timeout_error_when_the_answer_comes_too_late(bridge: Bridge) -> None:
    def slow() -> str:
        time.sleep(0.6)
        return "too late"

    started = time.monotonic()
    with pytest.raises(TimeoutError):
        bridge.run(asking(bridge, slow, timeout=0.2))
    assert time.monotonic() - started < 3


def test_pending_work_is_cancelled_when_the_wait_ends(bridge: Bridge) -> None:
    """A question posted as the call ends is cancelled: its asker gets TimeoutError (so the
    server's request is declined), and the main thread never runs it later. The main thread
    may also take it in the instant before the call ends (then it ran, once): on a loaded
    machine that can happen, so the case is tried until the cancel is seen."""
    outcomes: list[BaseException | None] = []
    for _attempt in range(20):
        ran: list[bool] = []

        async def call_that_ends_while_asking(ran: list[bool] = ran) -> asyncio.Task[Any]:
            task = asyncio.ensure_future(bridge.run_in_main_thread(lambda: ran.append(True), 5))
            await asyncio.sleep(0)  # the question is posted; the call ends at once
            return task

        task = bridge.run(call_that_ends_while_asking())

        async def outcome(task: asyncio.Task[Any] = task) -> BaseException | None:
            try:
                await task
            except BaseException as error:
                return error
            return None

        ended = bridge.run(outcome())
        outcomes.append(ended)
        bridge.run(asyncio.sleep(0.05))  # the main thread waits again: a stale post would run
        assert ran == ([] if isinstance(ended, TimeoutError) else [True]), (ended, ran)
        if isinstance(ended, TimeoutError):
            break
    assert isinstance(outcomes[-1], TimeoutError), outcomes
    assert bridge.run(asking(bridge, lambda: "next", timeout=5))[0] == "next"
