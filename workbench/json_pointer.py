"""Local JSON references (``#/$defs/Person``): RFC 6901 pointers within one document.

Tool schemas point into their own ``$defs``, AsyncAPI documents into their
``components``; the call form and the workspace loader both follow such pointers, here.
Nothing outside the document is ever fetched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote


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
