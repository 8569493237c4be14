"""``%%tool --enabled EXPR``: an expression evaluated in the notebook whenever the cell's
tools are served; false hides them from outside clients, who see the change at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Client
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tests.serving.conftest import with_client
from workbench.kernel import KernelState

CELL = '''
def launch(target: str) -> str:
    """Launch at a target."""
    return f"launched at {target}"
'''


@pytest.fixture
def clean(ip: InteractiveShell, state: KernelState) -> Iterator[None]:
    state.cell_id = None
    yield
    wb = state.workbench
    if wb.serving is not None:
        wb.serving.stop()
    if wb.tool_owner("launch") is not None:
        wb.remove_tool("launch")
    ip.user_ns.pop("ARMED", None)


async def listed(client: Client[Any]) -> list[str]:
    return [tool.name for tool in await client.list_tools()]


@pytest.mark.integration
@pytest.mark.usefixtures("clean")
def test_enabled_expression_is_evaluated_in_the_notebook_each_time(
    ip: InteractiveShell, state: KernelState
) -> None:
    ip.user_ns["ARMED"] = False
    with capture_output():
        ip.run_cell_magic("tool", "--enabled ARMED", CELL)
    handle = state.workbench.serve()
    assert "launch" not in with_client(handle.url, handle.token, listed)
    ip.user_ns["ARMED"] = True
    assert "launch" in with_client(handle.url, handle.token, listed)
    # Still a notebook tool all along, callable in the kernel.
    assert state.workbench.call("notebook.launch", {"target": "x"}).text == "launched at x"


@pytest.mark.usefixtures("clean")
def test_an_expression_that_does_not_parse_registers_nothing(
    ip: InteractiveShell, state: KernelState
) -> None:
    with pytest.raises(UsageError, match="no Python expression"), capture_output():
        ip.run_cell_magic("tool", "--enabled 'ARMED =='", CELL)
    assert state.workbench.tool_owner("launch") is None
