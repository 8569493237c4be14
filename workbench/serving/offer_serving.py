"""A served surface's resources and prompts: which the filters show, who subscribed, and the
notifications a re-run cell sends.

Filters: a resource is matched by its URI (a template by its URI template) or its name, a
prompt by its name; ``exclude`` naming either hides it, and ``expose`` (when given) must name
one of them. ``allow_tools`` is about tools only. Notifications reach both eras, like the
tools' (``Announcer``): ``notifications/resources/list_changed`` and
``notifications/prompts/list_changed`` on handshake-era sessions and on 2026-07-28 listen
streams that asked for them; ``notifications/resources/updated`` to the handshake-era
sessions that sent ``resources/subscribe`` for the URI and to listen streams whose
``resourceSubscriptions`` name it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any

import mcp_types
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
)

from workbench.serving.app_serving import Definitions, app_shown
from workbench.serving.offer_components import Offer, OffersProvider, Shows
from workbench.serving.offer_table import OfferChange, OfferTable
from workbench.serving.surface import Surface
from workbench.tools.prompt_definition import PromptDefinition


def keys_of(offer: Offer) -> tuple[str, ...]:
    """The names a filter may give an offer by."""
    if isinstance(offer, PromptDefinition):
        return (offer.name,)
    return (offer.uri, offer.name)


def shown_by(surface: Surface, definitions: Definitions | None = None) -> Shows:
    """The surface's expose/exclude rules, for resources and prompts; with ``definitions``,
    a notebook App goes with the served tools that name it (``app_serving.py``)."""

    def shows(offer: Offer) -> bool:
        keys = keys_of(offer)
        if definitions is not None and not isinstance(offer, PromptDefinition):
            app = app_shown(offer.uri, keys, surface, definitions)
            if app is not None:
                return app
        if any(key in surface.exclude for key in keys):
            return False
        return surface.expose is None or any(key in surface.expose for key in keys)

    return shows


def offer_names(table: Callable[[], OfferTable | None]) -> list[str]:
    """Every name a filter may know an offer by (for the unknown-name warnings)."""
    found = table()
    if found is None:
        return []
    offers: list[Offer] = [*found.resources.values(), *found.prompts.values()]
    return [key for offer in offers for key in keys_of(offer)]


class OfferNotices:
    """Handshake-era resource subscriptions, and the notifications of a change."""

    def __init__(self, provider: OffersProvider) -> None:
        self.provider = provider
        self._subscribers: dict[str, weakref.WeakSet[ServerSession]] = {}

    def install(self, low_level: Any) -> None:
        """Serve ``resources/subscribe`` and ``resources/unsubscribe`` (handshake era)."""
        low_level.add_request_handler(
            "resources/subscribe", mcp_types.SubscribeRequestParams, self._subscribe
        )
        low_level.add_request_handler(
            "resources/unsubscribe", mcp_types.UnsubscribeRequestParams, self._unsubscribe
        )

    async def _subscribe(
        self, ctx: ServerRequestContext[Any], params: mcp_types.SubscribeRequestParams
    ) -> mcp_types.EmptyResult:
        self._subscribers.setdefault(str(params.uri), weakref.WeakSet()).add(ctx.session)
        return mcp_types.EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any], params: mcp_types.UnsubscribeRequestParams
    ) -> mcp_types.EmptyResult:
        self._subscribers.get(str(params.uri), weakref.WeakSet()).discard(ctx.session)
        return mcp_types.EmptyResult()

    def subscribers(self, uri: str) -> list[ServerSession]:
        return list(self._subscribers.get(uri, ()))

    async def announce(
        self,
        change: OfferChange,
        sessions: Iterable[ServerSession],
        bus: InMemorySubscriptionBus,
    ) -> None:
        """Tell clients what ``change`` did; best effort (a gone session is skipped)."""
        sessions = list(sessions)
        for session in sessions:
            if change.resources_changed:
                await _quietly(session.send_resource_list_changed())
            if change.prompts_changed:
                await _quietly(session.send_prompt_list_changed())
        if change.resources_changed:
            await bus.publish(ResourcesListChanged())
        if change.prompts_changed:
            await bus.publish(PromptsListChanged())
        for uri in change.replaced_resources:
            for session in self.subscribers(uri):
                await _quietly(session.send_resource_updated(uri))
            await bus.publish(ResourceUpdated(uri=uri))


async def _quietly(send: Any) -> None:
    try:
        await send
    except Exception:  # a session that went away meanwhile
        return
