"""``%mcp history``: the table of past calls and its JSON export."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.magics.magic_output import bundles
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


def test_history_table_and_export(mcp: Mcp, state: KernelState, tmp_path: Path) -> None:
    mcp("call demo.get_time")
    mcp("call demo.add a=1 b=2")
    _, captured = mcp("history --last 1")
    [bundle] = bundles(captured)
    assert "1 call" in bundle["text/plain"] and "demo.add" in bundle["text/plain"]
    target = tmp_path / "calls.json"
    _, captured = mcp(f"history --export {target}")
    assert captured.outputs == []
    assert captured.stdout.startswith(f"Exported {len(state.workbench.history)} calls to ")
    exported = json.loads(target.read_text())
    assert exported[-1]["tool"] == "demo.add" and exported[-1]["arguments"] == {"a": 1, "b": 2}


def test_g19_history_clear_forgets_the_calls_after_exporting_them(
    mcp: Mcp, state: KernelState, tmp_path: Path
) -> None:
    mcp("call demo.add a=1 b=2")
    target = tmp_path / "calls.json"
    _, captured = mcp(f"history --export {target} --clear")
    assert captured.stdout.splitlines()[-1] == "The history is cleared."
    assert json.loads(target.read_text())[-1]["tool"] == "demo.add"
    assert len(state.workbench.history) == 0
    _, captured = mcp("history")
    assert "No calls" in bundles(captured)[0]["text/plain"]
