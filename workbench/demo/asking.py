"""The demo tools that ask the client: ``book_table`` (elicitation), ``summarize`` (sampling).

On MCP 2026-07-28 a server sends no requests of its own: a tool asks by returning an
``InputRequiredResult`` (SEP-2322), the client answers and calls the tool again with the answers
in ``ctx.input_responses``. On an older connection the same question goes out as a
server-to-client request (``ctx.elicit``, ``session.create_message``). Both tools first check
that the client declared the capability, so a client without it gets a plain error result.
"""

import logging
import warnings
from typing import Annotated, Literal

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.elicitation import AcceptedElicitation, get_elicitation_schema
from mcp import MCPDeprecationWarning
from mcp_types import (
    ClientCapabilities,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    SamplingCapability,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field, ValidationError

from workbench.demo.tools import hints, register

__all__ = ["Booking", "add_asking_tools", "book_table", "summarize"]

SYSTEM_PROMPT = "You summarize texts in exactly one plain sentence."
MAX_TOKENS = 120


class Booking(BaseModel):
    """The booking form: a flat object of primitives, as elicitation requires."""

    party_size: int = Field(ge=1, le=12, description="How many people, 1 to 12.")
    time: Literal["18:00", "19:30", "21:00"] = Field(description="One of the free time slots.")
    terrace: bool = Field(default=False, description="Sit outside if the weather allows.")


async def book_table(
    ctx: Context,
    restaurant: Annotated[
        str, Field(min_length=1, max_length=80, description="The (made-up) restaurant's name.")
    ],
) -> str | InputRequiredResult:
    """Book a table, asking the user for the details: elicitation.

    The client shows a small form (party size, a time slot, terrace or not); the user may fill
    it in, decline or cancel. Nothing is booked anywhere: the result says what was accepted.
    """
    _require(ctx, ClientCapabilities(elicitation=ElicitationCapability()), "elicitation")
    message = f"Book a table at {restaurant}: how many people, and when?"
    if _modern(ctx):
        answer = (ctx.input_responses or {}).get("booking")
        if answer is None:
            form = ElicitRequestFormParams(
                message=message, requested_schema=get_elicitation_schema(Booking)
            )
            return InputRequiredResult(input_requests={"booking": ElicitRequest(params=form)})
        if not isinstance(answer, ElicitResult):
            raise ToolError("The client answered the booking form with something else.")
        if answer.action != "accept":
            return _not_booked(restaurant, answer.action)
        try:
            booking = Booking.model_validate(answer.content or {})
        except ValidationError as error:
            raise ToolError(f"The booking form came back invalid: {error}") from None
    else:
        reply = await ctx.elicit(message, Booking)
        if not isinstance(reply, AcceptedElicitation):
            return _not_booked(restaurant, reply.action)
        booking = reply.data
    people = f"{booking.party_size} {'person' if booking.party_size == 1 else 'people'}"
    where = "on the terrace" if booking.terrace else "inside"
    return f"Booked a table at {restaurant} for {people} at {booking.time}, {where}."


def _not_booked(restaurant: str, action: Literal["decline", "cancel"]) -> str:
    if action == "decline":
        return f"Declined: the user said no, so no table is booked at {restaurant}."
    return f"Cancelled: the form was dismissed, so no table is booked at {restaurant}."


async def summarize(
    ctx: Context,
    text: Annotated[
        str, Field(min_length=1, max_length=20_000, description="The text to summarize.")
    ],
) -> str | InputRequiredResult:
    """Summarize a text in one sentence by asking the client's language model: sampling.

    The server has no model: the client picks one, and may show the request to the user
    first. MCP 2026-07-28 deprecates sampling (SEP-2577), but clients still answer it.
    """
    _require(ctx, ClientCapabilities(sampling=SamplingCapability()), "sampling")
    messages = [
        SamplingMessage(
            role="user",
            content=TextContent(type="text", text=f"Summarize in one sentence:\n\n{text}"),
        )
    ]
    answer: object
    if _modern(ctx):
        answer = (ctx.input_responses or {}).get("summary")
        if answer is None:
            params = CreateMessageRequestParams(
                messages=messages, system_prompt=SYSTEM_PROMPT, max_tokens=MAX_TOKENS
            )
            return InputRequiredResult(
                input_requests={"summary": CreateMessageRequest(params=params)}
            )
    else:
        answer = await ctx.session.create_message(
            messages,
            max_tokens=MAX_TOKENS,
            system_prompt=SYSTEM_PROMPT,
            related_request_id=ctx.request_id,
        )
    if not isinstance(answer, CreateMessageResult | CreateMessageResultWithTools):
        raise ToolError("The client answered the sampling request with something else.")
    blocks = answer.content if isinstance(answer.content, list) else [answer.content]
    summary = " ".join(block.text for block in blocks if isinstance(block, TextContent)).strip()
    if not summary:
        raise ToolError("The client's model answered without any text.")
    return summary


def _modern(ctx: Context) -> bool:
    """Whether this call came over MCP 2026-07-28, where a tool asks by returning."""
    context = ctx.request_context
    return context is not None and context.protocol_version in MODERN_PROTOCOL_VERSIONS


def _require(ctx: Context, capability: ClientCapabilities, feature: str) -> None:
    if not ctx.session.check_client_capability(capability):
        raise ToolError(
            f"This client does not support {feature}: it did not declare the {feature} "
            "capability, so this tool cannot ask it anything. Use a client that does (with "
            f"fastmcp, pass {feature}_handler= to Client).",
            log_level=logging.INFO,  # the client's limit, not the server's fault
        )


def add_asking_tools(server: FastMCP) -> None:
    """Serve ``book_table`` and ``summarize``; neither changes anything on the server."""
    # Before 2026-07-28, sampling is a server-to-client request the SDK marks deprecated
    # (SEP-2577) at every call; the demo shows it on purpose, so only that warning, raised
    # from this module, is silenced.
    warnings.filterwarnings(
        "ignore",
        message="The sampling capability is deprecated",
        category=MCPDeprecationWarning,
        module=r"workbench\.demo\.asking",
    )
    # The answers come from a person or a model: the same call may give a new result.
    register(
        server,
        book_table,
        title="Book a table (elicitation)",
        tags={"elicitation"},
        annotations=hints(idempotent=False),
    )
    register(
        server,
        summarize,
        title="Summarize a text (sampling)",
        tags={"sampling"},
        annotations=hints(idempotent=False),
    )
