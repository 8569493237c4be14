"""The export room: notebook tools written out as a standalone FastMCP server script.

A code generator, not the tool model: ``script.py`` builds the script's text and writes it
(``%mcp export``, ``Workbench.export``), ``source.py`` recovers the code each tool's function
needs, ``runtime.py`` holds the serving half the script carries.

Rules: it reads tool definitions (``workbench.tools``) and raises ``workbench.errors``; it
imports nothing else of the package. Generating imports no fastmcp, MCP SDK, IPython, rich
or asyncio (the script imports what it needs when it runs, from text here), and touches no
file but the one it writes, atomically and never over an existing one unless asked.
"""

from workbench.export.script import (
    ExportResult,
    Script,
    Skipped,
    build_script,
    export_tools,
    listing,
    server_name_for,
    write_script,
)

__all__ = [
    "ExportResult",
    "Script",
    "Skipped",
    "build_script",
    "export_tools",
    "listing",
    "server_name_for",
    "write_script",
]
