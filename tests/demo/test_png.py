"""The demo's PNG writer on its own: valid files and exact pixels, without a server."""

from __future__ import annotations

import struct
import zlib

from workbench.demo.png import HEIGHT, WIDTH, Canvas, bar_chart_png

WHITE, RED = bytes((255, 255, 255)), bytes((255, 0, 0))


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks as (type, data), after checking the signature and every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind, body = data[offset + 4 : offset + 8], data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found.append((kind, body))
        offset += 12 + length
    return found


def test_a_chart_is_a_valid_png_of_the_promised_size() -> None:
    parts = chunks(bar_chart_png([3, -1, 4.5], "a title far too long to fit on one line at all"))
    assert [kind for kind, _ in parts] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, color, *_ = struct.unpack(">IIBBBBB", parts[0][1])
    assert (width, height, depth, color) == (WIDTH, HEIGHT, 8, 2)  # 8-bit RGB
    rows = zlib.decompress(parts[1][1])
    assert len(rows) == HEIGHT * (1 + WIDTH * 3)


def test_all_zeros_still_draw_an_axis() -> None:
    rows = zlib.decompress(chunks(bar_chart_png([0, 0], ""))[1][1])
    assert len(set(rows)) > 2  # more than the background and the filter bytes


def test_a_canvas_encodes_exactly_the_pixels_it_drew() -> None:
    canvas = Canvas(3, 2, WHITE)
    canvas.fill(1, 0, 9, 1, RED)  # clipped to the canvas
    canvas.fill(2, 2, 3, 3, RED)  # wholly outside: nothing
    rows = zlib.decompress(chunks(canvas.png())[1][1])
    assert rows == b"\x00" + WHITE + RED + RED + b"\x00" + WHITE * 3


def test_an_unknown_character_is_drawn_as_a_question_mark() -> None:
    unknown, question = Canvas(3, 5, WHITE), Canvas(3, 5, WHITE)
    unknown.text(0, 0, "§", RED, 1)
    question.text(0, 0, "?", RED, 1)
    assert unknown.pixels == question.pixels != Canvas(3, 5, WHITE).pixels
