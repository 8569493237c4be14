"""``%mcp export``'s report: what was written, and how to run it safely over HTTP."""

from __future__ import annotations

from pathlib import Path

from workbench import Workbench, tool
from workbench.magics.commands.export import report


@tool
def double(x: int) -> int:
    """Twice x."""
    return 2 * x


def test_the_report_says_how_to_run_it_and_that_a_token_guards_http(
    wb: Workbench, tmp_path: Path
) -> None:
    wb.add_tools(double)
    text = report(wb.export(tmp_path / "served.py"), "python3")
    assert text.startswith(f"Wrote {tmp_path / 'served.py'}: 1 tool (double).")
    http = text.split("or over HTTP", 1)[1]
    assert "WORKBENCH_TOKEN" in http.split("mcp.json entry", 1)[0]
    assert "python3 " in text and "--http" in text
