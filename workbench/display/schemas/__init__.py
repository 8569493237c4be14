"""The JSON Schemas of the documents the kernel hands the JupyterLab extension.

One file per document (``<name>.schema.json``, draft 2020-12, shipped in the wheel): each
mime bundle's document names its mime type (``x-mime-type``), the sidebar comm's messages
their comm target (``x-comm-target``). They are the one source of both sides: the tests
validate what the views write against them, and the extension's TypeScript types are
generated from them (``labextension/scripts/generate-types.mjs``). Nothing validates at run
time: the kernel writes a document on every display, and the tests are the guard.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

SUFFIX = ".schema.json"
SIDEBAR = "sidebar"
"""The schema of the ``workbench.sidebar`` comm's messages (``#/$defs/reply``, ``request``)."""


@cache
def names() -> tuple[str, ...]:
    """Every schema's name (its file name without ``.schema.json``), sorted."""
    return tuple(
        sorted(
            entry.name.removesuffix(SUFFIX)
            for entry in files(__name__).iterdir()
            if entry.name.endswith(SUFFIX)
        )
    )


@cache
def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((files(__name__) / f"{name}{SUFFIX}").read_text("utf-8"))
    return loaded


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` (``tool``, ``sidebar``...) as a new dict."""
    if name not in names():
        raise KeyError(f"No schema {name!r}; there are {', '.join(names())}.")
    return json.loads(json.dumps(_load(name)))  # type: ignore[no-any-return]


def mime_types() -> dict[str, str]:
    """Each mime bundle document's mime type -> its schema's name."""
    return {_load(name)["x-mime-type"]: name for name in names() if "x-mime-type" in _load(name)}


def for_mime(mime: str) -> dict[str, Any]:
    """The schema of the document under ``mime`` (``application/vnd.workbench.tool+json``)."""
    known = mime_types()
    if mime not in known:
        raise KeyError(f"No schema for {mime!r}; there are {', '.join(sorted(known))}.")
    return load(known[mime])


def _by_id() -> dict[str, dict[str, Any]]:
    return {_load(name)["$id"]: _load(name) for name in names()}


def validator(schema: dict[str, Any]) -> Any:
    """A jsonschema-rs validator of ``schema`` (one of these, or a part of one that keeps
    its ``$id``), whose references to the sibling schemas resolve here and nowhere else."""
    import jsonschema_rs  # not at import time: only the tests validate

    siblings = _by_id()

    def retrieve(uri: str) -> dict[str, Any]:
        found = siblings.get(uri.split("#", 1)[0])
        if found is None:
            raise ValueError(f"{uri} is not one of the workbench's schemas")
        return found

    return jsonschema_rs.Draft202012Validator(schema, retriever=retrieve)


def validator_for_mime(mime: str) -> Any:
    """A validator of the document under ``mime``."""
    return validator(for_mime(mime))


def validator_for_def(name: str, definition: str) -> Any:
    """A validator of one of ``name``'s ``$defs`` (the sidebar's ``reply``, ``request``)."""
    schema = load(name)
    if definition not in schema.get("$defs", {}):
        raise KeyError(f"No definition {definition!r} in the {name} schema.")
    return validator({"$ref": f"{schema['$id']}#/$defs/{definition}"})
