"""League standings table as an image: rows in, PNG bytes out (pure).

No discord and no storage here: the cog hands the bytes to discord.py. The table is drawn in the
house frame of every board (``bot.render.canvas``): the title and an optional subtitle (season,
date) in the header band, then a header row of column names, then one band per player in the
order given (the caller sorts: ``standings.standings`` does). Bands alternate in shade; the first
row is the leader's, gold-tinted once a match has been played. Numbers are right-aligned; player
names drop glyphs the bundled font lacks and are truncated with an ellipsis to their column. The
DP columns are drawn for a ruleset that scores DP only; without them the player's column is wider.

Layout numbers are in output pixels; the canvas is ``SS`` times larger and shrunk at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import (
    CARD_BG,
    GOLD,
    HEADER_RULE,
    MUTED,
    TEXT,
    Supersample,
    display_names,
)
from bot.render.fonts import fit, renderable
from cogs.league.standings import Row

__all__ = [
    "COLUMNS",
    "COLUMNS_WITHOUT_DP",
    "MARGIN",
    "ROW_H",
    "WIDTH",
    "height",
    "render_standings",
    "row_top",
]

WIDTH = 880
SS = 2  # supersampling factor
CANVAS = Supersample(SS)
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font

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

# Row bands: two shades between the frame and the side cards, and the leader's gold tint.
ROW_BG = (prim.shade(CARD_BG, 0.82), CARD_BG)
LEADER_BG = (74, 64, 34)

# (catalogue key, width in output pixels); the player column takes the room the others leave.
_NUMBERS = (
    ("league.table.played", 52),
    ("league.table.won", 44),
    ("league.table.drawn", 44),
    ("league.table.lost", 44),
    ("league.table.dp_for", 86),
    ("league.table.dp_against", 96),
    ("league.table.dp_diff", 64),
    ("league.table.points", 60),
    ("league.table.rating", 72),
)
_RANK = ("league.table.rank", 52)
# A ruleset without DP (its league declares no DP figure): the player's column takes their room.
_DP_KEYS = ("league.table.dp_for", "league.table.dp_against", "league.table.dp_diff")


def _columns(numbers: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    player = WIDTH - 2 * MARGIN - _RANK[1] - sum(w for _, w in numbers)
    return (_RANK, ("league.table.player", player), *numbers)


COLUMNS = _columns(_NUMBERS)
COLUMNS_WITHOUT_DP = _columns(tuple(c for c in _NUMBERS if c[0] not in _DP_KEYS))


def _edges(columns: tuple[tuple[str, int], ...] = COLUMNS) -> list[tuple[str, float, float]]:
    """Each column's key with its left and right edge."""
    out: list[tuple[str, float, float]] = []
    x = float(MARGIN)
    for key, width in columns:
        out.append((key, x, x + width))
        x += width
    return out


EDGES = _edges()
EDGES_WITHOUT_DP = _edges(COLUMNS_WITHOUT_DP)
PLAYER_KEY = "league.table.player"


def row_top(index: int) -> int:
    """The top edge of the ``index``-th row's band (output pixels)."""
    return LABELS_TOP + LABELS_H + index * ROW_H


def height(rows: int) -> int:
    """The image height for a table of ``rows`` players."""
    return row_top(0) + (rows * ROW_H if rows else EMPTY_H) + BOTTOM


def _signed(value: int) -> str:
    """``value`` with an explicit sign: "+3", "−2", "0"."""
    return "+" + str(value) if value > 0 else _integer(value)


def _integer(value: int) -> str:
    """An integer with a real minus sign when negative."""
    return MINUS + str(-value) if value < 0 else str(value)


def _decimal(value: float) -> str:
    """One decimal with a real minus sign and no "−0.0"."""
    text = f"{abs(value):.1f}"
    return MINUS + text if value < 0 and float(text) != 0 else text


def _cells(row: Row) -> dict[str, str]:
    return {
        "league.table.played": _integer(row.played),
        "league.table.won": _integer(row.won),
        "league.table.drawn": _integer(row.drawn),
        "league.table.lost": _integer(row.lost),
        "league.table.dp_for": _integer(row.dp_for),
        "league.table.dp_against": _integer(row.dp_against),
        "league.table.dp_diff": _signed(row.dp_for - row.dp_against),
        "league.table.points": _integer(row.points),
        "league.table.rating": _decimal(row.rating),
    }


Edges = list[tuple[str, float, float]]


def _labels(d: ImageDraw.ImageDraw, lang: str, edges: Edges) -> None:
    """The column names: the player's on the left of its column, the others over their numbers."""
    fnt = _f(LABEL_SIZE, bold=True)
    y = LABELS_TOP + LABELS_H / 2
    for key, x0, x1 in edges:
        label = fit(t(lang, key), fnt, _s(x1 - x0 - PAD))
        if key == PLAYER_KEY:
            d.text(_sp((x0 + PAD, y)), label, font=fnt, fill=MUTED, anchor="lm")
        else:
            d.text(_sp((x1 - PAD, y)), label, font=fnt, fill=MUTED, anchor="rm")
    rule_y = _s(LABELS_TOP + LABELS_H - 1)
    d.line([(_s(MARGIN), rule_y), (_s(WIDTH - MARGIN), rule_y)], fill=HEADER_RULE, width=_s(2))


def _row(
    d: ImageDraw.ImageDraw, index: int, row: Row, name: str, leader: bool, edges: Edges
) -> None:
    top = row_top(index)
    y = top + ROW_H / 2
    band = LEADER_BG if leader else ROW_BG[index % 2]
    d.rectangle(CANVAS.rect((MARGIN, top, WIDTH - MARGIN, top + ROW_H)), fill=band)
    if leader:
        d.rectangle(CANVAS.rect((MARGIN, top, MARGIN + STRIPE, top + ROW_H)), fill=GOLD)
    regular, bold = _f(CELL_SIZE), _f(CELL_SIZE, bold=True)
    cells = _cells(row)
    for key, x0, x1 in edges:
        if key == PLAYER_KEY:
            fnt = bold if leader else regular
            shown = fit(name, fnt, _s(x1 - x0 - 2 * PAD))
            d.text(_sp((x0 + PAD, y)), shown, font=fnt, fill=TEXT, anchor="lm")
            continue
        if key == "league.table.rank":
            value, fnt, fill = str(index + 1), bold, GOLD if leader else MUTED
        else:
            value, fill = cells[key], TEXT
            fnt = bold if key == "league.table.points" else regular
        d.text(_sp((x1 - PAD, y)), value, font=fnt, fill=fill, anchor="rm")


def render_standings(
    rows: Sequence[Row],
    names: Mapping[str, str],
    lang: str,
    *,
    title: str,
    subtitle: str = "",
    dp: bool = True,
) -> bytes:
    """PNG bytes (``WIDTH`` × ``height(len(rows))``) of the standings ``rows`` in ``lang``.

    ``rows`` are drawn in the order given, ranked 1, 2, 3…; ``names`` maps a row's player (a user
    id) to a display name (the id itself when missing or undrawable). ``title`` goes on the left of
    the header, ``subtitle`` (season, date) on its right. ``dp``: the DP columns (for, against,
    difference), for a ruleset that scores DP.
    """
    edges = EDGES if dp else EDGES_WITHOUT_DP
    img = CANVAS.new_board(WIDTH, height(len(rows)), HEADER_H)
    d = ImageDraw.Draw(img)
    status_font = _f(TITLE_SIZES[0], bold=True)
    subtitle = fit(renderable(subtitle, bold=True), status_font, _s(WIDTH / 2 - MARGIN))
    CANVAS.header_text(
        d,
        renderable(title, bold=True),
        subtitle,
        height=HEADER_H,
        right=WIDTH - MARGIN,
        sizes=TITLE_SIZES,
    )
    _labels(d, lang, edges)

    if not rows:
        top = row_top(0)
        d.rectangle(CANVAS.rect((MARGIN, top, WIDTH - MARGIN, top + EMPTY_H)), fill=ROW_BG[0])
        fnt = _f(CELL_SIZE)
        line = fit(t(lang, "league.table.empty"), fnt, _s(WIDTH - 2 * MARGIN - 2 * PAD))
        d.text(_sp((WIDTH / 2, top + EMPTY_H / 2)), line, font=fnt, fill=MUTED, anchor="mm")
        return CANVAS.png(img)

    shown = display_names(names, [r.player for r in rows], lambda player: player)
    for index, row in enumerate(rows):
        leader = index == 0 and row.played > 0
        _row(d, index, row, shown[row.player], leader, edges)
    return CANVAS.png(img)
