"""The Binder check's notebook runner reads errors and swaps in the workshop's solutions the
way the check relies on (its kernels run in tests/binder/test_binder_image.py)."""

from __future__ import annotations

import nbformat
import pytest

from tests.binder.image import ROOT
from tests.binder.run_notebook import errors_of, solution_code, swap_in_solutions


def test_errors_are_read_from_every_code_cell_but_those_that_promise_one() -> None:
    failing = nbformat.v4.new_code_cell("1/0")
    failing.outputs = [nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="no")]
    tags = {"tags": ["raises-exception"]}
    promised = nbformat.v4.new_code_cell("raise ValueError", metadata=tags)
    promised.outputs = [nbformat.v4.new_output("error", ename="ValueError", evalue="yes")]
    fine = nbformat.v4.new_code_cell("2")
    fine.outputs = [nbformat.v4.new_output("stream", text="2\n")]

    found = errors_of([fine, failing, promised])

    assert [(e["cell"], e["ename"]) for e in found] == [(1, "ZeroDivisionError")]


def test_the_workshop_runs_with_each_solution_in_its_answer_cell() -> None:
    notebook = nbformat.read(ROOT / "notebooks" / "workshop.ipynb", as_version=4)
    solutions = {c.id: c.source for c in notebook.cells if "solution" in c.metadata.get("tags", [])}

    swapped = swap_in_solutions(notebook.cells)

    assert swapped == len(solutions) >= 1
    answers = {c.id: c.source for c in notebook.cells if c.id.endswith("-answer")}
    assert answers == {
        name.replace("-solution", "-answer"): solution_code(s) for name, s in solutions.items()
    }
    assert not [source for source in answers.values() if "<details>" in source or "```" in source]
    assert answers["ex1-answer"].startswith("%%tool\n")  # the code, runnable as a cell
    assert not [c for c in notebook.cells if "solution" in c.metadata.get("tags", [])]
    assert not [c for c in notebook.cells if c.cell_type == "code" and "your code here" in c.source]


def test_a_solution_without_its_answer_cell_stops_the_run() -> None:
    lone = nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution"]})
    lone.id = "ex9-solution"
    with pytest.raises(SystemExit, match="ex9-solution"):
        swap_in_solutions([lone])
