"""The Workbench's methods for what servers offer besides tools, and for what the client
answers them: resources, templates, prompts, completions, subscriptions, elicitation,
sampling, roots, ping and per-server log levels.

A mixin of ``Workbench`` (``workbench.py``), kept apart so each file has one family. Listings
ask every connected server that offers the feature at once; a read is recorded in the history
like a call (``kind="resource"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from workbench.errors import InvalidArgumentsError, RequestFailedError, WorkbenchError
from workbench.features import uri_template
from workbench.features.asking import ElicitationHandler, SamplingHandler
from workbench.features.log_levels import LOG_LEVELS
from workbench.features.prompts import Prompt, PromptList, PromptResult
from workbench.features.resources import ResourceList, ResourceTemplate, TemplateList
from workbench.listeners import Listeners
from workbench.mcp import offerings
from workbench.mcp.connection import Connection, ServerChange, Status
from workbench.tools.schema import ErrorKind, Observation

if TYPE_CHECKING:
    from workbench.bridge import Bridge
    from workbench.history import History
    from workbench.mcp.answers import Asker, ClientAnswers
    from workbench.mcp.manager import ConnectionManager, ServerInfo

T = TypeVar("T")


class ResourceSubscription:
    """A followed resource: re-read at each ``notifications/resources/updated``.

    ``latest`` is the newest read; ``on_update(observation)`` is called on the bridge thread
    after each re-read (a display handle updating in place). ``stop()`` unsubscribes."""

    def __init__(self, owner: Offerings, server: str, uri: str, latest: Observation) -> None:
        self.server = server
        self.uri = uri
        self.latest = latest
        self.updates = 0
        self._owner = owner
        self._unfollow: Callable[[], None] | None = None
        self._listeners: Listeners[Observation] = Listeners(f"{uri}'s updates")
        self._on_update: Callable[[Observation], object] | None = None
        self._stop_calling: Callable[[], None] | None = None

    @property
    def on_update(self) -> Callable[[Observation], object] | None:
        """Called with each re-read; one that raises is warned about once, like any listener,
        and the subscription goes on."""
        return self._on_update

    @on_update.setter
    def on_update(self, listener: Callable[[Observation], object] | None) -> None:
        if self._stop_calling is not None:
            self._stop_calling()
        self._on_update = listener
        self._stop_calling = None if listener is None else self._listeners.subscribe(listener)

    def __repr__(self) -> str:
        state = "following" if self._unfollow else "stopped"
        return f"<ResourceSubscription {self.server}:{self.uri} {state}, {self.updates} updates>"

    def stop(self) -> None:
        """Stop following and tell the server (once)."""
        unfollow, self._unfollow = self._unfollow, None
        if unfollow is None:
            return
        unfollow()
        with contextlib.suppress(WorkbenchError):
            self._owner._unsubscribe(self.server, self.uri)


class Offerings:
    """Resources, prompts, completions and client answers: mixed into ``Workbench``."""

    if TYPE_CHECKING:
        history: History
        _bridge: Bridge
        _manager: ConnectionManager
        _answers: ClientAnswers
        _changes: Listeners[ServerChange]

        def _run(self, coro: Coroutine[Any, Any, T]) -> T: ...
        def _check_open(self) -> None: ...

    # -- resources ------------------------------------------------------------------------

    def resources(self, server: str | None = None, *, cursor: str | None = None) -> ResourceList:
        """The resources of ``server`` (every connected server that offers them when None),
        all pages followed; with ``cursor``, the one page after it (``.next_cursor``)."""
        pages = self._gather(
            server, "resources", lambda c: offerings.list_resources(c, **_paging(cursor))
        )
        return ResourceList(*pages)

    def resource_templates(
        self, server: str | None = None, *, cursor: str | None = None
    ) -> TemplateList:
        """The resource templates (URIs with ``{variables}``) of ``server`` or of all."""
        pages = self._gather(
            server, "resources", lambda c: offerings.list_templates(c, **_paging(cursor))
        )
        return TemplateList(*pages)

    def read_resource(
        self,
        uri: str,
        *,
        server: str | None = None,
        timeout: float | None = None,
        **arguments: Any,
    ) -> Observation:
        """Read a resource; a template's ``{variables}`` come from ``arguments``. Never
        raises for a failed read: the Observation says why. Recorded in the history."""
        self._check_open()
        values = {k: v for k, v in arguments.items() if v is not None}
        if "{" in uri:
            missing = uri_template.missing(uri, values)
            if missing:
                problems = [(name, "required but missing") for name in missing]
                message = str(InvalidArgumentsError(uri, problems))
                return self.history.record_read(uri, server or "", values, _refused(message))
            uri = uri_template.expand(uri, values)
        try:
            connection = self._resource_owner(uri, server)
        except WorkbenchError as error:
            refused = _refused(str(error), "not_found")
            return self.history.record_read(uri, server or "", values, refused)
        observation = self._run(offerings.read_resource(connection, uri, timeout=timeout))
        return self.history.record_read(uri, connection.name, values, observation)

    def subscribe_resource(
        self,
        uri: str,
        *,
        server: str | None = None,
        on_update: Callable[[Observation], object] | None = None,
    ) -> ResourceSubscription:
        """Follow a resource: read it now, then again at each update the server announces."""
        latest = self.read_resource(uri, server=server)
        connection = self._resource_owner(uri, server)
        subscription = ResourceSubscription(self, connection.name, uri, latest)
        subscription.on_update = on_update
        self._run(offerings.subscribe(connection, uri))

        def changed(change: ServerChange) -> None:
            if change.what == "resource" and change.server == connection.name and change.uri == uri:
                self._bridge.submit(self._reread(subscription))

        subscription._unfollow = self._changes.subscribe(changed)
        return subscription

    def subscribe_changes(self, listener: Callable[[ServerChange], object]) -> Callable[[], None]:
        """Follow what servers announce: their resources or prompts changed (``what`` is
        ``resources`` or ``prompts``) or one resource was updated (``resource``, ``uri``).
        Called on the bridge thread; returns the function that stops following."""
        return self._changes.subscribe(listener)

    # -- prompts --------------------------------------------------------------------------

    def prompts(self, server: str | None = None, *, cursor: str | None = None) -> PromptList:
        """The prompts of ``server`` (or of every connected server that offers them)."""
        pages = self._gather(
            server, "prompts", lambda c: offerings.list_prompts(c, **_paging(cursor))
        )
        return PromptList(*pages)

    def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        server: str | None = None,
        timeout: float | None = None,
    ) -> PromptResult:
        """Get a prompt's messages. ``name`` may be ``server.prompt``. Required arguments
        are checked before the round trip (InvalidArgumentsError names the missing ones)."""
        self._check_open()
        prompt = self._find_prompt(name, server)
        given = {key: _as_text(value) for key, value in (arguments or {}).items()}
        problems = [(arg, "required but missing") for arg in prompt.missing(given)]
        problems += [(arg, "not an argument of this prompt") for arg in prompt.unknown(given)]
        if problems:
            raise InvalidArgumentsError(f"{prompt.server}.{prompt.name}", problems)
        connection = self._connection(prompt.server)
        return self._run(offerings.get_prompt(connection, prompt.name, given, timeout=timeout))

    # -- completions ----------------------------------------------------------------------

    def complete(
        self,
        target: str,
        argument: str,
        value: str = "",
        *,
        server: str | None = None,
        context: Mapping[str, str] | None = None,
    ) -> list[str]:
        """What the server suggests for ``argument`` of a prompt (``target`` is its name or
        ``server.prompt``) or a resource template (``target`` is the template URI), given
        the ``value`` typed so far; empty when the server offers no completions."""
        self._check_open()
        if "{" in target:
            template = self._find_template(target, server)
            connection = self._connection(template.server)
            ref = ("template", template.uri_template)
        else:
            prompt = self._find_prompt(target, server)
            connection = self._connection(prompt.server)
            ref = ("prompt", prompt.name)
        return self._run(offerings.complete(connection, ref, argument, value, dict(context or {})))

    # -- what the client answers ----------------------------------------------------------

    def on_elicitation(self, handler: ElicitationHandler | None) -> None:
        """Answer servers' questions (``elicitation/create``) with ``handler(request)``,
        which returns a dict (accept with it), None (decline) or an ElicitationAnswer; sync
        handlers run in a worker thread. None gives the questions back to the person."""
        self._answers.elicitation = handler

    def on_sampling(self, handler: SamplingHandler | None) -> None:
        """Answer servers' LLM requests (``sampling/createMessage``) with
        ``handler(request)``, which returns the reply text (or a SamplingReply); None
        declines. None gives the requests back to the person."""
        self._answers.sampling = handler

    def ask_people_with(self, asker: Asker | None) -> None:
        """Let ``asker`` put servers' questions to the person at the notebook when no handler
        answers them (the kernel installs a form in the calling cell), unless the run is
        unattended (``attended.py``: then declined at once, with a note); None: nobody, and
        they are declined with a warning, as in a script."""
        from workbench.session.attended import unattended

        self._answers.asker = asker
        self._answers.unattended = unattended if asker is not None else None

    @property
    def answer_timeout(self) -> float:
        """Seconds a person has to answer a server's question; then it is declined."""
        return self._answers.timeout

    @answer_timeout.setter
    def answer_timeout(self, seconds: float) -> None:
        if not seconds > 0:
            raise WorkbenchError("answer_timeout is a positive number of seconds.")
        self._answers.timeout = float(seconds)

    @contextlib.contextmanager
    def answering(
        self,
        *,
        on_elicitation: ElicitationHandler | None = None,
        on_sampling: SamplingHandler | None = None,
    ) -> Iterator[None]:
        """Handlers for the calls started inside the block only (the browser's call panel
        answers with a form of its own); the Workbench's handlers still come first."""
        from workbench.mcp.answers import CALL_HANDLERS

        token = CALL_HANDLERS.set((on_elicitation, on_sampling))
        try:
            yield
        finally:
            CALL_HANDLERS.reset(token)

    def roots(self, roots: Iterable[str | Path] | None = None) -> list[str]:
        """The roots (folders) offered to servers; given a list, offer those instead and
        tell every connected server (``notifications/roots/list_changed``). Paths become
        ``file://`` URIs. None are offered until set (roots are deprecated in MCP
        2026-07-28): a server that takes roots, such as server-filesystem, may then use only
        them, in place of the folders on its command line."""
        if roots is not None:
            self._answers.roots = [_root_uri(root) for root in roots]
            connections = self._connected()
            if connections:
                self._run(_each(offerings.roots_changed(c) for c in connections))
        return list(self._answers.roots)

    # -- servers --------------------------------------------------------------------------

    def ping(self, server: str) -> float:
        """Seconds a round trip to ``server`` takes (RequestFailedError if it does not answer)."""
        self._check_open()
        return self._run(offerings.ping(self._connection(server)))

    def set_server_log_level(self, server: str, level: str) -> None:
        """Ask ``server`` to send log messages at ``level`` and above (``logging/setLevel``);
        ``log_level`` is what the workbench shows of what arrives."""
        self._check_open()
        if level not in LOG_LEVELS:
            raise WorkbenchError(
                f"Unknown log level {level!r}; use one of {', '.join(LOG_LEVELS)}."
            )
        self._run(offerings.set_log_level(self._connection(server), level))

    async def _pinged(self) -> list[ServerInfo]:
        rows = self._manager.info()

        async def timed(row: ServerInfo) -> ServerInfo:
            if row.status != Status.CONNECTED.value or row.name not in self._manager:
                return row
            try:
                return _with_ping(row, await offerings.ping(self._manager.get(row.name)))
            except WorkbenchError:
                return row

        return list(await asyncio.gather(*(timed(row) for row in rows)))

    # -- internals ------------------------------------------------------------------------

    def _connection(self, server: str) -> Connection:
        return self._manager.get(server)

    def _connected(self) -> list[Connection]:
        return [
            self._manager.get(row.name)
            for row in self._manager.info()
            if row.status == Status.CONNECTED.value and row.name in self._manager
        ]

    def _gather(
        self,
        server: str | None,
        capability: str,
        fetch: Callable[[Connection], Coroutine[Any, Any, Any]],
    ) -> tuple[list[Any], str | None, dict[str, str]]:
        """Items of one server, or of every connected one offering ``capability``: (items,
        next cursor, failures by server). One server's failure raises; of all, it is noted."""
        self._check_open()
        if server is not None:
            page = self._run(fetch(self._connection(server)))
            return page.items, page.next_cursor, {}
        connections = [c for c in self._connected() if offerings.offers(c, capability)]
        results = self._run(_each(fetch(c) for c in connections))
        items: list[Any] = []
        failed: dict[str, str] = {}
        for connection, result in zip(connections, results, strict=True):
            if isinstance(result, BaseException):
                failed[connection.name] = str(result)
            else:
                items.extend(result.items)
        return items, None, failed

    def _resource_owner(self, uri: str, server: str | None) -> Connection:
        """The server a URI belongs to: the one given, the one listing it (or a template it
        fits), or the only connected server with resources."""
        if server is not None:
            return self._connection(server)
        candidates = [c for c in self._connected() if offerings.offers(c, "resources")]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise RequestFailedError("No connected server offers resources.")
        listed = {r.server for r in self.resources() if r.uri == uri}
        if not listed:
            templates = self.resource_templates()
            listed = {t.server for t in templates if uri_template.matches(t.uri_template, uri)}
        if len(listed) == 1:
            return self._connection(listed.pop())
        names = ", ".join(sorted(listed or {c.name for c in candidates}))
        raise RequestFailedError(f"Which server is {uri} on? Give server= (one of: {names}).")

    def _find_prompt(self, name: str, server: str | None) -> Prompt:
        if server is None and "." in name:
            head, _, rest = name.partition(".")
            if head in self._manager:
                server, name = head, rest
        found = [p for p in self.prompts(server) if p.name == name]
        if len(found) == 1:
            return found[0]
        if not found:
            raise RequestFailedError(
                f"No prompt named {name!r}" + (f" on {server!r}." if server else ".")
            )
        servers = ", ".join(sorted(p.server for p in found))
        raise RequestFailedError(
            f"{name!r} is a prompt of several servers ({servers}); give server=."
        )

    def _find_template(self, uri_template_text: str, server: str | None) -> ResourceTemplate:
        found = [t for t in self.resource_templates(server) if t.uri_template == uri_template_text]
        if not found:
            raise RequestFailedError(f"No resource template {uri_template_text}.")
        return found[0]

    async def _reread(self, subscription: ResourceSubscription) -> None:
        connection = self._manager.get(subscription.server)
        observation = await offerings.read_resource(connection, subscription.uri)
        subscription.latest = observation.model_copy(update={"tool_id": subscription.uri})
        subscription.updates += 1
        subscription._listeners.notify(subscription.latest)

    def _unsubscribe(self, server: str, uri: str) -> None:
        if server in self._manager:
            self._run(offerings.subscribe(self._manager.get(server), uri, on=False))


async def _each(coros: Iterable[Coroutine[Any, Any, T]]) -> list[T | BaseException]:
    return list(await asyncio.gather(*coros, return_exceptions=True))


def _paging(cursor: str | None) -> dict[str, Any]:
    return {"cursor": cursor, "all_pages": cursor is None}


def _refused(message: str, kind: str = "invalid_arguments") -> Observation:
    return Observation.error(ErrorKind(kind), message, duration=0.0)


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _root_uri(root: str | Path) -> str:
    text = str(root)
    if "://" in text:
        return text
    return Path(text).expanduser().resolve().as_uri()


def _with_ping(row: ServerInfo, seconds: float) -> ServerInfo:
    import dataclasses

    return dataclasses.replace(row, ping=seconds)
