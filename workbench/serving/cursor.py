"""Opaque, signed ``tools/list`` cursors: a page's offset, sealed with this server's key.

A cursor is ours to produce, so one this server did not make (malformed, edited, or from
another server, FastMCP's plain base64 offsets included) is refused as INVALID_PARAMS.
No MCP here: ``CursorError`` is turned into the JSON-RPC error by the server.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class CursorError(ValueError):
    """A cursor this server did not make."""


class Pages:
    """Cuts a list into pages of ``size`` with cursors only this instance accepts."""

    def __init__(self, size: int) -> None:
        if isinstance(size, bool) or size < 1:
            raise ValueError(f"page size must be a positive whole number, got {size!r}")
        self.size = size
        self._key = secrets.token_bytes(32)

    def page(self, items: Sequence[T], cursor: str | None) -> tuple[list[T], str | None]:
        """The page ``cursor`` points at and the next page's cursor (None on the last)."""
        offset = 0 if cursor is None else self.offset(cursor)
        end = offset + self.size
        return list(items[offset:end]), (self.cursor(end) if end < len(items) else None)

    def cursor(self, offset: int) -> str:
        body = base64.urlsafe_b64encode(json.dumps({"o": offset}).encode()).decode().rstrip("=")
        return f"{body}.{self._seal(body)}"

    def offset(self, cursor: str) -> int:
        body, dot, seal = cursor.partition(".")
        # Bytes, not text: compare_digest refuses non-ASCII text with a TypeError (G12), and
        # surrogatepass keeps a lone surrogate from raising before the comparison.
        given = seal.encode("utf-8", "surrogatepass")
        if not dot or not hmac.compare_digest(given, self._seal(body).encode()):
            raise CursorError(f"Invalid cursor: {cursor[:80]!r} was not made by this server")
        try:
            data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            offset = data["o"]
        except (binascii.Error, ValueError, KeyError, TypeError) as error:  # pragma: no cover
            raise CursorError(f"Invalid cursor: {cursor[:80]!r}") from error
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise CursorError(f"Invalid cursor: {cursor[:80]!r}")  # pragma: no cover
        return offset

    def _seal(self, body: str) -> str:
        data = body.encode("utf-8", "surrogatepass")
        return hmac.new(self._key, data, hashlib.sha256).hexdigest()[:32]
