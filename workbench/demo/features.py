"""The demo's resources, resource template, prompt and argument completion.

``demo://guide`` (a markdown text), ``demo://chart.png`` (a PNG blob), the template
``demo://numbers/{n}`` (JSON facts about an integer), the prompt ``explain_tool``, and the one
completion handler a server has, which completes the template's ``n`` and the prompt's
``tool`` and ``level``.
"""

import json
from typing import Annotated, Any, Literal

from fastmcp import FastMCP
from fastmcp.exceptions import PromptError, ResourceError
from fastmcp.prompts import Message
from mcp_types import CompletionArgument, CompletionContext, PromptReference
from pydantic import Field

from workbench.demo.png import bar_chart_png

__all__ = ["CHART_URI", "GUIDE_URI", "NUMBERS_URI", "PROMPT", "add_features", "number_facts"]

GUIDE_URI = "demo://guide"
CHART_URI = "demo://chart.png"
NUMBERS_URI = "demo://numbers/{n}"
PROMPT = "explain_tool"
LEVELS = ("beginner", "expert")
LARGEST = 10**9
"""The largest magnitude ``demo://numbers/{n}`` accepts: factoring stays instant."""

GUIDE = f"""\
# The demo server

A server built into the workbench to learn MCP offline. Each part shows one feature.

## Tools
- `add`, `text_stats`, `draw_chart`: a plain result, structured output, an image.
- `slow_count`, `log_demo`, `fail`: progress, log messages, an error result.
- `create_event`, `list_events`, `get_time`: nested arguments, a little state, a clock.
- `book_table`: **elicitation**, the server asks the user to fill in a small form.
- `summarize`: **sampling**, the server asks the client's language model for a sentence.

## Resources
- `{GUIDE_URI}`: this guide, a static markdown text.
- `{CHART_URI}`: a bar chart, a binary resource (a PNG blob).
- `{NUMBERS_URI}`: a resource **template**; read `demo://numbers/42` for facts about 42
  as JSON. The server completes `n` (1 to 100) as you type.

## Prompts
- `{PROMPT}`: messages that ask a model to explain a demo tool to a beginner or an
  expert. The server completes both arguments: `tool` and `level`.
"""


def number_facts(n: int) -> dict[str, Any]:
    """Facts about an integer: powers, parity, primality, prime factors and other bases."""
    if abs(n) > LARGEST:
        raise ResourceError(f"n must be between -{LARGEST} and {LARGEST}; got {n}.")
    factors = _prime_factors(abs(n))
    return {
        "n": n,
        "square": n * n,
        "cube": n**3,
        "parity": "even" if n % 2 == 0 else "odd",
        "is_prime": factors == [n],
        "prime_factors": factors,
        "binary": format(n, "b"),
        "hexadecimal": format(n, "x"),
    }


def _prime_factors(n: int) -> list[int]:
    """The prime factors of ``n`` with repeats, smallest first; none for 0 and 1."""
    factors, divisor = [], 2
    while n > 1 and divisor * divisor <= n:
        while n % divisor == 0:
            factors.append(divisor)
            n //= divisor
        divisor += 1
    if n > 1:
        factors.append(n)
    return factors


def _matching(candidates: list[str], typed: str) -> list[str]:
    return [value for value in candidates if value.casefold().startswith(typed.casefold())]


def add_features(server: FastMCP) -> None:
    """Serve the demo's resources, template and prompt, and complete their arguments."""

    def guide() -> str:
        return GUIDE

    def chart() -> bytes:
        return bar_chart_png([3, 1, 4, 1, 5, 9, 2, 6], "Digits of pi")

    def numbers(n: int) -> str:
        return json.dumps(number_facts(n), indent=2)

    server.resource(
        GUIDE_URI,
        name="guide",
        title="Guide to the demo server",
        description="What each tool, resource and prompt of the demo server shows.",
        mime_type="text/markdown",
        tags={"resources"},
    )(guide)
    server.resource(
        CHART_URI,
        name="chart",
        title="A bar chart",
        description="The first digits of pi as a bar chart: a binary resource (PNG).",
        mime_type="image/png",
        tags={"resources"},
    )(chart)
    server.resource(
        NUMBERS_URI,
        name="numbers",
        title="Facts about a number",
        description=(
            "A resource template: facts about the integer n (square, cube, parity, "
            "primality, prime factors, binary, hexadecimal) as JSON."
        ),
        mime_type="application/json",
        tags={"resources"},
    )(numbers)

    async def explain_tool(
        tool: Annotated[str, Field(description="The name of a demo tool, e.g. add.")],
        level: Annotated[
            Literal["beginner", "expert"], Field(description="Who the explanation is for.")
        ] = "beginner",
    ) -> list[Message]:
        found = await server.get_tool(tool)
        if found is None:
            raise PromptError(f"No demo tool is called {tool!r}.")
        schema = json.dumps(found.parameters.get("properties", {}), indent=2)
        if level == "beginner":
            ask = "Use plain words, no jargon, and end with one example call."
        else:
            ask = "Cover each argument, the shape of the result and the MCP feature it shows."
        return [
            Message(
                f"Explain the MCP tool `{tool}` of the demo server to {_reader(level)}. {ask}\n\n"
                f"Its description: {found.description}\n\nIts arguments:\n{schema}"
            ),
            Message(
                f"Sure. `{tool}` ({found.title or tool}) is one of the demo server's tools; "
                f"here is what it does, explained for {_reader(level)}.",
                role="assistant",
            ),
        ]

    server.prompt(
        explain_tool,
        title="Explain a demo tool",
        description="Messages asking a model to explain one demo tool to a beginner or an expert.",
        tags={"prompts"},
    )

    async def complete(
        ref: Any, argument: CompletionArgument, context: CompletionContext | None
    ) -> list[str]:
        if isinstance(ref, PromptReference):
            if ref.name != PROMPT:
                return []
            if argument.name == "tool":
                names = sorted(tool.name for tool in await server.list_tools())
                return _matching(names, argument.value)
            return _matching(list(LEVELS), argument.value) if argument.name == "level" else []
        if ref.uri == NUMBERS_URI and argument.name == "n":
            return _matching([str(n) for n in range(1, 101)], argument.value)
        return []

    server.completion(complete)


def _reader(level: str) -> str:
    return "a beginner" if level == "beginner" else "an expert"
