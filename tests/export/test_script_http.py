"""The exported script over HTTP as ``%mcp serve`` serves: started as a process with the
workbench made unimportable, it needs a bearer token (401 without), checks Host and Origin
(DNS rebinding), passes its tools' log and progress messages on to a real client, and says
honestly what it is (the workbench's version) and what it can do (tools, logging)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.export import context_tools
from tests.export import fixtures as export_fixtures
from tests.export.test_script_serving import _environment, _free_port, _wait_listening
from workbench import Workbench
from workbench.__about__ import __version__

TOKEN = "a-token-only-this-test-knows"
WITHOUT_WORKBENCH = (
    "import runpy, sys; sys.modules['workbench'] = None; sys.argv = sys.argv[1:]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)
"""Runs the script given next with ``import workbench`` failing: it must not need it."""


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with Workbench() as wb:
        wb.add_tools(*context_tools.TOOLS)
        result = wb.export(tmp_path_factory.mktemp("export") / "reporting.py")
    assert result.exported == ["count", "shout"]
    return result.path


@pytest.fixture(scope="module")
def url(script: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The script served over HTTP on 127.0.0.1 with a token, without the workbench."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("logs") / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", WITHOUT_WORKBENCH, str(script), "--http", "--port", str(port)],
        cwd=script.parent,
        env={**_environment(), "WORKBENCH_TOKEN": TOKEN},
        stdout=log,
        stderr=log,
    )
    try:
        _wait_listening(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def test_the_script_needs_no_workbench(script: Path) -> None:
    text = script.read_text()
    assert "import workbench" not in text and "from workbench" not in text
    assert f"workbench {__version__}" in text and "WORKBENCH_TOKEN" in text


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_logs_and_progress_reach_the_client_and_it_says_what_it_is(url: str, mode: str) -> None:
    logs: list[tuple[str, Any]] = []
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_log(message: Any) -> None:
        logs.append((message.level, message.data["msg"]))

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def main() -> tuple[Any, ...]:
        client: Client[Any] = Client(
            url, auth=TOKEN, mode=mode, log_handler=on_log, progress_handler=on_progress
        )
        async with client:
            counted = await client.call_tool("count", {"n": 3})
            heard = (list(logs), list(progress))
            shouted = await client.call_tool("shout", {"word": "hi"})
            capabilities = client.server_capabilities
            info = client.server_info
            assert capabilities is not None and info is not None
            dumped = capabilities.model_dump(by_alias=True, exclude_none=True)
            answers = [_text(counted), _text(shouted)]
            return *answers, heard, dumped, (info.name, info.version)

    counted, shouted, heard, capabilities, info = asyncio.run(main())
    assert (counted, shouted) == ("counted to 3", "HI")
    assert heard == (
        [("info", "counting to 3")],
        [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")],
    )
    assert logs[1:] == [("warning", "shouting hi")] and progress[3:] == [(1, 1, None)]
    assert info == ("reporting", __version__)
    assert capabilities == {"tools": {"listChanged": False}, "logging": {}}


def _text(result: Any) -> str:
    text: str = result.content[0].text
    return text


def _post(url: str, headers: dict[str, str]) -> int:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    sent = {"Accept": "application/json, text/event-stream", **headers}
    return httpx.post(url, json=ping, headers=sent, timeout=10).status_code


@pytest.mark.integration
def test_a_missing_or_wrong_token_and_a_foreign_host_or_origin_are_refused(url: str) -> None:
    right = {"Authorization": f"Bearer {TOKEN}"}
    assert _post(url, {}) == 401
    assert _post(url, {"Authorization": "Bearer nope"}) == 401
    assert _post(url, {**right, "Host": "evil.example"}) == 421
    assert _post(url, {**right, "Origin": "http://evil.example"}) == 403
    assert _post(url, right) not in (401, 403, 421)


@pytest.mark.integration
def test_a_script_whose_tools_never_log_does_not_say_it_logs(tmp_path: Path) -> None:
    with Workbench() as wb:
        wb.add_tools(export_fixtures.circle_area)
        result = wb.export(tmp_path / "quiet_tools.py")
    transport = StdioTransport(sys.executable, [str(result.path)], env=_environment())

    async def capabilities() -> Any:
        async with Client(transport) as client:
            found = client.server_capabilities
            assert found is not None
            return found.model_dump(by_alias=True, exclude_none=True)

    assert asyncio.run(capabilities()) == {"tools": {"listChanged": False}}


def test_a_host_beyond_this_machine_needs_allow_remote_and_a_token(script: Path) -> None:
    env = {key: value for key, value in _environment().items() if key != "WORKBENCH_TOKEN"}
    command = [sys.executable, str(script), "--http", "--host", "0.0.0.0"]
    refused = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--allow-remote" in refused.stderr
    tokenless = subprocess.run(
        [*command, "--allow-remote"], env=env, capture_output=True, text=True, timeout=60
    )
    assert tokenless.returncode == 2 and "needs a token" in tokenless.stderr
    assert os.environ.get("WORKBENCH_TOKEN") != TOKEN  # the test's token stayed its own
