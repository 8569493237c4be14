"""Bytes, PIL images and matplotlib figures a tool returns, as MCP content blocks.

A Python author returns an image as ``bytes`` (or a PIL ``Image``, or a matplotlib
``Figure``), not as base64 in an ``ImageContent``. Bytes are told by their first bytes: an
image (PNG, JPEG, GIF, WebP) becomes image content, audio (WAV, MP3, OGG, FLAC) audio
content, anything else an embedded blob resource with the type sniffed (a PDF, a ZIP...)
or ``application/octet-stream``. The blocks are MCP-shaped dicts, so the exported script
carries this very module (``workbench/export/runtime.py`` copies its source) and answers
alike.

Standard library only, no ``from __future__`` import and no multi-line string data: the
script embeds this code, indented, in a function. PIL and matplotlib are never imported: a
value can only be one of theirs once its module is loaded, so ``sys.modules`` answers.
"""

import base64
import io
import sys
from typing import Any

_IMAGES = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"WEBP", 8, "image/webp"),  # after b"RIFF" and the size
)
_AUDIO = (
    (b"WAVE", 8, "audio/wav"),  # after b"RIFF" and the size
    (b"ID3", 0, "audio/mpeg"),
    (b"\xff\xfb", 0, "audio/mpeg"),
    (b"\xff\xf3", 0, "audio/mpeg"),
    (b"\xff\xf2", 0, "audio/mpeg"),
    (b"OggS", 0, "audio/ogg"),
    (b"fLaC", 0, "audio/flac"),
)
_FILES = (
    (b"%PDF-", 0, "application/pdf"),
    (b"PK\x03\x04", 0, "application/zip"),
    (b"\x1f\x8b", 0, "application/gzip"),
)
_EXTENSIONS = {"application/pdf": ".pdf", "application/zip": ".zip", "application/gzip": ".gz"}
_RIFF = b"RIFF"
_OPAQUE = "application/octet-stream"
_PIL_IMAGE = ("PIL.Image", "Image")
_FIGURE = ("matplotlib.figure", "Figure")
_BINARY = (bytes, bytearray, memoryview)


def media_block(value: object) -> dict[str, Any] | None:
    """The content block of bytes, a PIL image or a matplotlib figure; None for the rest."""
    if isinstance(value, _BINARY):
        return bytes_block(bytes(value))
    if _is_instance(value, (_PIL_IMAGE,)):
        return bytes_block(_pil_png(value))
    if _is_instance(value, (_FIGURE,)):
        return bytes_block(_figure_png(value))
    return None


def bytes_block(data: bytes) -> dict[str, Any]:
    """Image or audio content when the signature says so, else an embedded blob."""
    encoded = base64.b64encode(data).decode("ascii")
    image = _sniff(data, _IMAGES)
    if image:
        return {"type": "image", "data": encoded, "mimeType": image}
    audio = _sniff(data, _AUDIO)
    if audio:
        return {"type": "audio", "data": encoded, "mimeType": audio}
    mime = _sniff(data, _FILES) or _OPAQUE
    uri = "file:///resource" + _EXTENSIONS.get(mime, ".bin")
    return {"type": "resource", "resource": {"uri": uri, "mimeType": mime, "blob": encoded}}


def is_media_type(annotation: object) -> bool:
    """Whether a return annotation names bytes, a PIL image or a matplotlib figure: results
    that become content blocks, so the tool has no output schema."""
    if not isinstance(annotation, type):
        return False
    if issubclass(annotation, _BINARY):
        return True
    names = {(kind.__module__, kind.__name__) for kind in annotation.__mro__}
    return bool(names & {_PIL_IMAGE, _FIGURE})


def _sniff(data: bytes, signatures: Any) -> str | None:
    for signature, offset, mime in signatures:
        if offset and not data.startswith(_RIFF):
            continue
        if data[offset : offset + len(signature)] == signature:
            return str(mime)
    return None


def _is_instance(value: object, kinds: Any) -> bool:
    """``isinstance`` against classes of modules already loaded (never importing them)."""
    for module_name, class_name in kinds:
        module = sys.modules.get(module_name)
        kind = getattr(module, class_name, None)
        if isinstance(kind, type) and isinstance(value, kind):
            return True
    return False


def _pil_png(image: Any) -> bytes:
    buffer = io.BytesIO()
    try:
        image.save(buffer, format="PNG")
    except (OSError, ValueError):  # a mode PNG cannot hold (CMYK, say)
        buffer = io.BytesIO()
        image.convert("RGBA").save(buffer, format="PNG")
    return buffer.getvalue()


def _figure_png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()
