"""server_spec: the one check of a server's settings, whoever gives them."""

from __future__ import annotations

import math
import sys

import pytest

from workbench.errors import ServerNameError, ServerSpecError
from workbench.mcp.spec import DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, server_spec


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
