"""Tool files: run once as private modules, their @tool functions kept, errors in one line."""

from __future__ import annotations

import sys
from pathlib import Path

from workbench.workspace.tool_files import ToolFiles

GOOD = '''
from workbench import tool

@tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()

def helper() -> None:
    """Not a tool."""

def _private() -> None:
    pass
'''


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_decorated_functions_are_tools_and_others_are_named(tmp_path: Path) -> None:
    made = ToolFiles().load(write(tmp_path, "a.py", GOOD))
    assert made.error == ""
    assert [t.name for t in made.tools] == ["shout"]
    assert made.undecorated == ("helper",)
    assert made.tools[0].call({"text": "hi"}).text == "HI"


def test_nothing_stays_in_sys_modules(tmp_path: Path) -> None:
    before = set(sys.modules)
    text = GOOD + "\nimport sys\nSEEN = __name__ in sys.modules\n"
    ToolFiles().load(write(tmp_path, "a.py", text))
    assert {name for name in set(sys.modules) - before if "workspace" in name} == set()


def test_the_module_is_importable_while_it_runs(tmp_path: Path) -> None:
    text = GOOD + ("\nfrom dataclasses import dataclass\n\n@dataclass\nclass Point:\n    x: int\n")
    made = ToolFiles().load(write(tmp_path, "a.py", "from __future__ import annotations\n" + text))
    assert made.error == "" and [t.name for t in made.tools] == ["shout"]


def test_a_syntax_error_is_one_line_with_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.py", "x = 1\ndef broken(:\n    pass\n")
    made = ToolFiles().load(path)
    assert made.tools == ()
    assert made.error.startswith(f"{path}:2: SyntaxError")
    assert "\n" not in made.error


def test_an_import_error_is_one_line_with_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.py", "import os\nimport no_such_module_here\n")
    made = ToolFiles().load(path)
    assert made.error == (f"{path}:2: ModuleNotFoundError: No module named 'no_such_module_here'")


def test_imported_tools_are_not_this_files_tools(tmp_path: Path) -> None:
    text = "from workbench.demo.tools import *\nfrom workbench import tool\n"
    made = ToolFiles().load(write(tmp_path, "a.py", text))
    assert made.tools == () and made.undecorated == ()


def test_an_unchanged_file_is_not_run_again(tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    path = write(tmp_path, "a.py", GOOD + f"\nopen({str(counter)!r}, 'a').write('x')\n")
    files = ToolFiles()
    first = files.load(path)
    again = files.load(path)
    assert again is first and counter.read_text() == "x" and files.runs == 1
    path.write_text(path.read_text().replace("upper", "lower"))
    changed = files.load(path)
    assert counter.read_text() == "xx" and files.runs == 2
    assert changed.tools[0].call({"text": "HI"}).text == "hi"
