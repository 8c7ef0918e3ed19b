"""What every board renderer does the same way: a supersampled canvas, side cards, seat names.

Boards are drawn at ``factor`` times their output size and shrunk at the end (smooth edges);
layouts are written in output pixels and scaled with :meth:`Supersample.s` / ``sp`` / ``font``.
Pure (Pillow only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from bot.render import draw as prim
from bot.render.fonts import font, renderable

Point = tuple[float, float]

# The house theme of every board: a dark frame around the play area, blue A and orange B (apart
# for every common colour-vision deficiency; the boards also tell the sides apart by shape).
BG = (27, 29, 35)
HEADER_BG = (18, 19, 24)
CARD_BG = (38, 42, 51)
TEXT = (238, 238, 242)
MUTED = (165, 170, 182)
INK = (22, 22, 26)
SIDE: dict[str, tuple[int, int, int]] = {"A": (45, 112, 232), "B": (244, 141, 30)}
SIDE_TEXT: dict[str, tuple[int, int, int]] = {"A": (255, 255, 255), "B": (20, 20, 24)}


@dataclass(frozen=True)
class Supersample:
    factor: int

    def s(self, value: float) -> int:
        """An output-pixel length on the canvas."""
        return round(value * self.factor)

    def sp(self, point: Point) -> Point:
        return point[0] * self.factor, point[1] * self.factor

    def font(self, size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        """The bundled font at ``size`` output pixels (never below 2 canvas pixels)."""
        return font(max(self.s(size), 2), bold)


def side_card(
    d: ImageDraw.ImageDraw,
    canvas: Supersample,
    box: tuple[float, float, float, float],
    colour: prim.Color,
    fill: prim.Color,
) -> None:
    """A seat's card in the side panel: rounded, outlined and striped in the seat's colour."""
    x0, y0, x1, y1 = box
    s = canvas.s
    d.rounded_rectangle(
        (s(x0), s(y0), s(x1), s(y1)),
        radius=s(12),
        fill=fill,
        outline=prim.shade(colour, 0.7),
        width=s(2),
    )
    d.rounded_rectangle((s(x0), s(y0), s(x0 + 8), s(y1)), radius=s(4), fill=colour)


def display_names(
    names: Mapping[str, str] | None, seats: Sequence[str], fallback: Callable[[str], str]
) -> dict[str, str]:
    """Each seat's name as the font can draw it, or ``fallback(seat)`` ("Player A")."""
    out: dict[str, str] = {}
    for seat in seats:
        given = renderable(str((names or {}).get(seat) or ""), bold=True)
        out[seat] = given or fallback(seat)
    return out
