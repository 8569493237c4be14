"""The client side of tasks: start a tool call as a task, poll it, answer it, cancel it.

Two wires, chosen by what the server advertised: the ``io.modelcontextprotocol/tasks``
extension (2026-07-28, SEP-2663: the client declares it in the request's ``_meta``, the
server answers ``resultType: "task"``, ``tasks/get`` inlines the result, ``tasks/update``
answers questions) and 2025-11-25's experimental tasks (``task: {ttl}`` on the call,
``tasks/result`` for the result, questions asked on the session while it is awaited).

The SDK's session validates a ``tools/call`` result as a ``CallToolResult`` and stamps every
request's ``_meta`` with the session's capabilities, so task requests go out through the
session's own stamp and dispatcher (:func:`send_raw`), with the tasks extension added to this
one request's capabilities: a plain call never declares it, and never gets a task back.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.data_dirs import data_folder
from workbench.errors import RequestFailedError
from workbench.features.asking import ElicitationAnswer, ElicitationRequest
from workbench.features.tasks import TASKS_EXTENSION, Flavor, TaskRecord, TaskState, now_iso
from workbench.mcp.answers import CallAnswers
from workbench.mcp.connection import Connection

CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
DEFAULT_TTL_MS = 60 * 60 * 1000
"""The TTL asked of a 2025-11-25 server (the extension's servers choose their own)."""


def flavor_of(capabilities: Mapping[str, Any]) -> Flavor | None:
    """Which task wire a server offers for ``tools/call``, or None."""
    extensions = capabilities.get("extensions")
    if isinstance(extensions, Mapping) and TASKS_EXTENSION in extensions:
        return "extension"
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, Mapping) else None
    tools = requests.get("tools") if isinstance(requests, Mapping) else None
    if isinstance(tools, Mapping) and "call" in tools:
        return "2025-11-25"
    return None


async def send_raw(
    client: Any, method: str, params: Mapping[str, Any], *, tasks: bool = False
) -> dict[str, Any]:
    """One request through the session's stamp and dispatcher; the raw result (a JSON-RPC
    error raises the SDK's MCPError). ``tasks``: declare the extension on this request."""
    session = client.session
    data: dict[str, Any] = {"method": method, "params": dict(params)}
    opts: dict[str, Any] = {}
    session._stamp(data, opts)
    sent = data["params"]
    meta = sent.get("_meta")
    if tasks and isinstance(meta, dict):  # a 2026-07-28 request: capabilities per request
        declared = dict(meta.get(CLIENT_CAPABILITIES) or {})
        declared["extensions"] = {**(declared.get("extensions") or {}), TASKS_EXTENSION: {}}
        meta[CLIENT_CAPABILITIES] = declared
    task_id = sent.get("taskId")
    if isinstance(meta, dict) and isinstance(task_id, str):  # SEP-2663: routed by Mcp-Name
        opts.setdefault("headers", {})["Mcp-Name"] = task_id
    result: dict[str, Any] = await session._dispatcher.send_raw_request(method, sent, opts)
    return result


async def request(connection: Connection, what: str, method: str, params: Mapping[str, Any]) -> Any:
    """``send_raw`` on the connection (reopened if it died), failures as RequestFailedError."""

    async def send(client: Any) -> dict[str, Any]:
        return await send_raw(client, method, params, tasks=True)

    return await connection.request(what, send)


async def start(
    connection: Connection, flavor: Flavor, tool: str, arguments: Mapping[str, Any], ttl_ms: int
) -> TaskState:
    """Call ``tool`` as a task. A server may still answer at once: then the state is
    already ``completed`` with the result (and no task id)."""
    params: dict[str, Any] = {"name": tool, "arguments": dict(arguments)}
    if flavor == "2025-11-25":
        params["task"] = {"ttl": ttl_ms}
    raw = await request(connection, f"tools/call {tool} as a task", "tools/call", params)
    if raw.get("resultType") == "task" or isinstance(raw.get("task"), Mapping):
        return TaskState.from_wire(raw)
    stamp = now_iso()
    return TaskState("", "completed", stamp, stamp, None, result=raw)


async def get(connection: Connection, flavor: Flavor, task_id: str) -> TaskState:
    """The task now; a finished 2025-11-25 task's result is fetched with ``tasks/result``."""
    raw = await request(connection, f"tasks/get {task_id}", "tasks/get", {"taskId": task_id})
    state = TaskState.from_wire(raw)
    if flavor == "2025-11-25" and state.status == "completed" and state.result is None:
        payload = await result_v1(connection, task_id)
        state = TaskState.from_wire({**raw, "result": payload})
    return state


async def result_v1(connection: Connection, task_id: str) -> dict[str, Any]:
    """2025-11-25's ``tasks/result``: blocks until the task ends; questions the task asks
    meanwhile arrive on the session and are answered like any call's."""
    what = f"tasks/result {task_id}"
    raw: dict[str, Any] = await request(connection, what, "tasks/result", {"taskId": task_id})
    return raw


async def cancel(connection: Connection, task_id: str) -> None:
    await request(connection, f"tasks/cancel {task_id}", "tasks/cancel", {"taskId": task_id})


async def answer(
    connection: Connection, state: TaskState, call: CallAnswers, seen: set[str]
) -> None:
    """Answer the task's open input requests not answered yet (``tasks/update``), with the
    same handlers and question UI as a call's elicitation (``call``: made where the person
    waits, so a form lands in that cell)."""
    answers = connection._answers
    responses: dict[str, Any] = {}
    for key, wanted in state.input_requests.items():
        if key in seen:
            continue
        seen.add(key)
        if wanted.get("method") != "elicitation/create":
            continue  # only questions can be answered here
        question = elicitation(connection.name, wanted.get("params"), call.tool)
        if answers is None:
            reply = ElicitationAnswer.decline()
        else:
            reply = await answers.elicit(question, call)
        responses[key] = {"action": reply.action}
        if reply.action == "accept":
            responses[key]["content"] = reply.content or {}
    if responses:
        params = {"taskId": state.task_id, "inputResponses": responses}
        await request(connection, f"tasks/update {state.task_id}", "tasks/update", params)


def elicitation(server: str, params: object, tool: str) -> ElicitationRequest:
    """An ``elicitation/create`` input request's params as plain data."""
    body = params if isinstance(params, Mapping) else {}
    url = body.get("url")
    schema = body.get("requestedSchema")
    return ElicitationRequest(
        server=server,
        message=str(body.get("message", "")),
        schema=dict(schema) if isinstance(schema, Mapping) else {},
        mode="url" if isinstance(url, str) else "form",
        url=url if isinstance(url, str) else None,
        tool=tool,
    )


async def pause(state: TaskState, fallback: float = 0.5) -> None:
    """Wait as long as the server asked between polls (within 50 ms .. 5 s)."""
    wanted = (state.poll_interval_ms or fallback * 1000) / 1000
    await asyncio.sleep(min(max(wanted, 0.05), 5.0))


def records_file() -> Path:
    """Where the tasks this machine's kernels started are kept (ids, servers, times)."""
    return data_folder() / "tasks.json"


def load_records(path: Path | None = None) -> list[TaskRecord]:
    """The kept tasks, oldest first; nothing when the file is missing or unreadable."""
    try:
        data = json.loads((path or records_file()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    found = [TaskRecord.from_json(item) for item in data if isinstance(item, Mapping)]
    return [record for record in found if record is not None]


def save_records(records: list[TaskRecord], path: Path | None = None) -> None:
    """Write the tasks kept (atomically, owner-only): no arguments, results or secrets."""
    target = path or records_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps([record.to_json() for record in records], indent=1)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tasks-")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, target)


__all__ = [
    "RequestFailedError",
    "answer",
    "cancel",
    "flavor_of",
    "get",
    "pause",
    "start",
]
