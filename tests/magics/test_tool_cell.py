"""``%%tool``: a cell's public functions become notebook tools; re-running the cell replaces
them; a cell that fails, or a function that cannot become a tool, registers nothing."""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import CapturedIO, capture_output

from tests.magics.magic_output import bundles
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


@pytest.fixture(autouse=True)
def clean_notebook(state: KernelState) -> Iterator[None]:
    """Each test starts and ends without notebook tools."""
    yield
    for entry in [e for e in state.workbench.registry if e.server == "notebook"]:
        state.workbench.remove_tool(entry.name)


def notebook_tools(state: KernelState) -> list[str]:
    return sorted(e.name for e in state.workbench.registry if e.server == "notebook")


def run(ip: InteractiveShell, cell: str, cell_id: str | None = None) -> CapturedIO:
    """Run a whole cell as a front end would (with its cell id, when given)."""
    with capture_output() as captured:
        ip.run_cell(cell, cell_id=cell_id)
    return captured


def tool_cell(ip: InteractiveShell, state: KernelState, line: str, body: str) -> CapturedIO:
    """Call the cell magic directly, so its UsageError reaches the test."""
    state.cell_id = None
    with capture_output() as captured:
        ip.run_cell_magic("tool", line, body)
    return captured


FIRST = '''
def greet(name: str) -> str:
    """Say hello to someone.

    Args:
        name: Who to greet.
    """
    return f"Hello, {name}!"

def shout(text: str) -> str:
    """Make a text loud."""
    return text.upper()

def _helper() -> None:
    pass

class NotATool:
    def method(self) -> None:
        pass
'''


def test_define_redefine_remove_with_the_cell_id(
    ip: InteractiveShell, state: KernelState, mcp: Mcp
) -> None:
    captured = run(ip, "%%tool\n" + FIRST, cell_id="cell-1")
    assert notebook_tools(state) == ["greet", "shout"]
    cards = bundles(captured)
    assert [b["text/plain"].splitlines()[0].split()[0] for b in cards] == [
        "notebook.greet",
        "notebook.shout",
    ]
    assert "Who to greet." in cards[0]["text/plain"] and "tool-card" in cards[0]["text/html"]
    assert mcp("call greet name=Ada")[0].text == "Hello, Ada!"

    edited = FIRST.replace("def shout", "def whisper").replace("upper", "lower")
    captured = run(ip, "%%tool\n" + edited, cell_id="cell-1")
    assert notebook_tools(state) == ["greet", "whisper"]
    assert "Removed notebook.shout." in captured.stdout

    captured = run(ip, "%%tool\nx = 1\n", cell_id="cell-1")
    assert notebook_tools(state) == []
    assert "Removed notebook.greet, notebook.whisper." in captured.stdout
    assert "defines no public function" in captured.stdout


def test_another_cell_keeps_its_own_tools(ip: InteractiveShell, state: KernelState) -> None:
    run(ip, "%%tool\ndef one() -> int:\n    return 1\n", cell_id="a")
    run(ip, "%%tool\ndef two() -> int:\n    return 2\n", cell_id="b")
    run(ip, "%%tool\ndef three() -> int:\n    return 3\n", cell_id="a")
    assert notebook_tools(state) == ["three", "two"]


def test_without_a_cell_id_a_cell_is_known_by_a_name_it_keeps(
    ip: InteractiveShell, state: KernelState
) -> None:
    run(ip, "%%tool\ndef alpha() -> int:\n    return 1\n")
    run(ip, "%%tool\ndef alpha() -> int:\n    return 1\ndef beta() -> int:\n    return 2\n")
    assert notebook_tools(state) == ["alpha", "beta"]
    captured = run(ip, "%%tool\ndef beta() -> int:\n    return 2\n")
    assert notebook_tools(state) == ["beta"]
    assert "Removed notebook.alpha." in captured.stdout


def test_functions_stay_plain_functions(ip: InteractiveShell, state: KernelState) -> None:
    run(ip, "%%tool\n" + FIRST + "\nasync def later(n: int = 1) -> int:\n    return n\n")
    assert type(ip.user_ns["greet"]) is types.FunctionType
    assert ip.user_ns["greet"]("Bob") == "Hello, Bob!"
    assert notebook_tools(state) == ["greet", "later", "shout"]  # no _helper, no class


def test_flags_apply_to_a_single_function(
    ip: InteractiveShell, state: KernelState, mcp: Mcp
) -> None:
    body = "def f(x: int) -> int:\n    return x * 2\n"
    line = (
        "--name double --title 'Double it' --description 'Twice x.' --read-only "
        "--idempotent --destructive --open-world --tags math,small --tags demo"
    )
    tool_cell(ip, state, line, body)
    entry = state.workbench.registry.get("notebook.double")
    assert (entry.title, entry.description) == ("Double it", "Twice x.")
    assert entry.annotations is not None
    assert entry.annotations.badges() == ["read-only", "destructive", "idempotent", "open-world"]
    # FastMCP lists tags under _meta; the registry reads them from there once entry.py does.
    served = entry.tags or (entry.meta or {})["fastmcp"]["tags"]
    assert sorted(served) == ["demo", "math", "small"]
    assert mcp("call double x=21")[0].structured_content == {"result": 42}


def test_flags_on_a_cell_with_two_functions_run_nothing(
    ip: InteractiveShell, state: KernelState
) -> None:
    ip.user_ns.pop("ran", None)
    body = "ran = True\ndef a() -> None: ...\ndef b() -> None: ...\n"
    with pytest.raises(UsageError, match=r"defines 2 \(a, b\)") as caught:
        tool_cell(ip, state, "--read-only", body)
    assert type(caught.value) is UsageError
    assert "ran" not in ip.user_ns and notebook_tools(state) == []


STAR = "def ok() -> int:\n    return 1\ndef star(*args: int) -> int:\n    return 0\n"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("def ok() -> int:\n    return 1\nraise ValueError('boom')\n", "raised ValueError"),
        ("def ok() -> int:\n    return 1\ndef broken(:\n", "SyntaxError on line 5"),
        (STAR, "star cannot become a tool"),
        ("def ok() -> int:\n    return 1\nok = 3\n", "ok is no longer a function"),
    ],
)
def test_a_failing_cell_registers_nothing(
    ip: InteractiveShell, state: KernelState, body: str, says: str
) -> None:
    tool_cell(ip, state, "", "def earlier() -> int:\n    return 0\n")
    with pytest.raises(UsageError, match=says) as caught:
        tool_cell(ip, state, "", "def earlier() -> int:\n    return 0\n" + body)
    assert type(caught.value) is UsageError and "\n" not in str(caught.value)
    assert notebook_tools(state) == ["earlier"]  # the cell's previous tools stay


def test_unknown_flag(ip: InteractiveShell, state: KernelState) -> None:
    with pytest.raises(UsageError, match="unrecognized arguments: --bogus") as caught:
        tool_cell(ip, state, "--bogus", "def f() -> None: ...\n")
    assert type(caught.value) is UsageError
    assert str(caught.value).startswith("%%tool:")


def test_a_schema_fallback_registers_with_a_warning(
    ip: InteractiveShell, state: KernelState
) -> None:
    body = "import threading\ndef locked(lock: threading.Lock) -> str:\n    return 'ok'\n"
    captured = tool_cell(ip, state, "", body)
    assert notebook_tools(state) == ["locked"]
    assert "Warning: Tool 'locked': parameter 'lock'" in captured.stderr


def test_a_tool_decorated_function_keeps_its_options(
    ip: InteractiveShell, state: KernelState
) -> None:
    body = (
        "from workbench import tool\n"
        "@tool(name='renamed', annotations={'readOnlyHint': True})\n"
        "def original() -> str:\n    return 'hi'\n"
    )
    tool_cell(ip, state, "", body)
    assert notebook_tools(state) == ["renamed"]
    with pytest.raises(UsageError, match="already a @tool"):
        tool_cell(ip, state, "--read-only", body)


def test_a_bare_name_on_two_servers_is_ambiguous(
    ip: InteractiveShell, state: KernelState, mcp: Mcp
) -> None:
    tool_cell(ip, state, "", "def add(a: int, b: int) -> int:\n    return a + b\n")
    with pytest.raises(UsageError, match=r"demo\.add, notebook\.add") as caught:
        mcp("call add a=1 b=2")
    assert type(caught.value) is UsageError
    assert mcp("call notebook.add a=1 b=2")[0].structured_content == {"result": 3}


def test_disconnecting_the_notebook_server_by_name_drops_its_tools(
    ip: InteractiveShell, state: KernelState, mcp: Mcp
) -> None:
    tool_cell(ip, state, "", "def gone() -> None: ...\n")
    _, captured = mcp("disconnect notebook")
    assert "Disconnected notebook" in captured.stdout
    assert notebook_tools(state) == []
    tool_cell(ip, state, "", "def back() -> None: ...\n")
    assert notebook_tools(state) == ["back"]


def test_a_tool_cell_syntax_error_is_one_clean_error(
    ip: InteractiveShell, state: KernelState
) -> None:
    """It was a traceback naming another prompt's cell, then a second UsageError block."""
    captured = run(ip, "%%tool\ndef ok() -> int:\n    return 1\ndef broken(:\n    pass\n")
    printed = (captured.stdout + captured.stderr).strip()
    assert printed.startswith("UsageError: %%tool: SyntaxError on line 3: ")
    assert "def broken(:" in printed and "\n" not in printed
    assert notebook_tools(state) == []


def test_a_tool_cell_function_without_hints_or_docstring_gets_a_one_line_nudge(
    ip: InteractiveShell, state: KernelState
) -> None:
    bare = run(ip, "%%tool\ndef double(x):\n    return 2 * x\n")
    # A display, not printed text: JupyterLab breaks printed lines anywhere, even mid-word
    # (newcomer-3 friction 16: "the des|cription"); its HTML wraps at spaces.
    assert "Tip:" not in bare.stdout
    [tip] = [out.data for out in bare.outputs if "Tip:" in out.data.get("text/plain", "")]
    assert tip["text/plain"].startswith("Tip: notebook.double has no type hints and no docstring")
    assert "the description callers read." in tip["text/html"] and "break" not in tip["text/html"]
    assert notebook_tools(state) == ["double"]
    described = run(
        ip, '%%tool\ndef triple(x: int) -> int:\n    """Times three."""\n    return 3 * x\n'
    )
    assert not any("Tip:" in str(out.data) for out in described.outputs)


def test_a_tool_error_names_the_cell_and_line_as_the_notebook_shows_them(
    ip: InteractiveShell, state: KernelState
) -> None:
    number = ip.execution_count  # what the prompt shows: [number]
    cell = '%%tool\ndef ratio(a: float, b: float) -> float:\n    "Divide."\n    return a / b'
    with capture_output():
        ip.run_cell(cell, store_history=True)
    failed = state.workbench.call("notebook.ratio", {"a": 1, "b": 0})
    assert failed.error_message == (
        f"ratio: ZeroDivisionError: float division by zero (cell [{number}], line 4: return a / b)"
    )
