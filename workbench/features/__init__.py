"""What servers offer besides tools (resources, prompts, completions) and what the client
answers them (elicitation, sampling, roots), as plain data: no MCP types, no event loop.

``mcp/offerings.py`` turns MCP's types into these; the display room shows them; the
Workbench hands them to people.
"""
