"""The Workbench, the one object per kernel, and its families of methods.

``workbench.py`` holds the facade (connections, tools, calls, serving); ``offerings.py``
what servers offer besides tools and what the client answers them (resources, prompts,
completions, elicitation, sampling, roots), mixed into it.
"""

from workbench.session.logs import LogCallback
from workbench.session.workbench import ToolChange, Workbench

__all__ = ["LogCallback", "ToolChange", "Workbench"]
