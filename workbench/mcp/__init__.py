"""Everything that speaks MCP."""
