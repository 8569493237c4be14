"""ToolList: the search box's answers, as the page receives them (no browser needed)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.catalogs import distinct_words, synthetic_catalog
from workbench.registry import Registry
from workbench.registry.search import MAX_QUERY_CHARS
from workbench.session import Workbench
from workbench.widgets.tool_list import (
    LIMIT,
    MAX_QUERY,
    NOTE_QUERY_WIDTH,
    ToolList,
    registry_summary,
)


@pytest.fixture(scope="module")
def demo() -> Iterator[Workbench]:
    workbench = Workbench()
    workbench.connect("demo")
    yield workbench
    workbench.close()


def ask(tool_list: ToolList, query: str, server: str = "") -> dict:
    """What the page does on a keystroke: a new request with the next seq."""
    seq = int(tool_list.request["seq"]) + 1
    tool_list.request = {"query": query, "server": server, "seq": seq}
    assert tool_list.answer["seq"] == seq, "the answer must say which request it answers"
    return tool_list.answer


def ids(answer: dict) -> list[str]:
    return [row["id"] for row in answer["rows"]]


def test_an_empty_query_lists_tools_by_id_with_a_count(demo: Workbench) -> None:
    answer = ToolList(demo.registry).answer
    assert ids(answer) == sorted(entry.id for entry in demo.registry)
    assert answer["note"] == f"{len(demo.registry)} tools"


def test_typing_ranks_the_right_tool_first_with_badges_and_one_line(demo: Workbench) -> None:
    tool_list = ToolList(demo.registry)
    answer = ask(tool_list, "draw a bar chart")
    assert ids(answer)[0] == "demo.draw_chart"
    top = answer["rows"][0]
    assert "\n" not in top["description"] and top["description"].startswith("Draw a bar chart")
    assert answer["query"] == "draw a bar chart"
    assert top["badges"] == ["read-only", "idempotent"]
    assert ask(tool_list, "create event")["rows"][0]["badges"] == []


def test_the_server_filter_limits_results_and_an_unknown_server_means_all(
    demo: Workbench,
) -> None:
    tool_list = ToolList(demo.registry, query="add", server="demo")
    assert tool_list.answer["server"] == "demo" and ids(tool_list.answer)[0] == "demo.add"
    assert ask(tool_list, "add", server="gone")["server"] == ""
    assert tool_list.servers == ["demo"]


def test_weak_hits_are_left_out_and_said_so(demo: Workbench) -> None:
    """Friction 11: "add numbers" showed demo.add, then tools that merely mention a number."""
    tool_list = ToolList(demo.registry)
    answer = ask(tool_list, "add numbers")
    assert ids(answer) == ["demo.add"]
    weak = sum(hit.weak for hit in demo.registry.search("add numbers", limit=LIMIT))
    assert weak >= 1
    total = len(demo.registry)
    hits = "weak hit" if weak == 1 else "weak hits"
    assert answer["note"] == f"best 1 of {total} tools; {weak} {hits} left out"
    # With no credible hit at all, the closest are shown, said so (as `%mcp search` does).
    closest = ask(tool_list, "send klingon poem")
    assert closest["rows"] and closest["note"].startswith("No good match for 'send klingon poem'")


def test_one_tool_from_one_server_is_said_in_the_singular() -> None:
    registry = Registry()
    registry.add_tools("solo", [{"name": "ping", "description": "Ping.", "inputSchema": {}}])
    assert registry_summary(registry) == "1 tool from 1 server"
    assert ToolList(registry).answer["note"] == "1 tool"
    assert ask(ToolList(registry), "ping")["note"] == "best 1 of 1 tool"
    assert registry_summary(Registry()) == "No servers yet."


def test_a_miss_says_so_instead_of_showing_nothing(demo: Workbench) -> None:
    answer = ask(ToolList(demo.registry), "zzqxv")
    assert answer["rows"] == [] and "Nothing matches 'zzqxv'" in answer["note"]


@pytest.mark.integration
def test_only_the_top_rows_cross_the_wire_with_ten_thousand_tools() -> None:
    registry = Registry()
    for server in range(100):
        registry.add_tools(
            f"s{server}",
            [
                {
                    "name": f"tool_{n}",
                    "description": f"Fetch record {n} of kind {server}.",
                    "inputSchema": {"type": "object"},
                }
                for n in range(100)
            ],
        )
    tool_list = ToolList(registry)
    assert len(registry) == 10_000
    assert len(tool_list.answer["rows"]) == LIMIT
    assert tool_list.answer["note"] == f"first {LIMIT} of 10000 tools"
    answer = ask(tool_list, "fetch record 42")
    assert 0 < len(answer["rows"]) <= LIMIT
    assert all(row["id"].endswith(".tool_42") for row in answer["rows"][:5])


def test_refresh_answers_the_same_request_again_after_a_change() -> None:
    registry = Registry()
    tool_list = ToolList(registry, query="weather")
    assert tool_list.answer["rows"] == [] and tool_list.servers == []
    registry.add_tools(
        "forecast",
        [{"name": "get_weather", "description": "Today's weather.", "inputSchema": {}}],
    )
    tool_list.refresh()
    assert ids(tool_list.answer) == ["forecast.get_weather"]
    assert tool_list.answer["seq"] == tool_list.request["seq"]
    assert tool_list.servers == ["forecast"]


@pytest.fixture(scope="module")
def ten_thousand() -> Registry:
    registry = synthetic_catalog()
    assert len(registry) == 10_000
    return registry


PASTES = {
    "one word": "a" * 100_000,
    "distinct words": distinct_words(100_000),
    "prose": ("create calendar event " * 5_000)[:100_000],
}


@pytest.mark.integration
@pytest.mark.parametrize("shape", list(PASTES))
def test_f10_a_100000_character_paste_at_10000_tools_is_bounded_work(
    ten_thousand: Registry, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box's observer does the same bounded work for a paste of any length: it searches
    the first MAX_QUERY characters, renders at most LIMIT rows, and its answer (what crosses
    the wire back to the page on every keystroke) stays small."""
    paste = PASTES[shape]
    assert len(paste) == 100_000
    searched: list[str] = []
    search = ten_thousand.search

    def spy(query: str, **options: Any) -> Any:
        searched.append(query)
        return search(query, **options)

    monkeypatch.setattr(ten_thousand, "search", spy)
    tool_list = ToolList(ten_thousand)
    answer = ask(tool_list, paste)
    assert [len(query) for query in searched] == [MAX_QUERY]
    assert answer["query"] == paste[:MAX_QUERY]
    assert len(answer["rows"]) <= LIMIT
    # The answer is what the first MAX_QUERY characters find; search reads no more than that.
    assert MAX_QUERY == MAX_QUERY_CHARS
    monkeypatch.undo()
    expected = [hit.id for hit in ten_thousand.search(paste, limit=LIMIT)]
    assert ids(answer) == expected
    assert len(answer["note"]) < NOTE_QUERY_WIDTH + 80
    assert len(json.dumps(answer)) < 2 * MAX_QUERY + LIMIT * 400


def test_f10_the_pastes_find_what_they_say_and_say_what_they_missed(
    ten_thousand: Registry,
) -> None:
    tool_list = ToolList(ten_thousand)
    prose = ask(tool_list, PASTES["prose"])
    assert len(prose["rows"]) == LIMIT and prose["note"] == f"best {LIMIT} of 10000 tools"
    assert all(
        row["id"].split(".")[1].startswith(("create_calendar", "create_event"))
        for row in prose["rows"][:5]
    )
    word = ask(tool_list, PASTES["one word"])
    assert word["rows"] == []
    assert word["note"] == f"Nothing matches '{'a' * (NOTE_QUERY_WIDTH - 1)}…'."


def test_f10_search_from_python_and_the_first_query_are_capped_too(
    ten_thousand: Registry,
) -> None:
    """What the kernel puts in ``request`` crosses to the page: never more than the box takes."""
    tool_list = ToolList(ten_thousand, query="q" * 100_000)
    assert tool_list.request["query"] == "q" * MAX_QUERY
    assert tool_list.max_query == MAX_QUERY  # the page's box takes no more (input maxLength)
    tool_list.search("create calendar event " * 5_000)
    assert len(tool_list.request["query"]) == MAX_QUERY
    assert tool_list.answer["seq"] == tool_list.request["seq"]
    assert len(tool_list.answer["rows"]) == LIMIT
