"""``build_demo_server``: the demo's tools, resources and prompt on one FastMCP server."""

from fastmcp import FastMCP

from workbench.__about__ import __version__
from workbench.demo.asking import add_asking_tools
from workbench.demo.calendar import add_calendar_tools
from workbench.demo.features import add_features
from workbench.demo.tools import (
    add,
    draw_chart,
    fail,
    get_time,
    hints,
    log_demo,
    register,
    slow_count,
    text_stats,
)
from workbench.mcp.quiet import quiet_logging_deprecation

INSTRUCTIONS = (
    "A demo server built into the workbench for learning MCP offline. Each tool shows one "
    "feature: add (plain result), text_stats (structured output), draw_chart (image), "
    "slow_count (progress and cancellation), log_demo (log messages), fail (an error result), "
    "create_event / list_events (nested arguments and a little state), get_time (the clock), "
    "book_table (elicitation: asks you for details) and summarize (sampling: asks your "
    "client's model). Beyond tools: the resources demo://guide (markdown, start here) and "
    "demo://chart.png (a PNG blob), the resource template demo://numbers/{n} (JSON), and the "
    "prompt explain_tool; the template's and the prompt's arguments have completion. "
    "Nothing here reaches the network; the calendar lives in memory and vanishes with the server."
)


def build_demo_server() -> FastMCP:
    """Build a fresh demo server; each has its own empty calendar."""
    quiet_logging_deprecation()
    server = FastMCP("demo", instructions=INSTRUCTIONS, version=__version__)

    register(server, add, title="Add two numbers", tags={"math"}, annotations=hints())
    register(server, text_stats, title="Text statistics", tags={"text"}, annotations=hints())
    register(server, draw_chart, title="Draw a bar chart", tags={"image"}, annotations=hints())
    register(server, slow_count, title="Count slowly", tags={"progress"}, annotations=hints())
    # Logging and failing change nothing the caller can observe afterwards: read-only.
    register(server, log_demo, title="Send a log message", tags={"logging"}, annotations=hints())
    register(server, fail, title="Fail on purpose", tags={"errors"}, annotations=hints())
    # The clock moves: the same call gives a new answer.
    register(
        server, get_time, title="Current time", tags={"time"}, annotations=hints(idempotent=False)
    )
    add_calendar_tools(server)
    add_asking_tools(server)
    add_features(server)
    return server
