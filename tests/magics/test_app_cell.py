"""``%%app NAME`` and ``%app NAME``, and ``%%tool --ui``: an App built from cells, served on
the notebook server and read back through the ``notebook`` connection, replaced on re-run,
and the template App a new cell starts from."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from tests.magics.test_offer_cells import run
from workbench.apps.template import sdk_path
from workbench.kernel import KernelState
from workbench.tools.app_definition import APP_MIME_TYPE


@pytest.fixture(autouse=True)
def clean_notebook(state: KernelState) -> Iterator[None]:
    yield
    workbench = state.workbench
    for entry in [e for e in workbench.registry if e.server == "notebook"]:
        workbench.remove_tool(entry.name)
    for definition in workbench.notebook_resources():
        workbench.remove_resource(definition.uri)


def read(state: KernelState, uri: str) -> tuple[str, str, dict[str, object] | None]:
    """The App as the notebook connection reads it, and its ``_meta`` as defined."""
    observation = state.workbench.read_resource(uri, server="notebook")
    assert not observation.is_error, observation.error_message
    resource: Any = observation.content[0].resource  # type: ignore[union-attr]
    found = [d for d in state.workbench.notebook_resources() if d.uri == uri]
    meta = getattr(found[0], "meta", None) or {}
    return str(resource.mime_type), str(resource.text), meta.get("ui")


def test_the_template_comes_in_a_new_cell_and_serves_with_the_sdk_inlined(
    ip: InteractiveShell, state: KernelState
) -> None:
    ip.rl_next_input = None
    said = run(ip, "%app clock").stdout
    template = ip.rl_next_input
    assert said.startswith("The template App is in a new %%app clock cell below")
    assert template is not None and template.startswith("%%app clock\n<!doctype html>")
    assert "<!-- workbench:app-sdk" in template  # the cell stays short: inlined when run
    ip.rl_next_input = None
    run(ip, "%app clock --template")
    assert ip.rl_next_input == template

    said = run(ip, template, cell_id="app-cell").stdout
    assert "Serving App clock at ui://notebook/clock (" in said
    assert 'No tool shows it yet: give one --ui clock (%%tool) or ui="clock" (@tool).' in said
    mime, html, _ = read(state, "ui://notebook/clock")
    assert mime == APP_MIME_TYPE
    assert "<!-- workbench:app-sdk" not in html
    if sdk_path() is not None:  # built with the lab extension (jlpm build:app-sdk)
        assert "globalThis.McpApps={" in html and len(html) > 100_000
    else:
        assert "The MCP Apps SDK is not bundled" in html


def test_a_tool_cell_names_its_app_and_a_re_run_app_cell_replaces_the_html(
    ip: InteractiveShell, state: KernelState
) -> None:
    run(ip, '%%tool --ui board\ndef score() -> int:\n    "The score."\n    return 3', "tool")
    run(ip, '%%tool --ui board --app-only\ndef bump() -> int:\n    "Bump."\n    return 4', "t2")
    entries = {e.name: e.meta for e in state.workbench.registry if e.server == "notebook"}
    assert entries["score"]["ui"] == {"resourceUri": "ui://notebook/board"}  # type: ignore[index]
    ui = entries["bump"]["ui"]  # type: ignore[index]
    assert ui == {"resourceUri": "ui://notebook/board", "visibility": ["app"]}

    line = "%%app board --csp-connect https://a.example,https://b.example --permission camera"
    said = run(ip, f"{line} --no-border\n<p>one</p>\n", "app").stdout
    assert "Shown by notebook.bump, notebook.score." in said
    assert read(state, "ui://notebook/board") == (
        APP_MIME_TYPE,
        "<p>one</p>",
        {
            "csp": {"connectDomains": ["https://a.example", "https://b.example"]},
            "permissions": {"camera": {}},
            "prefersBorder": False,
        },
    )
    run(ip, "%%app board\n<p>two</p>", "app")
    assert read(state, "ui://notebook/board") == (APP_MIME_TYPE, "<p>two</p>", None)
    said = run(ip, "%%app board2\n<p>renamed</p>", "app").stdout  # the cell owns one App
    assert said.startswith("Removed ui://notebook/board from notebook.")
    assert [d.uri for d in state.workbench.notebook_resources()] == ["ui://notebook/board2"]


def test_an_app_from_a_file_and_a_tool_whose_app_is_not_defined_yet(
    ip: InteractiveShell, state: KernelState, tmp_path: object
) -> None:
    page = tmp_path / "page.html"  # type: ignore[operator]
    page.write_text("<i>file</i>", encoding="utf-8")
    run(ip, f"%app paged --file {page}", "file")
    assert read(state, "ui://notebook/paged")[1] == "<i>file</i>"
    run(ip, '%%tool --ui later\ndef soon() -> str:\n    "Soon."\n    return "s"', "soon")
    missing = state.workbench.read_resource("ui://notebook/later", server="notebook")
    assert missing.is_error
    assert "The App later is not defined: run its %%app later cell" in str(missing.error_message)
    said = run(ip, "%mcp call notebook.soon", "call")  # the call shows, with that line
    shown = " ".join(said.stdout.split())  # the Observation's text, wrapped
    assert "App ui://notebook/later is not drawn" in shown
    assert "The App later is not defined: run its %%app later cell" in shown


@pytest.mark.parametrize(
    ("cell", "says"),
    [
        ("%%app bad/name\n<p/>", "App name 'bad/name' is not valid"),
        ("%%app a --file x.html\n<p/>", "in the cell or as --file PATH, not both"),
        ("%%app a --permission usb\n<p/>", "not usb"),
        ('%%tool --app-only\ndef f() -> int:\n    "F."\n    return 1', "goes with ui="),
        ('%%tool --ui "a b"\ndef f() -> int:\n    "F."\n    return 1', "is no App name"),
    ],
)
def test_mistakes_are_one_line_usage_errors(
    ip: InteractiveShell, state: KernelState, cell: str, says: str
) -> None:
    first, body = cell.split("\n", 1)
    magic, line = first[2:].split(" ", 1)
    with pytest.raises(UsageError, match=says):
        ip.run_cell_magic(magic, line, body)  # type: ignore[no-untyped-call]
    assert state.workbench.notebook_resources() == []


def test_a_missing_file_is_a_usage_error(ip: InteractiveShell, state: KernelState) -> None:
    with pytest.raises(UsageError, match=r"cannot read '/no/such\.html'"):
        ip.run_line_magic("app", "a --file /no/such.html")
