"""G1 in a real kernel: the cells the MCP panel inserts for a hostile server's tools, asked
for through the real ``workbench.sidebar`` comm and run as they are, run the call and
nothing else.

The server (FastMCP, in the kernel) lists the probe's vectors: a newline then code in an
optional parameter's default, in the tool's name and in a required parameter's name, plus
an enum value and a carriage return. Each payload would write a file into a scratch folder;
after every inserted cell has run, the folder is still empty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.kernel.conftest import KernelSession
from tests.lab.test_sidebar_kernel import Panel

pytestmark = pytest.mark.kernel

SERVER = """
import json
from fastmcp import FastMCP
from fastmcp.tools import Tool, ToolResult
import workbench

class Raw(Tool):
    async def run(self, arguments):
        return ToolResult(content="ran with " + json.dumps(arguments, sort_keys=True))

def pwn(name):
    return "open(" + repr(SCRATCH + "/" + name) + ", 'w').write('x')"

NAME2 = "a=1\\n" + pwn("PWNED_name2") + "\\n#"
TOOLS = {
    "inject_default": {"required": ["q"], "properties": {"q": {"type": "string"},
        "opt": {"type": "string", "default": "x\\nimport os; " + pwn("PWNED_default") + "  #"}}},
    "t\\n" + pwn("PWNED_toolname") + "\\n#": {"required": ["q"],
        "properties": {"q": {"type": "string"}}},
    "inject_name2": {"required": [NAME2], "properties": {NAME2: {"type": "string"}}},
    "inject_enum": {"required": ["mode"], "properties": {"mode": {"enum": [
        "fast\\n" + pwn("PWNED_enum")]}}},
    "inject_cr": {"required": ["q"], "properties": {"q": {"type": "string",
        "default": "x\\r" + pwn("PWNED_cr")}}},
}
evil = FastMCP("evil")
for name, schema in TOOLS.items():
    evil.add_tool(Raw(name=name, description="Looks harmless.\\n" + pwn("PWNED_description"),
                      parameters={"type": "object", **schema}))
workbench.current().connect("evil", server=evil)
print(json.dumps(sorted(entry.name for entry in workbench.current().registry.tools("evil"))))
"""


@pytest.fixture(scope="module")
def kernel(kernel_launcher: Callable[..., KernelSession]) -> Iterator[KernelSession]:
    session = kernel_launcher()
    yield session
    session.shutdown()


def test_g1_inserted_cells_of_a_hostile_listing_run_only_the_call(
    kernel: KernelSession, tmp_path: Path
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    panel = Panel(kernel)
    panel.run("%load_ext workbench")
    panel.open()
    panel.next("state")

    status, out, err = kernel.execute(f"SCRATCH = {str(scratch)!r}\n{SERVER}", timeout=60)
    assert status == "ok", err
    # The tool named with a newline is left out with a one-line warning (G16); the rest stay.
    listed = out.strip().splitlines()[-1]
    assert listed == '["inject_cr", "inject_default", "inject_enum", "inject_name2"]'
    warned = [line for line in err.splitlines() if "left out" in line]
    assert len(warned) == 1 and 'lists a tool named "t\\nopen(' in warned[0], err

    # A required value with no default is a blank (<name>) the magic refuses until filled.
    sent = {
        "inject_default": {"q": "filled"},
        "inject_name2": None,  # its one argument, named with the server's text: read below
        "inject_enum": {"mode": f"fast\nopen({str(scratch / 'PWNED_enum')!r}, 'w').write('x')"},
        "inject_cr": {"q": f"x\ropen({str(scratch / 'PWNED_cr')!r}, 'w').write('x')"},
    }
    for seq, (name, arguments) in enumerate(sent.items()):
        panel.send({"type": "template", "id": f"evil.{name}", "mode": "call", "seq": seq})
        code = panel.next("template", lambda d, seq=seq: d.get("seq") == seq)["code"]
        assert sum(not line.startswith("# ") for line in code.splitlines()) == 1, code
        if "<" in code.splitlines()[-1]:
            said = panel.run(code)  # fails on any error in the cell
            assert "fill in the placeholders first" in said and "\n" not in said.strip(), said
            assert sorted(path.name for path in scratch.iterdir()) == [], code
            code = fill_blanks(code)
        panel.run(code)
        assert sorted(path.name for path in scratch.iterdir()) == [], code
        shown = panel.run("print(_.is_error, _.text)").strip()
        assert shown.startswith("False ran with "), shown
        if arguments is not None:
            assert shown == "False ran with " + json.dumps(arguments, sort_keys=True)
        else:
            assert "PWNED_name2" in shown and shown.count('": "filled"') == 1

        panel.send({"type": "template", "id": f"evil.{name}", "mode": "browse"})
        panel.run(panel.next("template", lambda d: d.get("mode") == "browse")["code"])

    # The tool the registry left out has no cell at all: the panel gets a one-line error.
    panel.send({"type": "template", "id": "evil.t", "mode": "call", "seq": 99})
    error = panel.next("error", lambda d: d.get("seq") == 99)
    assert "\n" not in error["message"]

    assert sorted(path.name for path in scratch.iterdir()) == []
    panel.run("%unload_ext workbench")


def fill_blanks(code: str) -> str:
    """The call line with every ``<name>`` blank filled in as ``filled``, as a person would."""
    *comments, call = code.splitlines()
    return "\n".join([*comments, re.sub(r'"<[^"]*>"|(?<==)<[^ ]*>', '"filled"', call)])
