"""Loading a workspace into a real Workbench: what loads, reloads, conflicts; event tools
called through the one call path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.errors import SchemaFallbackWarning, WorkspaceError
from workbench.events import Event
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "workspace"
TOOL = '''from workbench import tool

@tool
def {name}(text: str) -> str:
    """Echo a text."""
    return text
'''


@pytest.fixture
def space(tmp_path: Path) -> Path:
    root = tmp_path / "space"
    shutil.copytree(FIXTURE, root)
    return root


def load(wb: Workbench, root: Path) -> object:
    with pytest.warns(SchemaFallbackWarning, match="write_audit"):
        return wb.load_workspace(root)


def test_the_fixture_loads_tools_and_event_tools_and_reports_the_rest(
    wb: Workbench, space: Path
) -> None:
    with pytest.warns(SchemaFallbackWarning, match="write_audit"):
        report = wb.load_workspace(space)
    assert report.loaded == [
        "count_words", "reverse_text", "place_order", "cancelOrder", "write_audit"
    ]  # fmt: skip
    rows = {(row.status, row.kind, row.name): row for row in report.rows}
    broken = rows["failed", "file", "tools/broken.py"]
    assert broken.note.startswith(f"{space / 'tools' / 'broken.py'}:6: SyntaxError")
    assert ("skipped", "function", "helper") in rows
    assert rows["skipped", "operation", "refundOrder"].note.startswith("disabled")
    assert "any object is accepted" in rows["loaded", "event tool", "write_audit"].note
    assert wb.tool_owner("place_order") == f"workspace:{space}/events/orders.yaml"
    assert wb.tool_owner("count_words") == f"workspace:{space}/tools/text_tools.py"
    assert wb.call("notebook.count_words", {"text": "a bc"}).structured_content == {
        "words": 2,
        "letters": 3,
    }


def test_an_event_tool_call_emits_and_answers(wb: Workbench, space: Path) -> None:
    load(wb, space)
    seen: list[Event] = []
    wb.events.subscribe(seen.append)
    payload = {"order_id": "o-1", "items": [{"sku": "tea", "quantity": 2}]}
    observation = wb.call("notebook.place_order", payload)
    assert not observation.is_error, observation.error_message
    [event] = list(wb.events)
    assert seen == [event]
    assert event.payload == payload and event.channel == "orders/{orderId}/placed"
    assert event.tool == "place_order" and event.operation == "placeOrder"
    assert observation.structured_content == {
        "event_id": event.id,
        "channel": "orders/{orderId}/placed",
        "time": event.time.isoformat(),
    }
    assert wb.history[-1].tool_id == "notebook.place_order"


def test_an_invalid_payload_is_refused_before_any_event(wb: Workbench, space: Path) -> None:
    load(wb, space)
    observation = wb.call("notebook.place_order", {"order_id": "o-1", "items": []})
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "items: needs at least 1 item" in (observation.error_message or "")
    assert len(wb.events) == 0
    permissive = wb.call("notebook.write_audit", {"anything": [1, 2]})
    assert not permissive.is_error and wb.events[-1].payload == {"anything": [1, 2]}


def test_reloading_replaces_changed_tools_and_drops_removed_ones(
    wb: Workbench, space: Path
) -> None:
    load(wb, space)
    (space / "tools" / "text_tools.py").write_text(TOOL.format(name="echo"))
    (space / "events" / "orders.yaml").unlink()
    report = wb.load_workspace(space)
    assert report.loaded == ["echo"]
    assert set(report.removed) >= {"count_words", "reverse_text", "place_order", "write_audit"}
    assert wb.tool_owner("count_words") is None and wb.tool_owner("place_order") is None
    assert wb.call("notebook.echo", {"text": "hi"}).text == "hi"


def test_a_file_that_now_fails_loses_its_tools(wb: Workbench, space: Path) -> None:
    load(wb, space)
    (space / "tools" / "text_tools.py").write_text("import no_such_module_at_all\n")
    with pytest.warns(SchemaFallbackWarning):
        report = wb.load_workspace(space)
    assert "count_words" in report.removed
    assert any("ModuleNotFoundError" in row.note for row in report.failed)


def test_two_files_with_one_name_conflict_and_the_second_loads_nothing(
    wb: Workbench, tmp_path: Path
) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.py").write_text(TOOL.format(name="echo"))
    (tmp_path / "tools" / "b.py").write_text(TOOL.format(name="echo") + TOOL.format(name="other"))
    report = wb.load_workspace(tmp_path)
    assert report.loaded == ["echo"]
    [failed] = report.failed
    assert failed.source == "tools/b.py"
    assert failed.note == (
        f"the tool 'echo' of workspace:{tmp_path}/tools/b.py is already defined by "
        f"workspace:{tmp_path}/tools/a.py"
    )
    assert wb.tool_owner("other") is None


def test_a_tool_file_and_an_event_document_conflict(wb: Workbench, tmp_path: Path) -> None:
    shutil.copytree(FIXTURE / "events", tmp_path / "events")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.py").write_text(TOOL.format(name="place_order"))
    report = wb.load_workspace(tmp_path)  # the document fails whole: no fallback warning
    assert report.loaded == ["place_order"]
    assert "already defined by" in report.failed[0].note
    assert wb.tool_owner("cancelOrder") is None


def test_a_notebook_tool_is_never_replaced(wb: Workbench, tmp_path: Path) -> None:
    def echo(text: str) -> str:
        """Mine."""
        return text

    wb.add_tools(echo, owner="cell-1")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.py").write_text(TOOL.format(name="echo"))
    report = wb.load_workspace(tmp_path)
    assert report.loaded == []
    assert "already defined by a notebook tool of cell 'cell-1'" in report.failed[0].note
    assert wb.tool_owner("echo") == "cell-1"


def test_a_directory_that_is_no_workspace_is_an_error(wb: Workbench, tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="neither tools/ nor events/"):
        wb.load_workspace(tmp_path)
    with pytest.raises(WorkspaceError, match="not a directory"):
        wb.load_workspace(tmp_path / "missing")
