"""Tactics board image: the ruleset's view dict in, PNG bytes out (pure).

No discord and no storage here: the cog hands the bytes to discord.py. What stays the same for a
match (floor, grid, labels, zones, obstacles, box frames, legend) is drawn once per map and
language and cached; a render copies that layer and adds arrows, tokens and the players' numbers.

Made to be read in Discord, which shows an image about 550 px wide on a desktop and 400 on a
phone: the image is portrait and narrow (``WIDTH`` 720), the map fills its width, and no text is
drawn under ``MIN_TEXT`` px (9 px at 550 wide). A token carries what fits at that size: the unit's
label (``A-4``, the one orders and the log use: :func:`cogs.tactics.units.tag`) and its HP; the
names are listed under the map, each side's units with label, name and HP, the fallen struck out.
Last turn reads at a glance: moves and strikes as arrows under the tokens (never over a unit's
HP), every hit's damage as a red ``−3`` on its square, heals as a green ``+2``, and a red cross
where a unit fell.

Pillow does not antialias shapes, so the image is drawn at ``SS`` times the output size and
shrunk once at the end (``Supersample.png``). Layout numbers are in output pixels; ``_s`` scales
them to the drawing canvas. Everything inside a square is sized from the cell, so maps from 6×6 to
26×26 fit the same board area (a 10×10 map gets 66 px squares); on big maps what no longer fits
at ``MIN_TEXT`` is left out of a token, never shrunk below it.
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
from cogs.tactics.units import tag

__all__ = ["HEIGHT", "MIN_TEXT", "WIDTH", "render"]

WIDTH, HEIGHT = 720, 1090
SS = 2  # supersampling factor
SEATS = ("A", "B")
MAX_TURNS = 10
SHOWN_WIDTH = 550  # Discord's desktop width for an image; a phone shows it narrower still
MIN_TEXT = math.ceil(9 * WIDTH / SHOWN_WIDTH)  # 12: no text under 9 px at 550 px wide

# Layout (output pixels).
HEADER_H = 48
BOARD_AREA = (30, 76, 690, 736)  # squares go here; labels sit just outside the grid
MAX_CELL = 66
PANEL_X0, PANEL_X1 = 10, 710  # the two sides' boxes under the map
PANEL_Y0, PANEL_Y1 = 748, 1018
BOX_X = {"A": (10, 355), "B": (365, 710)}
ROW_Y0, ROW_H = 92, 21  # unit rows inside a side's box (offset from its top)
MAX_ROWS = 8
LEGEND_Y = (1026, 1084)

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
DAMAGE_BG = (200, 30, 30)
HEAL_BG = (34, 150, 64)
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
        # The seat's letter in the zone's corner squares: whose zone it is, not by colour alone.
        for sq in {min(cells), max(cells)} if cells else ():
            x0, y0, _, _ = grid.rect(sq, inset=_s(5))
            d.text((x0, y0), seat, font=_f(17, True), fill=prim.shade(SIDE[seat], 0.7))


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
    label_font = _f(15 if cell >= 40 else MIN_TEXT, bold=True)
    for col in range(width):
        cx = gx0 + (col + 0.5) * grid.cell
        d.text((cx, gy0 - _s(8)), column_letter(col), font=label_font, fill=LABEL, anchor="ms")
    for row in range(height):
        cy = gy0 + (row + 0.5) * grid.cell
        d.text((gx0 - _s(8), cy), str(row + 1), font=label_font, fill=LABEL, anchor="rm")

    for seat in SEATS:
        x0, x1 = BOX_X[seat]
        CANVAS.side_card(d, (x0, PANEL_Y0, x1, PANEL_Y1), SIDE[seat])
        _card_labels(d, seat, lang)
    _legend(d, lang)
    return img


# --------------------------------------------------------------------------- units


def _short_name(
    name: str, max_width: float, sizes: tuple[int, ...]
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The unit's name at the largest size that fits, else abbreviated (the unit list).

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


def _label(unit: Mapping[str, Any]) -> str:
    """``A-4``: the label orders and the log use (the dash keeps it apart from squares). A unit
    view names its id ``id``; a last-turn entry ``unit``."""
    return tag(str(unit.get("id") or unit.get("unit") or "?"))


def _token_fill(seat: str, exhausted: bool) -> tuple[prim.Color, prim.Color]:
    """Token body and text colour; an exhausted unit is greyed but keeps a hint of its side."""
    colour = SIDE.get(seat, (128, 128, 128))
    if not exhausted:
        return colour, SIDE_TEXT.get(seat, WHITE)
    grey = sum(colour) // 3
    muted = tuple((c + grey * 3) // 4 for c in colour)
    return prim.shade(muted, 0.62), (226, 228, 234)


def _hp_colour(frac: float) -> prim.Color:
    for limit, colour in HP_COLOURS:
        if frac > limit:
            return colour
    return HP_COLOURS[-1][1]


def _token_geometry(grid: Grid, sq: Square) -> tuple[float, float, float]:
    """Token centre and half-size: a little above the square's centre to leave room for HP."""
    cx, cy = grid.center(sq)
    c = grid.cell
    return cx, cy - c * 0.06, c * 0.4


def _fits(text: str, size: float, room: float) -> ImageFont.FreeTypeFont | None:
    """The bold font at ``size`` output px if ``text`` fits ``room`` canvas px, else None."""
    if size < MIN_TEXT:
        return None
    fnt = _f(size, bold=True)
    return fnt if fnt.getlength(text) <= room else None


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

    out = c / SS  # cell in output px: decides how much fits at MIN_TEXT or more
    hp, max_hp = int(unit.get("hp", 0)), max(int(unit.get("max_hp", 0)), 1)
    label = _label(unit)
    room = half * (1.8 if seat == "B" else 1.6)
    hp_text = t(lang, "tactics.board.value", value=max(hp, 0), max=max_hp)
    label_font = _fits(label, min(20.0, out * 0.3), room)
    hp_font = _fits(hp_text, max(MIN_TEXT, out * 0.2), room)
    if label_font is not None and hp_font is not None and out >= 52:
        d.text((cx, cy - half * 0.26), label, font=label_font, fill=fg, anchor="mm")
        d.text((cx, cy + half * 0.42), hp_text, font=hp_font, fill=fg, anchor="mm")
    elif label_font is not None:
        d.text((cx, cy), label, font=label_font, fill=fg, anchor="mm")
    else:  # a big map's small squares: the number alone, if even that fits
        number = label.split("-")[-1]
        fnt = _fits(number, max(MIN_TEXT, out * 0.4), room)
        if fnt is not None:
            d.text((cx, cy), number, font=fnt, fill=fg, anchor="mm")

    # HP bar under the token: length and colour both say how hurt the unit is.
    bx0, bx1 = cx - c * 0.42, cx + c * 0.42
    by0 = cy + half + c * 0.03
    by1 = by0 + max(c * 0.085, _s(3))
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

    # Corner marks sit in the square's top corners, clear of the label below them.
    mark = c * 0.26
    if unit.get("master"):
        _crown(d, (mx - c * 0.37, my - c * 0.37), mark)
    if exhausted:
        _zz(d, (mx + c * 0.37, my - c * 0.37), mark)
    deltas = [int(e.get("delta", 0)) for e in unit.get("effects") or () if isinstance(e, Mapping)]
    signs = [up for up in (True, False) if any((v > 0) if up else (v < 0) for v in deltas)]
    for i, up in enumerate(signs):
        ey = my + c * (0.08 + (i - (len(signs) - 1) / 2) * 0.21)
        _effect_arrow(d, (mx + c * 0.42, ey), c * 0.17, up)


def _fallen(d: ImageDraw.ImageDraw, grid: Grid, unit: Mapping[str, Any], alone: bool) -> None:
    """Where a unit fell last turn: its greyed outline crossed out in red and its label; on a
    square someone has stepped onto since, a small cross in the corner."""
    sq = try_parse(unit.get("at"))
    if sq is None or not grid.contains(sq):
        return
    c = grid.cell
    cx, cy, half = _token_geometry(grid, sq)
    seat = str(unit.get("side"))
    if not alone:
        mx, my = grid.center(sq)
        _cross(d, (mx - c * 0.37, my + c * 0.36), c * 0.2, _s(2))
        return
    _seat_chip(d, seat, (cx, cy), half, prim.with_alpha(INK, 70), prim.shade(SIDE[seat], 0.8))
    _cross(d, (cx, cy), half * 1.25, max(_s(3), round(c * 0.07)))
    fnt = _fits(_label(unit), min(18.0, c / SS * 0.27), c * 0.95)
    if fnt is not None:
        bx, by = cx, cy + half + c * 0.02
        w = fnt.getlength(_label(unit)) / 2 + _s(4)
        d.rounded_rectangle((bx - w, by - _s(8), bx + w, by + _s(8)), radius=_s(4), fill=INK)
        d.text((bx, by), _label(unit), font=fnt, fill=(236, 160, 160), anchor="mm")


def _cross(d: ImageDraw.ImageDraw, center: Point, size: float, width: int) -> None:
    cx, cy = center
    h = size / 2
    for a, b in (((cx - h, cy - h), (cx + h, cy + h)), ((cx - h, cy + h), (cx + h, cy - h))):
        d.line([a, b], fill=INK, width=width + _s(3))
        d.line([a, b], fill=DEBUFF, width=width)


def _number_badge(
    d: ImageDraw.ImageDraw, center: Point, text: str, fill: prim.Color, size: float
) -> None:
    """A hit's damage (``−3``, red) or a heal (``+2``, green) on the square it landed on."""
    fnt = _f(size, bold=True)
    w = fnt.getlength(text) / 2 + _s(4)
    h = _s(size * 0.62)
    cx, cy = center
    d.rounded_rectangle(
        (cx - w, cy - h, cx + w, cy + h), radius=_s(5), fill=fill, outline=WHITE, width=_s(1.5)
    )
    d.text((cx, cy), text, font=fnt, fill=WHITE, anchor="mm")


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


def _strike_line(
    grid: Grid, action: Mapping[str, Any], at: dict[Square, str]
) -> tuple[list[Point], Point] | None:
    """An attack's or ability's arrow (from the actor's centre, which its token will cover, to
    the target's rim) and where its tip is; None when it has no line to draw (on itself)."""
    a, b = try_parse(action.get("from")), try_parse(action.get("to"))
    if b is None or not grid.contains(b) or a is None or a == b or not grid.contains(a):
        return None
    c = grid.cell
    (sx, sy), (tx, ty) = grid.center(a), grid.center(b)
    dist = math.hypot(tx - sx, ty - sy)
    ux, uy = (tx - sx) / dist, (ty - sy) / dist
    end_gap = c * 0.42 if b in at else c * 0.12
    tip = (tx - ux * end_gap, ty - uy * end_gap)
    return [(sx, sy), tip], tip


def _strikes(
    d: ImageDraw.ImageDraw, grid: Grid, last: Sequence[Mapping[str, Any]], at: dict[Square, str]
) -> None:
    """Attacks and abilities, drawn under the tokens: an arrow never hides a unit's HP."""
    for action in last:
        kind = action.get("kind")
        if kind not in ("attack", "ability"):
            continue
        line = _strike_line(grid, action, at)
        if line is not None:
            _strike_arrow(d, line[0], str(kind), grid.cell)


def _hit_marks(
    d: ImageDraw.ImageDraw, grid: Grid, last: Sequence[Mapping[str, Any]], at: dict[Square, str]
) -> None:
    """Over the tokens: where each strike landed, friendly fire, and the damage and heals."""
    c = grid.cell
    for action in last:
        kind = action.get("kind")
        if kind not in ("attack", "ability"):
            continue
        b = try_parse(action.get("to"))
        if b is None or not grid.contains(b):
            continue
        line = _strike_line(grid, action, at)
        tx, ty = grid.center(b)
        tip = line[1] if line is not None else (tx, ty - c * 0.3)
        if kind == "attack":
            _burst(d, tip, c * 0.26, (255, 214, 64))
        else:
            _sparkle(d, tip, c * 0.3)
        if action.get("friendly"):
            _warning(d, (tx - c * 0.3, ty + c * 0.28), c * 0.28)
    # One number per square and kind: an area ability's hits on one unit add up.
    totals: dict[tuple[Square, str], int] = {}
    for action in last:
        kind = str(action.get("kind"))
        sq = try_parse(action.get("at"))
        if kind in ("damage", "heal") and sq is not None and grid.contains(sq):
            totals[(sq, kind)] = totals.get((sq, kind), 0) + int(action.get("amount", 0))
    # On the square's top edge, between the corner marks: clear of the label and the HP.
    size = max(float(MIN_TEXT), min(16.0, c / SS * 0.24))
    for (sq, kind), amount in sorted(totals.items()):
        mx, my = grid.center(sq)
        both = (sq, "damage") in totals and (sq, "heal") in totals
        dx = (0.16 if kind == "damage" else -0.16) * c if both else 0
        text, fill = (f"−{amount}", DAMAGE_BG) if kind == "damage" else (f"+{amount}", HEAL_BG)
        _number_badge(d, (mx + dx, my - c * 0.43), text, fill, size)


# --------------------------------------------------------------------------- panel


def _card_labels(d: ImageDraw.ImageDraw, seat: str, lang: str) -> None:
    """The fixed words and chip of a side's box (part of the cached layer)."""
    x0 = BOX_X[seat][0]
    y0 = PANEL_Y0
    _seat_chip(d, seat, _sp((x0 + 32, y0 + 24)), _s(14), SIDE[seat], INK)
    d.text(_sp((x0 + 32, y0 + 24)), seat, font=_f(17, True), fill=SIDE_TEXT[seat], anchor="mm")
    keys = ("tactics.board.dp", "tactics.board.alive", "tactics.board.mana")
    for key, x in zip(keys, STAT_X, strict=True):
        d.text(_sp((x0 + x, y0 + 56)), t(lang, key), font=_f(13), fill=MUTED, anchor="lm")


STAT_X = (20, 100, 196)  # DP, units, mana inside a side's box (their numbers follow the word)


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


def _side_units(view: Mapping[str, Any], seat: str) -> tuple[list[Mapping[str, Any]], list[str]]:
    """A side's rows: its units on the board, then its fallen, by label; and its reserve."""
    mine = [u for u in view.get("units") or () if isinstance(u, Mapping) and u.get("side") == seat]
    order = {"board": 0, "dead": 1}
    listed = sorted(
        (u for u in mine if u.get("status", "board") in order),
        key=lambda u: (order[str(u.get("status", "board"))], _id_number(u)),
    )
    reserve = [_label(u) for u in sorted(mine, key=_id_number) if u.get("status") == "reserve"]
    return listed, reserve


def _id_number(unit: Mapping[str, Any]) -> tuple[int, str]:
    uid = str(unit.get("id") or "")
    return (int(uid[1:]) if uid[1:].isdigit() else 99, uid)


def _unit_row(
    d: ImageDraw.ImageDraw, unit: Mapping[str, Any], box: tuple[float, float, float], lang: str
) -> None:
    """``A-4 ♛ Sniper ····· 5/8``: the label, the master's crown, the name, the HP (a fallen
    unit's row is greyed and struck out, its HP a cross)."""
    x0, x1, y = box
    dead = unit.get("status") == "dead"
    seat = str(unit.get("side"))
    colour = MUTED if dead else TEXT
    chip = prim.shade(SIDE.get(seat, MUTED), 0.55) if dead else SIDE.get(seat, MUTED)
    _seat_chip(d, seat, _sp((x0 + 8, y)), _s(6.5), chip, None)
    label_font = _f(14, True)
    d.text(_sp((x0 + 20, y)), _label(unit), font=label_font, fill=colour, anchor="lm")
    nx = x0 + 64
    if unit.get("master"):
        _crown(d, _sp((nx + 7, y)), _s(14))
        nx += 20
    hp, max_hp = int(unit.get("hp", 0)), max(int(unit.get("max_hp", 0)), 1)
    value_font = _f(14, True)
    if dead:  # a drawn cross where the HP was (the font has no ✕)
        value = ""
        _cross(d, _sp((x1 - 7, y)), _s(11), _s(2))
        room = _s(x1 - nx - 26)
    else:
        value = t(lang, "tactics.board.value", value=max(hp, 0), max=max_hp)
        d.text(_sp((x1, y)), value, font=value_font, fill=_hp_colour(hp / max_hp), anchor="rm")
        room = _s(x1 - nx - 12) - value_font.getlength(value)
    name, fnt = _short_name(_unit_name(unit, lang), room, (_s(14), _s(13), _s(MIN_TEXT)))
    d.text(_sp((nx, y)), name, font=fnt, fill=colour, anchor="lm")
    if dead:
        y_line = _s(y + 1)
        end = _s(nx) + fnt.getlength(name)
        d.line([(_s(x0 + 18), y_line), (end, y_line)], fill=DEBUFF, width=_s(2))
    if unit.get("exhausted") and not dead:
        _zz(d, (_s(nx + 10) + fnt.getlength(name), _s(y)), _s(14))


def _card(
    d: ImageDraw.ImageDraw,
    seat: str,
    name: str,
    view: Mapping[str, Any],
    lang: str,
) -> None:
    x0, x1 = BOX_X[seat]
    y0 = PANEL_Y0
    right = x1 - 12
    if view.get("first") == seat:
        label = t(lang, "tactics.board.first")
        fnt, bh = _f(13, True), _s(24)
        width = prim.badge_width(label, fnt, bh, icon=True)
        prim.badge(d, (_s(right) - width, _s(y0 + 24) - bh / 2), label, fnt, GOLD, INK, bh, _flag)
        right -= width / SS + 8
    label, fnt = fit_sized(name, (_s(19), _s(16), _s(14)), _s(right - (x0 + 54)), bold=True)
    d.text(_sp((x0 + 54, y0 + 24)), label, font=fnt, fill=TEXT, anchor="lm")

    mana = (view.get("mana") or {}).get(seat) or (0, 0)
    cur = int(mana[0]) if len(mana) > 0 else 0
    top = int(mana[1]) if len(mana) > 1 else cur
    values = (
        str((view.get("dp") or {}).get(seat, 0)),
        str((view.get("alive") or {}).get(seat, 0)),
        t(lang, "tactics.board.value", value=cur, max=top),
    )
    word_font = _f(13)
    keys = ("tactics.board.dp", "tactics.board.alive", "tactics.board.mana")
    for key, value, x in zip(keys, values, STAT_X, strict=True):
        vx = _s(x0 + x + 6) + word_font.getlength(t(lang, key))
        d.text((vx, _s(y0 + 56)), value, font=_f(19, True), fill=TEXT, anchor="lm")
    CANVAS.card_meter(
        d,
        (x0 + 20, y0 + 72, x1 - 12, y0 + 80),
        cur,
        max(top, 1),
        prim.shade(SIDE[seat], 1.25),
        segments=top if 1 < top <= 20 else 0,  # more ticks than that would blur into a bar
    )

    listed, reserve = _side_units(view, seat)
    rows = MAX_ROWS - (1 if reserve else 0)
    if len(listed) > rows:  # more than fit: the living first; the rest are counted
        reserve = [f"+{len(listed) - rows + 1}", *reserve]
        listed = listed[: rows - 1]
    y = y0 + ROW_Y0
    for unit in listed:
        _unit_row(d, unit, (x0 + 14, x1 - 12, y), lang)
        y += ROW_H
    if reserve:
        text = t(lang, "tactics.board.reserve", units=" ".join(reserve))
        fnt = _f(13)
        shown = fit(text, fnt, _s(x1 - x0 - 26))
        d.text(_sp((x0 + 14, y)), shown, font=fnt, fill=MUTED, anchor="lm")


def _outcome(
    d: ImageDraw.ImageDraw, outcome: str, names: Mapping[str, str], turn: str, lang: str
) -> None:
    """The result over the legend's place: when it ended, and who won."""
    x0, x1 = PANEL_X0, PANEL_X1
    y0, y1 = LEGEND_Y
    CANVAS.result_frame(d, (x0, y0, x1, y1), fill=(14, 15, 19))
    mid = (y0 + y1) / 2
    d.text(_sp((x0 + 18, mid)), turn, font=_f(15), fill=MUTED, anchor="lm")
    room = x1 - x0 - 60 - _f(15).getlength(turn) / SS
    if outcome in SEATS:
        template = t(lang, "tactics.board.winner", name=PLACEHOLDER)
        sizes = (_s(22), _s(18), _s(15))
        headline, fnt = fit_into(template, names[outcome], sizes, _s(room), bold=True)
    else:
        headline, fnt = t(lang, "tactics.board.draw"), _f(22, True)
    d.text(_sp((x1 - 18, mid)), headline, font=fnt, fill=GOLD, anchor="rm")


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """Key to the marks and arrows, under the sides' boxes (cached with the static layer)."""
    x0, x1 = PANEL_X0, PANEL_X1
    y0, y1 = LEGEND_Y
    d.rounded_rectangle((_s(x0), _s(y0), _s(x1), _s(y1)), radius=_s(10), fill=CARD_BG)
    fnt = _f(13)
    columns = 5
    col_w = (x1 - x0 - 8) / columns
    rows_y = [y0 + 16, y0 + 42]

    def arrow_icon(kind: str) -> Any:
        def paint(x: float, y: float) -> None:
            pts = [_sp((x - 13, y)), _sp((x + 13, y))]
            if kind == "move":
                _move_arrow(d, pts, SIDE["A"], _s(36))
            else:
                _strike_arrow(d, pts, kind, _s(36))

        return paint

    def friendly(x: float, y: float) -> None:
        _warning(d, _sp((x, y)), _s(18))

    def master(x: float, y: float) -> None:
        _crown(d, _sp((x, y)), _s(20))

    def exhausted(x: float, y: float) -> None:
        _zz(d, _sp((x, y)), _s(20))

    def effects(x: float, y: float) -> None:
        _effect_arrow(d, _sp((x - 6, y)), _s(12), True)
        _effect_arrow(d, _sp((x + 6, y)), _s(12), False)

    def damage(x: float, y: float) -> None:
        _number_badge(d, _sp((x, y)), "−3", DAMAGE_BG, MIN_TEXT)

    def fallen(x: float, y: float) -> None:
        _cross(d, _sp((x, y)), _s(16), _s(3))

    def zone(x: float, y: float) -> None:
        for seat, dx in (("A", -7), ("B", 7)):
            box = (_s(x + dx - 6), _s(y - 8), _s(x + dx + 6), _s(y + 8))
            d.rectangle(box, fill=prim.shade(SIDE[seat], 1.55), outline=SIDE[seat], width=_s(2))

    entries = [
        ("tactics.board.legend_move", arrow_icon("move")),
        ("tactics.board.legend_attack", arrow_icon("attack")),
        ("tactics.board.legend_ability", arrow_icon("ability")),
        ("tactics.board.legend_damage", damage),
        ("tactics.board.legend_fallen", fallen),
        ("tactics.board.legend_master", master),
        ("tactics.board.legend_exhausted", exhausted),
        ("tactics.board.legend_effects", effects),
        ("tactics.board.legend_friendly", friendly),
        ("tactics.board.legend_zone", zone),
    ]
    for i, (key, paint) in enumerate(entries):
        row, col = divmod(i, columns)
        ix = x0 + 4 + col * col_w + 18
        y = rows_y[row]
        paint(ix, y)
        text = fit(t(lang, key), fnt, _s(col_w - 40))
        d.text(_sp((ix + 20, y)), text, font=fnt, fill=TEXT, anchor="lm")


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

    # Header: map name on the left, turn (or setup step) right-aligned.
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
    CANVAS.header_text(
        d, heading, status, height=HEADER_H, right=WIDTH - 16, sizes=(24, 20, 17, MIN_TEXT)
    )

    units = [u for u in view.get("units") or () if isinstance(u, Mapping)]
    at: dict[Square, str] = {}
    for u in units:
        sq = try_parse(u.get("square"))
        if sq is not None and grid.contains(sq) and int(u.get("hp", 1)) > 0:
            at[sq] = str(u.get("side"))
    last = [a for a in view.get("last") or () if isinstance(a, Mapping)]
    for fell in last:
        if fell.get("kind") == "death":
            _fallen(d, grid, fell, try_parse(fell.get("at")) not in at)
    _moves(d, grid, last, at)
    _strikes(d, grid, last, at)
    # Row by row so overlapping marks layer the same way every time.
    for u in sorted(units, key=lambda u: (try_parse(u.get("square")) or (99, 99))[::-1]):
        if int(u.get("hp", 1)) > 0:
            _draw_unit(d, grid, u, lang)
    _hit_marks(d, grid, last, at)

    for seat in SEATS:
        _card(d, seat, shown[seat], view, lang)
    if outcome:
        _outcome(d, str(outcome), shown, _turn(view, lang), lang)
        if outcome in SEATS:
            x0, x1 = BOX_X[str(outcome)]
            CANVAS.result_frame(d, (x0, PANEL_Y0, x1, PANEL_Y1))

    return CANVAS.png(img)
