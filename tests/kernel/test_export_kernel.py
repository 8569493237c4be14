"""``%mcp export`` in a real ipykernel: tools from ``%%tool`` cells and ``@tool`` functions,
using imports and a class of other cells, become a script this test runs and calls; a
lambda and a closure are named with their reasons."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.kernel.conftest import KernelSession

pytestmark = pytest.mark.kernel

IMPORTS = """\
%load_ext workbench
import math
import json
from datetime import date, timedelta
from enum import Enum
from workbench import tool
import workbench

class Shape(str, Enum):
    ROUND = "round"
    SQUARE = "square"
"""

TOOL_CELL = """\
%%tool --read-only --title "Area of a shape"
def area(size: float, shape: Shape = Shape.ROUND) -> dict:
    \"\"\"The area of a round or square shape.

    Args:
        size: The radius or the side.
    \"\"\"
    value = math.pi * size**2 if shape is Shape.ROUND else size**2
    return {"area": round(value, 3), "as_json": json.dumps({"shape": shape.value})}
"""

DECORATED = """\
@tool
async def later(day: str, days: int = 1) -> str:
    \"\"\"The date some days after a day.\"\"\"
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()

def _make():
    offset = 3
    def shifted(x: int) -> int:
        \"\"\"Add the kernel's offset.\"\"\"
        return x + offset
    return shifted

workbench.current().add_tools(later, tool(lambda x: x * 2, name="twice"), tool(_make()))
"""

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("area", {"size": 2}),
    ("area", {"size": 3, "shape": "square"}),
    ("later", {"day": "2024-02-28", "days": 2}),
]


def _ok(kernel: KernelSession, code: str) -> str:
    status, stdout, error = kernel.execute(code, timeout=60)
    assert status == "ok", error
    return stdout


def _in_kernel(kernel: KernelSession) -> list[Any]:
    code = (
        "import json as _json\n"
        f"for _name, _args in {CALLS!r}:\n"
        "    _obs = workbench.current().call('notebook.' + _name, _args)\n"
        "    print(_json.dumps([[b.model_dump(mode='json', by_alias=True, exclude_none=True)"
        " for b in _obs.content], _obs.structured_content, _obs.is_error]))\n"
    )
    return [json.loads(line) for line in _ok(kernel, code).splitlines()]


async def _from_script(path: Path) -> list[Any]:
    answers = []
    async with Client(StdioTransport(sys.executable, [str(path)], cwd=str(path.parent))) as c:
        listed = {tool.name: tool for tool in await c.list_tools()}
        assert set(listed) == {"area", "later"}
        area = listed["area"]
        assert area.title == "Area of a shape"
        assert area.annotations is not None and area.annotations.read_only_hint is True
        assert area.input_schema["properties"]["size"]["description"] == "The radius or the side."
        for name, arguments in CALLS:
            result = await c.call_tool(name, arguments, raise_on_error=False)
            blocks = [
                b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in result.content
            ]
            answers.append([blocks, result.structured_content, result.is_error])
    return answers


def test_export_from_a_kernel_runs_as_a_server(kernel: KernelSession, tmp_path: Path) -> None:
    _ok(kernel, IMPORTS)
    _ok(kernel, TOOL_CELL)
    _ok(kernel, DECORATED)
    target = tmp_path / "kernel_tools.py"
    said = _ok(kernel, f"%mcp export {target}")
    assert f"Wrote {target}: 2 tools (area, later)." in said
    assert "twice: it is a lambda" in said
    assert "shifted: it is a closure over offset" in said
    assert f"{sys.executable} {target} --http --port 8000" in said
    assert '"mcpServers"' in said

    text = target.read_text()
    assert "import math" in text and "from datetime import date" in text
    assert "class Shape(str, Enum):" in text
    assert asyncio.run(_from_script(target)) == _in_kernel(kernel)

    status, _, error = kernel.execute(f"%mcp export {target}", timeout=60)
    assert status == "error" and "already exists; pass --force" in error
    assert "Wrote" in _ok(kernel, f"%mcp export {target} --force --tools later")
    assert "'name': 'area'" not in target.read_text()
