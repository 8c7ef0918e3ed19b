"""A combat on the Esper war board (part 2; pure: Pillow through :mod:`bot.render`).

Its spot marked on either map (a red frame and crossed swords), and its panel above the roster:
who fights, in initiative order (the seat to act marked, each one's initiative card, hand size but
never the cards, henchmen and maintained defence), the attack being answered, a key installation
that is a target, who arrives next round.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from bot.i18n import has, t
from bot.render import draw as prim
from bot.render.canvas import CARD_BG, GOLD, MUTED, TEXT
from bot.render.fonts import renderable
from cogs.esper.base_board import base_cell, base_keys, key_icon, key_status
from cogs.esper.board_kit import (
    CANVAS,
    COMBAT,
    INVADER,
    KEY,
    MARGIN,
    PANEL_HEAD,
    PANEL_LINE,
    PANEL_ROW,
    RING,
    ROW_ACTIVE,
    SPOT,
    SS,
    WIDTH,
    Point,
    Seat,
    circle,
    fitted,
    font,
    is_base,
    name_of,
    parse_spot,
    planet_centre,
    playing_card,
    spot_centre,
    swords,
    token,
    write,
)

# --- a combat's spot -----------------------------------------------------------------------------


def combat_mark(d: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
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
        swords(d, (x1 - 15, y0 + 13), 16)
        return
    at = spot_centre(spot)
    if at is None:
        return
    circle(d, at, SPOT + 3, outline=COMBAT, width=3)
    # the swords on the spot's inner side: its pieces take the outer side first
    found = parse_spot(spot)
    if found is not None:
        cx, cy = planet_centre(found[0])
        a = math.atan2(at[1] - cy, at[0] - cx)
        r = RING - SPOT - 2
        swords(d, (cx + r * math.cos(a), cy + r * math.sin(a)), 16)
    else:
        swords(d, (at[0] - SPOT + 4, at[1] - SPOT + 4), 16)


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


def combat_panel(
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
    swords(d, (MARGIN + 12, y), 16)
    title = t(
        lang,
        "esper.board.combat.title",
        spot=combat.get("spot") or "?",
        round=combat.get("round") or 1,
    )
    fnt = font(15, True)
    write(d, (MARGIN + 28, y), fitted(title, fnt, WIDTH - 2 * MARGIN - 40), fnt, TEXT)
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
        key_icon(d, (MARGIN + 34, mid), KEY)
        found = base_keys(view).get(str(key)) or {}
        label = t(lang, "esper.board.combat.key", spot=key)
        name = name_of(view, found.get("id"), lang) if found.get("id") else ""
        regular, bold = font(13), font(13, True)
        label = fitted(label, bold, 220)
        write(d, (MARGIN + 48, mid), label, bold, KEY)
        if name:
            x = MARGIN + 48 + bold.getlength(label) / SS + 12
            text = f"{name} · {key_status(found, lang)}"
            write(d, (x, mid), fitted(text, regular, WIDTH - MARGIN - x - 8), regular, TEXT)
        y += PANEL_ROW
    late = [str(s) for s in combat.get("late") or ()]
    if late:
        fnt = font(12)
        text = t(lang, "esper.board.combat.late", seats=", ".join(late))
        write(d, (MARGIN + 8, y + PANEL_LINE / 2), fitted(text, fnt, WIDTH - 40), fnt, MUTED)


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
    fnt, bold = font(13), font(13, True)
    write(d, (x, y), t(lang, "esper.board.combat.attack"), bold, (255, 150, 140))
    x += fnt.getlength(t(lang, "esper.board.combat.attack")) / SS + 14
    by = str(attack.get("by") or "")
    r = 9.0
    if by in by_letter:
        token(d, (x + r, y), by_letter[by], False, r)
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
        token(d, (x + r, y), by_letter[target], False, r)
        x += 2 * r + 8
    elif target:
        key_icon(d, (x + 6, y), KEY)
        write(d, (x + 18, y), target, bold, KEY)
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
    text = fitted(" · ".join(parts), fnt, WIDTH - MARGIN - x - 8)
    write(d, (x, y), text, fnt, TEXT)


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
        write(d, (MARGIN + 8, y), "▶", font(12, True), GOLD, "mm")
    token(d, (MARGIN + 30, y), seat, current)
    bold, regular = font(13, True), font(13)
    name = shown.get(seat.letter) or seat.letter
    write(d, (MARGIN + 48, y), fitted(name, bold, 128), bold, TEXT)
    card = str((combat.get("cards") or {}).get(seat.letter) or "")
    if card:
        playing_card(d, (MARGIN + 206, y), card)
    hand = (combat.get("hands") or {}).get(seat.letter, 0)
    write(d, (MARGIN + 240, y), t(lang, "esper.board.combat.hand", n=hand), regular, TEXT)
    henchmen = (combat.get("henchmen") or {}).get(seat.letter)
    if henchmen:
        word = fitted(t(lang, "esper.board.combat.henchmen", n=henchmen), regular, 96)
        write(d, (MARGIN + 318, y), word, regular, MUTED)
    held = (combat.get("maintained") or {}).get(seat.letter)
    if isinstance(held, Mapping):
        x = MARGIN + 420.0
        _shield(d, (x + 7, y))
        level = t(lang, "esper.board.combat.level", n=held.get("level") or "?")
        label = f"{name_of(view, held.get('card'), lang)} · {level}"
        write(d, (x + 18, y), fitted(label, regular, WIDTH - MARGIN - x - 22), regular, INVADER)


def _shield(d: ImageDraw.ImageDraw, at: Point) -> None:
    x, y = at
    d.polygon(
        [
            CANVAS.sp(p)
            for p in ((x - 6, y - 7), (x + 6, y - 7), (x + 6, y), (x, y + 8), (x - 6, y))
        ],
        fill=INVADER,
    )
