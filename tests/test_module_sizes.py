"""No module of the package grows past the size the house keeps, unless named here with why.

Small modules with one job each are easier to read and to change; a module that grows past
the ceiling is asked to split along a seam. The exceptions are few and each says why.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"
CEILING = 500

EXCEPTIONS: dict[str, str] = {}
"""Module (path under workbench/) -> why it may stay over the ceiling. None today."""


def sizes() -> dict[str, int]:
    return {
        str(path.relative_to(PACKAGE)): len(path.read_text().splitlines())
        for path in PACKAGE.rglob("*.py")
    }


def test_no_module_is_over_the_ceiling_unless_named_with_a_reason() -> None:
    over = {name: lines for name, lines in sizes().items() if lines > CEILING}
    unexplained = {name: lines for name, lines in over.items() if name not in EXCEPTIONS}
    assert not unexplained, f"modules over {CEILING} lines; split them: {unexplained}"


def test_every_exception_is_still_needed() -> None:
    found = sizes()
    stale = [name for name in EXCEPTIONS if found.get(name, 0) <= CEILING]
    assert not stale, (
        f"no longer over {CEILING} lines (or gone): drop them from EXCEPTIONS: {stale}"
    )
