"""The History tab's words: counts that tell a cancel from a failure, columns under names."""

from __future__ import annotations

from workbench.history import History
from workbench.tools import ErrorKind, Observation
from workbench.widgets.history_view import HEADER, HistoryView, call_label, summary


def three_calls() -> History:
    """newcomer-3's History: one ok call, one refused, one cancelled."""
    history = History()
    history.record("demo.add", "demo", {"a": 1}, Observation.from_text("2", duration=0.0251))
    refused = Observation.error(ErrorKind.INVALID_ARGUMENTS, "b: required", duration=0.0)
    history.record("demo.create_event", "demo", {}, refused)
    cancelled = Observation.error(ErrorKind.CANCELLED, "Cancelled.", duration=3.63)
    history.record("demo.slow_count", "demo", {"seconds": 9}, cancelled)
    return history


def test_a_cancelled_call_is_counted_apart_from_the_failed_ones() -> None:
    calls = three_calls().last()
    assert summary(calls, len(calls)) == "3 calls in this kernel: 1 failed, 1 cancelled"
    assert summary(calls[:1], 1) == "1 call in this kernel"
    assert summary(calls[2:], 1) == "1 call in this kernel: 1 cancelled"
    assert summary([], 0) == "No calls yet."


def test_each_column_sits_under_its_name() -> None:
    history = three_calls()
    view = HistoryView(history)
    try:
        assert "tool" in view.columns.value and "duration" in view.columns.value
        add, refused, slow = (call_label(call) for call in history.last())
        tool, status = HEADER.index("tool"), HEADER.index("status")
        assert add[tool:].startswith("demo.add ") and slow[tool:].startswith("demo.slow_count ")
        assert add[status:].startswith("ok ") and slow[status:].startswith("cancelled ")
        end = HEADER.index("duration") + len("duration")  # durations end where their name does
        assert add[:end].endswith(" 25.1 ms") and slow[:end].endswith(" 3.63 s")
        assert refused[:end].endswith(" –")  # refused before it ran: no "0.0 ms"
    finally:
        view.close()
