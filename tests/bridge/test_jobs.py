"""A job's own bookkeeping stays off the caller's loop (issue 29, item 6)."""

from __future__ import annotations

import asyncio

from workbench.bridge import Bridge


def timers(loop: asyncio.AbstractEventLoop) -> int:
    """Timers armed on ``loop`` (asyncio's own list of them)."""
    scheduled: list[object] = loop._scheduled  # type: ignore[attr-defined]
    return len(scheduled)


async def answer() -> int:
    return 42


def test_a_sync_call_from_a_running_loop_leaves_no_timer_on_that_loop() -> None:
    """A sync call inside an async cell: the job's own done-callback must not arm the
    kernel loop's wake-up ticks (a timer per call, each holding the finished call alive
    for a slice); only a caller that awaits the future needs them."""

    async def calls(bridge: Bridge) -> int:
        loop = asyncio.get_running_loop()
        before = timers(loop)
        for _ in range(3):
            assert bridge.run(answer()) == 42
        bridge.submit(answer()).result(timeout=5)
        return timers(loop) - before

    with Bridge() as bridge:
        assert asyncio.run(calls(bridge)) == 0


def test_awaiting_a_submitted_call_still_wakes_the_awaiting_loop() -> None:
    """The waker an awaiting loop needs (asyncio.wrap_future) is still armed."""

    async def awaiting(bridge: Bridge) -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        future = bridge.submit(asyncio.sleep(0.3, 7))
        wrapped = asyncio.wrap_future(future)
        armed = timers(loop)
        return await wrapped, armed

    with Bridge() as bridge:
        result, armed = asyncio.run(awaiting(bridge))
    assert result == 7 and armed >= 1
