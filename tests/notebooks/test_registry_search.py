"""The registry notebook runs top to bottom in a real kernel over three servers (the demo
server in process, mcp-server-time and server-everything over real stdio) and shows what
it teaches: ranked search across servers with typos forgiven and misses said, did-you-mean
on a wrong id, schemas on demand, the find_tools / call_tool pair, the token meter, and the
search lab: its report (a table and a chart that agree with its figures), methods compared,
the description doctor moving one tool's figures, and suggested pins served beside the pair."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

from tests.notebooks.executed import (
    Outputs,
    by_cell,
    check_saved,
    documents,
    execute,
    read,
    require_real_servers,
    shown_by,
)
from workbench.display.mime import OBSERVATION_MIME as OBSERVATION
from workbench.display.mime import TABLE_MIME as TABLE
from workbench.display.mime import TOOL_MIME as TOOL

NAME = "registry_search.ipynb"

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def cells() -> Outputs:
    require_real_servers()
    notebook = read(NAME)
    execute(notebook)  # a cell that raises fails here
    return by_cell(notebook)


def search_table(cells: Outputs, cell_id: str) -> dict[str, Any]:
    """A search cell's table document (its HTML beside it): title, ids best first, notes."""
    [output] = [out for out in cells[cell_id] if TABLE in out.get("data", {})]
    assert "text/html" in output["data"], cell_id
    document = output["data"][TABLE]
    assert document["view"] == "search-table"
    return {
        "title": document["title"],
        "ids": [row[1]["text"] for row in document["rows"]],
        "notes": " ".join(note["text"] for note in document["notes"]),
    }


def test_saved_without_outputs_and_shaped_for_teaching() -> None:
    check_saved(NAME)


def test_search_across_servers(cells: Outputs) -> None:
    assert "<Registry: 30 tools on 3 servers>" in shown_by(cells["connect"])
    tokyo = search_table(cells, "search-time")
    assert "time.get_current_time" in tokyo["ids"] and "demo.get_time" in tokyo["ids"]
    assert not tokyo["notes"]
    typo = search_table(cells, "search-typo")
    assert typo["ids"][0] == "demo.draw_chart"  # "drwa a chrat"
    one = search_table(cells, "search-one-server")
    assert one["ids"][0] == "everything.get-sum"
    assert all(tool_id.startswith("everything.") for tool_id in one["ids"])
    miss = search_table(cells, "search-miss")
    assert "No good match" in miss["notes"]


def test_did_you_mean(cells: Outputs) -> None:
    [called] = documents(cells["call-typo"], OBSERVATION)
    assert called["isError"] and called["errorKind"] == "not_found"
    assert "Did you mean: demo.add" in called["errorMessage"]
    shown = shown_by(cells["registry-typo"])
    assert "No tool named 'get_curent_time'. Did you mean: time.get_current_time" in shown


def test_descriptions_first_schema_on_demand(cells: Outputs) -> None:
    hits = shown_by(cells["hits"])
    assert hits.startswith("[('time.convert_time',") and "inputSchema" not in hits
    schema = shown_by(cells["schema-on-demand"])
    assert "'required': ['source_timezone', 'time', 'target_timezone']" in schema
    [card] = documents(cells["card"], TOOL)
    assert card["id"] == "time.convert_time"
    assert [p["name"] for p in card["parameters"]] == ["source_timezone", "time", "target_timezone"]


def test_the_proxy_pair(cells: Outputs) -> None:
    found = shown_by(cells["find-tools"])
    assert "'everything.get-sum'" in found and "'demo.add'" in found
    assert "'The sum of 19 and 23 is 42.'" in shown_by(cells["call-tool"])
    errors = shown_by(cells["call-tool-error"]).splitlines()
    assert errors[0].startswith("[Tool error] demo.ad: not_found: ") and "demo.add" in errors[0]
    assert errors[1].startswith("[Tool error] demo.add: invalid_arguments: ")
    history = shown_by(cells["proxy-history"])
    assert "3 calls" in history and "everything.get-sum" in history
    assert documents(cells["proxy-history"], TABLE)
    exported = shown_by(cells["proxy-export"])
    assert "- time (2 tools): convert_time, get_current_time" in exported
    assert "['find_tools', 'call_tool']" in exported


def test_token_meter(cells: Outputs) -> None:
    shown = shown_by(cells["token-report"])
    match = re.search(
        r"30 tools: ~([\d,]+) tokens as full schemas; ~([\d,]+) with the proxy", shown
    )
    assert match, shown
    full, proxy = (int(group.replace(",", "")) for group in match.groups())
    assert 0 < proxy < full
    assert f"{1 - proxy / full:.0%} fewer" in shown
    answer = re.search(r"One find_tools answer \(the 3 hits above\): ~([\d,]+) tokens", shown)
    assert answer and 0 < int(answer.group(1).replace(",", "")) < full, shown


def test_the_search_lab_report(cells: Outputs) -> None:
    [output] = [out for out in cells["lab"] if "text/html" in out.get("data", {})]
    html, plain = output["data"]["text/html"], output["data"]["text/plain"]
    assert plain.startswith("SearchReport (search): 15 requests, 13 answerable")
    assert "<table>" in html and "<svg" in html and "<script" not in html
    summary = re.search(r"top-1 ([\d.]+)%  top-5 ([\d.]+)%  MRR ([\d.]+)", plain)
    assert summary, plain
    top1, top5, mrr = (float(group) for group in summary.groups())
    figures = shown_by(cells["figures"]).splitlines()
    assert figures[0] == f"top-1 {top1:.0f}%, top-5 {top5:.0f}%, MRR {mrr:.2f}"
    assert "'lexical'" in figures[1] and "'paraphrase'" in figures[1]
    misses = shown_by(cells["misses"])
    assert '"what\'s on my agenda this week": expected demo.list_events, rank -' in misses
    assert misses.count("; above: ") == plain.count("[lexical]: ") + plain.count("[paraphrase]: ")


def test_methods_compared(cells: Outputs) -> None:
    shown = shown_by(cells["compare"])
    rows = {line.split()[0]: line.split() for line in shown.splitlines()[2:]}
    assert {"keyword", "keyword-no-synonyms"} <= set(rows)
    assert all(row[1] == "13" for row in rows.values())


def test_the_doctor_moves_the_tools_figures(cells: Outputs) -> None:
    shown = shown_by(cells["doctor"])
    assert shown.startswith("DescriptionTrial of demo.list_events (keyword, 15 requests")
    assert "tool top1               0.0% ->  100.0%  (+100.0 points)" in shown
    assert '+ "what\'s on my agenda this week": rank – -> 1' in shown
    assert ast.literal_eval(shown_by(cells["doctor-words"])) == ["agenda", "week"]


def test_suggested_pins_served_beside_the_pair(cells: Outputs) -> None:
    pins = shown_by(cells["pins"])
    flag = re.search(r"%mcp serve --gateway --pin ([\w.,-]+)", pins)
    assert flag, pins
    ids = flag.group(1).split(",")
    assert len(ids) == 2 and "demo.list_events" in ids
    served, meter = shown_by(cells["serve-pins"]).splitlines()
    names = [tool_id.split(".", 1)[1] for tool_id in ids]
    assert ast.literal_eval(served) == ["find_tools", "call_tool", *names]
    assert "for 2 pinned tools, " in meter
