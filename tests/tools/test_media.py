"""Bytes and images a tool returns become MCP content blocks, told by their signature."""

from __future__ import annotations

import base64
import sys
from typing import Any

import pytest

from tests.export.fixtures import tiny_png
from workbench.tools.media import bytes_block, is_media_type, media_block


@pytest.mark.parametrize(
    ("data", "kind", "mime"),
    [
        (tiny_png(), "image", "image/png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image", "image/jpeg"),
        (b"GIF89a\x01\x00\x01\x00", "image", "image/gif"),
        (b"GIF87a\x01\x00\x01\x00", "image", "image/gif"),
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "image", "image/webp"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt ", "audio", "audio/wav"),
        (b"ID3\x04\x00", "audio", "audio/mpeg"),
        (b"OggS\x00\x02", "audio", "audio/ogg"),
    ],
)
def test_an_image_or_audio_signature_makes_that_content(data: bytes, kind: str, mime: str) -> None:
    block = bytes_block(data)
    assert block == {"type": kind, "data": base64.b64encode(data).decode(), "mimeType": mime}


@pytest.mark.parametrize(
    ("data", "mime", "uri"),
    [
        (b"%PDF-1.7\n%\xe2\xe3", "application/pdf", "file:///resource.pdf"),
        (b"\x00\x01\x02 not a known format", "application/octet-stream", "file:///resource.bin"),
        (b"WEBP at the start is no RIFF", "application/octet-stream", "file:///resource.bin"),
    ],
)
def test_other_bytes_are_an_embedded_blob_with_a_sniffed_type(
    data: bytes, mime: str, uri: str
) -> None:
    assert bytes_block(data) == {
        "type": "resource",
        "resource": {"uri": uri, "mimeType": mime, "blob": base64.b64encode(data).decode()},
    }


def test_bytearray_and_memoryview_count_as_bytes_and_nothing_else_is_media() -> None:
    png = tiny_png()
    assert media_block(bytearray(png)) == media_block(memoryview(png)) == bytes_block(png)
    for other in ("text", 1, [png], {"png": png}, None):
        assert media_block(other) is None


def test_bytes_and_image_annotations_are_media_types() -> None:
    assert all(map(is_media_type, (bytes, bytearray, memoryview)))
    assert not any(map(is_media_type, (str, int, list[bytes], "bytes")))

    class Figure:  # a stand-in named like matplotlib's, in its module
        pass

    Figure.__module__ = "matplotlib.figure"
    assert is_media_type(Figure)
    assert is_media_type(type("PngImageFile", (Figure,), {}))  # a subclass counts too


def test_pil_and_matplotlib_are_never_imported() -> None:
    before = set(sys.modules)
    media_block(object())
    media_block(tiny_png())
    assert not {
        name for name in set(sys.modules) - before if name.split(".")[0] in ("PIL", "matplotlib")
    }


def _loaded(name: str) -> Any:
    return pytest.importorskip(name)


def test_a_pil_image_becomes_png_content() -> None:
    image_module = _loaded("PIL.Image")  # not in the lock today: skipped there
    block = media_block(image_module.new("CMYK", (2, 2)))  # a mode PNG cannot hold
    assert block is not None and block["mimeType"] == "image/png"
    assert base64.b64decode(block["data"]).startswith(b"\x89PNG")


def test_a_matplotlib_figure_becomes_png_content() -> None:
    figure_module = _loaded("matplotlib.figure")  # not in the lock today: skipped there
    figure = figure_module.Figure(figsize=(1, 1))
    figure.add_subplot().plot([0, 1], [1, 0])
    block = media_block(figure)
    assert block is not None and block["mimeType"] == "image/png"
    assert base64.b64decode(block["data"]).startswith(b"\x89PNG")
