"""A 2026-07-28 client of the tasks extension spoken in raw HTTP with httpx: stateless
requests, each with its own ``_meta`` (protocol version, client info, client capabilities),
so a test says exactly whether the client declared ``io.modelcontextprotocol/tasks``."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

TASKS = "io.modelcontextprotocol/tasks"
VERSION = "2026-07-28"
TERMINAL = {"completed", "failed", "cancelled"}


class TaskClient:
    def __init__(self, url: str, token: str | None = None, *, tasks: bool = True) -> None:
        self.url = url
        self.tasks = tasks
        self.headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": VERSION,
        }
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.http = httpx.Client(timeout=30)

    def close(self) -> None:
        self.http.close()

    def send(
        self, method: str, params: dict[str, Any], headers: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """The JSON-RPC response (``result`` or ``error``) to one request."""
        capabilities = {"extensions": {TASKS: {}}} if self.tasks else {}
        meta = {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientInfo": {"name": "task-test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }
        sent = dict(self.headers, **{"Mcp-Method": method})
        name = params.get("taskId", params.get("name"))
        if isinstance(name, str):
            sent["Mcp-Name"] = name
        sent |= headers or {}
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
        response = self.http.post(self.url, json=body, headers=sent)
        text = response.text
        if text.lstrip().startswith("{"):
            message: dict[str, Any] = json.loads(text)
            return message
        events = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]
        return [event for event in events if "id" in event][-1]  # type: ignore[no-any-return]

    def result(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        answer = self.send(method, params)
        assert "result" in answer, answer
        return answer["result"]  # type: ignore[no-any-return]

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.result("tools/call", {"name": name, "arguments": arguments or {}})

    def get(self, task_id: str) -> dict[str, Any]:
        return self.result("tasks/get", {"taskId": task_id})

    def until(self, task_id: str, statuses: set[str], timeout: float = 20) -> dict[str, Any]:
        """Poll ``tasks/get`` until the task reaches one of ``statuses`` (or ends)."""
        deadline = time.monotonic() + timeout
        while True:
            task = self.get(task_id)
            if task["status"] in statuses | TERMINAL or time.monotonic() > deadline:
                return task
            time.sleep(0.05)
