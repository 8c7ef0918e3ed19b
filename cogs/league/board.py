"""League standings table as an image: rows in, PNG bytes out (pure).

No discord and no storage here: the cog hands the bytes to discord.py. The table is drawn in the
house frame of every board (``bot.render.canvas``): the title and an optional subtitle (season,
date) in the header band, then a header row of column names, then one band per player in the
order given (the caller sorts: ``standings.standings`` does). Bands alternate in shade; the first
row is the leader's, gold-tinted once a match has been played. Numbers are right-aligned; player
names drop glyphs the bundled font lacks and are truncated with an ellipsis to their column. The
DP columns are drawn for a ruleset that scores DP only; without them the player's column is wider.
The layout and the bands, header and numbers it shares with the other league images are in
:mod:`cogs.league.images`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from bot.i18n import t
from bot.render.canvas import GOLD, HEADER_RULE, MUTED, TEXT, display_names
from bot.render.fonts import fit
from cogs.league.images import (
    CANVAS,
    CELL_SIZE,
    HEADER_H,
    LABEL_SIZE,
    LABELS_H,
    LABELS_TOP,
    MARGIN,
    MINUS,
    PAD,
    ROW_H,
    WIDTH,
    decimal,
    empty_band,
    header,
    height,
    row_band,
    row_top,
)
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

_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font

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
_WITHOUT_DP = tuple(c for c in _NUMBERS if c[0] not in _DP_KEYS)
COLUMNS_WITHOUT_DP = _columns(_WITHOUT_DP)
FIGURE_WIDTH = 104  # a ruleset's own figure: room for its name (残りユニット) over its number
MISSES = ("league.table.misses", 64)  # unexcused missed deadlines (issue 34)


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


def _signed(value: int) -> str:
    """``value`` with an explicit sign: "+3", "−2", "0"."""
    return "+" + str(value) if value > 0 else _integer(value)


def _integer(value: int) -> str:
    """An integer with a real minus sign when negative."""
    return MINUS + str(-value) if value < 0 else str(value)


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
        "league.table.rating": decimal(row.rating),
        MISSES[0]: _integer(row.misses),
    }


Edges = list[tuple[str, float, float]]


def edges_for(dp: bool, figures: Sequence[tuple[str, str]] = (), misses: bool = False) -> Edges:
    """The columns' edges: with or without DP, a column per figure (its name, the catalogue
    key of its label) and (``misses``) the unexcused missed deadlines before the points, in the
    same width."""
    if not figures and not misses:
        return EDGES if dp else EDGES_WITHOUT_DP
    numbers = list(_NUMBERS if dp else _WITHOUT_DP)
    at = next(i for i, (key, _) in enumerate(numbers) if key == "league.table.points")
    numbers[at:at] = [(key, FIGURE_WIDTH) for _, key in figures] + ([MISSES] if misses else [])
    return _edges(_columns(tuple(numbers)))


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
    d: ImageDraw.ImageDraw,
    index: int,
    row: Row,
    name: str,
    leader: bool,
    edges: Edges,
    figures: Sequence[tuple[str, str]] = (),
) -> None:
    y = row_band(d, index, leader) + ROW_H / 2
    regular, bold = _f(CELL_SIZE), _f(CELL_SIZE, bold=True)
    cells = _cells(row) | {key: _integer(row.figures.get(n, 0)) for n, key in figures}
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
    figures: Sequence[tuple[str, str]] = (),
    misses: bool = False,
) -> bytes:
    """PNG bytes (``WIDTH`` × ``height(len(rows))``) of the standings ``rows`` in ``lang``.

    ``rows`` are drawn in the order given, ranked 1, 2, 3…; ``names`` maps a row's player (a user
    id) to a display name (the id itself when missing or undrawable). ``title`` goes on the left of
    the header, ``subtitle`` (season, date) on its right. ``dp``: the DP columns (for, against,
    difference), for a ruleset that scores DP. ``figures``: a ruleset's other figures, each
    (its name in :attr:`Row.figures`, the catalogue key of its column), drawn before the points.
    ``misses``: a column of each player's unexcused missed deadlines (:attr:`Row.misses`), after
    the figures.
    """
    edges = edges_for(dp, figures, misses)
    img = CANVAS.new_board(WIDTH, height(len(rows)), HEADER_H)
    d = ImageDraw.Draw(img)
    header(d, title, subtitle, WIDTH)
    _labels(d, lang, edges)

    if not rows:
        empty_band(d, t(lang, "league.table.empty"))
        return CANVAS.png(img)

    shown = display_names(names, [r.player for r in rows], lambda player: player)
    for index, row in enumerate(rows):
        leader = index == 0 and row.played > 0
        _row(d, index, row, shown[row.player], leader, edges, figures)
    return CANVAS.png(img)
