"""ARCHITECTURE.md stays a map: short, and naming only files, classes and tests that exist.

The map points at owners (a module, its docstring, a test) instead of restating them, so a
name it gives that no longer exists sends the reader nowhere. Each backticked path
(``workbench/x/y.py``, ``tests/...py::test_name``), dotted module name (``workbench.kernel``)
and class or ``Class.member`` name is looked up in the checkout.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.test_layers import MAY_IMPORT

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "ARCHITECTURE.md"
MAX_WORDS = 4000
"""Beyond this it stops being a map (issue 28): facts belong in their owners' docstrings."""

TOP_FOLDERS = (
    "workbench",
    "tests",
    "labextension",
    "binder",
    "benchmarks",
    "notebooks",
    "docs",
    "scripts",
    "requirements",
    "jupyter",
)
PATH = re.compile(rf"^(?:{'|'.join(TOP_FOLDERS)})/[\w./*-]*(?:::\w+)?$")
TOP_FILE = re.compile(r"^(?:[\w-]+\.(?:md|toml|mk)|Makefile)$")
MODULE = re.compile(r"^workbench(?:\.\w+)+$")
CLASS_MEMBER = re.compile(r"^([A-Z][A-Za-z0-9]+)(?:\.(\w+))?(?:\(\))?$")


def backticked(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def package_source() -> str:
    return "\n".join(path.read_text() for path in (ROOT / "workbench").rglob("*.py"))


def defined_names(source: str) -> tuple[set[str], set[str]]:
    """The classes, and every name defined or assigned at the start of a line, in workbench/."""
    classes = set(re.findall(r"^\s*class (\w+)", source, re.M))
    names = set(re.findall(r"^\s*(?:async )?def (\w+)\(", source, re.M))
    names |= set(re.findall(r"^\s*(?:self\.)?(\w+)\s*(?::[^=\n]*)?=", source, re.M))
    names |= set(re.findall(r"^\s*(\w+)\s*:", source, re.M))
    return classes | {name for name in names if name[:1].isupper()}, names


def path_problem(name: str) -> str | None:
    path, _, test = name.partition("::")
    found = sorted(ROOT.glob(path)) if "*" in path else [ROOT / path]
    if not found or not found[0].exists():
        return f"{name}: no such file or folder"
    if test and not re.search(rf"^\s*(?:async )?def {test}\(", found[0].read_text(), re.M):
        return f"{name}: {path} defines no {test}"
    return None


def module_problem(name: str, source: str) -> str | None:
    if f'"{name}"' in source:
        return None  # a name the code spells out, such as a comm target
    parts = name.split(".")
    for cut in range(len(parts), 1, -1):
        base = ROOT.joinpath(*parts[:cut])
        if base.with_suffix(".py").exists() or (base / "__init__.py").exists():
            rest = parts[cut:]
            if not rest:
                return None
            source_file = base.with_suffix(".py") if base.with_suffix(".py").exists() else base
            source = (
                source_file.read_text()
                if source_file.is_file()
                else (base / "__init__.py").read_text()
            )
            if re.search(rf"\b{rest[0]}\b", source):
                return None
            return f"{name}: {'.'.join(parts[:cut])} has no {rest[0]}"
    return f"{name}: no such module"


def class_problem(name: str, classes: set[str], names: set[str]) -> str | None:
    match = CLASS_MEMBER.match(name)
    assert match
    cls, member = match.groups()
    if cls not in classes:
        return f"{name}: no class {cls} in workbench/"
    if member and member not in names:
        return f"{name}: nothing named {member} in workbench/"
    return None


def problems_of(text: str) -> list[str]:
    source = package_source()
    classes, names = defined_names(source)
    problems: list[str] = []
    for name in dict.fromkeys(backticked(text)):
        problem = None
        if PATH.match(name) or TOP_FILE.match(name):
            problem = path_problem(name)
        elif MODULE.match(name):
            problem = module_problem(name, source)
        elif CLASS_MEMBER.match(name):
            problem = class_problem(name, classes, names)
        if problem:
            problems.append(problem)
    return problems


def test_the_map_names_only_what_exists() -> None:
    problems = problems_of(MAP.read_text())
    assert not problems, "\n".join(problems)


def test_the_map_stays_a_map() -> None:
    words = len(MAP.read_text().split())
    assert words <= MAX_WORDS, f"ARCHITECTURE.md has {words} words, over {MAX_WORDS}"


def test_the_map_names_every_room() -> None:
    rooms = {
        path.stem if path.is_file() else path.name
        for path in (ROOT / "workbench").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    }
    text = MAP.read_text()
    missing = sorted(
        room
        for room in rooms
        if f"workbench/{room}" not in text and f"workbench.{room}" not in text
    )
    assert not missing, f"rooms the map does not name: {missing}"


def floors_of(rules: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor: 0 for a room that imports no other, else one above its highest."""

    @cache
    def floor(room: str) -> int:
        return max((floor(below) + 1 for below in rules[room]), default=0)

    return {room.removeprefix("workbench."): floor(room) for room in rules}


def floors_in_map(text: str) -> dict[str, int]:
    """The numbered list under "The floors": ``N. `workbench/room/`, ...``."""
    section = text.split("## The floors", 1)[1].split("\n## ", 1)[0]
    return {
        room: int(number)
        for number, rooms in re.findall(r"^(\d+)\. (.*)$", section, re.M)
        for room in re.findall(r"`workbench/(\w+)(?:\.py|/)`", rooms)
    }


def test_the_floors_are_those_of_may_import() -> None:
    assert floors_in_map(MAP.read_text()) == floors_of(MAY_IMPORT)


def test_the_checker_catches_a_missing_file_test_and_member() -> None:
    text = (
        "`workbench/nowhere.py` `tests/test_layers.py::test_nothing_of_the_kind` "
        "`Registry.no_such_member` `workbench.kernel.no_such_name` `NoSuchClass`"
    )
    assert len(problems_of(text)) == 5, problems_of(text)
    fine = "`workbench/kernel.py` `tests/test_layers.py::test_every_room_has_a_rule` `Registry.get`"
    assert problems_of(fine) == []
