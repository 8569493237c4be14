"""The call history records calls (the newest ``limit``, results within ``budget``), exports
them and can be cleared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.errors import ListenerWarning
from workbench.history import BUDGET, LIMIT, History
from workbench.session import Workbench
from workbench.tools import ErrorKind, Observation
from workbench.tools.schema import TextContent
from workbench.widgets.history_view import HistoryView


def test_records_in_order_with_status_and_exports(tmp_path: Path) -> None:
    history = History()
    history.record("s.ok", "s", {"a": 1}, Observation.from_text("fine", duration=0.01))
    history.record("s.bad", "s", {}, Observation.error(ErrorKind.TIMEOUT, "slow"))
    assert [call.id for call in history] == [1, 2]
    assert [call.status for call in history] == ["ok", "timeout"]
    assert history.last(1)[0].tool_id == "s.bad"
    assert history[0].duration == 0.01
    exported = json.loads(history.export(tmp_path / "calls.json").read_text())
    assert exported[0]["arguments"] == {"a": 1}
    assert exported[1]["observation"]["error_kind"] == "timeout"
    assert len(history) == 2


def test_subscribers_hear_each_call_until_they_unsubscribe() -> None:
    history = History()
    heard: list[tuple[int, str]] = []
    unsubscribe = history.subscribe(lambda call: heard.append((call.id, call.status)))
    history.record("demo.add", "demo", {"a": 1}, Observation.from_text("2"))
    history.record("demo.fail", "demo", {}, Observation.error(ErrorKind.TOOL_ERROR, "no"))
    unsubscribe()
    history.record("demo.add", "demo", {"a": 2}, Observation.from_text("3"))
    assert heard == [(1, "ok"), (2, "tool_error")]
    assert len(history) == 3


def test_f19_export_writes_valid_json_and_says_where_numbers_became_null(
    tmp_path: Path,
) -> None:
    history = History()
    history.record(
        "s.add", "s", {"a": float("nan"), "b": [1, float("inf")]}, Observation.from_text("x")
    )
    history.record("s.ok", "s", {"a": 1.5}, Observation.from_text("fine"))
    text = history.export(tmp_path / "calls.json").read_text()
    exported = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the file"))
    assert exported[0]["arguments"] == {"a": None, "b": [1, None]}
    assert exported[0]["note"] == (
        "Numbers JSON cannot hold (NaN, infinities) are written as null: "
        "arguments.a (nan), arguments.b[1] (inf)."
    )
    assert exported[1]["arguments"] == {"a": 1.5} and "note" not in exported[1]


def test_f19_a_raising_subscriber_never_breaks_a_call() -> None:
    history = History()
    history.subscribe(lambda call: 1 / 0)
    with pytest.warns(ListenerWarning, match="ZeroDivisionError"):
        recorded = history.record("s.add", "s", {}, Observation.from_text("3"))
    assert recorded.status == "ok" and list(history) == [recorded]


def test_over_its_budget_the_history_keeps_the_newest_whole_and_summaries_of_the_oldest() -> None:
    history = History(budget=25_000_000)
    for index in range(4):
        big = Observation(
            content=[TextContent(text=f"call {index} " + "x" * 5_000_000)],
            structured_content={"rows": ["y" * 5_000_000]},
        )
        history.record("demo.big", "demo", {"i": index}, big)
    calls = history.last()
    assert [call.trimmed for call in calls] == [True, True, False, False]
    assert history.held <= 25_000_000
    newest = calls[-1].observation
    assert newest.structured_content == {"rows": ["y" * 5_000_000]}
    oldest = calls[0].observation
    assert oldest.structured_content is None and oldest.text.startswith("call 0 xxx")
    assert "[Trimmed:" in oldest.text and len(oldest.text) < 1_000
    assert [call.status for call in calls] == ["ok"] * 4 and calls[0].arguments == {"i": 0}


def test_the_newest_call_stays_whole_even_over_the_budget_and_the_budget_can_change() -> None:
    history = History(budget=10)
    history.record("s.a", "s", {}, Observation.error(ErrorKind.TOOL_ERROR, "e" * 50))
    history.record("s.b", "s", {}, Observation.from_text("b" * 50))
    assert [call.trimmed for call in history] == [True, False]
    assert history[0].status == "tool_error" and history[1].observation.text == "b" * 50
    history.budget = 0
    assert [call.trimmed for call in history] == [True, False]
    assert History().budget == BUDGET


def record(history: History, text: str) -> None:
    history.record("s.t", "s", {"text": text}, Observation.from_text(text))


def test_g19_beyond_its_limit_the_history_drops_the_oldest_calls_first() -> None:
    assert History().limit == LIMIT == 5_000
    history = History(limit=3)
    for index in range(5):
        record(history, f"call {index}")
    assert [call.id for call in history] == [3, 4, 5]  # ids are never reused
    assert [call.observation.text for call in history] == ["call 2", "call 3", "call 4"]
    assert len(history) == 3 and history[0].id == 3 and history[-1].id == 5
    assert history.held == 3 * len("call 0")  # the dropped calls' content is released
    history.limit = 1
    assert [call.id for call in history] == [5]
    with pytest.raises(ValueError, match="at least 1"):
        history.limit = 0


def test_g19_dropping_calls_keeps_the_budget_summaries_right() -> None:
    """The budget's bookkeeping points into the list of calls: dropping the oldest must not
    leave it pointing at the wrong call (a whole one summarised, or a summary counted)."""
    history = History(budget=120, limit=4)
    for index in range(7):
        record(history, f"{index}" * 50)
    calls = history.last()
    assert [call.id for call in calls] == [4, 5, 6, 7]
    assert [call.trimmed for call in calls] == [True, True, False, False]
    assert history.held == 100 and calls[-1].observation.text == "6" * 50
    history.budget = 1_000  # nothing comes back, and nothing more is cut
    record(history, "7" * 50)
    assert [call.trimmed for call in history] == [True, False, False, False]
    assert history.held == 150


def test_g19_clear_empties_the_history_and_numbering_goes_on() -> None:
    history = History()
    for index in range(3):
        record(history, f"call {index}")
    history.clear()
    assert len(history) == 0 and history.last() == [] and history.held == 0
    record(history, "after")
    assert [call.id for call in history] == [4] and not history[0].trimmed


def test_g19_the_workbench_history_is_bounded_and_its_views_follow_calls_by_id() -> None:
    """Nothing outside the history keeps an index into it: the browser's History tab
    selects calls by their id, which eviction never changes."""

    def echo(text: str) -> str:
        """Echo."""
        return text

    with Workbench() as wb:
        wb.add_tools(echo)
        wb.history.limit = 2
        view = HistoryView(wb.history)
        try:
            wb.call("notebook.echo", {"text": "a"})
            view.select(wb.history[-1].id)
            wb.call("notebook.echo", {"text": "b"})
            assert view.selected is not None and view.selected.observation.text == "a"
            wb.call("notebook.echo", {"text": "c"})
            assert [call.observation.text for call in wb.history] == ["b", "c"]
            # Its call was dropped: the list shows what is kept (the newest selected).
            assert view.selected is wb.history[-1]
            wb.history.clear()
            assert list(wb.history) == []
        finally:
            view.close()
