"""Fixtures for tests against real MCP servers that `make test` installs into .cache/servers.

A missing server fails the tests that need it (never skips them): the suite promises to
run against servers nobody here wrote, and a silent skip would hide that it did not.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.installed import ROOT, Installed, pinned
from workbench.session import Workbench

SERVERS = Installed(ROOT / ".cache" / "servers", "servers", "MCP servers")
TIME_SERVER_VENV = SERVERS.folder / "venv"


@pytest.fixture(scope="session")
def everything_js() -> Path:
    """The entry script of @modelcontextprotocol/server-everything (run it with node)."""
    SERVERS.node()
    home, manifest = SERVERS.npm_package(
        "server-everything", "EVERYTHING_VERSION", prefix=SERVERS.folder / "npm"
    )
    return SERVERS.script(home, manifest["bin"]["mcp-server-everything"])


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
        SERVERS.missing(f"mcp-server-time is not installed ({script}).")
    wanted = pinned("TIME_SERVER_VERSION")
    record = f"mcp_server_time-{wanted}.dist-info"
    if not any(TIME_SERVER_VENV.glob(f"lib/python*/site-packages/{record}")):
        SERVERS.missing(
            f"mcp-server-time {wanted} (the Makefile's pin) is not the installed version."
        )
    return [str(script)]


@pytest.fixture
def workbench(wb: Workbench) -> Workbench:
    """The root conftest's fresh Workbench, by the name these tests use."""
    return wb
