"""Make the MCP SDK's result validation ready before the first call, cheaply.

The SDK validates structured results with ``jsonschema``, imported on the first such call.
Importing ``jsonschema`` costs 1.5-2 s, nearly all of it in ``rfc3987_syntax``, which builds
a Lark grammar at import time so that ``jsonschema``'s format checker can check the ``iri``
format. The SDK never checks formats, so that grammar is never used on the call path; yet a
call made while a background import is building it waits for the import lock (the first
``%mcp call`` of a Run All waited 2.4 s).

So ``rfc3987_syntax`` is deferred: until something actually uses it, ``sys.modules`` holds a
stand-in whose ``is_valid_syntax`` (all ``jsonschema`` takes from it) and every other name
load the real module on first use. ``jsonschema`` then imports in about 0.15 s and checks
``iri`` formats exactly as before, only paying for the grammar when it first does.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import threading
import types
from typing import Any

from workbench.bridge import start_daemon_thread

_log = logging.getLogger(__name__)
DEFERRED = "rfc3987_syntax"
_lock = threading.Lock()
_warmed_up = False


class _Deferred(types.ModuleType):
    """Stands in for ``rfc3987_syntax``; any name but ``is_valid_syntax`` loads the real one."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_load_real(), name)


def _is_valid_syntax(term: str, value: str) -> Any:
    """``rfc3987_syntax.is_valid_syntax``, loading the real module on first use."""
    return _load_real().is_valid_syntax(term, value)


def _load_real() -> types.ModuleType:
    """Swap the stand-in for the real module (built once, whoever asks first)."""
    with _lock:
        current = sys.modules.get(DEFERRED)
        if isinstance(current, _Deferred):
            del sys.modules[DEFERRED]
            try:
                return importlib.import_module(DEFERRED)
            except BaseException:
                sys.modules[DEFERRED] = current
                raise
        return importlib.import_module(DEFERRED)


def defer_iri_grammar() -> bool:
    """Put the stand-in in place, unless the module is loaded already or not installed."""
    with _lock:
        if DEFERRED in sys.modules:
            return False
        spec = importlib.util.find_spec(DEFERRED)
        if spec is None:
            return False
        stand_in = _Deferred(DEFERRED, "Deferred by workbench.mcp.warm_up until first use.")
        stand_in.__spec__ = spec
        stand_in.is_valid_syntax = _is_valid_syntax  # type: ignore[attr-defined]
        sys.modules[DEFERRED] = stand_in
        return True


def warm_up_result_validation() -> None:
    """Import ``jsonschema`` (without the IRI grammar) in the background, once per process."""
    global _warmed_up
    with _lock:
        if _warmed_up:
            return
        _warmed_up = True
    if "jsonschema" not in sys.modules:
        defer_iri_grammar()
        start_daemon_thread(_import_quietly, "jsonschema", name="workbench-warm-up")


def _import_quietly(name: str) -> None:
    """Import ``name`` ahead of its first use; a failure (a process out of file descriptors)
    is only logged: that first use imports it again and says what went wrong there."""
    try:
        importlib.import_module(name)
    except Exception as error:  # a head start, never an error of its own
        _log.debug("warming up %s failed: %s", name, error)
