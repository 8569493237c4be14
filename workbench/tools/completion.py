"""Completers: what a notebook says a prompt argument or a template variable may be.

A completer is a list of candidates (filtered by the typed prefix, case-insensitively) or a
function given the typed value, and the other arguments' values when it takes a second
parameter; it returns candidates (a list, any iterable of strings), sync or async. The
server side awaits what it returns and caps it; nothing here runs an event loop.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from workbench.errors import ToolDefinitionError

Completer = Callable[..., Any] | Iterable[str]
"""Candidates, or a function ``(value)`` / ``(value, context)`` returning them."""

MAX_VALUES = 100
"""MCP caps a completion at 100 values."""


class Completable:
    """What a prompt and a resource template share: completers for some of their names.

    A subclass sets ``completers`` and says what may be completed (``_completable``), who
    it is in errors (``_decorator`` and ``_owner``: ``@prompt 'review'``) and what those
    names are (``_kind``: ``argument``, ``template variable``)."""

    completers: dict[str, Completer]
    _decorator = "@prompt"
    _kind = "argument"

    @property
    def _owner(self) -> str:
        raise NotImplementedError

    def _completable(self) -> list[str]:
        raise NotImplementedError

    def add_completer(self, name: str, completer: Completer) -> None:
        """Complete ``name`` with ``completer`` (candidates, or ``fn(value[, context])``)."""
        names = self._completable()
        if name not in names:
            raise ToolDefinitionError(
                f"{self._decorator} {self._owner!r}: no {self._kind} {name!r} to complete "
                f"(its {self._kind}s: {', '.join(names) or 'none'})."
            )
        self.completers[name] = check_completer(self._owner, name, completer)

    def completer(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: ``@review.completer("language")`` makes a function complete ``name``."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.add_completer(name, fn)
            return fn

        return register


def check_completer(owner: str, argument: str, completer: object) -> Completer:
    """A usable completer, or a ToolDefinitionError naming what is wrong."""
    if isinstance(completer, (str, bytes)):
        raise ToolDefinitionError(
            f"{owner}: the completer of {argument!r} is a string; give a list of candidates "
            "or a function."
        )
    if callable(completer):
        return completer
    if isinstance(completer, Iterable):
        return [str(value) for value in completer]
    raise ToolDefinitionError(
        f"{owner}: the completer of {argument!r} is {type(completer).__name__}, not a list "
        "of candidates or a function."
    )


def start_completion(completer: Completer, value: str, context: Mapping[str, str]) -> Any:
    """What the completer gives for ``value``: candidates, or an awaitable of them (the
    caller awaits it, then passes the result to ``finish``)."""
    if not callable(completer):
        prefix = value.casefold()
        return [item for item in completer if item.casefold().startswith(prefix)]
    if _takes_context(completer):
        return completer(value, dict(context))
    return completer(value)


def finish(result: object) -> list[str]:
    """The candidates as strings, at most MAX_VALUES; a string is refused (it would iterate
    into one-character candidates)."""
    if result is None:
        return []
    if isinstance(result, (str, bytes)):
        raise TypeError("A completer returned a string; return a list of strings.")
    if not isinstance(result, Iterable):
        raise TypeError(f"A completer returned {type(result).__name__}, not a list of strings.")
    return [str(item) for item in result][:MAX_VALUES]


def _takes_context(fn: Callable[..., Any]) -> bool:
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2
