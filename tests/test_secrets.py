"""Secrets are never printed (F1): the masking rules, then each channel a secret could leak by.

Every channel test plants a secret value and looks for it in everything that channel shows.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import warnings
from pathlib import Path

import pytest

from workbench.config.spec import server_spec
from workbench.display import ServerTable
from workbench.errors import (
    ConfigError,
    ConnectionFailedError,
    ConnectionWarning,
    ServerSpecError,
)
from workbench.mcp.manager import ServerInfo
from workbench.secrets import (
    MASK,
    hidden_values,
    is_key_like,
    mask_args,
    mask_text,
    mask_url,
    redact,
)
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind

SECRET = "S3CRET-7373"
REFUSED = "http://127.0.0.1:1"  # nothing listens on port 1: connecting fails at once


def everything_shown(wb: Workbench) -> str:
    """What a person can see of the servers: rows, reprs, the table as text and HTML."""
    rows = wb.servers()
    table = ServerTable(rows)
    return "\n".join([repr(rows), repr(wb), table.to_plain(), table.to_html()])


# -- the rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"http://user:{SECRET}@h/mcp", "http://user:***@h/mcp"),
        (f"https://{SECRET}@github.com/x", "https://***@github.com/x"),
        (f"http://h/mcp?api_key={SECRET}&page=2", "http://h/mcp?api_key=***&page=2"),
        (f"http://h/?access_token={SECRET}#sig={SECRET}", "http://h/?access_token=***#sig=***"),
        ("http://h/?key=${env:KEY}", "http://h/?key=${env:KEY}"),
        ("http://h/mcp?q=keyword", "http://h/mcp?q=keyword"),
    ],
)
def test_f1_urls_are_masked(url: str, shown: str) -> None:
    assert mask_url(url) == shown


def test_f1_args_after_key_like_flags_are_masked() -> None:
    words = ["srv", "--api-key", SECRET, f"--token={SECRET}", "--password", SECRET,
             f"DB_PASSWORD={SECRET}", f"postgresql://u:{SECRET}@h/db", "--verbose", "x",
             "--key", "${env:KEY}"]  # fmt: skip
    assert mask_args(words) == ["srv", "--api-key", MASK, f"--token={MASK}", "--password",
                                MASK, f"DB_PASSWORD={MASK}", "postgresql://u:***@h/db",
                                "--verbose", "x", "--key", "${env:KEY}"]  # fmt: skip
    assert set(hidden_values(" ".join(words), " ".join(mask_args(words)))) == {SECRET}


def test_f1_key_like_names() -> None:
    assert all(map(is_key_like, ["X-Api-Key", "accessToken", "API_KEY", "--password", "sig"]))
    assert not any(map(is_key_like, ["keyword", "--verbose", "page", "monkey"]))


def test_f1_free_text_and_known_values_are_masked() -> None:
    assert SECRET not in mask_text(f"Illegal header value b'{SECRET}\\n'")
    assert SECRET not in mask_text(f"Authorization: Bearer {SECRET}")
    assert redact(f"echo {SECRET}\\n and {SECRET}", [f"{SECRET}\n"]) == "echo *** and ***"
    assert redact("value 1 and on", ["1", "on"]) == "value 1 and on"  # too short to replace


# -- describe() and repr -------------------------------------------------------------------


def test_f1_describe_and_repr_hide_every_kind_of_secret() -> None:
    specs = [
        server_spec("a", command="srv", args=["--api-key", SECRET], env={"K": SECRET}),
        server_spec(
            "b",
            url=f"http://u:{SECRET}@h/mcp?token={SECRET}",
            token=SECRET,
            headers={"X-Api-Key": SECRET},
        ),
        server_spec(
            "c", url=f"http://h/mcp/{SECRET}", shown="http://h/mcp/${env:KEY}", secrets=[SECRET]
        ),
    ]
    for spec in specs:
        assert SECRET not in spec.describe() and SECRET not in repr(spec)
    assert specs[2].describe() == "http://h/mcp/${env:KEY}"


# -- tables, errors, warnings --------------------------------------------------------------


def test_f1_a_table_masks_whatever_row_it_gets() -> None:
    row = ServerInfo("x", "http", f"http://h/?key={SECRET}", "failed", 0,
                     f"boom at http://u:{SECRET}@h/", None)  # fmt: skip
    table = ServerTable([row])
    assert SECRET not in table.to_plain() and SECRET not in table.to_html()


def test_f1_url_credentials_stay_out_of_errors_and_tables(wb: Workbench) -> None:
    with pytest.raises(ConnectionFailedError) as raised:
        wb.connect("b", url=f"http://user:{SECRET}@127.0.0.1:1/mcp?api_key={SECRET}")
    assert SECRET not in str(raised.value) and "user:***@" in str(raised.value)
    assert SECRET not in everything_shown(wb)


def test_f1_a_rejected_header_value_stays_out_of_errors(wb: Workbench) -> None:
    with socket.socket() as listening:  # would accept the connection: the headers would be sent
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/mcp"
        # refused before any request (G21: the HTTP client would log it at DEBUG)
        with pytest.raises(ServerSpecError, match="control character") as raised:
            wb.connect("b", url=url, headers={"X-Api-Key": f"{SECRET}\n"}, connect_timeout=5)
    assert SECRET not in str(raised.value)
    assert SECRET not in everything_shown(wb)


def test_f1_a_stderr_tail_echoing_the_command_line_is_redacted(wb: Workbench) -> None:
    echo = "import sys; print(sys.argv, file=sys.stderr); sys.exit(3)"
    with pytest.raises(ConnectionFailedError, match="Last lines of its stderr") as raised:
        wb.connect("st", command=sys.executable, args=["-c", echo, "--api-key", SECRET])
    assert SECRET not in str(raised.value) and "'--api-key', '***'" in str(raised.value)
    assert SECRET not in everything_shown(wb)


def test_f1_a_config_error_shows_no_secret() -> None:
    from workbench.config import spec_from_entry

    with pytest.raises(ConfigError, match="is not an http") as raised:
        spec_from_entry("f", {"url": f"ftp://u:{SECRET}@h/?token={SECRET}"})
    assert SECRET not in str(raised.value)


def test_f1_config_templates_are_shown_and_warnings_hide_values(
    wb: Workbench, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KEY", SECRET)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "st": {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)", "--db",
                                                   "${env:KEY}"]},
        "hu": {"url": f"{REFUSED}/mcp/${{KEY}}?key=${{env:KEY}}"},
    }}))  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        infos = wb.connect_config(config)
    assert [w.category for w in caught] == [ConnectionWarning, ConnectionWarning]
    assert all(SECRET not in str(w.message) for w in caught)
    assert {info.target for info in infos} == {
        f"{sys.executable} -c import sys; sys.exit(3) --db ${{env:KEY}}",
        f"{REFUSED}/mcp/${{KEY}}?key=${{env:KEY}}",
    }
    assert SECRET not in everything_shown(wb)


# -- log lines and the history export ------------------------------------------------------


def test_f1_http_client_log_lines_are_masked(caplog: pytest.LogCaptureFixture) -> None:
    from workbench.mcp.transports import make_transport

    make_transport(server_spec("h", url=f"{REFUSED}/mcp"), on_http_status=lambda status: None)
    with caplog.at_level(logging.INFO):
        logging.getLogger("httpx2").info('HTTP Request: POST %s "%s"', f"http://h/?token={SECRET}",
                                         "HTTP/1.1 401")  # fmt: skip
    assert caplog.records and all(SECRET not in record.getMessage() for record in caplog.records)
    assert "token=***" in caplog.text


SERVER = """
import os, sys
from fastmcp import FastMCP

server = FastMCP("dies")

@server.tool
def die() -> str:
    print(sys.argv, file=sys.stderr, flush=True)
    os._exit(1)

server.run("stdio", show_banner=False, log_level="WARNING")
"""


@pytest.mark.integration
def test_f1_a_call_failure_in_the_history_export_shows_no_secret(
    wb: Workbench, tmp_path: Path
) -> None:
    script = tmp_path / "dies.py"
    script.write_text(SERVER)
    wb.connect("d", command=sys.executable, args=[str(script), "--api-key", SECRET])
    observation = wb.call("d.die")
    assert observation.error_kind is ErrorKind.CONNECTION
    assert SECRET not in (observation.error_message or "")
    exported = wb.history.export(tmp_path / "history.json").read_text()
    assert "d.die" in exported and SECRET not in exported


def test_prose_keeps_its_words() -> None:
    for prose in ("--key must be set", "a bearer token is missing", "Basic authentication"):
        assert mask_text(prose) == prose
    assert mask_text("srv --key abc123", command_line=True) == "srv --key ***"
