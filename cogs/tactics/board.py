"""Tactics board image: the ruleset's view dict in, PNG bytes out (pure).

No discord and no storage here: the cog hands the bytes to discord.py. What stays the same for a
match (floor, grid, labels, zones, obstacles, panel frames, legend) is drawn once per map and
language and cached; a render copies that layer and adds arrows, tokens and the players' numbers.

Pillow does not antialias shapes, so the image is drawn at ``SS`` times the output size and
shrunk once at the end (``Supersample.png``). Layout numbers are in output pixels; ``_s`` scales
them to the drawing canvas. Everything inside a square is sized from the cell, so maps from 8×8 to
26×26 fit the same board area (a 10×10 map gets 64 px squares).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import (
    CARD_BG,
    GOLD,
    INK,
    MUTED,
    SIDE,
    SIDE_TEXT,
    TEXT,
    Supersample,
    display_names,
)
from bot.render.fonts import ELLIPSIS, PLACEHOLDER, fit, fit_into, fit_sized, renderable
from bot.render.squaregrid import Grid, Point, Square, column_letter, try_parse

__all__ = ["HEIGHT", "WIDTH", "render"]

WIDTH, HEIGHT = 1000, 740
SS = 2  # supersampling factor
SEATS = ("A", "B")
MAX_TURNS = 10

# Layout (output pixels).
HEADER_H = 56
BOARD_AREA = (34, 84, 674, 724)  # squares go here; labels sit just outside the grid
MAX_CELL = 64
PANEL_X0, PANEL_X1 = 690, 988
CARD_H = 166
CARD_Y = {"A": 68, "B": 244}
STAT_X = (22, 100, 178)  # DP, units, mana columns inside a card
OUTCOME_Y = (420, 496)
LEGEND_Y = (556, 728)

# Theme. Blue and orange stay apart for every common colour-vision deficiency, and the sides also
# differ in shape: A's tokens are round, B's square (the player cards use the same chips).
WHITE = (250, 250, 250)
FLOOR = ((226, 229, 219), (214, 219, 207))
GRID_LINE = (160, 166, 152)
LABEL = (190, 194, 204)
STONE = (92, 94, 102)
RED = (222, 38, 38)
PURPLE = (160, 78, 230)
BUFF = (70, 200, 90)
DEBUFF = (236, 64, 64)
HP_COLOURS = ((0.5, (74, 190, 92)), (0.25, (238, 192, 48)), (0.0, (226, 62, 52)))
BAR_BG = (34, 34, 40)
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


CANVAS = Supersample(SS)
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font


def _grid(width: int, height: int) -> Grid:
    """The canvas-pixel grid of a ``width`` × ``height`` map, centred in the board area."""
    x0, y0, x1, y1 = BOARD_AREA
    cell = min(MAX_CELL, (x1 - x0) // width, (y1 - y0) // height)
    left = x0 + ((x1 - x0) - cell * width) // 2
    top = y0 + ((y1 - y0) - cell * height) // 2
    return Grid(width, height, _s(cell), _sp((left, top)))


def _squares(values: Iterable[Any], grid: Grid) -> list[Square]:
    out = []
    for value in values or ():
        sq = try_parse(value)
        if sq is not None and grid.contains(sq):
            out.append(sq)
    return out


def _seat_chip(
    d: ImageDraw.ImageDraw, seat: str, center: Point, half: float, fill: prim.Color, outline: Any
) -> None:
    """A's round and B's square shape, shared by tokens, cards and the legend."""
    cx, cy = center
    box = (cx - half, cy - half, cx + half, cy + half)
    width = max(1, round(half / 9))
    if seat == "B":
        d.rounded_rectangle(box, radius=half * 0.28, fill=fill, outline=outline, width=width)
    else:
        d.ellipse(box, fill=fill, outline=outline, width=width)


# --------------------------------------------------------------------------- small drawn icons


def _crown(d: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """Gold three-pointed crown with a dark rim (the master mark)."""
    cx, cy = center
    w, h = size / 2, size * 0.4
    pts = [
        (cx - w, cy + h),
        (cx - w, cy - h * 0.55),
        (cx - w * 0.5, cy + h * 0.05),
        (cx, cy - h),
        (cx + w * 0.5, cy + h * 0.05),
        (cx + w, cy - h * 0.55),
        (cx + w, cy + h),
    ]
    d.polygon(pts, fill=GOLD, outline=INK, width=max(2, round(size / 9)))
    r = size * 0.07
    for x, y in ((cx - w, cy - h * 0.55), (cx, cy - h), (cx + w, cy - h * 0.55)):
        d.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=INK, width=max(1, round(r / 2)))


def _zz(d: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A dark bubble with a big and a small "Z" drawn as strokes (the exhausted mark)."""
    cx, cy = center
    r = size / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(46, 50, 62), outline=WHITE, width=_s(1))
    w = max(2, round(size / 10))
    for ox, oy, k in ((-0.14, 0.12, 0.44), (0.24, -0.2, 0.26)):
        zx, zy, half = cx + ox * size, cy + oy * size, k * size / 2
        zig = [
            (zx - half, zy - half),
            (zx + half, zy - half),
            (zx - half, zy + half),
            (zx + half, zy + half),
        ]
        d.line(zig, fill=WHITE, width=w, joint="curve")


def _effect_arrow(d: ImageDraw.ImageDraw, center: Point, size: float, up: bool) -> None:
    """A small green up-triangle (buff) or red down-triangle (debuff)."""
    cx, cy = center
    w, h = size / 2, size * 0.45
    if up:
        pts = [(cx, cy - h), (cx + w, cy + h), (cx - w, cy + h)]
    else:
        pts = [(cx - w, cy - h), (cx + w, cy - h), (cx, cy + h)]
    d.polygon(pts, fill=BUFF if up else DEBUFF, outline=INK, width=max(2, round(size / 8)))


def _burst(d: ImageDraw.ImageDraw, center: Point, size: float, fill: prim.Color) -> None:
    """A jagged eight-pointed impact star."""
    cx, cy = center
    pts = []
    for i in range(16):
        r = size / 2 if i % 2 == 0 else size * 0.22
        a = math.radians(i * 22.5 + 11)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=fill, outline=INK, width=max(2, round(size / 12)))


def _sparkle(d: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A four-pointed star (ability hits)."""
    cx, cy = center
    pts = []
    for i in range(8):
        r = size / 2 if i % 2 == 0 else size * 0.14
        a = math.radians(i * 45 - 90)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=(236, 214, 255), outline=PURPLE, width=max(2, round(size / 10)))


def _warning(d: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """Yellow warning triangle with an exclamation mark (friendly fire)."""
    cx, cy = center
    h = size * 0.9
    pts = [(cx, cy - h / 2), (cx + size / 2, cy + h / 2), (cx - size / 2, cy + h / 2)]
    d.polygon(pts, fill=GOLD, outline=INK, width=max(2, round(size / 10)))
    w = max(2, round(size / 9))
    d.line([(cx, cy - h * 0.16), (cx, cy + h * 0.2)], fill=INK, width=w)
    r = w * 0.6
    d.ellipse((cx - r, cy + h * 0.32 - r, cx + r, cy + h * 0.32 + r), fill=INK)


# --------------------------------------------------------------------------- static layer


def _draw_obstacle(d: ImageDraw.ImageDraw, grid: Grid, sq: Square) -> None:
    """A bevelled stone block with a crack: solid, dark, and unlike any token."""
    c = grid.cell
    x0, y0, x1, y1 = grid.rect(sq, inset=c * 0.05)
    d.rectangle((x0, y0, x1, y1), fill=STONE)
    bevel = max(2, round(c * 0.08))
    d.polygon(
        [
            (x0, y0),
            (x1, y0),
            (x1 - bevel, y0 + bevel),
            (x0 + bevel, y0 + bevel),
            (x0 + bevel, y1 - bevel),
            (x0, y1),
        ],
        fill=prim.shade(STONE, 1.3),
    )
    d.polygon(
        [
            (x1, y1),
            (x0, y1),
            (x0 + bevel, y1 - bevel),
            (x1 - bevel, y1 - bevel),
            (x1 - bevel, y0 + bevel),
            (x1, y0),
        ],
        fill=prim.shade(STONE, 0.6),
    )
    w = max(1, round(c * 0.035))
    # Fixed crack pattern, mirrored on alternate squares so a wall of blocks is not a stamp.
    flip = -1 if (sq[0] + sq[1]) % 2 else 1
    mx = (x0 + x1) / 2
    crack = [(-0.28, -0.3), (-0.05, -0.06), (0.08, 0.02), (0.22, 0.28)]
    d.line(
        [(mx + flip * dx * c, (y0 + y1) / 2 + dy * c) for dx, dy in crack],
        fill=prim.shade(STONE, 0.55),
        width=w,
    )
    d.rectangle((x0, y0, x1, y1), outline=INK, width=w)


def _draw_zones(
    d: ImageDraw.ImageDraw, grid: Grid, zones: Mapping[str, Sequence[Square]], strong: bool
) -> None:
    """Zone squares tinted in the side colour, the zone's rim drawn just inside its squares."""
    for seat in SEATS:
        cells = set(zones.get(seat) or ())
        for sq in sorted(cells):
            d.rectangle(grid.rect(sq), fill=prim.with_alpha(SIDE[seat], 92 if strong else 56))
        for sq in sorted(cells):
            x0, y0, x1, y1 = grid.rect(sq, inset=_s(2))
            col, row = sq
            sides = (
                ((col, row - 1), [(x0, y0), (x1, y0)]),
                ((col, row + 1), [(x0, y1), (x1, y1)]),
                ((col - 1, row), [(x0, y0), (x0, y1)]),
                ((col + 1, row), [(x1, y0), (x1, y1)]),
            )
            for neighbour, line in sides:
                if neighbour not in cells:
                    d.line(line, fill=SIDE[seat], width=_s(2.5))


@lru_cache(maxsize=16)
def _base(
    width: int,
    height: int,
    obstacles: tuple[Square, ...],
    zones: tuple[tuple[str, tuple[Square, ...]], ...],
    strong_zones: bool,
    lang: str,
) -> Image.Image:
    """Everything that stays the same for a map in one language."""
    img = CANVAS.new_board(WIDTH, HEIGHT, HEADER_H)
    d = ImageDraw.Draw(img, "RGBA")

    grid = _grid(width, height)
    gx0, gy0, gx1, gy1 = grid.bounds
    for sq in grid.squares():
        d.rectangle(grid.rect(sq), fill=FLOOR[(sq[0] + sq[1]) % 2])
    _draw_zones(d, grid, dict(zones), strong_zones)
    line_w = _s(1)
    for col in range(width + 1):
        x = gx0 + col * grid.cell
        d.line([(x, gy0), (x, gy1)], fill=GRID_LINE, width=line_w)
    for row in range(height + 1):
        y = gy0 + row * grid.cell
        d.line([(gx0, y), (gx1, y)], fill=GRID_LINE, width=line_w)
    for sq in obstacles:
        _draw_obstacle(d, grid, sq)
    d.rectangle(
        (gx0 - _s(2), gy0 - _s(2), gx1 + _s(2), gy1 + _s(2)), outline=(84, 90, 100), width=_s(2)
    )

    # Column letters above, row numbers to the left: what players type in their orders.
    cell = grid.cell / SS
    label_font = _f(15 if cell >= 40 else 12 if cell >= 28 else 10, bold=True)
    for col in range(width):
        cx = gx0 + (col + 0.5) * grid.cell
        d.text((cx, gy0 - _s(8)), column_letter(col), font=label_font, fill=LABEL, anchor="ms")
    for row in range(height):
        cy = gy0 + (row + 0.5) * grid.cell
        d.text((gx0 - _s(8), cy), str(row + 1), font=label_font, fill=LABEL, anchor="rm")

    for seat in SEATS:
        y0 = CARD_Y[seat]
        CANVAS.side_card(d, (PANEL_X0, y0, PANEL_X1, y0 + CARD_H), SIDE[seat])
        _card_labels(d, seat, lang)
    _legend(d, lang)
    return img


# --------------------------------------------------------------------------- units


def _short_name(
    name: str, max_width: float, sizes: tuple[int, ...]
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The unit's name at the largest size that fits, else abbreviated.

    English shortens to a prefix with a full stop ("Sorcerer" → "Sorc."), "Dark Mage" first to
    "D.Mage"; Japanese (usually 2-4 characters) keeps its first characters and an ellipsis.
    """
    text, fnt = fit_sized(name, sizes, max_width, bold=True)
    if not text.endswith(ELLIPSIS) or text == name:
        return text, fnt
    if CJK.search(name):
        return fit(name, fnt, max_width), fnt
    words = name.split()
    if len(words) > 1:
        initials = "".join(w[0] + "." for w in words[:-1]) + words[-1]
        if fnt.getlength(initials) <= max_width:
            return initials, fnt
        name = initials
    for cut in range(len(name) - 1, 0, -1):
        stem = name[:cut].rstrip(". ")
        if len(stem) > 2 and stem[-1].lower() in "aeiouy":
            continue  # "Comm." rather than "Comma.": abbreviations end on a consonant
        candidate = stem + "."
        if fnt.getlength(candidate) <= max_width:
            return candidate, fnt
    return name[:1], fnt


def _unit_name(unit: Mapping[str, Any], lang: str) -> str:
    names = unit.get("name")
    if isinstance(names, Mapping):
        for key in (lang, "en", "ja"):
            shown = renderable(str(names.get(key) or ""), bold=True)
            if shown:
                return shown
    elif names:
        shown = renderable(str(names), bold=True)
        if shown:
            return shown
    return renderable(str(unit.get("kind") or unit.get("id") or "?"), bold=True) or "?"


def _token_fill(seat: str, exhausted: bool) -> tuple[prim.Color, prim.Color]:
    """Token body and text colour; an exhausted unit is greyed but keeps a hint of its side."""
    colour = SIDE.get(seat, (128, 128, 128))
    if not exhausted:
        return colour, SIDE_TEXT.get(seat, WHITE)
    grey = sum(colour) // 3
    muted = tuple((c + grey * 3) // 4 for c in colour)
    return prim.shade(muted, 0.62), (214, 216, 222)


def _hp_colour(frac: float) -> prim.Color:
    for limit, colour in HP_COLOURS:
        if frac > limit:
            return colour
    return HP_COLOURS[-1][1]


def _token_geometry(grid: Grid, sq: Square) -> tuple[float, float, float]:
    """Token centre and half-size: a little above the square's centre to leave room for HP."""
    cx, cy = grid.center(sq)
    c = grid.cell
    return cx, cy - c * 0.07, c * 0.39


def _draw_unit(d: ImageDraw.ImageDraw, grid: Grid, unit: Mapping[str, Any], lang: str) -> None:
    sq = try_parse(unit.get("square"))
    if sq is None or not grid.contains(sq):
        return
    seat = str(unit.get("side"))
    exhausted = bool(unit.get("exhausted"))
    c = grid.cell
    mx, my = grid.center(sq)
    cx, cy, half = _token_geometry(grid, sq)
    fill, fg = _token_fill(seat, exhausted)
    _seat_chip(d, seat, (cx, cy), half + _s(1.5), INK, None)
    _seat_chip(d, seat, (cx, cy), half, fill, WHITE if not exhausted else (150, 152, 160))

    out = c / SS  # cell in output px: decides how much detail fits
    hp, max_hp = int(unit.get("hp", 0)), max(int(unit.get("max_hp", 0)), 1)
    name = _unit_name(unit, lang)
    room = half * (1.84 if seat == "B" else 1.62)
    if out >= 46:
        big = (17, 15) if CJK.search(name) else (14,)
        sizes = tuple(_s(v * out / 64) for v in (*big, 13, 12, 11, 10))
        label, fnt = _short_name(name, room, sizes)
        d.text((cx, my - c * 0.12), label, font=fnt, fill=fg, anchor="mm")
        d.text(
            (cx, my + c * 0.11),
            t(lang, "tactics.board.value", value=max(hp, 0), max=max_hp),
            font=_f(10.5 * out / 64, bold=True),
            fill=fg,
            anchor="mm",
        )
    elif out >= 30:
        sizes = tuple(_s(v * out / 40) for v in (13, 11, 10, 9))
        label, fnt = _short_name(name, room, sizes)
        d.text((cx, cy), label, font=fnt, fill=fg, anchor="mm")
    else:
        d.text((cx, cy), name[:1], font=_f(out * 0.42, bold=True), fill=fg, anchor="mm")

    # HP bar under the token: length and colour both say how hurt the unit is.
    bx0, bx1 = cx - c * 0.41, cx + c * 0.41
    by0 = cy + half + c * 0.035
    by1 = by0 + max(c * 0.095, _s(3))
    d.rectangle((bx0 - _s(1), by0 - _s(1), bx1 + _s(1), by1 + _s(1)), fill=INK)
    frac = max(0.0, min(1.0, hp / max_hp))
    prim.bar(
        d,
        (bx0, by0, bx1, by1),
        max(hp, 0),
        max_hp,
        _hp_colour(frac),
        BAR_BG,
        segments=max_hp if max_hp <= 12 and out >= 40 else 0,
        divider=INK,
    )

    # Corner marks sit in the square's top corners, clear of the name below them.
    mark = c * 0.25
    if unit.get("master"):
        _crown(d, (mx - c * 0.375, my - c * 0.365), mark)
    if exhausted:
        _zz(d, (mx + c * 0.375, my - c * 0.365), mark)
    deltas = [int(e.get("delta", 0)) for e in unit.get("effects") or () if isinstance(e, Mapping)]
    signs = [up for up in (True, False) if any((v > 0) if up else (v < 0) for v in deltas)]
    for i, up in enumerate(signs):
        ey = my + c * (0.12 + (i - (len(signs) - 1) / 2) * 0.21)
        _effect_arrow(d, (mx + c * 0.41, ey), c * 0.18, up)


# --------------------------------------------------------------------------- last turn


def _move_arrow(d: ImageDraw.ImageDraw, pts: list[Point], colour: prim.Color, cell: float) -> None:
    k = cell / _s(64)
    prim.arrow(
        d,
        pts,
        colour,
        max(_s(6 * k), _s(2.5)),
        casing=INK,
        casing_width=_s(1.5),
        head_length=max(_s(18 * k), _s(9)),
    )


def _strike_arrow(d: ImageDraw.ImageDraw, pts: list[Point], kind: str, cell: float) -> None:
    """Attacks: solid red on a white-and-black casing; abilities: dashed purple."""
    k = cell / _s(64)
    width = max(_s(5 * k), _s(2.5))
    head = max(_s(16 * k), _s(8))
    if kind == "attack":
        d.line(prim.trim_end(pts, head * 0.6), fill=INK, width=width + _s(5))
        prim.arrow(d, pts, RED, width, casing=WHITE, casing_width=_s(1.5), head_length=head)
    else:
        prim.arrow(
            d,
            pts,
            PURPLE,
            width,
            casing=INK,
            casing_width=_s(1.5),
            dashed=(max(_s(9 * k), _s(4)), max(_s(5 * k), _s(3))),
            head_length=head,
        )


def _moves(
    d: ImageDraw.ImageDraw, grid: Grid, last: Sequence[Mapping[str, Any]], at: dict[Square, str]
) -> None:
    """Last turn's movement arrows, drawn under the tokens (their tips stop at the rim)."""
    c = grid.cell
    for action in last:
        if action.get("kind") != "move":
            continue
        path: list[Square] = []
        for sq in _squares(action.get("path") or (), grid):
            if not path or path[-1] != sq:
                path.append(sq)
        if len(path) < 2:
            continue
        colour = SIDE.get(str(action.get("side")), MUTED)
        # Where the unit started its move.
        prim.dashed_ring(d, grid.center(path[0]), c * 0.3, colour, _s(2.5), INK, _s(4))
        # Keep to the right of the direction of travel so opposite moves do not overlap.
        pts = prim.offset_polyline([grid.center(sq) for sq in path], c * 0.06)
        if path[-1] in at:
            pts = prim.trim_end(pts, c * 0.44)
        _move_arrow(d, pts, colour, c)


def _strikes(
    d: ImageDraw.ImageDraw, grid: Grid, last: Sequence[Mapping[str, Any]], at: dict[Square, str]
) -> None:
    """Attacks and abilities, drawn over the tokens from the actor's edge to the target's rim."""
    c = grid.cell
    for action in last:
        kind = action.get("kind")
        if kind not in ("attack", "ability"):
            continue
        a, b = try_parse(action.get("from")), try_parse(action.get("to"))
        if b is None or not grid.contains(b):
            continue
        tx, ty = grid.center(b)
        if a is None or a == b or not grid.contains(a):
            # On itself (or from nowhere known): just the hit mark on the square.
            if kind == "attack":
                _burst(d, (tx, ty - c * 0.3), c * 0.3, (255, 214, 64))
            else:
                _sparkle(d, (tx, ty - c * 0.3), c * 0.34)
            if action.get("friendly"):
                _warning(d, (tx + c * 0.3, ty - c * 0.3), c * 0.3)
            continue
        sx, sy = grid.center(a)
        dist = math.hypot(tx - sx, ty - sy)
        ux, uy = (tx - sx) / dist, (ty - sy) / dist
        # From the actor's rim when there is room, from inside its token when it is adjacent.
        begin = c * 0.4 if dist > c * 1.5 else c * 0.24
        start = (sx + ux * begin, sy + uy * begin)
        end_gap = c * 0.4 if b in at else c * 0.12
        tip = (tx - ux * end_gap, ty - uy * end_gap)
        # The hit mark goes under the arrowhead, so it frames the tip instead of hiding it.
        if kind == "attack":
            _burst(d, tip, c * 0.3, (255, 214, 64))
        else:
            _sparkle(d, tip, c * 0.34)
        _strike_arrow(d, [start, tip], str(kind), c)
        if action.get("friendly"):
            mid = ((start[0] + tip[0]) / 2 - uy * c * 0.2, (start[1] + tip[1]) / 2 + ux * c * 0.2)
            _warning(d, mid, c * 0.28)


# --------------------------------------------------------------------------- panel


def _card_labels(d: ImageDraw.ImageDraw, seat: str, lang: str) -> None:
    """The fixed words and chip of a player card (part of the cached layer)."""
    x0, y0 = PANEL_X0, CARD_Y[seat]
    _seat_chip(d, seat, _sp((x0 + 36, y0 + 32)), _s(17), SIDE[seat], INK)
    d.text(_sp((x0 + 36, y0 + 32)), seat, font=_f(20, True), fill=SIDE_TEXT[seat], anchor="mm")
    keys = ("tactics.board.dp", "tactics.board.alive", "tactics.board.mana")
    for key, x in zip(keys, STAT_X, strict=True):
        d.text(_sp((x0 + x, y0 + 70)), t(lang, key), font=_f(14), fill=MUTED, anchor="lm")


def _flag(d: ImageDraw.ImageDraw, center: Point, size: float, fill: prim.Color) -> None:
    """A pennant on a pole (the first-player mark)."""
    cx, cy = center
    h = size / 2
    pole = max(2, round(size / 8))
    d.line([(cx - h * 0.6, cy - h), (cx - h * 0.6, cy + h)], fill=fill, width=pole)
    d.polygon(
        [(cx - h * 0.6, cy - h), (cx + h * 0.8, cy - h * 0.45), (cx - h * 0.6, cy + h * 0.1)],
        fill=fill,
    )


def _card(
    d: ImageDraw.ImageDraw,
    seat: str,
    name: str,
    view: Mapping[str, Any],
    lang: str,
) -> None:
    x0, x1, y0 = PANEL_X0, PANEL_X1, CARD_Y[seat]
    right = x1 - 16
    if view.get("first") == seat:
        label = t(lang, "tactics.board.first")
        fnt, bh = _f(14, True), _s(26)
        width = prim.badge_width(label, fnt, bh, icon=True)
        prim.badge(d, (_s(right) - width, _s(y0 + 32) - bh / 2), label, fnt, GOLD, INK, bh, _flag)
        right -= width / SS + 10
    label, fnt = fit_sized(name, (_s(24), _s(20), _s(17)), _s(right - (x0 + 62)), bold=True)
    d.text(_sp((x0 + 62, y0 + 32)), label, font=fnt, fill=TEXT, anchor="lm")

    mana = (view.get("mana") or {}).get(seat) or (0, 0)
    cur = int(mana[0]) if len(mana) > 0 else 0
    top = int(mana[1]) if len(mana) > 1 else cur
    values = (
        str((view.get("dp") or {}).get(seat, 0)),
        str((view.get("alive") or {}).get(seat, 0)),
        t(lang, "tactics.board.value", value=cur, max=top),
    )
    for value, x in zip(values, STAT_X, strict=True):
        d.text(_sp((x0 + x, y0 + 100)), value, font=_f(28, True), fill=TEXT, anchor="lm")
    CANVAS.card_meter(
        d,
        (x0 + 22, y0 + 128, x1 - 16, y0 + 146),
        cur,
        max(top, 1),
        prim.shade(SIDE[seat], 1.25),
        segments=top if 1 < top <= 20 else 0,  # more ticks than that would blur into a bar
    )


def _outcome(
    d: ImageDraw.ImageDraw, outcome: str, names: Mapping[str, str], turn: str, lang: str
) -> None:
    x0, x1 = PANEL_X0, PANEL_X1
    y0, y1 = OUTCOME_Y
    CANVAS.result_frame(d, (x0, y0, x1, y1), fill=(14, 15, 19))
    mid = (x0 + x1) / 2
    # The header already says "game over": the caption tells when it ended.
    d.text(_sp((mid, y0 + 20)), turn, font=_f(15), fill=MUTED, anchor="mm")
    if outcome in SEATS:
        template = t(lang, "tactics.board.winner", name=PLACEHOLDER)
        sizes = (_s(24), _s(20), _s(17))
        headline, fnt = fit_into(template, names[outcome], sizes, _s(x1 - x0 - 40), bold=True)
    else:
        headline, fnt = t(lang, "tactics.board.draw"), _f(24, True)
    d.text(_sp((mid, y0 + 48)), headline, font=fnt, fill=GOLD, anchor="mm")


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """Key to the marks and arrows, at the bottom of the panel (cached with the static layer)."""
    x0, x1 = PANEL_X0, PANEL_X1
    y0, y1 = LEGEND_Y
    d.rounded_rectangle((_s(x0), _s(y0), _s(x1), _s(y1)), radius=_s(12), fill=CARD_BG)
    d.text(
        _sp((x0 + 14, y0 + 18)),
        t(lang, "tactics.board.legend"),
        font=_f(14, True),
        fill=MUTED,
        anchor="lm",
    )
    fnt = _f(14)
    col_w = (x1 - x0 - 16) / 2
    rows_y = [y0 + 46 + 29 * i for i in range(4)]

    def arrow_icon(kind: str) -> Any:
        def paint(x: float, y: float) -> None:
            pts = [_sp((x - 16, y)), _sp((x + 16, y))]
            if kind == "move":
                _move_arrow(d, pts, SIDE["A"], _s(40))
            else:
                _strike_arrow(d, pts, kind, _s(40))

        return paint

    def friendly(x: float, y: float) -> None:
        _warning(d, _sp((x, y)), _s(20))

    def master(x: float, y: float) -> None:
        _crown(d, _sp((x, y)), _s(22))

    def exhausted(x: float, y: float) -> None:
        _zz(d, _sp((x, y)), _s(22))

    def effects(x: float, y: float) -> None:
        _effect_arrow(d, _sp((x - 7, y)), _s(13), True)
        _effect_arrow(d, _sp((x + 7, y)), _s(13), False)

    def zone(x: float, y: float) -> None:
        for seat, dx in (("A", -8), ("B", 8)):
            box = (_s(x + dx - 7), _s(y - 9), _s(x + dx + 7), _s(y + 9))
            d.rectangle(box, fill=prim.shade(SIDE[seat], 1.55), outline=SIDE[seat], width=_s(2))

    entries = [
        ("tactics.board.legend_move", arrow_icon("move")),
        ("tactics.board.legend_attack", arrow_icon("attack")),
        ("tactics.board.legend_ability", arrow_icon("ability")),
        ("tactics.board.legend_friendly", friendly),
        ("tactics.board.legend_master", master),
        ("tactics.board.legend_exhausted", exhausted),
        ("tactics.board.legend_effects", effects),
        ("tactics.board.legend_zone", zone),
    ]
    for i, (key, paint) in enumerate(entries):
        col, row = divmod(i, 4)
        ix = x0 + 8 + col * col_w + 24
        y = rows_y[row]
        paint(ix, y)
        text = fit(t(lang, key), fnt, _s(col_w - 52))
        d.text(_sp((ix + 24, y)), text, font=fnt, fill=TEXT, anchor="lm")


def _display_names(names: Mapping[str, str] | None, lang: str) -> dict[str, str]:
    return display_names(names, SEATS, lambda seat: t(lang, "tactics.board.player", seat=seat))


def _status(view: Mapping[str, Any], lang: str) -> str:
    step = str(view.get("step") or "")
    if step in ("roster", "deploy"):
        return t(lang, f"tactics.board.step.{step}")
    if step == "over" or view.get("outcome"):
        return t(lang, "tactics.board.over")
    return _turn(view, lang)


def _turn(view: Mapping[str, Any], lang: str) -> str:
    return t(
        lang,
        "tactics.board.turn",
        n=int(view.get("turn") or 0),
        max=int(view.get("max_turns") or MAX_TURNS),
    )


# --------------------------------------------------------------------------- entry point


def render(
    view: Mapping[str, Any], lang: str = "en", names: Mapping[str, str] | None = None
) -> bytes:
    """PNG bytes (``WIDTH`` × ``HEIGHT``) of the board for a tactics ``view`` in ``lang``.

    ``names`` maps seat to display name (glyphs the bundled font lacks are dropped, long names
    shrink then truncate). Squares outside the map and unknown keys are ignored, never fatal.
    """
    board_map: Mapping[str, Any] = view.get("map") or {}
    width = max(1, min(26, int(board_map.get("width") or 10)))
    height = max(1, min(26, int(board_map.get("height") or 10)))
    grid = _grid(width, height)
    obstacles = tuple(sorted(set(_squares(board_map.get("obstacles") or (), grid))))
    zones_in: Mapping[str, Any] = board_map.get("zones") or {}
    zones = tuple(
        (seat, tuple(sorted(set(_squares(zones_in.get(seat) or (), grid))))) for seat in SEATS
    )
    step = str(view.get("step") or "")
    img = _base(width, height, obstacles, zones, step in ("roster", "deploy"), lang).copy()
    d = ImageDraw.Draw(img, "RGBA")
    shown = _display_names(names, lang)
    outcome = view.get("outcome")

    # Header: map name on the left, turn (or setup step) right-aligned over the panel.
    map_names = board_map.get("name")
    map_name = ""
    if isinstance(map_names, Mapping):
        map_name = renderable(str(map_names.get(lang) or map_names.get("en") or ""), bold=True)
    elif map_names:
        map_name = renderable(str(map_names), bold=True)
    heading = (
        t(lang, "tactics.board.title", map=map_name)
        if map_name
        else t(lang, "tactics.board.title", map="").strip(" ・·")
    )
    status = _status(view, lang)
    CANVAS.header_text(d, heading, status, height=HEADER_H, right=PANEL_X1, sizes=(26, 22, 18))

    units = [u for u in view.get("units") or () if isinstance(u, Mapping)]
    at: dict[Square, str] = {}
    for u in units:
        sq = try_parse(u.get("square"))
        if sq is not None and grid.contains(sq) and int(u.get("hp", 1)) > 0:
            at[sq] = str(u.get("side"))
    last = [a for a in view.get("last") or () if isinstance(a, Mapping)]
    _moves(d, grid, last, at)
    # Row by row so overlapping marks layer the same way every time.
    for u in sorted(units, key=lambda u: (try_parse(u.get("square")) or (99, 99))[::-1]):
        if int(u.get("hp", 1)) > 0:
            _draw_unit(d, grid, u, lang)
    _strikes(d, grid, last, at)

    for seat in SEATS:
        _card(d, seat, shown[seat], view, lang)
    if outcome:
        _outcome(d, str(outcome), shown, _turn(view, lang), lang)
        if outcome in SEATS:
            y0 = CARD_Y[str(outcome)]
            CANVAS.result_frame(d, (PANEL_X0, y0, PANEL_X1, y0 + CARD_H))

    return CANVAS.png(img)
