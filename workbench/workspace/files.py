"""Reading a workspace's files without trusting them: regular files inside the workspace,
up to a size.

Workspaces are downloaded and shared. A named pipe in ``events/`` would block the read for
ever, a link to ``/dev/zero`` would fill memory, a 50 MB document would take minutes; a
link out of the workspace would bring in a file nobody saw when they looked at the
workspace (``~/.ssh/...``, ``/proc/...``). So a file is read only when it (or its link's
target) is a regular file, lies inside the workspace, and is no larger than its limit.
The check is made again on the open file (opened without blocking, never through a last
link), so nothing can be swapped in between. Each refusal is one line: ``path: why``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_YAML_BYTES = 4 * 2**20
"""An events file larger than this (4 MiB) is refused: AsyncAPI documents are far smaller."""
MAX_PYTHON_BYTES = 2 * 2**20
"""A tool file larger than this (2 MiB) is refused: no hand-written tool file comes near."""

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(ValueError):
    """A workspace file that is not read, in one line: ``path: why``."""


def read_limited(path: Path, root: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one) inside ``root`` of at most
    ``limit`` bytes; FileRefused otherwise."""
    try:
        target = path.resolve(strict=True)
        found = target.stat()
    except (OSError, RuntimeError) as error:  # missing, a broken link, a loop of links
        raise FileRefused(f"{path}: cannot be read ({_reason(error)})") from None
    _check(path, found, limit)
    if root not in target.parents:
        raise FileRefused(
            f"{path}: a link to {target}, outside the workspace; only files inside it are "
            "read (copy the file in)"
        )
    try:
        descriptor = os.open(target, _FLAGS)
    except OSError as error:
        raise FileRefused(f"{path}: cannot be read ({_reason(error)})") from None
    with os.fdopen(descriptor, "rb") as file:
        _check(path, os.fstat(file.fileno()), limit)
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(_too_large(path, limit))
    return data


def _check(path: Path, found: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(found.st_mode):
        kind = next((name for test, name in _KINDS if test(found.st_mode)), "not a file")
        raise FileRefused(f"{path}: not a regular file ({kind}); only regular files are read")
    if found.st_size > limit:
        raise FileRefused(_too_large(path, limit))


def _too_large(path: Path, limit: int) -> str:
    return f"{path}: larger than {limit:,} bytes; not read"


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return " ".join(str(error).split())
