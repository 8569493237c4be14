"""Where a server's OAuth tokens (and its client registration) are kept between kernels.

One folder per server URL under the cache root (``$WORKBENCH_DATA_DIR/oauth``, else
``$XDG_DATA_HOME/workbench/oauth``, else ``~/.local/share/workbench/oauth``), one store per
client id inside it; the root and every folder in it are 0700 (the store's own too:
``private_store.py``) and the files 0600, so other users cannot read the tokens.
``cache=False`` keeps them in memory, for this process only. Logging out removes both.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.config.oauth import OAuthSettings
from workbench.data_dirs import data_folder

_memory: dict[tuple[str, str], Any] = {}
_memory_lock = threading.Lock()


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of every server's cached tokens (not created here)."""
    return data_folder(environ) / "oauth"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def server_folder(url: str, root: Path | None = None) -> Path:
    """The folder of one server URL's tokens (a hash: the URL may hold anything)."""
    return (root or cache_root()) / _digest(url.rstrip("/"))


def store_for(url: str, settings: OAuthSettings, root: Path | None = None) -> Any:
    """The token store of ``url`` with these settings: a FileTreeStore with private
    permissions, or, with ``cache=False``, a memory store shared by this process's
    connections to that URL (a reconnect does not ask again)."""
    client = _digest(settings.client_id or settings.client_metadata_url or "")
    if not settings.cache:
        from key_value.aio.stores.memory import MemoryStore

        with _memory_lock:
            return _memory.setdefault((url.rstrip("/"), client), MemoryStore())
    from workbench.mcp.oauth.private_store import PrivateFileTreeStore

    folder = server_folder(url, root) / client
    _private_folder(folder, root or cache_root())
    return PrivateFileTreeStore(folder)


def forget(url: str, root: Path | None = None) -> bool:
    """Remove every cached token and registration of ``url`` (on disk and in memory);
    whether there was anything to remove."""
    key = url.rstrip("/")
    with _memory_lock:
        dropped = [k for k in _memory if k[0] == key]
        for k in dropped:
            del _memory[k]
    folder = server_folder(url, root)
    # The store names its files *.json: a damaged cache may hold a folder in a file's place.
    entries = folder.rglob("*") if folder.exists() else iter(())
    found = any(not path.is_dir() or path.suffix == ".json" for path in entries)
    if folder.exists():
        shutil.rmtree(folder)
    return found or bool(dropped)


def _private_folder(folder: Path, root: Path) -> None:
    """``folder`` and its parents up to the root made 0700 (the umask applies on mkdir)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    for path in (folder, *folder.parents):
        if path != root and root not in path.parents:
            break
        os.chmod(path, 0o700)
