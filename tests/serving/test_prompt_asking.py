"""A notebook prompt's function asks the client that asked for the prompt, in its era.

Real ``fastmcp.Client``s over real HTTP to ``wb.serve()``: a handshake-era client gets a real
``elicitation/create`` during ``prompts/get``; a 2026-07-28 client gets ``InputRequiredResult``
rounds of ``prompts/get`` (SEP-2322), answered by its driver; one that did not declare the
capability the function needs gets -32021 (SEP-2575). From the notebook the Workbench's own
answer chain answers.
"""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types
import pytest
from fastmcp import Client
from mcp.shared.exceptions import MCPError

from workbench import get_context
from workbench.session import Workbench
from workbench.tools.prompt_definition import prompt

CONTEXT = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}


@prompt
def briefed(topic: str) -> str:
    """A prompt that asks what context to use."""
    answer = get_context().elicit("What context?", CONTEXT, key="user_context")
    return f"Write about {topic} for {(answer.content or {}).get('context')}."


@prompt
async def modelled() -> str:
    """A prompt that asks the caller's model first (async)."""
    reply = await get_context().sample("One word, please")
    return f"Start from: {reply.text}"


async def answer_form(message: str, response_type: Any, params: Any, context: Any) -> Any:
    return {"context": f"readers of {message!r}"}


@pytest.fixture
def handle(wb: Workbench) -> Any:
    wb.set_owned_offers("cell:1", [], [briefed, modelled])
    return wb.serve()


def get(handle: Any, mode: str, name: str, arguments: dict[str, Any], **options: Any) -> str:
    async def main() -> str:
        async with Client(handle.url, auth=handle.token, mode=mode, **options) as client:
            result = await client.get_prompt(name, arguments)
            return str(result.messages[0].content.text)  # type: ignore[union-attr]

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_client_answers_the_prompt_question(handle: Any, mode: str) -> None:
    text = get(handle, mode, "briefed", {"topic": "tides"}, elicitation_handler=answer_form)
    assert text == "Write about tides for readers of 'What context?'."


def test_a_2026_client_gets_a_round_of_prompts_get(handle: Any) -> None:
    async def main() -> Any:
        async with Client(handle.url, auth=handle.token, elicitation_handler=answer_form) as c:
            return await c.session.get_prompt(
                "briefed", {"topic": "tides"}, allow_input_required=True
            )

    first = asyncio.run(main())
    assert isinstance(first, mcp_types.InputRequiredResult)
    assert first.request_state
    request = (first.input_requests or {})["user_context"]
    assert isinstance(request, mcp_types.ElicitRequest)
    assert request.params.message == "What context?"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_async_prompt_samples(handle: Any, mode: str) -> None:
    async def sampler(messages: Any, params: Any, context: Any) -> str:
        return "tides"

    assert get(handle, mode, "modelled", {}, sampling_handler=sampler) == "Start from: tides"


def test_a_2026_client_without_elicitation_gets_32021(handle: Any) -> None:
    with pytest.raises(MCPError) as raised:
        get(handle, "auto", "briefed", {"topic": "tides"})
    assert raised.value.error.code == mcp_types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert raised.value.error.data == {"requiredCapabilities": {"elicitation": {}}}


def test_from_the_notebook_the_workbench_answers(wb: Workbench) -> None:
    wb.set_owned_offers("cell:1", [], [briefed])
    wb.on_elicitation(lambda request: {"context": "the notebook"})
    rendered = wb.get_prompt("notebook.briefed", {"topic": "tides"})
    assert "Write about tides for the notebook." in str(rendered)


def test_a_round_answered_twice_is_refused_with_a_clear_error(handle: Any) -> None:
    answer = {"user_context": mcp_types.ElicitResult(action="accept", content={"context": "x"})}

    async def main() -> tuple[Any, Any]:
        async with Client(handle.url, auth=handle.token, elicitation_handler=answer_form) as c:
            first = await c.session.get_prompt(
                "briefed", {"topic": "tides"}, allow_input_required=True
            )
            assert isinstance(first, mcp_types.InputRequiredResult)
            state = first.request_state
            done = await c.session.get_prompt(
                "briefed", {"topic": "tides"}, input_responses=answer, request_state=state
            )
            with pytest.raises(MCPError) as late:
                await c.session.get_prompt(
                    "briefed", {"topic": "tides"}, input_responses=answer, request_state=state
                )
            return done, late.value

    done, late = asyncio.run(main())
    assert done.messages[0].content.text == "Write about tides for x."
    assert late.error.code == mcp_types.INVALID_PARAMS
    assert "no longer waits for answers" in late.error.message
