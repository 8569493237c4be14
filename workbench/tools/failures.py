"""A tool's exception in one line, with where the notebook's own code raised it.

``ratio: ZeroDivisionError: float division by zero`` says what, not where; the innermost
frame of the notebook's own code (a cell) says where: ``(cell [12], line 3: return a / b)``.
Library frames below it are left out, and so are file paths: the line may reach an outside
client of a served notebook. A cell's code runs in its shell's namespace, whose
``get_ipython`` leads to the compiler that numbered the cell (IPython is never imported);
without one, IPython's and ipykernel's cell file names still tell a cell.
"""

from __future__ import annotations

import linecache
import re
import traceback
from collections.abc import Mapping
from typing import Any

_INPUT = re.compile(r"<ipython-input-(\d+)-\w+>")
_KERNEL_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\]\w+\.py")
_LONGEST = 80


def failure_message(name: str, error: BaseException) -> str:
    """``name: Type: message``, plus the cell line that raised it when there is one."""
    where = raised_in_cell(error)
    return f"{name}: {type(error).__name__}: {error}" + (f" ({where})" if where else "")


def raised_in_cell(error: BaseException) -> str | None:
    """``cell [12], line 3: return a / b``: the innermost frame of a cell, or None."""
    for frame, line in reversed(list(traceback.walk_tb(error.__traceback__))):
        filename = frame.f_code.co_filename
        cell = cell_name(filename, frame.f_globals)
        if cell is not None:
            code = " ".join(linecache.getline(filename, line).split())
            if len(code) > _LONGEST:
                code = code[: _LONGEST - 1] + "…"
            return f"{cell}, line {line}" + (f": {code}" if code else "")
    return None


def cell_name(filename: str, namespace: Mapping[str, Any]) -> str | None:
    """The cell a code file name stands for (``cell [12]``), or None for any other file."""
    numbered = _shell_number(filename, namespace) or _INPUT.fullmatch(filename)
    if numbered:
        return f"cell [{numbered if isinstance(numbered, str) else numbered[1]}]"
    return "a cell" if _KERNEL_CELL.search(filename) else None


def _shell_number(filename: str, namespace: Mapping[str, Any]) -> str | None:
    """The number the cell's shell gave it: ``compile.format_code_name`` answers
    ``("Cell", "In[12]")`` for the code of a cell it ran."""
    try:
        shell = namespace["get_ipython"]()
        named = shell.compile.format_code_name(filename)
    except Exception:  # no shell there, or not IPython's: the file name must tell
        return None
    if not (isinstance(named, tuple) and len(named) == 2 and named[0] == "Cell"):
        return None
    found = re.fullmatch(r"In\[(\d+)\]", str(named[1]))
    return found[1] if found else None
