"""Notebook tools that tell their caller how they are doing (``workbench.get_context()``),
written as a module for the export tests: one runs in a worker thread, one on the loop."""

from __future__ import annotations

from workbench import get_context, tool


@tool
def count(n: int) -> str:
    """Count to n, reporting each step."""
    context = get_context()
    context.info(f"counting to {n}")
    for step in range(1, n + 1):
        context.progress(step, n, f"step {step}")
    context.close_stream()  # a no-op where the server keeps no event store
    return f"counted to {n}"


@tool
async def shout(word: str) -> str:
    """Shout a word, warning first."""
    context = get_context()
    context.warning(f"shouting {word}")
    context.progress(1, 1)
    await context.close_stream()
    return word.upper()


TOOLS = [count, shout]
