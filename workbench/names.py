"""Server names: the reserved ones, written once, and the one rule every name obeys.

Pure (the registry, the Workbench, config files and the magics all check names here), so a
name that would break tool ids (``server.tool``), a table or a file name is refused before
anything starts.
"""

from __future__ import annotations

import re

from workbench.errors import ServerNameError

LOCAL_SERVER = "notebook"
"""The in-kernel server that holds the tools defined in the notebook (``%%tool``, ``@tool``)."""
DEMO_SERVER = "demo"
"""The embedded demo server: ``connect("demo")`` needs nothing else."""
RESERVED = frozenset({LOCAL_SERVER, DEMO_SERVER})
MAX_LENGTH = 64

# Letters (any script), digits, '_' and '-': a name is safe in a tool id, a file name, a
# table cell and a command line, and it cannot be a path.
_NAME = re.compile(rf"[\w-]{{1,{MAX_LENGTH}}}")


def check_server_name(name: object) -> str:
    """Return ``name`` if it can name a server, else raise a one-line ServerNameError."""
    if not isinstance(name, str):
        raise ServerNameError(f"A server name must be a string, not {type(name).__name__}.")
    if _NAME.fullmatch(name) is None:
        shown = name if len(name) <= MAX_LENGTH else f"{name[:MAX_LENGTH]}..."
        raise ServerNameError(
            f"Server name {shown!r} must be 1 to {MAX_LENGTH} letters, digits, '_' or '-' "
            "(so it can contain no '.', space or '/')."
        )
    return name


def check_new_server_name(name: object, *, settings_given: bool) -> str:
    """``check_server_name`` for a connection a user makes: ``notebook`` is the kernel's
    own server, and ``demo`` means the embedded demo server, so neither can be taken."""
    check_server_name(name)
    if name == LOCAL_SERVER:
        raise ServerNameError(
            f"{LOCAL_SERVER!r} is reserved for the notebook's own tools; pick another name."
        )
    if name == DEMO_SERVER and settings_given:
        raise ServerNameError(
            f"{DEMO_SERVER!r} is reserved for the embedded demo server (connect it with no "
            "command, URL or server); pick another name."
        )
    return str(name)
