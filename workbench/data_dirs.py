"""Where the workbench keeps files of its own between kernels: one rule for every room.

Served tokens (``serving/token_file.py``) and OAuth caches (``mcp/oauth/tokens.py``) live in
sub-folders of one data folder, so ``$WORKBENCH_DATA_DIR`` moves them all (the tests point it
at a temporary folder) and nothing lands in a user's home by surprise.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def data_folder(environ: Mapping[str, str] | None = None) -> Path:
    """``$WORKBENCH_DATA_DIR``, else ``$XDG_DATA_HOME/workbench``, else
    ``~/.local/share/workbench`` (not created here)."""
    env = os.environ if environ is None else environ
    if env.get("WORKBENCH_DATA_DIR"):
        return Path(env["WORKBENCH_DATA_DIR"]).expanduser()
    data = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser() / "workbench"
