"""``%mcp serve``: serve the notebook's tools, print the URL, the token masked and client
configurations that never hold its value; ``--stop``; ``%mcp servers`` says what is served."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles
from tests.serving.conftest import with_client
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


@pytest.fixture
def served(state: KernelState) -> Iterator[None]:
    wb = state.workbench

    def hush(text: str) -> str:
        """Say nothing louder."""
        return text.lower()

    def loud(text: str) -> str:
        """Say it louder."""
        return text.upper()

    wb.add_tools(hush, loud)
    yield
    if wb.serving is not None:
        wb.serving.stop()
    wb.remove_tool("hush")
    wb.remove_tool("loud")


async def names(client: Client[Any]) -> list[str]:
    return sorted(tool.name for tool in await client.list_tools())


@pytest.mark.integration
@pytest.mark.usefixtures("served")
def test_serve_prints_url_masked_token_and_configs(mcp: Mcp, state: KernelState) -> None:
    value, captured = mcp("serve --exclude loud --page-size 10")
    handle = state.workbench.served
    assert value is None and handle is not None and handle.token
    out = captured.stdout
    assert handle.url in out
    assert handle.token not in out and handle.token not in captured.stderr
    path = handle.token_file
    assert path is not None and path.read_text() == handle.token
    assert f"Token: ***, kept in {path} (only you can read it" in out
    assert f'\n  export WORKBENCH_TOKEN="$(cat {path})"\n' in out and ".served.token" not in out
    desktop = json.loads(out.split("Claude Desktop / Cursor (mcpServers):\n")[1].split("\n\n")[0])
    entry = desktop["mcpServers"]["notebook"]
    assert entry["url"] == handle.url
    assert entry["headers"]["Authorization"] == "Bearer ${env:WORKBENCH_TOKEN}"
    assert '"type": "http"' in out and "${input:workbench-token}" in out
    assert "from fastmcp import Client" in out
    assert "loud" not in with_client(handle.url, handle.token, names)
    assert "hush" in with_client(handle.url, handle.token, names)

    table = bundles(mcp("servers")[1])[0]["text/plain"]
    assert f"at {handle.url} to" in table and "connected client" in table

    _, stopped = mcp("serve --stop")
    assert "Stopped serving" in stopped.stdout and not handle.running and not path.exists()
    assert "Nothing is being served." in mcp("serve --stop")[1].stdout


@pytest.mark.usefixtures("served")
def test_token_from_the_environment_and_instructions_from_a_file(
    mcp: Mcp, state: KernelState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAGIC_SERVE_TOKEN", "magic-token-value-123")
    notes = tmp_path / "notes.md"
    notes.write_text("Use hush for secrets.")
    _, captured = mcp(f"serve --token ${{env:MAGIC_SERVE_TOKEN}} --instructions {notes}")
    handle = state.workbench.served
    assert handle is not None and handle.token == "magic-token-value-123"
    assert "magic-token-value-123" not in captured.stdout
    assert "${env:MAGIC_SERVE_TOKEN}" in captured.stdout

    async def instructions(client: Client[Any]) -> str | None:
        result = client.initialize_result
        return None if result is None else result.instructions

    said = with_client(handle.url, handle.token, instructions, mode="legacy")
    assert said == "Use hush for secrets."


@pytest.mark.integration
@pytest.mark.usefixtures("served")
def test_gateway_serves_the_proxy_pair(mcp: Mcp, state: KernelState) -> None:
    _, captured = mcp("serve --gateway only")
    handle = state.workbench.served
    assert handle is not None
    assert f"Serving 2 tools at {handle.url} (find_tools, call_tool)" in captured.stdout
    assert with_client(handle.url, handle.token, names) == ["call_tool", "find_tools"]


@pytest.mark.usefixtures("served")
def test_no_auth_is_said_and_a_remote_host_needs_the_flag(mcp: Mcp, state: KernelState) -> None:
    with pytest.raises(UsageError, match="allow_remote"):
        mcp("serve --host 0.0.0.0")
    _, captured = mcp("serve --no-auth")  # said in the output, not as a warning too
    assert "No auth" in captured.stdout and not captured.stderr
    assert "Authorization" not in captured.stdout


@pytest.mark.usefixtures("served")
def test_an_exposed_tool_not_defined_yet_is_said_first_in_one_line(
    mcp: Mcp, state: KernelState
) -> None:
    _, captured = mcp("serve --expose is_palindrome")  # a ServeWarning would fail the test
    first = captured.stdout.splitlines()[0]
    assert first == (
        "expose: no notebook tool named is_palindrome yet; it is served once its cell runs "
        "(connected clients are told)."
    )
    assert "\nServing 0 tools at" in captured.stdout and not captured.stderr

    def is_palindrome(text: str) -> bool:
        """Whether a text reads the same backwards."""
        return text == text[::-1]

    state.workbench.add_tools(is_palindrome)
    try:
        assert state.workbench.served.tools() == ["is_palindrome"]
    finally:
        state.workbench.remove_tool("is_palindrome")


@pytest.mark.integration
@pytest.mark.usefixtures("served")
def test_serving_again_says_it_kept_the_address_and_the_token(mcp: Mcp, state: KernelState) -> None:
    mcp("serve")
    first = state.workbench.served
    _, captured = mcp("serve --exclude loud")
    again = state.workbench.served
    assert (again.url, again.token) == (first.url, first.token)
    assert captured.stdout.splitlines()[0] == (
        "Still serving at the same address, with the same token: configs pasted before keep "
        "working."
    )
    _, captured = mcp("serve --new-token")
    assert state.workbench.served.url == first.url
    assert state.workbench.served.token != first.token
    assert "with a new token" in captured.stdout.splitlines()[0]


@pytest.mark.integration
def test_serve_a_connection_through_the_workbench(mcp: Mcp, state: KernelState) -> None:
    wb = state.workbench
    assert "demo" in [info.name for info in wb.servers()]
    with pytest.raises(UsageError, match="No server named 'nope'"):
        mcp("serve --server nope")
    with pytest.raises(UsageError, match="do not combine"):
        mcp("serve --server demo --gateway")
    _, captured = mcp("serve --server demo --expose add,get_time")
    handle = wb.served
    try:
        assert handle is not None and handle.server == "demo"
        assert f"Serving 2 tools of demo at {handle.url} (add, get_time)" in captured.stdout
        assert with_client(handle.url, handle.token, names) == ["add", "get_time"]

        async def add(client: Client[Any]) -> Any:
            return (await client.call_tool("add", {"a": 2, "b": 3})).data

        assert with_client(handle.url, handle.token, add) == 5
        assert (wb.history[-1].tool_id, wb.history[-1].source) == ("demo.add", "outside")
        table = bundles(mcp("servers")[1])[0]["text/plain"]
        assert f"Serving 2 tools of demo at {handle.url}" in table
    finally:
        handle.stop()
