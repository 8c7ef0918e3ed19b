"""The standings table's column of unexcused missed deadlines (issue 34): before the points and
after a ruleset's figures, in the same width, each player's count drawn, headed in the reader's
language."""

from __future__ import annotations

from dataclasses import replace

from cogs.league import board
from cogs.league.board import render_standings
from tests.render.pngs import diff_box, open_png
from tests.render.test_league_table import NAMES, ROWS

FIGURES = [("units", "apeiron.league.figure.units")]


def test_the_misses_column_stands_before_the_points_after_the_figures() -> None:
    for dp in (True, False):
        keys = [key for key, _, _ in board.edges_for(dp, FIGURES, misses=True)]
        at = keys.index("league.table.points")
        assert keys[at - 2 : at] == [FIGURES[0][1], board.MISSES[0]]
        edges = board.edges_for(dp, misses=True)
        assert edges[-1][2] == board.edges_for(dp)[-1][2], "the same width"
    assert board.edges_for(True, misses=False) == board.EDGES, "without it: as before"


def test_each_players_misses_are_drawn_in_both_languages() -> None:
    def render(rows: list, lang: str = "en", misses: bool = True) -> bytes:
        return render_standings(rows, NAMES, lang, title="Standings", misses=misses)

    none = [replace(r, misses=0) for r in ROWS]
    some = [replace(r, misses=i + 1) for i, r in enumerate(ROWS)]
    assert open_png(render(none)).size == open_png(render(none, misses=False)).size
    assert diff_box(render(none), render(some)) is not None, "the counts are drawn"
    assert diff_box(render(none, misses=False), render(none)) is not None, "the column is drawn"
    assert diff_box(render(some), render(some, "ja")) is not None
