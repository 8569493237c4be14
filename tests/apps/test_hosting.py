"""A UI tool's call carries its App (workbench/apps/hosting.py, cache.py): a real FastMCP
server in process, called through every way of calling, its App read once per version."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from mcp.server.subscriptions import ResourcesListChanged

from tests.apps.servers import APP_URI, BIG_URI, CSP, PLAIN_URI, AppServer
from tests.polling import wait_for
from workbench.apps.hosting import from_app
from workbench.display.mime import APP_MIME, OBSERVATION_MIME
from workbench.display.schemas import validator_for_mime
from workbench.mcp.connection import ServerChange
from workbench.registry.proxy import ToolProxy
from workbench.session import Workbench
from workbench.tools.schema import Observation

ELSEWHERE = "(shown where the workbench JupyterLab extension is installed)"


@pytest.fixture
def served() -> AppServer:
    return AppServer()


@pytest.fixture
def apps(wb: Workbench, served: AppServer) -> Workbench:
    wb.connect("counter", server=served.server)
    return wb


def bundle(observation: Observation) -> dict[str, Any]:
    return observation._repr_mimebundle_()


def test_a_ui_tool_call_carries_its_app_document(apps: Workbench, served: AppServer) -> None:
    observation = apps.call("counter.count", {"start": 41})
    shown = bundle(observation)
    document = shown[APP_MIME]
    errors = [e.message for e in validator_for_mime(APP_MIME).iter_errors(document)]
    assert not errors, errors
    assert {k: document[k] for k in ("version", "server", "tool", "uri", "html", "live")} == {
        "version": 1, "server": "counter", "tool": "count", "uri": APP_URI,
        "html": served.html, "live": True,
    }  # fmt: skip
    assert document["csp"] == CSP
    assert document["permissions"] == {"clipboardWrite": {}}
    assert document["prefers_border"] is True
    assert document["input"] == {"start": 41}
    assert document["result"]["structuredContent"] == {"value": 42}
    assert document["result"]["isError"] is False
    assert document["call_id"] == str(apps.history[-1].id)
    assert len(document["html_sha256"]) == 64
    assert shown["text/plain"].endswith(f"App: {APP_URI} {ELSEWHERE}")
    assert shown[OBSERVATION_MIME]["appNote"] == f"App: {APP_URI} {ELSEWHERE}"
    assert apps.history[-1].source == "kernel"


def test_every_way_of_calling_carries_it(apps: Workbench) -> None:
    async def awaited() -> Observation:
        return await apps.acall("counter.count")

    for observation in (
        asyncio.run(awaited()),
        apps.submit("counter.count").result(timeout=30),
        apps.call("counter.flat_key"),  # the drafts' _meta["ui/resourceUri"]
    ):
        assert APP_MIME in bundle(observation)
    assert apps.app_host.cache.reads == 1
    assert APP_MIME not in bundle(apps.call("counter.no_app"))
    refused = apps.call("counter.count", {"start": "many"})  # never ran: nothing to draw
    assert refused.is_error and APP_MIME not in bundle(refused)


def test_the_html_is_read_once_per_version(apps: Workbench, served: AppServer) -> None:
    cache = apps.app_host.cache
    first = bundle(apps.call("counter.count"))[APP_MIME]
    apps.call("counter.count")
    bundle(apps.history[-1].observation)  # a repr reads nothing either
    assert cache.reads == 1

    served.html = "<!doctype html><p>two</p>"
    assert bundle(apps.call("counter.count"))[APP_MIME]["html_sha256"] == first["html_sha256"]
    # What Connection._announce hands on for a server's notifications/resources/updated
    # (a 2026-07-28 server sends it only to listen streams that name the URI): the App,
    # drawn before, is read again at once and its new hash told to the comm's followers.
    reloads: list[tuple[str, str, str]] = []
    apps.app_host.reloads.subscribe(reloads.append)
    apps._changes.notify(ServerChange("counter", "resource", APP_URI))
    wait_for(lambda: reloads, what="a reload")
    second = bundle(apps.call("counter.count"))[APP_MIME]
    assert (cache.reads, second["html"]) == (2, served.html)
    assert reloads == [("counter", APP_URI, second["html_sha256"])]

    apps.call("counter.count")
    assert cache.reads == 2
    apps._bridge.run(served.bus.publish(ResourcesListChanged()))  # over the listen stream
    wait_for(lambda: apps.app_host.cache.version("counter", APP_URI)[0] > 1, what="list change")
    apps.call("counter.count")
    assert cache.reads == 3

    apps.reconnect("counter")
    apps.call("counter.count")
    assert cache.reads == 4


@pytest.mark.parametrize(
    ("tool", "line"),
    [
        ("plain", f"App {PLAIN_URI} is not drawn: its mimeType 'text/plain' is not "
                  "text/html;profile=mcp-app."),
        ("big", f"App {BIG_URI} is not drawn: its HTML is 5,000,007 bytes, over the "
                "5,000,000 bytes an App may be."),
        ("elsewhere", "The App is not drawn: its _meta.ui.resourceUri "
                      "'https://evil.example/app.html' is not a ui:// URI."),
    ],
    ids=["plain", "big", "elsewhere"],
)  # fmt: skip
def test_a_refused_app_leaves_the_observation_and_a_line(
    apps: Workbench, tool: str, line: str
) -> None:
    observation = apps.call(f"counter.{tool}")
    shown = bundle(observation)
    assert APP_MIME not in shown
    assert observation.text == tool
    assert " ".join(shown["text/plain"].split()).endswith(line)  # wrapped at 100 columns
    assert shown[OBSERVATION_MIME]["appNote"] == line
    assert "is not drawn" in shown["text/html"]
    apps.call(f"counter.{tool}")  # a refusal is kept for its version too
    assert apps.app_host.cache.reads == (0 if tool == "elsewhere" else 1)


def test_app_only_tools_are_kept_from_models_but_not_from_people(apps: Workbench) -> None:
    hits = [hit.id for hit in apps.registry.search("reset the counter")]
    assert "counter.reset_counter" not in hits and "counter.count" in hits
    assert "counter.model_only" in [hit.id for hit in apps.registry.search("model only")]
    proxy = ToolProxy(apps.registry, apps.call)
    found = [tool["id"] for tool in proxy.find_tools("reset counter", limit=50)["tools"]]
    assert "counter.reset_counter" not in found
    assert "No tool" in proxy.call_tool("counter.reset_counter")
    assert "reset_counter" not in proxy.server_summary()
    assert "counter.reset_counter" in apps.registry  # a person may still call it
    assert len(apps.registry) == len(apps.registry.tools()) == 9
    assert apps.call("counter.reset_counter").text == "reset"


def test_an_apps_own_calls_and_reads_are_recorded_as_the_apps(apps: Workbench) -> None:
    with from_app():
        observation = apps.call("counter.count")
    assert apps.history[-1].source == "app" and APP_MIME not in bundle(observation)
    read = apps.app_host.read("counter", APP_URI).result(timeout=30)
    assert not read.is_error
    last = apps.history[-1]
    assert (last.source, last.kind, last.tool_id) == ("app", "resource", APP_URI)
    assert apps.call("counter.no_app") and apps.history[-1].source == "kernel"


def test_a_call_cancelled_while_its_app_is_read_is_still_recorded(apps: Workbench) -> None:
    future = apps.submit("counter.stuck")
    wait_for(lambda: apps.app_host.cache.reads == 1, what="the App's read to start")
    future.cancel()
    wait_for(lambda: len(apps.history) == 1, what="the call's record")
    assert apps.history[-1].tool_id == "counter.stuck"
