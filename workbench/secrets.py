"""Secrets kept out of everything people see: tables, reprs, errors, warnings, logs.

Pure text functions, importable from every room. A secret is recognised by where it sits
(a URL's userinfo, the value of a key-like query parameter, ``KEY=VALUE`` or the word after a
key-like flag such as ``--api-key``, a ``Bearer`` token, a header value httpx rejected) or
because the caller knows it (``redact(text, secrets)``: tokens, header and ``env`` values,
values expanded from ``${env:VAR}``). A template such as ``${env:KEY}`` is no secret and is
shown as written, so people see where a value comes from.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from urllib.parse import urlsplit

MASK = "***"

# Words that make a name key-like, matched against the parts of a name split on '-', '_'
# and camelCase ("X-Api-Key", "access_token", "clientSecret", "--password").
_KEY_WORDS = frozenset({
    "key", "apikey", "token", "secret", "password", "passwd", "pwd", "pass", "passphrase",
    "auth", "authorization", "sig", "signature", "credential", "credentials", "cookie",
    "session", "private", "bearer",
})  # fmt: skip
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_TEMPLATE = re.compile(r"\$\{[^}]*\}")
_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>`]+")
# ``--token=VALUE``, ``API_KEY=VALUE``; and ``--api-key VALUE`` in a command line only (in
# prose, "--key must be set" would lose a word)
_FLAG_VALUE = re.compile(r"(?P<flag>--?[A-Za-z][\w-]*)(?P<sep>=)(?P<value>[^\s'\"]+)")
_FLAG_WORD = re.compile(r"(?P<flag>--?[A-Za-z][\w-]*)(?P<sep>=|\s+)(?P<value>[^\s'\"]+)")
_ASSIGNMENT = re.compile(r"(?P<name>\b[A-Za-z_][\w-]*)(?P<sep>=)(?P<value>[^\s'\",;&]+)")
# a credential after Bearer / Basic: 8 or more characters with a digit or symbol among them
# (so "a bearer token" in prose stays as written)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}")
# httpx: "Illegal header value b'...'" (the value itself, newline and all)
_HEADER_VALUE = re.compile(
    r"(?i)(header (?:value|name)\s*)(b?'(?:[^'\\]|\\.)*'|b?\"(?:[^\"\\]|\\.)*\")"
)
_MIN_SECRET = 4
"""Shorter known values are not replaced in free text: "1" or "on" would mangle it."""


def is_key_like(name: str) -> bool:
    """Whether a parameter, flag, header or variable name says its value is a secret."""
    parts = [part.lower() for part in _NAME_PART.findall(name)]
    return any(part in _KEY_WORDS for part in parts)


def is_template(value: str) -> bool:
    """Whether ``value`` is only ``${...}`` templates (shown as written: no secret in it)."""
    return bool(value) and not _TEMPLATE.sub("", value).strip()


def template_values(text: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of the variables that ``${env:VAR}`` / ``${VAR}`` templates in ``text``
    name (the set ones): what expanding ``text`` put in, hence secrets to redact."""
    source = os.environ if environ is None else environ
    names = _VARIABLE.findall(text)
    return [source[name] for name in names if name in source]


def mask_url(url: str) -> str:
    """The URL with its userinfo and key-like query values masked; the rest as written."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return mask_text_plain(url)
    masked = url
    if "@" in parts.netloc:
        userinfo = parts.netloc.rpartition("@")[0]
        user, colon, password = userinfo.partition(":")
        hidden = f"{user}:{_mask(password)}" if colon else _mask(user)
        masked = masked.replace(f"{userinfo}@", f"{hidden}@", 1)
    head, hash_, fragment = masked.partition("#")
    base, question, query = head.partition("?")
    return base + question + _mask_query(query) + hash_ + _mask_query(fragment)


def mask_args(words: Sequence[str]) -> list[str]:
    """A command line with the values of key-like flags, assignments and URLs masked."""
    shown: list[str] = []
    secret_next = False
    for word in words:
        if secret_next:
            shown.append(_mask(word))
            secret_next = False
            continue
        if word.startswith("-") and "=" not in word:
            secret_next = is_key_like(word)
            shown.append(word)
            continue
        shown.append(mask_text(word))
    return shown


def hidden_values(original: str, masked: str) -> list[str]:
    """What masking took out of ``original`` to make ``masked`` (the values behind each
    ``***``): secrets a caller can then redact wherever else they turn up, such as a
    server's stderr echoing its own command line."""
    pieces = masked.split(MASK)
    if len(pieces) == 1:
        return []
    pattern = "(.*?)".join(re.escape(piece) for piece in pieces)
    match = re.fullmatch(pattern, original, flags=re.DOTALL)
    return [value for value in match.groups() if value] if match else []


def mask_text(text: str, *, command_line: bool = False) -> str:
    """Free text (an error, a stderr line, a log message) with every recognisable secret
    masked: URL credentials and key-like query values, key-like flags and assignments,
    bearer tokens, header values a client rejected. In a ``command_line`` the word after a
    key-like flag is a value too."""
    text = _URL.sub(lambda match: mask_url(match.group(0)), text)
    text = mask_text_plain(text)
    return _FLAG_WORD.sub(_masked_pair("flag"), text) if command_line else text


def mask_text_plain(text: str) -> str:
    """``mask_text`` without the URL pass (for text that is already a URL's pieces)."""
    text = _HEADER_VALUE.sub(lambda match: f"{match.group(1)}{MASK}", text)
    text = _BEARER.sub(lambda match: f"{match.group(1)} {MASK}", text)
    text = _FLAG_VALUE.sub(_masked_pair("flag"), text)
    return _ASSIGNMENT.sub(_masked_pair("name"), text)


def redact(text: str, secrets: Iterable[object] = ()) -> str:
    """``mask_text``, after replacing every known secret value (as written, stripped, and
    as ``repr`` escapes it) wherever it appears. A value that is not text (a number someone
    passed as a token) is masked as its ``str``: showing a table never raises (G4)."""
    values = {secret if isinstance(secret, str) else str(secret) for secret in secrets
              if secret is not None}  # fmt: skip
    for secret in sorted(values, key=len, reverse=True):
        for form in sorted({secret, secret.strip(), repr(secret)[1:-1]}, key=len, reverse=True):
            if len(form) >= _MIN_SECRET and not is_template(form):
                text = text.replace(form, MASK)
    return mask_text(text)


def _mask(value: str) -> str:
    return value if not value or is_template(value) else MASK


def _mask_query(query: str) -> str:
    pairs = []
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        pairs.append(f"{name}={_mask(value)}" if equals and is_key_like(name) else pair)
    return "&".join(pairs)


def _masked_pair(group: str) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        if not is_key_like(match.group(group)):
            return match.group(0)
        return f"{match.group(group)}{match.group('sep')}{_mask(match.group('value'))}"

    return replace
