"""The Apeiron board (pure: Pillow through :mod:`bot.render`, no discord).

The 9×9 field of nine panels, each tinted by its terrain (face-down panels dark with a "?",
removed ones left empty), the objects, graves, arrow squares and units (A round, B square, so
the sides differ by shape as well as colour; the action-order number inside, H on a badge, the
facing as a notch on the edge; the acting unit ringed in gold); the last activation's moves and
attacks drawn over it. Under the field one card per seat: the action order with each unit's name,
H and square, the marker, the side zone, chest and Apeiron chance.

A private board (the deployment DM) is drawn from the seat's own view: its ``you.row`` panels
are shown face up with their layout, nothing else the channel cannot see.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import (
    GOLD,
    MUTED,
    SIDE,
    SIDE_TEXT,
    TEXT,
    Supersample,
    display_names,
)
from bot.render.fonts import fit

SS = 2
CANVAS = Supersample(SS)
SEATS = ("A", "B")
SIZE = 9
COLUMNS = "ABCDEFGHI"
# position -> (panel column, panel row), as cogs.apeiron.field.GRID (not imported: the renderer
# reads only views)
GRID = {
    3: (0, 0),
    4: (1, 0),
    5: (2, 0),
    2: (0, 1),
    1: (1, 1),
    6: (2, 1),
    9: (0, 2),
    8: (1, 2),
    7: (2, 2),
}

# layout, in output pixels
WIDTH = 640
HEADER = 46
CELL = 64
FIELD_X = 34
FIELD_Y = HEADER + 28
FIELD = CELL * SIZE
CARD_TOP = FIELD_Y + FIELD + 14
CARD_H = 190
HEIGHT = CARD_TOP + CARD_H + 12

KIND_COLOUR: dict[str, tuple[int, int, int]] = {
    "grass": (104, 150, 74),
    "forest": (46, 104, 62),
    "rock": (128, 116, 102),
    "sea": (52, 104, 160),
    "poison": (122, 72, 150),
    "gravity": (82, 84, 124),
    "arrow": (164, 136, 58),
    "lawless": (156, 62, 62),
}
HIDDEN = (50, 54, 64)
OFF = (30, 32, 38)
OBSTACLE = (58, 50, 44)
TREASURE = (232, 186, 58)
RED = (226, 58, 58)
WHITE = (250, 250, 250)
DARK = (20, 20, 24)
FACING_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ARROW_FACING = {"^": "N", ">": "E", "v": "S", "<": "W"}


def square_xy(label: str) -> tuple[int, int] | None:
    if not isinstance(label, str) or len(label) != 2:
        return None
    col, row = COLUMNS.find(label[0].upper()), label[1]
    if col < 0 or not row.isdigit() or row == "0":
        return None
    return col, int(row) - 1


def centre(square: tuple[int, int]) -> tuple[float, float]:
    return FIELD_X + (square[0] + 0.5) * CELL, FIELD_Y + (square[1] + 0.5) * CELL


def step_text(view: Mapping[str, Any], lang: str) -> str:
    """The step's name (the presenter's too)."""
    step = view.get("step")
    if step in ("deck", "deploy", "over"):
        return t(lang, f"apeiron.step.{step}")
    name = t(lang, "apeiron.step.turn", turn=view.get("turn", 0), seat=view.get("active"))
    if step in ("place", "option", "move"):
        name += " · " + t(lang, f"apeiron.step.{step}")
    return name


def _panels(view: Mapping[str, Any]) -> dict[int, Mapping[str, Any] | str | None]:
    """Position → the panel as this view may show it (a seat's own row from ``you``)."""
    panels: dict[int, Mapping[str, Any] | str | None] = {}
    for index, entry in enumerate(view.get("panels") or (), 1):
        panels[index] = entry
    for entry in (view.get("you") or {}).get("row") or ():
        if panels.get(int(entry["pos"])) is None:
            panels[int(entry["pos"])] = "off" if entry.get("panel") == "off" else entry
    return panels


def _revealed(view: Mapping[str, Any]) -> bool:
    panels = view.get("panels") or ()
    return bool(panels) and all(p is not None for p in panels)


def _objects(
    view: Mapping[str, Any], panels: Mapping[int, Mapping[str, Any] | str | None]
) -> dict[tuple[int, int], Mapping[str, Any]]:
    """Square → object. After the reveal the view lists them; before it, the face-up panels'
    layouts give their obstacles and treasure."""
    found: dict[tuple[int, int], Mapping[str, Any]] = {}
    if _revealed(view):
        for obj in view.get("objects") or ():
            square = square_xy(str(obj.get("square")))
            if square is not None:
                found[square] = obj
        return found
    for pos, entry in panels.items():
        if not isinstance(entry, Mapping):
            continue
        px, py = GRID[pos]
        for y, row in enumerate(entry.get("cells") or ()):
            for x, char in enumerate(row):
                kind = {"#": "obstacle", "T": "treasure"}.get(char)
                if kind:
                    found[(px * 3 + x, py * 3 + y)] = {"kind": kind}
    return found


# --- drawing -------------------------------------------------------------------------------------


def _field(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str) -> None:
    s, rect = CANVAS.s, CANVAS.rect
    panels = _panels(view)
    label_font = CANVAS.font(12, bold=True)
    hidden_font = CANVAS.font(40, bold=True)
    for pos, (pc, pr) in GRID.items():
        x0, y0 = FIELD_X + pc * 3 * CELL, FIELD_Y + pr * 3 * CELL
        box = (x0, y0, x0 + 3 * CELL, y0 + 3 * CELL)
        entry = panels.get(pos)
        if entry is None:
            d.rectangle(rect(box), fill=HIDDEN)
            for i in range(-3, 3):  # a hatch: face down, not empty
                a = x0 + i * CELL
                d.line(
                    [
                        CANVAS.sp((max(a, x0), y0 + max(0, x0 - a))),
                        CANVAS.sp(
                            (
                                min(a + 3 * CELL, x0 + 3 * CELL),
                                y0 + 3 * CELL - max(0, a + 3 * CELL - x0 - 3 * CELL),
                            )
                        ),
                    ],
                    fill=(58, 63, 75),
                    width=s(3),
                )
            d.text(
                CANVAS.sp((x0 + 1.5 * CELL, y0 + 1.5 * CELL)),
                "?",
                font=hidden_font,
                fill=(110, 116, 130),
                anchor="mm",
            )
            continue
        if not isinstance(entry, Mapping):  # removed: off the field
            d.rectangle(rect(box), fill=OFF)
            continue
        kind = str(entry.get("kind"))
        colour = KIND_COLOUR.get(kind, HIDDEN)
        d.rectangle(rect(box), fill=colour)
        for y, row in enumerate(entry.get("cells") or ()):
            for x, char in enumerate(row):
                facing = ARROW_FACING.get(char)
                if facing:
                    _arrow_mark(d, (x0 + (x + 0.5) * CELL, y0 + (y + 0.5) * CELL), facing)
        if kind == "poison":
            for y in range(3):
                for x in range(3):
                    cx, cy = x0 + (x + 0.5) * CELL, y0 + (y + 0.5) * CELL
                    d.ellipse(rect((cx - 5, cy + 14, cx + 5, cy + 24)), fill=(190, 120, 220))
        tag = f"P{pos} " + t(lang, f"apeiron.kind.{kind}")
        shown = fit(tag, label_font, s(3 * CELL - 12))
        width = label_font.getlength(shown) / SS
        d.rounded_rectangle(
            rect((x0 + 3, y0 + 3, x0 + width + 13, y0 + 21)), radius=s(4), fill=(18, 19, 24)
        )
        d.text(CANVAS.sp((x0 + 8, y0 + 12)), shown, font=label_font, fill=TEXT, anchor="lm")
    # the square grid, then the panel borders over it
    for i in range(SIZE + 1):
        line_w = 3 if i % 3 == 0 else 1
        colour = (16, 17, 21) if i % 3 == 0 else (0, 0, 0)
        x = FIELD_X + i * CELL
        y = FIELD_Y + i * CELL
        d.line(
            [CANVAS.sp((x, FIELD_Y)), CANVAS.sp((x, FIELD_Y + FIELD))], fill=colour, width=s(line_w)
        )
        d.line(
            [CANVAS.sp((FIELD_X, y)), CANVAS.sp((FIELD_X + FIELD, y))], fill=colour, width=s(line_w)
        )
    coord = CANVAS.font(14, bold=True)
    for i in range(SIZE):
        d.text(
            CANVAS.sp((FIELD_X + (i + 0.5) * CELL, FIELD_Y - 13)),
            COLUMNS[i],
            font=coord,
            fill=MUTED,
            anchor="mm",
        )
        d.text(
            CANVAS.sp((FIELD_X - 16, FIELD_Y + (i + 0.5) * CELL)),
            str(i + 1),
            font=coord,
            fill=MUTED,
            anchor="mm",
        )


def _arrow_mark(d: ImageDraw.ImageDraw, at: tuple[float, float], facing: str) -> None:
    dx, dy = FACING_STEP[facing]
    tip = (at[0] + dx * 20, at[1] + dy * 20)
    tail = (at[0] - dx * 16, at[1] - dy * 16)
    d.line([CANVAS.sp(tail), CANVAS.sp(tip)], fill=(245, 226, 160), width=CANVAS.s(4))
    prim.arrow_head(d, CANVAS.sp(tip), (dx, dy), CANVAS.s(12), CANVAS.s(9), (245, 226, 160))


def _object(d: ImageDraw.ImageDraw, square: tuple[int, int], obj: Mapping[str, Any]) -> None:
    s, rect = CANVAS.s, CANVAS.rect
    cx, cy = centre(square)
    kind = obj.get("kind")
    if kind == "obstacle":
        d.polygon(
            [
                CANVAS.sp(p)
                for p in (
                    (cx - 24, cy + 22),
                    (cx - 14, cy - 16),
                    (cx - 2, cy - 24),
                    (cx + 16, cy - 14),
                    (cx + 25, cy + 22),
                )
            ],
            fill=OBSTACLE,
            outline=DARK,
            width=s(2),
        )
    elif kind == "treasure":
        d.rounded_rectangle(
            rect((cx - 18, cy - 10, cx + 18, cy + 16)),
            radius=s(3),
            fill=TREASURE,
            outline=DARK,
            width=s(2),
        )
        d.line([CANVAS.sp((cx - 18, cy - 1)), CANVAS.sp((cx + 18, cy - 1))], fill=DARK, width=s(2))
        d.rectangle(rect((cx - 3, cy - 4, cx + 3, cy + 4)), fill=DARK)
    elif kind == "bomb":
        d.ellipse(
            rect((cx - 15, cy - 11, cx + 15, cy + 19)),
            fill=DARK,
            outline=(200, 200, 200),
            width=s(2),
        )
        d.line(
            [CANVAS.sp((cx + 6, cy - 8)), CANVAS.sp((cx + 14, cy - 20))],
            fill=(220, 220, 220),
            width=s(3),
        )
        d.ellipse(rect((cx + 11, cy - 25, cx + 19, cy - 17)), fill=(255, 170, 40))
    elif kind == "stop":
        points = []
        for i in range(8):
            a = math.radians(22.5 + 45 * i)
            points.append(CANVAS.sp((cx + 20 * math.cos(a), cy + 20 * math.sin(a))))
        d.polygon(points, fill=RED, outline=WHITE, width=s(2))
        d.rectangle(rect((cx - 11, cy - 3, cx + 11, cy + 3)), fill=WHITE)
    elif kind == "poison":
        d.ellipse(
            rect((cx - 16, cy - 16, cx + 16, cy + 16)),
            fill=(150, 70, 190),
            outline=DARK,
            width=s(2),
        )
        d.ellipse(rect((cx - 6, cy - 6, cx + 6, cy + 6)), fill=(215, 170, 240))
    elif kind == "grave":
        seat = str(obj.get("seat") or "")
        outline = SIDE.get(seat, (200, 200, 200))
        d.rounded_rectangle(
            rect((cx - 17, cy - 22, cx + 17, cy + 22)),
            radius=s(14),
            fill=(150, 150, 158),
            outline=outline,
            width=s(3),
        )
        d.line([CANVAS.sp((cx, cy - 14)), CANVAS.sp((cx, cy + 6))], fill=DARK, width=s(3))
        d.line([CANVAS.sp((cx - 8, cy - 7)), CANVAS.sp((cx + 8, cy - 7))], fill=DARK, width=s(3))
        if obj.get("returns") is not None:
            d.text(
                CANVAS.sp((cx, cy + 14)),
                f"T{obj['returns']}",
                font=CANVAS.font(12, True),
                fill=DARK,
                anchor="mm",
            )


def _unit(d: ImageDraw.ImageDraw, unit: Mapping[str, Any], seat: str, acting: bool) -> None:
    square = square_xy(str(unit.get("square")))
    if square is None:
        return
    s, rect = CANVAS.s, CANVAS.rect
    cx, cy = centre(square)
    r = 24
    colour = SIDE[seat]
    if acting:
        d.ellipse(rect((cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6)), outline=GOLD, width=s(4))
    box = rect((cx - r, cy - r, cx + r, cy + r))
    if seat == "A":
        d.ellipse(box, fill=colour, outline=DARK, width=s(2))
    else:
        d.rounded_rectangle(box, radius=s(7), fill=colour, outline=DARK, width=s(2))
    # the facing: a notch outside the token's edge
    dx, dy = FACING_STEP.get(str(unit.get("facing")), (0, 1))
    tip = (cx + dx * (r + 9), cy + dy * (r + 9))
    prim.arrow_head(d, CANVAS.sp(tip), (dx, dy), s(11), s(9), WHITE, DARK, s(2))
    d.text(
        CANVAS.sp((cx - 3, cy - 2)),
        str(unit.get("order", "?")),
        font=CANVAS.font(24, True),
        fill=SIDE_TEXT[seat],
        anchor="mm",
    )
    hp = str(unit.get("hp", "?"))
    bx, by = cx + r - 4, cy + r - 6
    d.ellipse(rect((bx - 11, by - 11, bx + 11, by + 11)), fill=WHITE, outline=DARK, width=s(2))
    d.text(CANVAS.sp((bx, by)), hp, font=CANVAS.font(14, True), fill=DARK, anchor="mm")


def _shorten(
    points: list[tuple[float, float]], start: float, end: float
) -> list[tuple[float, float]]:
    """The polyline with its ends pulled in (an arrow ends at a token's edge, not under it)."""

    def pull(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float]:
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        k = min(by, length / 2) / length
        return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k

    out = list(points)
    if start:
        out[0] = pull(out[0], out[1], start)
    if end:
        out[-1] = pull(out[-1], out[-2], end)
    return out


def _trail(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    trail = view.get("trail") or {}
    seat = str(trail.get("seat") or "A")
    for path in trail.get("moves") or ():
        points = [centre(sq) for sq in (square_xy(str(p)) for p in path) if sq is not None]
        if len(points) >= 2:
            prim.arrow(
                d,
                [CANVAS.sp(p) for p in _shorten(points, 0, 30)],
                SIDE.get(seat, WHITE),
                CANVAS.s(5),
                head_length=CANVAS.s(16),
                casing=DARK,
                casing_width=CANVAS.s(2),
            )
    for start, end in trail.get("attacks") or ():
        a, b = square_xy(str(start)), square_xy(str(end))
        if a is None or b is None:
            continue
        prim.arrow(
            d,
            [CANVAS.sp(p) for p in _shorten([centre(a), centre(b)], 22, 30)],
            RED,
            CANVAS.s(5),
            head_length=CANVAS.s(16),
            casing=WHITE,
            casing_width=CANVAS.s(2),
            dashed=(CANVAS.s(10), CANVAS.s(6)),
        )


def _cards(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str, shown: Mapping[str, str]
) -> None:
    s = CANVAS.s
    cards = view.get("cards") or {}
    gap = 12
    width = (WIDTH - 2 * 14 - gap) / 2
    name_font = CANVAS.font(16, True)
    line_font = CANVAS.font(14)
    bold_font = CANVAS.font(14, True)
    marker = view.get("marker") or {}
    for i, seat in enumerate(SEATS):
        x0 = 14 + i * (width + gap)
        box = (x0, CARD_TOP, x0 + width, CARD_TOP + CARD_H)
        colour = SIDE[seat]
        CANVAS.side_card(d, box, colour)
        if (view.get("outcome") or {}).get("seat") == seat:
            CANVAS.result_frame(d, box)
        title = f"{seat} · {shown[seat]}"
        if view.get("first") == seat:
            title += " · " + t(lang, "apeiron.board.first")
        d.text(
            CANVAS.sp((x0 + 18, CARD_TOP + 16)),
            fit(title, name_font, s(width - 28)),
            font=name_font,
            fill=TEXT,
            anchor="lm",
        )
        units = sorted(
            (view.get("units") or {}).get(seat) or (), key=lambda u: int(u.get("order", 0))
        )
        y = CARD_TOP + 40
        if units:
            for unit in units:
                alive = bool(unit.get("square"))
                here = view.get("active") == seat and marker.get(seat) == unit.get("order")
                name = str(
                    (cards.get(unit.get("id")) or {}).get("name", {}).get(lang) or unit.get("id")
                )
                where = unit.get("square") or "†"
                prefix = "▶" if here and alive else " "
                head = f"{prefix}{unit.get('order')}"
                d.text(
                    CANVAS.sp((x0 + 16, y)),
                    head,
                    font=bold_font,
                    fill=GOLD if here else TEXT,
                    anchor="lm",
                )
                right = f"H{unit.get('hp')} {where}"
                rw = bold_font.getlength(right) / SS
                d.text(
                    CANVAS.sp((x0 + width - 12, y)),
                    right,
                    font=bold_font,
                    fill=TEXT if alive else MUTED,
                    anchor="rm",
                )
                d.text(
                    CANVAS.sp((x0 + 42, y)),
                    fit(name, line_font, s(width - 66 - rw)),
                    font=line_font,
                    fill=TEXT if alive else MUTED,
                    anchor="lm",
                )
                y += 19
        else:
            deck = [
                str((cards.get(u) or {}).get("name", {}).get(lang) or u)
                for u in (view.get("decks") or {}).get(seat) or ()
            ]
            half = (width - 30) / 2
            for j, name in enumerate(deck[:8]):
                col, row = divmod(j, 4)
                d.text(
                    CANVAS.sp((x0 + 18 + col * half, y + row * 19)),
                    fit(name, line_font, s(half - 6)),
                    font=line_font,
                    fill=MUTED,
                    anchor="lm",
                )
            y += 5 * 19
        y = CARD_TOP + CARD_H - 40
        zone = (view.get("side") or {}).get(seat)
        zone_name = (
            str((cards.get(zone.get("card")) or {}).get("name", {}).get(lang) or zone.get("card"))
            if zone
            else "—"
        )
        chance = t(
            lang,
            "apeiron.tally.chance_used"
            if (view.get("chance_used") or {}).get(seat)
            else "apeiron.tally.chance_open",
        )
        info = t(
            lang,
            "apeiron.board.card_footer",
            left=(view.get("chest_left") or {}).get(seat, 0),
            chance=chance,
        )
        count = (view.get("extra_turn") or {}).get(seat)
        if count is not None:
            info = t(lang, "apeiron.board.extra", count=count) + " · " + info
        zone_line = t(lang, "apeiron.board.zone", zone=zone_name)
        for k, line in enumerate((zone_line, info)):
            d.text(
                CANVAS.sp((x0 + 18, y + 19 * k)),
                fit(line, line_font, s(width - 30)),
                font=line_font,
                fill=GOLD if k == 1 and count is not None else MUTED,
                anchor="lm",
            )


def _acting(view: Mapping[str, Any]) -> tuple[str, int] | None:
    seat = view.get("active")
    if view.get("step") not in ("play", "place", "option", "move") or seat not in SEATS:
        return None
    return str(seat), int((view.get("marker") or {}).get(seat, 0))


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    shown = display_names(names, SEATS, lambda seat: t(lang, "apeiron.board.player", seat=seat))
    img = CANVAS.new_board(WIDTH, HEIGHT, HEADER)
    d = ImageDraw.Draw(img)
    outcome = view.get("outcome") or {}
    status = (
        t(lang, "apeiron.board.winner", seat=outcome.get("seat"))
        if outcome.get("seat")
        else step_text(view, lang)
    )
    title = f"{t(lang, 'apeiron.title')} · {shown['A']} – {shown['B']}"
    CANVAS.header_text(d, title, status, height=HEADER, right=WIDTH - 16, sizes=(20, 17, 15))
    _field(d, view, lang)
    panels = _panels(view)
    for square, obj in _objects(view, panels).items():
        _object(d, square, obj)
    _trail(d, view)
    acting = _acting(view)
    for seat in SEATS:
        for unit in (view.get("units") or {}).get(seat) or ():
            _unit(d, unit, seat, acting == (seat, int(unit.get("order", 0))))
    _cards(d, view, lang, shown)
    return CANVAS.png(img)


def board_size() -> tuple[int, int]:
    return WIDTH, HEIGHT


__all__: Sequence[str] = ("board_size", "render", "step_text")
