"""The AsyncAPI 3 reader: which operations become event tools, their names, descriptions
and input schemas (``$ref``s resolved, unusable payloads made permissive)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from tests.schema_bait import running_bait
from workbench.workspace.asyncapi import (
    PERMISSIVE,
    DocumentError,
    operations_of,
    read_document,
    tool_name_of,
)
from workbench.workspace.refs import RefError, bundle, follow

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "workspace" / "events" / "orders.yaml"


def document(operations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "channels": {
            "signup": {
                "address": "user/{id}/signed-up",
                "messages": {"m": {"payload": {"type": "object", "properties": {"id": {}}}}},
            }
        },
        "operations": operations,
        **extra,
    }


def op(**extension: Any) -> dict[str, Any]:
    return {
        "action": "send",
        "channel": {"$ref": "#/channels/signup"},
        "summary": "The summary.",
        "x-agent-tool": {"enabled": True, **extension},
    }


def test_the_fixture_document_offers_its_enabled_operations() -> None:
    found = read_document(FIXTURE)
    assert [o.name for o in found.operations] == ["place_order", "cancelOrder", "write_audit"]
    assert [(s.operation, s.reason) for s in found.skipped] == [
        ("refundOrder", "disabled (x-agent-tool.enabled is not true)")
    ]
    place = found.operations[0]
    assert place.channel == "orders/{orderId}/placed"
    assert place.operation == "placeOrder"
    assert place.description == "Tell the shop that an order was placed."


def test_refs_are_resolved_through_messages_and_components() -> None:
    schema = read_document(FIXTURE).operations[0].input_schema
    assert schema["required"] == ["order_id", "items"]
    assert schema["properties"]["items"]["items"] == {"$ref": "#/$defs/Item"}
    assert schema["$defs"]["Item"]["required"] == ["sku", "quantity"]
    validator = jsonschema_rs.validator_for(schema)
    assert validator.is_valid({"order_id": "1", "items": [{"sku": "a", "quantity": 1}]})
    assert not validator.is_valid({"order_id": "1", "items": [{"sku": "a", "quantity": 0}]})


def test_name_falls_back_to_the_operation_id_then_the_channel_address() -> None:
    named = operations_of(document({"signUp": op(name="sign_up"), "b": op(), "not ok!": op()}))
    assert [o.name for o in named.operations] == ["sign_up", "b", "user_id_signed-up"]
    assert tool_name_of("a/{b}.c") == "a_b_c"


def test_a_bad_explicit_name_skips_the_operation() -> None:
    found = operations_of(document({"a": op(name="two words")}))
    assert found.operations == ()
    assert "not a valid tool name" in found.skipped[0].reason


def test_description_falls_back_to_the_summary() -> None:
    found = operations_of(document({"a": op(), "b": op(description="Mine.")}))
    assert [o.description for o in found.operations] == ["The summary.", "Mine."]


def test_disabled_and_unmarked_operations_are_not_tools() -> None:
    plain = {"action": "send", "channel": {"$ref": "#/channels/signup"}}
    off = op()
    off["x-agent-tool"]["enabled"] = False
    truthy = op()
    truthy["x-agent-tool"]["enabled"] = "yes"
    found = operations_of(document({"plain": plain, "off": off, "truthy": truthy}))
    assert found.operations == ()
    assert [s.operation for s in found.skipped] == ["off", "truthy"]


def test_an_invalid_payload_schema_becomes_a_permissive_object() -> None:
    doc = document({"a": op()})
    doc["channels"]["signup"]["messages"]["m"]["payload"] = {"type": 12}
    [found] = operations_of(doc).operations
    assert found.input_schema == PERMISSIVE
    assert "not a valid JSON Schema" in found.note


def test_an_unresolvable_ref_becomes_a_permissive_object() -> None:
    doc = document({"a": op()})
    doc["channels"]["signup"]["messages"]["m"]["payload"] = {"$ref": "other.yaml#/X"}
    [found] = operations_of(doc).operations
    assert found.input_schema == PERMISSIVE
    assert "outside the document" in found.note


def test_a_payload_that_is_not_an_object_is_the_payload_argument() -> None:
    doc = document({"a": op()})
    doc["channels"]["signup"]["messages"]["m"]["payload"] = {"type": "string"}
    [found] = operations_of(doc).operations
    assert found.wrapped
    assert found.input_schema["properties"] == {"payload": {"type": "string"}}


def test_recursive_schemas_stay_recursive() -> None:
    children = {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
    node = {"type": "object", "properties": {"children": children}}
    doc = {"components": {"schemas": {"Node": node}}}
    schema = bundle(doc, {"$ref": "#/components/schemas/Node"})
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    validator = jsonschema_rs.validator_for(schema)
    assert validator.is_valid({"children": [{"children": []}]})
    assert not validator.is_valid({"children": [{"children": 3}]})


def test_ref_loops_are_refused() -> None:
    doc = {"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}
    with pytest.raises(RefError, match="leads back"):
        follow(doc, {"$ref": "#/a"})


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("asyncapi: 2.6.0\n", "not an AsyncAPI 3 document"),
        ("- a list\n", "no mapping at the top"),
        ("asyncapi: 3.0.0\noperations: [\n", ":3: not valid YAML"),
    ],
)
def test_files_that_are_not_asyncapi_3_are_one_line_errors(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(text)
    with pytest.raises(DocumentError) as raised:
        read_document(path)
    assert says in str(raised.value) and "\n" not in str(raised.value)
    assert str(path) in str(raised.value)


def test_yaml_dates_and_keys_become_json(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    payload = "{type: object, properties: {day: {type: string, default: 2024-01-02}}}"
    path.write_text(
        "asyncapi: 3.0.0\nchannels: {c: {address: c, messages: {m: {payload: "
        + payload
        + "}}}}\noperations: {o: {channel: {$ref: '#/channels/c'},"
        + " x-agent-tool: {enabled: true}}}\n"
    )
    [found] = read_document(path).operations
    assert found.input_schema["properties"]["day"]["default"] == "2024-01-02"


def test_g16_an_x_agent_tool_name_or_operation_id_ending_in_a_newline_is_not_a_name() -> None:
    found = operations_of(document({"a": op(name="evil\n"), "b\n": op()}))
    assert [o.name for o in found.operations] == ["user_id_signed-up"]
    assert [item.reason for item in found.skipped] == [
        "x-agent-tool.name 'evil\\n' is not a valid tool name"
    ]


def test_g2_an_unknown_payload_meta_schema_is_never_fetched() -> None:
    with running_bait() as bait:
        doc = document({"a": op()})
        payload = {"$schema": bait.url, "type": "object"}
        doc["channels"]["signup"]["messages"]["m"]["payload"] = payload
        [found] = operations_of(doc).operations
        assert bait.requests == []
    assert found.input_schema == PERMISSIVE
    assert f"external $schema '{bait.url}' is not followed" in found.note
