"""The dungeon's board image: the public view in, PNG bytes out (pure: Pillow and the catalogues).

The map on the left shows only what the party has revealed: floor with hex labels (players write
orders with them), walls, thin walls, doors, and the overlay tiles, each with its own colour and
mark so that none relies on colour alone; figures carry their hit points; the last moves are
arrows (monsters red, characters in their seat's colour, forced movement dashed); a monster tie
numbers its options on the map. The panel on the right lists the round's initiative order with the
figure acting now, each character's card and hand, and a legend.

Axial hexes of the rules (``r`` grows up the page) are drawn with :class:`bot.render.hexgrid.Layout`
(``r`` grows down) as ``(q, -q - r)``: row 1 at the bottom, as the labels say.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import (
    BG,
    CARD_BG,
    GOLD,
    INK,
    MUTED,
    SIDE,
    TEXT,
    Supersample,
    display_names,
)
from bot.render.fonts import fit, fit_sized
from bot.render.hexgrid import Layout, Point
from cogs.dungeon.content import label, parse_label

__all__ = ["render"]

SS = 2
WIDTH, HEIGHT = 1000, 680
HEADER_H = 56
MARGIN = 12
PANEL_W = 300
LEGEND_H = 70
MAX_HEX = 72
# Discord shows the board about 550 px wide: 17 px here is 9.35 px there, the smallest text drawn.
MIN_FONT = 17
# The map's box: everything left of the panel between the header and the legend.
MAP_BOX = (MARGIN, HEADER_H + MARGIN, WIDTH - PANEL_W - MARGIN, HEIGHT - LEGEND_H)

# The seats' token colours stay apart under protanopia, deuteranopia and tritanopia as well as
# normal vision (CAM02-UCS ΔE ≥ 20 between any two, monsters' red included: tests/render/
# test_palette.py); the tokens also carry the seat's letter, and monsters are squares.
SEAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "A": SIDE["A"],
    "B": SIDE["B"],
    "C": (100, 205, 160),  # a light mint: the green it was fell on B's orange without red-green
    "D": (200, 160, 230),  # a light lavender: the purple it was fell on A's blue
}
# The letter on a seat's token: white on the darker fills, ink on the light ones.
SEAT_LETTER: dict[str, tuple[int, int, int]] = {"C": INK, "D": INK}
MONSTER = (196, 44, 44)
MONSTER_TEXT = (255, 240, 240)
FLOOR = (206, 200, 184)
FLOOR_LINE = (150, 144, 128)
LABEL = (78, 72, 60)
WALL = (58, 56, 62)
THIN_WALL = (30, 28, 34)
DOOR = (142, 92, 46)
TERRAIN_FILL: dict[str, tuple[int, int, int]] = {
    "obstacle": (150, 146, 136),
    "trap": (206, 200, 184),
    "hazardous": (236, 150, 90),
    "difficult": (150, 186, 120),
    "icy": (176, 222, 246),
}
TRAP = (200, 40, 40)
HP_GOOD, HP_MID, HP_LOW = (74, 190, 92), (238, 192, 48), (226, 62, 52)
TIE = GOLD
HIT = (255, 214, 64)  # the burst a hit draws, with the damage on it
MISS = (214, 214, 214)
FALLEN = (120, 116, 110)
KILL = (200, 30, 30)

CANVAS = Supersample(SS)
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font


def _dot(lang: str) -> str:
    """The separator of a name's parts: ``A · Aurora`` in English, ``A・アウローラ`` in Japanese
    (whose typography has its own middle dot)."""
    return " · " if lang == "en" else "・"


def _screen(h: tuple[int, int]) -> tuple[int, int]:
    return (h[0], -h[0] - h[1])


class _Map:
    """Where each hex of the map goes on the canvas (canvas pixels): the revealed hexes as large
    as :data:`MAP_BOX` allows (up to :data:`MAX_HEX`), centred in it, so that a first room fills
    the board as much as the whole dungeon does at the end."""

    def __init__(self, hexes: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
        cells = [_screen(h) for h in hexes] or [(0, 0)]
        x0, y0, x1, y1 = Layout(1.0, (0.0, 0.0)).bounds(cells)
        bx0, by0, bx1, by1 = MAP_BOX
        pad = 0.4  # of a hex size, all round: the rock that outlines the rooms peeks in
        size = min(MAX_HEX, (bx1 - bx0) / (x1 - x0 + 2 * pad), (by1 - by0) / (y1 - y0 + 2 * pad))
        self.size_out = size
        # centre the revealed area in the box
        ox = (bx0 + bx1) / 2 - size * (x0 + x1) / 2
        oy = (by0 + by1) / 2 - size * (y0 + y1) / 2
        self.layout = Layout(_s(size), (_s(ox), _s(oy)))

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> _Map:
        return cls(tuple(_hex(x) for x in view.get("hexes") or []))

    def center(self, h: tuple[int, int]) -> Point:
        return self.layout.center(_screen(h))

    def corners(self, h: tuple[int, int], inset: float = 0.0) -> list[Point]:
        return self.layout.corners(_screen(h), inset)


def _hex(text: str) -> tuple[int, int]:
    found = parse_label(text)
    assert found is not None, text
    return found


def _hp_colour(frac: float) -> prim.Color:
    return HP_GOOD if frac > 0.5 else HP_MID if frac > 0.25 else HP_LOW


def _size_font(out_px: float, bold: bool = False) -> Any:
    """A font scaled with the map, never below :data:`MIN_FONT`."""
    return _f(max(MIN_FONT, out_px), bold)


# --- the map -------------------------------------------------------------------------------------


def _tile(d: ImageDraw.ImageDraw, layout: Layout, cell: tuple[int, int], kind: str) -> None:
    """One hex as the map draws it (the legend draws its swatches with this too, so they match):
    the fill of its terrain, its mark in the upper half (the label goes in the lower half)."""
    size = layout.size
    if kind == "door":  # a closed door: floor with a door leaf on it
        prim.hex_polygon(d, layout, cell, fill=FLOOR, outline=FLOOR_LINE, width=_s(1))
        cx, cy = layout.center(cell)
        cy -= size * 0.18
        w, hh = size * 0.5, size * 0.66
        d.rounded_rectangle(
            (cx - w / 2, cy - hh / 2, cx + w / 2, cy + hh / 2),
            radius=max(1, round(size * 0.08)),
            fill=DOOR,
            outline=INK,
            width=max(1, round(size * 0.06)),
        )
        k = max(1.0, size * 0.06)
        d.ellipse((cx + w * 0.2 - k, cy - k, cx + w * 0.2 + k, cy + k), fill=GOLD)
        return
    if kind == "open_door":  # the doorway stays floor, rimmed in the door's wood
        prim.hex_polygon(d, layout, cell, fill=FLOOR, outline=FLOOR_LINE, width=_s(1))
        prim.hex_polygon(
            d, layout, cell, outline=DOOR, width=max(2, round(size * 0.1)), inset=size * 0.08
        )
        return
    fill = WALL if kind == "wall" else TERRAIN_FILL.get(kind, FLOOR)
    outline = None if kind == "wall" else FLOOR_LINE  # a wall is rock, not a tile
    prim.hex_polygon(d, layout, cell, fill=fill, outline=outline, width=_s(1))
    cx, cy = layout.center(cell)
    mark = (cx, cy - size * 0.22)
    if kind == "obstacle":
        r = size * 0.4
        mx, my = mark
        d.polygon(
            [
                (mx - r, my + r * 0.5),
                (mx - r * 0.3, my - r * 0.6),
                (mx + r * 0.2, my - r * 0.15),
                (mx + r * 0.5, my - r * 0.5),
                (mx + r, my + r * 0.5),
            ],
            fill=(96, 92, 86),
        )
    elif kind == "trap":
        _spikes(d, mark, size * 0.5)
    elif kind == "hazardous":
        _flame(d, (mark[0], mark[1] - size * 0.08), size * 0.42)
    elif kind == "difficult":
        for dx, dy in ((-0.3, -0.05), (0.0, 0.12), (0.3, -0.08)):
            x, y = mark[0] + dx * size, mark[1] + dy * size
            d.polygon(
                [
                    (x - size * 0.13, y + size * 0.1),
                    (x, y - size * 0.18),
                    (x + size * 0.13, y + size * 0.1),
                ],
                fill=(70, 120, 60),
            )
    elif kind == "icy":
        for k in (-0.18, 0.1):
            d.line(
                [
                    (mark[0] - size * 0.4, mark[1] + size * (k + 0.1)),
                    (mark[0] + size * 0.4, mark[1] + size * (k - 0.1)),
                ],
                fill=(255, 255, 255),
                width=max(1, round(size * 0.07)),
            )


def _thin_wall(d: ImageDraw.ImageDraw, a: list[Point], b: Point, width: int) -> None:
    near = sorted(a, key=lambda p: (p[0] - b[0]) ** 2 + (p[1] - b[1]) ** 2)[:2]
    d.line(near, fill=THIN_WALL, width=width)
    for x, y in near:  # round caps, so the wall reads as a bar and not as a hex outline
        r = width / 2
        d.ellipse((x - r, y - r, x + r, y + r), fill=THIN_WALL)


def _floor(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    terrain = view.get("terrain") or {}
    shown = [_hex(x) for x in view.get("hexes") or []]
    # the rock around the revealed rooms, so their outline reads as walls
    rock = {
        n
        for h in shown
        for n in (
            (h[0] + dq, h[1] + dr)
            for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
        )
    } - set(shown)
    doors = view.get("doors") or {}
    closed = {_hex(x) for x in doors.get("closed", [])}
    opened = {_hex(x) for x in doors.get("open", [])}
    for h in sorted(rock - closed):
        prim.hex_polygon(d, m.layout, _screen(h), fill=WALL)
    for h in sorted(set(shown) | closed):
        kind = "door" if h in closed else "open_door" if h in opened else terrain.get(_label(h), "")
        _tile(d, m.layout, _screen(h), kind)
    for a_text, b_text in view.get("thin_walls") or []:
        a, b = _hex(a_text), _hex(b_text)
        _thin_wall(d, m.corners(a), m.center(b), _s(max(5.0, m.size_out * 0.16)))


def _labels(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any], taken: set[str]) -> None:
    """Each hex's name in its lower half (players write orders with them); under a figure it goes
    in the figure's hit-point plate instead (see :func:`_figures`)."""
    terrain = view.get("terrain") or {}
    fnt = _size_font(m.size_out * 0.36, bold=True)
    closed = list((view.get("doors") or {}).get("closed", []))
    for text in [*(view.get("hexes") or []), *closed]:
        if text in taken or terrain.get(text) == "wall":
            continue
        cx, cy = m.center(_hex(text))
        d.text((cx, cy + m.layout.size * 0.48), text, font=fnt, fill=LABEL, anchor="mm")


def _label(h: tuple[int, int]) -> str:
    return label(h)


def _spikes(d: ImageDraw.ImageDraw, c: Point, size: float) -> None:
    cx, cy = c
    for k in (-1, 0, 1):
        x = cx + k * size * 0.4
        d.polygon(
            [
                (x - size * 0.2, cy + size * 0.3),
                (x, cy - size * 0.45),
                (x + size * 0.2, cy + size * 0.3),
            ],
            fill=TRAP,
            outline=INK,
            width=_s(1),
        )


def _flame(d: ImageDraw.ImageDraw, c: Point, size: float) -> None:
    cx, cy = c
    d.ellipse(
        (cx - size * 0.35, cy - size * 0.1, cx + size * 0.35, cy + size * 0.5), fill=(220, 60, 30)
    )
    d.polygon(
        [
            (cx - size * 0.35, cy + size * 0.2),
            (cx, cy - size * 0.6),
            (cx + size * 0.35, cy + size * 0.2),
        ],
        fill=(220, 60, 30),
    )
    d.ellipse(
        (cx - size * 0.15, cy + size * 0.1, cx + size * 0.15, cy + size * 0.42), fill=(255, 210, 80)
    )


# --- figures and arrows --------------------------------------------------------------------------


def _moves(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    # an entry without a kind is a move (states stored before attacks were noted)
    return [x for x in view.get("last") or [] if x.get("kind", "move") == "move"]


def _arrows(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    for move in _moves(view):
        hexes = [_hex(move["from"]), *(_hex(x) for x in move["path"])]
        lift = m.layout.size * 0.2  # tokens stand in the upper part of their hex
        points = [(x, y - lift) for x, y in (m.center(h) for h in hexes)]
        figure = str(move["figure"])
        colour = SEAT_COLOURS.get(figure, MONSTER)
        # the head stops at the edge of the figure standing at the end
        points = prim.trim_end(prim.offset_polyline(points, _s(3)), m.layout.size * 0.5)
        prim.arrow(
            d,
            points,
            colour,
            _s(5),
            casing=INK,
            casing_width=_s(1.5),
            dashed=(_s(9), _s(6)) if move.get("forced") else None,
            head_length=_s(15),
        )


def _token_at(m: _Map, text: str) -> Point:
    """Where a figure's token stands on hex ``text`` (the upper part of the hex)."""
    cx, cy = m.center(_hex(text))
    return cx, cy - m.layout.size * 0.2


def _attack_lines(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    """Each attack of the last step: a thin arrow from the attacker to its target, in the
    attacker's colour, from rim to rim (its damage is a burst on the target, see :func:`_hits`)."""
    r = m.layout.size * 0.44
    for hit in view.get("last") or []:
        if hit.get("kind") != "attack" or not hit.get("from") or not hit.get("to"):
            continue
        a, b = _token_at(m, hit["from"]), _token_at(m, hit["to"])
        if a == b:
            continue
        colour = SEAT_COLOURS.get(str(hit["figure"]), MONSTER)
        points = prim.trim_end([b, a], r)[::-1]  # leave the attacker's token
        points = prim.trim_end(points, r)  # and end on the target's rim, under the burst
        prim.arrow(d, points, colour, _s(4), casing=INK, casing_width=_s(1.5), head_length=_s(12))


def _burst(d: ImageDraw.ImageDraw, c: Point, r: float, fill: prim.Color) -> None:
    """A spiky star: what a hit looks like in every comic."""
    cx, cy = c
    points = []
    for k in range(20):
        rr = r if k % 2 == 0 else r * 0.78
        a = math.pi * k / 10 - math.pi / 2
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(points, fill=fill, outline=INK, width=_s(1.5))


def _cross(d: ImageDraw.ImageDraw, c: Point, r: float, monster: bool) -> None:
    """Where a figure fell this step: its token greyed out, struck through with a cross."""
    cx, cy = c
    if monster:
        d.rounded_rectangle(
            (cx - r, cy - r, cx + r, cy + r),
            radius=round(r * 0.3),
            fill=FALLEN,
            outline=INK,
            width=_s(2),
        )
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FALLEN, outline=INK, width=_s(2))
    k = r * 0.78
    for line in (((cx - k, cy - k), (cx + k, cy + k)), ((cx - k, cy + k), (cx + k, cy - k))):
        d.line(line, fill=INK, width=round(r * 0.42))
        d.line(line, fill=KILL, width=round(r * 0.26))


def _where_hit(hit: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The hex a noted hit landed on and the figure it hit (None, None for a move)."""
    if hit.get("kind") == "attack":
        return hit.get("to"), hit.get("target")
    if hit.get("kind") == "damage":
        return hit.get("hex"), hit.get("figure")
    return None, None


def _fallen(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    """A cross where a figure fell in the last step (it is gone from the view). Drawn under the
    figures: another may have walked onto that hex since."""
    seats = {x["seat"] for x in view.get("heroes") or []}
    for hit in view.get("last") or []:
        where, who = _where_hit(hit)
        if where and hit.get("killed"):
            _cross(d, _token_at(m, where), m.layout.size * 0.4, monster=who not in seats)


def _hits(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any], lang: str) -> None:
    """Damage dealt in the last step: a burst with the points lost where the attack's arrow meets
    the figure hit (on its left for a trap or a fall), moved along when one spot takes several;
    a grey burst for a miss."""
    r = m.layout.size * 0.44
    fnt = _size_font(m.size_out * 0.5, bold=True)
    taken: list[Point] = []
    for hit in view.get("last") or []:
        where, _ = _where_hit(hit)
        if not where:
            continue
        cx, cy = _token_at(m, where)
        damage = int(hit.get("damage", 0))
        if damage:
            text = t(lang, "dungeon.board.damage", damage=damage)
        else:
            text = t(lang, "dungeon.board.miss")
        rb = max(r * 0.8, fnt.getlength(text) * 0.8, fnt.size * 1.05)
        ux, uy = -1.0, 0.0
        if hit.get("kind") == "attack" and hit.get("from") and hit["from"] != where:
            ax, ay = _token_at(m, hit["from"])
            n = math.hypot(ax - cx, ay - cy)
            ux, uy = (ax - cx) / n, (ay - cy) / n
        out = r + rb * 0.55  # mostly off the token, whose tag stays readable
        centre = (cx + ux * out, cy + uy * out)
        while any(math.hypot(centre[0] - x, centre[1] - y) < rb for x, y in taken):
            centre = (centre[0], centre[1] + rb * 1.2)
        taken.append(centre)
        _burst(d, centre, rb, HIT if damage else MISS)
        d.text(centre, text, font=fnt, fill=INK, anchor="mm")


def _ring(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """The gold ring around the figure acting now."""
    cx, cy = c
    g = _s(4)
    d.ellipse((cx - r - g, cy - r - g, cx + r + g, cy + r + g), outline=GOLD, width=_s(4))


def _figures(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any], lang: str) -> None:
    """Characters are discs with their seat letter, monsters squares with their tag (``#6``:
    neither a seat nor a hex); each carries its hit points in a badge at its upper right, in the
    colour of how hurt it is. Tokens sit in the upper part of the hex, above its label."""
    size = m.layout.size
    r = size * 0.44
    letter = _size_font(m.size_out * 0.46, bold=True)
    current = view.get("current")
    for hero in view.get("heroes") or []:
        if not hero.get("hex") or hero.get("status") != "active":
            continue
        cx, cy = m.center(_hex(hero["hex"]))
        cy -= size * 0.2
        colour = SEAT_COLOURS.get(hero["seat"], SIDE["A"])
        if current == hero["seat"]:
            _ring(d, (cx, cy), r)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=_s(2))
        ink = SEAT_LETTER.get(hero["seat"], (255, 255, 255))
        d.text((cx, cy), hero["seat"], font=letter, fill=ink, anchor="mm")
        _hp_badge(d, m, (cx + r * 0.95, cy - r * 0.75), hero["hp"], hero["max_hp"])
    for monster in view.get("monsters") or []:
        cx, cy = m.center(_hex(monster["hex"]))
        cy -= size * 0.2
        if current == monster["id"]:
            _ring(d, (cx, cy), r * 1.1)
        # monsters are squares, characters discs: the shapes tell them apart without colour
        q = r * 0.95
        d.rounded_rectangle(
            (cx - q, cy - q, cx + q, cy + q),
            radius=round(q * 0.3),
            fill=MONSTER,
            outline=INK,
            width=_s(2),
        )
        tag = t(lang, "dungeon.board.monster_tag", number=monster["number"])
        shown, fnt = fit_sized(tag, (letter.size, _s(MIN_FONT)), 2 * q - _s(2), bold=True)
        d.text((cx, cy), shown, font=fnt, fill=MONSTER_TEXT, anchor="mm")
        if monster.get("flying"):
            d.arc(
                (cx - q * 0.9, cy - q * 1.5, cx + q * 0.9, cy - q * 0.7),
                200,
                340,
                fill=INK,
                width=_s(3),
            )
        _hp_badge(d, m, (cx + q * 1.0, cy - q * 0.8), monster["hp"], monster["max_hp"])


def _hp_badge(d: ImageDraw.ImageDraw, m: _Map, c: Point, hp: int, max_hp: int) -> None:
    """Hit points left, as a number on a pill filled green, amber or red by the share left."""
    fnt = _size_font(m.size_out * 0.34, bold=True)
    text = str(hp)
    cx, cy = c
    h = fnt.size * 1.2
    w = max(h, fnt.getlength(text) + h * 0.5)
    fill = _hp_colour(hp / max_hp if max_hp else 0)
    d.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        radius=int(h / 2),  # rounded up, Pillow finds the pill narrower than its two ends
        fill=fill,
        outline=INK,
        width=_s(1.5),
    )
    d.text((cx, cy), text, font=fnt, fill=INK, anchor="mm")


def tie_mark_centres(m: _Map, view: Mapping[str, Any]) -> list[Point]:
    """Where each option's number goes: on the hex the monster would end on (empty, since it
    ends there), or above it when that is where the monster stands now (it stays), side by side
    when several options end on the same hex (they attack different targets)."""
    size = m.layout.size
    tie = view.get("tie") or {}
    standing = next(
        (x["hex"] for x in view.get("monsters") or [] if x["id"] == tie.get("monster")), None
    )
    seen: dict[str, int] = {}
    out = []
    for option in view.get("tie_labels") or []:
        spot = option["move_to"]
        k = seen.get(spot, 0)
        seen[spot] = k + 1
        cx, cy = m.center(_hex(spot))
        cy -= size * 0.2  # where a token stands
        if spot == standing:  # beside the monster, on the side its hit points are not
            cx -= size * 0.8
        out.append((cx + k * size * 0.62, cy))
    return out


def _tie_marks(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    fnt = _size_font(m.size_out * 0.4, bold=True)
    rr = max(m.layout.size * 0.32, fnt.size * 0.7)
    for number, (cx, cy) in enumerate(tie_mark_centres(m, view), start=1):
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=TIE, outline=INK, width=_s(2))
        d.text((cx, cy), str(number), font=fnt, fill=INK, anchor="mm")


# --- the panel -----------------------------------------------------------------------------------

ROW_H = 30
CARD_H = 62


def _panel(
    d: ImageDraw.ImageDraw, x0: float, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
) -> None:
    x1 = WIDTH - MARGIN
    title = _f(20, bold=True)
    body = _f(MIN_FONT)
    bold = _f(MIN_FONT, bold=True)
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
    monsters = {m["id"]: m for m in view.get("monsters") or []}
    outcome = view.get("outcome")
    # the party and the outcome are always shown; the order gets the rows left above them
    bottom = HEIGHT - MARGIN - len(heroes) * (CARD_H + 6) - 36
    bottom -= 50 if outcome else 0
    bottom -= 30 if view.get("tie_labels") else 0
    y = HEADER_H + 14
    d.text(_sp((x0, y)), t(lang, "dungeon.board.order"), font=title, fill=TEXT)
    y += 32
    order = [
        (a, i)
        for a, i in view.get("order") or []
        if (a in heroes and heroes[a].get("status") == "active") or a in monsters
    ]
    if not order:
        d.text(_sp((x0, y)), t(lang, "dungeon.board.picking"), font=body, fill=MUTED)
        y += ROW_H
    room = max(1, int((bottom - y) // ROW_H))
    if len(order) > room:  # keep the figure acting now and those after it
        current_at = next((k for k, (a, _) in enumerate(order) if a == view.get("current")), 0)
        start = min(current_at, len(order) - room + 1)
        order = order[start : start + room - 1]
        hidden = len(view.get("order") or []) - len(order)
    else:
        hidden = 0
    current = view.get("current")
    for actor, initiative in order:
        if actor in heroes:
            colour = SEAT_COLOURS.get(actor, SIDE["A"])
            who = f"{actor}{_dot(lang)}{names.get(actor, actor)}"
        else:
            colour = MONSTER
            who = t(
                lang,
                "dungeon.board.monster_name",
                name=t(lang, f"dungeon.monster.{monsters[actor]['type']}"),
                number=monsters[actor]["number"],
            )
        box = (x0, y, x1, y + ROW_H - 3)
        if actor == current:
            d.rounded_rectangle(
                CANVAS.rect(box), radius=_s(6), fill=(70, 62, 30), outline=GOLD, width=_s(2)
            )
        d.rounded_rectangle(
            CANVAS.rect((x0 + 4, y + 3, x0 + 40, y + ROW_H - 6)), radius=_s(4), fill=colour
        )
        mid = y + (ROW_H - 3) / 2
        d.text(
            _sp((x0 + 22, mid)),
            f"{initiative:02d}",
            font=bold,
            fill=SEAT_LETTER.get(actor, (255, 255, 255)),
            anchor="mm",
        )
        d.text(
            _sp((x0 + 48, mid)), fit(who, body, _s(x1 - x0 - 52)), font=body, fill=TEXT, anchor="lm"
        )
        y += ROW_H
    if hidden:
        more = t(lang, "dungeon.board.more", count=hidden)
        d.text(_sp((x0 + 48, y + 2)), more, font=body, fill=MUTED)
        y += ROW_H
    y = max(y + 8, bottom)
    d.text(_sp((x0, y)), t(lang, "dungeon.board.party"), font=title, fill=TEXT)
    y += 32
    for seat, hero in heroes.items():
        colour = SEAT_COLOURS.get(seat, SIDE["A"])
        CANVAS.side_card(d, (x0, y, x1, y + CARD_H), colour)
        status = hero.get("status")
        dot = _dot(lang)
        head = f"{seat}{dot}{names.get(seat, seat)}{dot}{t(lang, 'dungeon.class.' + hero['class'])}"
        d.text(
            _sp((x0 + 16, y + 17)),
            fit(head, bold, _s(x1 - x0 - 24)),
            font=bold,
            fill=TEXT,
            anchor="lm",
        )
        if status == "active":
            card = hero.get("card")
            line = t(
                lang,
                "dungeon.board.hero_line",
                hp=hero["hp"],
                max=hero["max_hp"],
                hand=hero["hand"],
            )
            if card:
                line += _dot(lang) + t(lang, f"dungeon.card.{card['id']}")
        else:
            line = t(lang, f"dungeon.board.status.{status}")
        d.text(
            _sp((x0 + 16, y + 44)),
            fit(line, body, _s(x1 - x0 - 24)),
            font=body,
            fill=MUTED,
            anchor="lm",
        )
        y += CARD_H + 6
    if view.get("tie_labels"):
        tie = fit(t(lang, "dungeon.board.tie"), bold, _s(x1 - x0))
        d.text(_sp((x0, y + 2)), tie, font=bold, fill=GOLD)
        y += 30
    if outcome:
        box = (x0, y + 4, x1, y + 46)
        CANVAS.result_frame(d, box, fill=CARD_BG)
        d.text(
            _sp(((x0 + x1) / 2, y + 25)),
            t(lang, f"dungeon.board.outcome.{outcome}"),
            font=title,
            fill=GOLD,
            anchor="mm",
        )


LEGEND = ("trap", "hazardous", "difficult", "icy", "obstacle", "door", "open_door", "thin_wall")


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """Under the map: every tile as the map draws it (the same drawing code), and its name,
    flowing onto a second row when the first is full."""
    fnt = _f(MIN_FONT)
    x_left, _, x_right, _ = MAP_BOX
    size = _s(13)
    x, y = x_left + 4, HEIGHT - LEGEND_H + 16
    for kind in LEGEND:
        name = t(lang, f"dungeon.board.legend.{kind}")
        width = 30 + fnt.getlength(name) / SS + 18
        if x + width > x_right and x > x_left + 4:
            x, y = x_left + 4, y + 30
        cx, cy = _sp((x + 13, y))
        if kind == "thin_wall":  # the bar the map draws along a hexside, on floor
            prim.hex_polygon(
                d, Layout(size, (cx, cy)), (0, 0), fill=FLOOR, outline=FLOOR_LINE, width=_s(1)
            )
            _thin_wall(
                d, [(cx + size * 0.3, cy - size), (cx - size * 0.3, cy + size)], (cx, cy), _s(5)
            )
        else:
            _tile(d, Layout(size, (cx, cy)), (0, 0), kind)
        d.text((cx + _s(20), cy), name, font=fnt, fill=TEXT, anchor="lm")
        x += width


# --- the board -----------------------------------------------------------------------------------


def _seat_name(lang: str) -> Any:
    return lambda seat: t(lang, "dungeon.board.player", seat=seat)


@lru_cache(maxsize=64)
def _base(
    hexes: tuple[str, ...],
    terrain: tuple[tuple[str, str], ...],
    open_doors: tuple[str, ...],
    closed_doors: tuple[str, ...],
    thin_walls: tuple[tuple[str, ...], ...],
    lang: str,
) -> Image.Image:
    """The map as it stands between figure moves (it changes only when a door opens or a trap is
    sprung) and the legend: drawn once and copied for every render of that map."""
    view = {
        "hexes": list(hexes),
        "terrain": dict(terrain),
        "doors": {"open": list(open_doors), "closed": list(closed_doors)},
        "thin_walls": [list(p) for p in thin_walls],
    }
    m = _Map.of(view)
    img = CANVAS.new_board(WIDTH, HEIGHT, HEADER_H)
    # the map on a layer of its own, pasted inside its box: the rock round the rooms may run
    # past the box, and must not run into the header, the legend or the panel
    layer = Image.new("RGB", img.size, BG)
    _floor(ImageDraw.Draw(layer, "RGBA"), m, view)
    _labels(ImageDraw.Draw(layer, "RGBA"), m, view, set())
    box = CANVAS.rect((0, HEADER_H + 2, WIDTH - PANEL_W, HEIGHT - LEGEND_H + 2))
    img.paste(layer.crop(box), box[:2])
    _legend(ImageDraw.Draw(img, "RGBA"), lang)
    return img


def render(
    view: Mapping[str, Any], lang: str = "en", names: Mapping[str, str] | None = None
) -> bytes:
    doors = view.get("doors") or {}
    img = _base(
        tuple(view.get("hexes") or ()),
        tuple(sorted((view.get("terrain") or {}).items())),
        tuple(doors.get("open") or ()),
        tuple(doors.get("closed") or ()),
        tuple(tuple(p) for p in view.get("thin_walls") or ()),
        lang,
    ).copy()
    m = _Map.of(view)
    d = ImageDraw.Draw(img, "RGBA")
    seats = [h["seat"] for h in view.get("heroes") or []]
    shown_names = display_names(names, seats, _seat_name(lang))
    title = t(
        lang,
        "dungeon.board.title",
        scenario=t(lang, f"dungeon.scenario.{view.get('scenario')}"),
        level=view.get("level", 0),
    )
    status = t(lang, "dungeon.board.round", round=view.get("round", 1))
    CANVAS.header_text(d, title, status, height=HEADER_H, right=WIDTH - 20, sizes=(24, 21, 18))
    _arrows(d, m, view)
    _attack_lines(d, m, view)
    _fallen(d, m, view)
    _figures(d, m, view, lang)
    _hits(d, m, view, lang)
    _tie_marks(d, m, view)
    _panel(d, WIDTH - PANEL_W + 4, view, lang, shown_names)
    return CANVAS.png(img)
