"""``%mcp call``: arguments as key=value (JSON where it parses) or one JSON object, the
Observation as the cell's value, live progress and log lines through CallProgress."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import workbench.display
from workbench.display import OBSERVATION_MIME
from workbench.kernel import KernelState
from workbench.tools.schema import Observation


def last_arguments(state: KernelState) -> dict[str, Any]:
    return state.workbench.history[-1].arguments


def test_call_by_id_returns_the_observation(mcp: Callable[[str], Any], state: KernelState) -> None:
    calls = len(state.workbench.history)
    observation, captured = mcp("call demo.add a=2 b=3.5")
    assert isinstance(observation, Observation)
    assert observation.structured_content == {"result": 5.5}
    assert captured.outputs == []  # shown as the cell's value, not displayed on the side
    assert len(state.workbench.history) == calls + 1
    assert state.workbench.history[-1].tool_id == "demo.add"
    assert last_arguments(state) == {"a": 2, "b": 3.5}


def test_bare_name_and_json_object(mcp: Callable[[str], Any], state: KernelState) -> None:
    observation, _ = mcp('call add {"a": 1, "b": 2} --timeout 10')
    assert observation.structured_content == {"result": 3.0}
    assert state.workbench.history[-1].tool_id == "demo.add"


def test_values_are_json_where_they_parse(mcp: Callable[[str], Any], state: KernelState) -> None:
    observation, _ = mcp("call demo.draw_chart values=[3,1,2] title='A small chart'")
    assert last_arguments(state) == {"values": [3, 1, 2], "title": "A small chart"}
    assert [block.type for block in observation.content] == ["image"]


def test_a_text_parameter_keeps_the_text_as_typed(
    mcp: Callable[[str], Any], state: KernelState
) -> None:
    observation, _ = mcp("call demo.text_stats text=007 top=2")
    assert last_arguments(state) == {"text": "007", "top": 2}
    assert not observation.is_error
    mcp("call demo.get_time timezone=UTC")
    assert last_arguments(state) == {"timezone": "UTC"}
    mcp("call demo.text_stats text=''")
    assert last_arguments(state) == {"text": ""}


def test_unicode_and_very_long_values(mcp: Callable[[str], Any], state: KernelState) -> None:
    text = "héllo wörld ✓ 名前 " * 2_000
    observation, _ = mcp(f"call demo.text_stats text='{text}'")
    assert last_arguments(state) == {"text": text}
    assert observation.structured_content["words"] == 6_000  # "✓" is no word


def test_timeout_gives_a_timeout_observation(mcp: Callable[[str], Any]) -> None:
    observation, _ = mcp("call demo.slow_count seconds=5 --timeout 0.3")
    assert observation.is_error and observation.error_kind.value == "timeout"


def test_value_of_the_cell_and_underscore(ip: InteractiveShell) -> None:
    ip.run_cell("%mcp call demo.add a=20 b=22", store_history=True)
    assert ip.user_ns["_"].structured_content == {"result": 42.0}
    ip.run_cell("obs = %mcp call demo.add a=1 b=1")
    assert ip.user_ns["obs"].structured_content == {"result": 2.0}
    bundle, _ = ip.display_formatter.format(ip.user_ns["obs"])
    assert {"text/plain", "text/html", OBSERVATION_MIME} <= set(bundle)


class Recorder:
    """Stands in for CallProgress: records what the call reported."""

    made: ClassVar[list[Recorder]] = []

    def __init__(self, tool_id: str) -> None:
        self.tool_id = tool_id
        self.progress: list[tuple[float, float | None, str | None]] = []
        self.logs: list[str] = []
        self.finished = False
        self.cancelled = False
        Recorder.made.append(self)

    def on_progress(self, done: float, total: float | None = None, message: str | None = None):  # type: ignore[no-untyped-def]
        self.progress.append((done, total, message))

    def on_log(self, record: Any) -> None:
        self.logs.append(f"{record.server}: {record.message}")

    def finish(self, *, cancelled: bool = False) -> None:
        if not self.finished:
            self.cancelled = cancelled
        self.finished = True


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    Recorder.made.clear()
    monkeypatch.setattr(workbench.display, "CallProgress", Recorder)
    return Recorder


# The demo server silences this deprecation at build time; pytest resets filters per test.
@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
def test_progress_and_logs_reach_the_live_display(
    mcp: Callable[[str], Any], state: KernelState, recorder: type[Recorder]
) -> None:
    mcp("call demo.slow_count seconds=0.2 steps=2")
    mcp("call demo.log_demo message='hello from the demo' level=warning")
    counting, logging = recorder.made
    assert counting.tool_id == "demo.slow_count" and counting.finished
    assert [done for done, _, _ in counting.progress] == [1, 2]
    assert logging.logs == ["demo: hello from the demo"]
    # The display followed that call only: a later call's logs do not reach it.
    state.workbench.call("demo.log_demo", {"message": "later", "level": "warning"})
    assert logging.logs == ["demo: hello from the demo"]


def test_an_interrupted_call_is_a_cancelled_observation_not_a_traceback(
    ip: InteractiveShell,
    state: KernelState,
    recorder: type[Recorder],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Observation:
        raise KeyboardInterrupt

    monkeypatch.setattr(state.workbench, "call", interrupted)
    with capture_output() as captured, pytest.raises(UsageError) as caught:
        ip.run_line_magic("mcp", "call demo.add a=1 b=1")
    # One line, and the cell ends in an error so that a stopped Run All stops.
    assert type(caught.value) is UsageError
    assert str(caught.value) == "Interrupted: demo.add was cancelled on the server."
    [shown] = [output.data for output in captured.outputs]
    document = shown["application/vnd.workbench.observation+json"]
    assert document["errorKind"] == "cancelled" and document["toolId"] == "demo.add"
    assert "demo.add was cancelled after" in document["errorMessage"]
    assert recorder.made[0].finished and recorder.made[0].cancelled


def test_an_unquoted_value_with_a_space_suggests_quotes(mcp: Callable[[str], Any]) -> None:
    with pytest.raises(UsageError) as caught:
        mcp("call demo.text_stats text=hello world")
    assert str(caught.value) == (
        "Expected key=value or one JSON object, got world. A value with spaces needs quotes: "
        'text="hello world"'
    )
    with pytest.raises(UsageError) as caught:
        mcp("call demo.add a=1 b=2 three")
    assert 'b="2 three"' in str(caught.value)


def test_a_placeholder_left_unfilled_is_refused_before_any_call(
    mcp: Callable[[str], Any], state: KernelState
) -> None:
    # newcomer-3 friction 13: the sidebar's cell sent "<source_timezone>" to the server.
    calls = len(state.workbench.history)
    with pytest.raises(UsageError) as caught:
        mcp("call demo.text_stats text=<text> top=2")
    assert str(caught.value) == "%mcp call: fill in the placeholders first: text."
    nested = '{"title":"<title>","when":{"date":"2025-05-01","start":"14:30"}}'
    with pytest.raises(UsageError, match=r"placeholders first: event\.title\.$"):
        mcp(f"call demo.create_event event='{nested}'")
    with pytest.raises(UsageError, match=r"placeholders first: a\.0, b\.$"):
        mcp('call demo.text_stats {"a": ["<a>", "x"], "b": "<b>___"}')
    assert len(state.workbench.history) == calls  # nothing was called
    mcp("call demo.text_stats text='<b>old</b>' top=1")  # a value that only looks like one
    assert last_arguments(state) == {"text": "<b>old</b>", "top": 1}
