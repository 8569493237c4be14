"""AsyncAPI 3.0 documents as event tools: which operations an agent may send, and their schema.

An operation is offered as a tool when it carries ``x-agent-tool`` with ``enabled: true``
(OpenAgents' convention). Its name is ``x-agent-tool.name``, else the operation's id (its key
in ``operations``), else its channel's address made a valid tool name; its description is
``x-agent-tool.description``, else the operation's summary (then its description). The input
schema is the message payload, every ``$ref`` resolved within the document (``refs.py``).
A payload that is no valid JSON Schema (judged by jsonschema-rs' meta-schemas) becomes a
permissive object and a note says so. A payload that is not an object (a string, say) is the
tool's one ``payload`` argument. Pure functions: reading the file is ``read_document``'s only
I/O, and it trusts nothing (``files.py``: regular files inside the workspace, 4 MiB at most;
``bounded_yaml.py``: no alias bombs, no document inside itself).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema_rs
import yaml

from workbench import json_pointer
from workbench.tools.definition import valid_tool_name
from workbench.workspace import bounded_yaml
from workbench.workspace.files import MAX_YAML_BYTES, FileRefused, read_limited
from workbench.workspace.refs import RefError, bundle, follow, ref_name

EXTENSION = "x-agent-tool"
PERMISSIVE: dict[str, Any] = {"type": "object"}
WRAPPED = "payload"
"""The one argument of an event tool whose payload is not an object."""
JSON_SCHEMA_FORMATS = ("application/schema+json", "application/vnd.aai.asyncapi")
"""Multi-format payloads in these formats are JSON Schema (AsyncAPI's own is a superset)."""


class DocumentError(ValueError):
    """A file that is no AsyncAPI 3 document, in one line: ``file:line: what``."""


@dataclass(frozen=True)
class EventOperation:
    """One operation offered as an event tool."""

    name: str
    description: str
    input_schema: dict[str, Any]
    channel: str
    operation: str
    wrapped: bool = False
    note: str = ""


@dataclass(frozen=True)
class SkippedOperation:
    """An operation with ``x-agent-tool`` that is not offered, and why."""

    operation: str
    reason: str


@dataclass(frozen=True)
class EventDocument:
    """What one document offers: its event tools and the operations it left out."""

    operations: tuple[EventOperation, ...]
    skipped: tuple[SkippedOperation, ...]


def read_document(path: Path, root: Path | None = None) -> EventDocument:
    """Read an AsyncAPI 3 YAML (or JSON) file, a regular file inside ``root`` (default: its
    own folder) of at most ``MAX_YAML_BYTES``; DocumentError for one that is not, or that is
    refused (``files.py``, ``bounded_yaml.py``)."""
    try:
        data = read_limited(path, root or path.parent.resolve(), MAX_YAML_BYTES)
        text = data.decode("utf-8-sig")
    except FileRefused as error:
        raise DocumentError(str(error)) from None
    except UnicodeDecodeError as error:
        raise DocumentError(f"{path}: cannot be read ({error})") from None
    try:
        document = bounded_yaml.load(text)
    except bounded_yaml.YamlRefused as error:
        raise DocumentError(f"{path}:{error.line}: {error.message}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise DocumentError(f"{path}{line}: not valid YAML: {' '.join(problem.split())}") from None
    return operations_of(jsonable(document), str(path))


def operations_of(document: Any, where: str = "document") -> EventDocument:
    """The event tools of a parsed AsyncAPI 3 document (plain JSON data)."""
    if not isinstance(document, Mapping):
        raise DocumentError(f"{where}: not an AsyncAPI document (no mapping at the top)")
    version = document.get("asyncapi")
    if not isinstance(version, str) or not version.startswith("3."):
        raise DocumentError(f"{where}: not an AsyncAPI 3 document (asyncapi: {version!r})")
    operations = document.get("operations") or {}
    if not isinstance(operations, Mapping):
        raise DocumentError(f"{where}: 'operations' is not a mapping")
    offered: list[EventOperation] = []
    skipped: list[SkippedOperation] = []
    for key, operation in operations.items():
        if not isinstance(operation, Mapping) or EXTENSION not in operation:
            continue
        try:
            offered.append(_event_operation(document, str(key), operation))
        except _Skip as why:
            skipped.append(SkippedOperation(str(key), str(why)))
        except RefError as error:
            skipped.append(SkippedOperation(str(key), str(error)))
    return EventDocument(tuple(offered), tuple(skipped))


class _Skip(Exception):
    """An operation not offered, with the reason."""


def _event_operation(document: Any, key: str, operation: Mapping[str, Any]) -> EventOperation:
    extension = operation[EXTENSION]
    if not isinstance(extension, Mapping):
        raise _Skip(f"{EXTENSION} is not a mapping")
    if extension.get("enabled") is not True:
        raise _Skip(f"disabled ({EXTENSION}.enabled is not true)")
    channel_key, channel = _channel(document, operation)
    address = channel.get("address") if isinstance(channel.get("address"), str) else None
    shown_channel = address or channel_key
    name = _name(extension, key, shown_channel)
    description = _text(extension.get("description")) or _text(operation.get("summary"))
    description = description or _text(operation.get("description"))
    schema, wrapped, note = _input_schema(document, operation, channel)
    return EventOperation(name, description, schema, shown_channel, key, wrapped, note)


def _channel(document: Any, operation: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    reference = operation.get("channel")
    if reference is None:
        raise _Skip("the operation names no channel")
    channel = follow(document, reference)
    if not isinstance(channel, Mapping):
        raise _Skip("the operation's channel is not a channel object")
    ref = reference.get("$ref") if isinstance(reference, Mapping) else None
    return (ref_name(ref) if isinstance(ref, str) else ""), channel


def _name(extension: Mapping[str, Any], key: str, channel: str) -> str:
    given = extension.get("name")
    if given is not None:
        if valid_tool_name(given):
            return given
        raise _Skip(f"{EXTENSION}.name {given!r} is not a valid tool name")
    if valid_tool_name(key):
        return key
    made = tool_name_of(channel) or tool_name_of(key)
    if not made:
        raise _Skip("neither the operation id nor the channel address makes a tool name")
    return made


def tool_name_of(text: str) -> str:
    """A valid tool name from a channel address: ``user/{id}/signup`` -> ``user_id_signup``."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_")[:128]


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _messages(document: Any, operation: Mapping[str, Any], channel: Mapping[str, Any]) -> list[Any]:
    listed = operation.get("messages")
    if listed is None:
        messages = channel.get("messages") or {}
        listed = list(messages.values()) if isinstance(messages, Mapping) else []
    if not isinstance(listed, list):
        raise _Skip("the operation's messages are not a list")
    return [follow(document, message) for message in listed]


def _payload(document: Any, message: Any) -> tuple[Any, str]:
    """A message's payload schema (``None``: it has none), or a note why it cannot be used."""
    if not isinstance(message, Mapping):
        return None, "a message is not a message object"
    payload = message.get("payload")
    if isinstance(payload, Mapping) and "schemaFormat" in payload and "schema" in payload:
        form = str(payload["schemaFormat"])
        if not form.startswith(JSON_SCHEMA_FORMATS):
            return None, f"its payload's schemaFormat {form!r} is not JSON Schema"
        payload = payload["schema"]
    return payload, ""


def _input_schema(
    document: Any, operation: Mapping[str, Any], channel: Mapping[str, Any]
) -> tuple[dict[str, Any], bool, str]:
    """The tool's input schema, whether the payload is wrapped as ``payload``, and a note."""
    payloads = []
    for message in _messages(document, operation, channel):
        payload, note = _payload(document, message)
        if note:
            return dict(PERMISSIVE), False, _permissive(note)
        if payload is not None:
            payloads.append(payload)
    if not payloads:
        return dict(PERMISSIVE), False, ""
    try:
        schema = bundle(document, payloads[0] if len(payloads) == 1 else {"anyOf": payloads})
    except RefError as error:
        return dict(PERMISSIVE), False, _permissive(str(error))
    problem = schema_problem(schema)
    if problem:
        return dict(PERMISSIVE), False, _permissive(f"not a valid JSON Schema: {problem}")
    if isinstance(schema, dict) and _is_object(schema):
        return {"type": "object", **schema}, False, ""
    defs = schema.pop("$defs", None) if isinstance(schema, dict) else None
    wrapped: dict[str, Any] = {
        "type": "object",
        "properties": {WRAPPED: schema},
        "required": [WRAPPED],
        "additionalProperties": False,
    }
    if defs:
        wrapped["$defs"] = defs
    return wrapped, True, ""


def schema_problem(schema: Any) -> str:
    """Why ``schema`` is no valid JSON Schema (its meta-schema's verdict), or ''.

    A ``$schema`` jsonschema-rs does not know is refused first: ``meta.validate`` would
    fetch it (G2)."""
    meta = schema.get("$schema") if isinstance(schema, Mapping) else None
    if isinstance(meta, str):
        try:
            json_pointer.validator_for({"$schema": meta})
        except json_pointer.ExternalRefError as error:
            return str(error)
        except Exception:  # meta.validate, below, says what is wrong
            pass
    try:
        jsonschema_rs.meta.validate(schema)
    except jsonschema_rs.ValidationError as error:
        return " ".join(str(error.message).split())
    except Exception as error:  # an unknown $schema, say
        return " ".join(str(error).split())
    return ""


def _is_object(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind is None:
        return "properties" in schema or any(k in schema for k in ("anyOf", "oneOf", "allOf"))
    return bool(kind == "object")


def _permissive(why: str) -> str:
    return f"payload schema unusable ({why}); any object is accepted"


def jsonable(value: Any) -> Any:
    """YAML's extras as JSON: dates and times as ISO text, keys as text, sets as lists."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(item) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value
