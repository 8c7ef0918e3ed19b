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

from bot.i18n import has, t
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


def board_size(seats: int, view: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """The board's size for ``seats`` seats (the roster grows with them); with ``view``, room
    for what it shows besides (the base's taller map, a combat's panel)."""
    top = roster_top(view or {})
    return WIDTH, round(top + ROSTER_HEAD + ROW_H * max(seats, 1) + BOTTOM)


def roster_top(view: Mapping[str, Any]) -> float:
    """Where the roster starts: under the planets' strip or the base's, and the combat panel."""
    top: float = BASE_ROSTER_Y if is_base(view) else ROSTER_Y
    combat = view.get("combat")
    if isinstance(combat, Mapping):
        top += combat_height(view) + 6
    return top


def is_base(view: Mapping[str, Any]) -> bool:
    """The secret base is drawn (in play, or at a game's end there)."""
    stage = view.get("stage")
    return stage == "base" or (stage == "over" and isinstance(view.get("base"), Mapping))


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
    if step in ("keys", "place"):
        return t(lang, f"esper.board.step.{step}")
    combat = view.get("combat")
    if step in COMBAT_STEPS and isinstance(combat, Mapping):
        attack = combat.get("attack") if isinstance(combat.get("attack"), Mapping) else {}
        seat = combat.get("current") if step == "cturn" else (attack or {}).get("target")
        head = t(
            lang,
            "esper.board.step.combat",
            spot=combat.get("spot") or "?",
            round=combat.get("round") or 1,
        )
        return head + " · " + t(lang, f"esper.board.step.{step}", seat=seat or "?")
    # ``turn`` counts the normal turns played: the one being played is the next
    turn = view.get("turn")
    played = turn if isinstance(turn, int) else 0
    if view.get("active"):
        text = t(lang, "esper.board.step.turn", turn=played + 1, seat=view.get("active"))
    else:
        text = t(lang, "esper.board.step.turn_only", turn=played)
    if step in ("direction", "party", "after", "objection", "path"):
        seat = view.get("declaration") or view.get("active") or "?"
        text += " · " + t(lang, f"esper.board.step.{step}", seat=seat)
    return text


def _stage_text(view: Mapping[str, Any], lang: str) -> str:
    stage = view.get("stage")
    key = f"esper.board.stage.{stage}" if stage in ("setup", "planets", "base", "over") else None
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
    roster_y = roster_top(view)
    y = roster_y + ROSTER_HEAD / 2
    for column, width in columns:
        if column not in ("seat", "marks"):
            label = _fitted(t(lang, f"esper.board.col.{column}"), head_font, width - 6)
            at = (x + width / 2, y) if column in CENTRED else (x + 2, y)
            _text(d, at, label, head_font, MUTED, "mm" if column in CENTRED else "lm")
        x += width
    d.line(
        [
            CANVAS.sp((MARGIN, roster_y + ROSTER_HEAD)),
            CANVAS.sp((WIDTH - MARGIN, roster_y + ROSTER_HEAD)),
        ],
        fill=(60, 64, 74),
        width=CANVAS.s(1),
    )
    for i, seat in enumerate(seats):
        top = roster_y + ROSTER_HEAD + i * ROW_H
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
        if not spot and info.get("outside") and not seat.dead:
            word = _fitted(t(lang, "esper.board.outside"), regular, width - 4)
            _text(d, (x + width / 2, y), word, regular, MUTED, "mm")
        else:
            label = str(spot) if spot else "—"
            _text(d, (x + width / 2, y), label, bold, dim if spot else MUTED, "mm")
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


# --- the secret base (part 2) --------------------------------------------------------------------


def base_cell(spot: object) -> tuple[float, float, float, float] | None:
    """The box of base spot ``spot`` ("B3": column B, row 3) in output pixels."""
    if not isinstance(spot, str) or len(spot) != 2 or spot[0] not in BASE_COLUMNS:
        return None
    if not spot[1].isdigit() or not 1 <= int(spot[1]) <= BASE_ROWS:
        return None
    x = GRID_X + BASE_COLUMNS.index(spot[0]) * BOX_W
    y = GRID_Y + (int(spot[1]) - 1) * BOX_H
    return x, y, x + BOX_W, y + BOX_H


def base_spots() -> list[str]:
    return [f"{c}{r}" for r in range(1, BASE_ROWS + 1) for c in BASE_COLUMNS]


def _base_keys(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The key installations the public view lists (found or destroyed): never any other."""
    base = view.get("base")
    keys = base.get("keys") if isinstance(base, Mapping) else None
    if not isinstance(keys, Mapping):
        return {}
    return {str(k): v for k, v in keys.items() if isinstance(v, Mapping) and base_cell(k)}


def _base_grid(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str) -> None:
    base = view.get("base") if isinstance(view.get("base"), Mapping) else {}
    assert isinstance(base, Mapping)
    up = base.get("up") if isinstance(base.get("up"), Mapping) else {}
    spent = set(base.get("spent") or ())
    keys = _base_keys(view)
    label_font = _font(13, True)
    for i, column in enumerate(BASE_COLUMNS):
        x = GRID_X + (i + 0.5) * BOX_W
        _text(d, (x, GRID_Y - 11), column, label_font, MUTED, "mm")
    for row in range(1, BASE_ROWS + 1):
        y = GRID_Y + (row - 0.5) * BOX_H
        _text(d, (MARGIN + LABEL_W / 2, y), str(row), label_font, MUTED, "mm")
    for spot in base_spots():
        box = base_cell(spot)
        assert box is not None
        card = up.get(spot) if isinstance(up, Mapping) else None
        if card is None:
            _card_back(d, box, spot)
        else:
            _card_face(d, box, spot, name_of(view, card, lang), spot in spent)
        key = keys.get(spot)
        if key is not None:
            fought = combat_spot(view) == spot  # its crossed swords take the corner
            _key_band(d, box, key, view, lang, 26 if fought else 0)


def _card_back(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], spot: str) -> None:
    """A face-down base card: a card back (frame and lozenge) with the spot's name."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(
        CANVAS.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3)),
        radius=CANVAS.s(7),
        fill=BACK,
        outline=BACK_RIM,
        width=CANVAS.s(2),
    )
    d.rounded_rectangle(
        CANVAS.rect((x0 + 9, y0 + 9, x1 - 9, y1 - 9)),
        radius=CANVAS.s(4),
        outline=BACK_MARK,
        width=CANVAS.s(1),
    )
    cx, cy = (x0 + x1) / 2, y0 + 36
    w, h = 24.0, 20.0
    d.polygon(
        [CANVAS.sp(p) for p in ((cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy))],
        fill=prim.shade(BACK, 1.25),
        outline=BACK_MARK,
    )
    _text(d, (cx, cy), spot, _font(14, True), (172, 186, 222), "mm")


def _card_face(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    spot: str,
    name: str,
    spent: bool,
) -> None:
    """A face-up base card: its name, the spot's in a corner; a spent one dimmed and crossed."""
    x0, y0, x1, y1 = box
    fill, rim, ink = (FACE, FACE_RIM, INK) if not spent else (SPENT, SPENT_RIM, MUTED)
    d.rounded_rectangle(
        CANVAS.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3)),
        radius=CANVAS.s(7),
        fill=fill,
        outline=rim,
        width=CANVAS.s(2),
    )
    _text(d, (x0 + 9, y0 + 13), spot, _font(12, True), FACE_NUMBER if not spent else MUTED)
    if spent:
        _cross(d, (x0 + 36, y0 + 13), 4, SPENT_X, 2)
    fnt = _font(13, True)
    lines = _balanced(name, fnt, BOX_W - 14, 2) or _wrap(name, fnt, BOX_W - 14)
    for i, line in enumerate(lines):
        _text(d, ((x0 + x1) / 2, y0 + 30 + 14 * i), line, fnt, ink, "mm")


def _key_band(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    key: Mapping[str, Any],
    view: Mapping[str, Any],
    lang: str,
    inset: float = 0,
) -> None:
    """A found key installation: a gold frame round its spot and a band with its name and the
    durability left (or the damage taken); a destroyed one dark, crossed out."""
    x0, y0, x1, y1 = box
    right = x1 - inset  # the corner badge's right edge
    gone = bool(key.get("destroyed"))
    frame = SPENT_RIM if gone else KEY
    d.rounded_rectangle(
        CANVAS.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1)),
        radius=CANVAS.s(8),
        outline=frame,
        width=CANVAS.s(3),
    )
    top = y1 - 18
    d.rounded_rectangle(
        CANVAS.rect((x0 + 4, top, x1 - 4, y1 - 4)),
        radius=CANVAS.s(4),
        fill=KEY_GONE if gone else KEY_BAND,
    )
    mid = top + 7
    _key_icon(d, (x0 + 12, mid), MUTED if gone else KEY)
    fnt = _font(12)
    name = _fitted(name_of(view, key.get("id"), lang), fnt, BOX_W - 30)
    _text(d, (x0 + 21, mid), name, fnt, MUTED if gone else TEXT)
    if gone:
        width = fnt.getlength(name) / SS
        d.line(
            [CANVAS.sp((x0 + 20, mid)), CANVAS.sp((x0 + 22 + width, mid))],
            fill=(255, 150, 140),
            width=CANVAS.s(1),
        )
    # the durability left (or the damage taken) in the card's top right corner
    status = key_status(key, lang)
    small = _font(12, True)
    w = small.getlength(status) / SS + 10
    d.rounded_rectangle(
        CANVAS.rect((right - 6 - w, y0 + 5, right - 6, y0 + 21)),
        radius=CANVAS.s(4),
        fill=KEY_GONE if gone else KEY_BAND,
        outline=(255, 150, 140) if gone else KEY,
        width=CANVAS.s(1),
    )
    _text(d, (right - 6 - w / 2, y0 + 13), status, small, (255, 170, 160) if gone else KEY, "mm")


def key_status(key: Mapping[str, Any], lang: str) -> str:
    """ "7/12" left when the view gives the printed durability, else the damage taken;
    "destroyed"; "never found" (the game is over and shows where it was)."""
    if key.get("destroyed"):
        return t(lang, "esper.board.key.destroyed")
    if key.get("found") is False:
        return t(lang, "esper.board.key.unfound")
    damage = int(key.get("damage") or 0)
    if isinstance(key.get("durability"), int):
        return t(lang, "esper.board.key.left", n=key["durability"] - damage, of=key["durability"])
    return t(lang, "esper.board.key.damage", n=damage)


def _key_icon(d: ImageDraw.ImageDraw, at: Point, fill: Colour) -> None:
    """A key: a ring and a bit."""
    x, y = at
    _circle(d, (x - 3, y), 3.5, outline=fill, width=2)
    d.line([CANVAS.sp((x + 0.5, y)), CANVAS.sp((x + 7, y))], fill=fill, width=CANVAS.s(2))
    d.line([CANVAS.sp((x + 5, y)), CANVAS.sp((x + 5, y + 3.5))], fill=fill, width=CANVAS.s(2))


def _base_token_places(spot: str, count: int) -> list[Point]:
    """Pieces on a base spot: rows of four across the middle of its cell (a second row above
    the first), clear of the key installation's band."""
    box = base_cell(spot)
    if box is None:
        return []
    x0, y0, x1, _ = box
    step = 2 * BASE_TOKEN + 3
    places: list[Point] = []
    for i in range(count):
        row, col = divmod(i, 4)
        in_row = min(4, count - row * 4)
        cx = (x0 + x1) / 2 + (col - (in_row - 1) / 2) * step
        places.append((cx, y0 + 63 - row * (step - 2)))
    return places


def _base_pieces(d: ImageDraw.ImageDraw, view: Mapping[str, Any], seats: Sequence[Seat]) -> None:
    by_spot: dict[str, list[Seat]] = {}
    for seat in seats:
        spot = seat.info.get("spot")
        if isinstance(spot, str) and base_cell(spot) is not None:
            by_spot.setdefault(spot, []).append(seat)
    active = view.get("active")
    for spot in sorted(by_spot):
        here = by_spot[spot]
        for seat, at in zip(here, _base_token_places(spot, len(here)), strict=True):
            _token(d, at, seat, seat.letter == active, BASE_TOKEN)


def _base_moves(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """This step's moves: a straight arrow cell to cell (a teleport, an escape dashed); a piece
    placed or come in from outside, a white frame round its cell."""
    for move in view.get("last") or ():
        if not isinstance(move, Mapping):
            continue
        end_box = base_cell(move.get("to"))
        if end_box is None:
            continue
        start_box = base_cell(move.get("from"))
        if start_box is None or start_box == end_box:
            x0, y0, x1, y1 = end_box
            d.rounded_rectangle(
                CANVAS.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1)),
                radius=CANVAS.s(8),
                outline=MOVE,
                width=CANVAS.s(2),
            )
            continue
        start = ((start_box[0] + start_box[2]) / 2, (start_box[1] + start_box[3]) / 2)
        end = ((end_box[0] + end_box[2]) / 2, (end_box[1] + end_box[3]) / 2)
        length = math.dist(start, end)
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        # from near the edge of the cell left to just inside the cell reached: the arrow
        # crosses the border between them, clear of the names, pieces and corner marks
        half = abs(ux) * BOX_W / 2 + abs(uy) * BOX_H / 2
        inset = max(half - 12, 10)
        jump = move.get("how") != "move"
        prim.arrow(
            d,
            [
                CANVAS.sp((start[0] + ux * inset, start[1] + uy * inset)),
                CANVAS.sp((end[0] - ux * inset, end[1] - uy * inset)),
            ],
            TELEPORT if jump else MOVE,
            CANVAS.s(4),
            casing=INK,
            casing_width=CANVAS.s(2),
            dashed=(CANVAS.s(9), CANVAS.s(6)) if jump else None,
            head_length=CANVAS.s(12),
        )


def combat_spot(view: Mapping[str, Any]) -> str | None:
    combat = view.get("combat")
    spot = combat.get("spot") if isinstance(combat, Mapping) else None
    return spot if isinstance(spot, str) else None


def _combat_spot(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """The spot a combat is fought on: a red frame and crossed swords (the base), or crossed
    swords beside the spot (the planets)."""
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return
    spot = combat.get("spot")
    box = base_cell(spot) if is_base(view) else None
    if box is not None:
        x0, y0, x1, y1 = box
        d.rounded_rectangle(
            CANVAS.rect((x0 - 1, y0 - 1, x1 + 1, y1 + 1)),
            radius=CANVAS.s(9),
            outline=COMBAT,
            width=CANVAS.s(3),
        )
        _swords(d, (x1 - 15, y0 + 13), 16)
        return
    at = spot_centre(spot)
    if at is None:
        return
    _circle(d, at, SPOT + 3, outline=COMBAT, width=3)
    # the swords on the spot's inner side: its pieces take the outer side first
    found = parse_spot(spot)
    if found is not None:
        cx, cy = planet_centre(found[0])
        a = math.atan2(at[1] - cy, at[0] - cx)
        r = RING - SPOT - 2
        _swords(d, (cx + r * math.cos(a), cy + r * math.sin(a)), 16)
    else:
        _swords(d, (at[0] - SPOT + 4, at[1] - SPOT + 4), 16)


def _swords(d: ImageDraw.ImageDraw, at: Point, size: float) -> None:
    _circle(d, at, size * 0.68, fill=(60, 16, 16), outline=COMBAT, width=2)
    prim.crossed_swords(d, CANVAS.sp(at), CANVAS.s(size * 0.8), COMBAT)


def _around(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], seats: Sequence[Seat], lang: str
) -> None:
    """The strip's left part: the seats waiting around the base, in rows of six."""
    fnt = _font(13, True)
    lines = _wrap(t(lang, "esper.board.base.around"), fnt, 82)
    mid = BASE_STRIP_Y + STRIP_H / 2
    for i, line in enumerate(lines):
        _text(d, (MARGIN, mid + (i - (len(lines) - 1) / 2) * 16), line, fnt, TEXT)
    outside = [s for s in seats if s.info.get("outside") and not s.dead]
    if not outside:
        _text(d, (MARGIN + 92, mid), "—", _font(13), MUTED)
        return
    step = 2 * TOKEN + 3
    active = view.get("active")
    for i, seat in enumerate(outside[:12]):
        row, col = divmod(i, 6)
        rows = 1 if len(outside) <= 6 else 2
        y = mid + (row - (rows - 1) / 2) * step
        _token(d, (MARGIN + 92 + TOKEN + col * step, y), seat, seat.letter == active)


def _base_legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    fnt = _font(12)
    x0 = float(MARGIN + AROUND_W)
    col_w, row_h = (WIDTH - MARGIN - x0) / 3, 26.0
    y0 = BASE_STRIP_Y + STRIP_H / 2 - row_h
    items = ("down", "up", "spent", "key", "active", "combat", "move", "teleport", "dead")
    for i, item in enumerate(items):
        col, row = divmod(i, 3)
        x, y = x0 + col * col_w, y0 + row * row_h
        _base_legend_icon(d, item, (x + 10, y))
        label = _fitted(t(lang, f"esper.board.legend.{item}"), fnt, col_w - 30)
        _text(d, (x + 24, y), label, fnt, MUTED)


def _base_legend_icon(d: ImageDraw.ImageDraw, item: str, at: Point) -> None:
    x, y = at
    if item in ("down", "up", "spent"):
        fill, rim = {"down": (BACK, BACK_RIM), "up": (FACE, FACE_RIM), "spent": (SPENT, SPENT_RIM)}[
            item
        ]
        d.rounded_rectangle(
            CANVAS.rect((x - 9, y - 7, x + 9, y + 7)), radius=CANVAS.s(3), fill=fill, outline=rim
        )
        if item == "spent":
            _cross(d, at, 4, SPENT_X, 2)
    elif item == "key":
        d.rounded_rectangle(
            CANVAS.rect((x - 10, y - 8, x + 10, y + 8)),
            radius=CANVAS.s(3),
            outline=KEY,
            width=CANVAS.s(2),
        )
        _key_icon(d, (x - 1, y), KEY)
    elif item == "combat":
        _swords(d, at, 16)
    else:
        _legend_icon(d, item, at)


# --- a combat's panel ----------------------------------------------------------------------------


def _combat_rows(view: Mapping[str, Any]) -> list[str]:
    """The participants in initiative order (those without a card yet after them)."""
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return []
    seats = [str(s) for s in combat.get("seats") or ()]
    order = [str(s) for s in combat.get("order") or () if s in seats]
    return order + [s for s in seats if s not in order]


def combat_height(view: Mapping[str, Any]) -> float:
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return 0
    height = PANEL_HEAD + PANEL_ROW * max(len(_combat_rows(view)), 1) + 8
    if isinstance(combat.get("attack"), Mapping):
        height += PANEL_LINE
    if combat.get("key"):
        height += PANEL_ROW
    if combat.get("late"):
        height += PANEL_LINE
    return height


def _combat_panel(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seats: Sequence[Seat],
    shown: Mapping[str, str],
    top: float,
) -> None:
    """Who fights, in initiative order: the seat to act marked, each one's initiative card,
    hand size (never the cards), henchmen and maintained defence; the attack being answered;
    a key installation that is a target; who arrives next round."""
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return
    height = combat_height(view)
    d.rounded_rectangle(
        CANVAS.rect((MARGIN - 4, top, WIDTH - MARGIN + 4, top + height)),
        radius=CANVAS.s(10),
        fill=CARD_BG,
        outline=prim.shade(COMBAT, 0.6),
        width=CANVAS.s(2),
    )
    y = top + PANEL_HEAD / 2 + 2
    _swords(d, (MARGIN + 12, y), 16)
    title = t(
        lang,
        "esper.board.combat.title",
        spot=combat.get("spot") or "?",
        round=combat.get("round") or 1,
    )
    fnt = _font(15, True)
    _text(d, (MARGIN + 28, y), _fitted(title, fnt, WIDTH - 2 * MARGIN - 40), fnt, TEXT)
    y = top + PANEL_HEAD
    by_letter = {s.letter: s for s in seats}
    attack = combat.get("attack") if isinstance(combat.get("attack"), Mapping) else None
    if attack is not None:
        _attack_line(d, attack, view, lang, by_letter, y + PANEL_LINE / 2)
        y += PANEL_LINE
    for seat in _combat_rows(view):
        _combat_row(d, view, lang, by_letter.get(seat, Seat(seat, {})), shown, y)
        y += PANEL_ROW
    key = combat.get("key")
    if key:
        mid = y + PANEL_ROW / 2
        _key_icon(d, (MARGIN + 34, mid), KEY)
        found = _base_keys(view).get(str(key)) or {}
        label = t(lang, "esper.board.combat.key", spot=key)
        name = name_of(view, found.get("id"), lang) if found.get("id") else ""
        regular, bold = _font(13), _font(13, True)
        label = _fitted(label, bold, 220)
        _text(d, (MARGIN + 48, mid), label, bold, KEY)
        if name:
            x = MARGIN + 48 + bold.getlength(label) / SS + 12
            text = f"{name} · {key_status(found, lang)}"
            _text(d, (x, mid), _fitted(text, regular, WIDTH - MARGIN - x - 8), regular, TEXT)
        y += PANEL_ROW
    late = [str(s) for s in combat.get("late") or ()]
    if late:
        fnt = _font(12)
        text = t(lang, "esper.board.combat.late", seats=", ".join(late))
        _text(d, (MARGIN + 8, y + PANEL_LINE / 2), _fitted(text, fnt, WIDTH - 40), fnt, MUTED)


def _attack_line(
    d: ImageDraw.ImageDraw,
    attack: Mapping[str, Any],
    view: Mapping[str, Any],
    lang: str,
    by_letter: Mapping[str, Seat],
    y: float,
) -> None:
    """The attack being answered: the attacker's token, an arrow, the target's token (or the key
    installation), then level, attribute and firepower or fixed column."""
    x = MARGIN + 14.0
    fnt, bold = _font(13), _font(13, True)
    _text(d, (x, y), t(lang, "esper.board.combat.attack"), bold, (255, 150, 140))
    x += fnt.getlength(t(lang, "esper.board.combat.attack")) / SS + 14
    by = str(attack.get("by") or "")
    r = 9.0
    if by in by_letter:
        _token(d, (x + r, y), by_letter[by], False, r)
    x += 2 * r + 4
    prim.arrow(
        d,
        [CANVAS.sp((x, y)), CANVAS.sp((x + 24, y))],
        TEXT,
        CANVAS.s(2),
        head_length=CANVAS.s(7),
    )
    x += 30
    target = str(attack.get("target") or "")
    if target in by_letter:
        _token(d, (x + r, y), by_letter[target], False, r)
        x += 2 * r + 8
    elif target:
        _key_icon(d, (x + 6, y), KEY)
        _text(d, (x + 18, y), target, bold, KEY)
        x += 24 + bold.getlength(target) / SS + 8
    parts = [t(lang, "esper.board.combat.level", n=attack.get("level") or "?")]
    attribute = attack.get("attribute")
    if attribute:
        key = f"esper.board.attribute.{attribute}"
        parts.append(t(lang, key) if has(key) else renderable(str(attribute)))
    column = column_label(attack.get("column"))
    if column:
        parts.append(t(lang, "esper.board.combat.column", column=column))
    elif attack.get("firepower") is not None:
        parts.append(t(lang, "esper.board.combat.firepower", n=attack["firepower"]))
    if attack.get("card"):
        parts.insert(0, name_of(view, attack["card"], lang))
    text = _fitted(" · ".join(parts), fnt, WIDTH - MARGIN - x - 8)
    _text(d, (x, y), text, fnt, TEXT)


COLUMN_LABELS = ("1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1")


def column_label(column: object) -> str | None:
    """A damage table column as printed ("3:1"): the view may give its index or its label."""
    if isinstance(column, int) and not isinstance(column, bool):
        return COLUMN_LABELS[column] if 0 <= column < len(COLUMN_LABELS) else None
    return renderable(str(column)) if column else None


def _combat_row(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seat: Seat,
    shown: Mapping[str, str],
    top: float,
) -> None:
    combat = view.get("combat")
    assert isinstance(combat, Mapping)
    y = top + PANEL_ROW / 2
    current = combat.get("current") == seat.letter
    if current:
        d.rounded_rectangle(
            CANVAS.rect((MARGIN, top + 1, WIDTH - MARGIN, top + PANEL_ROW - 1)),
            radius=CANVAS.s(5),
            fill=ROW_ACTIVE,
        )
        _text(d, (MARGIN + 8, y), "▶", _font(12, True), GOLD, "mm")
    _token(d, (MARGIN + 30, y), seat, current)
    bold, regular = _font(13, True), _font(13)
    name = shown.get(seat.letter) or seat.letter
    _text(d, (MARGIN + 48, y), _fitted(name, bold, 128), bold, TEXT)
    card = str((combat.get("cards") or {}).get(seat.letter) or "")
    if card:
        _playing_card(d, (MARGIN + 206, y), card)
    hand = (combat.get("hands") or {}).get(seat.letter, 0)
    _text(d, (MARGIN + 240, y), t(lang, "esper.board.combat.hand", n=hand), regular, TEXT)
    henchmen = (combat.get("henchmen") or {}).get(seat.letter)
    if henchmen:
        word = _fitted(t(lang, "esper.board.combat.henchmen", n=henchmen), regular, 96)
        _text(d, (MARGIN + 318, y), word, regular, MUTED)
    held = (combat.get("maintained") or {}).get(seat.letter)
    if isinstance(held, Mapping):
        x = MARGIN + 420.0
        _shield(d, (x + 7, y))
        level = t(lang, "esper.board.combat.level", n=held.get("level") or "?")
        label = f"{name_of(view, held.get('card'), lang)} · {level}"
        _text(d, (x + 18, y), _fitted(label, regular, WIDTH - MARGIN - x - 22), regular, INVADER)


def _shield(d: ImageDraw.ImageDraw, at: Point) -> None:
    x, y = at
    d.polygon(
        [
            CANVAS.sp(p)
            for p in ((x - 6, y - 7), (x + 6, y - 7), (x + 6, y), (x, y + 8), (x - 6, y))
        ],
        fill=INVADER,
    )


def _render_base(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seats: Sequence[Seat],
) -> None:
    _base_grid(d, view, lang)
    d.rounded_rectangle(
        CANVAS.rect((MARGIN - 4, BASE_STRIP_Y, WIDTH - MARGIN + 4, BASE_STRIP_Y + STRIP_H)),
        radius=CANVAS.s(10),
        fill=CARD_BG,
    )
    _around(d, view, seats, lang)
    _base_legend(d, lang)
    _combat_spot(d, view)
    _base_moves(d, view)
    _base_pieces(d, view, seats)


# --- the whole board -----------------------------------------------------------------------------


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    """The public board as PNG bytes, drawn from ``view`` alone (``names``: seat -> player)."""
    seats = _seats(view)
    shown = display_names(
        names, [s.letter for s in seats], lambda seat: t(lang, "esper.board.player", seat=seat)
    )
    width, height = board_size(len(seats), view)
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
    if is_base(view):
        _render_base(d, view, lang, seats)
        panel_top = float(BASE_ROSTER_Y)
    else:
        _render_planets(d, view, lang, seats)
        panel_top = float(ROSTER_Y)
    if isinstance(view.get("combat"), Mapping):
        _combat_panel(d, view, lang, seats, shown, panel_top)
    _roster(d, view, lang, seats, shown)
    return CANVAS.png(img)


def _render_planets(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str, seats: Sequence[Seat]
) -> None:
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
    _combat_spot(d, view)
    _moves(d, view)
    _pieces(d, view, seats)


__all__: Sequence[str] = (
    "base_cell",
    "board_size",
    "name_of",
    "render",
    "roster_top",
    "spot_centre",
    "step_text",
)
