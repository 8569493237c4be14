"""The connecting notebook runs top to bottom in a real kernel against real servers over
real transports: the demo server, mcp-server-time (PyPI) and server-everything (npm) over
stdio, the notebook's own tools served and connected over streamable HTTP, an mcp.json
file with `${env:VAR}` secrets, reconnect and disconnect, and five failures read as one
paragraph each. The secrets it uses never appear in any output.

The kernel inherits this process's environment: the two secrets are set to known values
here (the notebook keeps a variable already set), so the test can look for them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.notebooks.executed import (
    Outputs,
    by_cell,
    check_saved,
    documents,
    execute,
    observation,
    read,
    require_real_servers,
    shown_by,
)
from workbench.display.mime import SERVERS_MIME
from workbench.display.mime import TABLE_MIME as TABLE
from workbench.display.mime import TOOL_MIME as TOOL

NAME = "connecting_servers.ipynb"
TOKEN = "4f1c9e0b7a2d5e8f3c6b9a1d"
API_KEY = "93d2c7e1a4f6b8d05e"
FAILING = ["fail-command", "fail-exit", "fail-url", "fail-token", "fail-timeout"]

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def cells() -> Outputs:
    require_real_servers()
    notebook = read(NAME)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NOTEBOOK_TOKEN", TOKEN)
        patch.setenv("NOTES_API_KEY", API_KEY)
        execute(notebook)  # an untagged cell that raises fails here
    return by_cell(notebook)


def servers_table(cells: Outputs, cell_id: str) -> dict[str, dict[str, Any]]:
    [document] = documents(cells[cell_id], SERVERS_MIME)
    return {row["name"]: row for row in document["servers"]}


def test_saved_without_outputs_and_only_failures_tagged() -> None:
    check_saved(NAME)
    tagged = [
        cell.id for cell in read(NAME).cells if "raises-exception" in cell.metadata.get("tags", [])
    ]
    assert tagged == FAILING


def test_secrets_never_shown(cells: Outputs) -> None:
    everything = json.dumps(cells)
    for secret in (TOKEN, API_KEY):  # not even a part of one (any 8 characters of it)
        parts = {secret[start : start + 8] for start in range(len(secret) - 7)}
        assert not [part for part in parts if part in everything]
    assert "real servers installed: True" in shown_by(cells["setup"])


def test_stdio_servers(cells: Outputs) -> None:
    demo = shown_by(cells["connect-pydemo"])
    assert (
        "11 tools" in demo
        and "pydemo.slow_count" in demo
        and documents(cells["connect-pydemo"], TABLE)
    )
    assert "time.convert_time" in shown_by(cells["connect-time"])
    converted = observation(cells, "call-time")
    assert converted["toolId"] == "time.convert_time" and not converted["isError"]
    assert converted["structuredContent"]["time_difference"] == "-9.0h"
    assert converted["structuredContent"]["target"]["datetime"].endswith("T00:00:00+00:00")
    # server-everything got --env's variable and none of the kernel's own.
    shown = shown_by(cells["connect-everything"])
    assert shown.startswith("(True, False, [") and "GREETING" in shown
    assert "NOTEBOOK_TOKEN" not in shown and "NOTES_API_KEY" not in shown
    summed = observation(cells, "call-everything")
    assert summed["content"] == [{"type": "text", "text": "The sum of 2 and 40 is 42."}]


def test_http_served_and_connected(cells: Outputs) -> None:
    assert documents(cells["define-shout"], TOOL)
    serving = shown_by(cells["serve"])
    assert "Serving 1 tool at http://127.0.0.1:" in serving
    assert "Token: ${env:NOTEBOOK_TOKEN}" in serving
    assert "mirror.shout" in shown_by(cells["connect-http"])
    shouted = observation(cells, "call-http")
    assert shouted["toolId"] == "mirror.shout" and shouted["content"][0]["text"] == "OVER HTTP!"


def test_mcp_json_with_env_secrets(cells: Outputs) -> None:
    config = json.loads(shown_by(cells["write-config"]))["mcpServers"]
    assert config["notes"]["env"] == {"NOTES_API_KEY": "${env:NOTES_API_KEY}"}
    assert config["served"]["headers"] == {"Authorization": "Bearer ${env:NOTEBOOK_TOKEN}"}
    assert config["served"]["url"].startswith("http://127.0.0.1:")
    checked = observation(cells, "connect-config")
    assert (
        checked["content"][0]["text"] == f"the server has an API key of {len(API_KEY)} characters"
    )
    rows = servers_table(cells, "servers")
    assert set(rows) == {"everything", "mirror", "notebook", "notes", "pydemo", "served", "time"}
    assert {row["status"] for row in rows.values()} == {"connected"}
    assert rows["mirror"]["target"] == "${env:SERVED_URL}"
    assert rows["served"]["transport"] == "http" and rows["notes"]["transport"] == "stdio"


def test_reconnect_and_disconnect(cells: Outputs) -> None:
    kept = [
        observation(cells, cell_id)["content"][0]["text"]
        for cell_id in ("add-notes", "add-more-notes", "add-after-reconnect")
    ]
    assert kept == ["1 notes kept", "2 notes kept", "1 notes kept"]  # a fresh process
    assert "notes.key_check" in shown_by(cells["reconnect"])
    shown = shown_by(cells["disconnect"])
    assert "Disconnected pydemo, mirror." in shown
    assert "['everything', 'notebook', 'notes', 'served', 'time']" in shown


EXPECTED_FAILURES = {
    "fail-command": "the command 'mcp-server-tiem' was not found on PATH",
    "fail-exit": "NOTES_API_KEY is not set; it is needed to start",
    "fail-url": "the URL could not be reached",
    "fail-token": "the server refused the request (HTTP 401)",
    "fail-timeout": "it did not finish starting within 1 s",
}


@pytest.mark.parametrize("cell_id", FAILING)
def test_each_failure_is_a_short_error(cells: Outputs, cell_id: str) -> None:
    shown = shown_by(cells[cell_id])
    assert shown.startswith("UsageError: Could not connect to server"), shown
    assert EXPECTED_FAILURES[cell_id] in shown
    assert "Traceback" not in shown and len(shown.splitlines()) <= 4


def test_failures_listed_and_explained(cells: Outputs) -> None:
    timed_out = observation(cells, "call-timeout")
    assert timed_out["isError"] and timed_out["errorKind"] == "timeout"
    rows = servers_table(cells, "servers-failed")
    failed = {name for name, row in rows.items() if row["status"] == "failed"}
    assert failed == {"typo", "nokey", "nowhere", "badtoken", "sleepy"}
    assert "HTTP 401" in rows["badtoken"]["lastError"]
    detail = shown_by(cells["server-detail"])
    assert "Server nokey" in detail and "status: failed" in detail
    assert "NOTES_API_KEY is not set" in detail
    assert any("text/html" in out.get("data", {}) for out in cells["server-detail"])
    tidy = shown_by(cells["tidy-up"])
    assert "Disconnected typo, nokey, nowhere, badtoken, sleepy." in tidy
    assert "Stopped serving" in tidy and "the port is closed" in tidy
