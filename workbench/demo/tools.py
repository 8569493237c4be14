"""The demo's stateless tools, one MCP feature each, and the hints every demo tool carries.

add (a plain result), text_stats (structured output from a pydantic model), draw_chart (an
image), slow_count (progress and cancellation), log_demo (log messages), fail (an error
result) and get_time (a read-only tool that is not idempotent).
"""

import asyncio
import datetime as dt
import inspect
import logging
import re
import time
from collections import Counter
from typing import Annotated, Any, Literal, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.types import Image
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, FiniteFloat, WithJsonSchema

from workbench.demo.png import bar_chart_png
from workbench.tools.from_function import reflow


def register(server: FastMCP, fn: Any, **options: Any) -> None:
    """Serve ``fn`` with its docstring as one flowing description: FastMCP keeps the hard
    line breaks, which read as ragged breaks in a tool card."""
    server.tool(fn, description=reflow(inspect.getdoc(fn) or ""), **options)


def hints(*, read_only: bool = True, idempotent: bool = True) -> ToolAnnotations:
    """All four MCP hints, always set: no demo tool destroys anything or reaches outside."""
    return ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=False,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


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


Number = Annotated[int | float, WithJsonSchema({"type": "number"})]
"""JSON's one number type, as a result: an int stays an int (``5``, not ``5.0``)."""
_EXACT = 2**53
"""Whole floats below this are exact ints."""


def add(
    a: Annotated[float, Field(description="The first number.")],
    b: Annotated[float, Field(description="The second number.")],
) -> Number:
    """Add two numbers: the smallest possible tool, to see a call and its result."""
    total = a + b
    # A whole sum is an int, so the text, the structured content and Lab all show 5, not 5.0.
    return int(total) if total.is_integer() and abs(total) < _EXACT else total


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
    return Image(data=bar_chart_png(values, title), format="png")


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
