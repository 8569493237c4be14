"""The embedded demo server: one tool per thing an MCP tool can do, with no network and no Node.

``%mcp connect demo`` serves it in-process, the tests use it as a known server, and
``python -m workbench.mcp.demo`` serves it over stdio so the same tools can be tried as a
child process. Every tool is small on purpose: each teaches one feature (structured output,
images, progress, logging, errors, nested arguments) and nothing else.
"""

import asyncio
import datetime as dt
import itertools
import logging
import re
import struct
import time
import warnings
import zlib
from collections import Counter
from enum import Enum
from typing import Annotated, Literal, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.types import Image
from mcp import MCPDeprecationWarning
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, FiniteFloat

from workbench.__about__ import __version__

__all__ = [
    "Event",
    "EventTime",
    "Person",
    "Priority",
    "ScheduledEvent",
    "TextStats",
    "WordCount",
    "build_demo_server",
]

INSTRUCTIONS = (
    "A demo server built into the workbench for learning MCP offline. Each tool shows one "
    "feature: add (plain result), text_stats (structured output), draw_chart (image), "
    "slow_count (progress and cancellation), log_demo (log messages), fail (an error result), "
    "create_event / list_events (nested arguments and a little state), get_time (the clock). "
    "Nothing here reaches the network; the calendar lives in memory and vanishes with the server."
)


def _hints(*, read_only: bool = True, idempotent: bool = True) -> ToolAnnotations:
    """All four MCP hints, always set: no demo tool destroys anything or reaches outside."""
    return ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=False,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


# --------------------------------------------------------------------------------------------
# Structured output and nested input models
# --------------------------------------------------------------------------------------------


class WordCount(BaseModel):
    """How often one word occurs."""

    word: str = Field(description="The word, case-folded.")
    count: int = Field(description="How many times it occurs.")


class TextStats(BaseModel):
    """Counts about a text; the tool's output schema is generated from this model."""

    characters: int = Field(description="All characters, spaces and line breaks included.")
    words: int = Field(description="Runs of letters or digits (apostrophes join contractions).")
    unique_words: int = Field(description="Distinct words, ignoring case.")
    lines: int = Field(description="Lines of text; 0 for an empty text.")
    sentences: int = Field(description="A rough count: text ending in . ! or ? (or the end).")
    average_word_length: float = Field(description="Mean letters per word, 0 without words.")
    most_common: list[WordCount] = Field(description="The most frequent words, most first.")


class Priority(str, Enum):
    """How much an event matters; an enum becomes a choice list in generated forms."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Person(BaseModel):
    """Someone invited to an event."""

    name: str = Field(min_length=1, max_length=100, description="How to address this person.")
    email: str | None = Field(
        default=None,
        pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
        description="Where to send the invitation; optional.",
    )


class EventTime(BaseModel):
    """When an event happens, as a day, a start time and a duration."""

    date: dt.date = Field(description="The day, as YYYY-MM-DD.")
    start: dt.time = Field(description="The start time, as HH:MM (24-hour clock).")
    duration_minutes: int = Field(
        default=60, ge=5, le=24 * 60, description="How long it lasts, in minutes."
    )


class Event(BaseModel):
    """A calendar event: nested objects, a list of objects, a nullable field and an enum."""

    title: str = Field(min_length=1, max_length=120, description="What the event is called.")
    when: EventTime = Field(description="When it happens.")
    attendees: list[Person] = Field(
        default_factory=list, max_length=50, description="Who is invited."
    )
    location: str | None = Field(
        default=None, description="Where it happens; null when online or not decided yet."
    )
    priority: Priority = Field(default=Priority.NORMAL, description="How much it matters.")
    tags: list[str] = Field(default_factory=list, max_length=10, description="Free-form labels.")


class ScheduledEvent(BaseModel):
    """An event as the calendar stored it."""

    id: str = Field(description="The calendar's id for the event.")
    event: Event = Field(description="The event as it was validated.")
    starts_at: dt.datetime = Field(description="Start, as an ISO 8601 local date-time.")
    ends_at: dt.datetime = Field(description="End, as an ISO 8601 local date-time.")
    summary: str = Field(description="One line for people.")


# --------------------------------------------------------------------------------------------
# Tools without state
# --------------------------------------------------------------------------------------------


def add(
    a: Annotated[float, Field(description="The first number.")],
    b: Annotated[float, Field(description="The second number.")],
) -> float:
    """Add two numbers: the smallest possible tool, to see a call and its result."""
    return a + b


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")


def text_stats(
    text: Annotated[str, Field(description="The text to measure.")],
    top: Annotated[
        int, Field(ge=1, le=50, description="How many of the most common words to list.")
    ] = 5,
) -> TextStats:
    """Count characters, words, lines and sentences of a text and list its most common words.

    The result is structured content that matches the tool's output schema.
    """
    words = [word.casefold() for word in _WORD.findall(text)]
    counts = Counter(words)
    sentences = [part for part in _SENTENCE_END.split(text) if _WORD.search(part)]
    return TextStats(
        characters=len(text),
        words=len(words),
        unique_words=len(counts),
        lines=len(text.splitlines()),
        sentences=len(sentences),
        average_word_length=round(sum(map(len, words)) / len(words), 2) if words else 0.0,
        most_common=[WordCount(word=w, count=c) for w, c in counts.most_common(top)],
    )


def draw_chart(
    values: Annotated[
        list[FiniteFloat],
        Field(min_length=1, max_length=100, description="The bar heights, left to right."),
    ],
    title: Annotated[
        str,
        Field(
            max_length=80,
            description="A caption drawn above the bars (about 37 characters fit); optional.",
        ),
    ] = "",
) -> Image:
    """Draw a bar chart and return it as a PNG image (negative values hang below the axis)."""
    return Image(data=_bar_chart_png(values, title), format="png")


async def slow_count(
    ctx: Context,
    seconds: Annotated[
        float, Field(ge=0, le=120, description="How long the whole count takes, in seconds.")
    ] = 3,
    steps: Annotated[int, Field(ge=1, le=100, description="How many steps to report.")] = 6,
) -> str:
    """Count slowly, reporting progress after every step.

    Use it to watch a progress bar, to try a timeout, or to interrupt a call: the count stops
    at the next sleep once the call is cancelled.
    """
    started = time.perf_counter()
    for step in range(1, steps + 1):
        await asyncio.sleep(seconds / steps)
        await ctx.report_progress(step, steps, f"Counted {step} of {steps}")
    return f"Counted to {steps} in {time.perf_counter() - started:.1f} s."


async def log_demo(
    ctx: Context,
    message: Annotated[str, Field(min_length=1, description="The text of the log message.")],
    level: Annotated[
        Literal["debug", "info", "warning", "error"],
        Field(description="The severity the client sees."),
    ] = "info",
) -> str:
    """Send one log message to the client, which shows it apart from the result.

    MCP 2026-07-28 deprecates server-to-client logging (SEP-2577) but clients still receive it,
    and many servers still send it.
    """
    await ctx.log(message, level=level, logger_name="demo")
    return f"Sent a {level} log message."


def fail(
    reason: Annotated[str, Field(description="The error message to fail with.")] = (
        "This tool always fails, so you can see what an error looks like."
    ),
) -> NoReturn:
    """Fail on purpose, to see how a failed call comes back: an error result, not a crash."""
    # Failing is this tool's job, not a server fault: keep it out of the server's error log.
    raise ToolError(reason, log_level=logging.DEBUG)


def get_time(
    timezone: Annotated[
        str,
        Field(
            min_length=1,
            description="An IANA time zone name.",
            examples=["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo"],
        ),
    ] = "UTC",
) -> str:
    """Tell the current date and time in a time zone, as ISO 8601.

    Read-only but not idempotent: the same call gives a new answer every time.
    """
    return dt.datetime.now(_zone(timezone)).isoformat(timespec="seconds")


def _zone(name: str) -> dt.tzinfo:
    if name.upper() in {"UTC", "Z"}:
        return dt.timezone.utc  # works without a time zone database (Windows without tzdata)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolError(
            f"Unknown time zone {name!r}: use an IANA name such as 'Europe/Paris' or 'UTC'.",
            log_level=logging.INFO,  # the caller's mistake, not the server's
        ) from None


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


def build_demo_server() -> FastMCP:
    """Build a fresh demo server; each has its own empty calendar."""
    _quiet_logging_deprecation()
    server = FastMCP("demo", instructions=INSTRUCTIONS, version=__version__)

    server.tool(add, title="Add two numbers", tags={"math"}, annotations=_hints())
    server.tool(text_stats, title="Text statistics", tags={"text"}, annotations=_hints())
    server.tool(draw_chart, title="Draw a bar chart", tags={"image"}, annotations=_hints())
    server.tool(slow_count, title="Count slowly", tags={"progress"}, annotations=_hints())
    # Logging and failing change nothing the caller can observe afterwards: read-only.
    server.tool(log_demo, title="Send a log message", tags={"logging"}, annotations=_hints())
    server.tool(fail, title="Fail on purpose", tags={"errors"}, annotations=_hints())
    # The clock moves: the same call gives a new answer.
    server.tool(get_time, title="Current time", tags={"time"}, annotations=_hints(idempotent=False))
    _add_calendar_tools(server)
    return server


def _add_calendar_tools(server: FastMCP) -> None:
    """A tiny in-memory calendar: the only state on the server, so the only tool that writes."""
    events: list[ScheduledEvent] = []
    ids = itertools.count(1)

    def create_event(
        event: Annotated[Event, Field(description="The event to put in the calendar.")],
    ) -> ScheduledEvent:
        """Put an event in the demo calendar and return it as stored.

        The argument is a nested object (a time, a list of people, a nullable location, an
        enum, a list of tags), to try forms generated from a JSON Schema.
        """
        starts_at = dt.datetime.combine(event.when.date, event.when.start)
        ends_at = starts_at + dt.timedelta(minutes=event.when.duration_minutes)
        people = len(event.attendees)
        where = f" at {event.location}" if event.location else ""
        scheduled = ScheduledEvent(
            id=f"evt-{next(ids)}",
            event=event,
            starts_at=starts_at,
            ends_at=ends_at,
            summary=(
                f"{event.title!r} on {starts_at:%a %d %b %Y} {starts_at:%H:%M}-{ends_at:%H:%M}"
                f"{where}, {people} attendee{'' if people == 1 else 's'}, "
                f"{event.priority.value} priority."
            ),
        )
        events.append(scheduled)
        return scheduled

    def list_events() -> list[ScheduledEvent]:
        """List the events in the demo calendar, earliest first."""
        # By wall-clock time: a start given with a UTC offset must still sort among naive ones.
        return sorted(events, key=lambda scheduled: scheduled.starts_at.replace(tzinfo=None))

    server.tool(
        create_event,
        title="Create a calendar event",
        tags={"calendar"},
        # Adds an event and never overwrites one (not destructive); each call adds another.
        annotations=_hints(read_only=False, idempotent=False),
    )
    server.tool(list_events, title="List calendar events", tags={"calendar"}, annotations=_hints())


def _quiet_logging_deprecation() -> None:
    """Silence the SDK's warning that logging is deprecated, where FastMCP sends a log.

    MCP 2026-07-28 deprecates server-to-client logging without a replacement on the wire, and
    FastMCP keeps sending it on purpose; the warning tells notebook users nothing they can act
    on. The filter matches only that message raised from FastMCP's context module.
    """
    warnings.filterwarnings(
        "ignore",
        message="The logging capability is deprecated",
        category=MCPDeprecationWarning,
        module=r"fastmcp\.server\.context",
    )


# --------------------------------------------------------------------------------------------
# A bar chart as PNG, with only zlib and struct
# --------------------------------------------------------------------------------------------

_RGB = bytes
_WIDTH, _HEIGHT, _MARGIN = 320, 200, 10
_BACKGROUND: _RGB = bytes((255, 255, 255))
_INK: _RGB = bytes((40, 40, 48))
_AXIS: _RGB = bytes((150, 150, 160))
_BARS: tuple[_RGB, ...] = (
    bytes((54, 110, 180)),
    bytes((232, 128, 44)),
    bytes((70, 160, 90)),
    bytes((200, 64, 70)),
)

# A 3x5 pixel font: each glyph is five rows, each row a digit whose bits 4, 2 and 1 are the
# left, middle and right pixels.
_GLYPHS: dict[str, str] = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?-+=%/()'_*<>",
        "25755 65656 34443 65556 74647 74644 34553 55755 72227 11152 55655 44447 57755 "
        "65555 25552 65644 25563 65655 34216 72222 55557 55552 55775 55255 55222 71247 "
        "75557 26227 71747 71317 55711 74717 74757 71222 75757 75717 00000 00002 00024 "
        "02020 02024 22202 71302 00700 02720 07070 51245 11244 24442 42224 22000 00007 "
        "05250 12421 42124".split(),
        strict=True,
    )
)


class _Canvas:
    """An RGB pixel buffer with just enough drawing for a bar chart."""

    def __init__(self, width: int, height: int, background: _RGB) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(background * (width * height))

    def fill(self, x0: int, y0: int, x1: int, y1: int, color: _RGB) -> None:
        """Fill the rectangle [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(x0, 0), min(x1, self.width)
        y0, y1 = max(y0, 0), min(y1, self.height)
        if x0 >= x1:
            return
        row = color * (x1 - x0)
        for y in range(y0, y1):
            start = (y * self.width + x0) * 3
            self.pixels[start : start + len(row)] = row

    def text(self, x: int, y: int, text: str, color: _RGB, scale: int) -> None:
        """Draw text with the 3x5 font, each font pixel a scale x scale square."""
        for index, char in enumerate(text):
            rows = _GLYPHS.get(char, _GLYPHS["?"])
            left = x + index * 4 * scale
            for row, bits in enumerate(rows):
                for column, mask in enumerate((4, 2, 1)):
                    if int(bits) & mask:
                        px, py = left + column * scale, y + row * scale
                        self.fill(px, py, px + scale, py + scale, color)

    def png(self) -> bytes:
        """Encode as an 8-bit RGB PNG: signature, IHDR, one IDAT, IEND."""
        stride = self.width * 3
        scanlines = b"".join(
            b"\x00" + self.pixels[y * stride : (y + 1) * stride]  # filter type 0: none
            for y in range(self.height)
        )
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"".join(
            (
                b"\x89PNG\r\n\x1a\n",
                _png_chunk(b"IHDR", header),
                _png_chunk(b"IDAT", zlib.compress(scanlines, 6)),
                _png_chunk(b"IEND", b""),
            )
        )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _bar_chart_png(values: list[float], title: str) -> bytes:
    canvas = _Canvas(_WIDTH, _HEIGHT, _BACKGROUND)
    top = _MARGIN
    if title:
        scale = 2
        fits = (_WIDTH - 2 * _MARGIN) // (4 * scale)
        caption = title.upper()
        if len(caption) > fits:
            caption = caption[: fits - 3] + "..."
        width = len(caption) * 4 * scale - scale
        canvas.text((_WIDTH - width) // 2, top, caption, _INK, scale)
        top += 5 * scale + _MARGIN

    left, right, bottom = _MARGIN, _WIDTH - _MARGIN, _HEIGHT - _MARGIN
    high, low = max(max(values), 0.0), min(min(values), 0.0)
    if high == low:  # all zeros: keep the axis at the bottom
        high = 1.0
    span = high - low
    pixels_per_unit = (bottom - top) / span
    zero = top + round(high * pixels_per_unit)
    slot = (right - left) / len(values)
    bar = max(1, round(slot * 0.75))
    for index, value in enumerate(values):
        x = left + round(index * slot + (slot - bar) / 2)
        end = zero - round(value * pixels_per_unit)
        canvas.fill(x, min(zero, end), x + bar, max(zero, end), _BARS[index % len(_BARS)])
    canvas.fill(left, zero, right, zero + 1, _AXIS)
    return canvas.png()


if __name__ == "__main__":
    # stdout carries the protocol: no banner, and FastMCP's own logs only from WARNING up.
    build_demo_server().run("stdio", show_banner=False, log_level="WARNING")
