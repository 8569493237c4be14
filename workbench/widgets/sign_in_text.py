"""Signing in to a server (OAuth) by typing: the link printed, the address pasted back.

The core (``mcp/oauth/``) makes the authorization URL; the person opens it, signs in, and the
browser is sent back to a redirect address carrying a one-time code. When the browser runs on
the kernel's machine a one-shot listener on 127.0.0.1 catches it; otherwise (JupyterHub,
Binder, a remote kernel) the person pastes the address the browser ended on. While a sync
call blocks the main thread no widget can be clicked, so ``sign_in_text`` prints the link and
asks with a hidden prompt (ipykernel would save an ``input()`` answer in the notebook).
The pasted address holds a one-time code: it goes to the core, never shown or kept.
Also the checks the panel (``sign_in_panel.py``) shares, without loading ipywidgets.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from workbench.widgets.asking_text import Ask, Say

SHOWN_URL = 64
"""Characters of the authorization URL shown under the button (all of it on hover)."""
LISTENING_NOTE = (
    "The sign-in finishes here by itself when your browser is on this machine; otherwise "
    "paste the address your browser ended on."
)
PASTE_NOTE = "After signing in, paste the address your browser ended on."
PASTE_PROMPT = "Paste the address your browser ended on: "


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


def sign_in_text(server: str, url: str, paste: bool, ask: Ask, say: Say) -> str | None:
    """The link as plain text; with ``paste``, the address the browser ended on, asked with
    ``ask`` (a hidden prompt: it holds a one-time code). Empty or no input: None."""
    say(f"Sign in to {server}: open this link in your browser:\n{url}")
    if not paste:
        say("The sign-in finishes here by itself once your browser comes back.")
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
