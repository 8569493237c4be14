"""A ``%%tool`` that asks its caller, in a real ipykernel, answered by a handler set there.

The call is made from the notebook (``%mcp call``, ``wb.call``, ``await wb.acall``): the
question goes to the kernel's Workbench's answer chain, ``wb.on_elicitation`` first.
"""

from __future__ import annotations

import pytest

from tests.kernel.conftest import KernelSession

pytestmark = pytest.mark.kernel

TOOLS = '''%%tool
from workbench import get_context


def ask_name() -> str:
    """Ask the caller's name (a sync tool: it blocks its worker thread)."""
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    answer = get_context().elicit("Your name?", schema)
    return f"{answer.action}: {(answer.content or {}).get('name')}"


async def ask_sure() -> str:
    """Ask yes or no (an async tool: it awaits)."""
    answer = await get_context().elicit("Sure?", bool)
    return f"{answer.action}: {answer.value}"
'''

HANDLER = """
import workbench
wb = workbench.current()
asked = []
def answer(request):
    asked.append((request.server, request.tool, request.message))
    return {"name": "Ada"} if request.fields == ["name"] else {"value": True}
wb.on_elicitation(answer)
"""


def run(kernel: KernelSession, code: str) -> str:
    status, out, errors = kernel.execute(code, timeout=60)
    assert status == "ok", errors
    return out


def test_a_tool_cell_asks_and_the_kernels_handler_answers(kernel: KernelSession) -> None:
    run(kernel, "%load_ext workbench")
    run(kernel, TOOLS)
    run(kernel, HANDLER)
    assert run(kernel, "obs = %mcp call ask_name\nprint(obs.text)").strip() == "accept: Ada"
    assert run(kernel, "print(wb.call('notebook.ask_sure').text)").strip() == "accept: True"
    awaited = run(kernel, "print((await wb.acall('notebook.ask_name')).text)")
    assert awaited.strip() == "accept: Ada"
    asked = run(kernel, "print(asked)")
    assert asked.strip() == (
        "[('notebook', 'ask_name', 'Your name?'), ('notebook', 'ask_sure', 'Sure?'), "
        "('notebook', 'ask_name', 'Your name?')]"
    )
