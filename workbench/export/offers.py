"""Notebook resources and prompts written into the exported script.

Each becomes a function in the script: its own function's source (``recover``, like a
tool's), or, for a ``%%resource`` / ``%%prompt`` cell, a small function returning the cell's
text (a prompt's placeholders are its parameters). ``OFFERS_RUNTIME`` registers them with
FastMCP's own ``server.resource`` / ``server.prompt`` and answers ``completion/complete``
from their completers (candidate lists written as literals, functions copied), so the
script serves them without the workbench; what a function returns is converted as the
notebook converts it (str text, bytes a blob, else JSON; a prompt's str, pairs, dicts,
content blocks).
"""

from __future__ import annotations

import pprint
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from workbench.export.apps import app_meta
from workbench.export.source import Pieces, Unrecoverable, recover
from workbench.tools.prompt_definition import PromptDefinition
from workbench.tools.resource_definition import ResourceDefinition

_UNSAFE = re.compile(r"[^A-Za-z0-9_]+")
EXPRESSION = "_workbench_expression"
"""Marks the function of a ``%%resource --python`` cell that ends in an expression."""


class Code:
    """A name written into a literal as code, not as a string."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __repr__(self) -> str:
        return self.code


def resource_pieces(definition: ResourceDefinition, index: int) -> tuple[Pieces, dict[str, Any]]:
    """The code a resource needs and its entry in ``_WB_RESOURCES``."""
    expression = getattr(definition.fn, EXPRESSION, None)
    if expression is not None:
        raise Unrecoverable(
            f"it serves the value of {expression} (%%resource --python), which lives only in "
            "the kernel; define a function in the cell to export it"
        )
    if definition.text is not None:
        name = f"_wb_resource_{index}_{_UNSAFE.sub('_', definition.name)}"[:80]
        pieces = Pieces(blocks={name: f"def {name}():\n    return {definition.text!r}"})
    else:
        pieces, name = _recovered(definition.fn)
    entry: dict[str, Any] = {
        "function": Code(name),
        "uri": definition.uri,
        "name": definition.name,
        "title": definition.title,
        "description": definition.description,
        "mime_type": definition.mime_type,
        "icons": [icon.to_mcp() for icon in definition.icons] or None,
        "meta": app_meta(definition),
        "complete": _completers(definition.completers, pieces),
    }
    return pieces, _kept(entry)


def prompt_pieces(definition: PromptDefinition, index: int) -> tuple[Pieces, dict[str, Any]]:
    """The code a prompt needs and its entry in ``_WB_PROMPTS``."""
    if definition.template is not None:
        name = f"_wb_prompt_{index}_{_UNSAFE.sub('_', definition.name)}"[:80]
        names = [argument.name for argument in definition.arguments]
        parameters = ", ".join(f"{n}: str" for n in names)
        filled = ", ".join(f"{n}={n}" for n in names)
        code = (
            f"def {name}({parameters}) -> str:\n    return {definition.template!r}.format({filled})"
        )
        pieces = Pieces(blocks={name: code})
    else:
        pieces, name = _recovered(definition.fn)
    entry: dict[str, Any] = {
        "function": Code(name),
        "name": definition.name,
        "title": definition.title,
        "description": definition.description,
        "icons": [icon.to_mcp() for icon in definition.icons] or None,
        "complete": _completers(definition.completers, pieces),
    }
    return pieces, _kept(entry)


def offer_listings(resources: list[dict[str, Any]], prompts: list[dict[str, Any]]) -> str:
    """``_WB_RESOURCES`` and ``_WB_PROMPTS`` as Python literals."""

    def rows(entries: list[dict[str, Any]]) -> str:
        made = [pprint.pformat(e, sort_dicts=False, width=92) for e in entries]
        return "".join(f"    {row.replace(chr(10), chr(10) + '    ')},\n" for row in made)

    return (
        "# The notebook's resources and prompts, and the function each runs.\n"
        f"_WB_RESOURCES = [\n{rows(resources)}]\n_WB_PROMPTS = [\n{rows(prompts)}]"
    )


def _recovered(fn: Callable[..., Any]) -> tuple[Pieces, str]:
    pieces = recover(fn)
    return pieces, fn.__name__


def _completers(completers: Mapping[str, Any], pieces: Pieces) -> dict[str, Any]:
    written: dict[str, Any] = {}
    for argument, completer in completers.items():
        if not callable(completer):
            written[argument] = list(completer)
            continue
        try:
            found = recover(completer)
        except Unrecoverable as why:
            raise Unrecoverable(f"the completer of {argument}: {why}") from None
        pieces.imports.update(found.imports)
        pieces.constants.update(found.constants)
        pieces.blocks.update(found.blocks)
        written[argument] = Code(completer.__name__)
    return written


def _kept(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if value not in (None, {}, "")}


OFFERS_RUNTIME = '''
def _wb_add_offers(server, resources, prompts):
    """Register the resources and prompts above with FastMCP's own decorators."""
    import functools
    import inspect
    import json

    import mcp.types
    import pydantic
    from fastmcp.prompts import Message
    from fastmcp.resources import ResourceContent, ResourceResult

    block = pydantic.TypeAdapter(mcp.types.ContentBlock)

    def contents(value, mime, meta=None):
        if isinstance(value, str):
            return ResourceResult([ResourceContent(value, mime or "text/plain", meta=meta)])
        if isinstance(value, (bytes, bytearray)):
            blob = ResourceContent(bytes(value), mime or "application/octet-stream")
            return ResourceResult([blob])
        dump = getattr(value, "model_dump", None)
        text = json.dumps(dump(mode="json") if dump else value, indent=2, ensure_ascii=False)
        return ResourceResult([ResourceContent(text, mime or "application/json")])

    def message(item):
        role = "user"
        if isinstance(item, tuple) and len(item) == 2:
            role, item = item
        elif isinstance(item, dict) and "role" in item:
            role, item = item["role"], item.get("content", item.get("text", ""))
        dump = getattr(item, "model_dump", None)
        if dump is not None:
            item = dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(item, dict):
            kind = item.get("type", "text")
            item = item.get("text", "") if kind == "text" else block.validate_python(item)
        return Message(item, role=role)

    def messages(value):
        if isinstance(value, (str, tuple, dict)) or hasattr(value, "model_dump"):
            value = [value]
        return [message(item) for item in value]

    def wrapped(fn, convert):
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run(*args, **kwargs):
                return convert(await fn(*args, **kwargs))
        else:

            @functools.wraps(fn)
            def run(*args, **kwargs):
                return convert(fn(*args, **kwargs))

        run.__annotations__ = {k: v for k, v in run.__annotations__.items() if k != "return"}
        return run

    def icons(entry):
        return [mcp.types.Icon.model_validate(icon) for icon in entry.get("icons", ())] or None

    completers = {}
    for entry in resources:
        mime, meta = entry.get("mime_type"), entry.get("meta")
        read = wrapped(entry["function"], lambda value, m=mime, t=meta: contents(value, m, t))
        server.resource(
            entry["uri"],
            name=entry.get("name"),
            title=entry.get("title"),
            description=entry.get("description"),
            mime_type=mime,
            icons=icons(entry),
            meta=meta,
        )(read)
        if entry.get("complete"):
            completers[("template", entry["uri"])] = entry["complete"]
    for entry in prompts:
        server.prompt(
            name=entry["name"],
            title=entry.get("title"),
            description=entry.get("description"),
            icons=icons(entry),
        )(wrapped(entry["function"], messages))
        if entry.get("complete"):
            completers[("prompt", entry["name"])] = entry["complete"]

    async def complete(ref, argument, context):
        key = ("prompt", ref.name) if hasattr(ref, "name") else ("template", ref.uri)
        completer = completers.get(key, {}).get(argument.name)
        if completer is None:
            return []
        if not callable(completer):
            typed = argument.value.casefold()
            return [value for value in completer if value.casefold().startswith(typed)]
        given = dict(context.arguments or {}) if context is not None else {}
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = [p for p in inspect.signature(completer).parameters.values() if p.kind in kinds]
        found = completer(argument.value, given) if len(params) >= 2 else completer(argument.value)
        if inspect.isawaitable(found):
            found = await found
        return [str(value) for value in (found or [])][:100]

    if completers:
        server.add_completion_handler(complete)
'''
"""Defines ``_wb_add_offers(server, resources, prompts)``; everything else is local to it."""


def gather(
    resources: Sequence[ResourceDefinition],
    prompts: Sequence[PromptDefinition],
    merge: Callable[[Pieces], None],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str], list[tuple[str, str]]]:
    """Each resource's and prompt's entry, its code given to ``merge`` (which raises
    Unrecoverable when a name would mean two things); what was written, and what was
    skipped with why (``(uri or name, reason)``)."""
    resource_entries: list[dict[str, Any]] = []
    prompt_entries: list[dict[str, Any]] = []
    written: list[str] = []
    skipped: list[tuple[str, str]] = []
    for index, definition in enumerate(resources):
        try:
            pieces, entry = resource_pieces(definition, index)
            merge(pieces)
        except Unrecoverable as why:
            skipped.append((definition.uri, str(why)))
            continue
        resource_entries.append(entry)
        written.append(definition.uri)
    for index, prompt in enumerate(prompts):
        try:
            pieces, entry = prompt_pieces(prompt, index)
            merge(pieces)
        except Unrecoverable as why:
            skipped.append((prompt.name, str(why)))
            continue
        prompt_entries.append(entry)
        written.append(prompt.name)
    return resource_entries, prompt_entries, written, skipped
