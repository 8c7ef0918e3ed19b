"""What the league's images share beyond :mod:`bot.render.canvas` (pure): the header band's
words, a row's band, the band of an empty table, and numbers as the tables print them.

The standings table (:mod:`cogs.league.board`) sets the house style: its width, frame, header,
font sizes and row bands are imported from there; the cup bracket (:mod:`cogs.league.bracket`)
and the ratings table (:mod:`cogs.league.ratings_board`) draw their headers through
:func:`header` here. (The standings table still draws its own header, bands and decimals
the same way, inline: it could call these.)
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.render.canvas import GOLD, MUTED
from bot.render.fonts import fit, renderable
from cogs.league.board import (
    CANVAS,
    CELL_SIZE,
    EMPTY_H,
    HEADER_H,
    LEADER_BG,
    MARGIN,
    MINUS,
    PAD,
    ROW_BG,
    ROW_H,
    STRIPE,
    TITLE_SIZES,
    WIDTH,
    row_top,
)

__all__ = ["decimal", "empty_band", "header", "row_band"]


def header(d: ImageDraw.ImageDraw, title: str, subtitle: str, width: int) -> None:
    """The header band's words, as the standings table has them: ``title`` on the left (shrunk,
    then truncated, to the room left), ``subtitle`` (season, date) bold on the right, truncated
    to half the width. Both are user text: glyphs the font lacks are dropped."""
    status_font = CANVAS.font(TITLE_SIZES[0], bold=True)
    shown = fit(renderable(subtitle, bold=True), status_font, CANVAS.s(width / 2 - MARGIN))
    CANVAS.header_text(
        d,
        renderable(title, bold=True),
        shown,
        height=HEADER_H,
        right=width - MARGIN,
        sizes=TITLE_SIZES,
    )


def empty_band(d: ImageDraw.ImageDraw, line: str) -> None:
    """The one band of a table without rows, saying so (``line``: "No matches yet")."""
    top = row_top(0)
    d.rectangle(CANVAS.rect((MARGIN, top, WIDTH - MARGIN, top + EMPTY_H)), fill=ROW_BG[0])
    fnt = CANVAS.font(CELL_SIZE)
    shown = fit(line, fnt, CANVAS.s(WIDTH - 2 * MARGIN - 2 * PAD))
    middle = CANVAS.sp((WIDTH / 2, top + EMPTY_H / 2))
    d.text(middle, shown, font=fnt, fill=MUTED, anchor="mm")


def row_band(d: ImageDraw.ImageDraw, index: int, leader: bool) -> float:
    """Row ``index``'s band: two shades in turn, the leader's gold-tinted with a gold stripe on
    its left edge. Returns the band's top."""
    top = row_top(index)
    band = LEADER_BG if leader else ROW_BG[index % 2]
    d.rectangle(CANVAS.rect((MARGIN, top, WIDTH - MARGIN, top + ROW_H)), fill=band)
    if leader:
        d.rectangle(CANVAS.rect((MARGIN, top, MARGIN + STRIPE, top + ROW_H)), fill=GOLD)
    return top


def decimal(value: float) -> str:
    """One decimal with a real minus sign and no "−0.0" (as the standings' rating column)."""
    text = f"{abs(value):.1f}"
    return MINUS + text if value < 0 and float(text) != 0 else text
