"""The one data folder: ``$WORKBENCH_DATA_DIR`` wins, then XDG's data home, then the usual."""

from __future__ import annotations

from pathlib import Path

from workbench.data_dirs import data_folder
from workbench.mcp.oauth.tokens import cache_root
from workbench.serving.token_file import token_folder


def test_the_data_folder_follows_the_environment(tmp_path: Path) -> None:
    assert data_folder({"WORKBENCH_DATA_DIR": str(tmp_path)}) == tmp_path
    both = {"WORKBENCH_DATA_DIR": str(tmp_path / "a"), "XDG_DATA_HOME": str(tmp_path / "b")}
    assert data_folder(both) == tmp_path / "a"
    assert data_folder({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "workbench"
    assert data_folder({}) == Path.home() / ".local" / "share" / "workbench"


def test_served_tokens_and_oauth_caches_share_it(tmp_path: Path) -> None:
    env = {"WORKBENCH_DATA_DIR": str(tmp_path)}
    assert token_folder(env) == tmp_path / "serve"
    assert cache_root(env) == tmp_path / "oauth"
