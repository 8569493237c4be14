"""Fixtures for tests against real MCP servers that `make test` installs into .cache/servers.

A missing server fails the tests that need it (never skips them): the suite promises to
run against servers nobody here wrote, and a silent skip would hide that it did not.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.session import Workbench

ROOT = Path(__file__).resolve().parents[2]
SERVERS = ROOT / ".cache" / "servers"
EVERYTHING_PACKAGE = SERVERS / "npm/node_modules/@modelcontextprotocol/server-everything"
TIME_SERVER_VENV = SERVERS / "venv"


def _missing(what: str) -> None:
    pytest.fail(
        f"{what} Run `make test` (or `make servers`) from {ROOT} to install the real MCP "
        f"servers these tests run into {SERVERS}.",
        pytrace=False,
    )


def _pinned(variable: str) -> str:
    """The version the Makefile pins, so a stale install is caught instead of tested."""
    match = re.search(rf"^{variable}\s*:=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert match, f"The Makefile no longer sets {variable}."
    return match.group(1)


@pytest.fixture(scope="session")
def everything_js() -> Path:
    """The entry script of @modelcontextprotocol/server-everything (run it with node)."""
    node = shutil.which("node")
    if node is None:
        _missing("node is not on PATH; the npm servers need it.")
    manifest = EVERYTHING_PACKAGE / "package.json"
    if not manifest.is_file():
        _missing(f"@modelcontextprotocol/server-everything is not installed ({manifest}).")
    package = json.loads(manifest.read_text())
    wanted = _pinned("EVERYTHING_VERSION")
    if package["version"] != wanted:
        _missing(
            f"server-everything {package['version']} is installed but the Makefile pins {wanted}."
        )
    script = EVERYTHING_PACKAGE / package["bin"]["mcp-server-everything"]
    if not script.is_file():
        _missing(f"server-everything's entry script {script} is missing.")
    return script


@pytest.fixture(scope="session")
def everything_stdio(everything_js: Path) -> list[str]:
    """The command line of server-everything in stdio mode: ``node <bin js> stdio``.

    Under ``npm install --ignore-scripts`` the bin may lack its exec bit, hence node.
    """
    return [str(shutil.which("node")), str(everything_js), "stdio"]


@pytest.fixture(scope="session")
def time_server() -> list[str]:
    """The command line of mcp-server-time (PyPI), installed in a venv of its own."""
    script = TIME_SERVER_VENV / "bin" / "mcp-server-time"
    if not script.is_file():
        _missing(f"mcp-server-time is not installed ({script}).")
    wanted = _pinned("TIME_SERVER_VERSION")
    record = f"mcp_server_time-{wanted}.dist-info"
    if not any(TIME_SERVER_VENV.glob(f"lib/python*/site-packages/{record}")):
        _missing(f"mcp-server-time {wanted} (the Makefile's pin) is not the installed version.")
    return [str(script)]


@pytest.fixture
def workbench() -> Iterator[Workbench]:
    """A fresh Workbench, closed (with every server it started) after the test."""
    wb = Workbench()
    try:
        yield wb
    finally:
        wb.close()
