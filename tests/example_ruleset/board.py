"""The rock-paper-scissors board: one card per seat with its last throw and its rounds won.

Pure (Pillow and i18n only): it draws the public ``view`` the table hands it, never the state, so
it runs in the bot's render worker like any other board. The house-style pieces (frame, header,
cards, meters, the winner's gold rim) come from :mod:`bot.render.canvas`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from bot.i18n import t
from bot.render.canvas import GOLD, MUTED, SIDE, TEXT, Supersample, display_names
from bot.render.fonts import fit

SEATS = ("A", "B")
WIDTH, HEIGHT, HEADER = 560, 264, 56
CARD_TOP, CARD_BOTTOM, MARGIN = 76, 244, 20
CANVAS = Supersample(2)  # drawn at twice the size, then shrunk: Pillow does not antialias


def _card_box(index: int) -> tuple[float, float, float, float]:
    width = (WIDTH - 3 * MARGIN) / 2
    x0 = MARGIN + index * (width + MARGIN)
    return (x0, CARD_TOP, x0 + width, CARD_BOTTOM)


def _throw_text(view: Mapping[str, Any], seat: str, lang: str) -> tuple[str, str]:
    """The caption and the big word of a seat's card."""
    if view.get("resigned") == seat:
        return "", t(lang, "rps.board.resigned")
    last = view.get("last")
    if last:
        return t(lang, "rps.board.last"), t(lang, f"rps.choice.{last[seat]}")
    return "", "" if view.get("winner") else t(lang, "rps.board.waiting")


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    """The board as PNG bytes."""
    c = CANVAS
    img = c.new_board(WIDTH, HEIGHT, HEADER)
    d = ImageDraw.Draw(img)
    finished = view.get("winner") is not None
    status = t(lang, "rps.board.final") if finished else t(lang, "rps.board.round", n=view["round"])
    c.header_text(
        d, t(lang, "rps.title"), status, height=HEADER, right=WIDTH - MARGIN, sizes=(24, 20, 16)
    )
    shown = display_names(names, SEATS, lambda seat: t(lang, "rps.board.player", seat=seat))
    for index, seat in enumerate(SEATS):
        box = _card_box(index)
        x0, y0, x1, y1 = box
        c.side_card(d, box, SIDE[seat])
        if view.get("winner") == seat:
            c.result_frame(d, box)
        left, room = x0 + 24, x1 - x0 - 40
        name_font = c.font(20, bold=True)
        name = fit(f"{seat} · {shown[seat]}", name_font, c.s(room))
        d.text(c.sp((left, y0 + 14)), name, font=name_font, fill=TEXT)
        caption, word = _throw_text(view, seat, lang)
        if caption:
            d.text(c.sp((left, y0 + 44)), caption, font=c.font(14), fill=MUTED)
        word_font = c.font(32, bold=True)
        d.text(c.sp((left, y0 + 62)), fit(word, word_font, c.s(room)), font=word_font, fill=GOLD)
        wins, needed = view["wins"][seat], view["needed"]
        label = t(lang, "rps.board.wins", wins=wins, needed=needed)
        d.text(c.sp((left, y1 - 50)), label, font=c.font(14), fill=MUTED)
        meter = (left, y1 - 26, x1 - 16, y1 - 14)
        c.card_meter(d, meter, wins, needed, SIDE[seat], segments=needed)
    return c.png(img)
