"""The parameters of a resource template's or a prompt's function, and their values.

MCP sends template variables and prompt arguments as strings; a parameter annotated with
another type (``id: int``) gets the string converted by pydantic's lax rules, so the function
receives what its signature says.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import TypeAdapter, ValidationError

from workbench.errors import ToolDefinitionError


def parameters(fn: Callable[..., Any], what: str) -> list[inspect.Parameter]:
    """The parameters values can be given to by name; ``*args`` is refused, ``**kwargs``
    ignored (it takes any name)."""
    try:
        found = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError) as error:
        raise ToolDefinitionError(f"{what}: its signature cannot be read ({error}).") from None
    if any(p.kind is p.VAR_POSITIONAL for p in found):
        raise ToolDefinitionError(f"{what}: *args cannot be given by name; name each one.")
    if any(p.kind is p.POSITIONAL_ONLY for p in found):
        raise ToolDefinitionError(f"{what}: positional-only parameters cannot be given by name.")
    return [p for p in found if p.kind is not p.VAR_KEYWORD]


def takes_any_name(fn: Callable[..., Any]) -> bool:
    """Whether the function has ``**kwargs``."""
    try:
        found = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD for p in found)


def is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    )


def converted(fn: Callable[..., Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` converted to the annotated types of ``fn``'s parameters (strings stay
    strings where there is no annotation); a ValueError says which one does not fit."""
    hints = _hints(fn)
    result: dict[str, Any] = {}
    for name, value in values.items():
        hint = hints.get(name)
        if hint is None or hint is Any or hint is str or not isinstance(value, str):
            result[name] = value
            continue
        try:
            result[name] = TypeAdapter(hint).validate_python(value)
        except ValidationError as error:
            problem = error.errors()[0].get("msg", "invalid") if error.errors() else "invalid"
            raise ValueError(f"{name}={value!r}: {problem}") from None
        except Exception:  # a hint pydantic cannot validate: the string as given
            result[name] = value
    return result


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))
