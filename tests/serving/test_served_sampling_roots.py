"""A served notebook tool samples its caller's model and asks its caller's roots, in its era.

Real ``fastmcp.Client``s over real HTTP to ``wb.serve()``: ``mode="legacy"`` (a real
``sampling/createMessage`` / ``roots/list`` on the handshake-era session) and the default
2026-07-28 mode (``InputRequiredResult`` rounds carrying the same requests; sampling and roots
are deprecated there, SEP-2577, yet still in the spec). A client that did not declare what a
question needs is never asked: a 2026-07-28 call that ends on that answers -32021 (SEP-2575).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import mcp_types
import pytest
from fastmcp import Client
from mcp.shared.exceptions import MCPError

from workbench import get_context
from workbench.serving.questions import MissingCapability, NoOneToAsk
from workbench.session import Workbench

MODES: list[Literal["legacy", "auto"]] = ["legacy", "auto"]
NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def ask_model() -> str:
    """Ask the caller's language model."""
    return str(get_context().sample("Capital of France?", key="capital").text)


def where() -> str:
    """The caller's roots."""
    return " ".join(f"{root.uri} ({root.name})" for root in get_context().roots())


async def everything() -> str:
    """Elicitation, sampling and roots, asked together."""
    context = get_context()
    name, greeting, roots = await asyncio.gather(
        context.elicit("Name?", NAME, key="user_name"),
        context.sample("Greet", max_tokens=50, key="greeting"),
        context.roots(key="client_roots"),
    )
    return f"{name.content['name']} / {greeting.text} / {roots[0].uri}"


def model_or_not() -> str:
    """Sample when the caller can; go on without otherwise."""
    try:
        return str(get_context().sample("Capital of France?").text)
    except MissingCapability as missing:
        return f"without {missing.capability}"


async def sampler(messages: Any, params: Any, context: Any) -> str:
    return f"Paris (asked: {messages[0].content.text})"


async def answer_form(message: str, response_type: Any, params: Any, context: Any) -> Any:
    return {"name": "Ada"}


@pytest.fixture
def served(wb: Workbench) -> Any:
    wb.add_tools(ask_model, where, everything, model_or_not)
    return wb.serve()


def call(handle: Any, mode: str, tool: str, **options: Any) -> Any:
    async def main() -> Any:
        async with Client(handle.url, auth=handle.token, mode=mode, **options) as client:
            return await client.call_tool(tool, {}, raise_on_error=False)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", MODES)
def test_the_client_samples(served: Any, mode: str) -> None:
    result = call(served, mode, "ask_model", sampling_handler=sampler)
    assert result.content[0].text == "Paris (asked: Capital of France?)"


@pytest.mark.parametrize("mode", MODES)
def test_the_client_lists_its_roots(served: Any, mode: str) -> None:
    roots = [mcp_types.Root(uri="file:///data/here", name="Here")]
    result = call(served, mode, "where", roots=roots)
    assert result.content[0].text == "file:///data/here (Here)"


def test_a_2026_round_carries_the_sampling_request(served: Any) -> None:
    async def main() -> Any:
        async with Client(served.url, auth=served.token, sampling_handler=sampler) as client:
            return await client.session.call_tool("ask_model", {}, allow_input_required=True)

    first = asyncio.run(main())
    assert isinstance(first, mcp_types.InputRequiredResult)
    request = (first.input_requests or {})["capital"]
    assert isinstance(request, mcp_types.CreateMessageRequest)
    assert request.params.max_tokens == 100
    assert request.params.messages[0].content.text == "Capital of France?"  # type: ignore[union-attr]


def test_elicitation_sampling_and_roots_go_in_one_round(served: Any) -> None:
    roots = [mcp_types.Root(uri="file:///data/here")]
    options: dict[str, Any] = {
        "sampling_handler": sampler,
        "elicitation_handler": answer_form,
        "roots": roots,
    }

    async def main() -> tuple[Any, Any]:
        async with Client(served.url, auth=served.token, **options) as client:
            first = await client.session.call_tool("everything", {}, allow_input_required=True)
            whole = await client.call_tool("everything", {}, raise_on_error=False)
            return first, whole

    first, whole = asyncio.run(main())
    assert isinstance(first, mcp_types.InputRequiredResult)
    methods = {key: r.method for key, r in (first.input_requests or {}).items()}
    assert methods == {
        "user_name": "elicitation/create",
        "greeting": "sampling/createMessage",
        "client_roots": "roots/list",
    }
    assert whole.content[0].text == "Ada / Paris (asked: Greet) / file:///data/here"


def test_a_2026_client_without_sampling_gets_32021(served: Any) -> None:
    with pytest.raises(MCPError) as raised:
        call(served, "auto", "ask_model")
    assert raised.value.error.code == mcp_types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert raised.value.error.data == {"requiredCapabilities": {"sampling": {}}}


def test_a_handshake_era_client_without_sampling_gets_a_tool_error(served: Any) -> None:
    result = call(served, "legacy", "ask_model")
    assert result.is_error
    assert "did not declare the sampling capability" in result.content[0].text


@pytest.mark.parametrize("mode", MODES)
def test_a_tool_that_catches_the_missing_capability_answers(served: Any, mode: str) -> None:
    assert call(served, mode, "model_or_not").content[0].text == "without sampling"


def test_from_the_notebook_roots_are_the_workbench_own(wb: Workbench) -> None:
    wb.add_tools(where)
    wb.roots(["/data/here"])
    assert wb.call("notebook.where").text == "file:///data/here (None)"


def test_outside_any_call_roots_is_a_one_line_error() -> None:
    with pytest.raises(NoOneToAsk, match=r"roots\(\) asks the caller"):
        where()
