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

This module draws the planets, the roster and the whole board, over the modules it is built of,
each importing only those listed before it: :mod:`.board_kit` (the layout, the palette, the
helpers and the marks every part draws with), :mod:`.base_board` (the secret base) and
:mod:`.combat_board` (a combat's mark and panel).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import CARD_BG, INK, MUTED, TEXT, display_names
from bot.render.fonts import fit
from cogs.esper.base_board import (
    around,
    base_cell,
    base_grid,
    base_legend,
    base_moves,
    base_pieces,
    key_status,
)
from cogs.esper.board_kit import (
    ALIGNMENT_COLOURS,
    AMBUSH,
    BASE_ROSTER_Y,
    BASE_STRIP_Y,
    BOTTOM,
    CANVAS,
    COMBAT_STEPS,
    DEFENDER,
    DOWN,
    DOWN_RIM,
    EDGE,
    FACE,
    FACE_NUMBER,
    FACE_RIM,
    GRADE_COLOURS,
    HEADER,
    INVADER,
    LEGEND_X,
    MARGIN,
    MOVE,
    ORBIT,
    PLANET,
    PLANET_COLOURS,
    PLANETS,
    PORT,
    PORT_RIM,
    RAFNOR_AT,
    RAFNOR_LABEL_W,
    RING,
    RING_LINE,
    ROSTER_HEAD,
    ROSTER_Y,
    ROW_ACTIVE,
    ROW_ALT,
    ROW_H,
    SPENT,
    SPENT_RIM,
    SPENT_X,
    SPOT,
    SPOTS,
    SS,
    STRIP_H,
    STRIP_Y,
    TELEPORT,
    TOKEN,
    WIDTH,
    Colour,
    Point,
    Seat,
    balanced,
    circle,
    cross,
    dead_mark,
    fitted,
    flag,
    font,
    hole_mark,
    ink_on,
    is_base,
    legend_icon,
    name_of,
    parse_spot,
    party_colour,
    planet_centre,
    playing_card,
    spot_angle,
    spot_centre,
    token,
    wrap,
    write,
)
from cogs.esper.combat_board import column_label, combat_height, combat_mark, combat_panel

# Where each seat's pieces sit round a ring spot: angles (degrees) from the spot's outward
# direction; outward first (free space), then inward (towards the planet's disc). 40° apart on
# the orbit keeps neighbouring tokens apart; the sideways directions are skipped as the
# neighbouring spots lie there.
RING_SLOTS = (0, 40, -40, 80, -80, 180, 140, -140)


# --- geometry ------------------------------------------------------------------------------------


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
    outward = math.degrees(spot_angle(found[1]))
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


# --- words ---------------------------------------------------------------------------------------


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


# --- seats ---------------------------------------------------------------------------------------


def _seats(view: Mapping[str, Any]) -> list[Seat]:
    seats = view.get("seats") or {}
    return [Seat(str(k), v if isinstance(v, Mapping) else {}) for k, v in sorted(seats.items())]


# --- the map -------------------------------------------------------------------------------------


def _planet(d: ImageDraw.ImageDraw, planet: int, view: Mapping[str, Any], lang: str) -> None:
    cx, cy = planet_centre(planet)
    circle(d, (cx, cy), RING, outline=RING_LINE, width=3)
    colour = PLANET_COLOURS[(planet - 1) % len(PLANET_COLOURS)]
    circle(d, (cx, cy), PLANET, fill=colour, outline=prim.shade(colour, 1.35), width=2)
    write(d, (cx, cy), f"P{planet}", font(20, True), TEXT, "mm", halo=prim.shade(colour, 0.5))
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
    fnt = font(12, True)
    write(d, (x, y), fitted(t(lang, "esper.board.port"), fnt, 2 * half - 6), fnt, TEXT, "mm")


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
        circle(d, at, SPOT, fill=DOWN, outline=DOWN_RIM, width=2)
        write(d, at, number, font(18, True), MUTED, "mm")
    elif card == "x":
        circle(d, at, SPOT, fill=SPENT, outline=SPENT_RIM, width=2)
        cross(d, at, SPOT * 0.55, SPENT_X, 3)
        write(d, at, number, font(14, True), MUTED, "mm", halo=SPENT)
    else:
        circle(d, at, SPOT, fill=FACE, outline=FACE_RIM, width=2)
        lines, fnt = _card_lines(name_of(view, card, lang))
        if len(lines) < 3:  # a three-line name leaves no room for the spot's number
            write(d, (x, y - 14), number, font(12, True), FACE_NUMBER, "mm")
            top = y + 3 if len(lines) == 1 else y - 2
        else:
            top = y - 13
        for i, line in enumerate(lines):
            write(d, (x, top + 13 * i), line, fnt, INK, "mm")


def _card_lines(name: str) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """A face-up card's name inside its spot: one line, else two (under the spot's number), else
    three, each at 13 px before 12; else cut with an ellipsis."""
    width = 2 * SPOT - 8
    for most in (1, 2, 3):
        for size in (13, 12):
            fnt = font(size)
            lines = balanced(name, fnt, width, most)
            if lines is not None:
                return lines, fnt
    # a word wider than the spot: the words on their own lines, each cut to fit
    fnt = font(12)
    words = name.split(" ")
    if len(words) > 3:
        words = [*words[:2], " ".join(words[2:])]
    return [fit(word, fnt, CANVAS.s(width)) for word in words], fnt


def _ambush(d: ImageDraw.ImageDraw, at: Point) -> None:
    """A red crosshair ring: unlike the gold ring of the seat to play, it has ticks."""
    r = SPOT + 5
    circle(d, at, r, outline=AMBUSH, width=3)
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
    fnt = font(13, True)
    lines = wrap(t(lang, "esper.board.rafnor"), fnt, RAFNOR_LABEL_W - 8)
    for i, line in enumerate(lines):
        y = RAFNOR_AT[1] + (i - (len(lines) - 1) / 2) * 16
        write(d, (MARGIN, y), line, fnt, TEXT)


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
                circle(d, end, SPOT + 5, outline=MOVE, width=2)
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
        a0 = math.degrees(spot_angle(a[1]))
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
            token(d, at, seat, seat.letter == active)


# --- the legend ----------------------------------------------------------------------------------


def _legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    fnt = font(12)
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
        legend_icon(d, item, (x + 10, y))
        label = fitted(t(lang, f"esper.board.legend.{item}"), fnt, col_w - 30)
        write(d, (x + 24, y), label, fnt, MUTED)


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
    head_font = font(12, True)
    x = float(MARGIN)
    roster_y = roster_top(view)
    y = roster_y + ROSTER_HEAD / 2
    for column, width in columns:
        if column not in ("seat", "marks"):
            label = fitted(t(lang, f"esper.board.col.{column}"), head_font, width - 6)
            at = (x + width / 2, y) if column in CENTRED else (x + 2, y)
            write(d, at, label, head_font, MUTED, "mm" if column in CENTRED else "lm")
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
    regular, bold = font(13), font(13, True)
    dim = MUTED if seat.dead else TEXT
    reveal = (view.get("reveal") or {}).get(seat.letter) or {}
    if column == "seat":
        token(d, (x + 11, y), seat, active)
    elif column == "player":
        write(d, (x + 2, y), fitted(shown[seat.letter], bold, width - 8), bold, dim)
    elif column in ("silhouette", "open", "sheet"):
        item = {"silhouette": info.get("silhouette"), "open": info.get("open")}.get(
            column, reveal.get("sheet") if isinstance(reveal, Mapping) else None
        )
        if item:
            write(
                d, (x + 2, y), fitted(name_of(view, item, lang), regular, width - 8), regular, dim
            )
        else:
            write(d, (x + 2, y), "—", regular, MUTED)
    elif column == "side":
        side = info.get("side")
        if side in ("invader", "defender"):
            colour = INVADER if side == "invader" else DEFENDER
            word = fitted(t(lang, f"esper.board.side.{side}"), regular, width - 6)
            write(d, (x + 2, y), word, regular, colour)
        else:
            write(d, (x + 2, y), "—", regular, MUTED)
    elif column == "spot":
        spot = info.get("spot")
        if not spot and info.get("outside") and not seat.dead:
            word = fitted(t(lang, "esper.board.outside"), regular, width - 4)
            write(d, (x + width / 2, y), word, regular, MUTED, "mm")
        else:
            label = str(spot) if spot else "—"
            write(d, (x + width / 2, y), label, bold, dim if spot else MUTED, "mm")
    elif column in ("damage", "info", "abilities"):
        value = info.get(column) or 0
        colour = {"damage": (255, 120, 110), "info": (110, 220, 240), "abilities": TEXT}[column]
        write(
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
            write(d, (x + 2, y), fitted(word, bold, width - 6), bold, colour)
        else:
            write(d, (x + 2, y), "—", regular, MUTED)
    elif column == "card":
        card = str(reveal.get("card") or "") if isinstance(reveal, Mapping) else ""
        playing_card(d, (x + width / 2, y), card)
    elif column == "grade":
        grade = str((view.get("grades") or {}).get(seat.letter) or "")
        if grade in GRADE_COLOURS:
            colour = GRADE_COLOURS[grade]
            d.rounded_rectangle(
                CANVAS.rect((x + width / 2 - 12, y - 11, x + width / 2 + 12, y + 11)),
                radius=CANVAS.s(5),
                fill=colour,
            )
            write(d, (x + width / 2, y + 0.5), grade, font(16, True), ink_on(colour), "mm")
        else:
            write(d, (x + width / 2, y), "—", regular, MUTED, "mm")
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
        fnt = font(12, True)
        w = max(22.0, fnt.getlength(label) / SS + 12)
        d.rounded_rectangle(CANVAS.rect((x, y - 9, x + w, y + 9)), radius=CANVAS.s(9), fill=colour)
        write(d, (x + w / 2, y + 0.5), label, fnt, ink_on(colour), "mm")
        x += w + 8
    if seat.dead:
        dead_mark(d, (x + 6, y))
        x += 20
    if seat.black_hole:
        hole_mark(d, (x + 8, y))
        x += 24
    if seat.info.get("declared") or seat.letter == view.get("declaration"):
        flag(d, (x + 8, y))
        x += 24


# --- the whole board -----------------------------------------------------------------------------


def _render_base(
    d: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    lang: str,
    seats: Sequence[Seat],
) -> None:
    base_grid(d, view, lang)
    d.rounded_rectangle(
        CANVAS.rect((MARGIN - 4, BASE_STRIP_Y, WIDTH - MARGIN + 4, BASE_STRIP_Y + STRIP_H)),
        radius=CANVAS.s(10),
        fill=CARD_BG,
    )
    around(d, view, seats, lang)
    base_legend(d, lang)
    combat_mark(d, view)
    base_moves(d, view)
    base_pieces(d, view, seats)


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
        combat_panel(d, view, lang, seats, shown, panel_top)
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
    combat_mark(d, view)
    _moves(d, view)
    _pieces(d, view, seats)


# base_cell and key_status are base_board's, column_label combat_board's: the board offers them
# still to those who name them here (the presenter, the tests)
__all__: Sequence[str] = (
    "base_cell",
    "board_size",
    "column_label",
    "key_status",
    "name_of",
    "render",
    "roster_top",
    "spot_centre",
    "step_text",
)
