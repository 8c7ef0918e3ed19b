"""The house style of the league's images, pure: the layout the standings table set (width, frame,
header band, fonts, row bands, the gold leader's band) and what each image draws alike with it:
the header band's words, a row's band, the band of an empty table, and numbers as the tables
print them. The standings (:mod:`cogs.league.board`), the ratings table
(:mod:`cogs.league.ratings_board`) and the cup bracket (:mod:`cogs.league.bracket`) import them.

Layout numbers are in output pixels; the canvas is ``SS`` times larger and shrunk at the end.
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.render import draw as prim
from bot.render.canvas import CARD_BG, GOLD, MUTED, Supersample
from bot.render.fonts import fit, renderable

WIDTH = 880
SS = 2  # supersampling factor
CANVAS = Supersample(SS)

# Layout (output pixels).
HEADER_H = 56
MARGIN = 20  # left and right of the table; the header's title starts there too
LABELS_TOP = HEADER_H + 12  # the row of column names
LABELS_H = 34
ROW_H = 34
EMPTY_H = 2 * ROW_H  # the band that says "no matches yet"
BOTTOM = 16
PAD = 10  # between a column's edge and its text
STRIPE = 5  # the leader's gold stripe on the band's left edge
TITLE_SIZES = (26, 22, 18)
LABEL_SIZE = 15  # 15 × 550 / 880 = 9.4 px where Discord shows the table
CELL_SIZE = 17
MINUS = "\u2212"  # a real minus sign, as wide as the plus (the font has it)

# Row bands: two shades between the frame and the side cards, and the leader's gold tint (apart
# from both shades for every common colour-vision deficiency, CAM02-UCS ΔE ≥ 20:
# tests/render/test_palette.py; the gold stripe and the gold rank mark the leader as well).
ROW_BG = (prim.shade(CARD_BG, 0.82), CARD_BG)
LEADER_BG = (90, 76, 36)


def row_top(index: int) -> int:
    """The top edge of the ``index``-th row's band (output pixels)."""
    return LABELS_TOP + LABELS_H + index * ROW_H


def height(rows: int) -> int:
    """The image height for a table of ``rows`` players."""
    return row_top(0) + (rows * ROW_H if rows else EMPTY_H) + BOTTOM


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
