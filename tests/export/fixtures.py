"""Tools for the export tests: what a notebook defines, written as a module.

Their code uses cell-level imports (``math``, ``json`` under another name, ``datetime``
names), a helper function, a constant, an Enum, a pydantic model and a TypedDict, so the
exported script must carry each. ``UNRECOVERABLE`` are tools whose code cannot be written
out, each for its own reason.
"""

from __future__ import annotations

import json as jsonlib
import math
import struct
import zlib
from datetime import date, timedelta
from enum import Enum
from typing import Annotated, Literal

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from workbench import tool
from workbench.tools.definition import ToolDefinition
from workbench.tools.schema import Action, Observation

DIGITS = 3


class Unit(str, Enum):
    METRE = "m"
    FOOT = "ft"


class Point(BaseModel):
    x: float
    y: float = 0.0


class Window(TypedDict):
    start: str
    days: int


def _rounded(value: float) -> float:
    return round(value, DIGITS)


CIRCLE_ICONS = [
    "data:image/svg+xml;base64,PHN2Zy8+",
    {"src": "https://icons.example/circle.png", "sizes": ["48x48"], "theme": "dark"},
]


@tool(
    annotations={"readOnlyHint": True, "idempotentHint": True},
    title="Circle area",
    icons=CIRCLE_ICONS,
)
def circle_area(radius: float, unit: Unit = Unit.METRE) -> str:
    """The area of a circle.

    Args:
        radius: The radius, at least 0.
        unit: The unit of the radius.
    """
    return f"{_rounded(math.pi * radius**2)} {unit.value}^2"


@tool
def distance(a: Point, b: Point, metric: Literal["euclid", "manhattan"] = "euclid") -> float:
    """How far apart two points are."""
    if metric == "manhattan":
        return _rounded(abs(a.x - b.x) + abs(a.y - b.y))
    return _rounded(math.hypot(a.x - b.x, a.y - b.y))


@tool(annotations={"readOnlyHint": True})
async def window_end(window: Window, weekday: bool = False) -> dict:
    """The last day of a window of days.

    Args:
        window: Where the window starts (an ISO date) and how many days it lasts.
        weekday: Also give the weekday's name.
    """
    end = date.fromisoformat(window["start"]) + timedelta(days=window["days"])
    found = {"end": end.isoformat()}
    if weekday:
        found["weekday"] = end.strftime("%A")
    return found


@tool(tags=["text"])
def as_json(
    values: Annotated[list[int], Field(description="Numbers to encode.")], indent: int | None = None
) -> str:
    """Encode numbers as JSON text."""
    return jsonlib.dumps({"values": values, "total": sum(values)}, indent=indent)


@tool
def nothing() -> None:
    """Return nothing at all."""


def tiny_png() -> bytes:
    """A valid 1x1 red PNG, made with zlib and struct only."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


@tool
def pixel(pdf: bool = False) -> bytes:
    """One red pixel as a PNG, or a PDF's first bytes (an embedded blob)."""
    return b"%PDF-1.7\n" if pdf else tiny_png()


TOOLS = [circle_area, distance, window_end, as_json, nothing, pixel]


def _make_closure() -> tool:  # type: ignore[valid-type]
    offset = 10

    def shifted(x: int) -> int:
        """Add an offset the kernel chose."""
        return x + offset

    return tool(shifted)


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    def bump(self, by: int = 1) -> int:
        """Count up."""
        self.count += by
        return self.count


_namespace: dict[str, object] = {}
exec("def from_exec(x: int) -> int:\n    return x\n", _namespace)


class _EchoAction(Action):
    text: str


def _echo(action: _EchoAction) -> Observation:
    return Observation.from_text(action.text)


UNRECOVERABLE = {
    "twice": tool(lambda x: x * 2, name="twice"),  # type: ignore[misc]
    "shifted": _make_closure(),
    "bump": tool(_Counter().bump),
    "from_exec": tool(_namespace["from_exec"]),  # type: ignore[arg-type]
    "echo": ToolDefinition(name="echo", action_type=_EchoAction, executor=_echo),
}
"""Each tool by name; the reason the export gives names what it is."""
