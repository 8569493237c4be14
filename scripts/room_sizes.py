"""Modules and lines per room of the package, at a git revision or in the work tree.

A room is a top-level module or package of ``workbench`` (``workbench/mcp/`` and the
packages inside it count as one room). ``--rev REV`` reads the files of that commit with
git, so two revisions compare side by side:

    python scripts/room_sizes.py --rev da25b50 --rev HEAD
"""

from __future__ import annotations

import argparse
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_files(rev: str | None) -> dict[str, str]:
    """Path -> text of every ``workbench/**/*.py`` at ``rev`` (None: the work tree)."""
    if rev is None:
        return {
            str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
            for path in sorted((ROOT / "workbench").rglob("*.py"))
        }
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "workbench"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    return {
        name: subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        for name in names
        if name.endswith(".py")
    }


def room_of(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[:2])


def sizes(rev: str | None) -> tuple[Counter[str], Counter[str]]:
    """Modules and lines per room."""
    modules: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    for path, text in python_files(rev).items():
        room = room_of(path)
        modules[room] += 1
        lines[room] += len(text.splitlines())
    return modules, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", action="append", help="a git revision (repeatable)")
    revs: list[str | None] = list(parser.parse_args().rev or [None])
    columns = [sizes(rev) for rev in revs]
    rooms = sorted({room for modules, _ in columns for room in modules})
    header = "| room | " + " | ".join(f"{rev or 'work tree'} modules / lines" for rev in revs)
    print(header + " |")
    print("|---|" + "---|" * len(revs))
    for room in rooms:
        cells = [
            f"{modules[room]} / {lines[room]:,}" if modules[room] else "-"
            for modules, lines in columns
        ]
        print(f"| `{room}` | " + " | ".join(cells) + " |")
    totals = [f"{sum(m.values())} / {sum(n.values()):,}" for m, n in columns]
    print("| **all** | " + " | ".join(totals) + " |")


if __name__ == "__main__":
    main()
