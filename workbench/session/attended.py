"""Whether a person can answer a server's question now, read from the kernel's request.

A notebook run unattended (nbclient, papermill, ``jupyter execute``, ``make html EXECUTE=1``)
sends each cell as an execute request that allows no input (``allow_stdin: false``), while
JupyterLab, Notebook 7 and VS Code allow it. Nobody clicks a form or types into a prompt
there, so a question is declined at once rather than after its timeout: ``mcp/answers.py``
asks ``unattended()`` before it asks the person. ipykernel keeps the request per context, so
this is read in the context of the call that asked (the calling cell). A call a widget
started (a comm message: someone clicked) or made outside a kernel counts as attended.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

NO_INPUT = "the run does not allow input"
"""Why nobody can answer a cell whose execute request allows no input."""


def unattended() -> str | None:
    """Why no person can answer a question now, or None when one may (or it cannot be told)."""
    return reason_of(current_request())


def reason_of(request: Mapping[str, Any] | None) -> str | None:
    """Why nobody can answer during ``request`` (a Jupyter message): an execute request
    without ``allow_stdin`` (ipykernel reads a missing one as false); else None."""
    if not request:
        return None
    header = request.get("header")
    kind = header.get("msg_type") if isinstance(header, Mapping) else request.get("msg_type")
    if kind != "execute_request":
        return None
    content = request.get("content")
    if isinstance(content, Mapping) and content.get("allow_stdin", False):
        return None
    return NO_INPUT


def current_request() -> Mapping[str, Any] | None:
    """The shell message the kernel is handling for this context; None outside a kernel.
    IPython is only looked at if something imported it: a script stays free of it."""
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    kernel = getattr(get_ipython(), "kernel", None)
    get_parent = getattr(kernel, "get_parent", None)
    if get_parent is None:
        return None
    parent = get_parent("shell")
    return parent if isinstance(parent, Mapping) else None
