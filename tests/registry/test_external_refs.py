"""G2: a tool schema's external ``$ref`` is never fetched nor read, only named.

jsonschema-rs's default retriever followed ``http(s)://`` and ``file://`` references in a
server's input schema when the tool was first validated: the kernel sent the request and
applied what came back. MCP 2026-07-28 (SEP-2106) forbids network references; the call now
gets an error Observation naming the reference.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import FastMCP
from fastmcp.tools import Tool, ToolResult

from tests.schema_bait import FETCHED, Bait, running_bait
from workbench import Workbench
from workbench.errors import WorkbenchWarning
from workbench.json_pointer import ExternalRefError, validator_for
from workbench.registry import ToolEntry
from workbench.tools.schema import ErrorKind


@pytest.fixture
def bait() -> Iterator[Bait]:
    with running_bait() as server:
        yield server


class EchoTool(Tool):
    """A tool listed with any input schema; it answers with the arguments it got."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult(content=f"ran with {arguments}")


def hostile_server(schema: dict[str, Any]) -> FastMCP[Any]:
    """A real FastMCP server that lists tool ``t`` with ``schema`` as written."""
    server: FastMCP[Any] = FastMCP("h", dereference_schemas=False)
    server.add_tool(EchoTool(name="t", parameters=schema))
    return server


def schema_with(ref: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"a": {"$ref": ref}}}


def test_g2_an_http_ref_in_a_served_schema_is_never_fetched(wb: Workbench, bait: Bait) -> None:
    wb.connect("h", server=hostile_server(schema_with(bait.url)))
    assert wb.registry.get("h.t").input_schema == schema_with(bait.url)  # listed as written

    observation = wb.call("h.t", {"a": "too long"})

    assert bait.requests == []
    assert observation.is_error
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    message = str(observation.error_message)
    assert f"external $ref '{bait.url}' is not followed" in message
    assert "MCP forbids network references" in message
    assert "at most 1 character" not in message


def test_g2_a_file_ref_in_a_served_schema_is_never_applied(wb: Workbench, tmp_path: Path) -> None:
    local = tmp_path / "local_schema.json"
    local.write_text(json.dumps(FETCHED))
    ref = local.as_uri()
    wb.connect("h", server=hostile_server(schema_with(ref)))

    observation = wb.call("h.t", {"a": "too long"})

    assert observation.is_error
    message = str(observation.error_message)
    assert f"external $ref '{ref}' is not followed" in message
    assert "at most 1 character" not in message


@pytest.mark.parametrize(
    "schema",
    [
        pytest.param({"$schema": "{url}", "type": "object"}, id="unknown $schema"),
        pytest.param({"$defs": {"x": {"$ref": "{url}"}}}, id="unused $defs"),
        pytest.param({"$id": "{base}", "properties": {"a": {"$ref": "x.json"}}}, id="relative"),
        pytest.param({"properties": {"a": {"$dynamicRef": "{url}"}}}, id="$dynamicRef"),
    ],
)
def test_g2_no_reference_of_any_kind_reaches_the_network(
    bait: Bait, schema: dict[str, Any]
) -> None:
    text = json.dumps(schema)
    text = text.replace("{url}", bait.url).replace("{base}", bait.url.rsplit("/", 1)[0] + "/")
    entry = ToolEntry.from_tool("h", {"name": "t", "inputSchema": json.loads(text)})

    with warnings.catch_warnings():  # jsonschema-rs refuses $dynamicRef's target itself:
        warnings.simplefilter("ignore", WorkbenchWarning)  # unusable, warned, unchecked
        problems = entry.problems({"a": "too long"})

    assert bait.requests == []
    assert ("a", "must be at most 1 character") not in problems


def test_g2_local_refs_still_judge_the_arguments() -> None:
    schema = {
        "$id": "https://example.org/tool.json",
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Short"}},
        "$defs": {"Short": {"type": "string", "maxLength": 1}},
    }
    entry = ToolEntry.from_tool("h", {"name": "t", "inputSchema": schema})

    assert entry.problems({"a": "too long"}) == [("a", "must be at most 1 character")]


def test_g2_an_unknown_meta_schema_is_named_as_such() -> None:
    with pytest.raises(ExternalRefError, match=r"external \$schema 'urn:x' is not followed"):
        validator_for({"$schema": "urn:x"})
