"""``%mcp read``: read a resource (a template's ``{variables}`` from ``key=value``); the
Observation is the cell's value. ``--subscribe`` follows it, redrawn in place at each update.

The subscriptions these lines start are kept per Workbench, one per URI: subscribing again
replaces the one before (a re-run cell follows once), and ``--unsubscribe`` finds it.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse, seconds
from workbench.magics.parsing import fail, one_line, text_pairs, tokenize, usage_errors
from workbench.magics.views import display_handle

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.session.offerings import ResourceSubscription
    from workbench.tools.schema import Observation

_FOLLOWED: weakref.WeakKeyDictionary[Any, dict[str, ResourceSubscription]] = (
    weakref.WeakKeyDictionary()
)
"""Each Workbench's subscriptions made by ``%mcp read --subscribe``, by URI."""

USAGE = """\
mcp read URI [KEY=VALUE ...] [--server NAME] [--timeout SECONDS]
  %%mcp read URI [KEY=VALUE ...] --subscribe [--server NAME]
  %%mcp read URI [KEY=VALUE ...] --unsubscribe"""


@magic_arguments(name="mcp read", usage=USAGE)
@argument("uri", metavar="URI", help="A resource URI, or a template URI with {variables}.")
@argument("values", nargs="*", metavar="KEY=VALUE", help="A template's variables (text).")
@argument("--server", metavar="NAME", help="The server the URI is on (when several could be).")
@argument("--timeout", type=seconds, metavar="SECONDS", help="Give up after this long.")
@argument("--subscribe", action="store_true", help="Follow it: redraw at each update.")
@argument("--unsubscribe", action="store_true", help="Stop following it.")
def read(state: KernelState, line: str) -> Observation | ResourceSubscription | None:
    """Read a resource and return its Observation (recorded in the history like a call).

    `%mcp read demo://guide`, `%mcp read demo://numbers/{n} n=42`. With --subscribe the
    output is redrawn at each update the server announces, and the subscription is the
    cell's value: `sub = %mcp read URI --subscribe`, then `sub.stop()` or
    `%mcp read URI --unsubscribe` stops following (`sub.latest` is the newest read).
    """
    tokens = tokenize(line)
    args = parse(read, [token.text for token in tokens])
    values = text_pairs(tokens, args.values, "%mcp read")
    if args.subscribe and args.unsubscribe:
        raise fail("%mcp read: give --subscribe or --unsubscribe, not both.")
    if args.timeout is not None and (args.subscribe or args.unsubscribe):
        raise fail("%mcp read: --timeout is for one read; a subscription has none.")
    if args.unsubscribe:
        _unsubscribe(state, _address(args.uri, values))
        return None
    if args.subscribe:
        return _subscribe(state, _address(args.uri, values), args.server)
    with usage_errors():
        return state.workbench.read_resource(
            args.uri, server=args.server, timeout=args.timeout, **values
        )


def _address(uri: str, values: dict[str, str]) -> str:
    """The URI a subscription follows: a template expanded (every variable given)."""
    from workbench.errors import InvalidArgumentsError
    from workbench.features import uri_template

    if "{" not in uri:
        if values:
            raise fail(f"%mcp read: {one_line(uri)} has no {{variables}} to give values to.")
        return uri
    missing = uri_template.missing(uri, values)
    if missing:
        problems = [(name, "required but missing") for name in missing]
        raise fail(str(InvalidArgumentsError(uri, problems)))
    return uri_template.expand(uri, values)


def _subscribe(state: KernelState, uri: str, server: str | None) -> ResourceSubscription:
    handle = display_handle()
    followed = _FOLLOWED.setdefault(state.workbench, {})
    previous = followed.pop(uri, None)
    if previous is not None:
        previous.stop()
    with usage_errors():
        subscription = state.workbench.subscribe_resource(
            uri, server=server, on_update=handle.update
        )
    followed[uri] = subscription
    handle.display(subscription.latest)  # type: ignore[no-untyped-call]
    return subscription


def _unsubscribe(state: KernelState, uri: str) -> None:
    workbench = state.existing
    followed = _FOLLOWED.get(workbench, {}) if workbench is not None else {}
    subscription = followed.pop(uri, None)
    if subscription is None:
        listed = ", ".join(one_line(key) for key in followed) or "none"
        raise fail(f"%mcp read: not following {one_line(uri)} (following: {listed}).")
    subscription.stop()
    print(f"Stopped following {uri} ({subscription.updates} updates).")
