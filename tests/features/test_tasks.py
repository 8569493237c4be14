"""Tasks as plain data: both wires read back, what the client keeps, TTLs."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from workbench.features.tasks import PROGRESS_META, TaskRecord, TaskState, now_iso, parse_iso


def test_the_extension_wire_round_trips() -> None:
    state = TaskState(
        "t1", "input_required", now_iso(), now_iso(), 1000, 200, "Sure?",
        input_requests={"k": {"method": "elicitation/create", "params": {}}},
        progress=(1.0, 4.0),
    )  # fmt: skip
    wire = state.to_wire()
    assert wire["inputRequests"] == {"k": {"method": "elicitation/create", "params": {}}}
    assert wire["_meta"][PROGRESS_META] == {"progress": 1.0, "total": 4.0}
    assert "inputRequests" not in state.to_wire(detailed=False)
    assert TaskState.from_wire(wire) == state


def test_a_2025_11_25_create_result_is_read_too() -> None:
    legacy = {"task": {"taskId": "t2", "status": "working", "createdAt": "2025-11-25T10:30:00Z",
                       "ttl": 60000, "pollInterval": 500}}  # fmt: skip
    state = TaskState.from_wire(legacy)
    assert (state.task_id, state.ttl_ms, state.poll_interval_ms) == ("t2", 60000, 500)
    assert state.last_updated_at == "2025-11-25T10:30:00Z"


def test_terminal_states_and_payloads() -> None:
    done = TaskState("t", "completed", "", "", None, result={"content": []})
    assert done.terminal and done.to_wire()["result"] == {"content": []}
    failed = TaskState("t", "failed", "", "", None, error={"code": -32603, "message": "x"})
    assert failed.to_wire()["error"]["code"] == -32603 and "result" not in failed.to_wire()
    assert not TaskState("t", "working", "", "", None).terminal


def test_a_record_keeps_no_more_than_ids_and_times() -> None:
    record = TaskRecord("t", "srv", "srv.tool", now_iso(), 60_000)
    assert set(record.to_json()) == {
        "taskId", "server", "toolId", "createdAt", "ttlMs", "flavor", "status",
    }  # fmt: skip
    assert TaskRecord.from_json(record.to_json()) == record
    assert TaskRecord.from_json({"server": "srv"}) is None


def test_a_record_expires_after_its_ttl() -> None:
    created = datetime(2026, 1, 1, tzinfo=timezone.utc)
    record = TaskRecord("t", "s", "s.t", created.isoformat(), 1000)
    assert not record.expired(created + timedelta(milliseconds=999))
    assert record.expired(created + timedelta(seconds=2))
    assert not TaskRecord("t", "s", "s.t", "not a time", 1).expired()
    assert parse_iso("2026-01-01T00:00:00Z") == created
