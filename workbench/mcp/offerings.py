"""What a server offers besides tools, through one Connection: resources, templates,
prompts, completions, ping and the server's log level.

Coroutines for the bridge loop. MCP's types stop here: callers get ``workbench.features``
data, a resource read an Observation (its contents as embedded resources), and failures a
``RequestFailedError`` in words (a read's failure is an error Observation, like a call's).
"""

from __future__ import annotations

import functools
import time
from typing import Any

from workbench.errors import RequestFailedError
from workbench.features.prompts import Prompt, PromptArgument, PromptMessage, PromptResult
from workbench.features.resources import Page, Resource, ResourceTemplate
from workbench.mcp.connection import Connection
from workbench.mcp.quiet import quiet_handshake_era_requests
from workbench.tools.icons import icons_of
from workbench.tools.schema import ErrorKind, Observation

SESSIONLESS = "2026-07-28"
"""The first MCP version without sessions: no logging/setLevel, no resources/subscribe."""
MAX_PAGES = 100
"""Pages followed when every item is asked for: a server whose cursors never end stops here."""


def offers(connection: Connection, capability: str) -> bool:
    """Whether the server advertised ``capability`` (``resources``, ``prompts``,
    ``completions``, ``logging``) at the handshake."""
    return capability in connection.capabilities


def _check(connection: Connection, capability: str, what: str) -> None:
    if not offers(connection, capability):
        raise RequestFailedError(f"{connection.name!r} offers no {what}.")


async def list_resources(
    connection: Connection, *, cursor: str | None = None, all_pages: bool = True
) -> Page[Resource]:
    _check(connection, "resources", "resources")
    return await _pages(
        connection,
        "resources/list",
        lambda client, at: client.list_resources_mcp(cursor=at),
        lambda result: [_resource(connection.name, r) for r in result.resources],
        cursor,
        all_pages,
    )


async def list_templates(
    connection: Connection, *, cursor: str | None = None, all_pages: bool = True
) -> Page[ResourceTemplate]:
    _check(connection, "resources", "resources")
    return await _pages(
        connection,
        "resources/templates/list",
        lambda client, at: client.list_resource_templates_mcp(cursor=at),
        lambda result: [_template(connection.name, t) for t in result.resource_templates],
        cursor,
        all_pages,
    )


async def read_resource(
    connection: Connection, uri: str, *, timeout: float | None = None
) -> Observation:
    """The resource's contents as an Observation; a failure is an error Observation."""
    started = time.perf_counter()
    try:
        result = await connection.request(
            f"reading {uri}", lambda client: client.read_resource_mcp(uri), timeout
        )
    except RequestFailedError as error:
        return Observation.error(
            ErrorKind.TOOL_ERROR, str(error), duration=time.perf_counter() - started
        )
    content = [
        {
            "type": "resource",
            "resource": item.model_dump(mode="json", by_alias=True, exclude_none=True),
        }
        for item in result.contents
    ]
    return Observation.model_validate(
        {"content": content, "duration": time.perf_counter() - started}
    )


async def subscribe(connection: Connection, uri: str, *, on: bool = True) -> None:
    """Ask the server to send ``notifications/resources/updated`` for ``uri`` (or stop)."""
    subscribable = connection.capabilities.get("resources", {})
    if not (isinstance(subscribable, dict) and subscribable.get("subscribe")):
        raise RequestFailedError(f"{connection.name!r} does not offer resource subscriptions.")

    async def send(client: Any) -> Any:
        quiet_handshake_era_requests()  # again: a test's warning filters are its own
        if on:
            return await client.session.subscribe_resource(uri)
        return await client.session.unsubscribe_resource(uri)

    await connection.request("resources/subscribe" if on else "resources/unsubscribe", send)


async def list_prompts(
    connection: Connection, *, cursor: str | None = None, all_pages: bool = True
) -> Page[Prompt]:
    _check(connection, "prompts", "prompts")
    return await _pages(
        connection,
        "prompts/list",
        lambda client, at: client.list_prompts_mcp(cursor=at),
        lambda result: [_prompt(connection.name, p) for p in result.prompts],
        cursor,
        all_pages,
    )


async def get_prompt(
    connection: Connection, name: str, arguments: dict[str, str], *, timeout: float | None = None
) -> PromptResult:
    started = time.perf_counter()
    result = await connection.request(
        f"prompts/get {name}", lambda client: client.get_prompt_mcp(name, arguments), timeout
    )
    messages = [
        PromptMessage.model_validate(m.model_dump(mode="json", by_alias=True, exclude_none=True))
        for m in result.messages
    ]
    return PromptResult(
        server=connection.name,
        name=name,
        arguments=arguments,
        description=result.description,
        messages=messages,
        duration=time.perf_counter() - started,
    )


async def complete(
    connection: Connection,
    ref: tuple[str, str],
    argument: str,
    value: str,
    context: dict[str, str] | None = None,
) -> list[str]:
    """The server's suggestions for ``argument`` of a prompt (``("prompt", name)``) or a
    resource template (``("template", uri_template)``); empty when it offers none."""
    if not offers(connection, "completions"):
        return []
    import mcp_types

    kind, name = ref
    reference: Any = (
        mcp_types.PromptReference(type="ref/prompt", name=name)
        if kind == "prompt"
        else mcp_types.ResourceTemplateReference(type="ref/resource", uri=name)
    )
    completion = await connection.request(
        "completion/complete",
        lambda client: client.complete(
            reference, {"name": argument, "value": value}, context_arguments=context or None
        ),
        timeout=10.0,
    )
    return list(completion.values)


async def ping(connection: Connection) -> float:
    """The round trip of a ping in seconds (the newest protocol drops ping: tools/list then)."""
    started = time.perf_counter()

    async def send(client: Any) -> Any:
        try:
            return await client.ping()
        except Exception as error:
            if "Method not found" not in str(error):
                raise
            return await client.list_tools_mcp()

    await connection.request("ping", send, timeout=10.0)
    return time.perf_counter() - started


async def roots_changed(connection: Connection) -> None:
    """Tell the server the roots changed (it asks ``roots/list`` again)."""

    async def send(client: Any) -> Any:
        quiet_handshake_era_requests()  # again: a test's warning filters are its own
        return await client.send_roots_list_changed()

    await connection.request("notifications/roots/list_changed", send, timeout=10.0)


async def set_log_level(connection: Connection, level: str) -> None:
    """Ask the server to send log messages at ``level`` and above (``logging/setLevel``)."""
    _check(connection, "logging", "log level setting")
    version = connection.protocol_version
    if version is not None and version >= SESSIONLESS:
        raise RequestFailedError(
            f"{connection.name!r} speaks MCP {version}, which has no logging/setLevel (a "
            f"server keeps no level per session). wb.log_level = {level!r} chooses which of "
            "the log messages it sends are shown."
        )

    async def send(client: Any) -> Any:
        quiet_handshake_era_requests()  # again: a test's warning filters are its own
        return await client.set_logging_level(level)

    await connection.request("logging/setLevel", send, timeout=10.0)


# -- conversions ---------------------------------------------------------------------------


async def _pages(
    connection: Connection,
    what: str,
    fetch: Any,
    items_of: Any,
    cursor: str | None,
    all_pages: bool,
) -> Page[Any]:
    items: list[Any] = []
    for _ in range(MAX_PAGES if all_pages else 1):
        result = await connection.request(what, functools.partial(fetch, at=cursor))
        items.extend(items_of(result))
        cursor = result.next_cursor
        if not cursor:
            break
    return Page(items, cursor or None)


def _resource(server: str, item: Any) -> Resource:
    return Resource(
        server=server,
        uri=str(item.uri),
        name=item.name,
        title=getattr(item, "title", None),
        description=item.description,
        mime_type=item.mime_type,
        size=getattr(item, "size", None),
        icons=icons_of(getattr(item, "icons", None)),
    )


def _template(server: str, item: Any) -> ResourceTemplate:
    return ResourceTemplate(
        server=server,
        uri_template=str(item.uri_template),
        name=item.name,
        title=getattr(item, "title", None),
        description=item.description,
        mime_type=item.mime_type,
        icons=icons_of(getattr(item, "icons", None)),
    )


def _prompt(server: str, item: Any) -> Prompt:
    arguments = tuple(
        PromptArgument(a.name, a.description, bool(a.required)) for a in item.arguments or []
    )
    icons = icons_of(getattr(item, "icons", None))
    title = getattr(item, "title", None)
    return Prompt(server, item.name, title, item.description, arguments, icons=icons)
