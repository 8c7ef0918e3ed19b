"""The secret base on the Esper war board (part 2; pure: Pillow through :mod:`bot.render`).

A 6×6 grid, column letters over it and row numbers left of it: a face-down base card is a card
back with its spot's name, a face-up one shows its name (a spent one dimmed and crossed), a found
key installation a gold frame and a band with its name and the durability left (a destroyed one
dark, crossed out). Pieces stand in rows across their cell; this step's moves are arrows cell to
cell. Under the grid, a strip with the seats waiting around the base and the legend.
:mod:`.board` puts these parts together (a combat's mark, :mod:`.combat_board`, goes between
the grid and the pieces).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import INK, MUTED, TEXT
from cogs.esper.board_kit import (
    AROUND_W,
    BACK,
    BACK_MARK,
    BACK_RIM,
    BASE_COLUMNS,
    BASE_ROWS,
    BASE_STRIP_Y,
    BASE_TOKEN,
    BOX_H,
    BOX_W,
    CANVAS,
    FACE,
    FACE_NUMBER,
    FACE_RIM,
    GRID_X,
    GRID_Y,
    KEY,
    KEY_BAND,
    KEY_GONE,
    LABEL_W,
    MARGIN,
    MOVE,
    SPENT,
    SPENT_RIM,
    SPENT_X,
    SS,
    STRIP_H,
    TELEPORT,
    TOKEN,
    WIDTH,
    Colour,
    Point,
    Seat,
    balanced,
    circle,
    combat_spot,
    cross,
    fitted,
    font,
    legend_icon,
    name_of,
    swords,
    token,
    wrap,
    write,
)

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


def base_keys(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The key installations the public view lists (found or destroyed): never any other."""
    base = view.get("base")
    keys = base.get("keys") if isinstance(base, Mapping) else None
    if not isinstance(keys, Mapping):
        return {}
    return {str(k): v for k, v in keys.items() if isinstance(v, Mapping) and base_cell(k)}


def base_grid(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str) -> None:
    base = view.get("base") if isinstance(view.get("base"), Mapping) else {}
    assert isinstance(base, Mapping)
    up = base.get("up") if isinstance(base.get("up"), Mapping) else {}
    spent = set(base.get("spent") or ())
    keys = base_keys(view)
    label_font = font(13, True)
    for i, column in enumerate(BASE_COLUMNS):
        x = GRID_X + (i + 0.5) * BOX_W
        write(d, (x, GRID_Y - 11), column, label_font, MUTED, "mm")
    for row in range(1, BASE_ROWS + 1):
        y = GRID_Y + (row - 0.5) * BOX_H
        write(d, (MARGIN + LABEL_W / 2, y), str(row), label_font, MUTED, "mm")
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
    write(d, (cx, cy), spot, font(14, True), (172, 186, 222), "mm")


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
    write(d, (x0 + 9, y0 + 13), spot, font(12, True), FACE_NUMBER if not spent else MUTED)
    if spent:
        cross(d, (x0 + 36, y0 + 13), 4, SPENT_X, 2)
    fnt = font(13, True)
    lines = balanced(name, fnt, BOX_W - 14, 2) or wrap(name, fnt, BOX_W - 14)
    for i, line in enumerate(lines):
        write(d, ((x0 + x1) / 2, y0 + 30 + 14 * i), line, fnt, ink, "mm")


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
    key_icon(d, (x0 + 12, mid), MUTED if gone else KEY)
    fnt = font(12)
    name = fitted(name_of(view, key.get("id"), lang), fnt, BOX_W - 30)
    write(d, (x0 + 21, mid), name, fnt, MUTED if gone else TEXT)
    if gone:
        width = fnt.getlength(name) / SS
        d.line(
            [CANVAS.sp((x0 + 20, mid)), CANVAS.sp((x0 + 22 + width, mid))],
            fill=(255, 150, 140),
            width=CANVAS.s(1),
        )
    # the durability left (or the damage taken) in the card's top right corner
    status = key_status(key, lang)
    small = font(12, True)
    w = small.getlength(status) / SS + 10
    d.rounded_rectangle(
        CANVAS.rect((right - 6 - w, y0 + 5, right - 6, y0 + 21)),
        radius=CANVAS.s(4),
        fill=KEY_GONE if gone else KEY_BAND,
        outline=(255, 150, 140) if gone else KEY,
        width=CANVAS.s(1),
    )
    write(d, (right - 6 - w / 2, y0 + 13), status, small, (255, 170, 160) if gone else KEY, "mm")


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


def key_icon(d: ImageDraw.ImageDraw, at: Point, fill: Colour) -> None:
    """A key: a ring and a bit."""
    x, y = at
    circle(d, (x - 3, y), 3.5, outline=fill, width=2)
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


def base_pieces(d: ImageDraw.ImageDraw, view: Mapping[str, Any], seats: Sequence[Seat]) -> None:
    by_spot: dict[str, list[Seat]] = {}
    for seat in seats:
        spot = seat.info.get("spot")
        if isinstance(spot, str) and base_cell(spot) is not None:
            by_spot.setdefault(spot, []).append(seat)
    active = view.get("active")
    for spot in sorted(by_spot):
        here = by_spot[spot]
        for seat, at in zip(here, _base_token_places(spot, len(here)), strict=True):
            token(d, at, seat, seat.letter == active, BASE_TOKEN)


def base_moves(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
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


def around(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], seats: Sequence[Seat], lang: str
) -> None:
    """The strip's left part: the seats waiting around the base, in rows of six."""
    fnt = font(13, True)
    lines = wrap(t(lang, "esper.board.base.around"), fnt, 82)
    mid = BASE_STRIP_Y + STRIP_H / 2
    for i, line in enumerate(lines):
        write(d, (MARGIN, mid + (i - (len(lines) - 1) / 2) * 16), line, fnt, TEXT)
    outside = [s for s in seats if s.info.get("outside") and not s.dead]
    if not outside:
        write(d, (MARGIN + 92, mid), "—", font(13), MUTED)
        return
    step = 2 * TOKEN + 3
    active = view.get("active")
    for i, seat in enumerate(outside[:12]):
        row, col = divmod(i, 6)
        rows = 1 if len(outside) <= 6 else 2
        y = mid + (row - (rows - 1) / 2) * step
        token(d, (MARGIN + 92 + TOKEN + col * step, y), seat, seat.letter == active)


def base_legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    fnt = font(12)
    x0 = float(MARGIN + AROUND_W)
    col_w, row_h = (WIDTH - MARGIN - x0) / 3, 26.0
    y0 = BASE_STRIP_Y + STRIP_H / 2 - row_h
    items = ("down", "up", "spent", "key", "active", "combat", "move", "teleport", "dead")
    for i, item in enumerate(items):
        col, row = divmod(i, 3)
        x, y = x0 + col * col_w, y0 + row * row_h
        _base_legend_icon(d, item, (x + 10, y))
        label = fitted(t(lang, f"esper.board.legend.{item}"), fnt, col_w - 30)
        write(d, (x + 24, y), label, fnt, MUTED)


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
            cross(d, at, 4, SPENT_X, 2)
    elif item == "key":
        d.rounded_rectangle(
            CANVAS.rect((x - 10, y - 8, x + 10, y + 8)),
            radius=CANVAS.s(3),
            outline=KEY,
            width=CANVAS.s(2),
        )
        key_icon(d, (x - 1, y), KEY)
    elif item == "combat":
        swords(d, at, 16)
    else:
        legend_icon(d, item, at)
