"""Resource reads in ObservationView: images inline, JSON pretty, long text cut, other blobs
sized, typed and saveable (a download link, or Python that saves them)."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from workbench.display import OBSERVATION_MIME, ObservationView
from workbench.display.content import MAX_BYTES
from workbench.display.saving import file_name
from workbench.history import History
from workbench.tools.schema import Observation

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
PDF = base64.b64encode(b"%PDF-1.7 tiny").decode()


def read(uri: str, **contents: Any) -> Observation:
    """A read as ``Workbench.read_resource`` returns it: the URI is the id."""
    block = {"type": "resource", "resource": {"uri": uri, **contents}}
    return Observation.model_validate({"content": [block], "duration": 0.002, "tool_id": uri})


def view(observation: Observation, **options: Any) -> ObservationView:
    return ObservationView(observation, tool_id=observation.tool_id, **options)


def stored_bytes(data: dict[str, Any]) -> int:
    return sum(
        len((value if isinstance(value, str) else json.dumps(value)).encode())
        for value in data.values()
    )


def test_an_image_blob_is_inline() -> None:
    shown = view(read("demo://chart.png", mimeType="image/png", blob=PNG))
    html_text = shown.to_html()
    assert f'<img src="data:image/png;base64,{PNG}"' in html_text
    assert "<a download" not in html_text
    assert shown.to_plain().splitlines()[0] == "demo://chart.png  2.0 ms"


def test_json_is_pretty_printed() -> None:
    shown = view(read("demo://numbers/12", mimeType="application/json", text='{"n":12,"f":[2,3]}'))
    assert '{\n  "n": 12,\n  "f": [\n    2,\n    3\n  ]\n}' in shown.to_plain()
    assert "{\n  &quot;n&quot;: 12," in shown.to_html()
    ld = view(read("demo://x", mimeType="application/ld+json; charset=utf-8", text='{"a":1}'))
    assert '{\n  "a": 1\n}' in ld.to_plain()
    # JSON that does not parse, or text of another type, is shown as it came
    assert '{"a":' in view(read("demo://x", mimeType="application/json", text='{"a":')).to_plain()
    assert '{"a":1}' in view(read("demo://x", mimeType="text/plain", text='{"a":1}')).to_plain()
    # the JSON document keeps the text as the server sent it
    document = view(read("demo://x", mimeType="application/json", text='{"a":1}')).to_json()
    assert document["content"][0]["resource"]["text"] == '{"a":1}'


def test_a_read_shows_the_whole_text_up_to_the_text_limit_with_a_note_beyond() -> None:
    """A read's resource is the result: not the 2,000-character preview of an attachment."""
    text = "line\n" * 1_000
    whole = view(read("demo://guide", mimeType="text/markdown", text=text))
    assert not whole.truncated and text.strip() in whole.to_plain()
    long = view(read("demo://guide", mimeType="text/markdown", text="g" * 30_000))
    assert long.truncated
    assert "… 10,000 more characters not shown" in long.to_plain()
    assert "g" * 20_001 not in long.to_html()


def test_other_blobs_have_size_type_and_a_save_link() -> None:
    shown = view(read("demo://files/report.pdf?v=2", mimeType="application/pdf", blob=PDF))
    html_text = shown.to_html()
    link = f'<a download="report.pdf" href="data:application/octet-stream;base64,{PDF}"'
    assert link in html_text and ">Save</a>" in html_text
    assert "application/pdf · 13 B" in html_text
    plain = shown.to_plain()
    assert "resource demo://files/report.pdf?v=2  application/pdf · 13 B" in plain
    assert "wb.history[-1].observation.content[0].resource.blob" in plain
    untyped = view(read("demo://resource/dynamic/blob/5", blob=PDF)).to_html()
    assert '<a download="5" href="data:application/octet-stream;base64,' in untyped


def test_a_blob_too_big_for_the_notebook_comes_with_python_that_saves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bytes(range(256)) * 1_000
    observation = read(
        "demo://exports/table.parquet", mimeType="application/vnd.apache.parquet",
        blob=base64.b64encode(data).decode(),
    )  # fmt: skip
    bundle = view(observation)._repr_mimebundle_()
    assert stored_bytes(bundle) <= MAX_BYTES
    page = html.unescape(bundle["text/html"])
    assert "<a download" not in page and "256.0 kB" in page
    assert "not kept in the notebook" in page and "Save it from Python" in page
    snippet = page.split("Save it from Python", 1)[1].split("<pre", 1)[1]
    snippet = snippet.split(">", 1)[1].split("</pre>", 1)[0]
    assert snippet.splitlines()[0] == "import base64"
    assert snippet in bundle["text/plain"]  # the same lines in a terminal
    history = History()
    history.record(observation.tool_id or "", "demo", {}, observation, kind="resource")
    monkeypatch.chdir(tmp_path)
    exec(snippet, {"wb": SimpleNamespace(history=history)})
    assert (tmp_path / "table.parquet").read_bytes() == data
    document = bundle[OBSERVATION_MIME]
    assert document["content"][0]["type"] == "text" and document["truncated"]["omittedMedia"] == 1


def test_blobs_inside_a_tool_result_are_saved_from_their_own_index() -> None:
    blob = base64.b64encode(bytes(90_000)).decode()
    embedded = {"type": "resource", "resource": {"uri": "file:///out/a.bin", "blob": blob}}
    observation = Observation.model_validate(
        {"content": [{"type": "text", "text": "Exported."}, embedded]}
    )
    plain = ObservationView(observation, tool_id="fs.export", max_bytes=20_000).to_plain()
    assert "blob = wb.history[-1].observation.content[1].resource.blob" in plain
    assert 'open("a.bin", "wb")' in plain


def test_file_names_come_from_the_uri_and_are_safe() -> None:
    assert file_name("demo://chart.png", "image/png") == "chart.png"
    assert file_name("demo://resource/dynamic/blob/5", "application/pdf") == "5.pdf"
    assert file_name("https://h/a/b%20c.txt#frag", None) == "b_c.txt"
    assert file_name("demo://x/../../etc/passwd", None) == "passwd"
    assert file_name('demo://x/"; import os; "', None) == "import_os"
    assert file_name("urn:isbn:123", None) == "resource"
    assert file_name("demo://dir/", "application/zip") == "dir.zip"


# -- G14: a Save link downloads bytes, under a name the server cannot steer ------------------

PAGE = b"<html xmlns='http://www.w3.org/1999/xhtml'><script>window.__xss=1</script></html>"


def page_server() -> Any:
    """A FastMCP server whose blob resources are pages: HTML and XHTML with a script."""
    from fastmcp import FastMCP

    server = FastMCP("pages")
    for uri, mime in (
        ("evil://a/payload.html", "application/xhtml+xml"),
        ("evil://a/page", "text/html"),
        ("evil://a/%2E%2E%2F%0A%1B.bashrc", "application/octet-stream"),
    ):
        server.resource(uri, mime_type=mime)(lambda: PAGE)
    return server


def save_links(page: str) -> list[tuple[str, str]]:
    """(download name, href) of every Save link of a view's HTML."""
    found = re.findall(r'<a download="([^"]*)" href="([^"]*)"', page)
    return [(html.unescape(name), html.unescape(href)) for name, href in found]


def test_g14_a_save_link_is_bytes_under_a_safe_name() -> None:
    from workbench.session import Workbench

    wb = Workbench()
    try:
        wb.connect("pages", server=page_server())
        links = []
        for uri in ("evil://a/payload.html", "evil://a/page", "evil://a/%2E%2E%2F%0A%1B.bashrc"):
            observation = wb.read_resource(uri)
            assert not observation.is_error, observation.error_message
            links += save_links(view(observation).to_html())
    finally:
        wb.close()
    assert [name for name, _ in links] == ["payload.html", "page.html", "bashrc.bin"]
    for _, href in links:
        assert href.startswith("data:application/octet-stream;base64,"), href[:40]
        assert base64.b64decode(href.split(",", 1)[1]) == PAGE


@pytest.mark.parametrize(
    ("uri", "name"),
    [
        ("evil://a/..%2F..%2F.ssh%2Fauthorized_keys", "ssh_authorized_keys"),
        ("evil://a/%0D%0A%00%1B%5B2J.profile", "2J.profile"),
        ("evil://a/...", "resource"),
        ("evil://a/" + "x" * 500 + ".bin", "x" * 100),
        ("evil://a/C:%5CWindows%5Cwin.ini", "C_Windows_win.ini"),
    ],
)
def test_file_names_have_no_separators_leading_dots_or_controls(uri: str, name: str) -> None:
    assert file_name(uri, None) == name
