"""The exported script as a real server: started as a process, over stdio and over HTTP, it
lists each tool as the notebook server does and answers every call as the notebook does."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.export import fixtures as export_fixtures
from workbench import Workbench
from workbench.export.script import ExportResult

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("circle_area", {"radius": 2}),
    ("circle_area", {"radius": 1.5, "unit": "ft"}),
    ("distance", {"a": {"x": 0, "y": 0}, "b": {"x": 3, "y": 4}}),
    ("distance", {"a": {"x": 1}, "b": {"x": 3, "y": -4}, "metric": "manhattan"}),
    ("window_end", {"window": {"start": "2024-02-27", "days": 3}}),
    ("window_end", {"window": {"start": "2024-12-30", "days": 5}, "weekday": True}),
    ("as_json", {"values": [1, 2, 3]}),
    ("as_json", {"values": [4], "indent": 2}),
    ("nothing", {}),
    ("pixel", {}),
    ("pixel", {"pdf": True}),
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workbench, ExportResult]]:
    wb = Workbench()
    wb.add_tools(*export_fixtures.TOOLS, *export_fixtures.UNRECOVERABLE.values())
    result = wb.export(tmp_path_factory.mktemp("export") / "fixture_tools.py")
    yield wb, result
    wb.close()


def _environment() -> dict[str, str]:
    """The child's environment, without a PYTHONPATH that could reach the tests' modules."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def test_every_recoverable_tool_is_exported_and_the_others_are_named(
    exported: tuple[Workbench, ExportResult],
) -> None:
    _, result = exported
    assert sorted(result.exported) == sorted(tool.name for tool in export_fixtures.TOOLS)
    assert {item.name for item in result.skipped} == set(export_fixtures.UNRECOVERABLE)
    text = result.path.read_text()
    assert "import workbench" not in text and "from workbench" not in text


def _listed(tool: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def _content(result: Any) -> tuple[list[dict[str, Any]], Any, bool]:
    blocks = [
        block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content
    ]
    return blocks, result.structured_content, result.is_error


async def _list_and_call(client: Client[Any]) -> tuple[dict[str, Any], list[Any]]:
    async with client:
        listed = {tool.name: _listed(tool) for tool in await client.list_tools()}
        results = [
            _content(await client.call_tool(name, arguments, raise_on_error=False))
            for name, arguments in CALLS
        ]
    return listed, results


def _notebook_side(wb: Workbench) -> tuple[dict[str, Any], list[Any]]:
    """The notebook server's own listing (an in-process client) and the in-kernel calls."""
    local = wb._local  # the notebook server itself, as an outside client would see it
    assert local is not None
    listed, _ = asyncio.run(_list_only(Client(local.server)))
    results = []
    for name, arguments in CALLS:
        observation = wb.call(f"notebook.{name}", arguments)
        assert not observation.is_error, observation.error_message
        blocks = [
            block.model_dump(mode="json", by_alias=True, exclude_none=True)
            for block in observation.content
        ]
        results.append((blocks, observation.structured_content, observation.is_error))
    return listed, results


async def _list_only(client: Client[Any]) -> tuple[dict[str, Any], None]:
    async with client:
        return {tool.name: _listed(tool) for tool in await client.list_tools()}, None


def _compare(wb: Workbench, listed: dict[str, Any], results: list[Any]) -> None:
    notebook_listed, notebook_results = _notebook_side(wb)
    exported_names = {tool.name for tool in export_fixtures.TOOLS}
    assert set(listed) == exported_names
    for name in exported_names:
        assert listed[name] == notebook_listed[name], name
    for (name, arguments), mine, theirs in zip(CALLS, results, notebook_results, strict=True):
        assert mine == theirs, (name, arguments)


@pytest.mark.integration
def test_the_script_over_stdio_lists_and_answers_as_the_notebook(
    exported: tuple[Workbench, ExportResult],
) -> None:
    wb, result = exported
    transport = StdioTransport(
        sys.executable, [str(result.path)], env=_environment(), cwd=str(result.path.parent)
    )
    listed, results = asyncio.run(_list_and_call(Client(transport)))
    _compare(wb, listed, results)
    assert results[0][0] == [{"type": "text", "text": "12.566 m^2"}]
    assert listed["circle_area"]["icons"] == [
        {"src": "data:image/svg+xml;base64,PHN2Zy8+"},
        {"src": "https://icons.example/circle.png", "sizes": ["48x48"], "theme": "dark"},
    ]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_listening(port: int, process: subprocess.Popen[bytes], within: float = 30) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the script exited with {process.returncode} before listening")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listened on 127.0.0.1:{port} within {within} s")


@pytest.mark.integration
def test_the_script_over_http_lists_and_answers_as_the_notebook(
    exported: tuple[Workbench, ExportResult], tmp_path: Path
) -> None:
    wb, result = exported
    port = _free_port()
    command = result.http_command(sys.executable, port)
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        command, cwd=result.path.parent, env=_environment(), stdout=log, stderr=log
    )
    try:
        _wait_listening(port, process)
        listed, results = asyncio.run(_list_and_call(Client(f"http://127.0.0.1:{port}/mcp")))
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
    _compare(wb, listed, results)


@pytest.mark.integration
def test_the_script_refuses_bad_arguments_with_an_error_result(
    exported: tuple[Workbench, ExportResult],
) -> None:
    _, result = exported
    transport = StdioTransport(sys.executable, [str(result.path)], env=_environment())

    async def call() -> Any:
        async with Client(transport) as client:
            return await client.call_tool("circle_area", {"radius": "big"}, raise_on_error=False)

    answer = asyncio.run(call())
    assert answer.is_error
    assert "radius" in answer.content[0].text
