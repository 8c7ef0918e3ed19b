"""The standings table of a ruleset without DP (an Arena Duel league): the DP columns go and the
player's column takes their room, in the same image size."""

from __future__ import annotations

from cogs.league import board, images
from cogs.league.board import render_standings
from cogs.league.standings import Row
from tests.render.pngs import diff_box, open_png
from tests.render.test_league_table import LONG, NAMES, ROWS

DP_KEYS = {"league.table.dp_for", "league.table.dp_against", "league.table.dp_diff"}


def player_edges(columns: tuple[tuple[str, int], ...]) -> tuple[float, float]:
    return next((x0, x1) for key, x0, x1 in board._edges(columns) if key == board.PLAYER_KEY)


def test_the_columns_without_dp_fill_the_same_width() -> None:
    keys = [key for key, _ in board.COLUMNS_WITHOUT_DP]
    assert not DP_KEYS & set(keys) and {key for key, _ in board.COLUMNS} >= DP_KEYS
    assert sum(w for _, w in board.COLUMNS_WITHOUT_DP) == sum(w for _, w in board.COLUMNS)
    assert player_edges(board.COLUMNS_WITHOUT_DP)[1] > player_edges(board.COLUMNS)[1]


def test_a_long_name_uses_the_room_the_dp_columns_left() -> None:
    rows = [ROWS[0], Row("555", 6, 4, 0, 2, 0, 0, 12, 25.0, 2.2), *ROWS[1:]]
    names = {**NAMES, "555": LONG}

    def render(dp: bool) -> bytes:
        return render_standings(rows, names, "en", title="Standings", subtitle="S1", dp=dp)

    with_dp, without = render(True), render(False)
    assert open_png(with_dp).size == open_png(without).size
    box = diff_box(with_dp, without)
    assert box is not None and box[1] <= images.LABELS_TOP + images.LABELS_H, "the header differs"

    x0, x1 = player_edges(board.COLUMNS_WITHOUT_DP)
    old_right = player_edges(board.COLUMNS)[1]
    top = images.row_top(1)
    band = open_png(without).crop((round(x0), top + 4, round(x1), top + images.ROW_H - 4))
    background = band.getpixel((band.width - 1, band.height // 2))
    inked = [
        x
        for x in range(band.width)
        if any(band.getpixel((x, y)) != background for y in range(band.height))
    ]
    assert inked and x0 + max(inked) > old_right, "the name runs past where DP began"
