"""Signing in to a real OAuth-protected server from a real ipykernel, as a notebook does.

Each sign-in that must ask keeps its tokens in memory (``--no-cache``): the server's tokens
cached on disk by the first test would sign the others in without asking.
``%mcp connect --oauth`` blocks the kernel's main thread, yet the Sign in button (plain HTML
output, no widget) reaches the cell; the person's browser (a headless stand-in) signs in and
either comes back to the kernel's one-shot listener, or ends where the person copies the
address from and types it into the hidden prompt on the stdin channel. ``await
wb.aconnect`` leaves the kernel free: the widget panel is shown and its Done clicked over
the comm channel. The server runs on 127.0.0.1 (``tests/mcp/oauth/guarded.py``).
"""

from __future__ import annotations

import html
import queue
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.kernel.conftest import KernelSession
from tests.kernel.test_asking_kernel import Cell, Notebook, with_class
from tests.mcp.oauth.guarded import come_back, ended_on, guarded_server

pytestmark = pytest.mark.kernel

HREF = re.compile(r'class="wb-sign-in" href="([^"]+)"')


class SignInNotebook(Notebook):
    """A prompt is held until the test knows the answer (it comes from the link shown):
    answers are appended to ``later`` while the cell runs."""

    pending: dict[str, Any] | None = None
    later: list[str]

    def _answer_prompts(self, cell: Cell, answers: list[str]) -> None:
        if self.pending is None:
            try:
                self.pending = self.client.get_stdin_msg(timeout=0.01)
            except queue.Empty:
                return
        if self.later:
            cell.prompts.append(self.pending["content"]["prompt"])
            self.client.input(self.later.pop(0))
            self.pending = None


def link_in(cell: Cell) -> str | None:
    """The sign-in link of the button shown in the cell's output, if shown yet."""
    for msg in cell.messages:
        if msg["msg_type"] == "display_data":
            found = HREF.search(msg["content"]["data"].get("text/html", ""))
            if found:
                return html.unescape(found.group(1))
    return None


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with guarded_server() as address:
        yield address


@pytest.fixture(scope="module")
def notebook(
    kernel_launcher: Callable[..., KernelSession], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SignInNotebook]:
    data = tmp_path_factory.mktemp("data")
    session = kernel_launcher({"WORKBENCH_DATA_DIR": str(data)})
    book = SignInNotebook(session)
    book.ok("%load_ext workbench\nimport workbench\nwb = workbench.current()")
    yield book
    session.shutdown()


def test_the_magic_shows_the_button_and_the_listener_finishes(
    notebook: SignInNotebook, url: str
) -> None:
    def browse(cell: Cell) -> bool:
        link = link_in(cell)
        if link is None:
            return False
        come_back(link)
        return True

    cell = notebook.ok(f"%mcp connect local {url} --oauth", while_running=browse, timeout=90)
    assert link_in(cell) is not None and cell.prompts == []
    assert "local.add" in str(cell.messages)
    assert "Sign in to local" in str(cell.messages)  # the text/plain of the link, too


def test_the_cached_tokens_sign_in_without_asking(notebook: SignInNotebook, url: str) -> None:
    """The first test's tokens are on disk (the same server and client): no link, no prompt."""
    cell = notebook.ok(f"%mcp connect again {url} --oauth", timeout=90)
    assert link_in(cell) is None and cell.prompts == []
    assert "again.add" in str(cell.messages)


def test_the_magic_takes_the_pasted_address_at_a_hidden_prompt(
    notebook: SignInNotebook, url: str
) -> None:
    notebook.later = []

    def browse(cell: Cell) -> bool:
        link = link_in(cell)
        if link is None:
            return False
        notebook.later.append(ended_on(link))
        return True

    cell = notebook.run(
        f"%mcp connect pasted {url} --oauth --paste --no-cache", typed=[], while_running=browse
    )
    assert cell.status == "ok", cell.errors
    assert cell.prompts == ["Paste the address your browser ended on: "]
    assert "pasted.add" in str(cell.messages)
    assert "code=" not in cell.stdout
    logout = notebook.ok("%mcp logout pasted")
    assert logout.stdout.startswith("Signed out of pasted: its cached tokens were removed")


def test_an_awaited_connection_shows_the_panel_and_takes_its_done(
    notebook: SignInNotebook, url: str
) -> None:
    def paste(cell: Cell) -> bool:
        models = cell.widgets()
        boxes = [c for c, s in models.items() if "wb-sign-in-paste" in s.get("_dom_classes", ())]
        links = [
            html.unescape(found.group(1))
            for state in models.values()
            if (found := HREF.search(str(state.get("value", ""))))
        ]
        if not boxes or not links or not any("wb-sign-in-done" in str(s) for s in models.values()):
            return False
        notebook.set_state(boxes[0], value=ended_on(links[0]))
        notebook.click(with_class(models, "wb-sign-in-done"))
        return True

    cell = notebook.ok(
        f"settings = {{'sign_in': 'paste', 'cache': False}}\n"
        f"info = await wb.aconnect('awaited', url={url!r}, oauth=settings)\n"
        "print(info.status, info.tool_count)",
        while_running=paste,
        timeout=90,
    )
    assert "connected 1" in cell.stdout
    models = cell.widgets()
    summary = with_class(models, "wb-ask-summary")
    assert "awaited: sign-in address received" in html.unescape(models[summary]["value"])
    assert with_class(models, "wb-ask") in cell.displayed()
    [saved] = cell.bundles()  # a static summary, and never the one-time code
    assert saved["text/plain"] == "awaited asks you to sign in.\nawaited: sign-in address received"
    assert "application/vnd.jupyter.widget-view+json" not in saved
    assert "code=" not in str(saved)
