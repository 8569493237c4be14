"""A tool's exception in one line, with where the notebook's own code raised it.

``ratio: ZeroDivisionError: float division by zero`` says what, not where; the innermost
frame of the notebook's own code (a cell) says where: ``(cell [12], line 3: return a / b)``.
Library frames below it are left out, and so are file paths: the line may reach an outside
client of a served notebook. Which file is a cell is told by its name (IPython's
``<ipython-input-N-…>``, ipykernel's ``…/ipykernel_PID/HASH.py``); the kernel's shell knows
the cell's number and installs a namer that asks it (``install_cell_namer``).
"""

from __future__ import annotations

import linecache
import re
import traceback
from collections.abc import Callable

CellNamer = Callable[[str], "str | None"]
"""A code file name to a cell's name (``cell [12]``), or None when it is no cell."""

_INPUT = re.compile(r"<ipython-input-(\d+)-\w+>")
_KERNEL_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\]\w+\.py")
_LONGEST = 80
_namer: list[CellNamer] = []


def install_cell_namer(namer: CellNamer | None) -> None:
    """Name cells with ``namer`` from now on (the latest shell's); None: by file name only."""
    _namer[:] = [] if namer is None else [namer]


def failure_message(name: str, error: BaseException) -> str:
    """``name: Type: message``, plus the cell line that raised it when there is one."""
    where = raised_in_cell(error)
    return f"{name}: {type(error).__name__}: {error}" + (f" ({where})" if where else "")


def raised_in_cell(error: BaseException) -> str | None:
    """``cell [12], line 3: return a / b``: the innermost frame of a cell, or None."""
    for frame, line in reversed(list(traceback.walk_tb(error.__traceback__))):
        filename = frame.f_code.co_filename
        cell = cell_name(filename)
        if cell is not None:
            code = " ".join(linecache.getline(filename, line).split())
            if len(code) > _LONGEST:
                code = code[: _LONGEST - 1] + "…"
            return f"{cell}, line {line}" + (f": {code}" if code else "")
    return None


def cell_name(filename: str) -> str | None:
    """The cell a code file name stands for, or None for any other file."""
    for namer in _namer:
        named = namer(filename)
        if named:
            return named
    numbered = _INPUT.fullmatch(filename)
    if numbered:
        return f"cell [{numbered[1]}]"
    return "a cell" if _KERNEL_CELL.search(filename) else None
