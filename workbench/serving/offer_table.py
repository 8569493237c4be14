"""The notebook's resources, resource templates and prompts, and which source defined each.

Kept beside the tools' table of ``LocalServer``: a cell owns what it defined, so re-running it
replaces its resources and prompts and drops those it no longer defines. Resources are keyed
by URI (a template by its URI template), prompts by name. No MCP here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from workbench.tools.prompt_definition import PromptDefinition
from workbench.tools.resource_definition import ResourceDefinition


@dataclass
class OfferChange:
    """What a change did: the URIs and prompt names dropped, and the resources whose
    definition was replaced (their subscribers are told they were updated)."""

    removed_resources: list[str] = field(default_factory=list)
    removed_prompts: list[str] = field(default_factory=list)
    replaced_resources: list[str] = field(default_factory=list)
    resources_changed: bool = False
    prompts_changed: bool = False


class OfferTable:
    """Resources by URI and prompts by name, each with its owner."""

    def __init__(self) -> None:
        self.resources: dict[str, ResourceDefinition] = {}
        self.prompts: dict[str, PromptDefinition] = {}
        self._resource_owners: dict[str, str] = {}
        self._prompt_owners: dict[str, str] = {}

    def resource_owner(self, uri: str) -> str | None:
        return self._resource_owners.get(uri)

    def prompt_owner(self, name: str) -> str | None:
        return self._prompt_owners.get(name)

    def add(
        self,
        resources: Iterable[ResourceDefinition] = (),
        prompts: Iterable[PromptDefinition] = (),
        owner: str = "",
    ) -> OfferChange:
        """Add or replace resources and prompts."""
        change = OfferChange()
        for definition in resources:
            if definition.uri in self.resources:
                change.replaced_resources.append(definition.uri)
            self.resources[definition.uri] = definition
            self._resource_owners[definition.uri] = owner
            change.resources_changed = True
        for prompt in prompts:
            self.prompts[prompt.name] = prompt
            self._prompt_owners[prompt.name] = owner
            change.prompts_changed = True
        return change

    def remove_resource(self, uri: str) -> bool:
        if self._resource_owners.pop(uri, None) is None:
            return False
        del self.resources[uri]
        return True

    def remove_prompt(self, name: str) -> bool:
        if self._prompt_owners.pop(name, None) is None:
            return False
        del self.prompts[name]
        return True

    def replace_owned(
        self,
        owner: str,
        resources: Iterable[ResourceDefinition],
        prompts: Iterable[PromptDefinition],
    ) -> OfferChange:
        """Make these the resources and prompts of ``owner`` (a cell): what it defined
        before and no longer defines is dropped."""
        fresh_resources, fresh_prompts = list(resources), list(prompts)
        keep_uris = {d.uri for d in fresh_resources}
        keep_names = {p.name for p in fresh_prompts}
        dropped_uris = sorted(
            uri for uri, o in self._resource_owners.items() if o == owner and uri not in keep_uris
        )
        dropped_names = sorted(
            n for n, o in self._prompt_owners.items() if o == owner and n not in keep_names
        )
        for uri in dropped_uris:
            self.remove_resource(uri)
        for name in dropped_names:
            self.remove_prompt(name)
        change = self.add(fresh_resources, fresh_prompts, owner)
        change.removed_resources = dropped_uris
        change.removed_prompts = dropped_names
        change.resources_changed = change.resources_changed or bool(dropped_uris)
        change.prompts_changed = change.prompts_changed or bool(dropped_names)
        return change
