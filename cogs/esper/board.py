"""The Esper war board (pure: Pillow through :mod:`bot.render`, no discord, no pack).

Drawn only from the public view (``rules.view(state, None)``): every name on it comes from the
view's ``names`` (ids present in the view) or the players' display names, so a face-down card or
an unopened sheet cannot leak through the board.

The map: six planets (P1–P3 above, P4–P6 below), each a ring of seven spots round the planet's
disc; the spaceport ``Pn-0`` at the top as a square, then ``Pn-1`` … ``Pn-6`` clockwise (a
piece moving right goes clockwise). Face-down spots show their number, face-up ones the card's
name, destroyed or spent ones an X; the revealed ambush has a red crosshair ring. Invader pieces
are round tokens with the seat letter, orbiting their spot so that a card's name stays readable
under up to eight of them; party members share a token colour, the seat to play is ringed in gold,
and this step's moves are arrows (a teleport dashed). Rafnor (spot ``R``) sits under the map beside
the legend. Under those, one roster row per seat; when the game is over the roster shows each
seat's revealed sheet, alignment, playing card and grade instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import (
    CARD_BG,
    GOLD,
    INK,
    MUTED,
    TEXT,
    Supersample,
    display_names,
)
from bot.render.fonts import fit, renderable

SS = 2
CANVAS = Supersample(SS)
Point = tuple[float, float]
Colour = tuple[int, int, int]

# Layout in output pixels. Discord shows the board about 550 px wide: at WIDTH 720 a 12 px font
# is 9.2 px there, the least the legibility test allows, so nothing is drawn smaller than MIN_FONT.
WIDTH = 720
MIN_FONT = 12
MARGIN = 12
HEADER = 44
MAP_Y = HEADER + 10
CELL_W = WIDTH // 3
CELL_H = 252
RING = 76  # ring radius: spot centres round the planet's centre
SPOT = 29  # spot radius (the spaceport is a square of the same half side)
PLANET = 34  # the planet's disc inside the ring
TOKEN = 12.0
ORBIT = SPOT + 7  # tokens sit over the spot's rim: its middle (the card's name) stays clear
EDGE = TOKEN + 5  # the least distance from a token's centre to the board's side
STRIP_Y = MAP_Y + 2 * CELL_H + 4
STRIP_H = 86
ROSTER_Y = STRIP_Y + STRIP_H + 6
ROSTER_HEAD = 22
ROW_H = 27
BOTTOM = 10

PLANETS = 6
SPOTS = 7

# colours
RING_LINE = (70, 76, 92)
DOWN = (52, 58, 72)
DOWN_RIM = (104, 112, 130)
FACE = (232, 226, 206)  # a face-up card
FACE_RIM = (160, 148, 112)
FACE_NUMBER = (120, 108, 80)
SPENT = (34, 36, 42)
SPENT_RIM = (84, 88, 98)
SPENT_X = (128, 132, 142)
PORT = (42, 98, 122)
PORT_RIM = (124, 194, 214)
AMBUSH = (232, 56, 56)
TOKEN_PLAIN = (236, 236, 240)
DEAD = (112, 112, 118)
HOLE = (150, 84, 226)
HOLE_FILL = (46, 24, 70)
MOVE = (250, 250, 250)
TELEPORT = (206, 168, 255)
INVADER = (128, 182, 255)
DEFENDER = (244, 138, 104)
ROW_ALT = (33, 36, 44)
ROW_ACTIVE = (64, 56, 30)
PLANET_COLOURS: tuple[Colour, ...] = (
    (70, 110, 170),
    (150, 96, 60),
    (64, 132, 96),
    (136, 74, 120),
    (150, 132, 60),
    (84, 88, 150),
)
# Party tokens share one of these fills (party numbers cycle through them); none is gold, the
# colour of the seat to play, nor the plain token's near-white.
PARTY_COLOURS: tuple[Colour, ...] = (
    (86, 206, 226),
    (244, 122, 190),
    (150, 222, 92),
    (255, 156, 64),
    (156, 140, 255),
    (222, 214, 120),
)
ALIGNMENT_COLOURS: dict[str, Colour] = {
    "GOOD": (128, 182, 255),
    "EVIL": (244, 104, 104),
    "SPECIAL": (214, 170, 255),
}
GRADE_COLOURS: dict[str, Colour] = {
    "A": GOLD,
    "B": (196, 204, 216),
    "C": (150, 120, 96),
    "D": (180, 70, 70),
}
RED_SUITS = frozenset("♥♦HD")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "S": "S", "H": "H", "D": "D", "C": "C"}

# Where each seat's pieces sit round a ring spot: angles (degrees) from the spot's outward
# direction; outward first (free space), then inward (towards the planet's disc). 40° apart on
# the orbit keeps neighbouring tokens apart; the sideways directions are skipped as the
# neighbouring spots lie there.
RING_SLOTS = (0, 40, -40, 80, -80, 180, 140, -140)


# --- geometry ------------------------------------------------------------------------------------


def planet_centre(planet: int) -> Point:
    """The centre of planet ``planet`` (1–6) in output pixels."""
    col, row = (planet - 1) % 3, (planet - 1) // 3
    return col * CELL_W + CELL_W / 2, MAP_Y + row * CELL_H + CELL_H / 2


def _spot_angle(index: int) -> float:
    # the spaceport at the top, then clockwise: a move right is a step clockwise
    return math.radians(-90 + index * 360 / SPOTS)


# Rafnor's name on the strip's left, its spot, then its pieces in two rows, then the legend: every
# arrow to Rafnor comes from the map above, so none crosses the name.
RAFNOR_LABEL_W = 100
RAFNOR_AT: Point = (MARGIN + RAFNOR_LABEL_W + SPOT, STRIP_Y + STRIP_H / 2)
LEGEND_X = 258


def parse_spot(label: object) -> tuple[int, int] | None:
    """``"P3-2"`` -> (3, 2); ``None`` for anything else (``"R"`` included)."""
    if not isinstance(label, str) or len(label) != 4 or label[0] != "P" or label[2] != "-":
        return None
    planet, index = label[1], label[3]
    if not (planet.isdigit() and index.isdigit()):
        return None
    if not (1 <= int(planet) <= PLANETS and 0 <= int(index) < SPOTS):
        return None
    return int(planet), int(index)


def spot_centre(label: object) -> Point | None:
    """Where spot ``label`` is drawn (``"R"`` is Rafnor, under the map)."""
    if label == "R":
        return RAFNOR_AT
    found = parse_spot(label)
    if found is None:
        return None
    cx, cy = planet_centre(found[0])
    a = _spot_angle(found[1])
    return cx + RING * math.cos(a), cy + RING * math.sin(a)


def _token_places(label: str, count: int) -> list[Point]:
    """Where ``count`` pieces on ``label`` go: round a ring spot's rim, or in columns of two
    right of Rafnor."""
    if label == "R":
        x0 = RAFNOR_AT[0] + SPOT + 6 + TOKEN
        if count == 1:
            return [(x0, RAFNOR_AT[1])]
        step = 2 * TOKEN + 2
        return [(x0 + (i // 2) * step, RAFNOR_AT[1] + (i % 2 - 0.5) * step) for i in range(count)]
    found = parse_spot(label)
    centre = spot_centre(label)
    if found is None or centre is None:
        return []
    outward = math.degrees(_spot_angle(found[1]))
    places: list[Point] = []
    lap = 0
    while len(places) < count:
        # past the eight rim places (more invaders than a game has) a second, wider orbit
        r = ORBIT + lap * (2 * TOKEN + 2)
        for slot in RING_SLOTS:
            a = math.radians(outward + slot + lap * 18)
            x, y = centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)
            # a side spot of P1, P3, P4 or P6 faces the board's edge: its token (with the gold
            # ring of the seat to play) goes to the next place instead
            if EDGE <= x <= WIDTH - EDGE:
                places.append((x, y))
        lap += 1
    return places[:count]


def board_size(seats: int) -> tuple[int, int]:
    """The board's size for ``seats`` seats (the roster grows with them)."""
    return WIDTH, ROSTER_Y + ROSTER_HEAD + ROW_H * max(seats, 1) + BOTTOM


# --- words ---------------------------------------------------------------------------------------


def name_of(view: Mapping[str, Any], item: object, lang: str) -> str:
    """The display name the view gives ``item`` (a silhouette, sheet or card id) in ``lang``; the
    id itself when the view does not name it (never anything from outside the view)."""
    if not item:
        return ""
    entry = (view.get("names") or {}).get(item)
    if isinstance(entry, Mapping):
        for key in (lang, "en", "ja"):
            shown = renderable(str(entry.get(key) or ""))
            if shown:
                return shown
    elif isinstance(entry, str) and renderable(entry):
        return renderable(entry)
    return renderable(str(item)) or "?"


def step_text(view: Mapping[str, Any], lang: str) -> str:
    """The step's name and turn: "Turn 12 · C to play" or a setup step's name."""
    step = str(view.get("step") or "")
    if view.get("stage") == "over" or step == "over":
        return t(lang, "esper.board.step.over")
    if step in ("deal", "silhouette", "repick", "balance", "balance_card", "start", "see"):
        return t(lang, f"esper.board.step.{step}")
    # ``turn`` counts the normal turns played: the one being played is the next
    turn = view.get("turn")
    played = turn if isinstance(turn, int) else 0
    if view.get("active"):
        text = t(lang, "esper.board.step.turn", turn=played + 1, seat=view.get("active"))
    else:
        text = t(lang, "esper.board.step.turn_only", turn=played)
    if step in ("direction", "party", "after", "objection"):
        seat = view.get("declaration") or view.get("active") or "?"
        text += " · " + t(lang, f"esper.board.step.{step}", seat=seat)
    return text


def _stage_text(view: Mapping[str, Any], lang: str) -> str:
    stage = view.get("stage")
    key = f"esper.board.stage.{stage}" if stage in ("setup", "planets", "over") else None
    title = t(lang, "esper.board.title")
    return f"{title} · {t(lang, key)}" if key else title


# --- small drawing helpers -----------------------------------------------------------------------


def _font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    return CANVAS.font(max(size, MIN_FONT), bold)


def _text(
    d: ImageDraw.ImageDraw,
    at: Point,
    value: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    anchor: str = "lm",
    halo: tuple[int, ...] | None = None,
) -> None:
    prim.text(d, CANVAS.sp(at), value, fnt, fill, anchor, halo, CANVAS.s(2) if halo else 0)


def _fitted(value: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    return fit(value, fnt, CANVAS.s(width))


def _circle(
    d: ImageDraw.ImageDraw,
    at: Point,
    r: float,
    fill: tuple[int, ...] | None = None,
    outline: tuple[int, ...] | None = None,
    width: float = 0,
) -> None:
    box = CANVAS.rect((at[0] - r, at[1] - r, at[0] + r, at[1] + r))
    d.ellipse(box, fill=fill, outline=outline, width=CANVAS.s(width) if outline else 0)


def _cross(d: ImageDraw.ImageDraw, at: Point, half: float, fill: Colour, width: float) -> None:
    x, y = at
    for dx in (-half, half):
        d.line(
            [CANVAS.sp((x - dx, y - half)), CANVAS.sp((x + dx, y + half))],
            fill=fill,
            width=CANVAS.s(width),
        )


def _ink_on(fill: Sequence[int]) -> Colour:
    """Dark or white text, whichever reads on ``fill``."""
    r, g, b = fill[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def _lines(value: str, fnt: ImageFont.FreeTypeFont, width: float, most: int) -> list[str] | None:
    """``value`` in at most ``most`` lines of ``width``, broken at spaces (between any two
    characters where it has none and is not Latin: Japanese wraps anywhere); None if it does not
    fit whole."""
    room = CANVAS.s(width)
    if " " in value:
        units, joiner = value.split(" "), " "
    elif value.isascii():
        units, joiner = [value], ""  # one Latin word: never cut in two
    else:
        units, joiner = list(value), ""
    lines: list[str] = []
    for unit in units:
        if lines and fnt.getlength(lines[-1] + joiner + unit) <= room:
            lines[-1] += joiner + unit
        else:
            lines.append(unit)
    if len(lines) > most or any(fnt.getlength(line) > room for line in lines):
        return None
    return lines


def _wrap(value: str, fnt: ImageFont.FreeTypeFont, width: float, most: int = 2) -> list[str]:
    """``value`` in up to ``most`` lines, or one line cut with an ellipsis."""
    return _lines(value, fnt, width, most) or [fit(value, fnt, CANVAS.s(width))]


def _balanced(value: str, fnt: ImageFont.FreeTypeFont, width: float, most: int) -> list[str] | None:
    """As :func:`_lines`, but with the lines as even as the width allows ("能力カー / ド入手"
    reads worse than "能力カ / ード入手" only in length: the narrowest width that still fits)."""
    best = _lines(value, fnt, width, most)
    if best is None:
        return None
    narrow = width
    while narrow > 12:
        tighter = _lines(value, fnt, narrow - 2, len(best))
        if tighter is None:
            break
        best, narrow = tighter, narrow - 2
    return best


# --- seats ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    letter: str
    info: Mapping[str, Any]

    @property
    def party(self) -> int | None:
        party = self.info.get("party")
        return int(party) if isinstance(party, int) and not isinstance(party, bool) else None

    @property
    def dead(self) -> bool:
        return self.info.get("alive") is False

    @property
    def black_hole(self) -> bool:
        return bool(self.info.get("black_hole"))


def _seats(view: Mapping[str, Any]) -> list[Seat]:
    seats = view.get("seats") or {}
    return [Seat(str(k), v if isinstance(v, Mapping) else {}) for k, v in sorted(seats.items())]


def party_colour(party: int | None) -> Colour:
    if party is None:
        return TOKEN_PLAIN
    return PARTY_COLOURS[(party - 1) % len(PARTY_COLOURS)]


def _token(d: ImageDraw.ImageDraw, at: Point, seat: Seat, active: bool, r: float = TOKEN) -> None:
    """A seat's piece: its letter on its party's colour, dimmed if dead, purple-rimmed in a black
    hole, ringed in gold when it is the seat to play."""
    fill: Colour = party_colour(seat.party)
    rim, rim_w = INK, 2.0
    if seat.black_hole:
        fill, rim, rim_w = HOLE_FILL, HOLE, 3.0
    if seat.dead:
        fill = DEAD
    if active:
        _circle(d, at, r + 4.5, outline=GOLD, width=3)
    _circle(d, at, r, fill=fill, outline=rim, width=rim_w)
    letter = seat.letter[:1]
    _text(
        d, (at[0], at[1] + 0.5), letter, _font(15 if r >= TOKEN else 13, True), _ink_on(fill), "mm"
    )
    if seat.dead:
        d.line(
            [
                CANVAS.sp((at[0] - r * 0.7, at[1] + r * 0.7)),
                CANVAS.sp((at[0] + r * 0.7, at[1] - r * 0.7)),
            ],
            fill=AMBUSH,
            width=CANVAS.s(2),
        )


# --- the map -------------------------------------------------------------------------------------


def _planet(d: ImageDraw.ImageDraw, planet: int, view: Mapping[str, Any], lang: str) -> None:
    cx, cy = planet_centre(planet)
    _circle(d, (cx, cy), RING, outline=RING_LINE, width=3)
    colour = PLANET_COLOURS[(planet - 1) % len(PLANET_COLOURS)]
    _circle(d, (cx, cy), PLANET, fill=colour, outline=prim.shade(colour, 1.35), width=2)
    _text(d, (cx, cy), f"P{planet}", _font(20, True), TEXT, "mm", halo=prim.shade(colour, 0.5))
    face_up = view.get("planets") or {}
    for index in range(SPOTS):
        label = f"P{planet}-{index}"
        at = spot_centre(label)
        assert at is not None
        if index == 0:
            _port(d, at, lang)
        else:
            _spot(d, at, str(index), face_up.get(label), view, lang)


def _port(d: ImageDraw.ImageDraw, at: Point, lang: str) -> None:
    x, y = at
    half = SPOT - 3
    d.rounded_rectangle(
        CANVAS.rect((x - half, y - half, x + half, y + half)),
        radius=CANVAS.s(8),
        fill=PORT,
        outline=PORT_RIM,
        width=CANVAS.s(2),
    )
    fnt = _font(12, True)
    _text(d, (x, y), _fitted(t(lang, "esper.board.port"), fnt, 2 * half - 6), fnt, TEXT, "mm")


def _spot(
    d: ImageDraw.ImageDraw,
    at: Point,
    number: str,
    card: object,
    view: Mapping[str, Any],
    lang: str,
) -> None:
    x, y = at
    if card is None:
        _circle(d, at, SPOT, fill=DOWN, outline=DOWN_RIM, width=2)
        _text(d, at, number, _font(18, True), MUTED, "mm")
    elif card == "x":
        _circle(d, at, SPOT, fill=SPENT, outline=SPENT_RIM, width=2)
        _cross(d, at, SPOT * 0.55, SPENT_X, 3)
        _text(d, at, number, _font(14, True), MUTED, "mm", halo=SPENT)
    else:
        _circle(d, at, SPOT, fill=FACE, outline=FACE_RIM, width=2)
        lines, fnt = _card_lines(name_of(view, card, lang))
        if len(lines) < 3:  # a three-line name leaves no room for the spot's number
            _text(d, (x, y - 14), number, _font(12, True), FACE_NUMBER, "mm")
            top = y + 3 if len(lines) == 1 else y - 2
        else:
            top = y - 13
        for i, line in enumerate(lines):
            _text(d, (x, top + 13 * i), line, fnt, INK, "mm")


def _card_lines(name: str) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """A face-up card's name inside its spot: one line, else two (under the spot's number), else
    three, each at 13 px before 12; else cut with an ellipsis."""
    width = 2 * SPOT - 8
    for most in (1, 2, 3):
        for size in (13, 12):
            fnt = _font(size)
            lines = _balanced(name, fnt, width, most)
            if lines is not None:
                return lines, fnt
    # a word wider than the spot: the words on their own lines, each cut to fit
    fnt = _font(12)
    words = name.split(" ")
    if len(words) > 3:
        words = [*words[:2], " ".join(words[2:])]
    return [fit(word, fnt, CANVAS.s(width)) for word in words], fnt


def _ambush(d: ImageDraw.ImageDraw, at: Point) -> None:
    """A red crosshair ring: unlike the gold ring of the seat to play, it has ticks."""
    r = SPOT + 5
    _circle(d, at, r, outline=AMBUSH, width=3)
    x, y = at
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d.line(
            [
                CANVAS.sp((x + dx * (r - 4), y + dy * (r - 4))),
                CANVAS.sp((x + dx * (r + 5), y + dy * (r + 5))),
            ],
            fill=AMBUSH,
            width=CANVAS.s(3),
        )


def _rafnor(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str) -> None:
    card = view.get("rafnor")
    _spot(d, RAFNOR_AT, "R", card, view, lang)
    fnt = _font(13, True)
    lines = _wrap(t(lang, "esper.board.rafnor"), fnt, RAFNOR_LABEL_W - 8)
    for i, line in enumerate(lines):
        y = RAFNOR_AT[1] + (i - (len(lines) - 1) / 2) * 16
        _text(d, (MARGIN, y), line, fnt, TEXT)


def _moves(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    for move in view.get("last") or ():
        if not isinstance(move, Mapping):
            continue
        start, end = spot_centre(move.get("from")), spot_centre(move.get("to"))
        if end is None:
            continue
        if start is None or start == end:  # placed, not moved: a white halo round the spot
            x, y = end
            if parse_spot(move.get("to")) and str(move.get("to")).endswith("-0"):
                half = SPOT + 2
                box = CANVAS.rect((x - half, y - half, x + half, y + half))
                d.rounded_rectangle(box, radius=CANVAS.s(11), outline=MOVE, width=CANVAS.s(2))
            else:
                _circle(d, end, SPOT + 5, outline=MOVE, width=2)
            continue
        # walking is a plain arrow; a teleport or a card's jump (to Rafnor, to a spaceport) dashed
        jump = move.get("how") != "move"
        colour = TELEPORT if jump else MOVE
        # where the piece stood: a dashed ring, never read as a piece
        prim.dashed_ring(
            d, CANVAS.sp(start), CANVAS.s(SPOT + 4), colour, CANVAS.s(2), INK, CANVAS.s(4)
        )
        prim.arrow(
            d,
            [CANVAS.sp(p) for p in _path(move.get("from"), move.get("to"), start, end)],
            colour,
            CANVAS.s(4),
            casing=INK,
            casing_width=CANVAS.s(2),
            dashed=(CANVAS.s(9), CANVAS.s(6)) if jump else None,
            head_length=CANVAS.s(13),
        )


def _path(source: object, target: object, start: Point, end: Point) -> list[Point]:
    """An arrow's points: between neighbouring spots of a ring an arc inside the ring (a straight
    arrow there would be a stub between the two spots), else a straight line rim to rim."""
    a, b = parse_spot(source), parse_spot(target)
    if a and b and a[0] == b[0] and (b[1] - a[1]) % SPOTS in (1, SPOTS - 1):
        centre = planet_centre(a[0])
        step = 1 if (b[1] - a[1]) % SPOTS == 1 else -1
        r = RING - SPOT - 5  # between the planet's disc and the spots
        a0 = math.degrees(_spot_angle(a[1]))
        sweep = step * 360 / SPOTS
        return [
            (
                centre[0] + r * math.cos(math.radians(a0 + sweep * i / 10)),
                centre[1] + r * math.sin(math.radians(a0 + sweep * i / 10)),
            )
            for i in range(11)
        ]
    length = math.dist(start, end)
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    return [
        (start[0] + ux * (SPOT + 2), start[1] + uy * (SPOT + 2)),
        (end[0] - ux * (SPOT + 3), end[1] - uy * (SPOT + 3)),
    ]


def _pieces(d: ImageDraw.ImageDraw, view: Mapping[str, Any], seats: Sequence[Seat]) -> None:
    by_spot: dict[str, list[Seat]] = {}
    for seat in seats:
        spot = seat.info.get("spot")
        if isinstance(spot, str) and spot_centre(spot) is not None:
            by_spot.setdefault(spot, []).append(seat)
    active = view.get("active")
    for spot in sorted(by_spot):
        here = by_spot[spot]
        for seat, at in zip(here, _token_places(spot, len(here)), strict=True):
            _token(d, at, seat, seat.letter == active)


# --- the legend ----------------------------------------------------------------------------------


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    fnt = _font(12)
    x0, col_w, row_h = float(LEGEND_X), (WIDTH - MARGIN - LEGEND_X) / 3, 26.0
    y0 = STRIP_Y + STRIP_H / 2 - row_h
    items = (
        "active",
        "ambush",
        "spent",
        "move",
        "teleport",
        "party",
        "dead",
        "black_hole",
        "declared",
    )
    for i, item in enumerate(items):
        col, row = divmod(i, 3)
        x, y = x0 + col * col_w, y0 + row * row_h
        _legend_icon(d, item, (x + 10, y))
        label = _fitted(t(lang, f"esper.board.legend.{item}"), fnt, col_w - 30)
        _text(d, (x + 24, y), label, fnt, MUTED)


def _legend_icon(d: ImageDraw.ImageDraw, item: str, at: Point) -> None:
    x, y = at
    r = 8.0
    if item == "active":
        _circle(d, at, r, outline=GOLD, width=3)
    elif item == "ambush":
        _circle(d, at, r - 1, outline=AMBUSH, width=2)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            d.line(
                [
                    CANVAS.sp((x + dx * (r - 3), y + dy * (r - 3))),
                    CANVAS.sp((x + dx * (r + 2), y + dy * (r + 2))),
                ],
                fill=AMBUSH,
                width=CANVAS.s(2),
            )
    elif item == "spent":
        _circle(d, at, r, fill=SPENT, outline=SPENT_RIM, width=1)
        _cross(d, at, r * 0.55, SPENT_X, 2)
    elif item in ("move", "teleport"):
        prim.arrow(
            d,
            [CANVAS.sp((x - 10, y)), CANVAS.sp((x + 10, y))],
            TELEPORT if item == "teleport" else MOVE,
            CANVAS.s(3),
            casing=INK,
            casing_width=CANVAS.s(1),
            dashed=(CANVAS.s(4), CANVAS.s(3)) if item == "teleport" else None,
            head_length=CANVAS.s(8),
        )
    elif item == "party":
        for i, colour in enumerate(PARTY_COLOURS[:2]):
            _circle(d, (x - 4 + 8 * i, y), 6, fill=colour, outline=INK, width=1)
    elif item == "dead":
        _dead_mark(d, at)
    elif item == "black_hole":
        _hole_mark(d, at)
    elif item == "declared":
        _flag(d, at)


def _dead_mark(d: ImageDraw.ImageDraw, at: Point) -> None:
    _text(d, at, "†", _font(16, True), AMBUSH, "mm")


def _hole_mark(d: ImageDraw.ImageDraw, at: Point) -> None:
    _circle(d, at, 8, fill=HOLE_FILL, outline=HOLE, width=2)
    _circle(d, at, 3.5, fill=(10, 6, 16))


def _flag(d: ImageDraw.ImageDraw, at: Point) -> None:
    x, y = at
    d.line([CANVAS.sp((x - 5, y - 8)), CANVAS.sp((x - 5, y + 8))], fill=TEXT, width=CANVAS.s(2))
    d.polygon(
        [CANVAS.sp((x - 4, y - 8)), CANVAS.sp((x + 7, y - 4)), CANVAS.sp((x - 4, y))], fill=GOLD
    )


# --- the roster ----------------------------------------------------------------------------------

# (column, width) in output pixels; each roster's widths add up to WIDTH - 2 * MARGIN
PLAY_COLUMNS: tuple[tuple[str, float], ...] = (
    ("seat", 26),
    ("player", 110),
    ("silhouette", 100),
    ("side", 72),
    ("spot", 44),
    ("damage", 42),
    ("info", 40),
    ("abilities", 40),
    ("open", 110),
    ("marks", 112),
)
OVER_COLUMNS: tuple[tuple[str, float], ...] = (
    ("seat", 26),
    ("player", 112),
    ("silhouette", 104),
    ("sheet", 130),
    ("alignment", 86),
    ("card", 56),
    ("grade", 50),
    ("marks", 132),
)
CENTRED = frozenset(("spot", "damage", "info", "abilities", "card", "grade"))


def _roster(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seats: Sequence[Seat],
    shown: Mapping[str, str],
) -> None:
    over = view.get("stage") == "over"
    columns = OVER_COLUMNS if over else PLAY_COLUMNS
    head_font = _font(12, True)
    x = float(MARGIN)
    y = ROSTER_Y + ROSTER_HEAD / 2
    for column, width in columns:
        if column not in ("seat", "marks"):
            label = _fitted(t(lang, f"esper.board.col.{column}"), head_font, width - 6)
            at = (x + width / 2, y) if column in CENTRED else (x + 2, y)
            _text(d, at, label, head_font, MUTED, "mm" if column in CENTRED else "lm")
        x += width
    d.line(
        [
            CANVAS.sp((MARGIN, ROSTER_Y + ROSTER_HEAD)),
            CANVAS.sp((WIDTH - MARGIN, ROSTER_Y + ROSTER_HEAD)),
        ],
        fill=(60, 64, 74),
        width=CANVAS.s(1),
    )
    for i, seat in enumerate(seats):
        top = ROSTER_Y + ROSTER_HEAD + i * ROW_H
        active = seat.letter == view.get("active") and not over
        declaring = seat.letter == view.get("declaration")
        if active or declaring:
            background: Colour | None = ROW_ACTIVE
        else:
            background = ROW_ALT if i % 2 else None
        if background:
            d.rectangle(
                CANVAS.rect((MARGIN - 4, top + 1, WIDTH - MARGIN + 4, top + ROW_H - 1)),
                fill=background,
            )
        x = float(MARGIN)
        for column, width in columns:
            _cell(d, view, lang, seat, shown, column, (x, top, width), active)
            x += width


def _cell(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seat: Seat,
    shown: Mapping[str, str],
    column: str,
    box: tuple[float, float, float],
    active: bool,
) -> None:
    x, top, width = box
    y = top + ROW_H / 2
    info = seat.info
    regular, bold = _font(13), _font(13, True)
    dim = MUTED if seat.dead else TEXT
    reveal = (view.get("reveal") or {}).get(seat.letter) or {}
    if column == "seat":
        _token(d, (x + 11, y), seat, active)
    elif column == "player":
        _text(d, (x + 2, y), _fitted(shown[seat.letter], bold, width - 8), bold, dim)
    elif column in ("silhouette", "open", "sheet"):
        item = {"silhouette": info.get("silhouette"), "open": info.get("open")}.get(
            column, reveal.get("sheet") if isinstance(reveal, Mapping) else None
        )
        if item:
            _text(
                d, (x + 2, y), _fitted(name_of(view, item, lang), regular, width - 8), regular, dim
            )
        else:
            _text(d, (x + 2, y), "—", regular, MUTED)
    elif column == "side":
        side = info.get("side")
        if side in ("invader", "defender"):
            colour = INVADER if side == "invader" else DEFENDER
            word = _fitted(t(lang, f"esper.board.side.{side}"), regular, width - 6)
            _text(d, (x + 2, y), word, regular, colour)
        else:
            _text(d, (x + 2, y), "—", regular, MUTED)
    elif column == "spot":
        spot = info.get("spot")
        _text(d, (x + width / 2, y), str(spot) if spot else "—", bold, dim if spot else MUTED, "mm")
    elif column in ("damage", "info", "abilities"):
        value = info.get(column) or 0
        colour = {"damage": (255, 120, 110), "info": (110, 220, 240), "abilities": TEXT}[column]
        _text(
            d,
            (x + width / 2, y),
            str(value),
            bold if value else regular,
            colour if value else MUTED,
            "mm",
        )
    elif column == "alignment":
        alignment = str(reveal.get("alignment") or "") if isinstance(reveal, Mapping) else ""
        if alignment in ALIGNMENT_COLOURS:
            word = t(lang, f"esper.board.alignment.{alignment.lower()}")
            colour = ALIGNMENT_COLOURS[alignment]
            _text(d, (x + 2, y), _fitted(word, bold, width - 6), bold, colour)
        else:
            _text(d, (x + 2, y), "—", regular, MUTED)
    elif column == "card":
        card = str(reveal.get("card") or "") if isinstance(reveal, Mapping) else ""
        _playing_card(d, (x + width / 2, y), card)
    elif column == "grade":
        grade = str((view.get("grades") or {}).get(seat.letter) or "")
        if grade in GRADE_COLOURS:
            colour = GRADE_COLOURS[grade]
            d.rounded_rectangle(
                CANVAS.rect((x + width / 2 - 12, y - 11, x + width / 2 + 12, y + 11)),
                radius=CANVAS.s(5),
                fill=colour,
            )
            _text(d, (x + width / 2, y + 0.5), grade, _font(16, True), _ink_on(colour), "mm")
        else:
            _text(d, (x + width / 2, y), "—", regular, MUTED, "mm")
    elif column == "marks":
        _marks(d, view, seat, (x + 4, y), width - 4)


def _marks(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], seat: Seat, at: Point, width: float
) -> None:
    """Party number chip, dead, black hole and declared marks (the legend names them)."""
    x, y = at
    if seat.party is not None:
        colour = party_colour(seat.party)
        label = str(seat.party)
        fnt = _font(12, True)
        w = max(22.0, fnt.getlength(label) / SS + 12)
        d.rounded_rectangle(CANVAS.rect((x, y - 9, x + w, y + 9)), radius=CANVAS.s(9), fill=colour)
        _text(d, (x + w / 2, y + 0.5), label, fnt, _ink_on(colour), "mm")
        x += w + 8
    if seat.dead:
        _dead_mark(d, (x + 6, y))
        x += 20
    if seat.black_hole:
        _hole_mark(d, (x + 8, y))
        x += 24
    if seat.info.get("declared") or seat.letter == view.get("declaration"):
        _flag(d, (x + 8, y))
        x += 24


def _suit(d: ImageDraw.ImageDraw, at: Point, suit: str, size: float, fill: Colour) -> None:
    """A card suit as shapes (the bundled font has no ♠♥♦♣)."""
    x, y = at
    h = size / 2
    if suit == "D":
        d.polygon(
            [CANVAS.sp(p) for p in ((x, y - h), (x + h * 0.72, y), (x, y + h), (x - h * 0.72, y))],
            fill=fill,
        )
        return
    if suit == "C":
        r = h * 0.42
        for cx, cy in ((x, y - h * 0.45), (x - h * 0.48, y + h * 0.1), (x + h * 0.48, y + h * 0.1)):
            _circle(d, (cx, cy), r, fill=fill)
        d.polygon(
            [CANVAS.sp(p) for p in ((x, y), (x - h * 0.3, y + h), (x + h * 0.3, y + h))], fill=fill
        )
        return
    # heart and spade: two lobes and a point; the spade is a heart upside down with a stem
    sign = 1 if suit == "H" else -1
    r = h * 0.48
    lobe_y = y - sign * h * 0.35
    for cx in (x - h * 0.45, x + h * 0.45):
        _circle(d, (cx, lobe_y), r, fill=fill)
    tip = y + sign * h
    d.polygon(
        [
            CANVAS.sp(p)
            for p in (
                (x - h * 0.92, lobe_y + sign * r * 0.25),
                (x + h * 0.92, lobe_y + sign * r * 0.25),
                (x, tip),
            )
        ],
        fill=fill,
    )
    if suit == "S":
        d.polygon(
            [CANVAS.sp(p) for p in ((x, y), (x - h * 0.3, y + h), (x + h * 0.3, y + h))], fill=fill
        )


def _playing_card(d: ImageDraw.ImageDraw, at: Point, card: str) -> None:
    x, y = at
    suit = SUITS.get(card[-1:]) if card else None
    rank = renderable(card[:-1] if suit else card)
    if not rank:
        _text(d, at, "—", _font(13), MUTED, "mm")
        return
    d.rounded_rectangle(
        CANVAS.rect((x - 22, y - 11, x + 22, y + 11)), radius=CANVAS.s(4), fill=(246, 244, 236)
    )
    colour: Colour = (200, 36, 36) if card[-1:] in RED_SUITS else INK
    fnt = _font(14, True)
    if suit is None:
        _text(d, at, _fitted(rank, fnt, 40), fnt, colour, "mm")
        return
    _text(d, (x + 1, y + 0.5), rank, fnt, colour, "rm")
    _suit(d, (x + 9, y), suit, 13, colour)


# --- the whole board -----------------------------------------------------------------------------


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    """The public board as PNG bytes, drawn from ``view`` alone (``names``: seat -> player)."""
    seats = _seats(view)
    shown = display_names(
        names, [s.letter for s in seats], lambda seat: t(lang, "esper.board.player", seat=seat)
    )
    width, height = board_size(len(seats))
    img = CANVAS.new_board(width, height, HEADER)
    d = ImageDraw.Draw(img)
    CANVAS.header_text(
        d,
        _stage_text(view, lang),
        step_text(view, lang),
        height=HEADER,
        right=WIDTH - 16,
        sizes=(17, 15, 13),
    )
    for planet in range(1, PLANETS + 1):
        _planet(d, planet, view, lang)
    d.rounded_rectangle(
        CANVAS.rect((MARGIN - 4, STRIP_Y, WIDTH - MARGIN + 4, STRIP_Y + STRIP_H)),
        radius=CANVAS.s(10),
        fill=CARD_BG,
    )
    _rafnor(d, view, lang)
    _legend(d, lang)
    ambush = spot_centre(view.get("ambush"))
    if ambush is not None:
        _ambush(d, ambush)
    _moves(d, view)
    _pieces(d, view, seats)
    _roster(d, view, lang, seats, shown)
    return CANVAS.png(img)


__all__: Sequence[str] = ("board_size", "name_of", "render", "spot_centre", "step_text")
