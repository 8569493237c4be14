"""What differs between a lock file and an environment: `make test-latest` prints it before
running the suite on the newest versions, so a failure can be read against what moved.

    python scripts/lock_drift.py requirements/dev.lock versions.txt

``versions.txt`` is ``pip list --format=freeze`` of that environment. The lock's markers are
evaluated for the running Python (a universal lock may pin two versions of one package).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from packaging.markers import Marker

PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)\s*(?:;\s*(.+))?")
"""``name==version`` and an optional ``; marker``, as uv writes them."""


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock: Path) -> dict[str, str]:
    """The lock's pins that apply to this Python and platform."""
    pins: dict[str, str] = {}
    for line in lock.read_text().splitlines():
        requirement = line.split("#", 1)[0].strip()
        match = PIN.fullmatch(requirement)
        if match and (match.group(3) is None or Marker(match.group(3)).evaluate()):
            pins[normal(match.group(1))] = match.group(2)
    return pins


def installed(freeze: Path) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in freeze.read_text().splitlines():
        name, _, version = line.partition("==")
        if version:
            pins[normal(name)] = version
    return pins


def main(lock: Path, freeze: Path) -> int:
    before, now = locked(lock), installed(freeze)
    changed = sorted(n for n in before.keys() & now.keys() if before[n] != now[n])
    added = sorted(now.keys() - before.keys() - {"jupyter-mcp-workbench", "pip", "setuptools"})
    gone = sorted(before.keys() - now.keys())
    for name in changed:
        print(f"  {name}: {before[name]} -> {now[name]}")
    for name in added:
        print(f"  {name}: not in the lock, now {now[name]}")
    for name in gone:
        print(f"  {name}: {before[name]} in the lock, not installed now")
    if not (changed or added or gone):
        print("  nothing: the newest versions are the locked ones")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(Path(sys.argv[1]), Path(sys.argv[2])))
