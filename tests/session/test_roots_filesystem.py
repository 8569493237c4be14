"""Roots with the real ``@modelcontextprotocol/server-filesystem``: it replaces the folders
of its command line with the roots a client offers, so the workbench offers none unless the
person sets them (roots are deprecated in MCP 2026-07-28), and a path it refuses says which
roots were offered and how to change them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.installed import ROOT, Installed
from tests.polling import wait_for
from workbench import Workbench

FS = Installed(ROOT / ".cache" / "servers" / "fs", "test-servers", "MCP servers")

pytestmark = pytest.mark.integration


def filesystem_server() -> list[str]:
    """``node <server-filesystem>/dist/index.js``, at the Makefile's FILESYSTEM_VERSION."""
    home, _ = FS.npm_package("server-filesystem", "FILESYSTEM_VERSION")
    return [FS.node(), str(FS.script(home, "dist/index.js"))]


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    for folder in (allowed, other):
        folder.mkdir()
        (folder / "note.txt").write_text(f"in {folder.name}")
    return allowed, other


def read(wb: Workbench, path: Path) -> tuple[bool, str]:
    observation = wb.call("fs.read_text_file", {"path": str(path)})
    return observation.is_error, str(observation.error_message or observation.text)


def test_roots_a_command_line_folder_is_used_when_no_roots_are_set(
    wb: Workbench, folders: tuple[Path, Path]
) -> None:
    allowed, other = folders
    command, *args = filesystem_server()
    wb.connect("fs", command=command, args=[*args, str(allowed)])

    assert read(wb, allowed / "note.txt") == (False, "in allowed")
    assert wb.roots() == []

    refused, said = read(wb, other / "note.txt")
    assert refused
    assert "outside allowed directories" in said  # the server's own words first
    assert "No roots were offered to 'fs'" in said
    assert "wb.roots([" in said


def test_roots_set_by_the_person_replace_its_folders_and_a_refusal_names_them(
    wb: Workbench, folders: tuple[Path, Path]
) -> None:
    allowed, other = folders
    command, *args = filesystem_server()
    wb.connect("fs", command=command, args=[*args, str(allowed)])

    wb.roots([other])  # roots/list_changed: the server asks again and takes them
    wait_for(lambda: not read(wb, other / "note.txt")[0], what="the server to take the roots")

    refused, said = read(wb, allowed / "note.txt")
    assert refused
    assert f"Roots offered to 'fs': {other.as_uri()}" in said
    assert "wb.roots([" in said
