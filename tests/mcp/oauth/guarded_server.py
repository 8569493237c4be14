"""A FastMCP server behind FastMCP's own in-memory OAuth server (dynamic registration, an
/authorize that approves at once), for the OAuth tests: python guarded_server.py PORT [TTL].

TTL is the access tokens' lifetime in seconds (default an hour), short to test refreshes.
"""

from __future__ import annotations

import sys

from fastmcp import FastMCP
from fastmcp.server.auth.providers import in_memory
from mcp.server.auth.settings import ClientRegistrationOptions


def main() -> None:
    port = int(sys.argv[1])
    if len(sys.argv) > 2:
        in_memory.DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS = int(sys.argv[2])
    base = f"http://127.0.0.1:{port}"
    auth = in_memory.InMemoryOAuthProvider(
        base_url=base,
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=["read", "write"]
        ),
    )
    server = FastMCP("guarded", auth=auth)

    @server.tool
    def add(a: int, b: int) -> int:
        """Add two numbers (behind a sign-in)."""
        return a + b

    server.run(transport="http", host="127.0.0.1", port=port, show_banner=False)


if __name__ == "__main__":
    main()
