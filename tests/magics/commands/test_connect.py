"""``%mcp connect``: demo, stdio after ``--``, HTTP with headers and token, config files."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles, shown
from workbench.kernel import KernelState
from workbench.mcp.manager import ServerInfo

STDIO = f"{sys.executable} -m workbench.demo"


def test_connect_demo_shows_its_tools(mcp: Callable[[str], Any]) -> None:
    value, captured = mcp("connect demo")
    assert value is None
    [bundle] = bundles(captured)
    assert {"text/plain", "text/html"} <= set(bundle)
    assert "demo.add" in bundle["text/plain"] and "demo.slow_count" in bundle["text/html"]
    assert bundle["text/plain"].startswith("11 tools")


@pytest.mark.integration
def test_stdio_command_after_double_dash(mcp: Callable[[str], Any], state: KernelState) -> None:
    _, captured = mcp(f"connect stdio_demo --env WORKBENCH_TEST=1 --timeout 20 -- {STDIO}")
    try:
        assert "stdio_demo.add" in shown(captured)
        info = {i.name: i for i in state.workbench.servers()}["stdio_demo"]
        assert (info.transport, info.status) == ("stdio", "connected")
        observation, _ = mcp("call stdio_demo.add a=1 b=2")
        assert observation.structured_content == {"result": 3.0}
    finally:
        mcp("disconnect stdio_demo")
    assert "stdio_demo" not in [i.name for i in state.workbench.servers()]


def test_http_options_reach_the_workbench(
    mcp: Callable[[str], Any], state: KernelState, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def connect(name: str, **options: Any) -> ServerInfo:
        seen.update(options, name=name)
        return ServerInfo(name, "http", options["url"], "connected", 0, None, None)

    monkeypatch.setenv("WORKBENCH_TEST_TOKEN", "s3cret")
    monkeypatch.setattr(state.workbench, "connect", connect)
    _, captured = mcp(
        "connect docs https://example.test/${env:WORKBENCH_TEST_TOKEN}/mcp "
        '--header "Authorization: Bearer ${env:WORKBENCH_TEST_TOKEN}" --header X-Team=a=b '
        "--token ${env:WORKBENCH_TEST_TOKEN} --timeout 5 --connect-timeout 2.5"
    )
    assert seen["name"] == "docs"
    assert seen["url"] == "https://example.test/s3cret/mcp"
    assert seen["headers"] == {"Authorization": "Bearer s3cret", "X-Team": "a=b"}
    assert seen["token"] == "s3cret"
    assert (seen["timeout"], seen["connect_timeout"]) == (5.0, 2.5)
    assert seen["command"] is None
    assert seen["shown"] == "https://example.test/${env:WORKBENCH_TEST_TOKEN}/mcp"
    assert "No tools." in shown(captured)


@pytest.mark.integration
def test_config_file_connects_each_server_and_lists_failures(
    mcp: Callable[[str], Any], state: KernelState, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    servers = {
        "cfg_ok": {"command": sys.executable, "args": ["-m", "workbench.demo"]},
        "cfg_bad": {"command": str(tmp_path / "no-such-server")},
        "cfg_unused": {"command": str(tmp_path / "not-connected")},
    }
    config.write_text(json.dumps({"mcpServers": servers}))
    try:
        _, captured = mcp(f"connect --config {config} cfg_ok cfg_bad")
        server_table, tool_table = bundles(captured)
        assert "cfg_ok" in server_table["text/plain"] and "failed" in server_table["text/plain"]
        assert "cfg_ok.add" in tool_table["text/plain"]
        statuses = {i.name: i.status for i in state.workbench.servers()}
        assert statuses["cfg_ok"] == "connected" and statuses["cfg_bad"] == "failed"
        assert "cfg_unused" not in statuses
    finally:
        mcp("disconnect cfg_ok cfg_bad")


def test_a_failed_connection_says_why_in_a_usage_error(
    mcp: Callable[[str], Any], state: KernelState, tmp_path: Path
) -> None:
    try:
        with pytest.raises(UsageError) as caught:
            mcp(f"connect broken -- {tmp_path / 'no-such-command'}")
        assert type(caught.value) is UsageError
        assert "no-such-command" in str(caught.value)
        assert {i.name: i.status for i in state.workbench.servers()}["broken"] == "failed"
    finally:
        mcp("disconnect broken")


def test_f2_inherit_env_reaches_the_workbench(
    mcp: Callable[[str], Any], state: KernelState, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []

    def connect(name: str, **options: Any) -> ServerInfo:
        seen.append(options)
        return ServerInfo(name, "stdio", "x", "connected", 0, None, None)

    monkeypatch.setattr(state.workbench, "connect", connect)
    mcp("connect plain -- srv")
    mcp("connect trusted --inherit-env -- srv")
    assert [options["inherit_env"] for options in seen] == [False, True]
    with pytest.raises(UsageError, match="not --inherit-env"):
        mcp("connect --config f.json --inherit-env")


def test_f1_a_url_template_is_shown_not_its_value(
    mcp: Callable[[str], Any], state: KernelState, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_TEST_KEY", "MAGIC-SECRET-4242")
    template = "http://127.0.0.1:1/${env:WORKBENCH_TEST_KEY}/mcp?key=${env:WORKBENCH_TEST_KEY}"
    try:
        with pytest.raises(UsageError) as caught:
            mcp(f"connect leaky {template}")
        assert "MAGIC-SECRET-4242" not in str(caught.value) and template in str(caught.value)
        _, captured = mcp("servers")
        assert "MAGIC-SECRET-4242" not in json.dumps(bundles(captured))
    finally:
        mcp("disconnect leaky")


def test_f6_the_reserved_names_are_one_line_usage_errors(mcp: Callable[[str], Any]) -> None:
    with pytest.raises(UsageError, match="'notebook' is reserved"):
        mcp("connect notebook -- mcp-server-time")
    with pytest.raises(UsageError, match="'demo' is reserved for the embedded demo server"):
        mcp("connect demo -- mcp-server-time")


@pytest.mark.integration
def test_f8_a_bad_entry_is_listed_failed_while_the_others_connect(
    mcp: Callable[[str], Any], state: KernelState, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    servers = {
        "cfg8_ok": {"command": sys.executable, "args": ["-m", "workbench.demo"]},
        "cfg8_args": {"command": "echo", "args": "hello world"},
        "cfg8_text": "node server.js",
    }
    config.write_text(json.dumps({"mcpServers": servers}))
    try:
        _, captured = mcp(f"connect --config {config}")
        server_table, tool_table = bundles(captured)
        html = server_table["text/html"]
        assert "args must be a list of strings" in html and "must be an object" in html
        assert server_table["text/plain"].count("failed") >= 2
        assert "cfg8_ok.add" in tool_table["text/plain"]
        statuses = {i.name: i.status for i in state.workbench.servers()}
        assert statuses["cfg8_ok"] == "connected"
        assert statuses["cfg8_args"] == statuses["cfg8_text"] == "failed"  # listed after, too
        listed = bundles(mcp("servers")[1])[0]
        assert "cfg8_args" in listed["text/plain"] and "args must be a list" in listed["text/html"]
    finally:
        mcp("disconnect cfg8_ok cfg8_args cfg8_text")
    assert not {"cfg8_args", "cfg8_text"} & {i.name for i in state.workbench.servers()}


def test_f8_a_config_file_error_is_a_one_line_usage_error(
    mcp: Callable[[str], Any], tmp_path: Path
) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"servers": {"\xe9": {}}}')
    for path, says in ((tmp_path, "is a directory"), (tmp_path / "latin1.json", "not UTF-8")):
        with pytest.raises(UsageError, match=says) as caught:
            mcp(f"connect --config {path}")
        assert type(caught.value) is UsageError and "\n" not in str(caught.value)
