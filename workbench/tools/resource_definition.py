"""``@resource``: a function (or a cell's text) served as an MCP resource or resource template.

A URI without ``{...}`` is one resource, read by calling the function with no arguments; a
URI with RFC 6570 expressions (``data://users/{id}``) is a template whose variables are the
function's parameters. What the function returns becomes the read's contents: a str is text,
bytes a binary blob, a dict or list JSON text (``application/json``), ``Contents`` as given.
Template variables may have completers (``complete={"id": [...]}`` or ``@fn.completer("id")``).
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from workbench.errors import ToolDefinitionError
from workbench.tools.completion import Completable, Completer
from workbench.tools.icons import IconLike, declared_icons
from workbench.tools.offer_arguments import converted, is_async, parameters, takes_any_name

_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_OPERATORS = "+#./;?&"
TEXT = "text/plain"
JSON = "application/json"
BINARY = "application/octet-stream"


@dataclass(frozen=True)
class Contents:
    """One item of a read: ``text`` or ``blob`` (bytes), with its MIME type."""

    text: str | None = None
    blob: bytes | None = None
    mime_type: str | None = None


def template_variables(uri: str) -> list[str]:
    """The RFC 6570 variable names of ``uri`` in order, each once (none: a plain URI)."""
    names: list[str] = []
    for expression in _EXPRESSION.findall(uri):
        body = expression[1:] if expression[:1] in _OPERATORS else expression
        for spec in body.split(","):
            name = spec.strip().rstrip("*").split(":")[0]
            if name and name not in names:
                names.append(name)
    return names


class ResourceDefinition(Completable):
    """A notebook resource or resource template; calling it calls the function unchanged."""

    def __init__(
        self,
        fn: Callable[..., Any],
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        complete: Mapping[str, Completer] | None = None,
        text: str | None = None,
        icons: Sequence[IconLike] | None = None,
    ) -> None:
        if not _SCHEME.match(str(uri)) or any(c.isspace() for c in uri):
            raise ToolDefinitionError(
                f"@resource: {uri!r} is no URI; give one with a scheme, like 'data://greeting'."
            )
        self.fn = fn
        self.uri = uri
        self.variables = template_variables(uri)
        given = getattr(fn, "__name__", "")
        self.name = name or (given if given and given != "<lambda>" else uri)
        self.title = title
        self.description = description if description is not None else inspect.getdoc(fn)
        self.mime_type = mime_type
        self.icons = declared_icons(icons)
        """Listed with it (MCP ``icons``); local files already read into ``data:`` URIs."""
        self.text = text
        """The cell's text when a ``%%resource`` cell defined it (exported as that text)."""
        self.completers: dict[str, Completer] = {}
        self._check_parameters()
        for variable, completer in (complete or {}).items():
            self.add_completer(variable, completer)

    @property
    def listed_mime_type(self) -> str:
        """The MIME type a listing names: the one given, else what the return annotation
        says a read holds (bytes: a blob, a dict or list: JSON), else text."""
        if self.mime_type:
            return self.mime_type
        hint = _return_hint(self.fn)
        if hint in (bytes, bytearray) or hint in ("bytes", "bytearray"):
            return BINARY
        origin = getattr(hint, "__origin__", hint)
        if origin in (dict, list) or str(hint).startswith(("dict", "list")):
            return JSON
        return TEXT

    @property
    def is_template(self) -> bool:
        return bool(self.variables)

    @property
    def is_async(self) -> bool:
        return is_async(self.fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        kind = "template" if self.is_template else "resource"
        return f"<ResourceDefinition {kind} {self.uri!r} ({self.name})>"

    _decorator = "@resource"
    _kind = "template variable"

    @property
    def _owner(self) -> str:
        return self.uri

    def _completable(self) -> list[str]:
        return list(self.variables)

    def arguments(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A template's variables as the function takes them (converted to its hints)."""
        return converted(self.fn, {k: v for k, v in values.items() if k in self.variables})

    def contents(self, value: Any) -> list[Contents]:
        """What the function returned, as the read's contents."""
        items = value if isinstance(value, (list, tuple)) and _all_contents(value) else [value]
        return [self._one(item) for item in items]

    def _one(self, value: Any) -> Contents:
        if isinstance(value, Contents):
            return value if value.mime_type else Contents(value.text, value.blob, self.mime_type)
        if isinstance(value, str):
            return Contents(text=value, mime_type=self.mime_type or TEXT)
        if isinstance(value, (bytes, bytearray, memoryview)):
            return Contents(blob=bytes(value), mime_type=self.mime_type or BINARY)
        dump = getattr(value, "model_dump", None)
        data = dump(mode="json") if callable(dump) else value
        try:
            text = json.dumps(data, indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            raise TypeError(
                f"Resource {self.uri!r} returned {type(value).__name__}: return str, bytes, "
                "or something JSON can write (a dict, a list...)."
            ) from None
        return Contents(text=text, mime_type=self.mime_type or JSON)

    def _check_parameters(self) -> None:
        what = f"@resource {self.uri!r}"
        found = parameters(self.fn, what)
        names = {p.name for p in found}
        if not takes_any_name(self.fn):
            extra = [v for v in self.variables if v not in names]
            if extra:
                raise ToolDefinitionError(
                    f"{what}: the function has no parameter for {', '.join(extra)}; each "
                    "template variable is one of its parameters."
                )
        required = [p.name for p in found if p.default is p.empty]
        unfilled = [n for n in required if n not in self.variables]
        if unfilled:
            raise ToolDefinitionError(
                f"{what}: {', '.join(unfilled)} must have a default or be a template variable "
                "(like {" + unfilled[0] + "} in the URI)."
            )


def _return_hint(fn: Callable[..., Any]) -> Any:
    try:
        return typing.get_type_hints(fn).get("return")
    except Exception:
        return getattr(fn, "__annotations__", {}).get("return")


def _all_contents(values: list[Any] | tuple[Any, ...]) -> bool:
    return bool(values) and all(isinstance(v, Contents) for v in values)


@overload
def resource(
    uri: str,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
    complete: Mapping[str, Completer] | None = None,
    icons: Sequence[IconLike] | None = None,
) -> Callable[[Callable[..., Any]], ResourceDefinition]: ...
@overload
def resource(uri: Callable[..., Any]) -> ResourceDefinition: ...
def resource(
    uri: str | Callable[..., Any],
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
    complete: Mapping[str, Completer] | None = None,
    icons: Sequence[IconLike] | None = None,
) -> Callable[[Callable[..., Any]], ResourceDefinition] | ResourceDefinition:
    """``@resource("data://greeting")`` / ``@resource("data://users/{id}")``: the function
    becomes a ResourceDefinition (serve it with ``%%tool`` or ``wb.add_resources``)."""
    if callable(uri):
        raise ToolDefinitionError("@resource needs a URI: @resource('data://name').")

    def make(fn: Callable[..., Any]) -> ResourceDefinition:
        return ResourceDefinition(
            fn,
            uri,
            name=name,
            title=title,
            description=description,
            mime_type=mime_type,
            complete=complete,
            icons=icons,
        )

    return make
