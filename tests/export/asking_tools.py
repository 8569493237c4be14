"""Notebook tools that ask their caller (``workbench.get_context().elicit``), written as a
module for the export tests: a sync one with a schema dict, an async one with a type."""

from __future__ import annotations

from workbench import get_context, tool


@tool
def ask_name() -> str:
    """Ask the caller's name."""
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    answer = get_context().elicit("Your name?", schema)
    return f"{answer.action}: {(answer.content or {}).get('name')}"


@tool
async def ask_sure() -> str:
    """Ask yes or no."""
    answer = await get_context().elicit("Sure?", bool)
    return f"{answer.action}: {answer.value}"


@tool
def ask_model(prompt: str) -> str:
    """Ask the caller's language model."""
    return str(get_context().sample(prompt, key="model").text)


@tool
async def ask_roots() -> str:
    """The caller's roots."""
    return " ".join(f"{root.uri} ({root.name})" for root in await get_context().roots())


TOOLS = [ask_name, ask_sure, ask_model, ask_roots]
