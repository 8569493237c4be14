"""``%%tool --task``: a cell's tools run as tasks for outside clients that speak the tasks
extension (optional, or ``required``), and stay plain calls in the kernel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tests.serving.task_client import TaskClient
from workbench.kernel import KernelState

CELL = '''
import asyncio

async def bake(minutes: float) -> str:
    """Bake."""
    await asyncio.sleep(minutes)
    return f"baked {minutes:g}"
'''


@pytest.fixture
def clean(state: KernelState) -> Iterator[None]:
    state.cell_id = None
    yield
    wb = state.workbench
    if wb.serving is not None:
        wb.serving.stop()
    if wb.tool_owner("bake") is not None:
        wb.remove_tool("bake")


@pytest.mark.integration
@pytest.mark.usefixtures("clean")
def test_a_task_cell_answers_outside_clients_with_a_task(
    ip: InteractiveShell, state: KernelState
) -> None:
    with capture_output():
        ip.run_cell_magic("tool", "--task", CELL)
    assert state.workbench.call("notebook.bake", {"minutes": 0}).text == "baked 0"
    handle = state.workbench.serve()
    client = TaskClient(handle.url, handle.token)
    try:
        created = client.call("bake", {"minutes": 0})
        assert created["resultType"] == "task"
        done = client.until(created["taskId"], set())
        assert done["result"]["content"][0]["text"] == "baked 0"
    finally:
        client.close()


@pytest.mark.usefixtures("clean")
def test_task_modes(ip: InteractiveShell, state: KernelState) -> None:
    with capture_output():
        ip.run_cell_magic("tool", "--task required", CELL)
    assert state.workbench._notebook_definitions()["bake"].task == "required"
    with capture_output():
        ip.run_cell_magic("tool", "", CELL)
    assert state.workbench._notebook_definitions()["bake"].task == "forbidden"
    with pytest.raises(UsageError, match="invalid choice"), capture_output():
        ip.run_cell_magic("tool", "--task always", CELL)
