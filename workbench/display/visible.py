"""Control characters made visible, so a server's words never steer a terminal (G5).

Text from servers (results, names, descriptions, errors) may hold escape sequences: OSC 52
writes the clipboard, OSC 0 the window title, ``ESC[8m`` hides text, ``ESC[2J`` clears the
screen. Every view's ``text/plain`` and rich rendering passes through here, where each C0
control but newline and tab becomes its Unicode control picture (ESC is ``␛``), DEL ``␡``
and each C1 control U+FFFD: one visible character for one control, so nothing is hidden and
nothing runs. HTML and the JSON documents escape on their own and keep the text as sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.segment import Segment

_KEPT = {0x09, 0x0A}  # tab and newline lay text out
_PICTURES = {code: 0x2400 + code for code in range(0x20) if code not in _KEPT}
_TABLE = {**_PICTURES, 0x7F: 0x2421, **dict.fromkeys(range(0x80, 0xA0), 0xFFFD)}


def visible(text: str) -> str:
    """``text`` with every control character but newline and tab shown, not obeyed."""
    return text.translate(_TABLE)


def visible_segments(segments: Iterable[Segment]) -> Iterator[Segment]:
    """Rich's output with the text of each segment made ``visible``; rich's own control
    segments (cursor moves of a live display) pass as they are."""
    for segment in segments:
        if segment.control or segment.text.isprintable():
            yield segment
        else:
            yield Segment(visible(segment.text), segment.style, segment.control)
