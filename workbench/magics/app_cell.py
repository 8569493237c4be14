"""``%%app NAME``: the cell's HTML served as the MCP App ``ui://notebook/NAME``.

A tool shows it when it names it (``%%tool --ui NAME``, ``@tool(ui="NAME")``). ``%app NAME``
(the line magic) puts a new ``%%app NAME`` cell holding the template App below; run that.
``%app NAME --file PATH`` serves a file's HTML instead. Where the HTML has the marker
``<!-- workbench:app-sdk -->``, the MCP Apps SDK (its ``App`` class, bundled with the lab
extension: no CDN) is inlined. Re-running the cell replaces the HTML: subscribed clients are
told the resource was updated, and Apps drawn in the notebook reload in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail, usage_errors
from workbench.names import LOCAL_SERVER

if TYPE_CHECKING:
    from argparse import Namespace

    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.tools.app_definition import App

_CSP = {
    "csp_connect": "connectDomains",
    "csp_resource": "resourceDomains",
    "csp_frame": "frameDomains",
    "csp_base_uri": "baseUriDomains",
}
_ORIGINS = "ORIGIN[,ORIGIN...]"


@magic_arguments(name="%app")
@argument("name", help="The App's name: it is served at ui://notebook/NAME.")
@argument(
    "--template",
    action="store_true",
    help="Put a new %%%%app NAME cell holding the template App below (as %%app NAME does).",
)
@argument("--file", metavar="PATH", help="Serve this HTML file's text instead of the cell's.")
@argument(
    "--csp-connect",
    action="append",
    default=[],
    metavar=_ORIGINS,
    help="Origins the App may fetch or open sockets to (csp connectDomains); none by default.",
)
@argument(
    "--csp-resource",
    action="append",
    default=[],
    metavar=_ORIGINS,
    help="Origins it may load scripts, styles, images and fonts from (resourceDomains).",
)
@argument(
    "--csp-frame", action="append", default=[], metavar=_ORIGINS, help="Origins it may frame."
)
@argument(
    "--csp-base-uri", action="append", default=[], metavar=_ORIGINS, help="Allowed base URIs."
)
@argument(
    "--permission",
    action="append",
    default=[],
    metavar="NAME[,NAME...]",
    help="Ask the host for camera, microphone, geolocation or clipboardWrite.",
)
@argument(
    "--border",
    action="store_true",
    default=None,
    help="It prefers a border drawn around it (prefersBorder).",
)
@argument(
    "--no-border",
    dest="border",
    action="store_false",
    help="It prefers no border.",
)
@argument("--title", help="A human-readable title.")
@argument("--description", help="What the App shows.")
def app_cell(state: KernelState, shell: InteractiveShell, line: str, cell: str | None) -> None:
    """Serve the cell's HTML as the MCP App ui://notebook/NAME of the 'notebook' server; a
    tool shows it with %%tool --ui NAME or @tool(ui="NAME"). %app NAME puts a %%app cell
    with the template App below; %app NAME --file PATH serves a file's HTML. Re-running the
    cell replaces the HTML and reloads the App where it is drawn."""
    args = parse_line(app_cell, line)
    from workbench.tools.app_definition import app_uri

    with usage_errors():
        uri = app_uri(args.name)
    if args.file is None and (cell is None or args.template or not cell.strip()):
        _put_template(shell, args.name, uri)
        return
    if cell is not None and cell.strip() and args.file is not None:
        raise fail("%%app: give the HTML in the cell or as --file PATH, not both.")
    app = _app(args, cell)
    cell_id = state.cell_id
    owner = f"cell:{cell_id}" if cell_id else f"app:{app.name}"
    with usage_errors():
        change = state.workbench.set_owned_offers(owner, [app], [])
    dropped = change.removed_resources
    if dropped:
        print(f"Removed {', '.join(dropped)} from {LOCAL_SERVER}.")
    size = f"{len(app.html.encode('utf-8')) / 1024:.0f} kB"
    print(f"Serving App {app.name} at {uri} ({size}) on {LOCAL_SERVER}.")
    print(_shown_by(state, uri, app.name))
    if uri in change.replaced_resources:
        _reload(uri, app.html_sha256)


def _app(args: Namespace, cell: str | None) -> App:
    from workbench.apps.template import inline_sdk
    from workbench.tools.app_definition import App

    csp: dict[str, list[str]] = {}
    for flag, key in _CSP.items():
        origins = _split(getattr(args, flag))
        if origins:
            csp[key] = origins
    permissions: dict[str, dict[str, object]] = {n: {} for n in _split(args.permission)}
    with usage_errors():
        if args.file is not None:
            made = App(args.name, path=args.file)
            html = made.html
        else:
            assert cell is not None
            html = cell[:-1] if cell.endswith("\n") else cell
        return App(
            args.name,
            html=inline_sdk(html),
            csp=csp or None,
            permissions=permissions or None,
            prefers_border=args.border,
            title=args.title,
            description=args.description,
        )


def _split(given: list[str]) -> list[str]:
    return [item.strip() for value in given for item in value.split(",") if item.strip()]


def _put_template(shell: InteractiveShell, name: str, uri: str) -> None:
    """A new ``%%app NAME`` cell with the template below this one (the front end puts it
    there; a terminal IPython offers it as the next input)."""
    from workbench.apps.template import cell, sdk_path

    shell.set_next_input(cell(name), replace=False)
    print(f"The template App is in a new %%app {name} cell below: run it to serve {uri}.")
    if sdk_path() is None:
        print("The MCP Apps SDK is not bundled (build the lab extension), so it cannot connect.")


def _shown_by(state: KernelState, uri: str, name: str) -> str:
    """Which notebook tools show the App, or how to make one show it."""
    from workbench.tools.app_definition import tool_app_uri

    workbench = state.existing
    found: list[str] = []
    if workbench is not None:
        local = [e for e in workbench.registry if e.server == LOCAL_SERVER]
        found = [e.name for e in local if tool_app_uri(e.meta) == uri]
    if found:
        return f"Shown by {', '.join(f'{LOCAL_SERVER}.{n}' for n in found)}."
    return f'No tool shows it yet: give one --ui {name} (%%tool) or ui="{name}" (@tool).'


def _reload(uri: str, sha: str) -> None:
    """Tell Apps drawn in the notebook to fetch the new HTML (the ``workbench.apps`` comm)."""
    from workbench.lab.apps_comm import push_reload

    push_reload(LOCAL_SERVER, uri, sha)
