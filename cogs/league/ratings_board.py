"""The ratings table as an image: players' OpenSkill ratings in, PNG bytes out (pure).

No discord and no storage here. It is the standings table's twin (:mod:`cogs.league.board`: the
same width, frame, header, column names, row bands and gold leader's band, imported from there):
one band per player in the order given (:func:`table_rows` orders a server's ratings as a
table sorts them: by the conservative rating), each with the rank, the player, the rating (the
ordinal ``mu - 3 sigma``: what the table sorts by), the skill with its uncertainty
(``mu ± 3 sigma``), a bar drawing that interval on one scale for the whole table (its left end
is the rating), and the games rated.

Layout numbers are in output pixels; the canvas is ``board.SS`` times larger and shrunk at the
end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from bot.i18n import t
from bot.render.canvas import GOLD, HEADER_RULE, METER_BG, MUTED, SIDE, TEXT, display_names
from bot.render.fonts import fit
from cogs.league.images import (
    CANVAS,
    CELL_SIZE,
    HEADER_H,
    LABEL_SIZE,
    LABELS_H,
    LABELS_TOP,
    MARGIN,
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
from cogs.league.ratings import Rating, seed_order

__all__ = ["COLUMNS", "WIDTH", "height", "render_ratings", "row_top", "table_rows"]

_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font

RANK, PLAYER, RATING, SKILL, BAR, GAMES = (
    "league.rating_table.rank",
    "league.rating_table.player",
    "league.rating_table.rating",
    "league.rating_table.skill",
    "",  # the interval's bar: under the skill's column name, which reads for both
    "league.rating_table.games",
)
# (catalogue key, width in output pixels); the player column takes the room the others leave.
_FIXED = ((RATING, 84), (SKILL, 150), (BAR, 150), (GAMES, 72))
_RANK_W = 52
_PLAYER_W = WIDTH - 2 * MARGIN - _RANK_W - sum(w for _, w in _FIXED)
COLUMNS: tuple[tuple[str, int], ...] = ((RANK, _RANK_W), (PLAYER, _PLAYER_W), *_FIXED)
BAR_H = 10
INTERVAL = SIDE["A"]  # the skill's interval: the house blue, the mean a white tick on it


def _edges() -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    x = float(MARGIN)
    for key, width in COLUMNS:
        out[key] = (x, x + width)
        x += width
    return out


EDGES = _edges()


def table_rows(ratings: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    """A server's ratings as the table shows them: best conservative rating first (ties by mu,
    then by id: :func:`cogs.league.ratings.seed_order`)."""
    return [(player, ratings[player]) for player in seed_order(ratings, ratings)]


def skill_text(rating: Rating) -> str:
    """``mu ± 3 sigma`` to one decimal, with real minus signs."""
    return f"{decimal(rating.mu)} ± {decimal(rating.uncertainty)}"


def _labels(d: ImageDraw.ImageDraw, lang: str) -> None:
    """The column names: the player's on the left of its column, the others over their
    numbers, the skill's over its figures and its bar."""
    fnt = _f(LABEL_SIZE, bold=True)
    y = LABELS_TOP + LABELS_H / 2
    for key, (x0, x1) in EDGES.items():
        if not key:
            continue
        if key == PLAYER:
            label = fit(t(lang, key), fnt, _s(x1 - x0 - PAD))
            d.text(_sp((x0 + PAD, y)), label, font=fnt, fill=MUTED, anchor="lm")
        elif key == SKILL:  # centred over the figures and the bar beside them
            right = EDGES[BAR][1]
            label = fit(t(lang, key), fnt, _s(right - x0 - PAD))
            d.text(_sp(((x0 + right) / 2, y)), label, font=fnt, fill=MUTED, anchor="mm")
        else:
            label = fit(t(lang, key), fnt, _s(x1 - x0 - PAD))
            d.text(_sp((x1 - PAD, y)), label, font=fnt, fill=MUTED, anchor="rm")
    rule_y = _s(LABELS_TOP + LABELS_H - 1)
    d.line([(_s(MARGIN), rule_y), (_s(WIDTH - MARGIN), rule_y)], fill=HEADER_RULE, width=_s(2))


def _scale(rows: Sequence[tuple[str, Rating]]) -> tuple[float, float]:
    """The skill axis every bar shares: from the lowest interval's start to the highest's end."""
    low = min(r.mu - r.uncertainty for _, r in rows)
    high = max(r.mu + r.uncertainty for _, r in rows)
    return low, max(high, low + 1e-6)


def _bar(d: ImageDraw.ImageDraw, rating: Rating, top: float, scale: tuple[float, float]) -> None:
    """The interval ``mu ± 3 sigma`` on the table's scale, the mean a tick on it."""
    x0, x1 = EDGES[BAR]
    left, right = x0 + PAD, x1 - PAD
    low, high = scale

    def x(value: float) -> float:
        return left + (right - left) * (value - low) / (high - low)

    y0 = top + (ROW_H - BAR_H) / 2
    d.rounded_rectangle(CANVAS.rect((left, y0, right, y0 + BAR_H)), radius=_s(3), fill=METER_BG)
    a, b = x(rating.mu - rating.uncertainty), x(rating.mu + rating.uncertainty)
    d.rounded_rectangle(
        CANVAS.rect((a, y0, max(b, a + 2), y0 + BAR_H)), radius=_s(3), fill=INTERVAL
    )
    mean = x(rating.mu)
    d.rectangle(CANVAS.rect((mean - 1, y0 - 3, mean + 1, y0 + BAR_H + 3)), fill=TEXT)


def _row(
    d: ImageDraw.ImageDraw,
    index: int,
    rating: Rating,
    name: str,
    leader: bool,
    scale: tuple[float, float],
) -> None:
    top = row_band(d, index, leader)
    y = top + ROW_H / 2
    regular, bold = _f(CELL_SIZE), _f(CELL_SIZE, bold=True)
    x0, x1 = EDGES[PLAYER]
    shown = fit(name, bold if leader else regular, _s(x1 - x0 - 2 * PAD))
    d.text(_sp((x0 + PAD, y)), shown, font=bold if leader else regular, fill=TEXT, anchor="lm")
    cells = (
        (RANK, str(index + 1), bold, GOLD if leader else MUTED),
        (RATING, decimal(rating.ordinal), bold, TEXT),
        (SKILL, skill_text(rating), regular, TEXT),
        (GAMES, str(rating.games), regular, TEXT),
    )
    for key, value, fnt, fill in cells:
        d.text(_sp((EDGES[key][1] - PAD, y)), value, font=fnt, fill=fill, anchor="rm")
    _bar(d, rating, top, scale)


def render_ratings(
    rows: Sequence[tuple[str, Rating]],
    names: Mapping[str, str],
    lang: str,
    *,
    title: str,
    subtitle: str = "",
) -> bytes:
    """PNG bytes (``WIDTH`` × ``height(len(rows))``) of the ratings ``rows`` in ``lang``.

    ``rows`` are ``(player, rating)`` drawn in the order given, ranked 1, 2, 3… (the caller
    sorts: :func:`table_rows` does); ``names`` maps a player (a user id) to a display name (the
    id itself when missing or undrawable). ``title`` goes on the left of the header,
    ``subtitle`` (the ruleset, the date) on its right.
    """
    img = CANVAS.new_board(WIDTH, height(len(rows)), HEADER_H)
    d = ImageDraw.Draw(img)
    header(d, title, subtitle, WIDTH)
    _labels(d, lang)
    if not rows:
        empty_band(d, t(lang, "league.rating_table.empty"))
        return CANVAS.png(img)
    shown = display_names(names, [player for player, _ in rows], lambda player: player)
    scale = _scale(rows)
    for index, (player, rating) in enumerate(rows):
        _row(d, index, rating, shown[player], index == 0 and rating.games > 0, scale)
    return CANVAS.png(img)
