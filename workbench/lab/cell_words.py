"""Words of a ``%mcp`` line and comment lines that carry a server's text as data only.

IPython splits a cell into lines before any quote means anything, at every break
``str.splitlines`` knows (``\\n``, ``\\r``, ``\\x0b``, ``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``,
``\\u2028``, ``\\u2029``); Python refuses a NUL anywhere in the source. So no character of
those kinds (control characters, line and paragraph separators, lone surrogates) is ever
written as itself: in a value it becomes a JSON escape, which ``%mcp call`` decodes back,
and in a comment a space. The rest follows the magic's parser (``magics/parsing.py``):
shell-like words, a word starting with ``{`` read as one JSON object, JSON where a value
parses, text otherwise. Three more things a word must not do: end the line with ``?``
(IPython would ask for help on it instead of running the magic), stand alone as ``-h`` or
``--help`` (the router prints the usage), or start with ``-`` where argparse reads it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from workbench.errors import WorkbenchError

UNSAFE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Control characters (the line breaks among them), lone surrogates, line and paragraph
separators."""
HELP_WORDS = frozenset({"-h", "--help"})
"""Words that make ``%mcp`` print a subcommand's usage instead of running it."""


def unsafe(char: str) -> bool:
    """Whether ``char`` may never be written into a cell as itself."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def has_unsafe(text: str) -> bool:
    return any(unsafe(char) for char in text)


def comment(text: object) -> str:
    """``text`` for a comment line: unsafe characters and whitespace runs become one space."""
    return " ".join(line_safe(str(text)).split())


def line_safe(text: str) -> str:
    """``text`` with every unsafe character a space (a comment line that cannot end early)."""
    return "".join(" " if unsafe(char) else char for char in text)


def word(value: Any) -> str:
    """``value`` as the part after ``key=`` that ``%mcp call`` reads back as it."""
    if isinstance(value, str) and _reads_as_text(value) and not has_unsafe(value):
        return quoted(value)
    return quoted(json_text(value))


def pair(name: str, value: Any) -> str | None:
    """``name=value`` as one word, or None when no such word carries ``name`` (blank, with
    ``=`` or an unsafe character, or starting with ``-``, which argparse takes for an option)."""
    if not name.strip() or "=" in name or name.startswith("-") or has_unsafe(name):
        return None
    return f"{quoted(name, first=True)}={word(value)}"


def json_object(values: Mapping[str, Any]) -> str:
    """``values`` as the one JSON object ``%mcp call`` also takes (any names, raw values)."""
    text = json_text(values)
    if _asks_for_help(text):  # whitespace is inside strings only: escape it there
        text = "".join(f"\\u{ord(char):04x}" if char.isspace() else char for char in text)
    return text


def arguments(values: Mapping[str, Any]) -> list[str]:
    """The words after the tool id: ``key=value`` pairs, or one JSON object when a name
    cannot be a pair's."""
    pairs = [pair(name, value) for name, value in values.items()]
    if all(made is not None for made in pairs):
        return [made for made in pairs if made is not None]
    return [json_object(values)]


def tool_word(tool_id: str) -> str:
    """The tool id as ``%mcp call``'s first word; a WorkbenchError when no word can be it."""
    if has_unsafe(tool_id) or tool_id.startswith("-"):
        shown = tool_id if len(tool_id) <= 60 else tool_id[:60] + "…"
        raise WorkbenchError(
            f"No %mcp call line can name the tool {shown!r}: its id holds a control character "
            "or line break, or starts with '-'."
        )
    return quoted(tool_id, first=True)


def json_text(value: Any) -> str:
    """Compact JSON of ``value`` on one line: unsafe characters (only ever inside strings)
    written as ``\\uXXXX``. What is no JSON (a Python object in a schema) is ``null``."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = "null"
    return "".join(f"\\u{ord(char):04x}" if unsafe(char) else char for char in text)


def quoted(text: str, *, first: bool = False) -> str:
    """``text`` as one shell-like word of the parser, quoted only where it must be; ``first``:
    it starts a word, where ``{`` would open a JSON object."""
    plain = not any(char.isspace() or char in "'\"\\" for char in text)
    risky = text.endswith("?") or text in HELP_WORDS or (first and text.startswith("{"))
    if text and plain and not risky:
        return text
    if "'" not in text:
        mark, body = "'", text  # no escapes inside single quotes
    else:
        mark, body = '"', text.replace("\\", "\\\\").replace('"', '\\"')
    made = f"{mark}{body}{mark}"
    if _asks_for_help(made):  # close and reopen the quotes around each '-': same text
        made = f"{mark}{body.replace('-', f'{mark}-{mark}')}{mark}"
    return made


def _asks_for_help(text: str) -> bool:
    return any(chunk in HELP_WORDS for chunk in text.split())


def _reads_as_text(value: str) -> bool:
    """Whether the parser keeps ``value`` as text (it reads JSON first)."""
    if value == "":
        return True
    try:
        json.loads(value)
    except RecursionError:
        return False  # too deep for the parser: written as a JSON string instead
    except ValueError:
        return True
    return False
