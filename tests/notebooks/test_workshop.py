"""The workshop notebook, run three ways in a real kernel: as committed (every answer cell
is unfinished, so every check fails with its message), with typical wrong answers (each
check names the mistake), and with the folded solutions run in place of the answer cells
(every check passes). Each exercise is four cells: the task, ``exN-answer`` (a
``# your code here`` placeholder), ``exN-check`` and ``exN-solution`` (both folded and
tagged)."""

from __future__ import annotations

from typing import Any

import pytest
from nbclient import NotebookClient

from tests.notebooks.executed import read, text_of

EXERCISES = range(1, 6)

# What each check says as committed, its unfinished placeholder run first.
AS_COMMITTED = {
    1: "word_count('a b') should be 2, got None: return the number of words.",
    2: "The call still fails (tool_error): initials: IndexError: string index out of range. "
    "What does 'ada  lovelace'.split(' ') give",
    3: "chart_tool should be the id of the demo tool for 'bar chart', got ''",
    4: "observation should be what wb.call('demo.text_stats', {'text': PARAGRAPH}) returns, "
    "got None.",
    5: "Nothing is served: %mcp serve --expose is_palindrome",
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


def test_each_exercise_is_task_answer_check_and_folded_solution() -> None:
    notebook = read("workshop.ipynb")
    ids = [c.id for c in notebook.cells]
    for n in EXERCISES:
        at = ids.index(f"ex{n}-answer")
        assert ids[at + 1 : at + 3] == [f"ex{n}-check", f"ex{n}-solution"]
        assert notebook.cells[ids.index(f"ex{n}-task")].cell_type == "markdown"
        assert "# your code here" in cell(notebook, f"ex{n}-answer").source
        assert "your code here" not in cell(notebook, f"ex{n}-solution").source
        folded = cell(notebook, f"ex{n}-solution").metadata
        assert folded["jupyter"] == {"source_hidden": True} and "solution" in folded["tags"]
        checking = cell(notebook, f"ex{n}-check").metadata
        assert checking["jupyter"] == {"source_hidden": True} and "check" in checking["tags"]
        # A folded cell shows its first line: it names the cell and gives nothing away.
        assert cell(notebook, f"ex{n}-check").source.startswith(f"# Check exercise {n}\n")
        first = cell(notebook, f"ex{n}-solution").source.splitlines()[0]
        assert first.startswith("%%tool") or first == f"# Solution to exercise {n}", first


@pytest.mark.kernel
def test_as_committed_every_check_fails_with_its_message() -> None:
    notebook = read("workshop.ipynb")
    run(notebook, allow_errors=True)
    for n in EXERCISES:
        [error] = errors(notebook, f"ex{n}-check")
        assert error["ename"] == "AssertionError"
        assert AS_COMMITTED[n] in error["evalue"], (n, error["evalue"])
    checks = {f"ex{n}-check" for n in EXERCISES}
    others = [c.id for c in notebook.cells if c.id not in checks and c.get("outputs")]
    assert not [(i, errors(notebook, i)) for i in others if errors(notebook, i)]
    # Exercise 2's check shows the failed call before saying what is wrong.
    shown = "\n".join(text_of(out) for out in cell(notebook, "ex2-check").outputs)
    assert "Error · tool_error" in shown


@pytest.mark.kernel
def test_typical_wrong_answers_are_named() -> None:
    notebook = read("workshop.ipynb")
    for n, (answer, _) in WRONG.items():
        cell(notebook, f"ex{n}-answer").source = answer
    notebook.cells = [c for c in notebook.cells if "solution" not in c.metadata.get("tags", [])]
    run(notebook, allow_errors=True)
    for n, (_, message) in WRONG.items():
        assert not errors(notebook, f"ex{n}-answer")
        [error] = errors(notebook, f"ex{n}-check")
        assert message in error["evalue"], (n, error["evalue"])


@pytest.mark.kernel
def test_with_the_solutions_swapped_in_every_check_passes() -> None:
    notebook = read("workshop.ipynb")
    for n in EXERCISES:
        cell(notebook, f"ex{n}-answer").source = cell(notebook, f"ex{n}-solution").source
    notebook.cells = [c for c in notebook.cells if "solution" not in c.metadata.get("tags", [])]
    run(notebook, allow_errors=False)  # a failing check raises CellExecutionError
    for n in EXERCISES:
        shown = "\n".join(text_of(out) for out in cell(notebook, f"ex{n}-check").outputs)
        assert f"Exercise {n} done" in shown, (n, shown)
    assert "demo.draw_chart and demo.get_time" in "\n".join(
        text_of(out) for out in cell(notebook, "ex3-check").outputs
    )
