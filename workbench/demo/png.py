"""A bar chart as PNG, drawn with nothing but zlib and struct.

The demo's ``draw_chart`` tool returns an image, and a demo is no reason to depend on Pillow
or matplotlib: this draws rectangles and a 3x5 pixel font into an RGB buffer and writes the
smallest valid PNG (signature, IHDR, one IDAT, IEND).
"""

import struct
import zlib

__all__ = ["HEIGHT", "WIDTH", "Canvas", "bar_chart_png"]

_RGB = bytes
WIDTH, HEIGHT = 320, 200
_MARGIN = 10
_BACKGROUND: _RGB = bytes((255, 255, 255))
_INK: _RGB = bytes((40, 40, 48))
_AXIS: _RGB = bytes((150, 150, 160))
_BARS: tuple[_RGB, ...] = (
    bytes((54, 110, 180)),
    bytes((232, 128, 44)),
    bytes((70, 160, 90)),
    bytes((200, 64, 70)),
)

# A 3x5 pixel font: each glyph is five rows, each row a digit whose bits 4, 2 and 1 are the
# left, middle and right pixels.
_GLYPHS: dict[str, str] = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?-+=%/()'_*<>",
        "25755 65656 34443 65556 74647 74644 34553 55755 72227 11152 55655 44447 57755 "
        "65555 25552 65644 25563 65655 34216 72222 55557 55552 55775 55255 55222 71247 "
        "75557 26227 71747 71317 55711 74717 74757 71222 75757 75717 00000 00002 00024 "
        "02020 02024 22202 71302 00700 02720 07070 51245 11244 24442 42224 22000 00007 "
        "05250 12421 42124".split(),
        strict=True,
    )
)


class Canvas:
    """An RGB pixel buffer with just enough drawing for a bar chart."""

    def __init__(self, width: int, height: int, background: _RGB) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(background * (width * height))

    def fill(self, x0: int, y0: int, x1: int, y1: int, color: _RGB) -> None:
        """Fill the rectangle [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(x0, 0), min(x1, self.width)
        y0, y1 = max(y0, 0), min(y1, self.height)
        if x0 >= x1:
            return
        row = color * (x1 - x0)
        for y in range(y0, y1):
            start = (y * self.width + x0) * 3
            self.pixels[start : start + len(row)] = row

    def text(self, x: int, y: int, text: str, color: _RGB, scale: int) -> None:
        """Draw text with the 3x5 font, each font pixel a scale x scale square."""
        for index, char in enumerate(text):
            rows = _GLYPHS.get(char, _GLYPHS["?"])
            left = x + index * 4 * scale
            for row, bits in enumerate(rows):
                for column, mask in enumerate((4, 2, 1)):
                    if int(bits) & mask:
                        px, py = left + column * scale, y + row * scale
                        self.fill(px, py, px + scale, py + scale, color)

    def png(self) -> bytes:
        """Encode as an 8-bit RGB PNG: signature, IHDR, one IDAT, IEND."""
        stride = self.width * 3
        scanlines = b"".join(
            b"\x00" + self.pixels[y * stride : (y + 1) * stride]  # filter type 0: none
            for y in range(self.height)
        )
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"".join(
            (
                b"\x89PNG\r\n\x1a\n",
                _png_chunk(b"IHDR", header),
                _png_chunk(b"IDAT", zlib.compress(scanlines, 6)),
                _png_chunk(b"IEND", b""),
            )
        )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    """Length, type, data and the CRC of type and data: every PNG chunk's frame."""
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def bar_chart_png(values: list[float], title: str) -> bytes:
    """One bar per value (negative ones hang below the axis) under an upper-case caption,
    cut with "..." when it does not fit; the axis sits at zero."""
    canvas = Canvas(WIDTH, HEIGHT, _BACKGROUND)
    top = _MARGIN
    if title:
        scale = 2
        fits = (WIDTH - 2 * _MARGIN) // (4 * scale)
        caption = title.upper()
        if len(caption) > fits:
            caption = caption[: fits - 3] + "..."
        width = len(caption) * 4 * scale - scale
        canvas.text((WIDTH - width) // 2, top, caption, _INK, scale)
        top += 5 * scale + _MARGIN

    left, right, bottom = _MARGIN, WIDTH - _MARGIN, HEIGHT - _MARGIN
    high, low = max(max(values), 0.0), min(min(values), 0.0)
    if high == low:  # all zeros: keep the axis at the bottom
        high = 1.0
    span = high - low
    pixels_per_unit = (bottom - top) / span
    zero = top + round(high * pixels_per_unit)
    slot = (right - left) / len(values)
    bar = max(1, round(slot * 0.75))
    for index, value in enumerate(values):
        x = left + round(index * slot + (slot - bar) / 2)
        end = zero - round(value * pixels_per_unit)
        canvas.fill(x, min(zero, end), x + bar, max(zero, end), _BARS[index % len(_BARS)])
    canvas.fill(left, zero, right, zero + 1, _AXIS)
    return canvas.png()
