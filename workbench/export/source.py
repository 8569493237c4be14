"""What a tool's function needs to run elsewhere: its source, and the code it reaches.

``recover(fn)`` reads a function's source (``inspect.getsource``; IPython keeps every cell's
text in ``linecache``), drops the workbench decorators, and follows the global names it
uses (``symtable`` says which), each to one of:

- an import: a module, a name one of the defining cells or modules imported (``from math
  import pi``), or a class or function an installed module defines;
- a copy of the source of a function or class defined in the same cells or module (a
  helper, an Enum, a pydantic model), followed in turn;
- a literal value (``LIMIT = 5``);
- ``workbench.get_context``: the script's own (``runtime.CONTEXT``), so the tool's progress
  and log messages reach the script's clients without the workbench installed.

Anything else (a lambda, ``exec``, a closure, a bound method, an object made in a cell) is
an ``Unrecoverable`` with the reason, in a user's words. No I/O beyond ``linecache``.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import symtable
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import FunctionType, ModuleType
from typing import Any

from workbench.export.runtime import GET_CONTEXT

_LITERALS = (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset)
_LOCAL = "__main__"
"""The module IPython runs cells in."""


class Unrecoverable(Exception):
    """A function or a name it uses cannot be written into a script; says why."""


@dataclass
class Pieces:
    """The code one tool needs, each piece keyed by the global name it binds.

    ``blocks`` are in dependency order: what a definition uses comes before it.
    """

    imports: dict[str, str] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)
    blocks: dict[str, str] = field(default_factory=dict)

    def bound(self) -> Iterator[tuple[str, str]]:
        """Every (name, code) pair, to find one name meaning two things."""
        yield from self.imports.items()
        yield from self.constants.items()
        yield from self.blocks.items()


def recover(fn: Callable[..., Any]) -> Pieces:
    """The pieces that define ``fn`` and everything it uses; the last block is ``fn``."""
    pieces = Pieces()
    _Walk(pieces, getattr(fn, "__module__", None) or _LOCAL).function(fn)
    return pieces


def check_function(fn: object) -> FunctionType:
    """``fn`` if it is a plain function whose source can be recovered; else why not."""
    if inspect.ismethod(fn):
        owner = type(fn.__self__).__name__
        raise Unrecoverable(f"it is a method bound to a {owner} instance, not a plain function")
    if not isinstance(fn, FunctionType):
        raise Unrecoverable(f"it is a callable {type(fn).__name__} object, not a function")
    if fn.__name__ == "<lambda>":
        raise Unrecoverable("it is a lambda, which has no source of its own")
    if fn.__closure__:
        names = ", ".join(fn.__code__.co_freevars)
        raise Unrecoverable(
            f"it is a closure over {names} (made inside another function), whose values "
            "live only in the kernel"
        )
    return fn


class _Walk:
    """One tool's walk through the names its code uses."""

    def __init__(self, pieces: Pieces, home: str) -> None:
        self.pieces = pieces
        self.local_modules = {_LOCAL, home}
        self.visiting: set[str] = set()

    def function(self, fn: object, used_as: str | None = None) -> None:
        try:
            function = check_function(fn)
        except Unrecoverable as why:
            if used_as is None:
                raise
            raise Unrecoverable(f"it uses {used_as}, and {why}") from None
        name = function.__name__
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError):
            where = function.__code__.co_filename
            raise Unrecoverable(
                f"{_whose(name, used_as)} source is not available (made with exec, or "
                f"compiled from {where})"
            ) from None
        node = _definition(source, name, (ast.FunctionDef, ast.AsyncFunctionDef))
        if node is None:
            raise Unrecoverable(f"{_whose(name, used_as)} source does not parse as its def")
        self.definition(name, source, node, function.__globals__)

    def cls(self, value: type, namespace: Mapping[str, Any], home: str) -> None:
        name = value.__name__
        source = _class_source(value, home)
        node = None if source is None else _definition(source, name, (ast.ClassDef,))
        if source is None or node is None:
            raise Unrecoverable(f"it uses the class {name}, whose source was not found")
        self.definition(name, source, node, namespace)

    def definition(
        self, name: str, source: str, node: ast.stmt, namespace: Mapping[str, Any]
    ) -> None:
        if name in self.pieces.blocks or name in self.visiting:
            return
        self.visiting.add(name)
        text = _without_workbench_decorators(source, node, namespace)
        for used in sorted(_global_names(text, name)):
            self.name(used, namespace)
        self.pieces.blocks[name] = text
        self.visiting.discard(name)

    def name(self, name: str, namespace: Mapping[str, Any]) -> None:
        if name not in namespace:
            return  # a builtin, or a name the code would not find in the kernel either
        value = namespace[name]
        if isinstance(value, ModuleType):
            self.module(name, value)
            return
        if _is_get_context(value):  # the script's own: it reports to the script's client
            self.pieces.constants[name] = f"{name} = {GET_CONTEXT}"
            return
        imported = _imported_by_cells(name, value, namespace)
        if imported is not None:
            self.pieces.imports[name] = imported
            return
        value = getattr(value, "fn", value) if _is_workbench_tool(value) else value
        home = getattr(value, "__module__", None)
        if isinstance(value, (FunctionType, type)) and home in self.local_modules:
            if isinstance(value, type):
                self.cls(value, namespace, home)
            else:
                self.function(value, used_as=f"the function {name}")
            if value.__name__ != name:
                self.pieces.constants[name] = f"{name} = {value.__name__}"
            return
        importable = _import_line(name, value)
        if importable is not None:
            self.pieces.imports[name] = importable
            return
        if _is_literal(value):
            self.pieces.constants[name] = f"{name} = {value!r}"
            return
        raise Unrecoverable(
            f"it uses {name}, a {type(value).__name__} made in the kernel (only imports, "
            "functions, classes and literal values can be written into a script)"
        )

    def module(self, name: str, value: ModuleType) -> None:
        module = value.__name__
        if module in self.local_modules:
            raise Unrecoverable(f"it uses {name}, the notebook's own module")
        self.pieces.imports[name] = (
            f"import {module}" if module == name else f"import {module} as {name}"
        )


def _whose(name: str, used_as: str | None) -> str:
    return f"its helper {name}'s" if used_as else "its"


def _definition(source: str, name: str, kinds: tuple[type[ast.stmt], ...]) -> ast.stmt | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, kinds) and getattr(node, "name", None) == name:
            return node
    return None


def _without_workbench_decorators(source: str, node: ast.stmt, namespace: Mapping[str, Any]) -> str:
    """The definition's source, its ``@tool`` (any workbench decorator) left out: the script
    serves the plain function."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    kept = [
        ast.get_source_segment(source, decorator) or ""
        for decorator in decorators
        if not _is_workbench_object(_resolve(decorator, namespace))
    ]
    lines = source.splitlines()
    body = "\n".join(lines[node.lineno - 1 : node.end_lineno])
    return "\n".join([*(f"@{text}" for text in kept), body])


def _resolve(expression: ast.expr, namespace: Mapping[str, Any]) -> object:
    """What a decorator's callee names (``tool``, ``workbench.tool(...)``), without eval."""
    if isinstance(expression, ast.Call):
        return _resolve(expression.func, namespace)
    if isinstance(expression, ast.Name):
        return namespace.get(expression.id)
    if isinstance(expression, ast.Attribute):
        return getattr(_resolve(expression.value, namespace), expression.attr, None)
    return None


def _is_workbench_object(value: object) -> bool:
    module = getattr(value, "__module__", None) or ""
    return isinstance(module, str) and (module == "workbench" or module.startswith("workbench."))


def _is_get_context(value: object) -> bool:
    """Whether ``value`` is ``workbench.get_context`` (known by name: this room may not
    import the serving room that defines it)."""
    return (
        getattr(value, "__module__", None) == "workbench.serving.tool_context"
        and getattr(value, "__qualname__", None) == "get_context"
    )


def _is_workbench_tool(value: object) -> bool:
    """A ``@tool`` function used by another tool: the script knows only the function."""
    return _is_workbench_object(type(value)) and isinstance(
        getattr(value, "fn", None), FunctionType
    )


def _global_names(source: str, own: str) -> set[str]:
    """The global names a definition uses: at its def line (decorators, defaults,
    annotations) and inside (``symtable``'s implicit and declared globals), plus the names
    in string annotations."""
    table = symtable.symtable(source, "<tool>", "exec")
    found = {symbol.get_name() for symbol in table.get_symbols() if symbol.is_referenced()}
    found |= _inner_globals(table)
    found |= _string_annotation_names(source)
    return {name for name in found - {own} if not name.startswith("__")}


def _inner_globals(table: symtable.SymbolTable) -> set[str]:
    found: set[str] = set()
    for child in table.get_children():
        found |= {
            symbol.get_name()
            for symbol in child.get_symbols()
            if symbol.is_global() and (symbol.is_referenced() or symbol.is_assigned())
        }
        found |= _inner_globals(child)
    return found


def _string_annotation_names(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            for part in ast.walk(annotation) if annotation is not None else ():
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    try:
                        parsed = ast.parse(part.value, mode="eval")
                    except SyntaxError:
                        continue
                    found |= {n.id for n in ast.walk(parsed) if isinstance(n, ast.Name)}
    return found


def _is_literal(value: object) -> bool:
    if not isinstance(value, _LITERALS):
        return False
    try:
        return bool(ast.literal_eval(repr(value)) == value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _import_line(name: str, value: object) -> str | None:
    """``from MODULE import NAME [as ALIAS]`` for an object an installed module defines,
    from the shortest module path that has it (``pydantic``, not ``pydantic.main``)."""
    home = getattr(value, "__module__", None)
    if not isinstance(home, str) or home == _LOCAL:
        return None
    own = getattr(value, "__name__", None)
    parts = home.split(".")
    for length in range(1, len(parts) + 1):
        module = sys.modules.get(".".join(parts[:length]))
        if module is None:
            continue
        for attribute in dict.fromkeys([name, own]):
            if isinstance(attribute, str) and getattr(module, attribute, None) is value:
                alias = "" if attribute == name else f" as {name}"
                return f"from {module.__name__} import {attribute}{alias}"
    return None


def _imported_by_cells(name: str, value: object, namespace: Mapping[str, Any]) -> str | None:
    """The import statement of the defining cells (or module) that bound ``name`` to
    ``value``, when one did: ``from math import pi`` stays an import, not a number."""
    for source in _defining_sources(namespace):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            for alias in node.names:
                if (alias.asname or alias.name) != name:
                    continue
                module = sys.modules.get(node.module)
                if module is not None and getattr(module, alias.name, None) is value:
                    suffix = f" as {alias.asname}" if alias.asname else ""
                    return f"from {node.module} import {alias.name}{suffix}"
    return None


def _defining_sources(namespace: Mapping[str, Any]) -> Iterator[str]:
    """The module's own source, or (in a kernel) every cell's, newest first."""
    if namespace.get("__name__") != _LOCAL:
        filename = namespace.get("__file__")
        if isinstance(filename, str):
            yield "".join(linecache.getlines(filename))
        return
    yield from _cells()


def _cells() -> Iterator[str]:
    """IPython's cells, newest first: it caches each in ``linecache`` with no mtime."""
    for filename, entry in reversed(list(linecache.cache.items())):
        if len(entry) == 4 and entry[1] is None and _is_cell_name(filename):
            yield "".join(entry[2])


def _is_cell_name(filename: str) -> bool:
    return filename.startswith("<ipython-input-") or "ipykernel_" in filename


def _class_source(value: type, home: str) -> str | None:
    try:
        return textwrap.dedent(inspect.getsource(value))
    except (OSError, TypeError):
        pass
    if home != _LOCAL:
        return None
    for cell in _cells():
        if _definition(cell, value.__name__, (ast.ClassDef,)) is not None:
            return cell
    return None
