"""NotebookAsker's sign-in (OAuth): the panel in the calling cell and the typed prompt.

The panel waits in a worker thread, as ``mcp/answers.py`` runs it, while the test pastes and
clicks as a person would; the core's ``done`` event is set as the one-shot listener sets it.
The typed way is driven through a scripted ``ask``; the address holds a one-time code, so
every test checks that it is never shown back.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any

from tests.widgets.form.form_screen import shown
from workbench.widgets.asking import NotebookAsker
from workbench.widgets.asking.sign_in import SignInPanel
from workbench.widgets.asking.sign_in_text import (
    LISTENING_NOTE,
    LISTENING_TEXT,
    PASTE_NOTE,
    PASTE_PROMPT,
    SignInLink,
    redirect_problem,
    shorten,
)
from workbench.widgets.asking.text import TextAsker

AUTHORIZE = (
    "https://auth.example.test/authorize?response_type=code&client_id=wb-client"
    "&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234%2Fcallback&state=st4te"
    "&code_challenge=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&code_challenge_method=S256"
)
REDIRECT = "http://127.0.0.1:41234/callback?code=ONE-TIME-CODE-7781&state=st4te"


def sign_in(
    asker: NotebookAsker, *, listening: bool = True, timeout: float = 30.0
) -> tuple[concurrent.futures.Future[str | None], threading.Event, SignInPanel]:
    """Start ``sign_in_form`` in a worker thread; the future, the core's event, the panel."""
    done = threading.Event()
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(asker.sign_in_form, "docs", AUTHORIZE, listening, done, timeout)
    pool.shutdown(wait=False)
    deadline = time.monotonic() + 10
    while not asker.asked:
        assert time.monotonic() < deadline, "no sign-in panel was shown"
        time.sleep(0.01)
    panel = asker.asked[-1]
    assert isinstance(panel, SignInPanel)
    return future, done, panel


def texts(widget: Any) -> str:
    return " ".join(str(getattr(w, "value", "")) for w, _ in shown(widget))


def test_the_panel_shows_the_link_as_a_button_in_the_calling_cell() -> None:
    displayed: list[Any] = []
    asker = NotebookAsker(show=displayed.append)
    future, done, panel = sign_in(asker)
    assert displayed == [panel.widget]
    html = texts(panel.widget)
    escaped = AUTHORIZE.replace("&", "&amp;")
    assert f'class="wb-sign-in" href="{escaped}" target="_blank"' in html
    assert ">Sign in to docs</a>" in html
    assert f'title="{escaped}"' in html  # the whole URL on hover
    short = shorten(AUTHORIZE)
    assert len(short) == 64 and short.endswith("…") and short[:-1] in AUTHORIZE
    assert short.replace("&", "&amp;") in html
    assert LISTENING_NOTE in html and PASTE_NOTE not in html
    done.set()
    assert future.result(10) is None


def test_paste_then_done_returns_the_address_and_never_shows_it() -> None:
    asker = NotebookAsker(show=lambda widget: None)
    future, _, panel = sign_in(asker, listening=False)
    assert PASTE_NOTE in texts(panel.widget)
    panel.paste.value = f"  {REDIRECT}  "
    panel.done_button.click()
    assert future.result(10) == REDIRECT
    assert panel.summary == "docs: sign-in address received"
    assert panel.paste.value == ""
    assert "ONE-TIME-CODE" not in texts(panel.widget)


def test_an_address_without_a_code_is_refused_and_the_panel_keeps_waiting() -> None:
    asker = NotebookAsker(show=lambda widget: None)
    future, _, panel = sign_in(asker)
    panel.done_button.click()
    assert "Paste the address" in panel.message.value
    panel.paste.value = "http://127.0.0.1:41234/callback?state=st4te"
    panel.done_button.click()
    assert "no code=" in panel.message.value
    assert not future.done() and not panel.answered
    panel.paste.value = "http://127.0.0.1:41234/callback?error=access_denied&state=st4te"
    panel.done_button.click()
    assert future.result(10) == "http://127.0.0.1:41234/callback?error=access_denied&state=st4te"


def test_the_listener_catching_the_redirect_ends_the_panel_signed_in() -> None:
    asker = NotebookAsker(show=lambda widget: None)
    future, done, panel = sign_in(asker)
    panel.paste.value = "half-typed"
    done.set()
    assert future.result(10) is None
    assert panel.summary == "docs: signed in"
    assert panel.paste.value == ""
    panel.paste.value = REDIRECT
    panel.done_button.click()  # too late: nothing changes
    assert panel.summary == "docs: signed in"


def test_nobody_signing_in_ends_at_the_timeout() -> None:
    asker = NotebookAsker(show=lambda widget: None)
    started = time.monotonic()
    future, _, panel = sign_in(asker, timeout=0.3)
    assert future.result(10) is None
    assert 0.3 <= time.monotonic() - started < 5
    assert panel.summary == "docs: sign-in not completed within 0.3 s"
    assert "not completed within 0.3 s" in texts(panel.widget)


def test_a_pasted_code_or_error_is_found_in_query_or_fragment() -> None:
    assert redirect_problem(REDIRECT) is None
    assert redirect_problem("code=abc&state=x") is None
    assert redirect_problem("https://app.example.test/cb#code=abc&state=x") is None
    assert redirect_problem("https://app.example.test/cb?error=access_denied") is None
    assert redirect_problem("") is not None
    assert redirect_problem("https://app.example.test/cb?state=x") is not None
    assert redirect_problem("not an address") is not None


# -- typed -----------------------------------------------------------------------------------


class Typist:
    """Scripted prompts: answers in order (EOF when none is left), what was said kept."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.secret_prompts: list[str] = []
        self.said: list[str] = []
        self.shown: list[Any] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self._answer()

    def ask_secret(self, prompt: str) -> str:
        self.secret_prompts.append(prompt)
        return self._answer()

    def _answer(self) -> str:
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def asker(self) -> NotebookAsker:
        text = TextAsker(ask=self.ask, ask_secret=self.ask_secret, say=self.said.append)
        return NotebookAsker(show=self.shown.append, text=text)


def test_typed_sign_in_shows_the_link_and_takes_the_address_hidden() -> None:
    typist = Typist(REDIRECT)
    assert typist.asker().sign_in_text("docs", AUTHORIZE, True) == REDIRECT
    # Plain output, no widget: it reaches the cell while a sync call blocks the kernel.
    assert typist.shown == [SignInLink("docs", AUTHORIZE)]
    link = typist.shown[0]
    assert repr(link) == f"Sign in to docs: open this link in your browser:\n{AUTHORIZE}"
    escaped = AUTHORIZE.replace("&", "&amp;")
    assert f'class="wb-sign-in" href="{escaped}" target="_blank"' in link._repr_html_()
    assert ">Sign in to docs</a>" in link._repr_html_()
    # A hidden prompt: ipykernel would save an input() answer, code and all, in the notebook.
    assert typist.secret_prompts == [PASTE_PROMPT] and typist.prompts == []
    assert "ONE-TIME-CODE" not in "\n".join(typist.said)


def test_typed_sign_in_without_paste_only_shows_the_link() -> None:
    typist = Typist(REDIRECT)
    assert typist.asker().sign_in_text("docs", AUTHORIZE, False) is None
    assert typist.secret_prompts == [] and typist.shown == [SignInLink("docs", AUTHORIZE)]
    assert typist.said == [LISTENING_TEXT]


def test_typed_sign_in_empty_no_input_or_wrong_twice_is_none() -> None:
    assert Typist("").asker().sign_in_text("docs", AUTHORIZE, True) is None
    assert Typist().asker().sign_in_text("docs", AUTHORIZE, True) is None
    twice = Typist("https://x.test/?state=1", "still nothing")
    assert twice.asker().sign_in_text("docs", AUTHORIZE, True) is None
    assert len(twice.secret_prompts) == 2
    again = Typist("https://x.test/?state=1", REDIRECT)
    assert again.asker().sign_in_text("docs", AUTHORIZE, True) == REDIRECT
    assert any("no code=" in line for line in again.said)
