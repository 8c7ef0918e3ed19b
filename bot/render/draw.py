"""Pillow drawing primitives shared by the rulesets' board renderers (pure: no discord, no I/O).

Pillow does not antialias polygons or thick lines, so renderers draw on a canvas ``k`` times the
output size and shrink it once with ``Image.reduce(k)``; these helpers take plain pixel values and
do not care about that factor. Colours are RGB or RGBA tuples; with an ``ImageDraw.Draw(img,
"RGBA")`` the alpha blends onto the image.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw, ImageFont

from bot.render.hexgrid import Layout, Point

Color = tuple[int, ...]

# Pip positions on a unit die face, standard Western layout.
_PIPS: dict[int, tuple[Point, ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def shade(color: Sequence[int], factor: float) -> Color:
    """Darken (``factor`` < 1) or lighten towards white (``factor`` > 1) an RGB colour."""
    r, g, b = color[:3]
    if factor <= 1.0:
        return (int(r * factor), int(g * factor), int(b * factor))
    t = min(factor - 1.0, 1.0)
    return (int(r + (255 - r) * t), int(g + (255 - g) * t), int(b + (255 - b) * t))


def with_alpha(color: Sequence[int], alpha: int) -> Color:
    return (color[0], color[1], color[2], alpha)


def hex_polygon(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    h: Sequence[int],
    fill: Color | None = None,
    outline: Color | None = None,
    width: int = 1,
    inset: float = 0.0,
) -> None:
    draw.polygon(layout.corners(h, inset), fill=fill, outline=outline, width=width)


def offset_polyline(points: Sequence[Point], offset: float) -> list[Point]:
    """The polyline shifted ``offset`` px to the right of its direction of travel (screen y down).

    Two paths running the same hexes in opposite directions then separate instead of overlapping.
    """
    if offset == 0 or len(points) < 2:
        return list(points)
    normals: list[Point] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        normals.append((-(y1 - y0) / length, (x1 - x0) / length))
    out: list[Point] = []
    for i, (x, y) in enumerate(points):
        # Vertex normal: average of the adjoining segments' normals (ends use their only one).
        around = normals[max(i - 1, 0) : i + 1]
        nx = sum(n[0] for n in around) / len(around)
        ny = sum(n[1] for n in around) / len(around)
        out.append((x + nx * offset, y + ny * offset))
    return out


def trim_end(points: Sequence[Point], amount: float) -> list[Point]:
    """Shorten the polyline's last segment by ``amount`` px (e.g. to stop at a token's rim)."""
    pts = list(points)
    if len(pts) < 2 or amount <= 0:
        return pts
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= amount:
        return pts
    k = (length - amount) / length
    pts[-1] = (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)
    return pts


def dashed_polyline(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    fill: Color,
    width: int,
    dash: float,
    gap: float,
) -> None:
    """A dashed polyline whose dash pattern continues across corners."""
    period = dash + gap
    phase = 0.0  # distance already travelled inside the current period
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        pos = 0.0
        while pos < length:
            if phase < dash:
                run = min(dash - phase, length - pos)
                a = (x0 + ux * pos, y0 + uy * pos)
                b = (x0 + ux * (pos + run), y0 + uy * (pos + run))
                draw.line([a, b], fill=fill, width=width)
            else:
                run = min(period - phase, length - pos)
            pos += run
            phase = (phase + run) % period


def dashed_ring(
    draw: ImageDraw.ImageDraw,
    center: Point,
    radius: float,
    fill: Color,
    width: int,
    casing: Color,
    casing_width: int,
) -> None:
    """A ring of twelve cased dashes: where a piece stood before it moved (a "ghost").

    Dashed so it never reads as a token; each dash is cased on its own (one degree longer at
    each end) so the ring stays visible on any floor colour.
    """
    cx, cy = center
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    for start in range(0, 360, 30):
        draw.arc(box, start, start + 18, fill=casing, width=casing_width)
        draw.arc(box, start + 1, start + 17, fill=fill, width=width)


def arrow_head(
    draw: ImageDraw.ImageDraw,
    tip: Point,
    direction: Point,
    length: float,
    half_width: float,
    fill: Color,
    outline: Color | None = None,
    outline_width: int = 0,
) -> None:
    """A filled triangle whose point is ``tip`` and which points along ``direction``."""
    dx, dy = direction
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    tri = [
        tip,
        (bx - uy * half_width, by + ux * half_width),
        (bx + uy * half_width, by - ux * half_width),
    ]
    draw.polygon(tri, fill=fill, outline=outline, width=outline_width)


def arrow(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    fill: Color,
    width: int,
    *,
    casing: Color | None = None,
    casing_width: int = 0,
    dashed: tuple[float, float] | None = None,
    heads: int = 1,
    head_length: float | None = None,
) -> None:
    """A polyline arrow ending in ``heads`` stacked arrowheads at the last point.

    ``casing`` is a darker outline under the stroke so the arrow reads on any floor colour;
    ``dashed=(dash, gap)`` draws the shaft dashed; ``heads=2`` gives a double chevron tip.
    """
    if len(points) < 2:
        return
    head_len = head_length if head_length is not None else width * 3.2
    half_w = head_len * 0.62
    (x0, y0), (x1, y1) = points[-2], points[-1]
    direction = (x1 - x0, y1 - y0)
    norm = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / norm, direction[1] / norm
    tips = [(x1 - ux * head_len * 0.75 * i, y1 - uy * head_len * 0.75 * i) for i in range(heads)]
    # The shaft stops inside the last head so its square end never pokes past the point.
    shaft = trim_end(points, head_len * (0.75 * (heads - 1) + 0.6))
    if casing is not None and casing_width > 0:
        draw.line(shaft, fill=casing, width=width + 2 * casing_width, joint="curve")
    if dashed is None:
        draw.line(shaft, fill=fill, width=width, joint="curve")
    else:
        dashed_polyline(draw, shaft, fill, width, *dashed)
    for tip in reversed(tips):
        arrow_head(draw, tip, direction, head_len, half_w, fill, casing, max(casing_width, 0))


def text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    value: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    anchor: str = "la",
    halo: Color | None = None,
    halo_width: int = 0,
) -> None:
    """Text at ``xy`` with a Pillow ``anchor`` and an optional outline halo for busy backgrounds."""
    draw.text(
        xy,
        value,
        font=fnt,
        fill=fill,
        anchor=anchor,
        stroke_width=halo_width if halo is not None else 0,
        stroke_fill=halo,
    )


def bar(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    value: float,
    maximum: float,
    fill: Color,
    background: Color,
    *,
    segments: int = 0,
    divider: Color | None = None,
    radius: int = 0,
    outline: Color | None = None,
    outline_width: int = 0,
) -> None:
    """A horizontal gauge; ``segments`` draws tick dividers so single points can be counted."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=radius, fill=background)
    frac = max(0.0, min(1.0, value / maximum)) if maximum > 0 else 0.0
    if frac > 0:
        draw.rounded_rectangle((x0, y0, x0 + (x1 - x0) * frac, y1), radius=radius, fill=fill)
    if segments > 1 and divider is not None:
        step = (x1 - x0) / segments
        line_w = max(1, int((y1 - y0) / 10))
        for i in range(1, segments):
            x = x0 + step * i
            draw.line([(x, y0 + 1), (x, y1 - 1)], fill=divider, width=line_w)
    if outline is not None and outline_width > 0:
        draw.rounded_rectangle(box, radius=radius, outline=outline, width=outline_width)


def die_face(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    value: int,
    face: Color,
    pip: Color,
    outline: Color | None = None,
    outline_width: int = 0,
    fnt: ImageFont.FreeTypeFont | None = None,
) -> None:
    """A die showing ``value`` as pips (1–6); other values become a numeral if ``fnt`` is given."""
    x0, y0, x1, y1 = box
    side = min(x1 - x0, y1 - y0)
    draw.rounded_rectangle(
        box, radius=int(side * 0.18), fill=face, outline=outline, width=outline_width
    )
    pips = _PIPS.get(value)
    if pips is None:
        if fnt is not None:
            draw.text(((x0 + x1) / 2, (y0 + y1) / 2), str(value), font=fnt, fill=pip, anchor="mm")
        return
    pr = side * 0.09
    for px, py in pips:
        cx, cy = x0 + (x1 - x0) * px, y0 + (y1 - y0) * py
        draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=pip)


def crossed_swords(draw: ImageDraw.ImageDraw, center: Point, size: float, fill: Color) -> None:
    """Two crossed swords as shapes (the font has no ⚔ glyph)."""
    cx, cy = center
    half = size / 2
    blade_w = max(2, int(size * 0.12))
    for sign in (1, -1):
        # Blade from lower corner to upper opposite corner; hilt at the lower end.
        hx, hy = cx - sign * half * 0.78, cy + half * 0.78
        tx, ty = cx + sign * half * 0.85, cy - half * 0.85
        draw.line([(hx, hy), (tx, ty)], fill=fill, width=blade_w)
        ux, uy = (tx - hx), (ty - hy)
        norm = math.hypot(ux, uy)
        ux, uy = ux / norm, uy / norm
        gx, gy = hx + ux * size * 0.22, hy + uy * size * 0.22  # crossguard position
        g = size * 0.2
        draw.line(
            [(gx - uy * g, gy + ux * g), (gx + uy * g, gy - ux * g)], fill=fill, width=blade_w
        )
        pr = blade_w * 0.9
        draw.ellipse((hx - pr, hy - pr, hx + pr, hy + pr), fill=fill)


def no_entry(draw: ImageDraw.ImageDraw, center: Point, size: float, fill: Color) -> None:
    """A prohibition sign (ring with a slash) drawn as shapes."""
    cx, cy = center
    r = size / 2
    w = max(2, int(size * 0.14))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=w)
    k = r * 0.68
    draw.line([(cx - k, cy - k), (cx + k, cy + k)], fill=fill, width=w)


def badge(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    label: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    fg: Color,
    height: float,
    icon: Callable[[ImageDraw.ImageDraw, Point, float, Color], None] | None = None,
    outline: Color | None = None,
    outline_width: int = 0,
) -> float:
    """A pill-shaped label with an optional drawn icon; returns its width so callers can flow."""
    pad = height * 0.4
    icon_size = height * 0.62 if icon is not None else 0.0
    gap = height * 0.25 if icon is not None else 0.0
    width = pad + icon_size + gap + fnt.getlength(label) + pad
    x, y = xy
    draw.rounded_rectangle(
        (x, y, x + width, y + height),
        radius=int(height / 2),
        fill=fill,
        outline=outline,
        width=outline_width,
    )
    if icon is not None:
        icon(draw, (x + pad + icon_size / 2, y + height / 2), icon_size, fg)
    draw.text((x + pad + icon_size + gap, y + height / 2), label, font=fnt, fill=fg, anchor="lm")
    return width


def badge_width(label: str, fnt: ImageFont.FreeTypeFont, height: float, icon: bool) -> float:
    """Width ``badge`` would use, for layout before drawing."""
    pad = height * 0.4
    extra = height * 0.62 + height * 0.25 if icon else 0.0
    return pad + extra + fnt.getlength(label) + pad
