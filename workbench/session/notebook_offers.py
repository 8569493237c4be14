"""The Workbench's methods for the notebook's own resources, templates and prompts.

A mixin of ``Workbench``: ``@resource`` and ``@prompt`` definitions (and ``%%resource`` /
``%%prompt`` cells) live on the in-kernel ``notebook`` server beside the notebook tools, owned
per cell like them, so the notebook reads them through its ``notebook`` connection like any
server's, and ``serve()`` offers them to outside clients, who are told when a cell re-runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from workbench.mcp.connection import ServerChange
from workbench.names import LOCAL_SERVER
from workbench.tools.prompt_definition import PromptDefinition, prompt
from workbench.tools.resource_definition import ResourceDefinition

if TYPE_CHECKING:
    from workbench.listeners import Listeners
    from workbench.serving import ServeHandle
    from workbench.serving.notebook_server import LocalServer
    from workbench.serving.offer_table import OfferChange, OfferTable


class NotebookOffers:
    """Resources and prompts of the notebook's own server."""

    if TYPE_CHECKING:
        _local: LocalServer | None
        _changes: Listeners[ServerChange]

        def _local_server(self) -> LocalServer: ...

        @property
        def serving(self) -> ServeHandle | None: ...

    def add_resources(self, *resources: ResourceDefinition, owner: str = "") -> OfferChange:
        """Serve ``@resource`` definitions on the ``notebook`` server (a URI already there is
        replaced, and its subscribers told it was updated)."""
        for definition in resources:
            if not isinstance(definition, ResourceDefinition):
                raise TypeError(
                    f"add_resources takes @resource definitions, not {type(definition).__name__}."
                )
        return self._offers_changed(self._local_server().offers.add(resources, (), owner))

    def add_prompts(
        self, *prompts: PromptDefinition | Callable[..., Any], owner: str = ""
    ) -> OfferChange:
        """Serve prompts (``@prompt`` definitions, or plain functions made prompts)."""
        made = [p if isinstance(p, PromptDefinition) else prompt(p) for p in prompts]
        return self._offers_changed(self._local_server().offers.add((), made, owner))

    def set_owned_offers(
        self,
        owner: str,
        resources: Iterable[ResourceDefinition] = (),
        prompts: Iterable[PromptDefinition] = (),
    ) -> OfferChange:
        """Make these the only resources and prompts of ``owner`` (a cell): re-running a
        cell replaces them and drops the ones it no longer defines (named in the result)."""
        table = self._local_server().offers
        return self._offers_changed(table.replace_owned(owner, resources, prompts))

    def remove_resource(self, uri: str) -> bool:
        """Stop serving the notebook resource (or template) ``uri``; False if none."""
        removed = self._local is not None and self._local.offers.remove_resource(uri)
        if removed:
            from workbench.serving.offer_table import OfferChange

            self._offers_changed(OfferChange(removed_resources=[uri], resources_changed=True))
        return removed

    def remove_prompt(self, name: str) -> bool:
        """Stop serving the notebook prompt ``name``; False if none."""
        removed = self._local is not None and self._local.offers.remove_prompt(name)
        if removed:
            from workbench.serving.offer_table import OfferChange

            self._offers_changed(OfferChange(removed_prompts=[name], prompts_changed=True))
        return removed

    def resource_owner(self, uri: str) -> str | None:
        """Who defined the notebook resource ``uri``, or None."""
        return None if self._local is None else self._local.offers.resource_owner(uri)

    def prompt_owner(self, name: str) -> str | None:
        """Who defined the notebook prompt ``name``, or None."""
        return None if self._local is None else self._local.offers.prompt_owner(name)

    def notebook_resources(self) -> list[ResourceDefinition]:
        """The notebook's resources and templates, by URI."""
        table = self._offer_table()
        return [] if table is None else [table.resources[u] for u in sorted(table.resources)]

    def notebook_prompts(self) -> list[PromptDefinition]:
        """The notebook's prompts, by name."""
        table = self._offer_table()
        return [] if table is None else [table.prompts[n] for n in sorted(table.prompts)]

    def _offer_table(self) -> OfferTable | None:
        return None if self._local is None else self._local.offers

    def _offers_changed(self, change: OfferChange) -> OfferChange:
        """Tell the served surface's clients, if the notebook is served, and whoever follows
        the Workbench's server changes (``subscribe_changes``: the browser relists), as if
        the ``notebook`` server had announced it."""
        served = self.serving
        if served is not None:
            served.announce_offers(change)
        heard = [ServerChange(LOCAL_SERVER, "resource", uri) for uri in change.replaced_resources]
        if change.resources_changed:
            heard.append(ServerChange(LOCAL_SERVER, "resources"))
        if change.prompts_changed:
            heard.append(ServerChange(LOCAL_SERVER, "prompts"))
        for news in heard:
            self._changes.notify(news)
        return change
