"""The ratings table image (cogs/league/ratings_board.py): valid PNGs of the standings table's
size, rows in the given order with rank, name, rating, skill ± uncertainty and games drawn, the
interval's bar, the leader's band, hostile names inside their column, both languages, the empty
table, and legible at Discord's 550 px."""

from __future__ import annotations

import pytest

from bot.render.canvas import GOLD
from cogs.league import images, ratings_board
from cogs.league.images import CANVAS, LEADER_BG, ROW_BG
from cogs.league.ratings import Rating, rate_all, two_seat
from cogs.league.ratings_board import EDGES, render_ratings, skill_text, table_rows
from tests.cogs.league.drawn import Text, smallest_at, spying
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

MINUS = "\u2212"
TABLE = {
    "111": Rating(31.0, 2.0, 12),  # ordinal 25.0
    "222": Rating(29.0, 3.5, 9),  # 18.5
    "333": Rating(25.0, 25 / 3, 0),  # 0.0: never played
    "444": Rating(18.0, 7.0, 4),  # -3.0
}
NAMES = {"111": "Aiko", "222": "🐉 Ryu 🔥", "333": "さくら", "444": "Dana"}
LONG = "Bartholomew Maximilian von Longname-Featherstonehaugh the Third of Somewhere"


def render(rows: list[tuple[str, Rating]], names: dict[str, str], lang: str = "en") -> bytes:
    return render_ratings(rows, names, lang, title="Ratings", subtitle="Arena Duel")


def drawn(rows: list[tuple[str, Rating]], names: dict[str, str], lang: str = "en") -> list[Text]:
    with spying(CANVAS.factor) as texts:
        render(rows, names, lang)
    return texts


def row_texts(texts: list[Text], index: int) -> list[Text]:
    top = images.row_top(index)
    return sorted((d for d in texts if top < d.y < top + images.ROW_H), key=lambda d: d.x)


def test_rows_are_ordered_by_the_conservative_rating() -> None:
    rows = table_rows(TABLE)
    assert [p for p, _ in rows] == ["111", "222", "333", "444"]
    assert [r.ordinal for _, r in rows] == sorted((r.ordinal for r in TABLE.values()), reverse=True)
    played = rate_all([two_seat("a", "b", "a"), two_seat("b", "c", "b")])
    assert [p for p, _ in table_rows(played)] == ["a", "b", "c"]


@pytest.mark.parametrize("count", [0, 1, 8, 32])
def test_valid_png_of_the_standings_tables_size(count: int) -> None:
    rows = [(str(n), Rating(25.0 + n, 8.0 - n / 8, n)) for n in range(count)]
    img = open_png(render(rows, {}))
    assert img.size == (images.WIDTH, images.height(count))


def test_each_row_shows_rank_name_rating_skill_and_games() -> None:
    texts = drawn(table_rows(TABLE), NAMES)
    cells = [[d.text for d in row_texts(texts, i)] for i in range(4)]
    assert cells[0] == ["1", "Aiko", "25.0", "31.0 ± 6.0", "12"]
    assert cells[1] == ["2", "Ryu", "18.5", "29.0 ± 10.5", "9"]  # emoji dropped
    assert cells[2] == ["3", "さくら", "0.0", "25.0 ± 25.0", "0"]
    assert cells[3] == ["4", "Dana", MINUS + "3.0", "18.0 ± 21.0", "4"]
    # the numbers stand right-aligned in their columns, the names left-aligned in theirs
    keys = [key for key, _ in ratings_board.COLUMNS if key]  # the bar's column has no text
    for i in range(4):
        for d, key in zip(row_texts(texts, i), keys, strict=True):
            x0, x1 = EDGES[key]
            assert x0 <= d.left and d.right <= x1, (d, key)


def test_skill_text_uses_real_minus_signs() -> None:
    assert skill_text(Rating(25.0, 25 / 3)) == "25.0 ± 25.0"
    assert skill_text(Rating(-1.26, 1.0)) == MINUS + "1.3 ± 3.0"
    assert skill_text(Rating(-0.01, 0.5)) == "0.0 ± 1.5"


def test_the_interval_bar_grows_with_the_uncertainty() -> None:
    """The bar's blue run is the interval mu ± 3 sigma on one scale for the whole table."""
    rows = [("sure", Rating(25.0, 1.0, 40)), ("unsure", Rating(25.0, 6.0, 2))]
    img = open_png(render(rows, {}))
    x0, x1 = EDGES[""]
    widths = []
    for index in range(2):
        y = images.row_top(index) + images.ROW_H // 2 + 3  # beside the mean's tick, not on it
        run = [
            x for x in range(round(x0), round(x1)) if img.getpixel((x, y)) == ratings_board.INTERVAL
        ]
        widths.append(len(run))
    assert 0 < widths[0] < widths[1]
    assert widths[1] / widths[0] == pytest.approx(6.0, rel=0.25)


def test_the_leader_has_the_gold_band_once_rated() -> None:
    png = render(table_rows(TABLE), NAMES)
    img = open_png(png)
    x = images.MARGIN + images.STRIPE + 3
    assert img.getpixel((x, images.row_top(0) + 3)) == LEADER_BG
    assert img.getpixel((images.MARGIN + 1, images.row_top(0) + 3)) == GOLD
    assert img.getpixel((x, images.row_top(1) + 3)) == ROW_BG[1]
    fresh = open_png(render([("a", Rating()), ("b", Rating())], {}))
    assert fresh.getpixel((x, images.row_top(0) + 3)) == ROW_BG[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hostile_names_stay_in_their_column(lang: str) -> None:
    names = {"111": LONG, "222": "", "333": "\u202eevil\u202c علي", "444": "山田" * 40}
    texts = drawn(table_rows(TABLE), names, lang)
    x0, x1 = EDGES[ratings_board.PLAYER]
    shown = [row_texts(texts, i)[1] for i in range(4)]
    for d in shown:
        assert x0 < d.left and d.right < x1, d
    assert shown[0].text.startswith("Bartholomew") and shown[0].text.endswith("…")
    assert shown[1].text == "222"  # no name: the id
    assert shown[2].text == "evil"  # the override and the Arabic the font lacks are dropped
    assert shown[3].text.endswith("…")
    assert render(table_rows(TABLE), names, lang) == render(
        table_rows(TABLE), {**names, "111": LONG + "XXXX"}, lang
    )


def test_languages_differ_in_the_column_names_only() -> None:
    en, ja = render(table_rows(TABLE), NAMES, "en"), render(table_rows(TABLE), NAMES, "ja")
    box = diff_box(en, ja)
    assert box is not None
    assert box[1] >= images.LABELS_TOP and box[3] <= images.row_top(0)


def test_the_empty_table_says_so() -> None:
    for lang, words in (
        ("en", "No rated games yet"),
        ("ja", "レーティング対象の試合はまだありません"),
    ):
        texts = drawn([], {}, lang)
        assert words in [d.text for d in texts]


def test_catalogue_labels_exist_in_both_languages_and_draw_whole() -> None:
    used = [key for key, _ in ratings_board.COLUMNS if key] + ["league.rating_table.empty"]
    assert assert_keys_in_both_languages(used, "league.rating_table.") == set(used)
    for lang in ("en", "ja"):
        assert_catalogue_renderable("league.rating_table.", lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("count", [1, 8])
def test_legible_at_discord_width(count: int, lang: str) -> None:
    rows = [(str(n), Rating(25.0, 5.0, n)) for n in range(count)]
    names = {str(n): f"Player {n}" if lang == "en" else f"プレイヤー{n}" for n in range(count)}
    assert smallest_at(lambda: render(rows, names, lang), 550) >= 9
