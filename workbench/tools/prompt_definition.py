"""``@prompt``: a function (or a ``%%prompt`` cell's template) served as an MCP prompt.

Its arguments are the function's parameters (required unless they have a default); the
docstring is the description. It returns a str (one user message), or a list of messages:
strings (user), content blocks (``ImageContent``, ``EmbeddedResource``...: user), ``(role,
text or block)`` pairs, ``{"role": ..., "content": ...}`` dicts or ``Message``. Arguments
may have completers, like resource template variables.
"""

from __future__ import annotations

import inspect
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

import docstring_parser
from pydantic import BaseModel

from workbench.errors import ToolDefinitionError
from workbench.tools.completion import Completable, Completer
from workbench.tools.definition import check_tool_name
from workbench.tools.icons import IconLike, declared_icons
from workbench.tools.offer_arguments import converted, is_async, parameters

ROLES = ("user", "assistant")


@dataclass(frozen=True)
class Message:
    """One message of a rendered prompt: text, or ``content``, a content block's JSON
    (an image, audio, an embedded resource or a resource link)."""

    role: str
    text: str = ""
    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class PromptArgument:
    name: str
    description: str | None = None
    required: bool = True


class PromptDefinition(Completable):
    """A notebook prompt; calling it calls the function unchanged."""

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        complete: Mapping[str, Completer] | None = None,
        arguments: Sequence[PromptArgument] | None = None,
        template: str | None = None,
        icons: Sequence[IconLike] | None = None,
    ) -> None:
        given = getattr(fn, "__name__", "")
        prompt_name = name or (given if given != "<lambda>" else "")
        if not prompt_name:
            raise ToolDefinitionError("A lambda has no usable name: pass name='...' to @prompt.")
        check_tool_name(prompt_name)
        self.fn = fn
        self.name = prompt_name
        self.title = title
        self.icons = declared_icons(icons)
        """Listed with it (MCP ``icons``); local files already read into ``data:`` URIs."""
        doc = docstring_parser.parse(inspect.getdoc(fn) or "")
        prose = "\n\n".join(p for p in (doc.short_description, doc.long_description) if p)
        self.description = description if description is not None else (prose or None)
        self.template = template
        """The cell's template when a ``%%prompt`` cell defined it (exported as that text)."""
        if arguments is None:
            described = {p.arg_name: p.description for p in doc.params}
            found = parameters(fn, f"@prompt {prompt_name!r}")
            arguments = [
                PromptArgument(p.name, described.get(p.name), p.default is p.empty) for p in found
            ]
        self.arguments = list(arguments)
        self.completers: dict[str, Completer] = {}
        for argument, completer in (complete or {}).items():
            self.add_completer(argument, completer)

    @property
    def is_async(self) -> bool:
        return is_async(self.fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        names = ", ".join(a.name for a in self.arguments)
        return f"<PromptDefinition {self.name}({names})>"

    @property
    def _owner(self) -> str:
        return self.name

    def _completable(self) -> list[str]:
        return [argument.name for argument in self.arguments]

    def check_arguments(self, values: Mapping[str, Any] | None) -> dict[str, Any]:
        """The arguments as the function takes them; a ValueError names a missing required
        one or an unknown one."""
        given = dict(values or {})
        known = {a.name for a in self.arguments}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"Prompt {self.name!r} has no argument {', '.join(unknown)}.")
        missing = [a.name for a in self.arguments if a.required and a.name not in given]
        if missing:
            raise ValueError(f"Prompt {self.name!r} needs the argument {', '.join(missing)}.")
        return converted(self.fn, given)

    def messages(self, value: Any) -> list[Message]:
        """What the function returned, as the prompt's messages."""
        if isinstance(value, (str, Message, tuple, dict, BaseModel)):
            value = [value]
        if not isinstance(value, (list, tuple)):
            raise TypeError(
                f"Prompt {self.name!r} returned {type(value).__name__}: return a str or a list "
                "of messages."
            )
        return [self._message(item) for item in value]

    def _message(self, item: Any) -> Message:
        text: Any
        if isinstance(item, Message):
            role, text = item.role, item.content or item.text
        elif isinstance(item, (str, BaseModel)):
            role, text = "user", item
        elif isinstance(item, tuple) and len(item) == 2:
            role, text = str(item[0]), item[1]
        elif isinstance(item, dict) and "role" in item:
            role, text = str(item["role"]), item.get("content", item.get("text", ""))
        else:
            raise TypeError(
                f"Prompt {self.name!r}: a message is a str, (role, text) or "
                f"{{'role': ..., 'content': ...}}, not {type(item).__name__}."
            )
        if role not in ROLES:
            raise ValueError(f"Prompt {self.name!r}: role {role!r} is not 'user' or 'assistant'.")
        if isinstance(text, BaseModel):  # a content block: an image, an embedded resource...
            text = text.model_dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(text, dict):
            if text.get("type", "text") == "text":
                return Message(role, str(text.get("text", "")))
            return Message(role, content=text)
        return Message(role, str(text))


def placeholders(template: str) -> list[str]:
    """The ``{name}`` placeholders of a template, in order, each once; ``{{`` is a brace."""
    names: list[str] = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as error:
        raise ToolDefinitionError(f"%%prompt: the template cannot be read: {error}.") from None
    for _, field, _, _ in parsed:
        if field is None:
            continue
        if not field.isidentifier():
            raise ToolDefinitionError(
                f"%%prompt: {{{field}}} is no argument name; write {{{{ and }}}} for braces."
            )
        if field not in names:
            names.append(field)
    return names


def text_prompt(name: str, template: str, *, description: str | None = None,
                title: str | None = None) -> PromptDefinition:  # fmt: skip
    """A prompt whose one user message is ``template`` with its placeholders filled."""
    names = placeholders(template)

    def render(**values: Any) -> str:
        return template.format(**values)

    render.__name__ = name
    arguments = [PromptArgument(n) for n in names]
    return PromptDefinition(
        render, name=name, title=title, description=description,
        arguments=arguments, template=template,
    )  # fmt: skip


@overload
def prompt(fn: Callable[..., Any], /) -> PromptDefinition: ...
@overload
def prompt(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    complete: Mapping[str, Completer] | None = None,
    icons: Sequence[IconLike] | None = None,
) -> Callable[[Callable[..., Any]], PromptDefinition]: ...
def prompt(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    complete: Mapping[str, Completer] | None = None,
    icons: Sequence[IconLike] | None = None,
) -> PromptDefinition | Callable[[Callable[..., Any]], PromptDefinition]:
    """``@prompt`` or ``@prompt(name=..., complete={...})``: the function becomes a
    PromptDefinition (serve it with ``%%tool`` or ``wb.add_prompts``)."""

    def make(function: Callable[..., Any]) -> PromptDefinition:
        return PromptDefinition(
            function,
            name=name,
            title=title,
            description=description,
            complete=complete,
            icons=icons,
        )

    return make if fn is None else make(fn)
