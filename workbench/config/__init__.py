"""How a server is described: plain data and pure readers, below the MCP client.

``spec`` (``ServerSpec``, ``server_spec``: the one check of a server's settings), ``oauth``
(``OAuthSettings``), ``files`` (the mcp.json readers) and ``env`` (``${env:VAR}``). Pure: no
MCP, no event loop, no I/O beyond reading the files it is given. A new server option is one
field of ``ServerSpec`` and ``ConnectOptions`` plus its flag in ``%mcp connect``.
"""

from workbench.config.env import expand
from workbench.config.files import read_config, read_specs, spec_from_entry, strip_jsonc
from workbench.config.oauth import OAuthSettings
from workbench.config.spec import ConnectOptions, ServerSpec, server_spec

__all__ = [
    "ConnectOptions",
    "OAuthSettings",
    "ServerSpec",
    "expand",
    "read_config",
    "read_specs",
    "server_spec",
    "spec_from_entry",
    "strip_jsonc",
]
