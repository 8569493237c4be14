"""``%mcp logout NAME``: the cached OAuth tokens of a server removed, in one line.

The token cache is in a test folder (``WORKBENCH_DATA_DIR``). A closed port on 127.0.0.1
gives a failed connection whose cache folder is made with owner-only permissions; a real
OAuth-protected server (``tests/mcp/oauth/guarded.py``) gives cached tokens logout removes.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from tests.magics.magic_output import shown
from tests.mcp.oauth.guarded import ended_on, guarded_server
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]
CLOSED = "http://127.0.0.1:9/mcp"


def test_logout_removes_the_cached_tokens_once(
    mcp: Mcp, state: KernelState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path))
    with pytest.raises(UsageError, match="could not be reached"):
        mcp(f"connect cached {CLOSED} --oauth")
    try:
        cache = tmp_path / "oauth"
        assert stat.S_IMODE(cache.stat().st_mode) == 0o700
        assert any(cache.iterdir())
        _, captured = mcp("logout cached")
        assert captured.stdout == (
            "Signed out of cached: its cached tokens were removed "
            "(%mcp reconnect cached signs in again).\n"
        )
        assert not any(cache.iterdir())
        _, captured = mcp("logout cached")
        assert captured.stdout == "No cached tokens for cached: nothing was removed.\n"
    finally:
        mcp("disconnect cached")


def test_tokens_kept_in_memory_are_removed_too(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match="could not be reached"):
        mcp(f"connect memory {CLOSED} --oauth --no-cache")
    try:
        assert mcp("logout memory")[1].stdout.startswith("Signed out of memory:")
    finally:
        mcp("disconnect memory")


def test_a_server_without_oauth_has_nothing_to_remove(mcp: Mcp) -> None:
    _, captured = mcp("logout demo")
    assert captured.stdout == "No cached tokens for demo: nothing was removed.\n"


def test_an_unknown_server_or_no_name_is_a_usage_error(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match="No server named 'nowhere'"):
        mcp("logout nowhere")
    with pytest.raises(UsageError, match=r"%mcp logout: .*NAME"):
        mcp("logout")


def test_logout_is_listed_and_completes_server_names(
    mcp: Mcp, ip: InteractiveShell, state: KernelState
) -> None:
    _, captured = mcp("help")
    assert "logout: Sign out of a server" in captured.stdout
    with provisionalcompleter():
        found = {c.text for c in ip.Completer.completions("%mcp logout ", 12)}
    servers = {info.name for info in state.workbench.servers()} - {"notebook"}
    assert found == servers and "demo" in found


@pytest.mark.integration
def test_signed_in_connect_call_logout_and_sign_in_again(
    mcp: Mcp, state: KernelState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against a real OAuth-protected server: the sign-in link answered as a browser would
    (``wb.on_sign_in``), the tokens cached, then removed by logout, so reconnecting asks
    again."""
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path))
    links: list[str] = []

    def sign_in(url: str) -> str:
        links.append(url)
        return ended_on(url)

    wb = state.workbench
    wb.on_sign_in(sign_in)
    try:
        with guarded_server() as url:
            _, captured = mcp(f"connect guarded {url} --oauth --paste")
            assert "guarded.add" in shown(captured) and len(links) == 1
            assert mcp("call guarded.add a=2 b=2")[0].text == "4"
            mcp("reconnect guarded")
            assert len(links) == 1  # the cached tokens were used
            _, captured = mcp("logout guarded")
            assert captured.stdout.startswith("Signed out of guarded: its cached tokens")
            mcp("reconnect guarded")
            assert len(links) == 2
    finally:
        wb.on_sign_in(None)
        mcp("disconnect guarded")
