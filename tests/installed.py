"""What `make test` installs outside the venv for the tests: real MCP servers and clients.

Each is pinned in the Makefile and checked against that pin, so a stale install is caught
instead of tested. A missing one fails the test that needs it (never skips it): the suite
promises servers and clients nobody here wrote, and a silent skip would hide that it did
not run them.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]


def makefiles() -> str:
    """The Makefile and the files it includes (workshop.mk, fixtures.mk beside it), one text."""
    return "\n".join(p.read_text() for p in [ROOT / "Makefile", *sorted(ROOT.glob("*.mk"))])


def pinned(variable: str) -> str:
    """The version the Makefile (or a file it includes) pins for ``variable``."""
    match = re.search(rf"^{variable}\s*:=\s*(\S+)", makefiles(), re.M)
    assert match, f"The Makefile and its *.mk files no longer set {variable}."
    return match.group(1)


@dataclass(frozen=True)
class Installed:
    """One folder `make <target>` fills with ``what`` (e.g. "MCP servers")."""

    folder: Path
    target: str
    what: str

    def missing(self, problem: str) -> NoReturn:
        pytest.fail(
            f"{problem} Run `make test` (or `make {self.target}`) from {ROOT} to install the "
            f"real {self.what} these tests run into {self.folder}.",
            pytrace=False,
        )

    def node(self) -> str:
        """The node binary the npm packages run with."""
        found = shutil.which("node")
        if found is None:
            self.missing(f"node is not on PATH; the npm {self.what} need it.")
        return found

    def npm_package(
        self, package: str, variable: str, prefix: Path | None = None
    ) -> tuple[Path, dict[str, Any]]:
        """``@modelcontextprotocol/<package>``'s folder and manifest, at the pinned version,
        under the npm ``prefix`` (the folder itself by default)."""
        top = prefix if prefix is not None else self.folder
        home = top / "node_modules" / "@modelcontextprotocol" / package
        manifest = home / "package.json"
        if not manifest.is_file():
            self.missing(f"@modelcontextprotocol/{package} is not installed ({manifest}).")
        found: dict[str, Any] = json.loads(manifest.read_text())
        wanted = pinned(variable)
        if found["version"] != wanted:
            self.missing(
                f"@modelcontextprotocol/{package} {found['version']} is installed; "
                f"the Makefile pins {wanted}."
            )
        return home, found

    def script(self, home: Path, entry: str) -> Path:
        """An npm package's entry script (run with node: `--ignore-scripts` may leave a bin
        without its exec bit)."""
        script = home / entry
        if not script.is_file():
            self.missing(f"{home.name}'s entry script {script} is missing.")
        return script
