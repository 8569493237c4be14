"""server_spec: the one check of a server's settings, whoever gives them."""

from __future__ import annotations

import logging
import math
import socket
import sys

import pytest

from workbench.config.spec import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_CONNECT_TIMEOUT,
    ServerSpec,
    server_spec,
)
from workbench.errors import ServerNameError, ServerSpecError
from workbench.session import Workbench


def test_each_kind_of_server() -> None:
    stdio = server_spec("s", command=sys.executable, args=["-V"], env={"A": "1"}, cwd="/tmp")
    assert (stdio.transport, stdio.args, dict(stdio.env), stdio.cwd) == (
        "stdio",
        ("-V",),
        {"A": "1"},
        "/tmp",
    )
    http = server_spec("h", url="https://example.test/mcp", headers={"X": "1"}, timeout=5)
    assert (http.transport, http.call_timeout, http.connect_timeout) == (
        "http",
        5.0,
        DEFAULT_CONNECT_TIMEOUT,
    )
    demo = server_spec("demo")
    assert demo.transport == "in-process" and demo.call_timeout == DEFAULT_CALL_TIMEOUT


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"command": "x", "url": "https://a.test"}, "not command and url"),
        ({"url": "ftp://a.test"}, r"is not an http\(s\) URL"),
        ({"url": "https://a.test", "env": {"A": "1"}}, "env option does not apply to a URL"),
        ({"command": "x", "headers": {"A": "1"}}, "headers option does not apply to a command"),
        ({"command": "x", "token": "t"}, "token option does not apply to a command"),
        ({"command": "  "}, "is empty"),
        ({}, "Nothing to connect for 'x'"),
        ({"command": "x", "timeout": 0}, "timeout must be a number of seconds above 0"),
        ({"command": "x", "timeout": -1}, "above 0, not -1"),
        ({"command": "x", "timeout": math.nan}, "above 0, not nan"),
        ({"command": "x", "timeout": "soon"}, "above 0, not 'soon'"),
        ({"command": "x", "connect_timeout": True}, "connect_timeout must be"),
    ],
)
def test_bad_settings_are_one_line_errors(settings: dict[str, object], says: str) -> None:
    with pytest.raises(ServerSpecError, match=says) as raised:
        server_spec("x", **settings)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value)


def test_the_demo_takes_no_process_settings() -> None:
    with pytest.raises(ServerSpecError, match="token option does not apply to the demo server"):
        server_spec("demo", token="t")


def test_the_name_is_checked_first() -> None:
    with pytest.raises(ServerNameError):
        server_spec("a.b", command="x")


# -- F2: a stdio server gets a minimal environment -----------------------------------------

KERNEL_SECRETS = {
    "JUPYTERHUB_API_TOKEN": "hub-secret-1",
    "OPENAI_API_KEY": "sk-secret-2",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-3",
    "SOME_APP_SETTING": "x",
}


def test_f2_a_stdio_child_gets_only_harmless_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {**KERNEL_SECRETS, "LANG": "C.UTF-8", "LC_TIME": "C", "TZ": "UTC"}.items():
        monkeypatch.setenv(key, value)
    env = server_spec("s", command="x", env={"GIVEN": "1"}).child_environment()
    assert not set(KERNEL_SECRETS) & set(env)
    assert {"LANG", "LC_TIME", "TZ", "PATH", "GIVEN"} <= set(env)
    allowed = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANGUAGE", "TZ", "LANG"}
    assert {key for key in env if not key.startswith("LC_")} <= allowed | {"GIVEN"}


def test_f2_inherit_env_passes_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-2")
    env = server_spec("s", command="x", env={"A": "1"}, inherit_env=True).child_environment()
    assert env["OPENAI_API_KEY"] == "sk-secret-2" and env["A"] == "1"
    with pytest.raises(ServerSpecError, match="inherit_env option does not apply to a URL"):
        server_spec("h", url="https://a.test", inherit_env=True)


# -- F3, F6: names -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../x", "/tmp/escaped_log_probe", "x/y", "a b", "x\n"])
def test_f3_a_name_that_is_no_identifier_is_refused(name: str) -> None:
    with pytest.raises(ServerNameError, match="letters, digits") as raised:
        server_spec(name, command="true")
    assert "\n" not in str(raised.value)


def test_a_non_string_name_is_a_one_line_error() -> None:
    with pytest.raises(ServerNameError, match="must be a string, not int"):
        server_spec(5, command="true")  # type: ignore[arg-type]


def test_f3_the_log_file_stays_in_the_log_folder() -> None:
    from workbench.mcp.transports import stderr_log_path

    good = stderr_log_path("time")
    assert good.name == "time.stderr.log"
    for hostile in ("../x", "/tmp/escaped", "..", "a/../../b"):
        path = stderr_log_path(hostile)
        assert path.parent == good.parent, hostile


def test_f6_notebook_is_reserved() -> None:
    with pytest.raises(ServerNameError, match="'notebook' is reserved") as raised:
        server_spec("notebook", command="mcp-server-time")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("settings", [{"command": "true"}, {"url": "https://a.test/mcp"}])
def test_f6_demo_means_the_demo_server(settings: dict[str, str]) -> None:
    with pytest.raises(ServerNameError, match="'demo' is reserved for the embedded demo server"):
        server_spec("demo", **settings)  # type: ignore[arg-type]


def test_f9_args_as_a_string_are_refused() -> None:
    with pytest.raises(ServerSpecError, match="args must be a list of words") as raised:
        server_spec("s", command="echo", args="hello world")
    assert "['hello', 'world']" in str(raised.value)


# -- G4, G21: env, header and token values are text, one line ------------------------------


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"command": "cat", "env": {"PORT": 8080}}, "env 'PORT'"),
        ({"command": "cat", "env": {5: "x"}}, "env names"),
        ({"url": "http://127.0.0.1:1/mcp", "headers": {"X": 5}}, "header 'X'"),
        ({"url": "http://127.0.0.1:1/mcp", "headers": {5: "x"}}, "header names"),
        ({"url": "http://127.0.0.1:1/mcp", "token": 12345}, "token"),
        ({"command": "cat", "env": ["PORT=1"]}, "env must be a mapping"),
    ],
)
def test_g4_non_text_values_are_one_line_errors(settings: dict[str, object], says: str) -> None:
    with pytest.raises(ServerSpecError, match=says) as raised:
        server_spec("x", **settings)  # type: ignore[arg-type]
    message = str(raised.value)
    assert "\n" not in message and "string" in message
    assert "8080" not in message and "12345" not in message


@pytest.mark.integration
def test_g4_a_bad_value_adds_no_connection_and_servers_still_work(wb: Workbench) -> None:
    from workbench.lab.state import state_document

    wb.connect("demo")
    for options in ({"command": "cat", "env": {"PORT": 8080}},
                    {"url": "http://127.0.0.1:1/mcp", "headers": {"X": 5}},
                    {"url": "http://127.0.0.1:1/mcp", "token": 12345}):  # fmt: skip
        with pytest.raises(ServerSpecError):
            wb.connect("x", **options)  # type: ignore[arg-type]
        assert [info.name for info in wb.servers()] == ["demo"]
        assert [row["name"] for row in state_document(wb, None)["servers"]] == ["demo"]
    assert not wb.call("demo.add", {"a": 2, "b": 3}).is_error


def test_g4_a_spec_made_by_hand_with_a_number_still_describes_itself() -> None:
    spec = ServerSpec("x", "stdio", command="cat", env={"PORT": 8080})  # type: ignore[dict-item]
    assert spec.describe() == "cat"
    assert spec.redact("listening on 8080") == "listening on ***"


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"url": "http://h.test/mcp", "headers": {"X-Api-Key": "HDR-SECRET-9191\n"}}, "header"),
        ({"url": "http://h.test/mcp", "headers": {"X-Api-Key": "HDR-SECRET-9191\r"}}, "header"),
        ({"url": "http://h.test/mcp", "headers": {"X-A\nB": "v"}}, "header"),
        ({"url": "http://h.test/mcp", "token": "HDR-SECRET-9191\x00"}, "token"),
        ({"url": "http://h.test/mcp", "token": "HDR-SECRET-9191\x1b[2J"}, "token"),
        ({"command": "cat", "env": {"K": "HDR-SECRET-9191\x00"}}, "env value of 'K'"),
        ({"command": "cat", "env": {"K=HDR-SECRET-9191": "x"}}, "env name 'K=...'"),
        (
            {
                "url": "http://h.test/mcp",
                "headers": {"Authorization: Bearer HDR-SECRET-9191\n": ""},
            },
            "header name",
        ),
    ],
)
def test_g21_control_characters_are_refused_without_echoing_the_value(
    settings: dict[str, object], says: str
) -> None:
    with pytest.raises(ServerSpecError, match=says) as raised:
        server_spec("x", **settings)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value) and "HDR-SECRET" not in str(raised.value)


def test_g21_a_multi_line_env_value_is_allowed() -> None:
    """A PEM key in an environment variable has newlines: the environment allows them."""
    pem = "-----BEGIN KEY-----\nabc\n-----END KEY-----\n"
    assert server_spec("x", command="cat", env={"KEY": pem}).env["KEY"] == pem


def test_g21_a_rejected_header_value_never_reaches_a_debug_log(
    wb: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "HDR-SECRET-9191"
    with socket.socket() as listening:  # would accept the connection: the headers would be sent
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/mcp"
        with caplog.at_level(logging.DEBUG), pytest.raises(ServerSpecError) as raised:
            wb.connect("bad", url=url, headers={"X-Api-Key": f"{secret}\n"}, connect_timeout=5)
    assert "X-Api-Key" in str(raised.value) and secret not in str(raised.value)
    assert not [r for r in caplog.records if secret in r.getMessage()], caplog.text
    assert "bad" not in [info.name for info in wb.servers()]
