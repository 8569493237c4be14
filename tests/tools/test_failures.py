"""A tool's exception says where the notebook's own code raised it, in one line, no paths."""

from __future__ import annotations

import linecache
from types import SimpleNamespace
from typing import Any

from ipykernel.compiler import XCachingCompiler

from workbench import tool

CELL = '''\
import statistics
def ratio(a: float, b: float) -> float:
    """Divide."""
    return a / b
def mean(text: str) -> float:
    """A mean of a number and a text, which fails inside the statistics module."""
    return statistics.mean([1, text])
'''
LONG = "def long(x: int) -> int:\n    'Fails on a long line.'\n    return x // 0 " + "+ 1 " * 40


def cell_tools(filename: str, source: str = CELL, **names: Any) -> dict[str, Any]:
    """The functions of ``source`` compiled as a cell named ``filename``, as IPython does."""
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    namespace: dict[str, Any] = dict(names)
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def kernel_cell(number: int) -> dict[str, Any]:
    """The cell's functions compiled by ipykernel's own compiler (a file under a temporary
    folder, numbered only by the compiler), in a namespace that leads to it as a shell's does."""
    compiler = XCachingCompiler()
    filename = compiler.cache(CELL, number)
    shell = SimpleNamespace(compile=compiler)
    return cell_tools(filename, get_ipython=lambda: shell)


def test_the_error_names_the_cell_line_that_raised() -> None:
    ratio = tool(cell_tools("<ipython-input-7-0123456789ab>")["ratio"])
    assert ratio.call({"a": 1, "b": 0}).error_message == (
        "ratio: ZeroDivisionError: float division by zero (cell [7], line 4: return a / b)"
    )


def test_library_frames_below_the_cell_are_left_out() -> None:
    mean = tool(cell_tools("<ipython-input-8-0123456789ab>")["mean"])
    message = mean.call({"text": "x"}).error_message
    assert message is not None and message.startswith("mean: TypeError: ")
    assert message.endswith("(cell [8], line 7: return statistics.mean([1, text]))")


def test_a_kernel_cell_is_numbered_by_its_shell_and_its_path_never_shown() -> None:
    ratio = tool(kernel_cell(12)["ratio"])
    message = ratio.call({"a": 1, "b": 0}).error_message
    assert message is not None and message.endswith("(cell [12], line 4: return a / b)")
    unnumbered = tool(cell_tools("/tmp/ipykernel_99/777.py")["ratio"])  # no shell to ask
    other = str(unnumbered.call({"a": 1, "b": 0}).error_message)
    assert other.endswith("(a cell, line 4: return a / b)")
    assert "/tmp" not in f"{message} {other}"


def test_code_outside_a_cell_adds_nothing_and_a_long_line_is_cut() -> None:
    ratio = tool(cell_tools("/home/someone/project/tools.py")["ratio"])
    message = ratio.call({"a": 1, "b": 0}).error_message
    assert message == "ratio: ZeroDivisionError: float division by zero"
    long = tool(cell_tools("<ipython-input-9-0123456789ab>", LONG)["long"])
    message = str(long.call({"x": 1}).error_message)
    assert "\n" not in message and message.endswith("…)")
    assert len(message.partition("(cell [9], line 3: ")[2]) == 81  # 80 characters and ")"
