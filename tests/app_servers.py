"""The real MCP Apps servers the tests host: tools whose listing names a ``ui://`` App.

`make test` (or `make test-servers`) installs them, pinned, into .cache/servers/apps with
`npm install --ignore-scripts` (fixtures.mk: BASIC_APP_VERSION, BUDGET_APP_VERSION). Each runs
as ``node <package>/dist/index.js --stdio`` (without ``--stdio`` it would serve HTTP). They
declare Node 20 or newer: the system's node when it is that new, else the clients' pinned
Node 22 (tests/clients.py). A missing or stale install fails the test, never skips it.
"""

from __future__ import annotations

import subprocess
from functools import cache

from tests.installed import ROOT, Installed

APPS = Installed(ROOT / ".cache" / "servers" / "apps", "test-servers", "MCP Apps servers")

BASIC = "server-basic-vanillajs"
BUDGET = "server-budget-allocator"
_PINS = {BASIC: "BASIC_APP_VERSION", BUDGET: "BUDGET_APP_VERSION"}

BASIC_TOOL, BASIC_URI = "get-time", "ui://get-time/mcp-app.html"
BUDGET_TOOL, BUDGET_URI = "get-budget-data", "ui://budget-allocator/mcp-app.html"
APP_MIME_TYPE = "text/html;profile=mcp-app"


@cache
def app_node() -> str:
    """A node of version 20 or newer: the system's, else the clients' Node 22."""
    system = APPS.node()
    ran = subprocess.run([system, "--version"], capture_output=True, text=True, timeout=30)
    major = ran.stdout.strip().lstrip("v").split(".")[0]
    if ran.returncode == 0 and major.isdigit() and int(major) >= 20:
        return system
    from tests.clients import node

    return node()


def app_server(package: str) -> tuple[str, list[str]]:
    """``(command, args)`` that start ``package`` (BASIC or BUDGET) over stdio, pinned."""
    home, _ = APPS.npm_package(package, _PINS[package])
    return app_node(), [str(APPS.script(home, "dist/index.js")), "--stdio"]
