"""mcp.json readers: both formats, variable expansion, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.config import expand, read_config, spec_from_entry, strip_jsonc
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


# -- F8: every file error is one line; one bad entry fails alone -------------------------


def test_f8_a_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory") as raised:
        read_config(tmp_path)
    assert "\n" not in str(raised.value)


def test_f8_a_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(b'{"mcpServers": {"a": {"command": "\xff\xfe"}}}')
    with pytest.raises(ConfigError, match="is not UTF-8 text") as raised:
        read_config(path)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"command": "x", "timeout": "fast"}, "timeout must be a number of seconds, not a string"),
        ({"command": "x", "connectTimeout": True}, "connectTimeout must be a number"),
        ({"url": "https://h/mcp", "headers": ["a", "b"]}, "headers must be an object"),
        ({"command": "x", "env": ["A=1"]}, "env must be an object"),
        ({"command": "x", "env": {"A": None}}, "env.A must be a string, not null"),
        ({"command": ["x"]}, "command must be a string, not a list"),
        ({"command": "x", "inheritEnv": "yes"}, "inheritEnv must be true or false"),
    ],
)
def test_f8_a_bad_field_is_a_config_error_naming_the_server(
    entry: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=f"Server 's' in the config: {message}") as raised:
        spec_from_entry("s", entry)
    assert "\n" not in str(raised.value)


# -- F9: read as written, or refused clearly -----------------------------------------------


def test_f9_args_given_as_a_string_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"args must be a list of strings, not a string; "
                       r"write \['hello', 'world'\]"):  # fmt: skip
        spec_from_entry("s", {"command": "echo", "args": "hello world"})


@pytest.mark.parametrize("entry", ["node x", None, 3, ["node"]])
def test_f9_an_entry_that_is_not_an_object_is_kept_and_refused(
    tmp_path: Path, entry: object
) -> None:
    path = write(tmp_path, {"mcpServers": {"good": {"command": "x"}, "bad": entry}})
    entries = read_config(path)
    assert set(entries) == {"good", "bad"}
    with pytest.raises(ConfigError, match="Server 'bad' in the config: the entry must be an"):
        spec_from_entry("bad", entries["bad"])


def test_f9_vscode_jsonc_comments_and_trailing_commas(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        "// VS Code's mcp.json\n"
        '{\n  "servers": {\n'
        '    /* the time server */ "time": {\n'
        '      "command": "uvx", // a comment after a value\n'
        '      "args": ["mcp-server-time", "--url=http://a//b", "/* kept */",],\n'
        "    },\n"
        "  },\n"
        "}\n"
    )
    spec = spec_from_entry("time", read_config(path)["time"])
    assert spec.args == ("mcp-server-time", "--url=http://a//b", "/* kept */")


def test_f9_a_utf8_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"a": {"command": "x"}}}).encode())
    assert list(read_config(path)) == ["a"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": "// not a comment", "b": 1,}', {"a": "// not a comment", "b": 1}),
        ('{"a": "say \\"/*\\"" /* c */}', {"a": 'say "/*"'}),
        ('["a,]", 2, /* c */ ]', ["a,]", 2]),
        ('{"a": [1,\n// c\n],}', {"a": [1]}),
    ],
)
def test_f9_the_jsonc_stripper_respects_strings(text: str, value: object) -> None:
    assert json.loads(strip_jsonc(text)) == value
    assert strip_jsonc(text).count("\n") == text.count("\n")  # error lines stay true


def test_f9_connect_timeout_applies_to_http_too() -> None:
    spec = spec_from_entry("h", {"url": "https://h/mcp", "connectTimeout": 3, "timeout": 7})
    assert (spec.connect_timeout, spec.call_timeout) == (3.0, 7.0)


# -- F2: envFile and inheritEnv ------------------------------------------------------------


def test_f2_env_file_is_read_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("# a comment\n\nA=1\nexport B = 'two words'\nC=x=y\n")
    entry = {"command": "x", "envFile": ".env", "env": {"C": "given"}}
    spec = spec_from_entry("s", entry, base_dir=tmp_path)
    assert dict(spec.env) == {"A": "1", "B": "two words", "C": "given"}


def test_f2_a_missing_env_file_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"envFile '.*missing\.env' cannot be read"):
        spec_from_entry("s", {"command": "x", "envFile": "missing.env"}, base_dir=tmp_path)


def test_f2_inherit_env_is_an_explicit_field() -> None:
    assert not spec_from_entry("s", {"command": "x"}).inherit_env
    assert spec_from_entry("s", {"command": "x", "inheritEnv": True}).inherit_env


# -- F1: the template is shown, never the value --------------------------------------------


def test_f1_a_config_spec_shows_templates_not_values() -> None:
    environ = {"KEY": "ENV-SECRET-7373"}
    stdio = spec_from_entry(
        "st", {"command": "sh", "args": ["-c", "exit 3", "--db", "${env:KEY}"]}, environ=environ
    )
    http = spec_from_entry("hu", {"url": "http://h:1/mcp/${KEY}?x=1"}, environ=environ)
    assert stdio.args[-1] == "ENV-SECRET-7373" and http.url == "http://h:1/mcp/ENV-SECRET-7373?x=1"
    assert stdio.describe() == "sh -c exit 3 --db ${env:KEY}"
    assert http.describe() == "http://h:1/mcp/${KEY}?x=1"
    for spec in (stdio, http):
        assert "ENV-SECRET-7373" not in repr(spec)
        assert "ENV-SECRET-7373" not in spec.redact("it said ENV-SECRET-7373")


def test_an_unset_variable_error_shows_no_other_value() -> None:
    with pytest.raises(ConfigError, match="UNSET is not set") as raised:
        spec_from_entry("s", {"command": "x", "args": ["${env:UNSET}", "--token", "lit-secret"]})
    assert "lit-secret" not in str(raised.value)


@pytest.mark.integration
def test_f8_one_bad_entry_fails_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import warnings

    from workbench.errors import ConnectionWarning
    from workbench.session import Workbench

    monkeypatch.delenv("WORKBENCH_UNSET", raising=False)
    path = write(tmp_path, {"mcpServers": {
        "good": {"command": sys.executable, "args": ["-m", "workbench.demo"]},
        "unset": {"command": "x", "env": {"K": "${env:WORKBENCH_UNSET}"}},
        "slow": {"command": "x", "timeout": "fast"},
        "text": "node server.js",
    }})  # fmt: skip
    with Workbench() as wb, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        infos = wb.connect_config(path)
        assert [(i.name, i.status) for i in infos] == [
            ("good", "connected"), ("unset", "failed"), ("slow", "failed"), ("text", "failed")
        ]  # fmt: skip
        reasons = [i.last_error or "" for i in infos[1:]]
        assert "WORKBENCH_UNSET is not set" in reasons[0]
        assert "timeout must be a number" in reasons[1] and "must be an object" in reasons[2]
        assert all("\n" not in reason for reason in reasons)
        assert len(caught) == 3 and {w.category for w in caught} == {ConnectionWarning}
        assert wb.call("good.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}
