"""Roots: the folders a client offers servers, and what to say when a server refuses a path.

The workbench offers none unless the person sets some (``Workbench.roots``): roots are
deprecated in MCP 2026-07-28, and a server such as ``@modelcontextprotocol/server-filesystem``
replaces the folders on its own command line with whatever roots it is offered, so offering
the notebook's folder by default made it refuse every path it was started with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

REFUSED_PATH = re.compile(
    r"\b(outside|not (with)?in)( of)? (the |any )?(allowed|permitted) "
    r"(directories|directory|folders|roots|paths)\b",
    re.IGNORECASE,
)
"""How servers say a path is not theirs to use; server-filesystem: ``Access denied - path
outside allowed directories: /x not in /y``."""


def refused_path_note(server: str, text: str, roots: Sequence[str]) -> str | None:
    """What to add to an error that refuses a path: the roots offered and how to change
    them; None when ``text`` refuses no path."""
    if not REFUSED_PATH.search(text):
        return None
    change = "To offer roots instead: wb.roots(['/a/folder', ...]) (connected servers are told)"
    if not roots:
        return (
            f"No roots were offered to {server!r}: it uses its own settings (the folders on "
            f"its command line, for server-filesystem). {change}."
        )
    return (
        f"Roots offered to {server!r}: {', '.join(roots)}. A server that takes roots may use "
        f"only these, in place of the folders on its command line. To change them: "
        f"wb.roots(['/a/folder', ...]); to offer none again, wb.roots([]) then "
        f"wb.reconnect({server!r})."
    )
