"""The call history records every call and exports it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.errors import ListenerWarning
from workbench.history import BUDGET, History
from workbench.tools import ErrorKind, Observation
from workbench.tools.schema import TextContent


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
