"""Reading a magic's line: words, ``key=value`` pairs, JSON, and IPython's own UsageError.

Every mistake a person can type ends here as ``UsageError`` itself, with one line: IPython
prints a full traceback for any subclass of it, and a traceback is no help for a typo.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from IPython.core.error import UsageError

from workbench.errors import WorkbenchError

SHOWN = 60
"""Characters of a person's input quoted back in an error message."""


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a name given twice is refused, as ``a=1 a=2`` is,
    instead of the last one silently winning."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKeyError(key)
        found[key] = value
    return found


_DECODER = json.JSONDecoder(object_pairs_hook=_refuse_duplicates)
_ESCAPABLE = frozenset("\"'\\ \t")
_NO_JSON = object()


@dataclass(frozen=True)
class Token:
    """One word of the line: its text with quotes removed, what was typed, and, for a JSON
    object written in place, its value."""

    text: str
    raw: str
    value: Any = _NO_JSON

    @property
    def is_json(self) -> bool:
        return self.value is not _NO_JSON


def one_line(text: str, limit: int = SHOWN) -> str:
    """``text`` on one line, cut to ``limit`` characters: safe to quote in a message."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def fail(message: str) -> UsageError:
    """A UsageError with the message on one line (never a subclass: see the module doc)."""
    return UsageError(" ".join(message.split()))


def tokenize(line: str, *, json_objects: bool = False) -> list[Token]:
    """Split a line like a shell does: whitespace separates, quotes group, a backslash escapes
    a quote, a space or itself (and is kept elsewhere, so Windows paths survive).

    With ``json_objects``, a word starting with ``{`` is read as one JSON object, quotes and
    spaces included, so ``{"a": 1, "b": "x y"}`` needs no extra quoting.
    """
    tokens: list[Token] = []
    position, end = 0, len(line)
    while position < end:
        if line[position].isspace():
            position += 1
            continue
        if json_objects and line[position] == "{":
            token, position = _json_token(line, position)
        else:
            token, position = _word(line, position)
        tokens.append(token)
    return tokens


def _word(line: str, start: int) -> tuple[Token, int]:
    chars: list[str] = []
    quote: str | None = None
    position = start
    while position < len(line):
        char = line[position]
        following = line[position + 1] if position + 1 < len(line) else ""
        if quote is not None:
            if char == quote:
                quote = None
            elif char == "\\" and quote == '"' and following in '"\\':
                chars.append(following)
                position += 1
            else:
                chars.append(char)
        elif char in "'\"":
            quote = char
        elif char.isspace():
            break
        elif char == "\\" and following in _ESCAPABLE and following:
            chars.append(following)
            position += 1
        else:
            chars.append(char)
        position += 1
    if quote is not None:
        raise fail(f"No closing {quote} quote in: {one_line(line[start:])}")
    return Token("".join(chars), line[start:position]), position


def _json_token(line: str, start: int) -> tuple[Token, int]:
    try:
        value, end = _DECODER.raw_decode(line, start)
    except json.JSONDecodeError as error:
        raise fail(
            f"Bad JSON object: {error.msg} at character {error.pos - start + 1} of "
            f"{one_line(line[start:])}"
        ) from None
    except _DuplicateKeyError as error:
        raise fail(f"{one_line(error.key)} is given twice in {one_line(line[start:])}") from None
    if end < len(line) and not line[end].isspace():
        raise fail(f"Unexpected text right after a JSON object: {one_line(line[end:])}")
    return Token(line[start:end], line[start:end], value), end


def json_or_text(text: str) -> Any:
    """A value written on the line: JSON when it parses (numbers, booleans, null, lists,
    objects, quoted strings), the text itself otherwise."""
    try:
        return _DECODER.decode(text)
    except _DuplicateKeyError as error:
        raise fail(f"{one_line(error.key)} is given twice in {one_line(text)}") from None
    except ValueError:
        return text


def split_pair(token: Token, what: str = "KEY=VALUE") -> tuple[str, str]:
    """``key=value`` into its parts; an empty key, or a value left out (``key=``, as
    opposed to ``key=''``), is a usage error."""
    key, sep, value = token.text.partition("=")
    if not sep:
        raise fail(f"Expected {what}, got {one_line(token.raw)}.")
    if not key.strip():
        raise fail(f"Missing the name before '=' in {one_line(token.raw)}.")
    if not value and not token.raw.endswith(("'", '"')):
        raise fail(f"{one_line(key)}= has no value; write {one_line(key)}='' for an empty text.")
    return key, value


@contextmanager
def usage_errors() -> Iterator[None]:
    """Turn the workbench's own errors (unknown server, failed connection, bad config)
    into UsageError: the person sees the sentence, not a traceback."""
    try:
        yield
    except WorkbenchError as error:
        raise UsageError(str(error).strip()) from None


def text_pairs(tokens: list[Token], words: list[str], command: str) -> dict[str, str]:
    """``key=value`` words (as argparse kept them, found back among ``tokens`` for what was
    typed) as text values: prompt arguments and URI template variables are text, so
    ``n=007`` stays ``"007"``. A name given twice is refused."""
    typed = {token.text: token for token in reversed(tokens)}
    pairs: dict[str, str] = {}
    for word in words:
        key, value = split_pair(typed[word])
        if key in pairs:
            raise fail(f"{command}: {one_line(key)} is given twice.")
        pairs[key] = value
    return pairs
