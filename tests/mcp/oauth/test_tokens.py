"""The token cache: where it lives, private permissions, what a new store reads back,
logout, and cache=False keeping everything in memory."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from workbench.config.oauth import OAuthSettings
from workbench.mcp.oauth.tokens import cache_root, forget, server_folder, store_for

URL = "https://mcp.example.com/mcp"


def test_the_cache_root_follows_the_environment(tmp_path: Path) -> None:
    assert cache_root({"WORKBENCH_DATA_DIR": str(tmp_path)}) == tmp_path / "oauth"
    xdg = cache_root({"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert xdg == tmp_path / "xdg" / "workbench" / "oauth"
    assert cache_root({}) == Path.home() / ".local" / "share" / "workbench" / "oauth"


def put_and_get(store: Any, value: dict[str, str]) -> dict[str, object] | None:
    async def go() -> dict[str, object] | None:
        await store.put(key="k", value=value, collection="tokens")
        found: dict[str, object] | None = await store.get(key="k", collection="tokens")
        return found

    return asyncio.run(go())


def read(store: Any) -> dict[str, object] | None:
    found: dict[str, object] | None = asyncio.run(store.get(key="k", collection="tokens"))
    return found


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "oauth"


def test_files_are_0600_folders_0700_and_a_new_store_reads_them(root: Path) -> None:
    assert put_and_get(store_for(URL, OAuthSettings()), {"access_token": "A1"})
    assert root.stat().st_mode & 0o777 == 0o700
    assert server_folder(URL).stat().st_mode & 0o777 == 0o700
    files = [path for path in root.rglob("*") if path.is_file()]
    assert files and all(path.stat().st_mode & 0o777 == 0o600 for path in files)
    assert read(store_for(URL, OAuthSettings())) == {"access_token": "A1"}  # a new kernel
    # Another client of the same server keeps its own tokens.
    assert read(store_for(URL, OAuthSettings(client_id="other"))) is None


def test_logout_forgets_every_client_of_that_server_only(root: Path) -> None:
    put_and_get(store_for(URL, OAuthSettings()), {"access_token": "A1"})
    put_and_get(store_for(URL, OAuthSettings(client_id="x")), {"access_token": "A2"})
    other = "https://other.example.com/mcp"
    put_and_get(store_for(other, OAuthSettings()), {"access_token": "B"})
    assert forget(URL + "/") is True  # a trailing slash is the same server
    assert not server_folder(URL).exists()
    assert read(store_for(URL, OAuthSettings())) is None
    assert read(store_for(other, OAuthSettings())) == {"access_token": "B"}
    assert forget("https://never.example.com/mcp") is False  # nothing was cached


def test_no_cache_keeps_tokens_in_memory_for_this_process_only(root: Path) -> None:
    settings = OAuthSettings(cache=False)
    store = store_for(URL, settings)
    assert put_and_get(store, {"access_token": "M"})
    assert not root.exists()  # nothing written
    assert store_for(URL, settings) is store  # a reconnect does not ask again
    assert forget(URL) is True
    assert read(store_for(URL, settings)) is None


def test_g15_every_folder_the_store_makes_is_0700(root: Path) -> None:
    """The store's own collection folders too, not only the root and the server's folder
    (under a common umask, 022, they came out 0755)."""
    previous = os.umask(0o022)
    try:
        put_and_get(store_for(URL, OAuthSettings()), {"access_token": "A1"})
    finally:
        os.umask(previous)
    folders = [root, *(path for path in root.rglob("*") if path.is_dir())]
    assert len(folders) >= 4  # the root, the server, the client, the store's collection
    assert {str(path.relative_to(root)): oct(path.stat().st_mode & 0o777) for path in folders} == {
        str(path.relative_to(root)): "0o700" for path in folders
    }
