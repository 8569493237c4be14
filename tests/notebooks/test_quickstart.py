"""The quickstart notebook runs top to bottom in a real kernel and shows what it promises."""

from __future__ import annotations

import re

import nbformat
import pytest

from tests.notebooks.executed import NOTEBOOKS, execute, read, text_of

OBSERVATION = "application/vnd.workbench.observation+json"
# The teaching notebooks whose frame these tests hold (the others' tests hold theirs).
FRAMED = [
    "quickstart.ipynb",
    "serving_and_export.ipynb",
    "workshop.ipynb",
    "beyond_tools.ipynb",
    "browse.ipynb",
    "apps.ipynb",
]
OTHERS = [
    "authoring_tools.ipynb",
    "connecting_servers.ipynb",
    "registry_search.ipynb",
    "serving_and_export.ipynb",
    "beyond_tools.ipynb",
    "workshop.ipynb",
    "browse.ipynb",
    "apps.ipynb",
]
LINK = re.compile(r"\]\(([^)]+\.ipynb)\)")


@pytest.mark.parametrize("name", FRAMED)
def test_a_teaching_notebook_is_framed_and_saved_clean(name: str) -> None:
    """It opens with what the reader will learn and ends with what to try next, its links
    lead to notebooks that exist, and it is saved without outputs, every cell with an id."""
    notebook = read(name)
    nbformat.validate(notebook)
    first, last = notebook.cells[0], notebook.cells[-1]
    assert first.cell_type == "markdown" and "you will learn" in first.source.lower()
    assert last.cell_type == "markdown" and last.source.startswith("## What to try next")
    ids = [cell.get("id") for cell in notebook.cells]
    assert all(ids) and len(set(ids)) == len(ids)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.id
    prose = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    for target in LINK.findall(prose):
        assert (NOTEBOOKS / target).is_file(), f"{name} links to {target}, which is missing"


def test_the_quickstart_ends_pointing_at_every_other_notebook() -> None:
    last = read("quickstart.ipynb").cells[-1].source
    assert [name for name in OTHERS if f"]({name})" not in last] == []


@pytest.mark.kernel
def test_quickstart_runs_and_shows_observations() -> None:
    notebook = read("quickstart.ipynb")
    outputs = execute(notebook)
    assert not [out for out in outputs if out["output_type"] == "error"]
    shown = "\n".join(text_of(out) for out in outputs)
    # The first half: @tool in plain Python.
    assert "'most_common': ['cat', 'the', 'other']" in shown  # the plain function call
    assert "Error · invalid_arguments" in shown  # the bad call's Observation
    assert "txt: unexpected argument" in shown
    assert "input_schema" in shown  # the Anthropic export
    # The second half: the magics.
    assert "demo.slow_count" in shown and "11 tools" in shown  # %mcp connect demo
    assert "connected" in shown  # %mcp servers
    assert "1   demo.draw_chart" in shown  # %mcp search, best hit first
    assert "{'result': 5}" in shown  # _ after %mcp call demo.add
    assert "Error · tool_error" in shown and "this is a drill" in shown  # a failing call
    assert "4/4" in shown  # the progress of the slow count, updated in place
    assert "notebook.initials" in shown and "read-only" in shown  # the %%tool card
    assert "A.L." in shown and "'G.H.'" in shown and "'AT'" in shown  # tool, function, Python
    assert "5 calls" in shown  # %mcp history
    bundles = [out["data"] for out in outputs if out["output_type"] == "execute_result"]
    observations = [b[OBSERVATION] for b in bundles if OBSERVATION in b]
    assert len(observations) == 7  # two from @tool's call, five from %mcp call
    kinds = [block["type"] for document in observations for block in document["content"]]
    assert "image" in kinds  # the chart
