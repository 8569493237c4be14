"""``%mcp export``: the notebook's tools as a standalone FastMCP server script."""

from __future__ import annotations

import json
import shlex
import sys
from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors

if TYPE_CHECKING:
    from workbench.export import ExportResult
    from workbench.kernel import KernelState


@magic_arguments(name="mcp export")
@argument("path", metavar="FILE.py", help="The script to write.")
@argument(
    "--tools",
    metavar="NAME[,NAME...]",
    help="Only these notebook tools (and resources by URI or name, prompts by name).",
)
@argument("--force", action="store_true", help="Replace the file if it exists.")
def export(state: KernelState, line: str) -> ExportResult:
    """Write the notebook's tools, resources and prompts as a standalone FastMCP server script.

    The script holds each tool's code (with the imports, helpers, classes and constants it
    uses) and lists each tool as the notebook does; run it with `python FILE.py` (stdio)
    or `python FILE.py --http --port N`. Tools whose code cannot be written out (lambdas,
    closures, exec, bound methods) are listed with the reason.
    """
    args = parse_line(export, line)
    tools = None
    if args.tools is not None:
        tools = [name.strip() for name in args.tools.split(",") if name.strip()]
        if not tools:
            raise fail("%mcp export: --tools needs at least one tool name.")
    with usage_errors():
        result = state.workbench.export(args.path, tools=tools, overwrite=args.force)
    print(report(result, sys.executable))
    return result


def report(result: ExportResult, python: str) -> str:
    """What was written, what was left out and why, and how to run it."""
    count = len(result.exported)
    lines = [
        f"Wrote {result.path}: {count} tool{'' if count == 1 else 's'} "
        f"({', '.join(result.exported)}).",
    ]
    if result.offered:
        lines.append(f"With the resources and prompts {', '.join(result.offered)}.")
    if result.skipped:
        lines.append(f"Skipped {len(result.skipped)}:")
        lines.extend(f"  {item.name}: {item.reason}." for item in result.skipped)
    lines += [
        "Run it over stdio:",
        f"  {shlex.join(result.stdio_command(python))}",
        "or over HTTP (http://127.0.0.1:8000/mcp), with a token clients must send as a bearer",
        "token (without one, any process on this machine may call the tools):",
        f"  WORKBENCH_TOKEN=<a secret> {shlex.join(result.http_command(python))}",
        "mcp.json entry (Claude Desktop, Cursor):",
        json.dumps(result.mcp_json(python), indent=2),
    ]
    return "\n".join(lines)
