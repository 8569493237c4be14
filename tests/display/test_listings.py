"""Resource, template and prompt tables: server column, count, failures, the next page."""

from __future__ import annotations

import html
import io

from rich.console import Console

import workbench.display  # noqa: F401  (installs the views)
from workbench.display import PromptTable, ResourceTable, TemplateTable
from workbench.features.prompts import Prompt, PromptArgument, PromptList
from workbench.features.resources import Resource, ResourceList, ResourceTemplate, TemplateList

SECRET = "S3CRET-4141"


def resources() -> ResourceList:
    return ResourceList(
        [
            Resource("ev", "demo://resource/static/document/a.md", "a.md",
                     mime_type="text/markdown", size=2048, description="The <b>architecture</b>"),
            Resource("ev", "demo://resource/static/document/b.md", "b.md", title="Bee"),
            Resource("demo", "demo://guide", "guide", mime_type="text/markdown"),
        ],
        failed={"broken": f"Connection refused at http://u:{SECRET}@h/"},
    )  # fmt: skip


def test_resource_table_rows_count_and_server_column() -> None:
    table = ResourceTable(resources())
    assert table.title == "3 resources from 2 servers"
    assert [cell.text for cell in table.rows[0]] == [
        "ev",
        "demo://resource/static/document/a.md",
        "a.md",
        "text/markdown",
        "2.0 kB",
        "The <b>architecture</b>",
    ]
    assert table.rows[1][2].text == "Bee"  # the title, when there is one
    plain = table.to_plain()
    assert plain.splitlines()[0] == "3 resources from 2 servers"
    assert "demo://guide" in plain and "server" in plain.splitlines()[1]
    html = table.to_html()
    assert html.startswith('<div class="wb-resource-table"')
    assert "&lt;b&gt;architecture&lt;/b&gt;" in html and "<b>" not in html


def test_failed_servers_are_named_with_why_and_secrets_masked() -> None:
    table = ResourceTable(resources())
    plain, html = table.to_plain(), table.to_html()
    assert "broken: Connection refused" in plain and "broken: Connection refused" in html
    assert SECRET not in plain and SECRET not in html
    assert "var(--jp-error-color1" in html


def test_one_server_and_one_item_read_singular() -> None:
    listing = ResourceList([Resource("ev", "demo://x", "x")])
    assert ResourceTable(listing).title == "1 resource from 1 server"


def test_an_empty_listing_says_so_and_still_names_failures() -> None:
    table = ResourceTable(ResourceList([], failed={"a": "offers no resources"}))
    assert table.to_plain() == "0 resources\nNo resources.\na: offers no resources"
    assert "<table" not in table.to_html()


def test_next_cursor_says_how_to_ask_for_the_next_page() -> None:
    listing = ResourceList([Resource("ev", "demo://x", "x")], next_cursor="c 2")
    plain = ResourceTable(listing).to_plain()
    assert "More: wb.resources('ev', cursor='c 2') or %mcp resources ev --cursor 'c 2'" in plain
    templates = TemplateList([ResourceTemplate("ev", "demo://t/{id}", "t")], next_cursor="n1")
    assert (
        "More: wb.resource_templates('ev', cursor='n1') or "
        "%mcp resources ev --templates --cursor n1"
    ) in TemplateTable(templates).to_plain()
    prompts = PromptList([Prompt("ev", "p")], next_cursor="n2")
    assert "More: wb.prompts('ev', cursor='n2') or %mcp prompts ev --cursor n2" in html.unescape(
        PromptTable(prompts).to_html()
    )
    assert "More:" not in ResourceTable(ResourceList([Resource("ev", "demo://x", "x")])).to_plain()


def test_template_table_shows_the_variables() -> None:
    templates = TemplateList(
        [
            ResourceTemplate("ev", "demo://resource/dynamic/text/{resourceId}", "dynamic-text"),
            ResourceTemplate("demo", "demo://numbers/{n}", "numbers", mime_type="application/json"),
            ResourceTemplate("demo", "demo://static", "static"),
        ]
    )
    table = TemplateTable(templates)
    assert table.title == "3 templates from 2 servers"
    assert [row[2].text for row in table.rows] == ["{resourceId}", "{n}", ""]
    assert "{resourceId}" in table.to_plain() and "{n}" in table.to_html()
    assert "uri template" in table.headers and "variables" in table.headers


def test_prompt_table_marks_required_arguments() -> None:
    prompts = PromptList(
        [
            Prompt("ev", "args-prompt", description="Arguments <i>demo</i>",
                   arguments=(PromptArgument("city", required=True), PromptArgument("state"))),
            Prompt("ev", "simple-prompt", title="Simple"),
        ]
    )  # fmt: skip
    table = PromptTable(prompts)
    assert table.title == "2 prompts from 1 server"
    assert [cell.text for cell in table.rows[0]] == [
        "ev",
        "args-prompt",
        "city*, state",
        "Arguments <i>demo</i>",
    ]
    assert table.rows[1][2].text == "" and table.rows[1][3].text == "Simple"
    plain = table.to_plain()
    assert "* required argument" in plain
    assert "&lt;i&gt;demo&lt;/i&gt;" in table.to_html()
    optional = PromptTable(PromptList([Prompt("ev", "p", arguments=(PromptArgument("x"),))]))
    assert "required" not in optional.to_plain()


def test_listings_display_as_their_tables_in_notebooks_and_with_rich() -> None:
    listing = resources()
    bundle = listing._repr_mimebundle_()
    assert bundle == ResourceTable(listing)._repr_mimebundle_()
    assert bundle["text/html"].startswith('<div class="wb-resource-table"')
    templates = TemplateList([ResourceTemplate("ev", "demo://t/{id}", "t")])
    assert templates._repr_mimebundle_()["text/html"].startswith('<div class="wb-template-table"')
    prompts = PromptList([Prompt("ev", "p")])
    assert prompts._repr_mimebundle_()["text/html"].startswith('<div class="wb-prompt-table"')
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(listing)
    assert out.getvalue().splitlines()[0].strip() == "3 resources from 2 servers"


def test_uris_are_read_whole_in_a_terminal_beside_long_descriptions() -> None:
    uri = "demo://resource/static/document/a.md"
    listing = ResourceList([Resource("ev", uri, "a.md", description="Words " * 30)])
    assert uri in ResourceTable(listing).to_plain(width=80)
