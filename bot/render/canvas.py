"""What every board renderer does the same way: a supersampled canvas in the house frame, its
header, side cards and their meters, the result frame, seat names.

Pillow does not antialias shapes, so boards are drawn at ``factor`` times their output size and
shrunk at the end (:meth:`Supersample.png`). Layouts are written in output pixels and scaled with
``s`` / ``sp`` / ``rect`` / ``font``; the drawing methods take output pixels too. Pure (Pillow
only).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render import draw as prim
from bot.render.fonts import fit_sized, font, record_canvas, renderable

Point = tuple[float, float]
Box = tuple[float, float, float, float]

# The house theme of every board: a dark frame around the play area, blue A and orange B (apart
# for every common colour-vision deficiency; the boards also tell the sides apart by shape).
BG = (27, 29, 35)
HEADER_BG = (18, 19, 24)
HEADER_RULE = (60, 64, 74)
CARD_BG = (38, 42, 51)
METER_BG = (24, 26, 32)
METER_RIM = (90, 95, 108)
TEXT = (238, 238, 242)
MUTED = (165, 170, 182)
INK = (22, 22, 26)
GOLD = (246, 198, 62)
SIDE: dict[str, tuple[int, int, int]] = {"A": (45, 112, 232), "B": (244, 141, 30)}
SIDE_TEXT: dict[str, tuple[int, int, int]] = {"A": (255, 255, 255), "B": (20, 20, 24)}

# Where the header's title starts, and the gap kept between it and the status on the right.
TITLE_X = 20
TITLE_GAP = 28


@dataclass(frozen=True)
class Supersample:
    """A board's drawing canvas at ``factor`` times the output size, and the house-style pieces
    every board draws on it."""

    factor: int

    # ------------------------------------------------------------------ output pixels → canvas

    def s(self, value: float) -> int:
        """An output-pixel length on the canvas."""
        return round(value * self.factor)

    def sp(self, point: Point) -> Point:
        return point[0] * self.factor, point[1] * self.factor

    def rect(self, box: Box) -> tuple[int, int, int, int]:
        """An output-pixel box on the canvas, each edge rounded like :meth:`s`."""
        x0, y0, x1, y1 = box
        return self.s(x0), self.s(y0), self.s(x1), self.s(y1)

    def font(self, size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        """The bundled font at ``size`` output pixels (never below 2 canvas pixels)."""
        return font(max(self.s(size), 2), bold)

    # ------------------------------------------------------------------ start and finish

    def new_board(self, width: int, height: int, header_height: int) -> Image.Image:
        """A blank canvas in the house frame: the dark background, the header band, its rule."""
        s = self.s
        record_canvas(s(width))
        img = Image.new("RGB", (s(width), s(height)), BG)
        d = ImageDraw.Draw(img)
        d.rectangle((0, 0, s(width), s(header_height)), fill=HEADER_BG)
        d.line([(0, s(header_height)), (s(width), s(header_height))], fill=HEADER_RULE, width=s(2))
        return img

    def png(self, img: Image.Image) -> bytes:
        """The finished canvas at output size as PNG bytes.

        ``Image.reduce`` is a box filter: the one cheap shrink that gives the edges Pillow does
        not antialias.
        """
        buf = io.BytesIO()
        # Level 3 is several times faster than the default 6 for a barely larger file.
        img.reduce(self.factor).save(buf, format="PNG", compress_level=3)
        return buf.getvalue()

    # ------------------------------------------------------------------ house-style pieces

    def header_text(
        self,
        d: ImageDraw.ImageDraw,
        title: str,
        status: str,
        *,
        height: int,
        right: float,
        sizes: tuple[int, ...],
    ) -> None:
        """The header's words: ``status`` (turn, step) bold and right-aligned at ``right``; the
        title on the left in the room that leaves, at the largest of ``sizes`` that fits, else
        truncated.

        The status is never shrunk: it is short and the thing players look for.
        """
        s, sp = self.s, self.sp
        status_font = self.font(sizes[0], bold=True)
        d.text(sp((right, height / 2)), status, font=status_font, fill=TEXT, anchor="rm")
        room = s(right - TITLE_X - TITLE_GAP) - status_font.getlength(status)
        title, title_font = fit_sized(title, tuple(s(v) for v in sizes), room, bold=True)
        d.text(sp((TITLE_X, height / 2)), title, font=title_font, fill=TEXT, anchor="lm")

    def side_card(self, d: ImageDraw.ImageDraw, box: Box, colour: prim.Color) -> None:
        """A seat's card in the side panel: rounded, outlined and striped in the seat's colour."""
        x0, y0, _, y1 = box
        s = self.s
        d.rounded_rectangle(
            self.rect(box), radius=s(12), fill=CARD_BG, outline=prim.shade(colour, 0.7), width=s(2)
        )
        d.rounded_rectangle((s(x0), s(y0), s(x0 + 8), s(y1)), radius=s(4), fill=colour)

    def card_meter(
        self,
        d: ImageDraw.ImageDraw,
        box: Box,
        value: float,
        maximum: float,
        colour: prim.Color,
        *,
        segments: int = 0,
    ) -> None:
        """A gauge on a side card (stamina, mana): a dark trough, ticks in the card's colour so
        they read as gaps between points, and a thin rim that keeps an empty gauge visible."""
        s = self.s
        prim.bar(
            d,
            self.rect(box),
            value,
            maximum,
            colour,
            METER_BG,
            segments=segments,
            divider=CARD_BG,
            radius=s(4),
            outline=METER_RIM,
            outline_width=s(1),
        )

    def result_frame(
        self, d: ImageDraw.ImageDraw, box: Box, fill: prim.Color | None = None
    ) -> None:
        """The gold rim that marks a finished match (the outcome banner, the winner's card)."""
        s = self.s
        d.rounded_rectangle(self.rect(box), radius=s(12), fill=fill, outline=GOLD, width=s(3))


def display_names(
    names: Mapping[str, str] | None, seats: Sequence[str], fallback: Callable[[str], str]
) -> dict[str, str]:
    """Each seat's name as the font can draw it, or ``fallback(seat)`` ("Player A")."""
    out: dict[str, str] = {}
    for seat in seats:
        given = renderable(str((names or {}).get(seat) or ""), bold=True)
        out[seat] = given or fallback(seat)
    return out
