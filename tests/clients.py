"""The real MCP clients the tests drive against served notebook tools.

`make test` (or `make clients`) installs them, pinned, into .cache/clients/npm with
`npm install --ignore-scripts`; each is run as `node <its js>`. A missing or stale client fails
the test that needs it, never skips it (``tests/installed.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.installed import ROOT, Installed

CLIENTS = Installed(ROOT / ".cache" / "clients" / "npm", "clients", "MCP clients")


def node() -> str:
    return CLIENTS.node()


def _script(package: str, variable: str, entry: str) -> Path:
    home, _ = CLIENTS.npm_package(package, variable)
    return CLIENTS.script(home, entry)


def conformance_js() -> Path:
    """The MCP conformance suite's CLI (`node <it> server --url URL --scenario X`)."""
    return _script("conformance", "CONFORMANCE_VERSION", "dist/index.js")


def inspector_js() -> Path:
    """The MCP Inspector's launcher (`node <it> --cli URL --method tools/list ...`)."""
    return _script("inspector", "INSPECTOR_VERSION", "cli/build/cli.js")


def client_env(home: Path) -> dict[str, str]:
    """The environment a client runs in: a scratch HOME (the Inspector writes there), no
    proxy settings (every server the tests start is on 127.0.0.1), and nothing else of ours."""
    home.mkdir(parents=True, exist_ok=True)
    return {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_COLOR": "1"}
