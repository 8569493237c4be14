"""The embedded demo server, seen from a real FastMCP client (in memory, and once over stdio)."""

import asyncio
import base64
import datetime as dt
import struct
import sys
import time
import warnings
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.client import CallToolResult
from fastmcp.client.logging import LogMessage
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from mcp import MCPDeprecationWarning, MCPError
from mcp.types import ImageContent, TextContent

from workbench.__about__ import __version__
from workbench.demo import build_demo_server

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[2]
TOOLS = {
    "add",
    "text_stats",
    "draw_chart",
    "slow_count",
    "log_demo",
    "fail",
    "create_event",
    "list_events",
    "get_time",
    "book_table",
    "summarize",
}
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
EVENT: dict[str, Any] = {
    "title": "Workshop",
    "when": {"date": "2026-12-01", "start": "09:30", "duration_minutes": 90},
    "attendees": [{"name": "Ada", "email": "ada@example.org"}, {"name": "Grace"}],
    "location": None,
    "priority": "high",
    "tags": ["mcp"],
}


def _text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def _png(result: CallToolResult) -> bytes:
    (block,) = result.content
    assert isinstance(block, ImageContent)
    assert block.mime_type == "image/png"
    return base64.b64decode(block.data)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[Client[Any]]:
    async with Client(build_demo_server()) as connected:
        yield connected


async def test_every_tool_has_a_title_tags_hints_and_described_parameters(
    client: Client[Any],
) -> None:
    tools = await client.list_tools()

    assert {tool.name for tool in tools} == TOOLS
    writers = []
    for tool in tools:
        assert tool.title and tool.description, tool.name
        assert tool.annotations is not None, tool.name
        hints = tool.annotations.model_dump(by_alias=True, exclude_none=True)
        assert set(HINTS) <= set(hints), tool.name
        if not hints["readOnlyHint"]:
            writers.append(tool.name)
        assert tool.meta and tool.meta["fastmcp"]["tags"], tool.name
        for name, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{name}"
    assert writers == ["create_event"]


async def test_docstring_line_breaks_are_reflowed_in_demo_descriptions(
    client: Client[Any],
) -> None:
    """Tool cards showed the docstrings' hard line breaks ("...the count stops / at the next")."""
    for tool in await client.list_tools():
        for paragraph in (tool.description or "").split("\n\n"):
            assert "\n" not in paragraph, tool.name


async def test_instructions_say_what_the_server_is_for(client: Client[Any]) -> None:
    # `initialize_result` is None on protocol 2026-07-28 (server/discover): use era-neutral names.
    assert client.server_info is not None
    assert (client.server_info.name, client.server_info.version) == ("demo", __version__)
    assert "offline" in (client.instructions or "")


async def test_each_build_is_a_fresh_server() -> None:
    assert build_demo_server() is not build_demo_server()


async def test_add(client: Client[Any]) -> None:
    result = await client.call_tool("add", {"a": 2, "b": 0.5})
    assert result.data == 2.5


async def test_add_of_whole_numbers_is_a_whole_number_in_every_view(client: Client[Any]) -> None:
    result = await client.call_tool("add", {"a": 2, "b": 3})
    assert _text(result) == "5"  # text/plain and the HTML view read this, Lab the structured
    assert result.structured_content == {"result": 5}
    assert type(result.structured_content["result"]) is int
    (tool,) = [tool for tool in await client.list_tools() if tool.name == "add"]
    assert tool.output_schema is not None
    assert tool.output_schema["properties"]["result"] == {"type": "number"}


async def test_text_stats_has_an_output_schema_and_structured_content(
    client: Client[Any],
) -> None:
    (tool,) = [tool for tool in await client.list_tools() if tool.name == "text_stats"]
    assert tool.output_schema is not None
    assert {"characters", "words", "lines", "sentences", "most_common"} <= set(
        tool.output_schema["properties"]
    )

    text = "The cat sat. The cat ran!\nIt's 3.5 metres? Yes"
    result = await client.call_tool("text_stats", {"text": text, "top": 2})

    assert result.structured_content == {
        "characters": len(text),
        "words": 11,
        "unique_words": 9,
        "lines": 2,
        "sentences": 4,
        "average_word_length": round(sum(map(len, "thecatsatthecatranit's35metresyes")) / 11, 2),
        "most_common": [{"word": "the", "count": 2}, {"word": "cat", "count": 2}],
    }


async def test_text_stats_of_an_empty_text_is_all_zeros(client: Client[Any]) -> None:
    result = await client.call_tool("text_stats", {"text": ""})
    assert result.structured_content == {
        "characters": 0,
        "words": 0,
        "unique_words": 0,
        "lines": 0,
        "sentences": 0,
        "average_word_length": 0.0,
        "most_common": [],
    }


def _read_png(data: bytes) -> tuple[int, int, bytes]:
    """Check the signature, every chunk's CRC and the IHDR; return width, height, raw rows."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks: list[tuple[bytes, bytes]] = []
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        offset += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, color_type = struct.unpack(">IIBB", chunks[0][1][:10])
    assert (depth, color_type) == (8, 2)  # 8-bit RGB
    raw = zlib.decompress(chunks[1][1])
    assert len(raw) == height * (1 + width * 3)
    return width, height, raw


def _colors(width: int, height: int, raw: bytes, rows: range) -> set[bytes]:
    stride = 1 + width * 3
    assert all(raw[y * stride] == 0 for y in range(height))  # filter type "none" everywhere
    return {
        raw[y * stride + 1 + x * 3 : y * stride + 4 + x * 3] for y in rows for x in range(width)
    }


async def test_draw_chart_returns_a_png_it_drew_itself(client: Client[Any]) -> None:
    result = await client.call_tool("draw_chart", {"values": [3, -1, 4.5], "title": "Pi-ish"})

    assert result.structured_content is None
    width, height, raw = _read_png(_png(result))
    assert (width, height) == (320, 200)
    colors = _colors(width, height, raw, range(height))
    white, ink = bytes((255, 255, 255)), bytes((40, 40, 48))
    assert {white, ink} < colors and len(colors) >= 5  # background, caption, axis, 3 bar colors


async def test_draw_chart_without_a_title_leaves_the_top_blank(client: Client[Any]) -> None:
    result = await client.call_tool("draw_chart", {"values": [1, 2]})
    width, height, raw = _read_png(_png(result))
    assert _colors(width, height, raw, range(10)) == {bytes((255, 255, 255))}


@pytest.mark.parametrize("values", [[], ["tall"]])
async def test_draw_chart_rejects_bad_values(client: Client[Any], values: list[Any]) -> None:
    result = await client.call_tool("draw_chart", {"values": values}, raise_on_error=False)
    assert result.is_error


async def test_slow_count_reports_progress_at_every_step(client: Client[Any]) -> None:
    updates: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, total, message))

    result = await client.call_tool(
        "slow_count", {"seconds": 0.2, "steps": 4}, progress_handler=on_progress
    )

    assert result.data.startswith("Counted to 4")
    assert [progress for progress, _, _ in updates] == [1, 2, 3, 4]
    assert {total for _, total, _ in updates} == {4}
    assert updates[-1][2] == "Counted 4 of 4"


class _CallOutcomes(Middleware):
    """Records how each tool call ended on the server, and when."""

    def __init__(self) -> None:
        self.ended: dict[str, tuple[str, float]] = {}
        self.changed = asyncio.Event()

    async def on_call_tool(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]
    ) -> Any:
        outcome = "returned"
        try:
            return await call_next(context)
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            self.ended[context.message.name] = (outcome, time.perf_counter())
            self.changed.set()


@pytest.mark.integration
async def test_a_timeout_cancels_slow_count_on_the_server_promptly() -> None:
    server = build_demo_server()
    outcomes = _CallOutcomes()
    server.add_middleware(outcomes)
    async with Client(server) as client:
        started = time.perf_counter()
        with pytest.raises(MCPError) as raised:
            await client.call_tool("slow_count", {"seconds": 60, "steps": 60}, timeout=0.3)
        assert raised.value.error.code == -32001
        assert time.perf_counter() - started < 2

        await asyncio.wait_for(outcomes.changed.wait(), timeout=2)
        outcome, ended = outcomes.ended["slow_count"]
        assert outcome == "cancelled" and ended - started < 2

        assert (await client.call_tool("add", {"a": 1, "b": 1})).data == 2  # still usable


async def test_log_demo_reaches_the_log_handler_without_warnings() -> None:
    received: list[LogMessage] = []

    async def on_log(message: LogMessage) -> None:
        received.append(message)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MCPDeprecationWarning)
        async with Client(build_demo_server(), log_handler=on_log) as client:
            result = await client.call_tool("log_demo", {"message": "hello", "level": "warning"})

    assert result.data == "Sent a warning log message."
    assert [(m.level, m.logger, m.data["msg"]) for m in received] == [("warning", "demo", "hello")]
    assert not [w for w in caught if issubclass(w.category, MCPDeprecationWarning)]


async def test_fail_comes_back_as_an_error_result(client: Client[Any]) -> None:
    result = await client.call_tool("fail", {"reason": "on purpose"}, raise_on_error=False)
    assert result.is_error
    assert _text(result) == "on purpose"

    with pytest.raises(ToolError, match="always fails"):
        await client.call_tool("fail")


async def test_create_event_validates_nested_input_and_keeps_it(client: Client[Any]) -> None:
    result = await client.call_tool("create_event", {"event": EVENT})

    stored = result.structured_content
    assert stored is not None
    assert stored["id"] == "evt-1"
    assert stored["starts_at"] == "2026-12-01T09:30:00"
    assert stored["ends_at"] == "2026-12-01T11:00:00"
    assert stored["event"]["attendees"] == [
        {"name": "Ada", "email": "ada@example.org"},
        {"name": "Grace", "email": None},
    ]
    assert "2 attendees, high priority" in stored["summary"]

    later = {**EVENT, "title": "Later", "when": {"date": "2026-12-24", "start": "18:00"}}
    earlier = {**EVENT, "title": "Earlier", "when": {"date": "2026-11-30", "start": "08:00Z"}}
    await client.call_tool("create_event", {"event": later})
    await client.call_tool("create_event", {"event": earlier})
    listed = (await client.call_tool("list_events")).structured_content
    assert listed is not None
    assert [event["event"]["title"] for event in listed["result"]] == [
        "Earlier",
        "Workshop",
        "Later",
    ]


@pytest.mark.integration
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"when": None}, "when"),
        ({"when": {"date": "2026-02-30", "start": "09:30"}}, "date"),
        ({"when": {"date": "2026-12-01", "start": "25:00"}}, "start"),
        ({"attendees": [{"name": ""}]}, "name"),
        ({"attendees": [{"name": "Ada", "email": "not-an-email"}]}, "email"),
        ({"priority": "someday"}, "priority"),
        ({"tags": "mcp"}, "tags"),
    ],
)
async def test_create_event_rejects_bad_nested_input(
    client: Client[Any], change: dict[str, Any], field: str
) -> None:
    result = await client.call_tool(
        "create_event", {"event": {**EVENT, **change}}, raise_on_error=False
    )

    assert result.is_error
    assert field in _text(result)
    assert (await client.call_tool("list_events")).structured_content == {"result": []}


@pytest.mark.integration
async def test_each_server_has_its_own_calendar() -> None:
    async with Client(build_demo_server()) as first:
        await first.call_tool("create_event", {"event": EVENT})
    async with Client(build_demo_server()) as second:
        assert (await second.call_tool("list_events")).data == []


async def test_get_time(client: Client[Any]) -> None:
    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    result = await client.call_tool("get_time", {"timezone": "UTC"})
    now = dt.datetime.fromisoformat(result.data)
    assert now.utcoffset() == dt.timedelta(0)
    assert before <= now <= dt.datetime.now(dt.timezone.utc)

    unknown = await client.call_tool("get_time", {"timezone": "Mars/Olympus"}, raise_on_error=False)
    assert unknown.is_error and "Unknown time zone" in _text(unknown)


@pytest.mark.integration
async def test_runs_over_stdio_as_a_module(tmp_path: Path) -> None:
    log = tmp_path / "demo.log"
    transport = StdioTransport(
        command=sys.executable,
        args=["-m", "workbench.demo"],
        cwd=str(REPO),
        keep_alive=False,
        log_file=log,
    )
    async with Client(transport) as client:
        assert {tool.name for tool in await client.list_tools()} == TOOLS
        assert (await client.call_tool("add", {"a": 40, "b": 2})).data == 42
    assert "Starting MCP server" not in log.read_text()  # quiet: WARNING and up only
