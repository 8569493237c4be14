"""``%mcp export`` carries a notebook-built App: the exported script, run as a real process on
127.0.0.1, lists the UI tool with ``_meta.ui.resourceUri``, serves the App's HTML as
``text/html;profile=mcp-app`` with its ``_meta.ui``, and declares the UI extension, as
``%mcp serve`` does."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from tests.export.test_script_serving import _environment, _free_port, _wait_listening
from workbench import Workbench
from workbench.export.script import ExportResult
from workbench.tools.app_definition import APP_MIME_TYPE, UI_EXTENSION, App
from workbench.tools.from_function import tool

HTML = "<!doctype html><p>clock</p><script>const s = '</' + 'script>';</script>"
CSP = {"connectDomains": ["https://api.example"]}
UI = {"csp": CSP, "prefersBorder": True}


@tool(ui="clock")
def now() -> str:
    """The time."""
    return "noon"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExportResult]:
    with Workbench() as wb:
        wb.add_tools(now)
        wb.add_resources(App("clock", html=HTML, csp=CSP, prefers_border=True))
        yield wb.export(tmp_path_factory.mktemp("export") / "apps.py")


async def _seen(client: Client[Any]) -> dict[str, Any]:
    async with client:
        tools = {t.name: (t.meta or {}).get("ui") for t in await client.list_tools()}
        listed = [
            (str(r.uri), r.mime_type, (r.meta or {}).get("ui"))
            for r in await client.list_resources()
        ]
        read = (await client.read_resource("ui://notebook/clock"))[0]
        called = await client.call_tool("now", {})
        capabilities = client.server_capabilities
        return {
            "tools": tools,
            "listed": listed,
            "read": (read.mime_type, getattr(read, "text", None), (read.meta or {}).get("ui")),
            "called": getattr(called.content[0], "text", None),
            "extensions": (capabilities.extensions if capabilities else None) or {},
        }  # fmt: skip


@pytest.mark.integration
def test_the_exported_script_serves_the_app_like_the_notebook(
    exported: ExportResult, tmp_path: Path
) -> None:
    assert exported.exported == ["now"] and exported.offered == ["ui://notebook/clock"]
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    command = exported.http_command(sys.executable, port)
    process = subprocess.Popen(
        command, cwd=exported.path.parent, env=_environment(), stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_listening(port, process)
        eras = {mode: asyncio.run(_seen(Client(url, mode=mode))) for mode in ("auto", "legacy")}
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
    for mode, seen in eras.items():
        assert seen["tools"] == {"now": {"resourceUri": "ui://notebook/clock"}}
        assert seen["listed"] == [("ui://notebook/clock", APP_MIME_TYPE, UI)]
        assert seen["read"] == (APP_MIME_TYPE, HTML, UI)
        assert seen["called"] == "noon"
        # SEP-2133 extensions are declared from 2026-07-28 on (the handshake era has none)
        assert seen["extensions"].get(UI_EXTENSION) == ({} if mode == "auto" else None)
