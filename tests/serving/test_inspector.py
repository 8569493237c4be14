"""The MCP Inspector's CLI (pinned in the Makefile) lists and calls served notebook tools.

It runs as `node <inspector>/cli/build/cli.js --cli URL --method ... --header ...` with a
scratch HOME, over streamable HTTP, with the served handle's bearer token; with a wrong or no
token it cannot connect (the server answers 401: tests/serving/test_handle.py) and nothing runs.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clients import client_env, inspector_js, node
from workbench.serving import ServeHandle
from workbench.session import Workbench

pytestmark = pytest.mark.integration


def inspector(url: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node(), str(inspector_js()), "--cli", url, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=client_env(home),
    )


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture
def ran() -> list[str]:
    return []


@pytest.fixture
def served(ran: list[str]) -> Iterator[ServeHandle]:
    inspector_js()  # a missing client fails here, before anything is served

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        ran.append(f"add {a} {b}")
        return a + b

    def shout(text: str) -> str:
        """Upper-case a text."""
        ran.append(f"shout {text}")
        return text.upper()

    with Workbench() as wb:
        wb.add_tools(add, shout)
        handle = wb.serve()
        assert handle.token
        yield handle
        handle.stop()


def test_the_inspector_lists_and_calls_served_tools_with_the_token(
    served: ServeHandle, ran: list[str], tmp_path: Path
) -> None:
    bearer = f"Authorization: Bearer {served.token}"
    listed = answer(inspector(served.url, tmp_path, "--method", "tools/list", "--header", bearer))
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert sorted(tools) == ["add", "shout"]
    assert tools["add"]["description"] == "Add two numbers."
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]

    called = answer(
        inspector(served.url, tmp_path, "--method", "tools/call", "--tool-name", "add",
                  "--tool-arg", "a=2", "b=3", "--header", bearer)
    )  # fmt: skip
    assert called["isError"] is False
    assert called["structuredContent"] == {"result": 5}
    assert ran == ["add 2 3"]


@pytest.mark.parametrize("header", [["--header", "Authorization: Bearer wrong"], []])
def test_the_inspector_without_the_right_token_is_refused(
    served: ServeHandle, ran: list[str], tmp_path: Path, header: list[str]
) -> None:
    for method in (["tools/list"], ["tools/call", "--tool-name", "shout", "--tool-arg", "text=hi"]):
        done = inspector(served.url, tmp_path, "--method", *method, *header)
        assert done.returncode != 0, done.stdout
        assert "Failed to connect to MCP server" in done.stderr, done.stderr
    assert ran == []
