"""A server's question answered by typing: ``input()`` prompts in the main thread.

While a sync call (``wb.call`` in a cell, ``%mcp call``) blocks the kernel's main thread no
widget can be shown or clicked, but ``input()`` still reaches the front end (ipykernel sends
an ``input_request``). So each field of the requested schema is one prompt, its answer
converted to the field's JSON type and judged by the one validator (``ToolEntry.problems``);
``/decline`` or ``/cancel`` at any prompt ends with that action. Also: the one-line summary
of what was sent, secret fields masked, which the form shows too.
"""

from __future__ import annotations

import builtins
import getpass
from collections.abc import Callable, Mapping
from typing import Any

from workbench.display.visible import visible
from workbench.features.asking import ElicitationAnswer, SamplingReply, SamplingRequest
from workbench.features.asking import ElicitationRequest as Request
from workbench.secrets import MASK, is_key_like

DECLINE = "/decline"
CANCEL = "/cancel"
TRUE_WORDS = frozenset({"y", "yes", "true", "t", "1", "on"})
FALSE_WORDS = frozenset({"n", "no", "false", "f", "0", "off"})

PAST = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}

Ask = Callable[[str], str]
Say = Callable[[str], None]


def _input(prompt: str) -> str:
    """``input`` looked up at each call: ipykernel swaps it in per cell."""
    return str(builtins.input(prompt))


def _getpass(prompt: str) -> str:
    """``getpass`` looked up at each call (ipykernel's hides the typing in the front end)."""
    return str(getpass.getpass(prompt))


# -- what was sent -------------------------------------------------------------------------


def is_secret(name: str, schema: Mapping[str, Any] | None) -> bool:
    """Whether a field's value must never be shown: format password, or a key-like name."""
    fmt = schema.get("format") if isinstance(schema, Mapping) else None
    return fmt == "password" or is_key_like(name)


def sent_summary(content: Mapping[str, Any] | None, schema: Mapping[str, Any]) -> str:
    """``party_size=3, time='19:30'``: what an accept sent, secret values as ``***``."""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    parts = []
    for name, value in (content or {}).items():
        shown = MASK if is_secret(name, properties.get(name)) else repr(value)
        parts.append(f"{name}={shown}")
    return ", ".join(parts) if parts else "nothing"


def answer_line(request: Request, answer: ElicitationAnswer) -> str:
    """One line saying how a question was answered."""
    if answer.action == "accept":
        if request.mode == "url":
            return f"{request.server}: accepted (opened {request.url})"
        return f"{request.server}: accepted, sent {sent_summary(answer.content, request.schema)}"
    return f"{request.server}: {PAST[answer.action]}"


# -- elicitation ---------------------------------------------------------------------------


class _Stop(Exception):
    """The person typed /decline or /cancel, or nothing usable twice, or cannot type."""

    def __init__(self, answer: ElicitationAnswer, why: str) -> None:
        super().__init__(why)
        self.answer = answer
        self.why = why


_OMIT = object()


class TextAsker:
    """Asks with ``ask`` (``input``) and ``ask_secret`` (``getpass``), tells with ``say``."""

    def __init__(
        self, ask: Ask | None = None, ask_secret: Ask | None = None, say: Say | None = None
    ) -> None:
        self.ask = ask or _input
        self.ask_secret = ask_secret or (ask if ask is not None else _getpass)
        self.say: Say = say or print

    def _say(self, text: str) -> None:
        """Say a line holding a server's words: its control characters shown, not obeyed."""
        self.say(visible(text))

    def elicit(self, request: Request) -> ElicitationAnswer:
        """One prompt per field (a URL: one prompt to confirm); the answer, said in one line."""
        where = f" (calling {request.tool})" if request.tool else ""
        self._say(f"{request.server} asks{where}: {request.message}")
        try:
            answer = self._url(request) if request.mode == "url" else self._fields(request)
        except _Stop as stop:
            self._say(f"{stop.why}: {PAST[stop.answer.action]}")
            return stop.answer
        self._say(answer_line(request, answer))
        return answer

    def sample(self, request: SamplingRequest) -> SamplingReply | None:
        """Show what the server would send a model; one prompt for the reply."""
        where = f" (calling {request.tool})" if request.tool else ""
        self._say(f"{request.server} asks for a language model's reply{where}.")
        if request.system_prompt:
            self._say(f"system: {request.system_prompt}")
        for message in request.messages:
            self._say(f"{message.role}: {message.text}")
        if request.max_tokens:
            self._say(f"(at most {request.max_tokens} tokens)")
        try:
            text = self.ask(f"Your reply ({DECLINE} declines): ")  # no server text
        except (EOFError, OSError, NotImplementedError):
            self._say(f"{request.server}: cannot ask here (no input): declined")
            return None
        if not text.strip() or text.strip().lower() in (DECLINE, CANCEL):
            self._say(f"{request.server}: declined")
            return None
        self._say(f"{request.server}: reply sent ({len(text)} characters)")
        return SamplingReply(text)

    def _url(self, request: Request) -> ElicitationAnswer:
        self._say(f"Open this link: {request.url}")
        text = self._prompt(f"Done there? [y = accept, n = decline, {CANCEL}]: ", secret=False)
        if text.lower() in TRUE_WORDS:
            return ElicitationAnswer.accept()
        return ElicitationAnswer.decline()

    def _fields(self, request: Request) -> ElicitationAnswer:
        properties = request.schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        required = set(request.schema.get("required") or [])
        content: dict[str, Any] = {}
        for name, schema in properties.items():
            schema = schema if isinstance(schema, Mapping) else {}
            value = self._field(request, name, schema, name in required)
            if value is not _OMIT:
                content[name] = value
        return ElicitationAnswer.accept(content)

    def _field(self, request: Request, name: str, schema: Mapping[str, Any], required: bool) -> Any:
        from workbench.registry import ToolEntry  # the one validator; loads on first question

        prompt = field_prompt(name, schema, required)
        secret = is_secret(name, schema)
        judge = ToolEntry(
            server=request.server,
            name="elicitation",
            input_schema={"type": "object", "properties": {name: dict(schema)}},
        )
        for attempt in (1, 2):
            text = self._prompt(prompt, secret=secret)
            try:
                value = read_value(text, schema, required)
                if value is not _OMIT:
                    problems = judge.problems({name: value})
                    if problems:
                        raise ValueError("; ".join(message for _, message in problems))
                return value
            except ValueError as error:
                if attempt == 2:
                    raise _Stop(ElicitationAnswer.decline(), f"{name}: {error} again") from None
                self._say(f"{name}: {error}; try again ({DECLINE} to decline).")
        raise AssertionError("unreachable")

    def _prompt(self, prompt: str, *, secret: bool) -> str:
        try:
            text = (self.ask_secret if secret else self.ask)(visible(prompt)).strip()
        except (EOFError, OSError, NotImplementedError):
            raise _Stop(ElicitationAnswer.decline(), "cannot ask here (no input)") from None
        if text.lower() == DECLINE:
            raise _Stop(ElicitationAnswer.decline(), "you typed /decline")
        if text.lower() == CANCEL:
            raise _Stop(ElicitationAnswer.cancel(), "you typed /cancel")
        return text


# -- one field -----------------------------------------------------------------------------


def choices_of(schema: Mapping[str, Any]) -> list[tuple[Any, str]]:
    """An enum's ``(value, label)`` pairs: ``enum`` (with ``enumNames``) or titled
    ``oneOf``/``anyOf`` consts; an array's items' choices for a multi-select."""
    if schema.get("type") == "array" and isinstance(schema.get("items"), Mapping):
        return choices_of(schema["items"])
    if isinstance(schema.get("enum"), list):
        names = schema.get("enumNames")
        labels = names if isinstance(names, list) and len(names) == len(schema["enum"]) else None
        return [(v, str(labels[i]) if labels else str(v)) for i, v in enumerate(schema["enum"])]
    options = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(options, list) and all(isinstance(o, Mapping) and "const" in o for o in options):
        return [(o["const"], str(o.get("title", o["const"]))) for o in options]
    return []


def field_prompt(name: str, schema: Mapping[str, Any], required: bool) -> str:
    """``Party Size - How many people, 1 to 12 (integer, required) [2]: ``: the description's
    own closing full stop dropped, so it never reads ``12.:``."""
    kind = str(schema.get("type", "text"))
    choices = choices_of(schema)
    if choices:
        listed = ", ".join(
            label if label == str(value) else f"{value} ({label})" for value, label in choices
        )
        kind = f"{'some' if kind == 'array' else 'one'} of {listed}"
    elif kind == "boolean":
        kind = "y/n"
    elif kind == "array":
        kind = "comma-separated"
    words = [str(schema.get("title") or name)]
    description = " ".join(str(schema.get("description") or "").split()).rstrip(".:;, ")
    if description:
        words.append(f"- {description}")
    words.append(f"({kind}{', required' if required else ''})")
    if "default" in schema and not is_secret(name, schema):
        words.append(f"[{_shown_default(schema['default'])}]")
    return " ".join(words) + ": "


def _shown_default(value: Any) -> str:
    if isinstance(value, bool):
        return "y" if value else "n"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def read_value(text: str, schema: Mapping[str, Any], required: bool) -> Any:
    """The typed text as the field's JSON value; empty takes the default (or leaves an
    optional field out). ValueError says what is wrong."""
    if not text:
        if "default" in schema:
            return schema["default"]
        if required:
            raise ValueError("required")
        return _OMIT
    if schema.get("type") == "array":
        items = schema.get("items")
        item_schema: Mapping[str, Any] = items if isinstance(items, Mapping) else {}
        return [_scalar(part.strip(), item_schema) for part in text.split(",") if part.strip()]
    return _scalar(text, schema)


def _scalar(text: str, schema: Mapping[str, Any]) -> Any:
    choices = choices_of(schema)
    if choices:
        for value, label in choices:
            if text in (str(value), label) or text.lower() in (str(value).lower(), label.lower()):
                return value
        raise ValueError(f"not one of {', '.join(str(v) for v, _ in choices)}")
    kind = schema.get("type")
    if kind == "boolean":
        if text.lower() in TRUE_WORDS:
            return True
        if text.lower() in FALSE_WORDS:
            return False
        raise ValueError("answer y or n")
    if kind == "integer":
        try:
            return int(text)
        except ValueError:
            raise ValueError("not a whole number") from None
    if kind == "number":
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            raise ValueError("not a number") from None
    return text
