"""A notebook tool that raises ``ProtocolError`` refuses its call with a JSON-RPC error: a
served task ends ``failed`` carrying it (never ``result``), a plain served call answers it,
and the notebook's own call gets an error Observation of kind ``protocol`` saying so. A
real outside client over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Client
from mcp.shared.exceptions import MCPError

from tests.serving.conftest import with_client
from tests.serving.task_client import TaskClient
from workbench import ProtocolError
from workbench.session import Workbench
from workbench.tools.from_function import tool
from workbench.tools.schema import ErrorKind


@tool(task=True)
async def refuses(code: int = -32603) -> str:
    """Refuse the call at protocol level."""
    raise ProtocolError("the backend is gone", code=code, data={"retry": False})


@tool
def plain_refuses() -> str:
    """Refuse, never as a task."""
    raise ProtocolError("not today", code=-32602)


@pytest.fixture
def client(wb: Workbench) -> Iterator[TaskClient]:
    wb.add_tools(refuses, plain_refuses)
    handle = wb.serve()
    made = TaskClient(handle.url, handle.token)
    yield made
    made.close()


def test_a_refusing_task_ends_failed_with_the_json_rpc_error(client: TaskClient) -> None:
    created = client.call("refuses")
    assert created["resultType"] == "task"
    task = client.until(created["taskId"], set())
    assert task["status"] == "failed"
    assert "result" not in task
    assert task["error"]["code"] == -32603
    assert "the backend is gone" in task["error"]["message"]
    assert task["error"]["data"] == {"retry": False}


def test_a_plain_served_call_answers_the_json_rpc_error(wb: Workbench, client: TaskClient) -> None:
    answer = client.send("tools/call", {"name": "plain_refuses", "arguments": {}})
    assert "result" not in answer, answer
    assert answer["error"]["code"] == -32602
    assert "not today" in answer["error"]["message"]
    assert not answer["error"]["message"].startswith("notebook.")
    # A client without the tasks extension gets the task tool's error the same way.
    bare = TaskClient(client.url, wb.served.token if wb.served else None, tasks=False)
    try:
        refused = bare.send("tools/call", {"name": "refuses", "arguments": {"code": -32000}})
    finally:
        bare.close()
    assert refused["error"]["code"] == -32000
    record = wb.history[-1]
    assert record.observation.error_kind is ErrorKind.PROTOCOL


def test_the_notebooks_own_call_gets_a_protocol_error_observation(wb: Workbench) -> None:
    wb.add_tools(plain_refuses)
    observation = wb.call("plain_refuses")
    assert observation.is_error
    assert observation.error_kind is ErrorKind.PROTOCOL
    assert observation.error_code == -32602
    assert "refused the call (JSON-RPC error -32602): not today" in observation.text


def test_a_direct_definition_call_says_so_too() -> None:
    observation = plain_refuses.call({})
    assert observation.error_kind is ErrorKind.PROTOCOL
    assert (observation.error_code, observation.error_data) == (-32602, None)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_both_eras_of_fastmcp_client_get_the_error(wb: Workbench, mode: str) -> None:
    wb.add_tools(plain_refuses)
    handle = wb.serve()

    async def work(client: Client[Any]) -> tuple[int, str]:
        with pytest.raises(MCPError) as refused:
            await client.call_tool("plain_refuses", {})
        return refused.value.code, str(refused.value)

    code, message = with_client(handle.url, handle.token, work, mode=mode)
    assert code == -32602 and "not today" in message
