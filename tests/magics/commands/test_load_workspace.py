"""``%mcp load-workspace`` and ``%mcp events`` in the in-process shell."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles
from workbench.kernel import KernelState
from workbench.session import Workbench

Mcp = Callable[[str], Any]
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "workspace"


@pytest.fixture
def space(tmp_path: Path, state: KernelState) -> Iterator[Path]:
    root = tmp_path / "space"
    shutil.copytree(FIXTURE, root)
    yield root
    for folder, pattern in (("tools", "*.py"), ("events", "*.yaml")):
        for path in (root / folder).glob(pattern):
            state.workbench.set_owned_tools(f"workspace:{path.as_posix()}", [])
    state.workbench.events.clear()


def test_load_workspace_shows_what_loaded_and_what_did_not(mcp: Mcp, space: Path) -> None:
    _, captured = mcp(f"load-workspace {space}")
    [bundle] = bundles(captured)
    plain = bundle["text/plain"]
    assert f"Workspace {space}: 5 tools loaded" in plain
    for word in ("count_words", "place_order", "write_audit", "refundOrder", "helper"):
        assert word in plain
    assert "SyntaxError" in bundle["text/html"] and "tools/broken.py" in bundle["text/html"]
    assert captured.stderr == ""  # the fallback warning is the table's note, not a warning


def test_event_tools_called_from_the_magic_show_in_events(mcp: Mcp, space: Path) -> None:
    mcp(f"load-workspace {space}")
    observation, _ = mcp("call notebook.cancelOrder order_id=o-7")
    assert not observation.is_error, observation.error_message
    _, captured = mcp("events --last 5")
    [bundle] = bundles(captured)
    assert "orders/cancelled" in bundle["text/plain"] and "o-7" in bundle["text/plain"]
    _, captured = mcp("events --clear")
    assert captured.stdout.startswith("The event log is cleared.")
    _, captured = mcp("events")
    assert "No events yet." in bundles(captured)[0]["text/plain"]


def test_load_workspace_of_no_workspace_is_a_usage_error(mcp: Mcp, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="neither tools/ nor events/"):
        mcp(f"load-workspace {tmp_path}")


def test_g11_the_help_says_loading_runs_the_tool_files_so_trust_matters(mcp: Mcp) -> None:
    _, captured = mcp("help load-workspace")
    said = " ".join(captured.stdout.split())
    assert "runs its tools/*.py files as Python" in said
    assert "load only workspaces you trust" in said
    documented = " ".join((Workbench.load_workspace.__doc__ or "").split())
    assert "runs its tools/*.py files as Python" in documented
    assert "load only workspaces you trust" in documented
