"""The board: a card per seat, its last throw and rounds won, in the house style. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.i18n import t
from bot.render.canvas import GOLD, MUTED, SIDE, TEXT, Supersample, display_names
from bot.render.fonts import fit

from .rules import WINS_NEEDED as NEEDED

WIDTH, HEIGHT, HEADER, MARGIN = 560, 264, 56, 20
CARD = (WIDTH - 3 * MARGIN) / 2  # a seat's card's width
CANVAS = Supersample(2)  # drawn at twice the size, then shrunk: Pillow does not antialias


def big_word(view: Mapping[str, Any], seat: str, lang: str) -> str:
    """What a seat's card says in large: its last throw, or that it is throwing or resigned."""
    result = view["result"]
    if result.get("reason") == "resign" and seat not in result["winners"]:
        return t(lang, "rps.board.resigned")
    if view["last"]:
        return t(lang, f"rps.choice.{view['last'][seat]}")
    return "" if result["finished"] else t(lang, "rps.board.waiting")


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    """The board as PNG bytes."""
    c, result = CANVAS, view["result"]
    img = c.new_board(WIDTH, HEIGHT, HEADER)
    d = ImageDraw.Draw(img)

    def write(x: float, y: float, text: str, font: ImageFont.FreeTypeFont, fill: Any) -> None:
        d.text(c.sp((x, y)), fit(text, font, c.s(CARD - 40)), font=font, fill=fill)

    final = result["finished"]
    status = t(lang, "rps.board.final") if final else t(lang, "rps.board.round", n=view["step"])
    title = t(lang, "rps.title")
    c.header_text(d, title, status, height=HEADER, right=WIDTH - MARGIN, sizes=(24, 20, 16))
    shown = display_names(names, view["seats"], lambda s: t(lang, "rps.board.player", seat=s))
    for index, seat in enumerate(view["seats"]):
        x0 = MARGIN + index * (CARD + MARGIN)
        box, left, wins = (x0, 76, x0 + CARD, HEIGHT - MARGIN), x0 + 24, view["wins"][seat]
        c.side_card(d, box, SIDE[seat])
        if seat in result.get("winners", ()):
            c.result_frame(d, box)
        write(left, 90, f"{seat} · {shown[seat]}", c.font(20, bold=True), TEXT)
        write(left, 130, big_word(view, seat, lang), c.font(32, bold=True), GOLD)
        write(left, 194, t(lang, "rps.board.wins", wins=wins, needed=NEEDED), c.font(14), MUTED)
        c.card_meter(d, (left, 218, x0 + CARD - 16, 230), wins, NEEDED, SIDE[seat], segments=NEEDED)
    return c.png(img)
