"""Server names: the reserved ones, written once, and the one rule every name obeys.

Pure (the registry, the Workbench, config files and the magics all check names here), so a
name that would break tool ids (``server.tool``) is refused before anything starts.
"""

from __future__ import annotations

from workbench.errors import ServerNameError

LOCAL_SERVER = "notebook"
"""The in-kernel server that holds the tools defined in the notebook (``%%tool``, ``@tool``)."""
DEMO_SERVER = "demo"
"""The embedded demo server: ``connect("demo")`` needs nothing else."""
RESERVED = frozenset({LOCAL_SERVER, DEMO_SERVER})


def check_server_name(name: object) -> str:
    """Return ``name`` if it can name a server, else raise a one-line ServerNameError."""
    if not isinstance(name, str):
        raise ServerNameError(f"A server name must be a string, not {type(name).__name__}.")
    if not name or "." in name:
        raise ServerNameError(f"Server name {name!r} must be non-empty and contain no '.'.")
    return name
