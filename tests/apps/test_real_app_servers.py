"""The real MCP Apps servers from npm, over real stdio, through the Workbench: each lists its
UI tool with ``_meta.ui.resourceUri`` and serves that ``ui://`` resource as an App's HTML
(``text/html;profile=mcp-app``). What the Lab tests host is what these servers offer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.app_servers import (
    APP_MIME_TYPE,
    BASIC,
    BASIC_TOOL,
    BASIC_URI,
    BUDGET,
    BUDGET_TOOL,
    BUDGET_URI,
    app_server,
)
from workbench import Workbench

pytestmark = pytest.mark.integration

SERVERS = {"basic": (BASIC, BASIC_TOOL, BASIC_URI), "budget": (BUDGET, BUDGET_TOOL, BUDGET_URI)}


@pytest.fixture(scope="module")
def apps() -> Iterator[Workbench]:
    """One Workbench with both servers connected (a few seconds of node start-up each)."""
    with Workbench() as workbench:
        for name, (package, _, _) in SERVERS.items():
            command, args = app_server(package)
            workbench.connect(name, command=command, args=args)
        yield workbench


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_the_ui_tool_names_its_app_and_the_app_is_html_of_the_apps_profile(
    apps: Workbench, name: str
) -> None:
    _, tool, uri = SERVERS[name]
    [entry] = [t for t in apps.registry.tools(name) if t.name == tool]
    assert entry.meta is not None and entry.meta["ui"]["resourceUri"] == uri

    read = apps.read_resource(uri, server=name)
    assert not read.is_error, read.error_message
    [content] = [c.model_dump(by_alias=True) for c in read.content]
    resource = content["resource"]
    assert (resource["uri"], resource["mimeType"]) == (uri, APP_MIME_TYPE)
    assert resource["text"].lstrip().lower().startswith("<!doctype html>")


def test_get_time_answers_with_the_time_its_app_draws(apps: Workbench) -> None:
    observation = apps.call(f"basic.{BASIC_TOOL}")
    assert not observation.is_error, observation.error_message
    assert isinstance(observation.structured_content, dict)
    assert observation.structured_content["time"][:2] == "20"  # an ISO 8601 time, this century


def test_get_time_carries_its_app_read_once(apps: Workbench) -> None:
    """The kernel's side of hosting (workbench/apps/): the call's bundle holds the App."""
    from workbench.display.mime import APP_MIME
    from workbench.display.schemas import validator_for_mime

    first = apps.call(f"basic.{BASIC_TOOL}")._repr_mimebundle_()[APP_MIME]
    reads = apps.app_host.cache.reads
    second = apps.call(f"basic.{BASIC_TOOL}")._repr_mimebundle_()[APP_MIME]
    assert apps.app_host.cache.reads == reads  # read once for both calls
    assert not list(validator_for_mime(APP_MIME).iter_errors(first))
    assert (first["server"], first["tool"], first["uri"]) == ("basic", BASIC_TOOL, BASIC_URI)
    assert first["html"].lstrip().lower().startswith("<!doctype html>")
    assert first["result"]["structuredContent"]["time"][:2] == "20"
    assert second["html_sha256"] == first["html_sha256"]
    assert second["call_id"] == str(apps.history[-1].id) != first["call_id"]
