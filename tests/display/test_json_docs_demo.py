"""Every JSON document the views write for the extension, built from a real Workbench (the
in-process demo server, a loaded workspace and its events), matches its JSON Schema
(workbench/display/schemas/): the contract the extension's generated TypeScript types read."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from workbench.display import (
    ActionView,
    HistoryTable,
    ObservationView,
    ProgressView,
    SearchTable,
    ServerTable,
    ToolCard,
    ToolTable,
)
from workbench.display.events import EventTable
from workbench.display.listings import PromptTable, ResourceTable, TemplateTable
from workbench.display.mime import OBSERVATION_MIME, PROGRESS_MIME, TABLE_MIME, Displayable
from workbench.display.schemas import mime_types, validator_for_mime
from workbench.display.workspace import WorkspaceTable
from workbench.session import Workbench
from workbench.tools.schema import Observation

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "workspace"


def documents(view: Any) -> dict[str, Any]:
    """The workbench documents of a view's bundle, by mime type."""
    bundle = view._repr_mimebundle_()
    return {mime: doc for mime, doc in bundle.items() if mime in mime_types()}


def assert_valid(view: Any, mime: str | None = None) -> dict[str, Any]:
    """The bundle holds a workbench document (under ``mime`` when given) and every one
    matches its schema, each error said with where it is; the (first) document."""
    found = documents(view)
    assert found, f"no workbench document in {type(view).__name__}'s bundle"
    if mime is not None:
        assert set(found) == {mime}
    for kind, doc in found.items():
        errors = [
            f"{e.instance_path}: {e.message}" for e in validator_for_mime(kind).iter_errors(doc)
        ]
        assert not errors, f"{type(view).__name__} ({kind}): {errors}"
    return next(iter(found.values()))


@pytest.fixture(scope="module")
def demo() -> Iterator[Workbench]:
    """One Workbench for the module, connected to the demo server."""
    with Workbench() as wb:
        wb.connect("demo")
        yield wb


@pytest.fixture(scope="module")
def report(demo: Workbench, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The demo Workbench with a workspace loaded (tools, event tools, a failed file) and
    one event emitted; what the loading reported."""
    space = tmp_path_factory.mktemp("space") / "space"
    shutil.copytree(FIXTURE, space)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fixture's schema fallback warns, on purpose
        loaded = demo.load_workspace(space)
    order = {"order_id": "o-1", "items": [{"sku": "tea", "quantity": 2}]}
    assert not demo.call("notebook.place_order", order).is_error
    return loaded


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("demo.add", {"a": 2, "b": 40}),
    ("demo.add", {"a": 2, "b": "many"}),  # invalid arguments: never ran
    ("demo.text_stats", {"text": "a b a. " * 50}),  # structured content
    ("demo.draw_chart", {"values": [1, 3, 2], "title": "<b>chart</b>"}),  # an image
    ("demo.fail", {"reason": "on purpose"}),  # a tool error
    ("demo.get_time", {"timezone": "UTC"}),
    ("demo.list_events", {}),
    ("demo.nothing_here", {}),  # not found
]


@pytest.mark.parametrize(
    ("tool_id", "arguments"), CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)]
)
def test_observations_and_actions_of_real_calls(
    demo: Workbench, tool_id: str, arguments: dict[str, Any]
) -> None:
    observation = demo.call(tool_id, arguments)
    doc = assert_valid(ObservationView(observation, tool_id=tool_id), OBSERVATION_MIME)
    assert doc["kind"] == "observation" and doc["toolId"] == tool_id
    assert assert_valid(ActionView(tool_id, arguments))["kind"] == "action"


def test_resource_reads_whole_and_cut(demo: Workbench) -> None:
    for uri in ("demo://guide", "demo://chart.png"):
        read = ObservationView(demo.read_resource(uri), tool_id=uri)
        assert assert_valid(read, OBSERVATION_MIME)["truncated"] is None
    numbers = demo.read_resource("demo://numbers/{n}", n=12)
    assert_valid(ObservationView(numbers, tool_id=numbers.tool_id))
    chart = demo.read_resource("demo://chart.png")
    cut = assert_valid(ObservationView(chart, tool_id="demo://chart.png", max_bytes=2_000))
    assert cut["truncated"] is not None and cut["truncated"]["omittedMedia"] == 1


def test_a_result_cut_to_size_keeps_its_shape(demo: Workbench) -> None:
    guide = demo.read_resource("demo://guide")
    doc = assert_valid(ObservationView(guide, tool_id="demo://guide", max_text=40))
    assert doc["truncated"]["omittedCharacters"] > 0


def test_tool_cards_of_every_tool(demo: Workbench) -> None:
    for entry in demo.registry:
        assert assert_valid(ToolCard(entry))["id"] == entry.id


def test_server_tables_pinged_and_with_hints(demo: Workbench) -> None:
    doc = assert_valid(ServerTable(demo.servers(ping=True), hints=["Warnings were logged."]))
    assert doc["servers"][0]["ping"] is not None
    assert_valid(ServerTable([]))


def test_every_table(demo: Workbench, report: Any) -> None:
    tables: list[Displayable] = [
        ToolTable(demo.registry),
        ToolTable([]),
        HistoryTable(demo.history),
        HistoryTable([]),
        SearchTable(demo.registry.search("add numbers")),
        SearchTable(demo.registry.search("zzzz qqqq")),
        ResourceTable(demo.resources()),
        TemplateTable(demo.resource_templates()),
        PromptTable(demo.prompts()),
        WorkspaceTable(str(report.root), report.rows),
        EventTable(demo.events),
        EventTable([]),
    ]
    views = set()
    for table in tables:
        views.add(assert_valid(table, TABLE_MIME)["view"])
    assert len(views) >= 7


def test_progress_lines_of_a_real_long_call(demo: Workbench) -> None:
    steps: list[tuple[float, float | None, str | None]] = []
    logs: list[Any] = []
    demo.call(
        "demo.slow_count",
        {"seconds": 0.2, "steps": 3},
        on_progress=lambda done, total, message: steps.append((done, total, message)),
    )
    demo.call("demo.log_demo", {"message": "careful", "level": "warning"}, on_log=logs.append)
    assert steps and logs
    lines = tuple((record.level, record.server, str(record.data)) for record in logs)
    done, total, message = steps[-1]
    views = [
        ProgressView("demo.slow_count", *steps[0]),
        ProgressView("demo.slow_count", done, total, message, lines, elapsed=0.25),
        ProgressView("demo.slow_count", done, None, None, cancelled=True, elapsed=1.0),
        ProgressView("demo.log_demo", logs=lines),
    ]
    for view in views:
        assert assert_valid(view, PROGRESS_MIME)["kind"] == "progress"
    assert ProgressView("demo.slow_count").to_json() is None  # nothing reported: no document


def test_an_observation_made_by_hand_is_checked_as_strictly(demo: Workbench) -> None:
    """The schema is not only as loose as what the demo sends: a view given an
    Observation with odd parts still writes a valid document."""
    odd = Observation.model_validate(
        {
            "content": [{"type": "text", "text": "\x1b[31mred\x1b[0m"}],
            "structuredContent": {"nested": {"list": [1, None, "x"]}},
            "isError": True,
            "errorMessage": "x" * 5_000,
        }
    )
    assert_valid(ObservationView(odd))
