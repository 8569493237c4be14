"""The script generator: what it copies, imports and skips, and how it writes the file."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.export import fixtures as export_fixtures
from workbench.errors import ExportError
from workbench.export.script import build_script, export_tools, listing, write_script
from workbench.tools.from_function import FunctionTool


def _module(tmp_path: Path, name: str, source: str) -> ModuleType:
    """A real module from a file, as a notebook's helper module would be."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _run(text: str) -> dict[str, Any]:
    """The script's module namespace, without serving (not run as __main__)."""
    namespace: dict[str, Any] = {"__name__": "exported"}
    exec(compile(text, "exported.py", "exec"), namespace)
    return namespace


def test_the_script_carries_the_code_imports_helpers_and_constants_the_tools_use() -> None:
    script = build_script(export_fixtures.TOOLS)
    text = script.text
    for line in (
        "import math",
        "import json as jsonlib",
        "from datetime import date",
        "from datetime import timedelta",
        "from typing_extensions import TypedDict",
        "from pydantic import BaseModel",
        "DIGITS = 3",
        "def _rounded(value: float) -> float:",
        "class Unit(str, Enum):",
    ):
        assert line in text.splitlines(), line
    assert "@tool" not in text
    assert text.index("class Point(BaseModel)") < text.index("def distance(")
    assert "import workbench" not in text and "from workbench" not in text


def test_the_script_lists_each_tool_as_its_definition_and_runs_its_function() -> None:
    namespace = _run(build_script(export_fixtures.TOOLS).text)
    tools = {entry["name"]: entry for entry in namespace["_WB_TOOLS"]}
    for definition in export_fixtures.TOOLS:
        entry = dict(tools[definition.name])
        function = entry.pop("function")
        assert entry == listing(definition)
        assert function.__name__ == definition.fn.__name__
    assert tools["circle_area"]["function"](2) == "12.566 m^2"
    assert tools["circle_area"]["annotations"] == {"readOnlyHint": True, "idempotentHint": True}
    assert tools["circle_area"]["title"] == "Circle area"
    assert tools["as_json"]["tags"] == ["text"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("twice", "it is a lambda"),
        ("shifted", "closure over offset"),
        ("bump", "method bound to a _Counter instance"),
        ("from_exec", "source is not available (made with exec"),
        ("echo", "ToolDefinition built by hand"),
    ],
)
def test_a_tool_whose_code_cannot_be_written_out_is_skipped_with_its_reason(
    name: str, says: str
) -> None:
    script = build_script([export_fixtures.UNRECOVERABLE[name], *export_fixtures.TOOLS[:1]])
    assert [item.name for item in script.skipped] == [name]
    assert says in script.skipped[0].reason
    assert script.exported == ["circle_area"]
    assert f"'name': {name!r}" not in script.text


def test_a_tool_using_an_object_made_in_the_kernel_is_skipped_naming_it(tmp_path: Path) -> None:
    module = _module(
        tmp_path,
        "uses_client",
        "import threading\nLOCK = threading.Lock()\n\n"
        "def guarded(x: int) -> int:\n    with LOCK:\n        return x\n",
    )
    script = build_script([FunctionTool(module.guarded)])
    assert script.exported == []
    assert "it uses LOCK, a lock made in the kernel" in script.skipped[0].reason


def test_two_tools_giving_one_name_two_meanings_cannot_share_a_script(tmp_path: Path) -> None:
    first = _module(
        tmp_path,
        "first_tools",
        "def helper() -> int:\n    return 1\n\ndef one() -> int:\n    return helper()\n",
    )
    second = _module(
        tmp_path,
        "second_tools",
        "def helper() -> int:\n    return 2\n\ndef two() -> int:\n    return helper()\n",
    )
    script = build_script([FunctionTool(first.one), FunctionTool(second.two)])
    assert script.exported == ["one"]
    assert [item.name for item in script.skipped] == ["two"]
    assert "helper means something else" in script.skipped[0].reason
    assert _run(script.text)["one"]() == 1


def test_a_helper_that_cannot_be_written_out_skips_the_tool_that_uses_it(tmp_path: Path) -> None:
    module = _module(
        tmp_path,
        "closure_helper",
        "def make():\n    base = 3\n    def add(x):\n        return x + base\n    return add\n\n"
        "add = make()\n\ndef plus(x: int) -> int:\n    return add(x)\n",
    )
    script = build_script([FunctionTool(module.plus)])
    assert "it uses the function add, and it is a closure over base" in script.skipped[0].reason


def test_write_script_never_replaces_a_file_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "tools.py"
    target.write_text("mine")
    with pytest.raises(ExportError, match="already exists; pass --force"):
        write_script(target, "new", overwrite=False)
    assert target.read_text() == "mine"
    write_script(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["tools.py"]  # no temporary file left


def test_write_script_writes_a_new_file_whole(tmp_path: Path) -> None:
    target = write_script(tmp_path / "fresh.py", "print('hi')\n")
    assert target.read_text() == "print('hi')\n"
    assert sorted(os.listdir(tmp_path)) == ["fresh.py"]


@pytest.mark.parametrize(
    ("path", "says"),
    [("tools.txt", "Export to a .py file"), ("missing/tools.py", "does not exist")],
)
def test_write_script_refuses_paths_it_cannot_use(tmp_path: Path, path: str, says: str) -> None:
    with pytest.raises(ExportError, match=says):
        write_script(tmp_path / path, "x")


def test_export_tools_names_unknown_tools_and_writes_nothing_when_none_can_go(
    tmp_path: Path,
) -> None:
    target = tmp_path / "out.py"
    result = export_tools(export_fixtures.TOOLS, target, tools=["circle_area", "nope"])
    assert result.exported == ["circle_area"]
    assert [(item.name, item.reason) for item in result.skipped] == [
        ("nope", "there is no notebook tool, resource or prompt by that name")
    ]
    assert result.server_name == "out"
    assert result.mcp_json("python") == {
        "mcpServers": {"out": {"command": "python", "args": [str(target)]}}
    }
    empty = tmp_path / "empty.py"
    with pytest.raises(ExportError, match="twice: it is a lambda"):
        export_tools([export_fixtures.UNRECOVERABLE["twice"]], empty)
    assert not empty.exists()


def test_g16_a_tool_whose_name_was_changed_to_hold_a_newline_is_not_written_out(
    tmp_path: Path,
) -> None:
    module = _module(tmp_path, "renamed", "def trailing(x: int) -> int:\n    return x\n")
    renamed = FunctionTool(module.trailing)
    renamed.name = "trailing\n"  # past the constructor's check: export checks again
    script = build_script([renamed, *export_fixtures.TOOLS[:1]])
    assert [(item.name, item.reason) for item in script.skipped] == [
        ("trailing\n", "its name 'trailing\\n' is not a valid tool name")
    ]
    assert script.exported == ["circle_area"]
    assert "trailing\n" not in script.text and "'trailing\\n'" not in script.text


def test_no_schema_of_the_script_carries_a_workbench_key() -> None:
    text = build_script(export_fixtures.TOOLS).text
    assert "x-workbench-" not in text
    assert "'x-fastmcp-wrap-result': True" in text  # what FastMCP clients unwrap by
