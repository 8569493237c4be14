"""The embedded demo server: one tool per thing an MCP tool can do, with no network and no Node.

``%mcp connect demo`` serves it in-process, the tests use it as a known server, and
``python -m workbench.demo`` serves it over stdio so the same tools can be tried as a
child process. Every tool is small on purpose: each teaches one feature (structured output,
images, progress, logging, errors, nested arguments, elicitation, sampling) and nothing else.
Beyond tools it serves resources, a resource template and a prompt, with argument completion.
"""

from workbench.demo.asking import Booking
from workbench.demo.calendar import Event, EventTime, Person, Priority, ScheduledEvent
from workbench.demo.server import build_demo_server
from workbench.demo.tools import TextStats, WordCount

__all__ = [
    "Booking",
    "Event",
    "EventTime",
    "Person",
    "Priority",
    "ScheduledEvent",
    "TextStats",
    "WordCount",
    "build_demo_server",
]
