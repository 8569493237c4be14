"""Whether a call's inputs can be sent at all, before any schema judges them.

A tool's schema speaks about JSON; Python hands over anything. Arguments that are not a JSON
object (a list, a string), values JSON cannot hold (a set, an object, NaN), a tool id that is
not text and a timeout that is not a positive number of seconds are found here, in words,
so the call path can answer with an ``invalid_arguments`` Observation instead of raising.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from workbench.registry.problems import ROOT

SHOWN = 60
"""Characters of a bad value quoted back in a message."""
MAX_DEPTH = 200
"""Nesting deeper than this is refused (it also stops a list that contains itself)."""


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)`` on one line, cut to ``limit`` characters: safe in a message or an id."""
    try:
        text = " ".join(repr(value).split())
    except Exception:  # a repr that raises still needs a name
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tool_id_problem(tool_id: object) -> str | None:
    """Why ``tool_id`` cannot name a tool, or None when it is text."""
    if isinstance(tool_id, str):
        return None
    return f"A tool id is text ('server.tool'), not {type(tool_id).__name__} {shown(tool_id)}."


def timeout_problem(timeout: object) -> str | None:
    """Why ``timeout`` is no per-call limit, or None when it is None or a positive number
    of seconds. 0 is refused rather than read as "no limit"."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        return f"must be a number of seconds, not {type(timeout).__name__} {shown(timeout)}"
    if math.isnan(timeout):
        return "NaN is not a number of seconds"
    if timeout <= 0:
        return f"must be more than 0 seconds, not {timeout:g}"
    if math.isinf(timeout):
        return "must be a finite number of seconds (leave it out for the default)"
    return None


def argument_problems(arguments: object) -> list[tuple[str, str]]:
    """Every ``(path, why)`` that stops ``arguments`` from being a JSON object: not a
    mapping, keys that are not text, values JSON cannot hold, NaN and infinities."""
    if arguments is None:
        return []
    if not isinstance(arguments, Mapping):
        kind = type(arguments).__name__
        return [(ROOT, f"must be a JSON object (a dict of name: value), not {kind}")]
    problems: list[tuple[str, str]] = []
    _check_object(arguments, "", problems, 0)
    return problems


def recordable(arguments: object) -> dict[str, Any]:
    """Arguments as the history can keep them: a dict with text keys whose values JSON can
    hold (anything else as its short repr; non-finite numbers stay, the export handles them)."""
    if arguments is None:
        return {}
    if not isinstance(arguments, Mapping):
        return {ROOT: shown(arguments)}
    value = _plain(arguments, 0)
    return value if isinstance(value, dict) else {}


def _check_object(
    value: Mapping[Any, Any], path: str, problems: list[tuple[str, str]], depth: int
) -> None:
    for key, item in value.items():
        if not isinstance(key, str):
            where = f"{path}.{shown(key)}" if path else shown(key)
            problems.append((where, f"a name must be text, not {type(key).__name__}"))
            continue
        _check(item, f"{path}.{key}" if path else key, problems, depth + 1)


def _check(value: Any, path: str, problems: list[tuple[str, str]], depth: int) -> None:
    if depth > MAX_DEPTH:
        problems.append((path, f"nested more than {MAX_DEPTH} levels deep"))
    elif isinstance(value, float) and not math.isfinite(value):
        what = "NaN" if math.isnan(value) else "an infinity"
        problems.append((path, f"{what} is not a number JSON can hold"))
    elif value is None or isinstance(value, str | bool | int | float):
        return
    elif isinstance(value, Mapping):
        _check_object(value, path, problems, depth)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]", problems, depth + 1)
    else:
        problems.append((path, f"{type(value).__name__} {shown(value)} is not a JSON value"))


def _plain(value: Any, depth: int) -> Any:
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if depth < MAX_DEPTH and isinstance(value, Mapping):
        return {
            key if isinstance(key, str) else shown(key): _plain(item, depth + 1)
            for key, item in value.items()
        }
    if depth < MAX_DEPTH and isinstance(value, list | tuple):
        return [_plain(item, depth + 1) for item in value]
    return shown(value)
