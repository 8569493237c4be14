"""Saving a resource's blob to a file: the name it gets and the line of Python that does it,
for blobs a notebook shows as a Save link or cannot keep at all."""

from __future__ import annotations

import mimetypes
import re
from dataclasses import dataclass
from urllib.parse import unquote

FALLBACK_NAME = "resource"
MAX_NAME = 100


@dataclass(frozen=True)
class Save:
    """How to save one blob: ``data`` (base64) when the notebook keeps it (a download
    link), else None; ``snippet`` saves it from Python, ``hint`` says where from."""

    name: str
    mime: str
    data: str | None
    snippet: str
    hint: str


def file_name(uri: str, mime: str | None) -> str:
    """A safe file name from the URI's last segment (``demo://chart.png`` -> ``chart.png``),
    with the MIME type's extension when the segment has none."""
    path = uri.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    last = unquote(path.rsplit("/", 1)[-1]) if "/" in path else ""
    name = re.sub(r"[^\w.-]+", "_", last).strip("._")[:MAX_NAME] or FALLBACK_NAME
    if "." not in name and mime:
        extension = mimetypes.guess_extension(mime.split(";", 1)[0].strip())
        name += extension or ""
    return name


def save_snippet(blob: str, name: str) -> str:
    """Python that writes the base64 ``blob`` expression to the file ``name``: three short
    lines, so a terminal never wraps one in the middle of a name."""
    return f'import base64\nblob = {blob}\nopen("{name}", "wb").write(base64.b64decode(blob))'
