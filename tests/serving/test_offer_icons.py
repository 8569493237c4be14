"""A notebook's own resources, templates and prompts declare icons (``icons=[...]``): the
Workbench reads them back from its notebook server, an outside client of ``%mcp serve`` sees
them, and so does a client of the ``%mcp export`` script."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.serving.conftest import with_client
from workbench import prompt, resource
from workbench.session import Workbench
from workbench.tools.icons import Icon

PNG = "data:image/png;base64,iVBORw0KGgo="
REMOTE = {"src": "https://icons.example/o.png", "theme": "dark"}
LISTED = [{"src": PNG}, {"src": "https://icons.example/o.png", "theme": "dark"}]


@resource("memo://today", icons=[PNG, REMOTE])
def today() -> str:
    """Today's memo."""
    return "nothing"


@resource("memo://{day}", icons=[PNG, REMOTE])
def memo(day: str) -> str:
    """A day's memo."""
    return day


@prompt(icons=[PNG, REMOTE])
def greet(name: str) -> str:
    """Greet someone."""
    return f"Hello {name}"


async def _listed(client: Client[Any]) -> dict[str, Any]:
    def icons(item: Any) -> list[dict[str, Any]]:
        return [icon.model_dump(by_alias=True, exclude_none=True) for icon in item.icons or []]

    [listed_resource] = await client.list_resources()
    [template] = await client.list_resource_templates()
    [listed_prompt] = await client.list_prompts()
    return {
        "resource": icons(listed_resource),
        "template": icons(template),
        "prompt": icons(listed_prompt),
    }


async def _over_stdio(path: Path) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    async with Client(StdioTransport(sys.executable, [str(path)], env=env)) as client:
        return await _listed(client)


@pytest.mark.integration
def test_notebook_offers_icons_reach_the_workbench_outside_clients_and_the_script(
    wb: Workbench, tmp_path: Path
) -> None:
    wb.add_resources(today, memo)
    wb.add_prompts(greet)
    kept = (Icon(PNG), Icon("https://icons.example/o.png", theme="dark"))
    assert wb.resources("notebook")[0].icons == kept
    assert wb.resource_templates("notebook")[0].icons == kept
    assert wb.prompts("notebook")[0].icons == kept

    handle = wb.serve()
    for mode in ("legacy", "auto"):
        seen = with_client(handle.url, handle.token, _listed, mode=mode)
        assert seen == {"resource": LISTED, "template": LISTED, "prompt": LISTED}, mode

    script = wb.export(tmp_path / "offers.py").path
    exported = asyncio.run(_over_stdio(script))
    assert exported == {"resource": LISTED, "template": LISTED, "prompt": LISTED}
