"""OAuth for remote MCP servers: the httpx Auth, sign-in routing, the token cache.

The settings themselves are plain data in ``workbench.config.oauth``; these modules import
fastmcp when they are used.
"""
