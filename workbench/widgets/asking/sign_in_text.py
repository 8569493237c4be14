"""Signing in to a server (OAuth) by typing: the link printed, the address pasted back.

The core (``mcp/oauth/``) makes the authorization URL; the person opens it, signs in, and the
browser is sent back to a redirect address carrying a one-time code. When the browser runs on
the kernel's machine a one-shot listener on 127.0.0.1 catches it; otherwise (JupyterHub,
Binder, a remote kernel) the person pastes the address the browser ended on. While a sync
call blocks the main thread no widget can be clicked, but output still reaches the cell:
``SignInLink`` is the link as a button (plain text in a terminal), and ``ask_for_redirect``
asks with a hidden prompt (ipykernel would save an ``input()`` answer in the notebook).
The pasted address holds a one-time code: it goes to the core, never shown or kept.
Also the pieces the panel (``sign_in.py``) shares, without loading ipywidgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from workbench.display import markup
from workbench.display.style import CSS_COLOR
from workbench.widgets.asking.text import Ask, Say

SHOWN_URL = 64
"""Characters of the authorization URL shown under the button (all of it on hover)."""
LISTENING_NOTE = (
    "The sign-in finishes here by itself when your browser is on this machine; otherwise "
    "paste the address your browser ended on."
)
PASTE_NOTE = "After signing in, paste the address your browser ended on."
PASTE_PROMPT = "Paste the address your browser ended on: "
LISTENING_TEXT = (
    "The sign-in finishes here by itself once your browser comes back. A browser on another "
    "machine cannot reach this one: interrupt, and connect with --paste (sign_in='paste')."
)


def shorten(url: str, width: int = SHOWN_URL) -> str:
    """The URL cut to ``width`` characters with an ellipsis: it is long, not secret."""
    return url if len(url) <= width else url[: width - 1] + "…"


def redirect_problem(text: str) -> str | None:
    """What is wrong with a pasted address, or None: it must carry ``code=`` or ``error=``
    (the authorization server's answer), in its query or after ``#``."""
    if not text:
        return "Paste the address your browser ended on first."
    parts = urlsplit(text if "://" in text or "?" in text else "?" + text)
    answer = {**parse_qs(parts.fragment), **parse_qs(parts.query)}
    if "code" in answer or "error" in answer:
        return None
    return (
        "That address has no code=...: copy the whole address from the browser's address bar "
        "after signing in."
    )


def not_completed(timeout: float) -> str:
    return f"sign-in not completed within {timeout:g} s"


def link_button(server: str, url: str) -> str:
    """An ``<a target=_blank>`` dressed as a primary button (a widget Button cannot open a
    tab from the kernel), and the URL shortened beneath it, whole in its tooltip."""
    style = (
        f"display:inline-block;padding:6px 16px;border-radius:3px;font-size:14px;"
        f"font-weight:600;text-decoration:none;color:white;background:{CSS_COLOR['accent']}"
    )
    href = markup.esc(url)
    button = (
        f'<a class="wb-sign-in" href="{href}" target="_blank" rel="noopener noreferrer" '
        f'title="{href}" style="{style}">Sign in to {markup.esc(server)}</a>'
    )
    shown = f'<span title="{href}">{markup.span(shorten(url), tone="muted", mono=True)}</span>'
    return markup.block(button) + markup.block(shown)


def link_text(server: str, url: str) -> str:
    return f"Sign in to {server}: open this link in your browser:\n{url}"


@dataclass(frozen=True)
class SignInLink:
    """The sign-in link as output: a button in a notebook, the whole URL in a terminal.
    Plain HTML, no widget: it shows while a sync call blocks the kernel."""

    server: str
    url: str

    def _repr_html_(self) -> str:
        return link_button(self.server, self.url)

    def __repr__(self) -> str:
        return link_text(self.server, self.url)


def ask_for_redirect(server: str, paste: bool, ask: Ask, say: Say) -> str | None:
    """With ``paste``, the address the browser ended on, asked with ``ask`` (a hidden
    prompt: it holds a one-time code); empty or no input is None. Without: None at once."""
    if not paste:
        say(LISTENING_TEXT)
        return None
    for attempt in (1, 2):
        try:
            text = ask(PASTE_PROMPT).strip()
        except (EOFError, OSError, NotImplementedError):
            say(f"{server}: cannot ask here (no input)")
            return None
        if not text:
            return None
        problem = redirect_problem(text)
        if problem is None:
            say(f"{server}: sign-in address received")
            return text
        if attempt == 1:
            say(problem)
    say(f"{server}: no usable address, sign-in not completed")
    return None
