"""The standings table of a ruleset with figures of its own (an Apeiron league: units and H
left): a column each before the points, headed in the reader's language, in the same width."""

from __future__ import annotations

from dataclasses import replace

from cogs.league import board
from cogs.league.board import render_standings
from tests.render.pngs import diff_box, open_png
from tests.render.test_league_table import NAMES, ROWS

FIGURES = [("units", "apeiron.league.figure.units"), ("hp", "apeiron.league.figure.hp")]


def test_a_column_per_figure_before_the_points() -> None:
    edges = board.edges_for(False, FIGURES)
    keys = [key for key, _, _ in edges]
    points = keys.index("league.table.points")
    assert keys[points - 2 : points] == [key for _, key in FIGURES]
    assert "league.table.dp_for" not in keys
    assert edges[0][1] == board.EDGES_WITHOUT_DP[0][1]
    assert edges[-1][2] == board.EDGES_WITHOUT_DP[-1][2], "the same width"
    assert board.edges_for(False) == board.EDGES_WITHOUT_DP and board.edges_for(True) == board.EDGES


def test_the_figures_are_drawn() -> None:
    rows = [replace(r, figures={"units": 3 + i, "hp": 20 + i}) for i, r in enumerate(ROWS)]

    def render(figures: list[tuple[str, str]], lang: str = "en") -> bytes:
        return render_standings(
            rows, NAMES, lang, title="Standings", subtitle="S1", dp=False, figures=figures
        )

    plain, shown = render([]), render(FIGURES)
    assert open_png(plain).size == open_png(shown).size
    assert diff_box(plain, shown) is not None
    assert diff_box(shown, render(FIGURES, "ja")) is not None, "headed in the reader's language"
