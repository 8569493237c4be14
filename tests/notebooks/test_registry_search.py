"""The registry notebook runs top to bottom in a real kernel over three servers (the demo
server in process, mcp-server-time and server-everything over real stdio) and shows what
it teaches: ranked search across servers with typos forgiven and misses said, did-you-mean
on a wrong id, schemas on demand, the find_tools / call_tool pair, the token meter, and a
retrieval evaluation (top-1 / top-5) shown as an HTML table that agrees with its rows."""

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


def test_retrieval_evaluation_table(cells: Outputs) -> None:
    [output] = [out for out in cells["evaluate"] if "text/html" in out.get("data", {})]
    html = output["data"]["text/html"]
    plain = output["data"]["text/plain"]
    summary = re.search(r"(\d+) requests: top-1 (\d+)%, top-5 (\d+)%", plain)
    assert summary, plain
    count, top1, top5 = (int(group) for group in summary.groups())
    assert count == 14 and f"<b>{summary.group(0)}</b>" in html
    assert html.count("<tr><td>") == count  # one row per request
    ranks = [line.split()[0] for line in plain.splitlines()[1:]]
    assert len(ranks) == count
    assert top1 == round(100 * ranks.count("1") / count)
    assert top5 == round(100 * sum(rank != "-" for rank in ranks) / count)
    assert top1 <= top5
    misses = ast.literal_eval(shown_by(cells["misses"]))  # (request, expected, first hit)
    assert len(misses) == count - ranks.count("1")
    assert all(expected != first for _, expected, first in misses)
