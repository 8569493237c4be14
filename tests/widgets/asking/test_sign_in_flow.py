"""Signing in to a real OAuth-protected server through ``NotebookAsker``, end to end.

The server runs on 127.0.0.1 (``guarded.py``) and the person's browser is a headless
stand-in. Awaited (``aconnect``: the kernel's loop stays free), the panel is shown in the
cell and either the pasted address or the local listener completes the sign-in. A sync
``connect`` blocks the main thread, so the link is shown as plain output and the address
asked there.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.oauth.guarded import come_back, ended_on, guarded_server
from workbench.session import Workbench
from workbench.widgets.asking import NotebookAsker
from workbench.widgets.asking.sign_in import SignInPanel
from workbench.widgets.asking.sign_in_text import SignInLink
from workbench.widgets.asking.text import TextAsker


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with guarded_server() as address:
        yield address


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path))
    for name in ("JUPYTERHUB_SERVICE_PREFIX", "BINDER_SERVICE_HOST", "BINDER_REQUEST"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def person(asker: NotebookAsker, act: Callable[[SignInPanel], None]) -> threading.Thread:
    """The person at the notebook: waits for the panel, then acts on it."""

    def run() -> None:
        deadline = time.monotonic() + 30
        while not asker.asked and time.monotonic() < deadline:
            time.sleep(0.02)
        panel = asker.asked[-1]
        assert isinstance(panel, SignInPanel)
        act(panel)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def paste(panel: SignInPanel) -> None:
    panel.paste.value = ended_on(panel.url)
    panel.done_button.click()


def browser_on_this_machine(panel: SignInPanel) -> None:
    come_back(panel.url)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("mode", "act", "summary"),
    [
        ("paste", paste, "guarded: sign-in address received"),
        ("local", browser_on_this_machine, "guarded: signed in"),
    ],
)
def test_an_awaited_connection_signs_in_through_the_panel(
    url: str, mode: str, act: Callable[[SignInPanel], None], summary: str
) -> None:
    shown: list[Any] = []
    asker = NotebookAsker(show=shown.append)
    with Workbench() as wb:
        wb.ask_people_with(asker)
        thread = person(asker, act)
        info = asyncio.run(wb.aconnect("guarded", url=url, oauth={"sign_in": mode}))
        thread.join(10)
        assert (info.status, info.tool_count) == ("connected", 1)
        [panel] = asker.asked
        assert isinstance(panel, SignInPanel) and shown == [panel.widget]
        assert panel.summary == summary
        assert "code=" not in str(panel.widget.children)
        assert wb.call("guarded.add", {"a": 2, "b": 3}).text == "5"


@pytest.mark.integration
def test_a_sync_connection_prints_the_link_and_takes_the_pasted_address(url: str) -> None:
    said: list[str] = []
    prompts: list[str] = []
    shown: list[Any] = []

    def ask_secret(prompt: str) -> str:
        """The person clicks the link shown, signs in, and pastes where the browser ended."""
        prompts.append(prompt)
        [link] = shown
        assert isinstance(link, SignInLink)
        return ended_on(link.url)

    text = TextAsker(ask=lambda prompt: "", ask_secret=ask_secret, say=said.append)
    asker = NotebookAsker(show=shown.append, text=text)
    with Workbench() as wb:
        wb.ask_people_with(asker)
        info = wb.connect("guarded", url=url, oauth={"sign_in": "paste"})
        assert info.status == "connected" and asker.asked == []
        assert prompts == ["Paste the address your browser ended on: "]
        assert said[-1] == "guarded: sign-in address received"
        assert not any("code=" in line for line in said)
        assert wb.call("guarded.add", {"a": 1, "b": 1}).text == "2"
