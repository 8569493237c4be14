"""``tools/list`` pages with opaque, signed cursors, seen by a real ``fastmcp.Client`` in
another process: 250 tools in pages of 100, no ``nextCursor`` on the last page, and a
malformed or foreign cursor refused with JSON-RPC INVALID_PARAMS (-32602)."""

from __future__ import annotations

import base64
import json

import pytest

from tests.serving.conftest import Outside
from workbench.serving.cursor import CursorError, Pages
from workbench.session import Workbench
from workbench.tools.from_function import FunctionTool

INVALID_PARAMS = -32602


def many_tools(wb: Workbench, count: int) -> None:
    def echo(x: int) -> int:
        """Echo a number."""
        return x

    wb.add_tools(*(FunctionTool(echo, name=f"tool_{i:03d}") for i in range(count)))


@pytest.mark.integration
def test_an_outside_client_pages_through_250_tools(wb: Workbench, outside: type[Outside]) -> None:
    many_tools(wb, 250)
    handle = wb.serve(page_size=100)
    client = outside(handle.url, handle.token)
    pages = client.ask("pages")
    assert pages["sizes"] == [100, 100, 50]  # the walk stops: the last page has no cursor
    assert pages["names"] == [f"tool_{i:03d}" for i in range(250)]
    assert len(client.ask("list")["names"]) == 250  # list_tools follows the cursors itself


@pytest.mark.integration
def test_malformed_and_foreign_cursors_are_invalid_params(
    wb: Workbench, outside: type[Outside]
) -> None:
    many_tools(wb, 5)
    handle = wb.serve(page_size=2)
    fastmcp_style = base64.urlsafe_b64encode(json.dumps({"o": 2}).encode()).decode()
    other_server = Pages(2).cursor(2)
    client = outside(handle.url, handle.token)
    for cursor in ("not-a-cursor", fastmcp_style, other_server, other_server + "x"):
        answer = client.ask(f"cursor {cursor}")
        assert answer.get("code") == INVALID_PARAMS, (cursor, answer)
    assert client.ask("pages")["sizes"] == [2, 2, 1]


@pytest.mark.integration
def test_g12_a_non_ascii_seal_is_invalid_params_like_every_forged_cursor(
    wb: Workbench, outside: type[Outside]
) -> None:
    many_tools(wb, 5)
    handle = wb.serve(page_size=2)
    client = outside(handle.url, handle.token)
    first_page_cursor = client.ask("cursor_of_first_page")["cursor"]
    body = first_page_cursor.partition(".")[0]
    for cursor in (f"{body}.é", f"{body}.\u00e9" + "0" * 31, "é.é", f"{body}.\U0001f600"):
        answer = client.ask(f"cursor {cursor}")
        assert answer.get("code") == INVALID_PARAMS, (cursor, answer)
        assert "was not made by this server" in answer["message"], answer


def test_g12_pages_refuse_a_non_ascii_seal_with_a_cursor_error() -> None:
    pages = Pages(3)
    body = pages.cursor(3).partition(".")[0]
    for cursor in (f"{body}.é", "é.é", f"{body}.\ud800", "\ud800.x"):
        try:
            pages.offset(cursor)
        except CursorError:
            continue
        raise AssertionError(f"{cursor!r} was taken")


def test_pages_are_sealed_by_their_own_key() -> None:
    pages = Pages(3)
    items = list(range(7))
    first, cursor = pages.page(items, None)
    assert first == [0, 1, 2] and cursor is not None
    second, cursor = pages.page(items, cursor)
    assert second == [3, 4, 5] and cursor is not None
    assert pages.page(items, cursor) == ([6], None)
    try:
        Pages(3).offset(cursor)
    except CursorError:
        pass
    else:
        raise AssertionError("a cursor of another server was taken")
