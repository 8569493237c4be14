"""Pinned tools on a served gateway (``serve(gateway=..., pin=[...])``, ``--pin a,b``).

Deferred loading makes an agent search before it calls; a tool it needs often but finds
badly (``SearchLab.suggest_pins``) can skip the search: it is listed directly, with its full
schema, beside ``find_tools`` / ``call_tool``. A pinned tool is served under its bare name
as the registry knows it now (a reconnect's new schema is served at once; a disconnected
server's pins are simply not listed) and called by id through the Workbench's one call
path, recorded as from outside. The token meter counts what the pins cost.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from fastmcp.tools import Tool

from workbench.errors import AmbiguousToolError, ServeError, ToolNotFoundError
from workbench.names import LOCAL_SERVER
from workbench.registry import ToolEntry
from workbench.registry.proxy import TokenReport, ToolProxy
from workbench.serving.app import CallFn
from workbench.serving.relay import RelayedTool

PAIR = ("find_tools", "call_tool")


class Pins:
    """The gateway's pinned tools: ids resolved once, entries read at each request."""

    def __init__(
        self,
        proxy: ToolProxy,
        call: CallFn,
        given: Iterable[str] = (),
        *,
        taken: Collection[str] = (),
    ) -> None:
        self._proxy = proxy
        self._call = call
        self.ids = _resolve(proxy, given, taken)
        self._made: dict[str, tuple[ToolEntry, RelayedTool]] = {}

    def tools(self) -> dict[str, Tool]:
        """The pinned tools served now, by served name, in the order given."""
        served: dict[str, Tool] = {}
        for tool_id in self.ids:
            try:
                entry = self._proxy.registry.get(tool_id)
            except (ToolNotFoundError, AmbiguousToolError):
                continue  # its server is gone for now: listed again once it is back
            made = self._made.get(tool_id)
            if made is None or made[0] is not entry:  # the server listed its tools again
                made = (entry, RelayedTool.of(entry, self._call))
                self._made[tool_id] = made
            served[entry.name] = made[1]
        return served

    def token_report(self) -> TokenReport:
        """The token meter of this gateway: every schema against the pair, the pins and
        the server summary."""
        return self._proxy.token_report(
            [tool_id for tool_id in self.ids if tool_id in self._proxy.registry]
        )


def _resolve(proxy: ToolProxy, given: Iterable[str], taken: Collection[str]) -> list[str]:
    """The ids of ``given`` (ids, or bare names one visible server has), in order, once
    each; a ServeError naming every one that is unknown, ambiguous, served twice, or named
    like a tool served beside it (``taken``: the notebook tools served now)."""
    ids: list[str] = []
    by_name: dict[str, str] = {}
    problems: list[str] = []
    for name in given:
        try:
            entry = proxy.resolve(name)
        except (ToolNotFoundError, AmbiguousToolError) as error:
            problems.append(f"{name}: {error}")
            continue
        if entry.id in ids:
            continue
        if entry.name in PAIR:
            problems.append(f"{entry.id}: its name is one of the gateway's pair")
        elif entry.name in taken and entry.server != LOCAL_SERVER:
            problems.append(f"{entry.id}: the notebook tool {entry.name!r} is served too")
        elif entry.name in by_name:
            problems.append(f"{entry.id} and {by_name[entry.name]} would both be served as "
                            f"{entry.name!r}; pin one of them")  # fmt: skip
        else:
            by_name[entry.name] = entry.id
            ids.append(entry.id)
    if problems:
        raise ServeError("Cannot pin " + "; ".join(problems) + ".")
    return ids
