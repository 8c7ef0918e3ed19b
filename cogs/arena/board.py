"""Arena Duel board image: a ``rules.view(state, seat)`` dict in, PNG bytes out (pure).

No discord and no storage here: the cog hands the bytes to discord.py. Everything that never
changes during a match (floor, wall, doors, obstacles, panel frames) is drawn once and cached;
a render only copies that layer and adds figures, paths, text and badges.

Pillow does not antialias shapes, so the image is drawn at ``SS`` times the output size and
shrunk once at the end (``Supersample.png``). All layout numbers below are in output pixels;
``_s`` scales them to the drawing canvas.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import GOLD, INK, MUTED, SIDE, SIDE_TEXT, TEXT, Supersample, display_names
from bot.render.fonts import PLACEHOLDER, fit_into, fit_sized, renderable
from bot.render.hexgrid import (
    FACINGS,
    Hex,
    Layout,
    Point,
    as_hex,
    edge_angle,
    facing_index,
    hexagon,
    ring,
    unit,
)

__all__ = ["HEIGHT", "WIDTH", "render"]

WIDTH, HEIGHT = 900, 720  # reads well at Discord's ~600-800 px inline preview
SS = 2  # supersampling factor
SEATS = ("A", "B")
RADIUS = 2
MAX_STAMINA = 15
DOORS: dict[str, Hex] = {"A": (0, RADIUS + 1), "B": (0, -RADIUS - 1)}  # wall hex behind each start
DOOR_SIDE: dict[str, int] = {"A": 0, "B": 3}  # the door's hexside that opens onto the arena

# Layout (output pixels).
HEADER_H = 60
BOARD_W = 576
HEX_SIZE = 50
BOARD_ORIGIN = (BOARD_W / 2, HEADER_H + (HEIGHT - HEADER_H) / 2)
PANEL_X0, PANEL_X1 = 588, 888
CARD_H = 312
CARD_Y = {"B": 72, "A": 396}  # B's card on top like B's door, A's below like A's door

# Theme: dark frame around a sand floor. Blue/orange stay distinct for red-green colour blindness,
# and every side-coloured thing also carries its seat letter.
FLOOR = ((228, 204, 156), (219, 194, 145), (210, 185, 136))
GRID = (150, 121, 80)
COORD = (92, 70, 40)  # dark on the sand: the log names hexes by these
STONE = (112, 104, 96)
STONE_LINE = (62, 57, 52)
WOOD = (118, 76, 40)
IRON = (58, 58, 64)
ROCK = (104, 100, 96)
ROCK_FLOOR = (150, 132, 104)
RED = (214, 46, 46)
HIT = (255, 214, 64)  # the burst of a hit or a collision


CANVAS = Supersample(SS)
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font


LAYOUT = Layout(HEX_SIZE * SS, _sp(BOARD_ORIGIN))
TOKEN_R = HEX_SIZE * SS * 0.44


# --------------------------------------------------------------------------- static layer


def _draw_door(d: ImageDraw.ImageDraw, seat: str) -> None:
    h = DOORS[seat]
    prim.hex_polygon(d, LAYOUT, h, fill=WOOD, outline=STONE_LINE, width=_s(3))
    cx, cy = LAYOUT.center(h)
    half, size = LAYOUT.size * 0.5, LAYOUT.size
    # A portcullis in a dark gateway: reads as "door" without any text.
    box = (cx - half, cy - size * 0.55, cx + half, cy + size * 0.55)
    d.rectangle(box, fill=(44, 34, 26))
    bars = 5
    for i in range(1, bars + 1):
        x = box[0] + (box[2] - box[0]) * i / (bars + 1)
        d.line([(x, box[1]), (x, box[3])], fill=IRON, width=_s(3))
    for frac in (0.3, 0.7):
        y = box[1] + (box[3] - box[1]) * frac
        d.line([(box[0], y), (box[2], y)], fill=IRON, width=_s(3))
    d.rectangle(box, outline=STONE_LINE, width=_s(2))
    # The threshold in the seat's colour says whose entrance it is.
    a, b = LAYOUT.edge(h, DOOR_SIDE[seat], inset=_s(4))
    d.line([a, b], fill=SIDE[seat], width=_s(7))


def _draw_obstacle(d: ImageDraw.ImageDraw, h: Hex) -> None:
    prim.hex_polygon(d, LAYOUT, h, fill=ROCK_FLOOR, outline=GRID, width=_s(2))
    cx, cy = LAYOUT.center(h)
    r = LAYOUT.size * 0.62
    # An irregular boulder: fixed jitter so it looks hewn, not like a token.
    jitter = (1.0, 0.86, 0.97, 0.9, 1.04, 0.88, 0.95, 0.84)
    pts = [
        (
            cx + r * j * math.cos(math.radians(i * 45 + 10)),
            cy + r * j * 0.86 * math.sin(math.radians(i * 45 + 10)),
        )
        for i, j in enumerate(jitter)
    ]
    d.polygon(pts, fill=ROCK, outline=(54, 52, 50), width=_s(3))
    d.ellipse(
        (cx - r * 0.45, cy - r * 0.55, cx - r * 0.05, cy - r * 0.25), fill=prim.shade(ROCK, 1.25)
    )
    d.line(
        [
            (cx - r * 0.1, cy + r * 0.05),
            (cx + r * 0.25, cy + r * 0.3),
            (cx + r * 0.55, cy + r * 0.2),
        ],
        fill=(62, 60, 58),
        width=_s(3),
    )


@lru_cache(maxsize=32)
def _base(obstacles: tuple[Hex, ...]) -> Image.Image:
    """Everything that stays the same for a match (obstacles are fixed when it starts)."""
    img = CANVAS.new_board(WIDTH, HEIGHT, HEADER_H)
    d = ImageDraw.Draw(img)

    for h in ring(RADIUS + 1):
        if h in DOORS.values():
            continue
        # Stable per-hex tint so the wall looks built from stones rather than flat.
        tint = (0.86, 0.93, 1.0, 0.9, 1.06)[(h[0] * 7 + h[1] * 13) % 5]
        prim.hex_polygon(
            d, LAYOUT, h, fill=prim.shade(STONE, tint), outline=STONE_LINE, width=_s(3)
        )
        prim.hex_polygon(
            d, LAYOUT, h, outline=prim.shade(STONE, tint * 1.1), width=_s(2), inset=_s(6)
        )
    for seat in SEATS:
        _draw_door(d, seat)

    coord_font = _f(15, bold=True)  # 9 px when Discord shows the board 550 px wide
    blocked = set(obstacles)
    for h in hexagon(RADIUS):
        if h in blocked:
            _draw_obstacle(d, h)
            continue
        prim.hex_polygon(d, LAYOUT, h, fill=FLOOR[(h[0] - h[1]) % 3], outline=GRID, width=_s(2))
        cx, cy = LAYOUT.center(h)
        # Coordinates at the bottom of each hex, where tokens rarely cover them.
        d.text(
            (cx, cy + LAYOUT.apothem * 0.78),
            f"{h[0]},{h[1]}",
            font=coord_font,
            fill=COORD,
            anchor="ms",
        )

    for seat in SEATS:
        y0 = CARD_Y[seat]
        CANVAS.side_card(d, (PANEL_X0, y0, PANEL_X1, y0 + CARD_H), SIDE[seat])
    return img


# --------------------------------------------------------------------------- figures


def _token_shape(center: Point, facing: int, grow: float) -> tuple[list[Point], tuple]:
    """Wedge polygon and circle box of a token; ``grow`` enlarges both (for the outline)."""
    cx, cy = center
    r = TOKEN_R + grow
    ang = edge_angle(facing)
    # The wedge tip stops just short of the front hexside, so it points *at* that side.
    tip_dist = LAYOUT.apothem * 0.9 + grow * 0.6
    tx, ty = unit(ang)
    wedge = [(cx + tx * tip_dist, cy + ty * tip_dist)]
    for da in (-38, 38):
        ux, uy = unit(ang + da)
        wedge.append((cx + ux * r * 0.92, cy + uy * r * 0.92))
    return wedge, (cx - r, cy - r, cx + r, cy + r)


@cache
def _token_sprite(seat: str, facing: int, defeated: bool) -> Image.Image:
    """A token pointing through hexside ``facing`` (12 variants, drawn once each)."""
    half = math.ceil(LAYOUT.apothem + _s(6))
    img = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour: prim.Color = SIDE[seat]
    if defeated:
        # Mostly grey and darker: still faintly its side, clearly out of the fight.
        grey = sum(colour) // 3
        colour = prim.shade(tuple((c + grey * 2) // 3 for c in colour), 0.6)
    centre = (half, half)
    wedge, box = _token_shape(centre, facing, _s(3))
    d.polygon(wedge, fill=INK)
    d.ellipse(box, fill=INK)
    wedge, box = _token_shape(centre, facing, _s(1))
    d.polygon(wedge, fill=(250, 250, 250))
    d.ellipse(box, fill=(250, 250, 250))
    wedge, box = _token_shape(centre, facing, -_s(1.5))
    d.polygon(wedge, fill=colour)
    d.ellipse(box, fill=colour)
    letter_fill = SIDE_TEXT[seat]
    if defeated:
        # A red cross under the letter: "out" at a glance, yet the seat stays readable.
        k = TOKEN_R * 0.62
        for sign in (1, -1):
            d.line(
                [(half - k, half - sign * k), (half + k, half + sign * k)], fill=RED, width=_s(5)
            )
        letter_fill = (250, 250, 250)
    d.text(
        centre,
        seat,
        font=_f(HEX_SIZE * 0.56, bold=True),
        fill=letter_fill,
        anchor="mm",
        stroke_width=_s(2) if defeated else 0,
        stroke_fill=INK,
    )
    return img


def _fighter_marks(
    d: ImageDraw.ImageDraw, seat: str, fighter: Mapping[str, Any], finished: bool
) -> None:
    """Front hexside in the seat's colour; forbidden back hexsides in red when retreat is barred."""
    h = as_hex(fighter["hex"])
    facing = facing_index(fighter["facing"])
    if fighter.get("no_retreat") and not finished:
        for side in (facing + 2, facing + 3, facing + 4):  # back-right, back, back-left
            a, b = LAYOUT.edge(h, side, inset=_s(5))
            d.line([a, b], fill=INK, width=_s(9))
            prim.dashed_polyline(d, [a, b], RED, _s(5), _s(9), _s(5))
    a, b = LAYOUT.edge(h, facing, inset=_s(5))
    d.line([a, b], fill=INK, width=_s(12))
    d.line([a, b], fill=SIDE[seat], width=_s(8))


def _paths(
    d: ImageDraw.ImageDraw, last_turn: Mapping[str, Any], fighters: Mapping[str, Any]
) -> bool:
    """Last turn's movement arrows; False when nobody moved (then no legend is needed)."""
    paths = last_turn.get("paths") or {}
    charged = last_turn.get("charged") or {}
    routes: dict[str, list[Hex]] = {}
    for seat in SEATS:
        hexes: list[Hex] = []
        for step in paths.get(seat) or []:
            h = as_hex(step)
            if not hexes or hexes[-1] != h:  # a "stay" or a stopped step repeats the hex
                hexes.append(h)
        if len(hexes) >= 2:
            routes[seat] = hexes
    steps = {
        seat: {frozenset(pair) for pair in itertools.pairwise(hexes)}
        for seat, hexes in routes.items()
    }
    # Figures that crossed the same hexside (a passing, a push) would draw one arrow on top of
    # the other: then each keeps well to its own right, otherwise arrows stay near hex centres.
    shared = len(steps) == 2 and bool(steps["A"] & steps["B"])
    for seat, hexes in routes.items():
        colour = SIDE[seat]
        # Where the figure stood at the start of last turn.
        prim.dashed_ring(d, LAYOUT.center(hexes[0]), TOKEN_R * 0.8, colour, _s(4), INK, _s(6))
        pts = prim.offset_polyline([LAYOUT.center(h) for h in hexes], _s(13 if shared else 4))
        here = fighters.get(seat)
        if here is not None and as_hex(here["hex"]) == hexes[-1]:
            pts = prim.trim_end(pts, TOKEN_R + _s(5))  # arrow tip touches the token's rim
        _movement_arrow(d, pts, colour, charge=bool(charged.get(seat)))
    return bool(routes)


def _movement_arrow(
    d: ImageDraw.ImageDraw,
    pts: list[tuple[float, float]],
    colour: tuple[int, ...],
    *,
    charge: bool,
    scale: float = 1.0,
) -> None:
    """A charge is a solid double-headed arrow, a normal move a dashed one (board and legend)."""
    if charge:
        prim.arrow(d, pts, colour, _s(9 * scale), casing=INK, casing_width=_s(3 * scale), heads=2)
    else:
        prim.arrow(
            d,
            pts,
            colour,
            _s(6 * scale),
            casing=INK,
            casing_width=_s(2),
            dashed=(_s(13 * scale), _s(8 * scale)),
            head_length=_s(20 * scale),
        )


# --------------------------------------------------------------------------- panel and text


def _facing_icon(d: ImageDraw.ImageDraw, center: Point, facing: int, colour: Any) -> None:
    ux, uy = unit(edge_angle(facing))
    r = _s(11)
    cx, cy = center
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MUTED, width=_s(2))
    tip = (cx + ux * r * 0.85, cy + uy * r * 0.85)
    tail = (cx - ux * r * 0.6, cy - uy * r * 0.6)
    d.line([tail, (cx + ux * r * 0.1, cy + uy * r * 0.1)], fill=colour, width=_s(3))
    prim.arrow_head(d, tip, (ux, uy), r * 0.9, r * 0.5, colour)


def _card(
    d: ImageDraw.ImageDraw,
    seat: str,
    fighter: Mapping[str, Any],
    name: str,
    dice: Sequence[int] | None,
    lang: str,
    finished: bool,
) -> None:
    x0, x1, y0 = PANEL_X0, PANEL_X1, CARD_Y[seat]
    colour = SIDE[seat]
    # Name row: seat chip + display name (shrunk, then truncated, to fit).
    cx, cy = x0 + 36, y0 + 34
    d.ellipse(
        (_s(cx - 19), _s(cy - 19), _s(cx + 19), _s(cy + 19)), fill=colour, outline=INK, width=_s(2)
    )
    d.text(_sp((cx, cy)), seat, font=_f(22, True), fill=SIDE_TEXT[seat], anchor="mm")
    label, fnt = fit_sized(name, (_s(26), _s(22), _s(19)), _s(x1 - 18 - (cx + 28)), bold=True)
    d.text(_sp((cx + 28, cy)), label, font=fnt, fill=TEXT, anchor="lm")

    facing = facing_index(fighter["facing"])
    _facing_icon(d, _sp((x0 + 36, y0 + 72)), facing, colour)
    facing_text = t(lang, "arena.board.facing", dir=t(lang, f"arena.board.dir.{FACINGS[facing]}"))
    d.text(_sp((x0 + 56, y0 + 72)), facing_text, font=_f(17), fill=MUTED, anchor="lm")

    stamina = int(fighter.get("stamina", 0))
    maximum = max(MAX_STAMINA, stamina)
    shown = max(stamina, 0)
    d.text(
        _sp((x0 + 22, y0 + 104)),
        t(lang, "arena.board.stamina"),
        font=_f(17),
        fill=TEXT,
        anchor="lm",
    )
    value = t(lang, "arena.board.stamina_value", value=shown, max=maximum)
    value_colour = RED if shown <= 3 else TEXT
    d.text(_sp((x1 - 18, y0 + 104)), value, font=_f(24, True), fill=value_colour, anchor="rm")
    CANVAS.card_meter(
        d, (x0 + 22, y0 + 120, x1 - 18, y0 + 144), shown, maximum, colour, segments=maximum
    )

    # Both badges are about the next turn, which a finished match does not have.
    badges: list[tuple[str, prim.Color, prim.Color, Callable[..., None]]] = []
    if fighter.get("may_charge") and not finished:
        badges.append((t(lang, "arena.board.charge_ready"), GOLD, INK, prim.crossed_swords))
    if fighter.get("no_retreat") and not finished:
        badges.append((t(lang, "arena.board.no_retreat"), RED, (255, 255, 255), prim.no_entry))
    bx, by, bh = _s(x0 + 22), _s(y0 + 160), _s(34)
    badge_font = _f(17, True)
    for label_text, fill, fg, icon in badges:
        width = prim.badge_width(label_text, badge_font, bh, icon=True)
        if bx + width > _s(x1 - 16) and bx > _s(x0 + 22):  # wrap to a second row
            bx, by = _s(x0 + 22), by + bh + _s(8)
        bx += prim.badge(d, (bx, by), label_text, badge_font, fill, fg, bh, icon) + _s(10)

    if dice:
        d.text(
            _sp((x0 + 22, y0 + 262)),
            t(lang, "arena.board.dice"),
            font=_f(17),
            fill=TEXT,
            anchor="lm",
        )
        size, step = 44, 66
        start = x1 - 18 - size - step * (len(dice) - 1)
        for i, value in enumerate(dice):
            left = start + step * i
            prim.die_face(
                d,
                (_s(left), _s(y0 + 240), _s(left + size), _s(y0 + 240 + size)),
                int(value),
                (250, 248, 240),
                INK,
                outline=colour,
                outline_width=_s(3),
                fnt=_f(22, True),
            )
            d.text(
                _sp((left + size / 2, y0 + 299)),
                t(lang, "arena.board.die", n=i + 1),
                font=_f(15),
                fill=MUTED,
                anchor="mm",
            )


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """Key for last turn's arrows, in the empty lower-left corner of the board area."""
    x, y = 12, 618
    d.rounded_rectangle(
        (_s(x), _s(y), _s(x + 148), _s(y + 90)), radius=_s(8), fill=(20, 22, 27, 210)
    )
    d.text(
        _sp((x + 10, y + 16)),
        t(lang, "arena.board.last_turn"),
        font=_f(15, True),
        fill=TEXT,
        anchor="lm",
    )
    rows = (("arena.board.legend_move", False, y + 44), ("arena.board.legend_charge", True, y + 72))
    for key, charge, yy in rows:
        pts = [_sp((x + 12, yy)), _sp((x + 56, yy))]
        _movement_arrow(d, pts, MUTED, charge=charge, scale=0.65)
        d.text(_sp((x + 64, yy)), t(lang, key), font=_f(15), fill=TEXT, anchor="lm")


def _compass(d: ImageDraw.ImageDraw, lang: str) -> None:
    """North arrow: facing names (N, NE…) refer to screen directions.

    Lower-right corner of the board area: empty there, and never under the outcome banner.
    """
    cx, cy = 532, 652
    tip, tail = _sp((cx, cy - 26)), _sp((cx, cy + 14))
    prim.arrow(d, [tail, tip], MUTED, _s(4), head_length=_s(14))
    d.text(
        _sp((cx, cy + 30)), t(lang, "arena.board.dir.N"), font=_f(17, True), fill=MUTED, anchor="mm"
    )


BANNER_BOX = (10, 68, 228, 150)  # top left: clear of the north gate, which is mid-board


def _banner(d: ImageDraw.ImageDraw, outcome: str, names: Mapping[str, str], lang: str) -> None:
    x0, y0, x1, y1 = BANNER_BOX
    colour = SIDE.get(outcome, GOLD)
    # Slightly see-through: it lies over the corner of the wall.
    CANVAS.result_frame(d, (x0, y0, x1, y1), fill=(14, 15, 19, 235))
    d.rounded_rectangle(
        (_s(x0 + 8), _s(y0 + 8), _s(x0 + 16), _s(y1 - 8)), radius=_s(3), fill=colour
    )
    mid = (x0 + x1 + 16) / 2
    d.text(
        _sp((mid, y0 + 22)), t(lang, "arena.board.match_over"), font=_f(16), fill=MUTED, anchor="mm"
    )
    room = _s(x1 - x0 - 34)
    if outcome in SEATS:
        template = t(lang, "arena.board.winner", name=PLACEHOLDER)
        sizes = (_s(26), _s(22), _s(18))
        headline, fnt = fit_into(template, names[outcome], sizes, room, bold=True)
    else:
        headline, fnt = fit_sized(t(lang, "arena.board.draw"), (_s(26), _s(22)), room, bold=True)
    d.text(_sp((mid, y0 + 54)), headline, font=fnt, fill=GOLD, anchor="mm")


def _fight(
    d: ImageDraw.ImageDraw, fighters: Mapping[str, Any], last_turn: Mapping[str, Any]
) -> None:
    """Crossed swords between the two fighters when the last turn had a fight (a combat or a
    passing; an older view without ``fight`` is judged by where they stand: figures that end
    their move adjacent fight)."""
    if not all(seat in fighters for seat in SEATS):
        return
    a, b = (as_hex(fighters[seat]["hex"]) for seat in SEATS)
    if "fight" in last_turn:
        if last_turn["fight"] is None:
            return
    elif (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1])) // 2 != 1:
        return
    (ax, ay), (bx, by) = LAYOUT.center(a), LAYOUT.center(b)
    c = ((ax + bx) / 2, (ay + by) / 2)
    r = _s(17)
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=RED, outline=INK, width=_s(2))
    prim.crossed_swords(d, c, _s(22), (255, 255, 255))


def _burst(d: ImageDraw.ImageDraw, c: Point, r: float, fill: Any) -> None:
    """A spiky star: a collision, or a hit with the stamina it cost."""
    cx, cy = c
    points = []
    for k in range(20):
        rr = r if k % 2 == 0 else r * 0.78
        a = math.pi * k / 10 - math.pi / 2
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(points, fill=fill, outline=INK, width=_s(2))


def _collision(d: ImageDraw.ImageDraw, last_turn: Mapping[str, Any], lang: str) -> None:
    """Where both figures tried to step into the same hex: a burst marked with a bang."""
    where = last_turn.get("collision")
    if not where:
        return
    c = LAYOUT.center(as_hex(where))
    _burst(d, c, _s(24), HIT)
    d.text(c, t(lang, "arena.board.collision_mark"), font=_f(20, True), fill=RED, anchor="mm")


def _damage(
    d: ImageDraw.ImageDraw, fighters: Mapping[str, Any], last_turn: Mapping[str, Any], lang: str
) -> None:
    """The stamina each figure lost to the other last turn, in a burst on the side of its token
    away from the other figure (the crossed swords are between them)."""
    for seat in SEATS:
        lost = int((last_turn.get("damage") or {}).get(seat, 0))
        other = fighters.get("B" if seat == "A" else "A")
        if not lost or seat not in fighters or other is None:
            continue
        cx, cy = LAYOUT.center(as_hex(fighters[seat]["hex"]))
        ox, oy = LAYOUT.center(as_hex(other["hex"]))
        n = math.hypot(cx - ox, cy - oy) or 1.0
        c = (cx + (cx - ox) / n * TOKEN_R * 1.15, cy + (cy - oy) / n * TOKEN_R * 1.15)
        _burst(d, c, _s(21), HIT)
        text = t(lang, "arena.board.damage", damage=lost)
        d.text(c, text, font=_f(18, True), fill=INK, anchor="mm")


def _display_names(names: Mapping[str, str] | None, lang: str) -> dict[str, str]:
    return display_names(names, SEATS, lambda seat: t(lang, "arena.board.player", seat=seat))


# --------------------------------------------------------------------------- entry point


def render(
    view: Mapping[str, Any],
    lang: str = "en",
    names: dict[str, str] | None = None,
    title: str | None = None,
) -> bytes:
    """PNG bytes of the board for ``view`` (the dict from ``rules.view``) in ``lang``.

    ``names`` maps seat to display name (emoji and other glyphs the bundled font lacks are
    dropped, long names shrink then truncate); ``title`` replaces the default heading.
    """
    obstacles = tuple(sorted(as_hex(h) for h in view.get("obstacles") or ()))
    img = _base(obstacles).copy()
    d = ImageDraw.Draw(img, "RGBA")
    shown = _display_names(names, lang)
    fighters: Mapping[str, Any] = view.get("fighters") or {}
    outcome = view.get("outcome")

    # Header: title on the left, turn number right-aligned over the panel.
    CANVAS.header_text(
        d,
        renderable(title or "", bold=True) or t(lang, "arena.title"),
        t(lang, "arena.board.turn", n=int(view.get("turn", 0))),
        height=HEADER_H,
        right=PANEL_X1,
        sizes=(28, 24, 20),
    )

    _compass(d, lang)
    for seat in SEATS:
        if seat in fighters:
            _fighter_marks(d, seat, fighters[seat], bool(outcome))
    last_turn = view.get("last_turn")
    if last_turn and _paths(d, last_turn, fighters):
        _legend(d, lang)
    for seat in SEATS:
        if seat not in fighters:
            continue
        fighter = fighters[seat]
        defeated = outcome == "draw" or (outcome in SEATS and outcome != seat)
        sprite = _token_sprite(seat, facing_index(fighter["facing"]), defeated)
        cx, cy = LAYOUT.center(as_hex(fighter["hex"]))
        img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)
    if last_turn:
        _collision(d, last_turn, lang)
    if last_turn and not outcome:
        _fight(d, fighters, last_turn)
    if last_turn:
        _damage(d, fighters, last_turn, lang)

    dice: Mapping[str, Sequence[int]] = view.get("dice") or {}
    for seat in SEATS:
        if seat in fighters:
            _card(d, seat, fighters[seat], shown[seat], dice.get(seat), lang, bool(outcome))
    if outcome:
        _banner(d, str(outcome), shown, lang)

    return CANVAS.png(img)
