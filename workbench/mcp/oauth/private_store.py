"""The token cache's store: key_value's FileTreeStore with every folder it makes 0700.

FileTreeStore makes a folder per collection (tokens, their expiry, the client registration)
with a plain ``mkdir``, so the umask decides: 0755 under the usual 022. The files in them
are 0600 and the folders above 0700 (``tokens.py``), but the cache promises folders only
their owner can open, so each collection folder is made 0700 as soon as it is set up.
"""

from __future__ import annotations

import os
from pathlib import Path

from key_value.aio.stores.filetree import (
    FileTreeStore,
    FileTreeV1CollectionSanitizationStrategy,
    FileTreeV1KeySanitizationStrategy,
)


class PrivateFileTreeStore(FileTreeStore):
    """A FileTreeStore in ``folder`` (names sanitized: a key or collection may hold
    anything) whose folders are 0700."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            data_directory=folder,
            key_sanitization_strategy=FileTreeV1KeySanitizationStrategy(folder),
            collection_sanitization_strategy=FileTreeV1CollectionSanitizationStrategy(folder),
        )
        self._folder = folder

    async def _setup_collection(self, *, collection: str) -> None:
        await super()._setup_collection(collection=collection)
        for path in self._folder.iterdir():
            if path.is_dir() and not path.is_symlink():
                os.chmod(path, 0o700)
