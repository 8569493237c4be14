"""ObservationView: every content kind in all three mime types, errors and truncation."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from workbench.display import OBSERVATION_MIME, ObservationView
from workbench.display.observation import MAX_BYTES, WHOLE_RESULT
from workbench.tools.schema import ErrorKind, Observation

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
WAV = base64.b64encode(b"RIFFfake").decode()


def observe(**data: Any) -> Observation:
    return Observation.model_validate(data)


def bundle(view: ObservationView) -> dict[str, Any]:
    return view._repr_mimebundle_()


def test_bundle_has_plain_html_and_json() -> None:
    view = ObservationView(observe(content=[{"type": "text", "text": "5"}], duration=0.0123))
    data = bundle(view)
    assert set(data) == {"text/plain", "text/html", OBSERVATION_MIME}
    assert "5" in data["text/plain"] and "12.3 ms" in data["text/plain"]
    assert data["text/html"].startswith('<div class="wb-observation"')
    json.dumps(data[OBSERVATION_MIME])  # JSON-ready


def test_include_and_exclude_pick_mime_types() -> None:
    view = ObservationView(Observation.from_text("hi"))
    assert set(view._repr_mimebundle_(include={"text/plain"})) == {"text/plain"}
    assert OBSERVATION_MIME not in view._repr_mimebundle_(exclude={OBSERVATION_MIME})


def test_text_is_escaped_in_html() -> None:
    html = ObservationView(Observation.from_text("<script>alert(1)</script>")).to_html()
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_image_becomes_a_data_uri_and_audio_a_player() -> None:
    obs = observe(
        content=[
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "audio", "data": WAV, "mimeType": "audio/wav"},
        ]
    )
    view = ObservationView(obs)
    html = view.to_html()
    assert f'<img src="data:image/png;base64,{PNG}"' in html
    assert f'<audio controls src="data:audio/wav;base64,{WAV}"' in html
    plain = view.to_plain()
    assert "[image · image/png" in plain and "[audio · audio/wav" in plain


def test_media_with_a_foreign_mime_type_is_named_not_embedded() -> None:
    obs = observe(content=[{"type": "image", "data": PNG, "mimeType": "text/html"}])
    html = ObservationView(obs).to_html()
    assert "<img" not in html and "data:" not in html
    assert "image · text/html" in html


def test_resource_link_and_embedded_resources_are_named() -> None:
    obs = observe(
        content=[
            {
                "type": "resource_link",
                "uri": "https://example.test/report.pdf",
                "name": "report.pdf",
                "mimeType": "application/pdf",
                "size": 2048,
                "description": "The <b>report</b>",
            },
            {"type": "resource_link", "uri": "javascript:alert(1)", "name": "evil"},
            {
                "type": "resource",
                "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "N1"},
            },
            {
                "type": "resource",
                "resource": {"uri": "file:///blob.bin", "mimeType": "application/x", "blob": PNG},
            },
            {
                "type": "resource",
                "resource": {"uri": "file:///pic.png", "mimeType": "image/png", "blob": PNG},
            },
        ]
    )
    view = ObservationView(obs)
    html = view.to_html()
    assert 'href="https://example.test/report.pdf"' in html
    assert 'href="javascript' not in html and "javascript:alert(1)" in html
    assert "application/pdf · 2.0 kB" in html and "The &lt;b&gt;report&lt;/b&gt;" in html
    assert "file:///notes.txt" in html and "N1" in html
    assert "file:///blob.bin" in html and "application/x · 12 B" in html
    assert f'src="data:image/png;base64,{PNG}"' in html
    plain = view.to_plain()
    assert "resource link report.pdf https://example.test/report.pdf" in plain
    assert "resource file:///notes.txt" in plain and "N1" in plain


def test_embedded_text_resource_is_previewed() -> None:
    text = "r" * 5000
    obs = observe(content=[{"type": "resource", "resource": {"uri": "mem://r", "text": text}}])
    view = ObservationView(obs)
    assert view.truncated
    assert "… 3,000 more characters not shown" in view.to_plain()
    assert "r" * 2001 not in view.to_html()


def test_structured_content_is_pretty_json_and_its_text_twin_is_skipped() -> None:
    obs = observe(
        content=[{"type": "text", "text": '{"sum": 5}'}],
        structuredContent={"sum": 5},
    )
    plain = ObservationView(obs).to_plain()
    assert plain == '{\n  "sum": 5\n}'
    wrapped = observe(content=[{"type": "text", "text": "5"}], structuredContent={"result": 5})
    assert ObservationView(wrapped).to_plain() == '{\n  "result": 5\n}'


def test_a_string_result_is_shown_once() -> None:
    """FastMCP sends a str result as text and as {"result": text}; the text is enough."""
    obs = observe(
        content=[{"type": "text", "text": "Counted 3 of 3."}],
        structuredContent={"result": "Counted 3 of 3."},
    )
    view = ObservationView(obs)
    assert view.to_plain() == "Counted 3 of 3."
    assert view.to_html().count("Counted 3 of 3.") == 1
    assert bundle(view)[OBSERVATION_MIME]["structuredContent"] == {"result": "Counted 3 of 3."}
    other = observe(content=[{"type": "text", "text": "Three."}], structuredContent={"result": "3"})
    assert '"result": "3"' in ObservationView(other).to_plain()


def test_text_that_differs_from_structured_content_stays() -> None:
    obs = observe(content=[{"type": "text", "text": "Five."}], structuredContent={"sum": 5})
    plain = ObservationView(obs).to_plain()
    assert plain.startswith("Five.") and '"sum": 5' in plain


def test_error_has_a_header_with_its_kind_and_its_message_once() -> None:
    obs = Observation.error(ErrorKind.TIMEOUT, "No answer within 60 s.", duration=60.25)
    view = ObservationView(obs, tool_id="demo.slow")
    plain = view.to_plain()
    assert plain.splitlines()[0] == "demo.slow  Error · timeout  60.2 s"
    assert plain.count("No answer within 60 s.") == 1
    html = view.to_html()
    assert "Error · timeout" in html and "var(--jp-error-color1" in html
    assert html.count("No answer within 60 s.") == 1


def test_server_side_tool_error_without_kind_or_message() -> None:
    obs = observe(content=[{"type": "text", "text": "division by zero"}], isError=True)
    plain = ObservationView(obs).to_plain()
    assert plain.splitlines() == ["Error · error", "division by zero"]


def test_invalid_arguments_show_no_duration() -> None:
    """A call refused before it ran has no duration worth showing (it read 0.0 ms)."""
    refused = Observation.error(ErrorKind.INVALID_ARGUMENTS, "b: required", duration=0.0)
    view = ObservationView(refused, tool_id="d.a")
    assert view.to_plain().splitlines()[0] == "d.a  Error · invalid_arguments"
    assert "0.0 ms" not in view.to_html()
    ran = ObservationView(Observation.error(ErrorKind.TOOL_ERROR, "boom", duration=0.002))
    assert "2.0 ms" in ran.to_plain() and "2.0 ms" in ran.to_html()


def test_duration_is_ms_under_a_second_and_s_above() -> None:
    fast = ObservationView(Observation.from_text("x", duration=0.5)).to_plain()
    slow = ObservationView(Observation.from_text("x", duration=2.5)).to_plain()
    assert "500.0 ms" in fast and "2.50 s" in slow


def test_long_text_is_cut_with_a_notice() -> None:
    view = ObservationView(Observation.from_text("a" * 150), max_text=100)
    assert view.truncated
    assert "… 50 more characters not shown" in view.to_plain()
    html = view.to_html()
    assert "a" * 100 in html and "a" * 101 not in html
    assert "… 50 more characters not shown" in html


def test_empty_observation_says_so() -> None:
    assert ObservationView(Observation()).to_plain() == "(no content)"


def test_json_document_shape() -> None:
    obs = observe(
        content=[
            {"type": "text", "text": "b" * 30},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
        ],
        structuredContent={"n": 1},
        isError=True,
        error_kind="tool_error",
        error_message="boom",
        duration=0.25,
    )
    document = ObservationView(obs, tool_id="demo.x", max_text=10).to_json()
    assert document == {
        "kind": "observation",
        "version": 1,
        "toolId": "demo.x",
        "content": [
            {"type": "text", "text": "b" * 10},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
        ],
        "structuredContent": {"n": 1},
        "isError": True,
        "errorKind": "tool_error",
        "errorMessage": "boom",
        "duration": 0.25,
        "truncated": {
            "maxText": 10,
            "omittedCharacters": 20,
            "maxBytes": 100_000,
            "omittedMedia": 0,
            "omittedStructuredContent": 0,
            # the views also cut the pretty structured content (12 characters) to 10
            "note": "Cut to fit 100.0 kB in the notebook: 22 characters not shown. " + WHOLE_RESULT,
        },
    }


def test_json_document_of_a_plain_result_is_not_truncated() -> None:
    document = ObservationView(Observation.from_text("ok")).to_json()
    assert document["truncated"] is None and document["toolId"] is None
    assert document["content"] == [{"type": "text", "text": "ok"}]


# -- what a saved notebook keeps (F13) ----------------------------------------------------------


def stored_bytes(data: dict[str, Any]) -> int:
    """The bytes a bundle takes in a notebook file."""
    return sum(
        len((value if isinstance(value, str) else json.dumps(value)).encode())
        for value in data.values()
    )


def test_a_10_mb_text_result_is_stored_under_the_bound_with_a_note() -> None:
    text = "<a>" * 3_500_000  # a string result: FastMCP also sends it as {"result": text}
    obs = observe(content=[{"type": "text", "text": text}], structuredContent={"result": text})
    data = bundle(ObservationView(obs, tool_id="t.big"))
    assert stored_bytes(data) <= MAX_BYTES
    assert "Cut to fit 100.0 kB in the notebook" in data["text/plain"]
    assert "wb.history[-1].observation" in data["text/plain"]
    assert "not shown" in data["text/html"]
    assert data[OBSERVATION_MIME]["truncated"]["maxBytes"] == MAX_BYTES


@pytest.mark.integration
def test_a_10_mb_structured_result_is_left_out_of_the_json_document() -> None:
    rows = [{"id": index, "name": f"row {index}"} for index in range(300_000)]
    obs = observe(
        content=[{"type": "text", "text": "300000 rows"}], structuredContent={"rows": rows}
    )
    data = bundle(ObservationView(obs))
    assert stored_bytes(data) <= MAX_BYTES
    document = data[OBSERVATION_MIME]
    assert document["structuredContent"] is None
    assert document["truncated"]["omittedStructuredContent"] > 5_000_000
    assert "structured content" in document["truncated"]["note"]
    assert ".structured_content" in data["text/plain"]


def test_a_large_image_is_named_not_inlined() -> None:
    big = base64.b64encode(b"\x89PNG" + bytes(3_000_000)).decode()
    obs = observe(content=[{"type": "image", "data": big, "mimeType": "image/png"}])
    data = bundle(ObservationView(obs))
    assert stored_bytes(data) <= MAX_BYTES
    assert "image · image/png · 3.0 MB: not kept in the notebook" in data["text/plain"]
    assert data[OBSERVATION_MIME]["content"][0]["type"] == "text"
    assert data[OBSERVATION_MIME]["truncated"]["omittedMedia"] == 1


def test_the_bound_is_a_parameter_and_small_results_stay_whole() -> None:
    obs = Observation.from_text("x" * 5_000)
    assert stored_bytes(bundle(ObservationView(obs, max_bytes=2_000))) <= 2_000
    whole = bundle(ObservationView(obs))
    assert "x" * 5_000 in whole["text/html"] and whole[OBSERVATION_MIME]["truncated"] is None
