"""``%mcp read``: a resource's Observation as the cell's value, recorded in the history; a
template's variables from key=value; ``--subscribe`` redrawing the output at each update."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tests.magics.magic_output import shown
from workbench.kernel import KernelState
from workbench.tools.schema import ErrorKind, Observation

Mcp = Callable[[str], Any]
DOCUMENT = "demo://resource/static/document/architecture.md"


def test_a_resource_is_the_cells_value_and_is_recorded(mcp: Mcp, state: KernelState) -> None:
    observation, captured = mcp("read demo://guide")
    assert isinstance(observation, Observation) and not observation.is_error
    assert captured.outputs == []  # shown as the cell's value, not on the side
    assert "# The demo server" in observation.content[0].model_dump_json()
    last = state.workbench.history[-1]
    assert (last.kind, last.tool_id, last.server) == ("resource", "demo://guide", "demo")


def test_a_blob_resource(mcp: Mcp) -> None:
    observation, _ = mcp("read demo://chart.png --timeout 10")
    assert not observation.is_error
    assert '"mimeType":"image/png"' in observation.content[0].model_dump_json(by_alias=True)


def test_a_template_takes_its_variables_as_text(mcp: Mcp, state: KernelState) -> None:
    observation, _ = mcp("read demo://numbers/{n} n=042")
    assert not observation.is_error
    assert '\\"n\\": 42' in observation.content[0].model_dump_json()
    last = state.workbench.history[-1]
    assert (last.tool_id, last.arguments) == ("demo://numbers/042", {"n": "042"})


def test_a_template_without_its_variable_is_a_refused_read(mcp: Mcp) -> None:
    observation, _ = mcp("read demo://numbers/{n}")
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "n: required but missing" in (observation.error_message or "")


def test_an_unknown_resource_or_server_is_an_error_observation(mcp: Mcp) -> None:
    observation, _ = mcp("read demo://nothing-here")
    assert observation.is_error
    elsewhere, _ = mcp("read demo://guide --server nope")
    assert elsewhere.error_kind is ErrorKind.NOT_FOUND
    assert "nope" in (elsewhere.error_message or "")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("read demo://guide --subscribe --unsubscribe", "not both"),
        ("read demo://guide --subscribe --timeout 3", "--timeout is for one read"),
        ("read demo://guide n=1 --subscribe", "has no {variables} to give values to"),
        ("read demo://numbers/{n} --subscribe", "n: required but missing$"),
        ("read demo://guide --unsubscribe", "^%mcp read: not following demo://guide"),
        ("read demo://numbers/{n} n=1 n=2", "^%mcp read: n is given twice.$"),
        ("read demo://guide --subscribe", "^'demo' does not offer resource subscriptions.$"),
    ],
)
def test_mistakes_are_one_line_usage_errors(mcp: Mcp, line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        mcp(line)
    assert "\n" not in str(raised.value)


@pytest.mark.integration
@pytest.mark.timeout(60)
def test_a_subscription_redraws_the_output_in_place(
    ip: InteractiveShell, mcp: Mcp, state: KernelState, everything: str
) -> None:
    """server-everything announces an update every 5 s to subscribers once toggled on."""
    with capture_output() as captured:
        subscription = ip.run_line_magic("mcp", f"read {DOCUMENT} --subscribe")
        assert subscription.uri == DOCUMENT and subscription.server == everything
        [first] = captured.outputs
        assert not first.update and "architecture" in first.data["text/plain"].lower()
        # Toggled from Python, not through mcp(): its own capture_output would swallow a
        # redraw that lands while the call runs (the first update can come at once).
        toggled = state.workbench.call(f"{everything}.toggle-subscriber-updates")
        assert not toggled.is_error, toggled
        try:
            deadline = time.monotonic() + 20
            while subscription.updates == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert subscription.updates >= 1
            deadline = time.monotonic() + 5
            while len(captured.outputs) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            redrawn = captured.outputs[1]
            assert redrawn.update  # the same display, updated in place
            assert redrawn.transient == first.transient  # same display_id
        finally:
            mcp(f"call {everything}.toggle-subscriber-updates")
    _, stopped = mcp(f"read {DOCUMENT} --unsubscribe")
    assert shown(stopped).startswith(f"Stopped following {DOCUMENT} (")
    assert "stopped" in repr(subscription)
    with pytest.raises(UsageError, match="not following"):
        mcp(f"read {DOCUMENT} --unsubscribe")


@pytest.mark.integration
def test_subscribing_again_replaces_the_subscription(mcp: Mcp, everything: str) -> None:
    """A re-run cell follows the resource once: the subscription before is stopped."""
    first, _ = mcp(f"read {DOCUMENT} --subscribe")
    second, _ = mcp(f"read {DOCUMENT} --subscribe --server {everything}")
    try:
        assert "stopped" in repr(first) and "following" in repr(second)
    finally:
        mcp(f"read {DOCUMENT} --unsubscribe")
    assert "stopped" in repr(second)
