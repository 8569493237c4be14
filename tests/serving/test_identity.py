"""What a served surface says it is and can do (``identity.py``): a real client of each era
sees the workbench's name and version and exactly the capabilities served (tools that
change, log messages), for the notebook's tools, the gateway and a relayed connection."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from fastmcp import Client

from tests.serving.conftest import with_client
from tests.serving.test_offers import offers
from workbench.__about__ import __version__
from workbench.errors import ServeWarning
from workbench.session import Workbench
from workbench.tools import tool

SERVED = {"tools": {"listChanged": True}, "logging": {}}
"""Tools only (they change as cells re-run), and the log messages they send: no prompts,
resources, completions or extensions while the notebook serves none (the last test)."""


def echo(x: int) -> int:
    """Echo a number back."""
    return x


async def _identity(client: Client[Any]) -> dict[str, Any]:
    capabilities = client.server_capabilities
    info = client.server_info
    assert capabilities is not None and info is not None
    return {
        "capabilities": capabilities.model_dump(by_alias=True, exclude_none=True),
        "name": info.name,
        "version": info.version,
    }


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # initialize, then server/discover
@pytest.mark.parametrize(
    ("options", "name"),
    [({}, "notebook"), ({"gateway": "also"}, "notebook"), ({"server": "demo"}, "demo")],
    ids=["notebook", "gateway", "relay"],
)
def test_a_served_surface_advertises_only_what_it_serves(
    wb: Workbench, options: dict[str, Any], name: str, mode: str
) -> None:
    wb.add_tools(echo)
    if "server" in options:
        wb.connect("demo")
    handle = wb.serve(**options)
    seen = with_client(handle.url, handle.token, _identity, mode=mode)
    assert seen == {"capabilities": SERVED, "name": name, "version": __version__}


@pytest.mark.integration
def test_a_served_schema_passes_through_untouched_and_no_ref_is_fetched(wb: Workbench) -> None:
    """The server never follows a ``$ref``: a remote one (at a port the test listens on) and
    a local one reach the client as written, and nothing connects to that port."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        remote = f"http://127.0.0.1:{listener.getsockname()[1]}/schema.json"
        schema = {
            "type": "object",
            "properties": {"far": {"$ref": remote}, "near": {"$ref": "#/$defs/Near"}},
            "$defs": {"Near": {"type": "string"}},
        }

        @tool(output_schema=schema)
        def shaped() -> dict[str, Any]:
            """A result whose schema refers elsewhere."""
            return {}

        wb.add_tools(shaped)
        handle = wb.serve()

        async def listed(client: Client[Any]) -> Any:
            return {listed.name: listed for listed in await client.list_tools()}

        for mode in ("legacy", "auto"):
            found = with_client(handle.url, handle.token, listed, mode=mode)["shaped"]
            assert found.output_schema == schema
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody came for the remote schema


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_capabilities_name_resources_prompts_and_completions_only_when_served(
    wb: Workbench, mode: str
) -> None:
    wb.add_tools(echo)
    with pytest.warns(ServeWarning, match="data://greeting"):  # no such resource yet
        handle = wb.serve(expose=["echo", "data://greeting"])

    async def capabilities(client: Client[Any]) -> dict[str, Any]:
        assert client.server_capabilities is not None
        return client.server_capabilities.model_dump(by_alias=True, exclude_none=True)

    assert set(with_client(handle.url, handle.token, capabilities, mode=mode)) == {
        "tools",
        "logging",
    }
    resources, prompts = offers()
    wb.set_owned_offers("cell:1", resources, prompts)  # only data://greeting is exposed
    seen = with_client(handle.url, handle.token, capabilities, mode=mode)
    assert set(seen) == {"tools", "logging", "resources"}
    assert seen["resources"] == {"subscribe": True, "listChanged": True}
    handle = wb.serve()  # everything: the completers too
    seen = with_client(handle.url, handle.token, capabilities, mode=mode)
    assert set(seen) == {"tools", "logging", "resources", "prompts", "completions"}
