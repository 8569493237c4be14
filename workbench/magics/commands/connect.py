"""``%mcp connect``: open a named connection (demo, stdio command, HTTP URL, config file)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse, seconds
from workbench.magics.parsing import Token, fail, one_line, tokenize, usage_errors
from workbench.magics.views import show, tool_table

if TYPE_CHECKING:
    from argparse import Namespace

    from workbench.kernel import KernelState
    from workbench.session import Workbench

USAGE = """\
mcp connect demo
  %%mcp connect NAME URL [--header KEY=VALUE]... [--token TOKEN] [--timeout SECONDS]
  %%mcp connect NAME [--env KEY=VALUE]... [--cwd DIR] [--inherit-env] [--timeout SECONDS]
      -- COMMAND [ARG ...]
  %%mcp connect --config FILE [NAME ...]"""


@dataclass
class Target:
    """What ``Workbench.connect`` gets, read and checked before anything connects."""

    name: str
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    token: str | None = None
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    shown: str | None = None


@magic_arguments(name="mcp connect", usage=USAGE)
@argument("targets", nargs="*", metavar="NAME [URL]", help="The server's name, then its URL.")
@argument("--config", metavar="FILE", help="An mcp.json file; connects its servers (or NAMEs).")
@argument(
    "--header",
    action="append",
    default=[],
    metavar="KEY=VALUE",
    help="An HTTP header (repeatable); the value may use ${env:VAR}.",
)
@argument("--token", help="A bearer token for an HTTP server; may be ${env:VAR}.")
@argument(
    "--env",
    action="append",
    default=[],
    metavar="KEY=VALUE",
    help="An environment variable for a stdio server (repeatable); may use ${env:VAR}.",
)
@argument("--cwd", metavar="DIR", help="The working directory of a stdio server.")
@argument(
    "--inherit-env",
    action="store_true",
    help="Give a stdio server every variable of the kernel, its tokens too (risky: only for "
    "servers you trust). Without it, the server gets HOME, PATH, locale and --env only.",
)
@argument("--timeout", type=seconds, metavar="SECONDS", help="Default per-call timeout (60 s).")
@argument(
    "--connect-timeout", type=seconds, metavar="SECONDS", help="How long starting may take (30 s)."
)
def connect(state: KernelState, line: str) -> None:
    """Connect an MCP server by name and show its tools.

    `demo` is the embedded demo server (offline). After `--` comes the command of a stdio
    server; a URL means streamable HTTP. Connecting a name again replaces the connection.
    """
    tokens = tokenize(line)
    before, command = _split_command(tokens)
    args = parse(connect, [token.text for token in before])
    if args.config is not None:
        _connect_config(state, args, command)
        return
    target = _target(args, command)
    with usage_errors():
        workbench = state.workbench
        info = workbench.connect(
            target.name,
            command=target.command,
            args=target.args,
            env=target.env,
            cwd=target.cwd,
            url=target.url,
            headers=target.headers,
            token=target.token,
            timeout=args.timeout,
            connect_timeout=args.connect_timeout,
            inherit_env=args.inherit_env,
            shown=target.shown,
        )
    show(tool_table(workbench, [info.name]))


def _split_command(tokens: list[Token]) -> tuple[list[Token], list[str]]:
    """The words before ``--`` are ours; the ones after are the stdio command, untouched."""
    for index, token in enumerate(tokens):
        if token.raw == "--":
            command = [t.text for t in tokens[index + 1 :]]
            if not command:
                raise fail("%mcp connect: give the command after '--'.")
            return tokens[:index], command
    return tokens, []


def _target(args: Namespace, command: list[str]) -> Target:
    """The server to connect, from the words of the line; ``Workbench.connect`` checks
    the settings (one place for every caller)."""
    from workbench.config import expand

    if not args.targets:
        raise fail("%mcp connect: give a server name (or --config FILE).")
    if len(args.targets) > 2:
        extra = one_line(" ".join(args.targets[2:]))
        raise fail(f"%mcp connect: unexpected {extra}; put a command after '--'.")
    target = Target(args.targets[0])
    with usage_errors():
        if len(args.targets) == 2:
            target.shown = args.targets[1]  # ${env:KEY} as written, for tables and errors
            target.url = expand(args.targets[1])
        if command:
            target.command, target.args = command[0], command[1:]
        target.headers = dict(_header(pair) for pair in args.header)
        target.token = expand(args.token) if args.token is not None else None
        target.env = dict(_pair(pair, "--env") for pair in args.env)
        target.cwd = args.cwd
    return target


def _pair(text: str, option: str) -> tuple[str, str]:
    """``KEY=VALUE`` with ``${env:VAR}`` expanded (an empty value is allowed here)."""
    from workbench.config import expand

    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise fail(f"%mcp connect: {option} takes KEY=VALUE, not {one_line(text)}.")
    return key.strip(), expand(value)


def _header(text: str) -> tuple[str, str]:
    """``KEY=VALUE``, or ``KEY: VALUE`` as headers are usually written."""
    colon, equals = text.find(":"), text.find("=")
    if colon > 0 and (equals < 0 or colon < equals):
        key, value = text[:colon], text[colon + 1 :].strip()
        return _pair(f"{key}={value}", "--header")
    return _pair(text, "--header")


def _connect_config(state: KernelState, args: Namespace, command: list[str]) -> None:
    given = {"--header": args.header, "--token": args.token, "--env": args.env,
             "--cwd": args.cwd, "--timeout": args.timeout,
             "--connect-timeout": args.connect_timeout, "--inherit-env": args.inherit_env,
             "--": command}  # fmt: skip
    clash = [option for option, value in given.items() if value]
    if clash:
        raise fail(f"%mcp connect: --config takes its settings from the file, not {clash[0]}.")
    with usage_errors(), warnings.catch_warnings(record=True):
        # A server that fails stays listed with its error; the table below says so.
        warnings.simplefilter("always")
        workbench: Workbench = state.workbench
        infos = workbench.connect_config(args.config, args.targets or None)
    from workbench.display import ServerTable

    show(ServerTable(infos))
    connected = [info.name for info in infos if info.status == "connected"]
    if connected:
        show(tool_table(workbench, connected))
