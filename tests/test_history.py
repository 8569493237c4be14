"""The call history records every call and exports it."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.history import History
from workbench.tools import ErrorKind, Observation


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
