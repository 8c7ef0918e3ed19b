"""What every part of the Esper war board draws with (pure: Pillow through :mod:`bot.render`).

The layout in output pixels and the palette; where the planets' spots are drawn; the reads of the
public view every part makes (a name, the stage, a combat's spot); the small drawing helpers
(fonts, text, circles, wrapping); a seat's token and the marks drawn in more than one part (the
legend's icons, crossed swords, a playing card). :mod:`.board` draws the whole board with these,
:mod:`.base_board` the secret base and :mod:`.combat_board` a combat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.render import draw as prim
from bot.render.canvas import GOLD, INK, MUTED, TEXT, Supersample
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

# The secret base (part 2): a 6×6 grid, column letters over it and row numbers left of it, then
# a strip with the seats waiting around the base and the legend, as the planets' strip.
BASE_COLUMNS = "ABCDEF"
BASE_ROWS = 6
LABEL_W = 22
BOX_W = (WIDTH - 2 * MARGIN - LABEL_W) // len(BASE_COLUMNS)
BOX_H = 92
GRID_X = MARGIN + LABEL_W
GRID_Y = MAP_Y + 22
BASE_STRIP_Y = GRID_Y + BASE_ROWS * BOX_H + 8
BASE_ROSTER_Y = BASE_STRIP_Y + STRIP_H + 6
AROUND_W = 250  # the strip's left part: "around the base" and the pieces waiting there
BASE_TOKEN = 11.0

# A combat's panel, above the roster in either stage.
COMBAT_STEPS = ("entry", "precombat", "cturn", "sync", "defend", "block", "round_end")
PANEL_HEAD = 30
PANEL_ROW = 26
PANEL_LINE = 22

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
BACK = (38, 50, 86)  # a face-down base card
BACK_RIM = (92, 112, 168)
BACK_MARK = (70, 88, 140)
KEY = (236, 186, 64)
KEY_BAND = (92, 62, 20)
KEY_GONE = (70, 40, 40)
COMBAT = (236, 72, 72)
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
# colour of the seat to play, nor the plain token's near-white. Any two stay apart under
# protanopia, deuteranopia and tritanopia as well as normal vision (CAM02-UCS ΔE ≥ 20:
# tests/render/test_palette.py), and the roster's chip gives each seat's party by number.
PARTY_COLOURS: tuple[Colour, ...] = (
    (90, 195, 225),
    (210, 45, 135),
    (180, 255, 165),
    (240, 135, 150),
    (150, 120, 255),
    (165, 150, 15),
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


# --- geometry ------------------------------------------------------------------------------------


def planet_centre(planet: int) -> Point:
    """The centre of planet ``planet`` (1–6) in output pixels."""
    col, row = (planet - 1) % 3, (planet - 1) // 3
    return col * CELL_W + CELL_W / 2, MAP_Y + row * CELL_H + CELL_H / 2


def spot_angle(index: int) -> float:
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
    a = spot_angle(found[1])
    return cx + RING * math.cos(a), cy + RING * math.sin(a)


def is_base(view: Mapping[str, Any]) -> bool:
    """The secret base is drawn (in play, or at a game's end there)."""
    stage = view.get("stage")
    return stage == "base" or (stage == "over" and isinstance(view.get("base"), Mapping))


def combat_spot(view: Mapping[str, Any]) -> str | None:
    combat = view.get("combat")
    spot = combat.get("spot") if isinstance(combat, Mapping) else None
    return spot if isinstance(spot, str) else None


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


# --- small drawing helpers -----------------------------------------------------------------------


def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    return CANVAS.font(max(size, MIN_FONT), bold)


def write(
    d: ImageDraw.ImageDraw,
    at: Point,
    value: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    anchor: str = "lm",
    halo: tuple[int, ...] | None = None,
) -> None:
    prim.text(d, CANVAS.sp(at), value, fnt, fill, anchor, halo, CANVAS.s(2) if halo else 0)


def fitted(value: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    return fit(value, fnt, CANVAS.s(width))


def circle(
    d: ImageDraw.ImageDraw,
    at: Point,
    r: float,
    fill: tuple[int, ...] | None = None,
    outline: tuple[int, ...] | None = None,
    width: float = 0,
) -> None:
    box = CANVAS.rect((at[0] - r, at[1] - r, at[0] + r, at[1] + r))
    d.ellipse(box, fill=fill, outline=outline, width=CANVAS.s(width) if outline else 0)


def cross(d: ImageDraw.ImageDraw, at: Point, half: float, fill: Colour, width: float) -> None:
    x, y = at
    for dx in (-half, half):
        d.line(
            [CANVAS.sp((x - dx, y - half)), CANVAS.sp((x + dx, y + half))],
            fill=fill,
            width=CANVAS.s(width),
        )


def ink_on(fill: Sequence[int]) -> Colour:
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


def wrap(value: str, fnt: ImageFont.FreeTypeFont, width: float, most: int = 2) -> list[str]:
    """``value`` in up to ``most`` lines, or one line cut with an ellipsis."""
    return _lines(value, fnt, width, most) or [fit(value, fnt, CANVAS.s(width))]


def balanced(value: str, fnt: ImageFont.FreeTypeFont, width: float, most: int) -> list[str] | None:
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


def party_colour(party: int | None) -> Colour:
    if party is None:
        return TOKEN_PLAIN
    return PARTY_COLOURS[(party - 1) % len(PARTY_COLOURS)]


def token(d: ImageDraw.ImageDraw, at: Point, seat: Seat, active: bool, r: float = TOKEN) -> None:
    """A seat's piece: its letter on its party's colour, dimmed if dead, purple-rimmed in a black
    hole, ringed in gold when it is the seat to play."""
    fill: Colour = party_colour(seat.party)
    rim, rim_w = INK, 2.0
    if seat.black_hole:
        fill, rim, rim_w = HOLE_FILL, HOLE, 3.0
    if seat.dead:
        fill = DEAD
    if active:
        circle(d, at, r + 4.5, outline=GOLD, width=3)
    circle(d, at, r, fill=fill, outline=rim, width=rim_w)
    letter = seat.letter[:1]
    write(d, (at[0], at[1] + 0.5), letter, font(15 if r >= TOKEN else 13, True), ink_on(fill), "mm")
    if seat.dead:
        d.line(
            [
                CANVAS.sp((at[0] - r * 0.7, at[1] + r * 0.7)),
                CANVAS.sp((at[0] + r * 0.7, at[1] - r * 0.7)),
            ],
            fill=AMBUSH,
            width=CANVAS.s(2),
        )


# --- marks ---------------------------------------------------------------------------------------


def legend_icon(d: ImageDraw.ImageDraw, item: str, at: Point) -> None:
    x, y = at
    r = 8.0
    if item == "active":
        circle(d, at, r, outline=GOLD, width=3)
    elif item == "ambush":
        circle(d, at, r - 1, outline=AMBUSH, width=2)
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
        circle(d, at, r, fill=SPENT, outline=SPENT_RIM, width=1)
        cross(d, at, r * 0.55, SPENT_X, 2)
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
            circle(d, (x - 4 + 8 * i, y), 6, fill=colour, outline=INK, width=1)
    elif item == "dead":
        dead_mark(d, at)
    elif item == "black_hole":
        hole_mark(d, at)
    elif item == "declared":
        flag(d, at)


def dead_mark(d: ImageDraw.ImageDraw, at: Point) -> None:
    write(d, at, "†", font(16, True), AMBUSH, "mm")


def hole_mark(d: ImageDraw.ImageDraw, at: Point) -> None:
    circle(d, at, 8, fill=HOLE_FILL, outline=HOLE, width=2)
    circle(d, at, 3.5, fill=(10, 6, 16))


def flag(d: ImageDraw.ImageDraw, at: Point) -> None:
    x, y = at
    d.line([CANVAS.sp((x - 5, y - 8)), CANVAS.sp((x - 5, y + 8))], fill=TEXT, width=CANVAS.s(2))
    d.polygon(
        [CANVAS.sp((x - 4, y - 8)), CANVAS.sp((x + 7, y - 4)), CANVAS.sp((x - 4, y))], fill=GOLD
    )


def swords(d: ImageDraw.ImageDraw, at: Point, size: float) -> None:
    circle(d, at, size * 0.68, fill=(60, 16, 16), outline=COMBAT, width=2)
    prim.crossed_swords(d, CANVAS.sp(at), CANVAS.s(size * 0.8), COMBAT)


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
            circle(d, (cx, cy), r, fill=fill)
        d.polygon(
            [CANVAS.sp(p) for p in ((x, y), (x - h * 0.3, y + h), (x + h * 0.3, y + h))], fill=fill
        )
        return
    # heart and spade: two lobes and a point; the spade is a heart upside down with a stem
    sign = 1 if suit == "H" else -1
    r = h * 0.48
    lobe_y = y - sign * h * 0.35
    for cx in (x - h * 0.45, x + h * 0.45):
        circle(d, (cx, lobe_y), r, fill=fill)
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


def playing_card(d: ImageDraw.ImageDraw, at: Point, card: str) -> None:
    x, y = at
    suit = SUITS.get(card[-1:]) if card else None
    rank = renderable(card[:-1] if suit else card)
    if not rank:
        write(d, at, "—", font(13), MUTED, "mm")
        return
    d.rounded_rectangle(
        CANVAS.rect((x - 22, y - 11, x + 22, y + 11)), radius=CANVAS.s(4), fill=(246, 244, 236)
    )
    colour: Colour = (200, 36, 36) if card[-1:] in RED_SUITS else INK
    fnt = font(14, True)
    if suit is None:
        write(d, at, fitted(rank, fnt, 40), fnt, colour, "mm")
        return
    write(d, (x + 1, y + 0.5), rank, fnt, colour, "rm")
    _suit(d, (x + 9, y), suit, 13, colour)
