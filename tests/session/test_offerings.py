"""What servers offer besides tools, from the Workbench (workbench/session/offerings.py),
against the demo server and in-process FastMCP servers of the tests' own: resources, reads
recorded in the history, templates, pagination, prompts checked before the round trip,
completions, elicitation, sampling, roots, ping and what a server lacks.

server-everything over stdio and streamable HTTP: test_offerings_everything.py.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client, FastMCP
from fastmcp.server.middleware import Middleware, MiddlewareContext

from workbench.errors import InvalidArgumentsError, RequestFailedError, WorkbenchError
from workbench.features.asking import ElicitationAnswer, ElicitationRequest, SamplingRequest
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind, Observation


def read_text(observation: Observation) -> str:
    """The text of a read's first content (a resource read is embedded resources, which
    ``Observation.text`` leaves out)."""
    assert not observation.is_error, observation.error_message
    return str(observation.content[0].resource.text)  # type: ignore[union-attr]


@pytest.fixture
def demo(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


class Counting(Middleware):
    """Records the method of every request that reaches the server."""

    def __init__(self) -> None:
        self.methods: list[str] = []

    async def on_request(self, context: MiddlewareContext[Any], call_next: Any) -> Any:
        self.methods.append(str(context.method))
        return await call_next(context)


def paged_server(counting: Counting) -> FastMCP:
    """Five resources, three templates and a prompt, listed two to a page."""
    server = FastMCP("paged", list_page_size=2, middleware=[counting])

    def text(i: int) -> Any:
        def read() -> str:
            return f"text {i}"

        return read

    def template(i: int) -> Any:
        def read(x: str) -> str:
            return f"t{i} {x}"

        return read

    for i in range(5):
        server.resource(f"paged://r/{i}", name=f"r{i}")(text(i))
    for i in range(3):
        server.resource(f"paged://t{i}/{{x}}", name=f"t{i}")(template(i))

    @server.prompt
    def greet(name: str, greeting: str = "Hello") -> str:
        """Greet someone."""
        return f"{greeting}, {name}!"

    return server


@pytest.fixture
def paged(wb: Workbench) -> tuple[Workbench, Counting, FastMCP]:
    counting = Counting()
    server = paged_server(counting)
    wb.connect("paged", server=server)
    return wb, counting, server


# -- resources ------------------------------------------------------------------------------


def test_demo_resources_and_templates(demo: Workbench) -> None:
    resources = demo.resources()
    assert [(r.server, r.uri, r.mime_type) for r in resources] == [
        ("demo", "demo://guide", "text/markdown"),
        ("demo", "demo://chart.png", "image/png"),
    ]
    assert resources.next_cursor is None and resources.failed == {}
    (numbers,) = demo.resource_templates()
    assert (numbers.uri_template, numbers.variables) == ("demo://numbers/{n}", ["n"])
    assert numbers.expand({"n": "42"}) == "demo://numbers/42"


def test_reads_text_blob_and_template_are_recorded(demo: Workbench) -> None:
    guide = demo.read_resource("demo://guide")
    assert "# The demo server" in read_text(guide)
    chart = demo.read_resource("demo://chart.png")
    blob = chart.content[0].resource.blob  # type: ignore[union-attr]
    assert base64.b64decode(blob).startswith(b"\x89PNG")
    facts = demo.read_resource("demo://numbers/{n}", n=42)
    assert json.loads(read_text(facts))["prime_factors"] == [2, 3, 7]
    assert facts.tool_id == "demo://numbers/42"
    assert read_text(demo.read_resource("demo://numbers/12")) == read_text(
        demo.read_resource("demo://numbers/{n}", n="12")
    )
    rows = [(call.kind, call.tool_id, call.server, call.arguments) for call in demo.history]
    assert rows[:3] == [
        ("resource", "demo://guide", "demo", {}),
        ("resource", "demo://chart.png", "demo", {}),
        ("resource", "demo://numbers/42", "demo", {"n": 42}),
    ]


def test_a_missing_template_value_is_a_recorded_error(demo: Workbench) -> None:
    refused = demo.read_resource("demo://numbers/{n}")
    assert refused.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "n: required but missing" in str(refused.error_message)
    last = demo.history[-1]
    assert (last.kind, last.tool_id, last.observation.is_error) == (
        "resource",
        "demo://numbers/{n}",
        True,
    )


@pytest.mark.integration
def test_an_unknown_uri_is_a_recorded_error(demo: Workbench) -> None:
    missing = demo.read_resource("demo://nowhere")
    assert missing.is_error and missing.error_kind is ErrorKind.TOOL_ERROR
    assert "demo://nowhere" in str(missing.error_message)
    assert (demo.history[-1].kind, demo.history[-1].tool_id) == ("resource", "demo://nowhere")
    failed = demo.read_resource("demo://numbers/{n}", n=10**12)  # the server refuses it
    assert failed.is_error and "between" in str(failed.error_message)


def test_every_page_is_followed(paged: tuple[Workbench, Counting, FastMCP]) -> None:
    wb, counting, _ = paged
    assert [r.uri for r in wb.resources()] == [f"paged://r/{i}" for i in range(5)]
    assert counting.methods.count("resources/list") == 3
    assert [t.name for t in wb.resource_templates("paged")] == ["t0", "t1", "t2"]
    assert counting.methods.count("resources/templates/list") == 2


def test_a_page_after_a_cursor_says_where_the_next_begins(
    paged: tuple[Workbench, Counting, FastMCP],
) -> None:
    wb, _, server = paged

    async def first_cursor() -> str:
        async with Client(server) as client:
            page = await client.list_resources_mcp()
        assert page.next_cursor is not None
        return str(page.next_cursor)

    second = wb.resources("paged", cursor=asyncio.run(first_cursor()))
    assert [r.uri for r in second] == ["paged://r/2", "paged://r/3"]
    assert second.next_cursor is not None
    third = wb.resources("paged", cursor=second.next_cursor)
    assert [r.uri for r in third] == ["paged://r/4"] and third.next_cursor is None


@pytest.mark.integration
def test_reading_with_several_resource_servers(
    paged: tuple[Workbench, Counting, FastMCP],
) -> None:
    wb, _, _ = paged
    wb.connect("demo")
    assert {r.server for r in wb.resources()} == {"demo", "paged"}
    assert read_text(wb.read_resource("paged://r/3")) == "text 3"  # the server listing it
    assert read_text(wb.read_resource("paged://t1/{x}", x="y")) == "t1 y"  # a template fits
    unclaimed = wb.read_resource("other://thing")
    assert unclaimed.error_kind is ErrorKind.NOT_FOUND
    assert "Give server=" in str(unclaimed.error_message)
    assert read_text(wb.read_resource("demo://guide", server="demo")).startswith("# The demo")


# -- prompts and completions ----------------------------------------------------------------


def test_demo_prompt_and_completions(demo: Workbench) -> None:
    (prompt,) = demo.prompts()
    assert (prompt.name, [(a.name, a.required) for a in prompt.arguments]) == (
        "explain_tool",
        [("tool", True), ("level", False)],
    )
    result = demo.get_prompt("demo.explain_tool", {"tool": "add", "level": "expert"})
    assert [m.role for m in result.messages] == ["user", "assistant"]
    assert "`add`" in result.text and "an expert" in result.text
    assert result.arguments == {"tool": "add", "level": "expert"}
    assert demo.complete("explain_tool", "level", "e") == ["expert"]
    assert "add" in demo.complete("demo.explain_tool", "tool", "ad")
    assert demo.complete("demo://numbers/{n}", "n", "9")[:2] == ["9", "90"]


def test_prompt_arguments_are_checked_before_the_round_trip(
    paged: tuple[Workbench, Counting, FastMCP],
) -> None:
    wb, counting, _ = paged
    with pytest.raises(InvalidArgumentsError, match="name: required but missing"):
        wb.get_prompt("greet")
    with pytest.raises(InvalidArgumentsError, match="nmae: not an argument of this prompt"):
        wb.get_prompt("greet", {"name": "Ada", "nmae": "typo"})
    assert "prompts/get" not in counting.methods
    assert wb.get_prompt("greet", {"name": "Ada"}).text == "user: Hello, Ada!"
    assert counting.methods.count("prompts/get") == 1
    with pytest.raises(RequestFailedError, match="No prompt named 'nope'"):
        wb.get_prompt("nope")


def test_what_a_server_lacks_is_a_one_line_error(demo: Workbench) -> None:
    attempts: list[tuple[Callable[[], object], str]] = [
        (lambda: demo.subscribe_resource("demo://guide"), "does not offer resource subscr"),
        (
            lambda: demo.set_server_log_level("demo", "debug"),
            "2026-07-28, which has no logging/set",
        ),
    ]
    for attempt, words in attempts:
        with pytest.raises(RequestFailedError, match=words) as raised:
            attempt()
        assert "\n" not in str(raised.value)
    with pytest.raises(WorkbenchError, match="Unknown log level"):
        demo.set_server_log_level("demo", "loud")


# -- what the client answers ----------------------------------------------------------------


def test_elicitation_accept_decline_cancel(demo: Workbench) -> None:
    asked: list[ElicitationRequest] = []

    def fill(request: ElicitationRequest) -> dict[str, Any]:
        asked.append(request)
        return {"party_size": 4, "time": "19:30", "terrace": True}

    demo.on_elicitation(fill)
    booked = demo.call("demo.book_table", {"restaurant": "Chez Ada"})
    assert not booked.is_error and "4" in booked.text and "19:30" in booked.text
    assert asked[0].server == "demo" and "Chez Ada" in asked[0].message
    assert set(asked[0].fields) == {"party_size", "time", "terrace"}
    demo.on_elicitation(lambda request: None)
    declined = demo.call("demo.book_table", {"restaurant": "Chez Ada"})
    demo.on_elicitation(lambda request: ElicitationAnswer.cancel())
    cancelled = demo.call("demo.book_table", {"restaurant": "Chez Ada"})
    assert "declin" in declined.text.lower() and "cancel" in cancelled.text.lower()


def test_per_call_handlers_and_the_workbench_handler_first(demo: Workbench) -> None:
    with demo.answering(on_sampling=lambda request: "From the call's handler."):
        inside = demo.call("demo.summarize", {"text": "A long text."})
    assert "From the call's handler." in inside.text
    demo.on_sampling(lambda request: "From the Workbench's handler.")
    with demo.answering(on_sampling=lambda request: "From the call's handler."):
        both = demo.call("demo.summarize", {"text": "A long text."})
    assert "From the Workbench's handler." in both.text


def test_sampling_reaches_the_handler(demo: Workbench) -> None:
    prompts: list[SamplingRequest] = []

    def reply(request: SamplingRequest) -> str:
        prompts.append(request)
        return "A one-sentence summary."

    demo.on_sampling(reply)
    summary = demo.call("demo.summarize", {"text": "MCP servers offer tools and more."})
    assert not summary.is_error and "A one-sentence summary." in summary.text
    assert "MCP servers offer tools and more." in prompts[0].last_text
    assert prompts[0].system_prompt and prompts[0].max_tokens


def test_roots_offers_none_until_set(wb: Workbench, tmp_path: Path) -> None:
    assert wb.roots() == []
    assert wb.roots([tmp_path, "file:///data"]) == [tmp_path.as_uri(), "file:///data"]
    assert wb.roots() == [tmp_path.as_uri(), "file:///data"]


def test_ping_and_servers_with_ping(demo: Workbench) -> None:
    assert 0 < demo.ping("demo") < 5
    (row,) = demo.servers(ping=True)
    assert row.name == "demo" and row.ping is not None and 0 < row.ping < 5
    assert demo.servers()[0].ping is None
    with pytest.raises(WorkbenchError):
        demo.ping("nobody")
