"""The workshop notebook, run three ways in a real kernel: as committed (every answer cell
is unfinished, so every check fails with its hint), with typical wrong answers (each check
names the mistake), and with the solutions' code as the participant's answers (every check
passes, and the participant's tools, not the solutions, end up in the registry). Each
exercise is four cells: the task, ``exN-answer`` (a ``# your code here`` placeholder),
``exN-check`` (folded, tagged) and ``exN-solution`` (a markdown ``<details>`` block, tagged:
it never runs)."""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from tests.notebooks.executed import read, text_of

EXERCISES = range(1, 6)

# What each check says as committed, its unfinished placeholder run first (in parts).
AS_COMMITTED = {
    1: ("word_count('a b') should be 2, got None: return the number of words.",),
    2: (
        "The call still fails (tool_error): initials: IndexError: string index out of range",
        "What does 'ada  lovelace'.split(' ') give for two spaces in a row?",
    ),
    3: ("chart_tool should be the id of the demo tool for 'bar chart', got ''",),
    4: (
        "observation should be what wb.call('demo.text_stats', {'text': PARAGRAPH}) returns, "
        "got None.",
    ),
    5: ("Nothing is served: %mcp serve --expose is_palindrome",),
}

# Answers a participant might well write, and what each check must say about them.
WRONG = {
    1: (
        '%%tool\ndef word_count(text: str) -> int:\n    """Count words.\n\n    Args:\n'
        '        text: The text.\n    """\n    return len(text.split(" "))\n',
        "should be 3, got 9: did you split on ' '?",
    ),
    2: (
        '%%tool --read-only\ndef initials(name: str) -> str:\n    """Initials.\n\n    Args:\n'
        '        name: A name.\n    """\n    return "".join(w[0].upper() for w in name.split())\n',
        "initials('ada  lovelace') should be 'A.L.', got 'AL'.",
    ),
    3: (
        'chart_tool = "draw_chart"\nclock_tool = "demo.get_time"\n',
        "chart_tool is 'draw_chart': write the whole id, server first",
    ),
    4: (
        'PARAGRAPH = "The cat saw the other cat. The dog saw the cat too."\n'
        'observation = wb.call("demo.text_stats", {"text": PARAGRAPH})\n'
        'n_words = observation.structured_content["words"]\n'
        'top_word = observation.structured_content["most_common"][0]\n',
        "top_word should be 'the', got {'word': 'the', 'count': 4}",
    ),
    5: (
        "%mcp serve\n",
        "Serve only is_palindrome, not ['initials', 'is_palindrome', 'word_count']: add --expose",
    ),
}


def cell(notebook: Any, cell_id: str) -> Any:
    [found] = [c for c in notebook.cells if c.get("id") == cell_id]
    return found


def run(notebook: Any, *, allow_errors: bool) -> None:
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", allow_errors=allow_errors
    ).execute()


def errors(notebook: Any, cell_id: str) -> list[dict[str, Any]]:
    return [out for out in cell(notebook, cell_id).outputs if out["output_type"] == "error"]


def solution_code(notebook: Any, n: int) -> str:
    """The code of exercise ``n``'s solution: the fenced block of its markdown cell."""
    [code] = re.findall(r"```python\n(.*?)\n```", cell(notebook, f"ex{n}-solution").source, re.S)
    return str(code)


def shown_in(notebook: Any, cell_id: str) -> str:
    return "\n".join(text_of(out) for out in cell(notebook, cell_id).outputs)


def verdict(notebook: Any, n: int) -> dict[str, Any]:
    """The one box check ``n`` showed (``workbench.workshop.Verdict``)."""
    outputs = cell(notebook, f"ex{n}-check").outputs
    [box] = [out for out in outputs if "wb-check" in out.get("data", {}).get("text/html", "")]
    return dict(box)


def test_each_exercise_is_task_answer_check_and_labelled_solution() -> None:
    notebook = read("workshop.ipynb")
    ids = [c.id for c in notebook.cells]
    for n in EXERCISES:
        at = ids.index(f"ex{n}-answer")
        assert ids[at + 1 : at + 3] == [f"ex{n}-check", f"ex{n}-solution"]
        assert notebook.cells[ids.index(f"ex{n}-task")].cell_type == "markdown"
        assert "# your code here" in cell(notebook, f"ex{n}-answer").source
        solution = cell(notebook, f"ex{n}-solution")
        # Markdown, so Run All never runs it over the participant's answer; its label shows
        # while it is closed.
        assert solution.cell_type == "markdown" and "solution" in solution.metadata["tags"]
        assert solution.source.startswith(f"<details><summary><b>Solution to exercise {n}</b>"), (
            solution.source
        )
        assert solution.source.endswith("</details>")
        assert "your code here" not in solution_code(notebook, n)
        checking = cell(notebook, f"ex{n}-check").metadata
        assert checking["jupyter"] == {"source_hidden": True} and "check" in checking["tags"]
        # A folded cell shows its first line: it names the cell and gives nothing away.
        assert cell(notebook, f"ex{n}-check").source.startswith(f"# Check exercise {n}\n")
        assert f"with check({n}) as this:" in cell(notebook, f"ex{n}-check").source


@pytest.mark.kernel
def test_as_committed_every_check_fails_with_its_message() -> None:
    notebook = read("workshop.ipynb")
    run(notebook, allow_errors=True)
    for n in EXERCISES:
        [error] = errors(notebook, f"ex{n}-check")
        assert error["ename"] == "CheckFailed"  # the cell fails: Run All stops here
        assert all(part in error["evalue"] for part in AS_COMMITTED[n]), (n, error["evalue"])
        # The hint in a box, then one line where the traceback of the check's code was.
        assert error["traceback"] == [f"Check {n} is not passed yet, so Run All stops here."]
        box = verdict(notebook, n)
        assert box["data"]["text/plain"].startswith(f"Check {n}: not yet: "), box
        assert all(part in box["data"]["text/plain"] for part in AS_COMMITTED[n])
    checks = {f"ex{n}-check" for n in EXERCISES}
    others = [c.id for c in notebook.cells if c.id not in checks and c.get("outputs")]
    assert not [(i, errors(notebook, i)) for i in others if errors(notebook, i)]
    # Exercise 2's check shows the failed call before saying what is wrong.
    assert "Error · tool_error" in shown_in(notebook, "ex2-check")


@pytest.mark.kernel
def test_typical_wrong_answers_are_named() -> None:
    notebook = read("workshop.ipynb")
    for n, (answer, _) in WRONG.items():
        cell(notebook, f"ex{n}-answer").source = answer
    run(notebook, allow_errors=True)
    for n, (_, message) in WRONG.items():
        assert not errors(notebook, f"ex{n}-answer")
        [error] = errors(notebook, f"ex{n}-check")
        assert message in error["evalue"], (n, error["evalue"])


MINE = " My own words."
"""Added to the docstring of each tool the participant writes: the registry must end up
describing their tools, not the solutions'."""


@pytest.mark.kernel
def test_with_the_solutions_as_answers_every_check_passes_and_the_answers_stay() -> None:
    notebook = read("workshop.ipynb")
    for n in EXERCISES:
        answer = solution_code(notebook, n)
        if answer.startswith("%%tool"):
            answer = answer.replace(".\n\n    Args:", f".{MINE}\n\n    Args:", 1)
            assert MINE in answer, answer
        cell(notebook, f"ex{n}-answer").source = answer
    probe = nbformat.v4.new_code_cell(
        "print({tool: wb.registry.get(f'notebook.{tool}').description for tool in "
        "('word_count', 'initials')})",
        id="probe",
    )
    notebook.cells.append(probe)
    run(notebook, allow_errors=False)  # a failing check raises CellExecutionError
    for n in EXERCISES:
        shown = shown_in(notebook, f"ex{n}-check")
        assert f"Exercise {n} done" in shown, (n, shown)
        box = verdict(notebook, n)
        assert f"✓ Exercise {n} done" in box["data"]["text/html"]
    assert "Exercise 3 done: demo.draw_chart and demo.get_time" in shown_in(notebook, "ex3-check")
    # Restart and Run All ran the participant's tools, never the solutions' over them.
    described = shown_in(notebook, "probe")
    assert described.count(MINE.strip()) == 2, described
