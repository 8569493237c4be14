"""The served token in a file only its owner can read, so clients can use it without it ever
being printed in a cell (a saved notebook keeps its output).

One file per served port under ``$WORKBENCH_DATA_DIR/serve`` (else
``$XDG_DATA_HOME/workbench/serve``, else ``~/.local/share/workbench/serve``), the folder
0700 and the file 0600; it is removed when serving stops.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

from workbench.data_dirs import data_folder


def token_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where served tokens are written (not created here)."""
    return data_folder(environ) / "serve"


def save_token(token: str, port: int) -> Path | None:
    """Write ``token`` to the port's file, readable by its owner only; None if it cannot be
    written (the output then says where else to take it from)."""
    folder = token_folder()
    path = folder / f"{port}.token"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # never write through what someone left at that name
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        descriptor = os.open(path, flags, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(token)
    except OSError:
        return None
    return path


def remove_token(path: Path | None) -> None:
    """Remove a token file written by ``save_token`` (gone already: nothing to do)."""
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink()
