"""OAuth for remote MCP servers: settings, the httpx Auth, sign-in routing, token cache.

Only ``settings`` is light; the other modules import fastmcp when they are used.
"""
