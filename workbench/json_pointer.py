"""Local JSON references (``#/$defs/Person``): RFC 6901 pointers within one document.

Tool schemas point into their own ``$defs``, AsyncAPI documents into their
``components``; the call form and the workspace loader both follow such pointers, here.
Nothing outside the document is ever fetched.

jsonschema-rs would fetch the rest: its default retriever reads ``http(s)://`` and
``file://`` references (and an unknown ``$schema``) when a validator is built, so a server's
tool schema could make the kernel send requests and read files. MCP 2026-07-28 (SEP-2106)
forbids network references; ``validator_for`` builds validators whose retriever refuses
every one of them, and names the reference instead (``ExternalRefError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn
from urllib.parse import unquote

_NO_BASE = "json-schema:///"
"""How jsonschema-rs names a relative reference when the schema has no ``$id``."""


def unescape(token: str) -> str:
    """One reference token as the key it names (``~1`` is ``/``, ``~0`` is ``~``)."""
    return unquote(token).replace("~1", "/").replace("~0", "~")


def resolve(document: Any, ref: str) -> Any:
    """What the local reference ``ref`` (``#`` then a JSON pointer) names in ``document``.

    Raises LookupError, with a one-line message, for a reference outside the document, one
    that is not a pointer, or one that names nothing.
    """
    if not ref.startswith("#"):
        raise LookupError(f"$ref {ref!r} points outside the document (only '#/...' is read)")
    path = ref[1:]
    if not path:
        return document
    if not path.startswith("/"):
        raise LookupError(f"$ref {ref!r} is not a JSON pointer ('#/...')")
    node = document
    for raw in path[1:].split("/"):
        part = unescape(raw)
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise LookupError(f"$ref {ref!r} names nothing in the document")
    return node


def not_followed(ref: str, keyword: str = "$ref") -> str:
    """The one-line reason an external reference stays unresolved."""
    return f"external {keyword} {ref!r} is not followed (MCP forbids network references)"


class ExternalRefError(LookupError):
    """A schema names something outside itself (a URL, a file); nothing was fetched.
    ``keyword`` is ``$schema`` when that was an unknown meta-schema's address."""

    def __init__(self, ref: str, keyword: str = "$ref") -> None:
        self.ref = ref.removeprefix(_NO_BASE)
        self.keyword = keyword
        super().__init__(not_followed(self.ref, keyword))


class _Refuser:
    """A jsonschema-rs retriever that fetches nothing and remembers what it was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, uri: str) -> NoReturn:
        self.asked.append(uri)
        raise ExternalRefError(uri)


def validator_for(schema: Any, **options: Any) -> Any:
    """``jsonschema_rs.validator_for(schema, **options)`` with only local references followed.

    Raises ExternalRefError, naming the first reference it refused, when the schema needs
    anything from outside itself; other errors of an unusable schema pass through as is.
    """
    import jsonschema_rs  # not at import time: the package imports without it (test_imports)

    refuser = _Refuser()
    try:
        return jsonschema_rs.validator_for(schema, retriever=refuser, **options)
    except Exception:
        if not refuser.asked:
            raise
        first = refuser.asked[0]
        meta = isinstance(schema, Mapping) and schema.get("$schema") in (first, first + "#")
        raise ExternalRefError(first, "$schema" if meta else "$ref") from None
