"""What a refused path adds to a tool error: the roots offered, and how to change them."""

from __future__ import annotations

import pytest

from workbench.mcp.roots import refused_path_note

FILESYSTEM = "Access denied - path outside allowed directories: /etc/x not in /home/ada"


@pytest.mark.parametrize(
    "text",
    [
        FILESYSTEM,
        "Access denied - symlink target outside allowed directories: /a not in /b",
        "Error: /data/x is not within the allowed roots",
    ],
)
def test_roots_a_refused_path_gets_a_note(text: str) -> None:
    assert refused_path_note("fs", text, []) is not None


@pytest.mark.parametrize(
    "text", ["Error: file not found: /x", "Permission denied", "the allowed values are a, b"]
)
def test_roots_other_errors_get_no_note(text: str) -> None:
    assert refused_path_note("fs", text, ["file:///a"]) is None


def test_roots_the_note_names_the_roots_offered_and_how_to_change_them() -> None:
    none = refused_path_note("fs", FILESYSTEM, [])
    assert none is not None and none.startswith("No roots were offered to 'fs'")
    some = refused_path_note("fs", FILESYSTEM, ["file:///a", "file:///b"])
    assert some is not None and "Roots offered to 'fs': file:///a, file:///b." in some
    assert "wb.roots([" in some and "wb.reconnect('fs')" in some
