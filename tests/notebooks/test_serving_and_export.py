"""The serving and export notebook runs top to bottom in a real kernel: it serves the
notebook's tools over HTTP behind a token it never prints, filters and pages them, calls
them back from a second Workbench and from fastmcp's Client, shows a re-run %%tool cell
reaching a connected client, then exports the tools as a script, starts it over stdio and
calls it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.notebooks import executed
from tests.notebooks.executed import NOTEBOOKS, execute, read, text_of

OBSERVATION = "application/vnd.workbench.observation+json"
TABLE = "application/vnd.workbench.table+json"
SERVERS = "application/vnd.workbench.servers+json"
TOKEN_MARK = "THE-TOKEN-IS:"


def outputs_of(notebook: Any, cell_id: str) -> list[dict[str, Any]]:
    [cell] = [cell for cell in notebook.cells if cell.get("id") == cell_id]
    return list(cell.get("outputs", []))


def shown_by(notebook: Any, cell_id: str) -> str:
    return executed.shown_by(outputs_of(notebook, cell_id))


def document(notebook: Any, cell_id: str, mime: str) -> Any:
    [found] = [
        out["data"][mime] for out in outputs_of(notebook, cell_id) if mime in out.get("data", {})
    ]
    return found


@pytest.fixture(scope="module")
def ran() -> Any:
    notebook = read("serving_and_export.ipynb")
    # Only the test looks at the token: a last cell prints it, so that every other output
    # can be searched for it.
    source = f"print({TOKEN_MARK!r} + served.token)"
    notebook.cells.append(nbformat.v4.new_code_cell(source, id="test-token"))  # type: ignore[no-untyped-call]
    outputs = execute(notebook)
    errors = [out for out in outputs if out["output_type"] == "error"]
    assert not errors, errors
    streams = "\n".join(text_of(out) for out in outputs if out["output_type"] == "stream")
    assert "UsageError" not in streams and "Traceback" not in streams, streams
    return notebook


@pytest.mark.kernel
def test_serving_never_prints_the_token(ran: Any) -> None:
    [line] = [line for line in shown_by(ran, "test-token").splitlines() if TOKEN_MARK in line]
    token = line.split(TOKEN_MARK, 1)[1].strip()
    assert len(token) >= 32
    for cell in ran.cells[:-1]:
        for out in cell.get("outputs", []):
            assert token not in json.dumps(out), (cell.id, out)
    served = shown_by(ran, "serve")
    assert "Token: ***" in served and "WORKBENCH_TOKEN" in served  # the configs read it
    assert "token: *** (43 characters" in shown_by(ran, "handle")


@pytest.mark.kernel
def test_served_tools_are_filtered_paged_and_called_from_clients(ran: Any) -> None:
    served = shown_by(ran, "serve")
    assert "Serving 3 tools at http://127.0.0.1:" in served
    assert "(reverse_words, shout, word_count)" in served  # wipe_notes excluded
    assert "['reverse_words', 'shout', 'word_count']" in shown_by(ran, "agent")
    called = document(ran, "agent-call", OBSERVATION)
    assert called["toolId"] == "mine.word_count" and called["structuredContent"] == {"result": 5}
    refused = shown_by(ran, "refused")
    assert "No tool named 'mine.wipe_notes'" in refused  # excluded: not callable either
    assert "HTTP 401" in refused  # a wrong token
    paged = shown_by(ran, "fastmcp")
    assert "pages: [['reverse_words', 'shout'], ['word_count']]" in paged  # --page-size 2
    assert "'HELLO FROM FASTMCP'" in paged
    history = document(ran, "history", TABLE)
    assert [row[-1]["text"] for row in history["rows"]] == ["outside", "outside"]


@pytest.mark.kernel
def test_a_rerun_tool_cell_reaches_a_connected_client(ran: Any) -> None:
    assert "['reverse_words', 'shout', 'word_count']" in shown_by(ran, "follow")
    live = shown_by(ran, "live-check")
    assert "word_count now takes: ['min_length', 'text']" in live
    assert live.rstrip().endswith("4")  # the new version ran: cat, hat, and, bat
    assert "['shout']" in shown_by(ran, "narrow")  # allow_tools, heard by the client too
    servers = shown_by(ran, "servers")
    # Both stay connected: the follower (a handshake-era session) and the agent Workbench
    # (at 2026-07-28, through the listen stream that brings it the list changes).
    assert "Serving 1 tool of notebook" in servers and "2 connected clients" in servers
    assert document(ran, "servers", SERVERS)["kind"] == "servers"
    assert "the port is closed" in shown_by(ran, "stop")


@pytest.mark.kernel
def test_exported_script_runs_over_stdio(ran: Any) -> None:
    exported = shown_by(ran, "export")
    assert "3 tools (word_count, shout, reverse_words)" in exported
    assert "--http --port 8000" in exported and '"mcpServers"' in exported
    script = shown_by(ran, "script")
    assert "def word_count(text: str, min_length: int = 1) -> int:" in script
    assert "'annotations': {'readOnlyHint': True}" in script
    assert "['reverse_words', 'shout', 'word_count']" in shown_by(ran, "run-exported")
    called = document(ran, "call-exported", OBSERVATION)
    assert called["toolId"] == "exported.word_count" and called["structuredContent"] == {
        "result": 4
    }
    assert shown_by(ran, "same").strip() == "True"  # the schemas the notebook served
    assert not list(Path.cwd().glob("my_tools.py")) and not list(NOTEBOOKS.glob("my_tools.py"))


@pytest.mark.kernel
def test_resource_and_prompt_cells_are_read_in_the_notebook_and_by_a_client(ran: Any) -> None:
    assert "Serving resource notes://style (style) on notebook." in shown_by(ran, "resource")
    assert "Serving prompt review (count, text) on notebook." in shown_by(ran, "prompt")
    assert shown_by(ran, "read-own").startswith("# House style\nShort sentences.")
    assert "(['notes://style'], ['review'])" in shown_by(ran, "serve-offers")
    client = shown_by(ran, "client-offers")
    assert "text/markdown # House style" in client
    assert "list at most 3 fixes.\n\nWe utilise synergies." in client
    assert "the port is closed" in shown_by(ran, "stop-offers")


@pytest.mark.kernel
def test_a_served_tool_asks_the_outside_client_and_the_notebook_answers_its_own_call(
    ran: Any,
) -> None:
    assert "notebook.rename_notes" in shown_by(ran, "asking-tool")
    asked = shown_by(ran, "asking-client")
    assert "['Rename drafts to what?'] -> Pretended to rename drafts to archive." in asked
    handled = shown_by(ran, "asking-handler")
    assert "Pretended to rename drafts to rename_notes-done." in handled
    assert "the port is closed" in handled


@pytest.mark.kernel
def test_a_task_tool_gives_a_handle_at_once_and_its_result_later(ran: Any) -> None:
    shown = shown_by(ran, "tasks-call").splitlines()
    assert shown[0] == "working", shown
    assert "Indexed 3 notes in drafts." in shown
    assert "[('index_notes', 'completed')]" in shown
    assert "Stopped serving" in shown_by(ran, "tasks-call")
