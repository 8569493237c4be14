"""Tools that ask, in the exported script: a handshake-era client answers a real
``elicitation/create`` (sampling, roots/list); a 2026-07-28 client, to which a server cannot send
requests, gets a tool error saying so. Over stdio, with a real ``fastmcp.Client``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Literal

import mcp_types
import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.export import asking_tools
from tests.export.test_script_serving import _environment
from workbench import Workbench


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with Workbench() as wb:
        wb.add_tools(*asking_tools.TOOLS)
        result = wb.export(tmp_path_factory.mktemp("export") / "asking.py")
    assert result.exported == ["ask_model", "ask_name", "ask_roots", "ask_sure"]
    return result.path


def calls(script: Path, mode: Literal["legacy", "auto"]) -> list[tuple[bool, str]]:
    async def answer(message: str, response_type: Any, params: Any, context: Any) -> Any:
        return {"name": "Ada"} if message == "Your name?" else {"value": True}

    async def sample(messages: Any, params: Any, context: Any) -> str:
        return f"Paris ({messages[0].content.text})"

    async def main() -> list[tuple[bool, str]]:
        transport = StdioTransport(sys.executable, [str(script)], env=_environment())
        client: Client[Any] = Client(
            transport,
            mode=mode,
            elicitation_handler=answer,
            sampling_handler=sample,
            roots=[mcp_types.Root(uri="file:///data/here", name="Here")],
        )
        said = []
        async with client:
            for name, arguments in [
                ("ask_name", {}),
                ("ask_sure", {}),
                ("ask_model", {"prompt": "Capital?"}),
                ("ask_roots", {}),
            ]:
                result = await client.call_tool(name, arguments, raise_on_error=False)
                said.append((result.is_error, str(result.content[0].text)))  # type: ignore[union-attr]
        return said

    return asyncio.run(main())


@pytest.mark.integration
def test_a_handshake_era_client_answers_the_scripts_questions(script: Path) -> None:
    assert calls(script, "legacy") == [
        (False, "accept: Ada"),
        (False, "accept: True"),
        (False, "Paris (Capital?)"),
        (False, "file:///data/here (Here)"),
    ]


@pytest.mark.integration
def test_a_2026_client_is_told_the_script_cannot_ask_it(script: Path) -> None:
    said = calls(script, "auto")
    assert all(error for error, _ in said), said
    assert all("MCP 2026-07-28 clients do not take" in text for _, text in said), said
