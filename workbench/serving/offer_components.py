"""The notebook's resources, templates and prompts as FastMCP serves them, read at each request.

``OffersProvider`` reads an ``OfferTable`` whenever a client lists or reads, so a re-run cell
is served at once, on the in-kernel ``notebook`` server and on a served surface alike (which
passes ``shows`` to hide what its filters keep out: hidden is neither listed nor readable).
Notebook functions run where notebook tools run: sync ones in a worker thread, async ones on
the kernel's loop when it is free (``run_in_notebook``), never on the bridge's loop.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import mcp_types
from fastmcp.prompts import Message as FastMessage
from fastmcp.prompts import Prompt, PromptResult
from fastmcp.prompts.base import InputRequiredPromptResult
from fastmcp.prompts.base import PromptArgument as FastArgument
from fastmcp.resources import Resource, ResourceContent, ResourceResult, ResourceTemplate
from fastmcp.server.providers import Provider
from fastmcp.utilities.versions import VersionSpec
from mcp.shared.exceptions import MCPError
from pydantic import PrivateAttr, TypeAdapter

from workbench.bridge import run_in_notebook
from workbench.serving.offer_table import OfferTable
from workbench.serving.prompt_asking import asked_render
from workbench.serving.rounds import Rounds
from workbench.tools.app_definition import APP_MIME_TYPE, app_missing, app_name_of
from workbench.tools.completion import finish, start_completion
from workbench.tools.icons import Icon
from workbench.tools.prompt_definition import PromptDefinition
from workbench.tools.resource_definition import ResourceDefinition

Offer = ResourceDefinition | PromptDefinition
Shows = Callable[[Offer], bool]
_BLOCK: TypeAdapter[Any] = TypeAdapter(mcp_types.ContentBlock)
RESOURCE_NOT_FOUND = -32002
"""The JSON-RPC error code MCP gives an unknown resource."""


async def run_offer(fn: Callable[..., Any], label: str, arguments: Mapping[str, Any]) -> Any:
    """Call a notebook function where the notebook's objects live."""
    if not _is_async(fn):
        result = await asyncio.to_thread(lambda: fn(**arguments))
        return await result if inspect.isawaitable(result) else result
    value, _ = await run_in_notebook(lambda: fn(**arguments), label)
    return value


def _is_async(fn: Any) -> bool:
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(call)


def _result(definition: ResourceDefinition, value: Any) -> ResourceResult:
    meta = _meta(definition)
    contents = [
        ResourceContent(
            item.text if item.text is not None else item.blob or b"", item.mime_type, meta=meta
        )
        for item in definition.contents(value)
    ]
    return ResourceResult(contents)


def _meta(definition: ResourceDefinition) -> dict[str, Any] | None:
    """A resource's ``_meta``, listed and on each read (an App's ``ui``: csp, permissions)."""
    meta = getattr(definition, "meta", None)
    return dict(meta) if isinstance(meta, dict) else None


def mcp_icons(icons: Sequence[Icon]) -> list[mcp_types.Icon] | None:
    """A notebook resource's or prompt's icons as MCP lists them (None: it has none)."""
    return [mcp_types.Icon.model_validate(icon.to_mcp()) for icon in icons] or None


class DefinitionResource(Resource):
    """A notebook resource (no template variables)."""

    _definition: ResourceDefinition = PrivateAttr()

    @classmethod
    def wrap(cls, definition: ResourceDefinition) -> DefinitionResource:
        made = cls(
            uri=definition.uri,
            name=definition.name,
            title=definition.title,
            description=definition.description,
            mime_type=definition.listed_mime_type,
            icons=mcp_icons(definition.icons),
            meta=_meta(definition),
        )
        made._definition = definition
        return made

    async def _read(self) -> ResourceResult:
        definition = self._definition
        value = await run_offer(definition.fn, definition.uri, {})
        return _result(definition, value)


class MissingApp(Resource):
    """A ``ui://notebook/NAME`` no cell defines (yet): never listed; a read answers that the
    App is not defined, in words a person can act on (a tool may name an App defined later)."""

    async def _read(self) -> ResourceResult:
        raise MCPError(code=RESOURCE_NOT_FOUND, message=app_missing(str(self.uri)))


class DefinitionTemplate(ResourceTemplate):
    """A notebook resource template: its variables are the function's parameters."""

    _definition: ResourceDefinition = PrivateAttr()

    @classmethod
    def wrap(cls, definition: ResourceDefinition) -> DefinitionTemplate:
        made = cls(
            uri_template=definition.uri,
            name=definition.name,
            title=definition.title,
            description=definition.description,
            mime_type=definition.listed_mime_type,
            icons=mcp_icons(definition.icons),
            parameters={
                "type": "object",
                "properties": {v: {"type": "string"} for v in definition.variables},
            },
        )
        made._definition = definition
        return made

    async def _read(self, uri: str, params: dict[str, Any]) -> ResourceResult:
        definition = self._definition
        try:
            arguments = definition.arguments(params)
        except ValueError as error:
            raise MCPError(code=mcp_types.INVALID_PARAMS, message=str(error)) from None
        value = await run_offer(definition.fn, uri, arguments)
        return _result(definition, value)


class DefinitionPrompt(Prompt):
    """A notebook prompt: its arguments are the function's parameters."""

    _definition: PromptDefinition = PrivateAttr()
    _rounds: Rounds = PrivateAttr(default_factory=Rounds)

    @classmethod
    def wrap(cls, definition: PromptDefinition, rounds: Rounds | None = None) -> DefinitionPrompt:
        made = cls(
            name=definition.name,
            title=definition.title,
            description=definition.description,
            arguments=[
                FastArgument(name=a.name, description=a.description, required=a.required)
                for a in definition.arguments
            ],
            icons=mcp_icons(definition.icons),
        )
        made._definition = definition
        if rounds is not None:  # the provider's
            made._rounds = rounds
        return made

    async def _render(self, arguments: dict[str, Any] | None = None) -> PromptResult:
        definition = self._definition
        try:
            given = definition.check_arguments(arguments)
        except ValueError as error:
            raise MCPError(code=mcp_types.INVALID_PARAMS, message=str(error)) from None

        async def render() -> PromptResult:
            return self._result(await run_offer(definition.fn, definition.name, given))

        # get_context() inside the function asks the client (prompt_asking.py)
        result = await asked_render(definition.name, render, self._rounds)
        if isinstance(result, mcp_types.InputRequiredResult):
            return InputRequiredPromptResult(result)
        return cast("PromptResult", result)

    def _result(self, value: Any) -> PromptResult:
        definition = self._definition
        messages = [
            FastMessage(
                m.text if m.content is None else _BLOCK.validate_python(m.content),
                role="assistant" if m.role == "assistant" else "user",
            )
            for m in definition.messages(value)
        ]
        return PromptResult(messages, description=definition.description)


class OffersProvider(Provider):
    """The table's resources, templates and prompts that ``shows`` lets through."""

    def __init__(self, table: Callable[[], OfferTable | None], shows: Shows | None = None) -> None:
        super().__init__()
        self._table = table
        self._shows: Shows = shows or (lambda _offer: True)
        self._made: dict[tuple[str, str], tuple[Offer, Any]] = {}
        self.rounds = Rounds()
        """Prompt renderings waiting for a 2026-07-28 client's answers (``rounds.py``)."""

    def resources(self) -> list[ResourceDefinition]:
        """The resources and templates served now, by URI."""
        table = self._table()
        found = [] if table is None else [table.resources[u] for u in sorted(table.resources)]
        return [d for d in found if self._shows(d)]

    def prompts(self) -> list[PromptDefinition]:
        """The prompts served now, by name."""
        table = self._table()
        found = [] if table is None else [table.prompts[n] for n in sorted(table.prompts)]
        return [p for p in found if self._shows(p)]

    def any_completions(self) -> bool:
        """Whether anything served has a completer (the completions capability)."""
        offers: list[Offer] = [*self.resources(), *self.prompts()]
        return any(offer.completers for offer in offers)

    async def _list_resources(self) -> Sequence[Resource]:
        return [self._wrap("r", d) for d in self.resources() if not d.is_template]

    async def _get_resource(self, uri: str, version: VersionSpec | None = None) -> Resource | None:
        found = [d for d in self.resources() if d.uri == uri and not d.is_template]
        if not found and app_name_of(uri) is not None and not self._defines(uri):
            return MissingApp(uri=uri, name=uri, mime_type=APP_MIME_TYPE)  # defined later?
        return self._wrap("r", found[0]) if found else None

    def _defines(self, uri: str) -> bool:
        """Whether the table holds ``uri`` at all (a filter may hide it here)."""
        table = self._table()
        return table is not None and uri in table.resources

    async def _list_resource_templates(self) -> Sequence[ResourceTemplate]:
        return [self._wrap("t", d) for d in self.resources() if d.is_template]

    async def _list_prompts(self) -> Sequence[Prompt]:
        return [self._wrap("p", p) for p in self.prompts()]

    async def _get_prompt(self, name: str, version: VersionSpec | None = None) -> Prompt | None:
        found = [p for p in self.prompts() if p.name == name]
        return self._wrap("p", found[0]) if found else None

    async def complete(
        self,
        ref: mcp_types.PromptReference | mcp_types.ResourceTemplateReference,
        argument: mcp_types.CompletionArgument,
        context: mcp_types.CompletionContext | None,
    ) -> list[str]:
        """``completion/complete``: the completer of the argument asked about, or nothing
        (an unknown reference, or an argument without a completer: no candidates)."""
        offer: Offer | None = None
        if isinstance(ref, mcp_types.PromptReference):
            offer = next((p for p in self.prompts() if p.name == ref.name), None)
        else:
            offer = next((d for d in self.resources() if d.uri == ref.uri), None)
        completer = None if offer is None else offer.completers.get(argument.name)
        if completer is None:
            return []
        given = dict(context.arguments or {}) if context is not None else {}
        value = argument.value
        if callable(completer) and _is_async(completer):
            result, _ = await run_in_notebook(
                lambda: start_completion(completer, value, given), "a completer"
            )
        else:
            result = await asyncio.to_thread(start_completion, completer, value, given)
        return finish(result)

    def _wrap(self, kind: str, offer: Offer) -> Any:
        key = (kind, offer.name if isinstance(offer, PromptDefinition) else offer.uri)
        made = self._made.get(key)
        if made is None or made[0] is not offer:  # a re-run cell made a new one
            if isinstance(offer, PromptDefinition):
                component: Any = DefinitionPrompt.wrap(offer, self.rounds)
            elif kind == "t":
                component = DefinitionTemplate.wrap(offer)
            else:
                component = DefinitionResource.wrap(offer)
            made = (offer, component)
            self._made[key] = made
        return made[1]
