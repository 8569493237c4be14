"""``%mcp prompt``: get a prompt's messages; the PromptResult is the cell's value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse
from workbench.magics.parsing import text_pairs, tokenize, usage_errors

if TYPE_CHECKING:
    from workbench.features.prompts import PromptResult
    from workbench.kernel import KernelState


@magic_arguments(name="mcp prompt")
@argument("name", metavar="NAME", help="A prompt's name, or server.prompt.")
@argument("arguments", nargs="*", metavar="KEY=VALUE", help="The prompt's arguments (text).")
@argument("--server", metavar="NAME", help="The server whose prompt it is (when several).")
def prompt(state: KernelState, line: str) -> PromptResult:
    """Get a prompt's messages and return them (so `p = %mcp prompt ...` and `_` work).

    `%mcp prompt explain_tool tool=add level=expert`. Values are text, as MCP prompts take
    them; a required argument left out is refused before anything is sent. `p.text` is the
    conversation as text, `p.to_messages()` as MCP messages for an LLM client.
    """
    tokens = tokenize(line)
    args = parse(prompt, [token.text for token in tokens])
    arguments = text_pairs(tokens, args.arguments, "%mcp prompt")
    with usage_errors():
        return state.workbench.get_prompt(args.name, arguments, server=args.server)
