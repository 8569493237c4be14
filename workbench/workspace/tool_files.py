"""A workspace's ``tools/*.py`` files: each run once as a private module, its ``@tool``s kept.

A file is compiled and run as a module of its own under a private name (``sys.modules`` holds
it only while it runs, for the dataclasses and models it defines), so nothing of it stays
importable and two workspaces' ``tools/utils.py`` never meet. A file that does not compile,
or raises while it runs, is one line ``file:line: Error: message`` and gives no tools. Only
functions made tools with the workbench's ``@tool`` in that file count; its other public
functions are named as skipped. ``ToolFiles`` remembers each file by the hash of its bytes,
so loading a workspace again runs only the files that changed.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sys
import traceback
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import FunctionTool
from workbench.workspace.files import MAX_PYTHON_BYTES, FileRefused, read_limited


@dataclass(frozen=True)
class ToolFile:
    """One file's outcome: its tools, its undecorated public functions, or its error."""

    path: Path
    digest: str
    tools: tuple[ToolDefinition[Any, Any], ...] = ()
    undecorated: tuple[str, ...] = ()
    error: str = ""


class ToolFiles:
    """Tool files by path, each run again only when its bytes change. Only regular files
    inside ``root`` (default: each file's own folder) of at most ``MAX_PYTHON_BYTES`` are
    read (``files.py``)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._known: dict[Path, ToolFile] = {}
        self.runs = 0
        """How many times a file was run (a reload of unchanged files adds nothing)."""

    def load(self, path: Path) -> ToolFile:
        """The file's tools, from memory when its bytes are the ones last run."""
        try:
            source = read_limited(path, self.root or path.parent.resolve(), MAX_PYTHON_BYTES)
        except FileRefused as error:
            self._known.pop(path, None)
            return ToolFile(path, "", error=str(error))
        digest = hashlib.sha256(source).hexdigest()
        known = self._known.get(path)
        if known is not None and known.digest == digest:
            return known
        self.runs += 1
        made = run_file(path, source, digest)
        self._known[path] = made
        return made

    def forget(self, keep: set[Path]) -> None:
        """Drop what is remembered of files no longer there."""
        for path in set(self._known) - keep:
            del self._known[path]


def run_file(path: Path, source: bytes, digest: str) -> ToolFile:
    """Compile and run one file as a private module; collect its ``@tool`` functions."""
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 0
        return ToolFile(path, digest, error=f"{path}:{line}: SyntaxError: {error.msg}")
    except ValueError as error:  # null bytes
        return ToolFile(path, digest, error=f"{path}: {error}")
    stem = re.sub(r"\W+", "_", path.stem)
    name = f"_workbench_workspace_{digest[:12]}_{stem}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as error:
        return ToolFile(path, digest, error=_raised(path, error))
    finally:
        sys.modules.pop(name, None)
    tools, undecorated = _collect(module)
    return ToolFile(path, digest, tools, undecorated)


Tools = tuple[ToolDefinition[Any, Any], ...]


def _collect(module: types.ModuleType) -> tuple[Tools, tuple[str, ...]]:
    """The ``@tool`` functions defined in the module (once each, in order), and the names of
    its public functions without the decorator."""
    tools: list[ToolDefinition[Any, Any]] = []
    wrapped: set[int] = set()
    for value in vars(module).values():
        new = isinstance(value, FunctionTool) and all(value is not seen for seen in tools)
        if new and _defined_in(value.fn, module):
            tools.append(value)
            wrapped.add(id(value.fn))
    undecorated = tuple(
        key
        for key, value in vars(module).items()
        if inspect.isfunction(value)
        and not key.startswith("_")
        and _defined_in(value, module)
        and id(value) not in wrapped
    )
    return tuple(tools), undecorated


def _defined_in(function: Any, module: types.ModuleType) -> bool:
    return getattr(function, "__module__", None) == module.__name__


def _raised(path: Path, error: BaseException) -> str:
    """``file:line: Error: message`` for what a running file raised (the last line of the
    file in its traceback; the line of the syntax error in a file it imports)."""
    frames = traceback.extract_tb(error.__traceback__)
    lines = [frame.lineno for frame in frames if frame.filename == str(path)]
    where = f"{path}:{lines[-1]}" if lines and lines[-1] else str(path)
    message = " ".join(str(error).split())
    return f"{where}: {type(error).__name__}" + (f": {message}" if message else "")
