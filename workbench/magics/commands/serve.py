"""``%mcp serve``: the notebook's tools served to outside MCP clients over streamable HTTP.

It prints the URL, the token masked (never its value: a saved notebook keeps cell output)
and where to copy it from, and client configurations that read the token from the
environment or ask for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors
from workbench.names import LOCAL_SERVER

if TYPE_CHECKING:
    from workbench.kernel import KernelState

TOKEN_FROM = "workbench.current().served.token"


@magic_arguments(name="mcp serve")
@argument("--port", type=int, default=0, help="The port (default: a free one).")
@argument("--host", default="127.0.0.1", help="The address to bind (default 127.0.0.1).")
@argument(
    "--allow-remote", action="store_true",
    help="Allow a --host other than loopback: other machines can then call the tools.",
)  # fmt: skip
@argument(
    "--token", metavar="VALUE|${env:VAR}",
    help="The bearer token clients must send (default: a random one).",
)  # fmt: skip
@argument("--no-auth", action="store_true", help="No token at all (with a warning).")
@argument("--expose", action="append", metavar="A,B", help="Serve only these tools.")
@argument("--exclude", action="append", default=[], metavar="C", help="Never these tools.")
@argument("--page-size", type=int, default=100, metavar="N", help="Tools per tools/list page.")
@argument("--instructions", metavar="TEXT|FILE", help="Sent to clients at initialize.")
@argument(
    "--gateway", nargs="?", const="also", choices=["also", "only"],
    help="Also serve find_tools / call_tool over every connected server (only: just them).",
)  # fmt: skip
@argument(
    "--server", metavar="NAME", default=None,
    help="Serve the tools of connection NAME through the workbench (default: notebook); "
    "not with --gateway.",
)  # fmt: skip
@argument("--stop", action="store_true", help="Stop serving and close the port.")
def serve(state: KernelState, line: str) -> Any:
    """Serve the notebook's tools to outside MCP clients (Claude Desktop, Cursor, VS Code,
    agents): streamable HTTP on 127.0.0.1, a bearer token, filters applied to listing and
    calling alike. Editing a %%tool cell changes the served tools at once; connected
    clients are told. Served calls appear in %mcp history as coming from outside.
    """
    args = parse_line(serve, line)
    workbench = state.workbench
    if args.stop:
        served = workbench.served
        if served is None or not served.running:
            print("Nothing is being served.")
            return None
        served.stop()
        print(f"Stopped serving {served.url}; the port is closed.")
        return None
    with usage_errors():
        handle = workbench.serve(
            host=args.host,
            port=args.port,
            token=args.token,
            auth=not args.no_auth,
            allow_remote=args.allow_remote,
            expose=None if args.expose is None else _names(args.expose),
            exclude=_names(args.exclude),
            page_size=args.page_size,
            instructions=_instructions(args.instructions),
            gateway=args.gateway,
            server=args.server,
        )
    print(report(handle))
    return None


def report(handle: Any) -> str:
    """URL, tools, the token masked and where to copy it, and client configurations."""
    tools = handle.tools()
    lines = [
        f"Serving {len(tools)} tool{'' if len(tools) == 1 else 's'}{_of(handle)} at {handle.url}"
        + (f" ({', '.join(tools)})" if tools else ""),
    ]
    if handle.token_shown is None:
        lines.append("No auth: any program on this machine can call these tools.")
    else:
        lines.append(
            f"Token: {handle.token_shown} (copy it from {TOKEN_FROM}; the configs below "
            "read it from the environment or ask for it)."
        )
    lines.append("Stop with %mcp serve --stop; %mcp servers shows connected clients.")
    for title, text in handle.client_configs().items():
        lines += ["", f"{title}:", text.rstrip()]
    return "\n".join(lines)


def _of(handle: Any) -> str:
    """`` of SERVER`` when a connection's tools are served, else nothing."""
    server = getattr(handle, "server", LOCAL_SERVER)
    return "" if server == LOCAL_SERVER else f" of {server}"


def _names(given: list[str]) -> list[str]:
    return [name.strip() for chunk in given for name in chunk.split(",") if name.strip()]


def _instructions(given: str | None) -> str | None:
    """The text, or the file's content when it names a file."""
    if given is None:
        return None
    path = Path(given).expanduser()
    try:
        named_file = path.is_file()
    except (OSError, ValueError):  # a long text is no file name
        return given
    if not named_file:
        return given
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise fail(f"%mcp serve: --instructions {given}: {error}.") from None
