"""Tool vectors kept on disk by the digest of the embedded text, per model.

Embedding every tool of a large registry takes seconds; a new kernel, a reconnect or a
second notebook would pay it again. Vectors are appended to one file per model
(``<root>/<model>.vectors``): fixed-size records of a 16-byte text digest and the vector,
written one batch per ``write`` call to a file opened for appending, so concurrent kernels
only ever add whole batches, and a record cut short by a crash is ignored on reading. The
cache is an optimisation: a folder that cannot be read or written costs re-embedding, never
an error. Root: ``$WORKBENCH_CACHE_DIR/vectors``, else ``$XDG_CACHE_HOME/workbench/vectors``,
else ``~/.cache/workbench/vectors``.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

DIGEST_BYTES = 16
MAX_RECORDS = 1_000_000
"""Records kept at most (about 1 GB at 256 dimensions); past it vectors stay in memory."""

Vector = npt.NDArray[np.float32]


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the vector files (not created here)."""
    env = os.environ if environ is None else environ
    if env.get("WORKBENCH_CACHE_DIR"):
        return Path(env["WORKBENCH_CACHE_DIR"]).expanduser() / "vectors"
    cache = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "workbench" / "vectors"


class VectorCache:
    """Vectors of one model by text digest, read from disk once and appended to it."""

    def __init__(self, model: str, dimensions: int, root: Path | None = None) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", model):
            raise ValueError(f"model name {model!r} is not a safe file name")
        self.path = (root or cache_root()) / f"{model}.vectors"
        self.dimensions = dimensions
        self._record = np.dtype([("digest", f"V{DIGEST_BYTES}"), ("vector", "<f4", dimensions)])
        self._known: dict[bytes, Vector] | None = None
        self._lock = threading.Lock()

    def get(self, digests: Iterable[bytes]) -> dict[bytes, Vector]:
        """The cached vectors of those digests that have one."""
        with self._lock:
            known = self._load()
            return {d: known[d] for d in digests if d in known}

    def put(self, vectors: Mapping[bytes, Vector]) -> None:
        """Append vectors not cached yet (one write; failures only cost a re-embedding)."""
        with self._lock:
            known = self._load()
            fresh = {d: v for d, v in vectors.items() if d not in known}
            if not fresh or len(known) + len(fresh) > MAX_RECORDS:
                return
            records = np.zeros(len(fresh), dtype=self._record)
            records["digest"] = [np.void(d) for d in fresh]
            records["vector"] = np.stack(list(fresh.values()))
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    size = os.fstat(descriptor).st_size
                    if size % self._record.itemsize:  # a batch a crash cut short
                        os.ftruncate(descriptor, size - size % self._record.itemsize)
                    os.write(descriptor, records.tobytes())
                finally:
                    os.close(descriptor)
            except OSError:
                return
            known.update(fresh)

    def __len__(self) -> int:
        with self._lock:
            return len(self._load())

    def _load(self) -> dict[bytes, Vector]:
        if self._known is not None:
            return self._known
        self._known = {}
        try:
            size = self.path.stat().st_size
        except OSError:
            return self._known
        count = min(size // self._record.itemsize, MAX_RECORDS)
        try:
            records = np.fromfile(self.path, dtype=self._record, count=count)
        except (OSError, ValueError):
            return self._known
        vectors = records["vector"]
        for digest, row in zip(records["digest"], range(len(records)), strict=True):
            self._known[bytes(digest)] = vectors[row]
        return self._known
