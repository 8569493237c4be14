"""``SearchLab.suggest_pins`` on the real demo server's catalog: the tools often expected and
often missed, worst first, with the ``%mcp serve`` flag and what the pins cost in tokens."""

from __future__ import annotations

from typing import Any

from workbench import Registry
from workbench.registry.lab.pins import PinSuggestions
from workbench.registry.proxy import ToolProxy
from workbench.tools.schema import Observation

REQUESTS: list[dict[str, Any]] = [
    {"text": "what's on my agenda this week", "expected": ["demo.list_events"]},  # not listed
    {"text": "show my upcoming appointments", "expected": ["demo.list_events"]},  # first
    {"text": "schedule a meeting with Sam on Friday", "expected": ["demo.create_event"]},  # 2nd
    {"text": "add two numbers", "expected": ["demo.add"]},
    {"text": "sum of 2 and 3", "expected": ["demo.add"]},  # nothing found
    {"text": "transfer money to my landlord", "expected": None},
]


def never_called(tool_id: str, arguments: dict[str, Any]) -> Observation:
    raise AssertionError("the token meter calls no tool")


def test_suggests_the_most_missed_tools_first_with_the_flag(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    ranks = {row["text"]: row["rank"] for row in lab.report.rows()}
    assert ranks["what's on my agenda this week"] is None
    assert ranks["schedule a meeting with Sam on Friday"] == 2

    pins = lab.suggest_pins()
    assert isinstance(pins, PinSuggestions)
    # A miss beyond the first five counts twice; a tie goes to the cheaper schema.
    assert pins.ids == ["demo.list_events", "demo.add", "demo.create_event"]
    events, add, create = pins.pins
    assert (events.expected, events.missed, events.beyond_top5) == (2, 1, 1)
    assert (add.expected, add.missed, add.beyond_top5) == (2, 1, 1)
    assert (create.expected, create.missed, create.beyond_top5) == (1, 1, 0)
    assert events.tokens < add.tokens
    assert pins.flag == "--gateway --pin " + ",".join(pins.ids)

    pinned = ToolProxy(demo_registry, never_called).token_report(pins.ids)
    assert pins.tokens == pinned.pinned_schemas  # the same meter as the served gateway's
    assert lab.suggest_pins(k=1).ids == ["demo.list_events"]
    shown = repr(pins)
    assert shown.startswith(f"Pins suggested (search): %mcp serve {pins.flag}")
    assert "demo.list_events: missed 1 of 2 (not in the top 5: 1)" in shown


def test_nothing_to_pin_when_nothing_expected_is_missed(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS[1:2] + REQUESTS[3:4])
    pins = lab.suggest_pins()
    assert not pins and pins.flag == "" and pins.tokens == 0
    assert repr(pins) == "No pins suggested (search): no expected tool was missed."
    html = pins._repr_mimebundle_()["text/html"]
    assert "<table>" in html and "%mcp serve" not in html
