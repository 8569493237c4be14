"""The JSON Schemas of the extension's documents (workbench/display/schemas/): well formed,
one per mime type, documented, strict where the TypeScript relies on exact shapes, and the
source of the checked-in TypeScript types (whose header carries the schemas' hash)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from workbench.display import ServerTable, ToolCard, mime
from workbench.display.schemas import (
    for_mime,
    load,
    mime_types,
    names,
    validator,
    validator_for_def,
    validator_for_mime,
)
from workbench.registry.entry import ToolEntry

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workbench/display/schemas"
GENERATED = ROOT / "labextension/src/generated"
MIMES = {
    mime.OBSERVATION_MIME,
    mime.TOOL_MIME,
    mime.TABLE_MIME,
    mime.SERVERS_MIME,
    mime.PROGRESS_MIME,
    mime.BROWSER_MIME,
    mime.APP_MIME,
}
COMMS = {"sidebar": "workbench.sidebar", "apps-comm": "workbench.apps"}


def schemas_hash() -> str:
    """The hash labextension/scripts/generate-types.mjs writes: each schema file in name
    order, as ``name NUL bytes NUL``."""
    digest = hashlib.sha256()
    for path in sorted(SCHEMAS.glob("*.schema.json"), key=lambda p: p.name):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object schema below ``node`` with its place, for the checks on properties."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from subschemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from subschemas(value, f"{where}/{index}")


def test_one_schema_per_mime_type_and_one_per_comm() -> None:
    assert set(mime_types()) == MIMES
    assert names() == tuple(sorted([*mime_types().values(), *COMMS]))
    for name, target in COMMS.items():
        assert load(name)["x-comm-target"] == target
    assert for_mime(mime.TOOL_MIME)["title"] == "Tool document"
    with pytest.raises(KeyError, match="No schema for"):
        for_mime("application/json")
    with pytest.raises(KeyError, match="No schema"):
        load("nothing")
    with pytest.raises(KeyError, match="No definition"):
        validator_for_def("sidebar", "nothing")


@pytest.mark.parametrize("name", names())
def test_each_schema_is_draft_2020_12_with_an_id_a_title_and_descriptions(name: str) -> None:
    schema = load(name)
    jsonschema_rs.meta.validate(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/schemas/{name}.schema.json")
    assert schema["title"] and schema["description"]
    for where, node in subschemas(schema):
        for key, prop in (node.get("properties") or {}).items():
            if where.endswith("/if/properties") or "/if" in where:
                continue  # an if's properties only select, they are not the document's
            target = prop
            if "$ref" in prop and "description" not in prop:
                target = _resolve(schema, prop["$ref"])
            assert target.get("description"), f"{name}: {where}/properties/{key}"


def _resolve(schema: dict[str, Any], ref: str) -> dict[str, Any]:
    """A ``$ref``'s target: ``#/$defs/x`` here, or ``name.schema.json#/$defs/x`` beside."""
    file, _, pointer = ref.partition("#")
    found: dict[str, Any] = load(file.removesuffix(".schema.json")) if file else schema
    for part in pointer.split("/")[1:]:
        found = found[part]
    return found


@pytest.mark.parametrize("name", names())
def test_documents_are_closed_objects_except_mcp_content(name: str) -> None:
    """The extension reads documents field by field: an object the kernel writes has
    ``additionalProperties: false``, but for MCP's own (content blocks, a resource, the
    call's arguments), which carry whatever the server sent."""
    open_ones = {"contentBlock", "resourceContents"}
    for where, node in subschemas(load(name)):
        if node.get("type") != "object" or "properties" not in node:
            continue
        if where.rsplit("/", 1)[-1] in open_ones:
            assert node.get("additionalProperties", True) is True, where
        else:
            assert node.get("additionalProperties") is False, f"{name}: {where}"


def tool_document() -> dict[str, Any]:
    entry = ToolEntry.from_tool("s", {"name": "x", "inputSchema": {"properties": {"a": {}}}})
    return ToolCard(entry).to_json()


def test_a_wrong_missing_or_extra_field_fails() -> None:
    check = validator_for_mime(mime.TOOL_MIME)
    doc = tool_document()
    assert check.is_valid(doc)
    assert not check.is_valid({**doc, "extra": 1})
    assert not check.is_valid({**doc, "version": 2})
    assert not check.is_valid({**doc, "kind": "table"})
    assert not check.is_valid({key: value for key, value in doc.items() if key != "badges"})
    assert not check.is_valid({**doc, "parameters": [{**doc["parameters"][0], "required": "yes"}]})
    servers = validator_for_mime(mime.SERVERS_MIME)
    row = ServerTable([]).to_json()
    assert servers.is_valid(row)
    assert not servers.is_valid({**row, "servers": [{"name": "a"}]})


def test_a_browser_snapshot_is_checked_through_the_schemas_it_refers_to() -> None:
    """The snapshot's open tool and last call are the tool and call documents' schemas,
    found among the siblings (nothing is fetched)."""
    check = validator_for_mime(mime.BROWSER_MIME)
    last_call: dict[str, Any] = {
        "action": {"kind": "action", "version": 1, "toolId": "s.x", "arguments": {}},
        "observation": None,
    }
    doc = {
        "kind": "browser",
        "version": 1,
        "header": "",
        "query": "",
        "server": "",
        "note": "",
        "total": 0,
        "results": [],
        "open": tool_document(),
        "lastCall": last_call,
    }
    assert check.is_valid(doc)
    assert not check.is_valid({**doc, "open": {**tool_document(), "extra": True}})
    broken_call = {**last_call, "action": {"kind": "action", "version": 1}}
    assert not check.is_valid({**doc, "lastCall": broken_call})
    with pytest.raises(ValueError, match="not one of the workbench's schemas"):
        validator({"$ref": "https://example.invalid/other.json"})


def test_content_blocks_need_what_their_kind_draws() -> None:
    check = validator({"$ref": f"{load('observation')['$id']}#/$defs/contentBlock"})
    assert check.is_valid({"type": "text", "text": "hi", "annotations": {"priority": 1}})
    assert check.is_valid({"type": "future_kind"})  # drawn as a note, not refused
    assert not check.is_valid({"type": "text"})
    assert not check.is_valid({"type": "image", "data": "AAAA"})
    assert not check.is_valid({"type": "resource"})


def test_the_sidebar_requests_the_panel_sends_match_their_schema() -> None:
    """The requests of labextension/src/sidebar/panel.ts and link.ts (seq added by the link)."""
    check = validator_for_def("sidebar", "request")
    assert check.is_valid({"type": "search", "query": "add", "limit": 40, "seq": 1})
    assert check.is_valid({"type": "template", "id": "demo.add", "mode": "browse", "seq": 2})
    assert check.is_valid({"type": "refresh", "seq": 3})
    assert not check.is_valid({"type": "template", "id": "demo.add", "mode": "run", "seq": 2})
    assert not check.is_valid({"type": "search", "query": "add", "seq": 1})


def test_the_checked_in_typescript_types_were_made_from_these_schemas() -> None:
    """Every build regenerates labextension/src/generated/ (`jlpm build:types`) and `make
    lint` fails on a stale copy; this check needs no node: each generated file's header
    names the hash of the schemas it was made from."""
    others = [name for name in names() if name not in mime_types().values()]
    expected = {"documents.ts", *(f"{name}.ts" for name in others)}
    assert {path.name for path in GENERATED.glob("*.ts")} == expected
    for path in GENERATED.glob("*.ts"):
        text = path.read_text("utf-8")
        assert text.startswith("/**\n * GENERATED, DO NOT EDIT"), path.name
        found = re.search(r"schemas-sha256: ([0-9a-f]{64})", text)
        assert found is not None, path.name
        assert found.group(1) == schemas_hash(), (
            f"labextension/src/generated/{path.name} is stale: run `jlpm build:types` in "
            "labextension/ and commit it."
        )
