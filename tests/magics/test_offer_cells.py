"""``%%resource`` and ``%%prompt`` cells, and ``@resource`` / ``@prompt`` in a ``%%tool``
cell: served on the notebook server, read back through the ``notebook`` connection, and
replaced (or dropped) when the cell re-runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import CapturedIO, capture_output

from workbench.kernel import KernelState


@pytest.fixture(autouse=True)
def clean_notebook(state: KernelState) -> Iterator[None]:
    """Each test ends without notebook tools, resources or prompts."""
    yield
    workbench = state.workbench
    for entry in [e for e in workbench.registry if e.server == "notebook"]:
        workbench.remove_tool(entry.name)
    for definition in workbench.notebook_resources():
        workbench.remove_resource(definition.uri)
    for prompt in workbench.notebook_prompts():
        workbench.remove_prompt(prompt.name)


def run(ip: InteractiveShell, cell: str, cell_id: str | None = "c1") -> CapturedIO:
    with capture_output() as captured:
        result = ip.run_cell(cell, cell_id=cell_id)
    assert result.error_in_exec is None and result.error_before_exec is None, captured.stderr
    return captured


def read(state: KernelState, uri: str, **arguments: str) -> str:
    observation = state.workbench.read_resource(uri, server="notebook", **arguments)
    assert not observation.is_error, observation.error_message
    return str(observation.content[0].resource.text)  # type: ignore[union-attr]


def test_a_resource_cell_serves_its_text_and_a_re_run_replaces_it(
    ip: InteractiveShell, state: KernelState
) -> None:
    shown = run(
        ip, "%%resource data://notes/today --mime-type text/markdown\n# Notes\n{not a var}\n"
    )
    assert "Serving resource data://notes/today (today) on notebook." in shown.stdout
    listed = state.workbench.resources("notebook")
    assert [(r.uri, r.name, r.mime_type) for r in listed] == [
        ("data://notes/today", "today", "text/markdown")
    ]
    assert read(state, "data://notes/today") == "# Notes\n{not a var}"
    shown = run(ip, "%%resource data://notes/tomorrow\nlater")  # the same cell, edited
    assert "Removed data://notes/today from notebook." in shown.stdout
    assert [r.uri for r in state.workbench.resources("notebook")] == ["data://notes/tomorrow"]


def test_a_python_resource_cell_serves_a_function_or_its_last_expression(
    ip: InteractiveShell, state: KernelState
) -> None:
    run(
        ip, "%%resource data://users/{id} --python\ndef user(id: int):\n    return {'id': id}", "c2"
    )
    assert read(state, "data://users/{id}", id="3") == '{\n  "id": 3\n}'
    run(ip, "counter = [1]", None)
    run(ip, "%%resource data://count --python\nlen(counter)", "c3")
    assert read(state, "data://count") == "1"
    run(ip, "counter.append(2)", None)
    assert read(state, "data://count") == "2"  # evaluated at each read


def test_a_prompt_cell_serves_a_template(ip: InteractiveShell, state: KernelState) -> None:
    shown = run(
        ip,
        '%%prompt summarize --description "Summarize a text."\nSummarize in {words} words:\n{text}',
    )
    assert "Serving prompt summarize (words, text) on notebook." in shown.stdout
    [listed] = state.workbench.prompts("notebook")
    assert (listed.description, [a.name for a in listed.arguments]) == (
        "Summarize a text.",
        ["words", "text"],
    )
    result = state.workbench.get_prompt("summarize", {"words": "5", "text": "MCP"})
    assert [m.content.text for m in result.messages] == ["Summarize in 5 words:\nMCP"]  # type: ignore[union-attr]


TOOL_CELL = '''%%tool
from workbench import resource, prompt

def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b

@resource("data://greeting")
def greeting() -> str:
    return "hello"

@prompt(complete={"language": ["python", "perl"]})
def review(code: str, language: str) -> str:
    """Review code."""
    return f"Review this {language}: {code}"
'''


def test_a_tool_cell_serves_its_resources_and_prompts_too(
    ip: InteractiveShell, state: KernelState
) -> None:
    shown = run(ip, TOOL_CELL, "c4")
    assert "Serving resource data://greeting (greeting) on notebook." in shown.stdout
    assert "Serving prompt review (code, language) on notebook." in shown.stdout
    workbench = state.workbench
    assert "notebook.add" in [e.id for e in workbench.registry]
    assert read(state, "data://greeting") == "hello"
    assert workbench.complete("review", "language", "py") == ["python"]
    shown = run(ip, "%%tool\ndef add(a: int, b: int) -> int:\n    return a + b", "c4")
    assert "Removed data://greeting, review from notebook." in shown.stdout
    assert workbench.notebook_resources() == [] and workbench.notebook_prompts() == []


def test_mistakes_are_one_line_usage_errors(ip: InteractiveShell, state: KernelState) -> None:
    state.cell_id = None
    for line, body, message in [
        ("data://u/{id}", "text", "is a template"),
        ("greeting", "text", "is no URI"),
        ("data://x --python", "x = 1", "no function"),
    ]:
        with pytest.raises(UsageError, match=message), capture_output():
            ip.run_cell_magic("resource", line, body)
    with pytest.raises(UsageError, match="no argument name"), capture_output():
        ip.run_cell_magic("prompt", "p", "{0}")
