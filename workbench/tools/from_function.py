"""``@tool``: a plain function, sync or async, becomes a ToolDefinition.

The input schema comes from the type hints (through pydantic), parameter descriptions from
the docstring (Google, NumPy or reST style), the description from the docstring's prose and
the output schema from the return annotation. The function itself stays callable as before.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import typing
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, get_args, get_origin, overload

import docstring_parser
from pydantic import BaseModel, Field, TypeAdapter, create_model
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from workbench.errors import SchemaFallbackWarning, ToolDefinitionError
from workbench.tools.annotations import ToolAnnotations
from workbench.tools.app_definition import App, Visibility, with_ui
from workbench.tools.definition import ToolDefinition, check_tool_name, drop_generated_titles
from workbench.tools.icons import IconLike
from workbench.tools.media import is_media_type, media_block
from workbench.tools.schema import (
    Action,
    AudioContent,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    Observation,
    ResourceLink,
    TextContent,
)
from workbench.tools.task_support import TaskSupport

WRAP_MARKER = "x-fastmcp-wrap-result"
"""Marks an output schema whose non-object result is wrapped as ``{"result": ...}``: FastMCP's
own key, which FastMCP clients read to unwrap it, so a served or exported listing carries
no mark of the workbench's own."""
_CONTENT_TYPES = (TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)
_NO_OUTPUT_SCHEMA: tuple[Any, ...] = (inspect.Signature.empty, None, type(None), Any, str)
_BLOCK: TypeAdapter[ContentBlock] = TypeAdapter(ContentBlock)


class FunctionTool(ToolDefinition[Action, Observation]):
    """A ToolDefinition made from a function; calling it calls the function unchanged."""

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | Mapping[str, Any] | None = None,
        tags: Sequence[str] = (),
        output_schema: dict[str, Any] | None = None,
        meta: dict[str, Any] | None = None,
        enabled: Callable[[], object] | None = None,
        icons: Sequence[IconLike] | None = None,
        task: TaskSupport = False,
    ) -> None:
        tool_name = name or getattr(fn, "__name__", "")
        if tool_name == "<lambda>" or not tool_name:
            raise ToolDefinitionError("A lambda has no usable name: pass name='...' to @tool.")
        check_tool_name(tool_name)  # before the name reaches the Action model's class name
        doc = docstring_parser.parse(inspect.getdoc(fn) or "")
        hints = _type_hints(fn)
        self.fn = fn
        self._field_to_param: dict[str, str] = {}
        action_type = self._build_action_model(fn, tool_name, hints, doc)
        inferred_output = _output_schema(hints.get("return", inspect.Signature.empty))
        super().__init__(
            name=tool_name,
            action_type=action_type,
            executor=self._async_executor if _is_async(fn) else self._sync_executor,
            description=description if description is not None else _prose(doc),
            title=title,
            annotations=annotations,
            tags=tags,
            output_schema=output_schema if output_schema is not None else inferred_output,
            meta=meta,
            enabled=enabled,
            icons=icons,
            task=task,
        )
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the underlying function exactly as if it were not a tool."""
        return self.fn(*args, **kwargs)

    def _build_action_model(
        self,
        fn: Callable[..., Any],
        tool_name: str,
        hints: dict[str, Any],
        doc: docstring_parser.Docstring,
    ) -> type[Action]:
        described = {param.arg_name: param.description for param in doc.params}
        fields: dict[str, Any] = {}
        for param in inspect.signature(fn).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise ToolDefinitionError(
                    f"Tool {tool_name!r}: *{param.name} parameters cannot be described by a "
                    "schema; use named parameters."
                )
            annotation = _expressible(hints.get(param.name, Any), tool_name, param.name)
            field_name = f"{param.name}_" if _shadows_base_model(param.name) else param.name
            self._field_to_param[field_name] = param.name
            extras: dict[str, Any] = {}
            if field_name != param.name:
                extras["alias"] = param.name
            if param.name in described and not _has_description(annotation):
                extras["description"] = described[param.name]
            default = ... if param.default is param.empty else param.default
            fields[field_name] = (annotation, Field(default, **extras))
        model_name = "".join(part.title() for part in tool_name.replace("-", "_").split("_"))
        model: type[Action] = create_model(
            f"{model_name}Action",
            __base__=Action,
            __module__=getattr(fn, "__module__", None) or __name__,
            **fields,
        )
        return model

    def _arguments(self, action: Action) -> tuple[list[Any], dict[str, Any]]:
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        parameters = inspect.signature(self.fn).parameters
        for field_name, param_name in self._field_to_param.items():
            value = getattr(action, field_name)
            if parameters[param_name].kind is inspect.Parameter.POSITIONAL_ONLY:
                positional.append(value)
            else:
                keywords[param_name] = value
        return positional, keywords

    def _sync_executor(self, action: Action) -> Observation:
        args, kwargs = self._arguments(action)
        return observation_from_value(self.fn(*args, **kwargs), self.output_schema)

    async def _async_executor(self, action: Action) -> Observation:
        args, kwargs = self._arguments(action)
        return observation_from_value(await self.fn(*args, **kwargs), self.output_schema)


@overload
def tool(fn: Callable[..., Any], /) -> FunctionTool: ...


@overload
def tool(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    annotations: ToolAnnotations | Mapping[str, Any] | None = None,
    tags: Sequence[str] = (),
    output_schema: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    enabled: Callable[[], object] | None = None,
    icons: Sequence[IconLike] | None = None,
    task: TaskSupport = False,
    ui: str | App | None = None,
    visibility: Sequence[Visibility] | None = None,
) -> Callable[[Callable[..., Any]], FunctionTool]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    annotations: ToolAnnotations | Mapping[str, Any] | None = None,
    tags: Sequence[str] = (),
    output_schema: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    enabled: Callable[[], object] | None = None,
    icons: Sequence[IconLike] | None = None,
    task: TaskSupport = False,
    ui: str | App | None = None,
    visibility: Sequence[Visibility] | None = None,
) -> FunctionTool | Callable[[Callable[..., Any]], FunctionTool]:
    """Turn a function into a tool; use bare (``@tool``) or with options (``@tool(name=...)``).
    ``enabled()`` is asked whenever the tool is served: falsy hides it from outside clients.
    ``icons``: data: URIs, https: URLs or local image files (``workbench/tools/icons.py``).
    ``task=True`` (or ``"required"``): outside clients of ``serve`` may get a task back.
    ``ui="NAME"`` (or an App): the MCP App ``ui://notebook/NAME`` shows its results
    (``_meta.ui``; define it with ``%%app NAME``); ``visibility=["app"]``: only Apps call it."""
    meta = with_ui(meta, ui, visibility)

    def decorate(function: Callable[..., Any]) -> FunctionTool:
        return FunctionTool(
            function,
            name=name,
            title=title,
            description=description,
            annotations=annotations,
            tags=tags,
            output_schema=output_schema,
            meta=meta,
            enabled=enabled,
            icons=icons,
            task=task,
        )

    return decorate if fn is None else decorate(fn)


def observation_from_value(value: Any, output_schema: dict[str, Any] | None = None) -> Observation:
    """Turn whatever a tool function returned into an Observation.

    Text stays text; content blocks pass through, and bytes, PIL images and matplotlib
    figures become image, audio or blob content (``media.py``); anything else becomes
    structured content
    (wrapped as ``{"result": ...}`` when the output schema says so or it is not an object)
    with a JSON text twin for clients that read only text.
    """
    if isinstance(value, Observation):
        return value
    if value is None:
        return Observation()
    if isinstance(value, str):
        return Observation.from_text(value)
    blocks = _blocks(value if isinstance(value, list) and value else [value])
    if blocks is not None:
        return Observation(content=blocks)
    data = to_jsonable_python(value)
    wrap = bool(output_schema and output_schema.get(WRAP_MARKER)) or not isinstance(data, dict)
    structured = {"result": data} if wrap else data
    return Observation(
        content=[TextContent(text=json.dumps(data, ensure_ascii=False))],
        structured_content=structured,
    )


def _blocks(values: list[Any]) -> list[ContentBlock] | None:
    """Content blocks as they are, bytes and images as blocks (``media.py``); None unless
    every value is one."""
    blocks: list[ContentBlock] = []
    for value in values:
        if isinstance(value, _CONTENT_TYPES):
            blocks.append(value)
            continue
        block = media_block(value)
        if block is None:
            return None
        blocks.append(_BLOCK.validate_python(block))
    return blocks


def _type_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """Resolved hints; unresolvable ones (forward refs) fall back to the raw annotations."""
    try:
        return typing.get_type_hints(fn, include_extras=True)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


def _expressible(annotation: Any, tool_name: str, param: str) -> Any:
    """The annotation if pydantic can make a schema of it, else ``Any`` with a warning."""
    try:
        TypeAdapter(annotation).json_schema()
    except Exception as error:
        warnings.warn(
            f"Tool {tool_name!r}: parameter {param!r} has an annotation with no JSON Schema "
            f"({type(error).__name__}); it will accept any value.",
            SchemaFallbackWarning,
            stacklevel=4,
        )
        return Any
    return annotation


def _has_description(annotation: Any) -> bool:
    if get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(m, FieldInfo) and m.description for m in get_args(annotation)[1:])


def _shadows_base_model(name: str) -> bool:
    return hasattr(BaseModel, name) or name.startswith("model_")


def _prose(doc: docstring_parser.Docstring) -> str:
    """The docstring's summary and extended description, without its sections."""
    parts = [doc.short_description, doc.long_description]
    return reflow("\n\n".join(part.strip() for part in parts if part))


_LIST_ITEM = re.compile(r"\s|[-*+\u2022]\s|\d+[.)]\s")


def reflow(text: str) -> str:
    """Join each paragraph's hard-wrapped lines, so a description flows in any width.

    Docstrings wrap at the source's line length, which reads as ragged breaks in a card or a
    model's prompt. Paragraphs stay apart; list items and indented lines keep their own line.
    """
    paragraphs = re.split(r"\n[ \t]*\n", text.strip())
    return "\n\n".join(_join_lines(paragraph) for paragraph in paragraphs)


def _join_lines(paragraph: str) -> str:
    lines: list[str] = []
    for line in paragraph.splitlines():
        if lines and not _LIST_ITEM.match(line):
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line.rstrip())
    return "\n".join(lines)


def _output_schema(annotation: Any) -> dict[str, Any] | None:
    """A JSON Schema for the return value, wrapped in an object when it is not one."""
    if annotation in _NO_OUTPUT_SCHEMA or _is_content(annotation):
        return None
    try:
        schema = TypeAdapter(annotation).json_schema(mode="serialization")
    except Exception:
        return None
    drop_generated_titles(schema)
    if schema.get("type") == "object":
        return schema
    defs = schema.pop("$defs", None)
    wrapped: dict[str, Any] = {
        "type": "object",
        "properties": {"result": schema},
        "required": ["result"],
        WRAP_MARKER: True,
    }
    if defs:
        wrapped["$defs"] = defs
    return wrapped


def _is_content(annotation: Any) -> bool:
    """Whether the return annotation names content blocks (or an Observation) anywhere: a
    block, a union with one, a list of them, ``ContentBlock`` itself (an Annotated union),
    bytes or an image (``media.py``)."""
    if isinstance(annotation, type) and get_origin(annotation) is None:
        return issubclass(annotation, (Observation, *_CONTENT_TYPES)) or is_media_type(annotation)
    if get_origin(annotation) is Annotated:
        return _is_content(get_args(annotation)[0])
    return any(_is_content(arg) for arg in get_args(annotation))


def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    )
