"""``%mcp serve``: the notebook's tools served to outside MCP clients over streamable HTTP.

It says first what needs a look (a filter naming no tool yet, whether serving again kept the
address and the token), then the URL, the token masked (never its value: a saved notebook
keeps cell output) and where a client takes it from without it ever entering a cell (a file
only its owner reads, or the ``${env:VAR}`` it came from), and client configurations.
"""

from __future__ import annotations

import shlex
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.errors import ServeWarning
from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors
from workbench.names import LOCAL_SERVER
from workbench.secrets import MASK

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp serve")
@argument(
    "--port", type=int, default=0,
    help="The port (default: the one served before, else a free one).",
)  # fmt: skip
@argument("--host", default="127.0.0.1", help="The address to bind (default 127.0.0.1).")
@argument(
    "--allow-remote", action="store_true",
    help="Allow a --host other than loopback: other machines can then call the tools.",
)  # fmt: skip
@argument(
    "--token", metavar="VALUE|${env:VAR}",
    help="The bearer token clients must send (default: the one served before, else "
    "${env:WORKBENCH_TOKEN} if set, else a random one, kept in a file only you can read).",
)  # fmt: skip
@argument("--new-token", action="store_true", help="A new random token, even when serving again.")
@argument("--no-auth", action="store_true", help="No token at all (with a warning).")
@argument(
    "--expose", action="append", metavar="A,B",
    help="Serve only these tools (and resources by URI or name, prompts by name).",
)  # fmt: skip
@argument(
    "--exclude", action="append", default=[], metavar="C",
    help="Never these tools (resources, prompts).",
)  # fmt: skip
@argument("--page-size", type=int, default=100, metavar="N", help="Tools per tools/list page.")
@argument("--instructions", metavar="TEXT|FILE", help="Sent to clients at initialize.")
@argument(
    "--gateway", nargs="?", const="also", choices=["also", "only"],
    help="Also serve find_tools / call_tool over every connected server (only: just them).",
)  # fmt: skip
@argument(
    "--pin", action="append", default=[], metavar="A,B",
    help="With --gateway: list these connected tools directly beside find_tools / call_tool.",
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
        served = workbench.serving
        if served is None:
            print("Nothing is being served.")
            return None
        served.stop()
        print(f"Stopped serving {served.url}; the port is closed.")
        return None
    with usage_errors(), warnings.catch_warnings():
        warnings.simplefilter("ignore", ServeWarning)  # said first in the output instead
        handle = workbench.serve(
            host=args.host,
            port=args.port,
            token=args.token,
            new_token=args.new_token,
            auth=not args.no_auth,
            allow_remote=args.allow_remote,
            expose=None if args.expose is None else _names(args.expose),
            exclude=_names(args.exclude),
            page_size=args.page_size,
            instructions=_instructions(args.instructions),
            gateway=args.gateway,
            pin=_names(args.pin),
            server=args.server,
        )
    print(report(handle))
    return None


def report(handle: Any) -> str:
    """What needs a look, URL, tools, where clients take the token from, and configs."""
    tools = handle.tools()
    lines = [*getattr(handle, "notes", ())]
    lines.append(
        f"Serving {len(tools)} tool{'' if len(tools) == 1 else 's'}{_of(handle)} at {handle.url}"
        + (f" ({', '.join(tools)})" if tools else " (none yet)")
    )
    resources, prompts = handle.offers() if hasattr(handle, "offers") else ([], [])
    if resources or prompts:
        lines.append(f"With resources: {', '.join(resources) or 'none'}; "
                     f"prompts: {', '.join(prompts) or 'none'}.")  # fmt: skip
    pins = getattr(handle, "pins", None)
    if pins is not None:  # the gateway's token meter, its pins counted
        lines.append(f"Gateway tokens: {pins.token_report()}")
    lines.append(_token_line(handle))
    lines.append("Stop with %mcp serve --stop; %mcp servers shows connected clients.")
    for title, text in handle.client_configs().items():
        lines += ["", f"{title}:", text.rstrip()]
    return "\n".join(lines)


def _token_line(handle: Any) -> str:
    """Where a client takes the token from; never the token itself."""
    shown = handle.token_shown
    if shown is None:
        return "No auth: any program on this machine can call these tools."
    variable = handle.token_variable
    if shown != MASK:
        return (
            f"Token: {shown}, from the kernel's environment: the configs below read "
            f"${variable} too, so set it where the client runs."
        )
    path = getattr(handle, "token_file", None)
    if path is None:
        return (
            f"Token: {shown} (it could not be written to a file: serve with "
            "--token ${env:VAR}, VAR set before starting Jupyter, to share it)."
        )
    return (
        f"Token: {shown}, kept in {path} (only you can read it; never print it in a cell: "
        f"the notebook would keep it). In the shell that starts a client:\n"
        f'  export {variable}="$(cat {shlex.quote(str(path))})"'
    )


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
