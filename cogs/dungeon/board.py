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
from bot.render.canvas import CARD_BG, GOLD, INK, MUTED, SIDE, TEXT, Supersample, display_names
from bot.render.fonts import fit
from bot.render.hexgrid import Layout, Point
from cogs.dungeon.content import label, parse_label

__all__ = ["render"]

SS = 2
HEADER_H = 56
MARGIN = 12
PANEL_W = 300
MAX_HEX = 40
MIN_MAP_W, MIN_MAP_H = 760, 470

SEAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "A": SIDE["A"],
    "B": SIDE["B"],
    "C": (46, 170, 98),
    "D": (170, 92, 220),
}
MONSTER = (196, 44, 44)
MONSTER_TEXT = (255, 240, 240)
FLOOR = (206, 200, 184)
FLOOR_LINE = (150, 144, 128)
LABEL = (120, 114, 100)
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

CANVAS = Supersample(SS)
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font


def _screen(h: tuple[int, int]) -> tuple[int, int]:
    return (h[0], -h[0] - h[1])


class _Map:
    """Where each hex of the map goes on the canvas (canvas pixels)."""

    def __init__(self, cols: int, rows: int) -> None:
        # a hex is 1.5 sizes wide per column and √3 sizes high per row (+ half for odd columns);
        # one more hex all round holds the rock that outlines the rooms
        size = min(
            MAX_HEX,
            MIN_MAP_W / (1.5 * (cols + 2) + 0.5),
            MIN_MAP_H / (math.sqrt(3) * (rows + 2.5)),
        )
        self.size_out = size
        self.width = round(size * (1.5 * (cols + 2) + 0.5))
        self.height = round(size * math.sqrt(3) * (rows + 2.5))
        probe = Layout(_s(size), (0.0, 0.0))
        cells = [_screen(_axial(c, r)) for c in range(-1, cols + 1) for r in range(-1, rows + 1)]
        x0, y0, _, _ = probe.bounds(cells)
        self.layout = Layout(_s(size), (_s(MARGIN) - x0, _s(HEADER_H + MARGIN) - y0))

    def center(self, h: tuple[int, int]) -> Point:
        return self.layout.center(_screen(h))

    def corners(self, h: tuple[int, int], inset: float = 0.0) -> list[Point]:
        return self.layout.corners(_screen(h), inset)


def _axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col - (col & 1)) // 2


def _hex(text: str) -> tuple[int, int]:
    found = parse_label(text)
    assert found is not None, text
    return found


def _hp_colour(frac: float) -> prim.Color:
    return HP_GOOD if frac > 0.5 else HP_MID if frac > 0.25 else HP_LOW


# --- the map -------------------------------------------------------------------------------------


def _floor(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    terrain = view.get("terrain") or {}
    size = m.layout.size
    label_font = _f(max(7.0, m.size_out * 0.24))
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
    closed = {_hex(x) for x in (view.get("doors") or {}).get("closed", [])}
    for h in sorted(rock - closed):
        prim.hex_polygon(d, m.layout, _screen(h), fill=WALL)
    for h in shown:
        kind = terrain.get(_label(h), "")
        fill = WALL if kind == "wall" else TERRAIN_FILL.get(kind, FLOOR)
        outline = None if kind == "wall" else FLOOR_LINE  # a wall is rock, not a tile
        prim.hex_polygon(d, m.layout, _screen(h), fill=fill, outline=outline, width=_s(1))
        cx, cy = m.center(h)
        if kind == "obstacle":
            r = size * 0.42
            d.polygon(
                [
                    (cx - r, cy + r * 0.6),
                    (cx - r * 0.3, cy - r * 0.7),
                    (cx + r * 0.2, cy - r * 0.2),
                    (cx + r * 0.5, cy - r * 0.6),
                    (cx + r, cy + r * 0.6),
                ],
                fill=(96, 92, 86),
            )
        elif kind == "trap":
            _spikes(d, (cx, cy), size * 0.5)
        elif kind == "hazardous":
            _flame(d, (cx, cy), size * 0.45)
        elif kind == "difficult":
            for dx, dy in ((-0.3, -0.15), (0.05, 0.2), (0.3, -0.2)):
                x, y = cx + dx * size, cy + dy * size
                d.polygon(
                    [
                        (x - size * 0.12, y + size * 0.1),
                        (x, y - size * 0.16),
                        (x + size * 0.12, y + size * 0.1),
                    ],
                    fill=(70, 120, 60),
                )
        elif kind == "icy":
            for k in (-0.25, 0.05, 0.35):
                d.line(
                    [
                        (cx - size * 0.35, cy + size * (k + 0.12)),
                        (cx + size * 0.35, cy + size * (k - 0.12)),
                    ],
                    fill=(255, 255, 255),
                    width=_s(2),
                )
        if kind != "wall":
            d.text((cx, cy + size * 0.62), _label(h), font=label_font, fill=LABEL, anchor="mm")
    for h in closed:
        prim.hex_polygon(d, m.layout, _screen(h), fill=FLOOR, outline=FLOOR_LINE, width=_s(1))
        cx, cy = m.center(h)
        w, hh = size * 0.5, size * 0.62
        d.rounded_rectangle(
            (cx - w / 2, cy - hh / 2, cx + w / 2, cy + hh / 2),
            radius=_s(3),
            fill=DOOR,
            outline=INK,
            width=_s(2),
        )
        d.ellipse((cx + w * 0.18 - _s(2), cy - _s(2), cx + w * 0.18 + _s(2), cy + _s(2)), fill=GOLD)
        d.text((cx, cy + size * 0.62), _label(h), font=label_font, fill=LABEL, anchor="mm")
    for h in (_hex(x) for x in (view.get("doors") or {}).get("open", [])):
        prim.hex_polygon(d, m.layout, _screen(h), outline=DOOR, width=_s(3), inset=_s(3))
    for a_text, b_text in view.get("thin_walls") or []:
        a, b = _hex(a_text), _hex(b_text)
        bx, by = m.center(b)
        near = sorted(m.corners(a), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)[:2]
        d.line(near, fill=THIN_WALL, width=_s(5))


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


def _arrows(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    for move in view.get("last") or []:
        hexes = [_hex(move["from"]), *(_hex(x) for x in move["path"])]
        points = [m.center(h) for h in hexes]
        figure = str(move["figure"])
        colour = SEAT_COLOURS.get(figure, MONSTER)
        # the head stops at the edge of the figure standing at the end
        points = prim.trim_end(prim.offset_polyline(points, _s(3)), m.layout.size * 0.6)
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


def _figures(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any], lang: str) -> None:
    size = m.layout.size
    r = size * 0.56
    big = _f(m.size_out * 0.42, bold=True)
    small = _f(m.size_out * 0.28, bold=True)
    current = view.get("current")
    for hero in view.get("heroes") or []:
        if not hero.get("hex") or hero.get("status") != "active":
            continue
        cx, cy = m.center(_hex(hero["hex"]))
        colour = SEAT_COLOURS.get(hero["seat"], SIDE["A"])
        if current == hero["seat"]:
            d.ellipse(
                (cx - r - _s(5), cy - r - _s(5), cx + r + _s(5), cy + r + _s(5)),
                outline=GOLD,
                width=_s(4),
            )
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=_s(2))
        d.text((cx, cy - size * 0.06), hero["seat"], font=big, fill=(255, 255, 255), anchor="mm")
        _hp_bar(d, (cx, cy + r * 0.95), size, hero["hp"], hero["max_hp"], small)
    for monster in view.get("monsters") or []:
        cx, cy = m.center(_hex(monster["hex"]))
        if current == monster["id"]:
            d.ellipse(
                (cx - r - _s(5), cy - r - _s(5), cx + r + _s(5), cy + r + _s(5)),
                outline=GOLD,
                width=_s(4),
            )
        # monsters are diamonds, characters discs: the shapes tell them apart without colour
        d.polygon(
            [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
            fill=MONSTER,
            outline=INK,
            width=_s(2),
        )
        name = t(lang, f"dungeon.monster.{monster['type']}")
        letter = name[:1]
        d.text((cx, cy - size * 0.14), letter, font=small, fill=MONSTER_TEXT, anchor="mm")
        d.text(
            (cx, cy + size * 0.16),
            str(monster["number"]),
            font=small,
            fill=MONSTER_TEXT,
            anchor="mm",
        )
        if monster.get("flying"):
            d.arc(
                (cx - r * 0.9, cy - r * 1.25, cx + r * 0.9, cy - r * 0.35),
                200,
                340,
                fill=INK,
                width=_s(2),
            )
        _hp_bar(d, (cx, cy + r * 0.95), size, monster["hp"], monster["max_hp"], small)


def _hp_bar(
    d: ImageDraw.ImageDraw, top: Point, size: float, hp: int, max_hp: int, fnt: Any
) -> None:
    cx, cy = top
    w, h = size * 1.15, size * 0.3
    box = (cx - w / 2, cy, cx + w / 2, cy + h)
    prim.bar(
        d,
        box,
        hp,
        max_hp,
        _hp_colour(hp / max_hp if max_hp else 0),
        (34, 34, 40),
        radius=_s(3),
        outline=INK,
        outline_width=_s(1),
    )
    d.text(
        (cx, cy + h / 2),
        f"{hp}/{max_hp}",
        font=fnt,
        fill=(255, 255, 255),
        anchor="mm",
        stroke_width=_s(1.5),
        stroke_fill=INK,
    )


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
        if spot == standing:
            cy -= size * 0.75
        out.append((cx + k * size * 0.62, cy))
    return out


def _tie_marks(d: ImageDraw.ImageDraw, m: _Map, view: Mapping[str, Any]) -> None:
    fnt = _f(m.size_out * 0.36, bold=True)
    rr = m.layout.size * 0.3
    for number, (cx, cy) in enumerate(tie_mark_centres(m, view), start=1):
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=TIE, outline=INK, width=_s(2))
        d.text((cx, cy), str(number), font=fnt, fill=INK, anchor="mm")


# --- the panel -----------------------------------------------------------------------------------


def _panel(
    d: ImageDraw.ImageDraw,
    x0: float,
    view: Mapping[str, Any],
    lang: str,
    names: Mapping[str, str],
    height: float,
) -> None:
    x1 = x0 + PANEL_W - 16
    y = HEADER_H + 16
    title = _f(17, bold=True)
    body = _f(14)
    bold = _f(14, bold=True)
    d.text(_sp((x0, y)), t(lang, "dungeon.board.order"), font=title, fill=TEXT)
    y += 28
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
    monsters = {m["id"]: m for m in view.get("monsters") or []}
    order = view.get("order") or []
    if not order:
        d.text(_sp((x0, y)), t(lang, "dungeon.board.picking"), font=body, fill=MUTED)
        y += 24
    current = view.get("current")
    for actor, initiative in order[:14]:
        if actor in heroes:
            colour = SEAT_COLOURS.get(actor, SIDE["A"])
            who = f"{actor} · {names.get(actor, actor)}"
            hero = heroes[actor]
            if hero.get("status") != "active":
                continue
        elif actor in monsters:
            colour = MONSTER
            who = t(
                lang,
                "dungeon.board.monster_name",
                name=t(lang, f"dungeon.monster.{monsters[actor]['type']}"),
                number=monsters[actor]["number"],
            )
        else:
            continue  # fallen this round
        box = (x0, y, x1, y + 24)
        if actor == current:
            d.rounded_rectangle(
                CANVAS.rect(box), radius=_s(6), fill=(70, 62, 30), outline=GOLD, width=_s(2)
            )
        d.rounded_rectangle(
            CANVAS.rect((x0 + 4, y + 4, x0 + 38, y + 20)), radius=_s(4), fill=colour
        )
        d.text(
            _sp((x0 + 21, y + 12)),
            f"{initiative:02d}",
            font=bold,
            fill=(255, 255, 255),
            anchor="mm",
        )
        d.text(
            _sp((x0 + 46, y + 12)),
            fit(who, body, _s(x1 - x0 - 50)),
            font=body,
            fill=TEXT,
            anchor="lm",
        )
        y += 27
    y += 10
    d.text(_sp((x0, y)), t(lang, "dungeon.board.party"), font=title, fill=TEXT)
    y += 28
    for seat, hero in heroes.items():
        colour = SEAT_COLOURS.get(seat, SIDE["A"])
        CANVAS.side_card(d, (x0, y, x1, y + 52), colour)
        status = hero.get("status")
        head = f"{seat} · {names.get(seat, seat)} · {t(lang, 'dungeon.class.' + hero['class'])}"
        d.text(
            _sp((x0 + 16, y + 14)),
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
                line += " · " + t(lang, f"dungeon.card.{card['id']}")
        else:
            line = t(lang, f"dungeon.board.status.{status}")
        d.text(
            _sp((x0 + 16, y + 36)),
            fit(line, body, _s(x1 - x0 - 24)),
            font=body,
            fill=MUTED,
            anchor="lm",
        )
        y += 58
    y += 6
    if view.get("tie_labels"):
        d.text(_sp((x0, y)), t(lang, "dungeon.board.tie"), font=bold, fill=GOLD)
        y += 24
    outcome = view.get("outcome")
    if outcome:
        box = (x0, y, x1, y + 40)
        CANVAS.result_frame(d, box, fill=CARD_BG)
        d.text(
            _sp(((x0 + x1) / 2, y + 20)),
            t(lang, f"dungeon.board.outcome.{outcome}"),
            font=title,
            fill=GOLD,
            anchor="mm",
        )
        y += 50


def _legend(d: ImageDraw.ImageDraw, x0: float, y: float, lang: str) -> None:
    """One row under the map: each overlay tile as drawn on the board, and its name."""
    fnt = _f(13)
    size = _s(10)
    x = x0 + 12
    for kind in ("trap", "hazardous", "difficult", "icy", "obstacle", "door"):
        cx, cy = _sp((x, y + 14))
        layout = Layout(size, (cx, cy))
        fill = DOOR if kind == "door" else TERRAIN_FILL[kind]
        prim.hex_polygon(d, layout, (0, 0), fill=fill, outline=FLOOR_LINE, width=_s(1))
        if kind == "trap":
            _spikes(d, (cx, cy), size)
        elif kind == "hazardous":
            _flame(d, (cx, cy), size)
        name = t(lang, f"dungeon.board.legend.{kind}")
        d.text((cx + _s(16), cy), name, font=fnt, fill=MUTED, anchor="lm")
        x += 16 + 24 + fnt.getlength(name) / SS


# --- the board -----------------------------------------------------------------------------------


def _seat_name(lang: str) -> Any:
    return lambda seat: t(lang, "dungeon.board.player", seat=seat)


LEGEND_H = 40


def _size(m: _Map) -> tuple[int, int, int]:
    map_w = m.width + 2 * MARGIN
    height = max(HEADER_H + m.height + 2 * MARGIN + LEGEND_H, HEADER_H + 640)
    return map_w, map_w + PANEL_W, height


@lru_cache(maxsize=64)
def _base(
    cols: int,
    rows: int,
    hexes: tuple[str, ...],
    terrain: tuple[tuple[str, str], ...],
    open_doors: tuple[str, ...],
    closed_doors: tuple[str, ...],
    thin_walls: tuple[tuple[str, ...], ...],
    lang: str,
) -> Image.Image:
    """The map as it stands between figure moves (it changes only when a door opens or a trap is
    sprung) and the legend: drawn once and copied for every render of that map."""
    m = _Map(cols, rows)
    _, width, height = _size(m)
    img = CANVAS.new_board(width, height, HEADER_H)
    d = ImageDraw.Draw(img, "RGBA")
    view = {
        "hexes": list(hexes),
        "terrain": dict(terrain),
        "doors": {"open": list(open_doors), "closed": list(closed_doors)},
        "thin_walls": [list(p) for p in thin_walls],
    }
    _floor(d, m, view)
    _legend(d, MARGIN, HEADER_H + m.height + 2 * MARGIN, lang)
    return img


def render(
    view: Mapping[str, Any], lang: str = "en", names: Mapping[str, str] | None = None
) -> bytes:
    extent = view.get("extent") or {"cols": 12, "rows": 6}
    cols, rows = int(extent["cols"]), int(extent["rows"])
    m = _Map(cols, rows)
    map_w, width, height = _size(m)
    doors = view.get("doors") or {}
    img = _base(
        cols,
        rows,
        tuple(view.get("hexes") or ()),
        tuple(sorted((view.get("terrain") or {}).items())),
        tuple(doors.get("open") or ()),
        tuple(doors.get("closed") or ()),
        tuple(tuple(p) for p in view.get("thin_walls") or ()),
        lang,
    ).copy()
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
    CANVAS.header_text(d, title, status, height=HEADER_H, right=width - 20, sizes=(22, 19, 16))
    _arrows(d, m, view)
    _figures(d, m, view, lang)
    _tie_marks(d, m, view)
    _panel(d, map_w, view, lang, shown_names, height)
    return CANVAS.png(img)
