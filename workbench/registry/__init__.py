"""The deferred registry: names and descriptions now, schemas and validators on demand.

Pure: no IPython, no MCP client, no event loop.
"""

from workbench.registry.entry import ToolEntry
from workbench.registry.registry import Registry
from workbench.registry.search import SearchHit, SearchResults

__all__ = ["Registry", "SearchHit", "SearchResults", "ToolEntry"]
