"""mcp.json readers: both formats, variable expansion, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.config import expand, read_config, spec_from_entry
from workbench.errors import ConfigError


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data))
    return path


def test_claude_desktop_format(tmp_path: Path) -> None:
    path = write(tmp_path, {"mcpServers": {
        "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
        "off": {"command": "x", "disabled": True},
    }})  # fmt: skip
    entries = read_config(path)
    assert list(entries) == ["time"]
    spec = spec_from_entry("time", entries["time"])
    assert (spec.transport, spec.command, spec.args, dict(spec.env)) == (
        "stdio", "uvx", ("mcp-server-time",), {"TZ": "UTC"}
    )  # fmt: skip


def test_vscode_format_with_types(tmp_path: Path) -> None:
    path = write(tmp_path, {"servers": {
        "remote": {"type": "http", "url": "https://example.test/mcp",
                   "headers": {"X-Key": "k"}},
        "local": {"type": "stdio", "command": "node", "args": ["server.js"], "cwd": "srv"},
    }})  # fmt: skip
    entries = read_config(path)
    remote = spec_from_entry("remote", entries["remote"])
    assert (remote.transport, remote.url, dict(remote.headers)) == (
        "http", "https://example.test/mcp", {"X-Key": "k"}
    )  # fmt: skip
    local = spec_from_entry("local", entries["local"], base_dir=tmp_path)
    assert local.cwd == str(tmp_path / "srv")


def test_env_variables_expand_in_both_spellings() -> None:
    environ = {"TOKEN": "abc", "HOME": "/home/u"}
    assert expand("Bearer ${env:TOKEN}", environ) == "Bearer abc"
    assert expand("${HOME}/data and ${TOKEN}", environ) == "/home/u/data and abc"
    assert expand("no variables $HOME", environ) == "no variables $HOME"
    spec = spec_from_entry(
        "s",
        {"url": "https://h/${env:TOKEN}", "headers": {"Authorization": "Bearer ${TOKEN}"}},
        environ=environ,
    )
    assert spec.url == "https://h/abc" and spec.headers["Authorization"] == "Bearer abc"


def test_unset_variable_names_the_server_and_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"Server 'gh'.*GITHUB_TOKEN is not set"):
        spec_from_entry("gh", {"command": "x", "env": {"T": "${env:GITHUB_TOKEN}"}}, environ={})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"other": {}}', "neither an 'mcpServers'"),
        ("[1, 2]", "neither an 'mcpServers'"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message):
        read_config(path)


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        read_config(tmp_path / "nope.json")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"args": ["x"]}, "neither a 'command' nor a 'url'"),
        ({"type": "http"}, "no 'url'"),
        ({"type": "sse", "url": "http://h/sse"}, "SSE transport is deprecated"),
    ],
)
def test_bad_entries_say_what_is_wrong(entry: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        spec_from_entry("s", entry)
