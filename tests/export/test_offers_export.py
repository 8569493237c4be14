"""``%mcp export`` carries the notebook's resources and prompts: the script registers them
with FastMCP's own decorators, runs without the workbench, and, started on 127.0.0.1, reads
and answers them as the notebook does."""

from __future__ import annotations

import asyncio
import base64
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from fastmcp import Client

from tests.export import offer_fixtures
from tests.export.test_script_serving import _environment, _free_port, _wait_listening
from workbench import Workbench
from workbench.export.script import ExportResult


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExportResult]:
    with Workbench() as wb:
        wb.add_resources(*offer_fixtures.RESOURCES)
        wb.add_prompts(*offer_fixtures.PROMPTS)
        yield wb.export(tmp_path_factory.mktemp("export") / "offers.py")


def test_the_script_names_what_it_serves_and_needs_no_workbench(exported: ExportResult) -> None:
    assert exported.exported == [] and exported.skipped == []
    assert exported.offered == [
        "data://config",
        "data://greeting",
        "data://logo",
        "data://notes",
        "data://users/{id}",
        "review",
        "summarize",
    ]
    text = exported.path.read_text()
    assert "import workbench" not in text and "from workbench" not in text
    assert "server.resource(" in text and "server.prompt(" in text


async def _everything(client: Client[Any]) -> dict[str, Any]:
    async with client:

        def texts(found: list[Any]) -> list[tuple[str | None, str | None]]:
            return [(item.mime_type, getattr(item, "text", None)) for item in found]

        blob = (await client.read_resource("data://logo"))[0]
        review = await client.get_prompt("review", {"code": "x = 1"})
        return {
            "resources": sorted(str(r.uri) for r in await client.list_resources()),
            "templates": [t.uri_template for t in await client.list_resource_templates()],
            "prompts": sorted(p.name for p in await client.list_prompts()),
            "greeting": texts(await client.read_resource("data://greeting")),
            "notes": texts(await client.read_resource("data://notes")),
            "config": texts(await client.read_resource("data://config")),
            "blob": (blob.mime_type, base64.b64decode(getattr(blob, "blob", ""))),
            "user": texts(await client.read_resource("data://users/12")),
            "review": [(m.role, getattr(m.content, "text", None)) for m in review.messages],
            "summarize": (
                await client.get_prompt("summarize", {"words": "5", "text": "MCP"})
            ).messages[0].content.text,
            "ids": (await client.complete(
                mcp_types.ResourceTemplateReference(uri="data://users/{id}"),
                {"name": "id", "value": "2"},
            )).values,
            "languages": (await client.complete(
                mcp_types.PromptReference(name="review"), {"name": "language", "value": "p"}
            )).values,
        }  # fmt: skip


@pytest.mark.integration
def test_the_script_over_http_reads_and_answers_as_the_notebook(
    exported: ExportResult, tmp_path: Path
) -> None:
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    command = exported.http_command(sys.executable, port)
    process = subprocess.Popen(
        command, cwd=exported.path.parent, env=_environment(), stdout=log, stderr=log
    )
    try:
        _wait_listening(port, process)
        seen = asyncio.run(_everything(Client(f"http://127.0.0.1:{port}/mcp")))
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
    assert seen["resources"] == ["data://config", "data://greeting", "data://logo", "data://notes"]
    assert seen["templates"] == ["data://users/{id}"]
    assert seen["prompts"] == ["review", "summarize"]
    assert seen["greeting"] == [("text/plain", "hello")]
    assert seen["notes"] == [("text/plain", "# Notes\nfirst")]
    assert seen["config"] == [("application/json", '{\n  "debug": true,\n  "level": 3\n}')]
    assert seen["blob"] == ("image/png", b"\x89PNG\r\n")
    assert seen["user"] == [("application/json", '{\n  "id": 12,\n  "even": true\n}')]
    assert seen["review"] == [("user", "Review this python: x = 1"), ("assistant", "Sure.")]
    assert seen["summarize"] == "Summarize in 5 words: MCP"
    assert seen["ids"] == [str(n) for n in range(20, 30)]
    assert seen["languages"] == ["python", "perl"]


def test_an_expression_resource_is_skipped_with_why(tmp_path: Path) -> None:
    from workbench.export.offers import EXPRESSION
    from workbench.export.script import export_tools
    from workbench.tools.resource_definition import ResourceDefinition

    def read() -> int:
        return 1

    setattr(read, EXPRESSION, "len(rows)")
    counted = ResourceDefinition(read, "data://count")
    result = export_tools(
        [], tmp_path / "out.py", resources=[counted, offer_fixtures.greeting], prompts=[]
    )
    assert result.offered == ["data://greeting"]
    [skipped] = result.skipped
    assert skipped.name == "data://count" and "the value of len(rows)" in skipped.reason
