"""``%mcp connect``: open a named connection (demo, stdio command, HTTP URL, config file).

An HTTP server may sign in with OAuth (``--oauth`` and its options): the options become the
mapping ``Workbench.connect(oauth=...)`` checks (``OAuthSettings.from_value``), so the magic,
Python and mcp.json entries share one set of rules and messages."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse, port, seconds
from workbench.magics.parsing import Token, fail, one_line, tokenize, usage_errors
from workbench.magics.views import show, tool_table

if TYPE_CHECKING:
    from argparse import Namespace

    from workbench.config import ConnectOptions
    from workbench.kernel import KernelState
    from workbench.session import Workbench

USAGE = """\
mcp connect demo
  %%mcp connect NAME URL [--header KEY=VALUE]... [--token TOKEN] [--timeout SECONDS]
  %%mcp connect NAME URL --oauth [--client-id ID] [--client-secret SECRET] [--scope S]...
      [--client-metadata-url URL] [--auth-method METHOD] [--client-credentials]
      [--private-key-file PATH] [--issuer URL] [--callback-port N] [--paste] [--no-cache]
  %%mcp connect NAME [--env KEY=VALUE]... [--cwd DIR] [--inherit-env] [--timeout SECONDS]
      -- COMMAND [ARG ...]
  %%mcp connect --config FILE [NAME ...]"""


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
@argument(
    "--oauth",
    action="store_true",
    help="Sign in with OAuth (an HTTP server): a Sign in button, or a link, appears.",
)
@argument("--client-id", metavar="ID", help="OAuth: a client registered beforehand.")
@argument("--client-secret", metavar="SECRET", help="OAuth: its secret; may be ${env:VAR}.")
@argument(
    "--scope",
    action="append",
    default=[],
    metavar="SCOPE",
    help="OAuth: a scope to ask for (repeatable), besides those the server names.",
)
@argument("--client-metadata-url", metavar="URL", help="OAuth: the client's metadata document.")
@argument(
    "--auth-method",
    metavar="METHOD",
    help="OAuth: how the client proves itself at the token endpoint (client_secret_basic, "
    "client_secret_post or none; default: what the server supports).",
)
@argument(
    "--client-credentials",
    action="store_true",
    help="OAuth: no person signs in; the client's id and secret (or key) get the token.",
)
@argument(
    "--private-key-file",
    metavar="PATH",
    help="OAuth client credentials: a PEM private key to sign with (private_key_jwt).",
)
@argument("--issuer", metavar="URL", help="OAuth: the authorization server's issuer.")
@argument(
    "--callback-port",
    type=port,
    metavar="N",
    help="OAuth: the port of the one-shot listener on 127.0.0.1 (default: any free one).",
)
@argument(
    "--paste",
    action="store_true",
    help="OAuth: paste the address the browser ended on (JupyterHub, Binder, a remote kernel).",
)
@argument(
    "--no-cache",
    action="store_true",
    help="OAuth: keep the tokens in memory only, not in the user's data folder.",
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
    name, options = _options(args, command)
    with usage_errors():
        workbench = state.workbench
        info = workbench.connect(name, **options)
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


def _options(args: Namespace, command: list[str]) -> tuple[str, ConnectOptions]:
    """The server's name and the options ``Workbench.connect`` takes, from the words of the
    line (``${env:VAR}`` expanded); ``server_spec`` checks them, one place for every caller."""
    from workbench.config import expand

    if not args.targets:
        raise fail("%mcp connect: give a server name (or --config FILE).")
    if len(args.targets) > 2:
        extra = one_line(" ".join(args.targets[2:]))
        raise fail(f"%mcp connect: unexpected {extra}; put a command after '--'.")
    with usage_errors():
        shown = args.targets[1] if len(args.targets) == 2 else None
        options: ConnectOptions = {
            "url": expand(shown) if shown is not None else None,
            "shown": shown,  # ${env:KEY} as written, for tables and errors
            "command": command[0] if command else None,
            "args": command[1:],
            "headers": dict(_header(pair) for pair in args.header),
            "token": expand(args.token) if args.token is not None else None,
            "env": dict(_pair(pair, "--env") for pair in args.env),
            "cwd": args.cwd,
            "timeout": args.timeout,
            "connect_timeout": args.connect_timeout,
            "inherit_env": args.inherit_env,
        }
        oauth = _oauth(args)
        if oauth is not None:
            options["oauth"] = oauth
    return args.targets[0], options


OAUTH_OPTIONS = {
    "client_id": "--client-id",
    "client_secret": "--client-secret",
    "scope": "--scope",
    "client_metadata_url": "--client-metadata-url",
    "auth_method": "--auth-method",
    "client_credentials": "--client-credentials",
    "private_key_file": "--private-key-file",
    "issuer": "--issuer",
    "callback_port": "--callback-port",
    "paste": "--paste",
    "no_cache": "--no-cache",
}
"""The OAuth options by their argparse names: they apply only with ``--oauth``."""


def _oauth(args: Namespace) -> dict[str, Any] | None:
    """The OAuth settings of the line, as the mapping ``Workbench.connect`` checks; None
    without ``--oauth`` (and then no OAuth option may be given)."""
    from workbench.config import expand

    if not args.oauth:
        given = [option for name, option in OAUTH_OPTIONS.items() if getattr(args, name)]
        if given:
            raise fail(f"%mcp connect: {given[0]} applies with --oauth.")
        return None
    if len(args.targets) < 2:
        raise fail("%mcp connect: --oauth signs in to a server at a URL; give NAME URL.")
    settings: dict[str, Any] = {
        "client_id": args.client_id,
        "client_secret": expand(args.client_secret) if args.client_secret is not None else None,
        "scopes": [scope for words in args.scope for scope in words.split()],
        "client_metadata_url": args.client_metadata_url,
        "token_endpoint_auth_method": args.auth_method,
        "grant": "client_credentials" if args.client_credentials else None,
        "private_key": _private_key(args.private_key_file),
        "issuer": args.issuer,
        "callback_port": args.callback_port,
        "sign_in": "paste" if args.paste else None,
        "cache": False if args.no_cache else None,
    }
    return {key: value for key, value in settings.items() if value not in (None, [])}


def _private_key(path: str | None) -> str | None:
    """The PEM text of ``--private-key-file`` (a secret: never echoed, not even in errors)."""
    if path is None:
        return None
    file = Path(path).expanduser()
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise fail(
            f"%mcp connect: --private-key-file {one_line(str(file))!r} cannot be read "
            "(missing, or not a PEM text file)."
        ) from None


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
             "--oauth": args.oauth,
             **{option: getattr(args, name) for name, option in OAUTH_OPTIONS.items()},
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
