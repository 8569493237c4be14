"""The real MCP clients the tests drive against served notebook tools.

`make test` (or `make clients`) installs them, pinned, into .cache/clients/npm with
`npm install --ignore-scripts`; each is run as `node <its js>`. A missing or stale client fails
the test that needs it (never skips it): the suite promises clients nobody here wrote, and a
silent skip would hide that it did not run them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ROOT / ".cache" / "clients" / "npm"
PACKAGES = CLIENTS / "node_modules" / "@modelcontextprotocol"


def _missing(what: str) -> None:
    pytest.fail(
        f"{what} Run `make test` (or `make clients`) from {ROOT} to install the real MCP "
        f"clients these tests run into {CLIENTS}.",
        pytrace=False,
    )


def pinned(variable: str) -> str:
    """The version the Makefile pins, so a stale install is caught instead of tested."""
    match = re.search(rf"^{variable}\s*:=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert match, f"The Makefile no longer sets {variable}."
    return match.group(1)


def node() -> str:
    found = shutil.which("node")
    if found is None:
        _missing("node is not on PATH; the npm clients need it.")
    assert found is not None
    return found


def _script(package: str, variable: str, entry: str) -> Path:
    manifest = PACKAGES / package / "package.json"
    if not manifest.is_file():
        _missing(f"@modelcontextprotocol/{package} is not installed ({manifest}).")
    version = json.loads(manifest.read_text())["version"]
    wanted = pinned(variable)
    if version != wanted:
        _missing(
            f"@modelcontextprotocol/{package} {version} is installed; the Makefile pins {wanted}."
        )
    script = PACKAGES / package / entry
    if not script.is_file():
        _missing(f"{package}'s entry script {script} is missing.")
    return script


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
