"""Ready-to-paste client configurations for a served URL, with the token as a placeholder.

The token's value never appears: a client reads it from an environment variable (the one
given as ``${env:VAR}``, else ``WORKBENCH_TOKEN``) or, in VS Code, asks for it once. The
Python snippet stays connected and hears of every change of the served tools: a 2026-07-28
client (fastmcp's default) only hears ``tools/list_changed`` on a ``subscriptions/listen``
stream it opens, so the snippet opens one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from workbench.names import LOCAL_SERVER

TOKEN_VARIABLE = "WORKBENCH_TOKEN"
_VARIABLE = re.compile(r"^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$")


def token_variable(token_shown: str | None) -> str:
    """The environment variable a client reads the token from."""
    found = _VARIABLE.match(token_shown or "")
    return found.group(1) if found else TOKEN_VARIABLE


def client_configs(
    url: str, token_shown: str | None, token_file: Path | None = None
) -> dict[str, str]:
    """Claude Desktop / Cursor ``mcpServers``, VS Code ``servers`` and a fastmcp snippet;
    ``token_file`` is where VS Code's prompt says the token is."""
    auth = token_shown is not None
    variable = token_variable(token_shown)
    entry: dict[str, object] = {"url": url}
    if auth:
        entry["headers"] = {"Authorization": f"Bearer ${{env:{variable}}}"}
    desktop = {"mcpServers": {LOCAL_SERVER: entry}}
    vscode: dict[str, object] = {"servers": {LOCAL_SERVER: {"type": "http", "url": url}}}
    if auth:
        vscode["inputs"] = [
            {
                "type": "promptString",
                "id": "workbench-token",
                "description": "The notebook's token"
                + (f" (the contents of {token_file})" if token_file else f" (${variable})"),
                "password": True,
            }
        ]
        vscode["servers"] = {
            LOCAL_SERVER: {
                "type": "http",
                "url": url,
                "headers": {"Authorization": "Bearer ${input:workbench-token}"},
            }
        }
    python = (
        "import asyncio, os\nfrom fastmcp import Client\n"
        "from mcp.client.subscriptions import listen\n\n"
        "async def main():\n"
        f"    async with Client({url!r}"
        + (f", auth=os.environ[{variable!r}]" if auth else "")
        + ") as client:\n"
        "        print([tool.name for tool in await client.list_tools()])\n"
        "        # Hear of each change of the tools: fastmcp's default (2026-07-28) client\n"
        '        # only on a listen stream (with mode="legacy": message_handler instead).\n'
        "        async with listen(client.session, tools_list_changed=True) as changes:\n"
        "            async for _ in changes:\n"
        "                print([tool.name for tool in await client.list_tools()])\n\n"
        "asyncio.run(main())\n"
    )
    return {
        "Claude Desktop / Cursor (mcpServers)": json.dumps(desktop, indent=2),
        "VS Code (.vscode/mcp.json)": json.dumps(vscode, indent=2),
        "Python (fastmcp)": python,
    }
