"""PromptView: a prompt's messages as a conversation, within the notebook's byte budget."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

import workbench.display  # noqa: F401  (installs the views)
from workbench.display import PromptView
from workbench.display.content import MAX_BYTES
from workbench.features.prompts import PromptResult

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
ZIP = base64.b64encode(b"PK\x03\x04 zipped bytes").decode()


def prompt(*messages: dict[str, Any], **fields: Any) -> PromptResult:
    data = {"server": "ev", "name": "args-prompt", "messages": list(messages), **fields}
    return PromptResult.model_validate(data)


def user(content: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": content}


def assistant(content: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def stored_bytes(data: dict[str, Any]) -> int:
    return sum(
        len((value if isinstance(value, str) else json.dumps(value)).encode())
        for value in data.values()
    )


def test_header_names_the_prompt_its_arguments_description_and_duration() -> None:
    result = prompt(
        user(text("What is the weather in Paris?")),
        arguments={"city": "Paris", "state": "<IDF>"},
        description="Asks about <b>weather</b>",
        duration=0.0123,
    )
    view = PromptView(result)
    lines = view.to_plain().splitlines()
    assert lines[0] == "ev.args-prompt  1 message  12.3 ms"
    assert lines[1] == "city=Paris  state=<IDF>" and lines[2] == "Asks about <b>weather</b>"
    html = view.to_html()
    assert html.startswith('<div class="wb-prompt"')
    assert "ev.args-prompt" in html and "12.3 ms" in html and "city=Paris" in html
    assert "state=&lt;IDF&gt;" in html and "&lt;b&gt;weather&lt;/b&gt;" in html


def test_one_block_per_message_with_its_role_told_apart() -> None:
    result = prompt(user(text("Hi <there>")), assistant(text("Hello!")), user(text("Bye")))
    view = PromptView(result)
    assert view.to_plain().splitlines()[1:] == [
        "user",
        "  Hi <there>",
        "assistant",
        "  Hello!",
        "user",
        "  Bye",
    ]
    html = view.to_html()
    assert html.count('class="wb-message wb-role-user"') == 2
    assert html.count('class="wb-message wb-role-assistant"') == 1
    user_block = html.split('class="wb-message wb-role-user"')[1]
    assistant_block = html.split('class="wb-message wb-role-assistant"')[1]
    assert "var(--jp-brand-color1" in user_block.split(">", 1)[0]
    assert "var(--jp-success-color1" in assistant_block.split(">", 1)[0]
    assert "Hi &lt;there&gt;" in html and "<there>" not in html


def test_images_resources_and_links_are_shown_inline() -> None:
    result = prompt(
        user({"type": "image", "data": PNG, "mimeType": "image/png"}),
        user({"type": "resource", "resource": {
            "uri": "demo://numbers/12", "mimeType": "application/json", "text": '{"n": 12}'}}),
        user({"type": "resource", "resource": {
            "uri": "demo://files/archive", "mimeType": "application/zip", "blob": ZIP}}),
        assistant({"type": "resource_link", "uri": "demo://guide", "name": "guide",
                   "mimeType": "text/markdown"}),
    )  # fmt: skip
    view = PromptView(result)
    html = view.to_html()
    assert f'<img src="data:image/png;base64,{PNG}"' in html
    assert "demo://numbers/12" in html and "{\n  &quot;n&quot;: 12\n}" in html
    assert f'<a download="archive.zip" href="data:application/octet-stream;base64,{ZIP}"' in html
    assert "resource link" in html and "demo://guide" in html
    plain = view.to_plain()
    assert "[image · image/png · 12 B]" in plain
    assert "resource demo://files/archive  application/zip · 17 B" in plain
    assert "resource link guide demo://guide  text/markdown" in plain


def test_long_text_is_cut_with_a_note() -> None:
    view = PromptView(prompt(user(text("w" * 500))), max_text=100)
    assert view.truncated
    plain = view.to_plain()
    assert "… 400 more characters not shown" in plain
    assert "The whole prompt stays in Python" in plain and ".messages" in plain
    assert "w" * 101 not in view.to_html()
    assert not PromptView(prompt(user(text("short")))).truncated


def test_a_large_prompt_stays_under_the_byte_budget() -> None:
    big_image = base64.b64encode(b"\x89PNG" + bytes(600_000)).decode()
    result = prompt(
        *(user(text(f"{index} " + "<p>" * 40_000)) for index in range(5)),
        assistant({"type": "image", "data": big_image, "mimeType": "image/png"}),
        user({"type": "resource", "resource": {
            "uri": "demo://big.bin", "mimeType": "application/octet-stream", "blob": big_image}}),
    )  # fmt: skip
    data = PromptView(result)._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html"}
    assert stored_bytes(data) <= MAX_BYTES
    assert "Cut to fit 100.0 kB in the notebook" in data["text/plain"]
    assert "image · image/png · 600.0 kB: not kept in the notebook" in data["text/plain"]
    assert "data:application/octet-stream" not in data["text/html"]
    small = PromptView(result, max_bytes=5_000)._repr_mimebundle_()
    assert stored_bytes(small) <= 5_000


def test_a_blob_too_big_to_keep_comes_with_python_that_saves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blob = base64.b64encode(b"\x00\x01" * 100_000).decode()
    result = prompt(
        user(text("Here it is")),
        user({"type": "resource", "resource": {
            "uri": "demo://files/data.bin", "mimeType": "application/octet-stream", "blob": blob}}),
        arguments={"city": "Paris"},
    )  # fmt: skip
    html = _unescape(PromptView(result)._repr_mimebundle_()["text/html"])
    assert "<a download" not in html
    hint = "Save it from Python, after prompt = wb.get_prompt('args-prompt', {'city': 'Paris'}"
    assert hint in html
    again = html.split("Save it from Python, after ", 1)[1].split("):</div>", 1)[0] + ")"
    snippet = html.split("<pre", 3)[-1].split(">", 1)[1].split("</pre>", 1)[0]
    assert snippet.startswith("import base64")

    class Workbench:
        def get_prompt(self, name: str, arguments: dict[str, str], *, server: str) -> Any:
            assert (name, arguments, server) == ("args-prompt", {"city": "Paris"}, "ev")
            return result

    monkeypatch.chdir(tmp_path)
    exec(f"{again}\n{snippet}", {"wb": Workbench()})
    assert (tmp_path / "data.bin").read_bytes() == b"\x00\x01" * 100_000


def test_thousands_of_short_messages_fit_and_the_rest_are_counted() -> None:
    result = prompt(*(user(text(f"message {index}")) for index in range(3_000)))
    data = PromptView(result)._repr_mimebundle_()
    assert stored_bytes(data) <= MAX_BYTES
    assert "message 0" in data["text/plain"] and "message 2999" not in data["text/plain"]
    plain = " ".join(data["text/plain"].split())
    assert plain.startswith("ev.args-prompt 3,000 messages")
    assert "Cut to fit 100.0 kB in the notebook: the last 2,950 messages not kept." in plain


def test_no_messages_says_so() -> None:
    view = PromptView(prompt())
    assert view.to_plain().splitlines() == ["ev.args-prompt  0 messages", "(no messages)"]
    assert "(no messages)" in view.to_html()


def test_prompt_results_display_as_prompt_views() -> None:
    result = prompt(user(text("hello")), duration=0.5)
    assert result._repr_mimebundle_() == PromptView(result)._repr_mimebundle_()
    assert result.__rich__().__class__ is PromptView


def _unescape(html_text: str) -> str:
    import html

    return html.unescape(html_text)
