"""League standings table renderer: valid PNGs, both languages, rows in the given order, the
leader's band, long names truncated to their column, the empty table."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.canvas import GOLD
from cogs.league import board, images
from cogs.league.board import render_standings
from cogs.league.standings import Row
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

ROWS = [
    Row("111", 6, 5, 1, 0, 84, 30, 16, 31.2, 2.1),
    Row("222", 6, 3, 1, 2, 60, 52, 10, 27.0, 2.4),
    Row("333", 6, 2, 0, 4, 41, 70, 6, 22.9, 2.6),
    Row("444", 6, 0, 0, 6, 20, 103, 0, 16.0, 6.1),
]
NAMES = {"111": "Aiko", "222": "Bart", "333": "🐉 Ryu 🔥", "444": "Dana"}
NAMES_JA = {"111": "さくら", "222": "山田", "333": "オレンジ侍🔥", "444": "たなか"}
LONG = "Bartholomew Maximilian von Longname-Featherstonehaugh the Third of Somewhere"
LONG_JA = "山田太郎左衛門之助という大変長い名前の剣士さまでございます"


def render(rows: list[Row], names: dict[str, str] | None = None, lang: str = "en") -> bytes:
    return render_standings(
        rows, NAMES if names is None else names, lang, title="Standings", subtitle="Season 3"
    )


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def colours(img: Image.Image) -> set[tuple[int, ...]]:
    return {colour for _, colour in img.getcolors(img.width * img.height) or ()}


def band_colour(png: bytes, index: int) -> tuple[int, ...]:
    """The colour of row ``index``'s band just right of the leader stripe (never text there)."""
    img = open_png(png)
    return img.getpixel((images.MARGIN + images.STRIPE + 3, images.row_top(index) + 3))


def player_cell(index: int) -> tuple[int, int, int, int]:
    """Row ``index``'s player cell (output pixels), as a crop box."""
    (x0, x1) = next((x0, x1) for key, x0, x1 in board.EDGES if key == board.PLAYER_KEY)
    top = images.row_top(index)
    return round(x0), top, round(x1), top + images.ROW_H


# --- a valid image of the right size ------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 4, 32])
def test_valid_png_of_the_announced_size(count: int) -> None:
    rows = [Row(str(i), 3, 1, 1, 1, 10, 10, 4, 25.0, 8.0) for i in range(count)]
    img = open_png(render(rows, {}))
    assert img.size == (images.WIDTH, images.height(count))


def test_height_grows_with_the_rows() -> None:
    heights = [
        open_png(render([Row(str(i), 1) for i in range(n)], {})).height for n in (1, 2, 8, 32)
    ]
    assert heights == sorted(set(heights))
    assert heights[-1] - heights[0] == 31 * images.ROW_H


# --- languages ----------------------------------------------------------------------------------


def test_column_names_exist_in_both_languages_and_draw_whole() -> None:
    used = [key for key, _ in board.COLUMNS] + [board.MISSES[0], "league.table.empty"]
    keys = assert_keys_in_both_languages(used, "league.table.")
    assert keys == set(used)
    for lang in ("en", "ja"):
        assert_catalogue_renderable("league.table.", lang)


def test_japanese_and_english_render_and_differ_in_the_column_names() -> None:
    en = render(ROWS, NAMES, "en")
    ja = render(ROWS, NAMES, "ja")
    box = diff_box(en, ja)
    assert box is not None
    # same names and numbers: only the row of column names differs
    assert box[1] >= images.LABELS_TOP and box[3] <= images.row_top(0)
    ja_names = render(ROWS, NAMES_JA, "ja")
    assert open_png(ja_names).size == open_png(en).size
    assert diff_box(ja, ja_names) is not None


# --- rows ---------------------------------------------------------------------------------------


def test_rows_are_drawn_in_the_given_order_leader_first() -> None:
    # the last-placed row given first is still drawn first, as the leader: the renderer does not
    # re-sort
    png = render([ROWS[3], *ROWS[:3]])
    assert band_colour(png, 0) == images.LEADER_BG
    assert open_png(png).getpixel((images.MARGIN + 1, images.row_top(0) + 3)) == GOLD
    assert band_colour(png, 1) == images.ROW_BG[1]
    assert band_colour(png, 2) == images.ROW_BG[0]
    assert band_colour(png, 3) == images.ROW_BG[1]


def test_the_first_row_given_is_the_one_drawn_first() -> None:
    # the last-placed row first, then the best: row 0 shows the last-placed player, exactly as
    # when it is drawn alone
    both = open_png(render([ROWS[3], ROWS[0]]))
    alone = open_png(render([ROWS[3]]))
    first = (0, images.row_top(0), images.WIDTH, images.row_top(1))
    assert diff_box(png_bytes(both.crop(first)), png_bytes(alone.crop(first))) is None
    # and changing the second row changes nothing above it
    box = diff_box(render([ROWS[3], ROWS[0]]), render([ROWS[3], ROWS[1]]))
    assert box is not None and box[1] >= images.row_top(1)


def test_a_change_to_one_row_changes_only_that_rows_band() -> None:
    changed = [*ROWS[:2], Row("333", 7, 2, 1, 4, 45, 72, 7, 23.5, 2.5), ROWS[3]]
    box = diff_box(render(ROWS), render(changed))
    assert box is not None
    assert box[1] >= images.row_top(2) and box[3] <= images.row_top(3)


def test_no_leader_before_any_match_is_played() -> None:
    png = render([Row("111"), Row("222")])
    assert band_colour(png, 0) == images.ROW_BG[0]
    assert band_colour(png, 1) == images.ROW_BG[1]


def test_missing_names_fall_back_to_the_player_id_and_emoji_are_dropped() -> None:
    assert diff_box(render(ROWS), render(ROWS, {**NAMES, "333": "Ryu"})) is None
    assert diff_box(render(ROWS, {}), render(ROWS, {p: p for p in NAMES})) is None


# --- long names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "lang"), [(LONG, "en"), (LONG_JA, "ja")])
def test_long_names_are_truncated_to_their_column(name: str, lang: str) -> None:
    names = {**NAMES, "111": name, "222": name}
    png = render(ROWS, names, lang)
    # a longer name is cut at the same place: nothing past the column's width is drawn
    assert (
        diff_box(png, render(ROWS, {**names, "111": name + "XXXXXXXX", "222": name}, lang)) is None
    )
    # and the name does differ from the short one: it is drawn, up to its column's edge
    img = open_png(png)
    for index in (0, 1):
        _, top, x1, bottom = player_cell(index)
        band = images.LEADER_BG if index == 0 else images.ROW_BG[1]
        # the gap between the name's room and the played column's right-aligned digits is clear
        gap = img.crop((x1 - images.PAD + 2, top, x1 + 20, bottom))
        assert colours(gap) == {band}, index
        inked = img.crop((x1 - 4 * images.PAD, top, x1 - images.PAD, bottom))
        assert len(colours(inked)) > 1, index  # the ellipsis reaches near the edge


# --- the empty table ----------------------------------------------------------------------------


def test_the_empty_table_says_so() -> None:
    en = render([], {}, "en")
    ja = render([], {}, "ja")
    assert open_png(en).size == (images.WIDTH, images.height(0))
    box = diff_box(en, ja)
    assert box is not None  # the column names and the "no matches yet" line
    img = open_png(en)
    line = img.crop((0, images.row_top(0), images.WIDTH, images.height(0) - images.BOTTOM))
    assert len(colours(line)) > 2  # the band with words on it
    # nothing drawn below the one band
    below = img.crop((0, images.height(0) - images.BOTTOM + 1, images.WIDTH, images.height(0)))
    assert len(colours(below)) == 1


def test_number_formats() -> None:
    assert board._signed(54) == "+54"
    assert board._signed(-29) == "\u221229"
    assert board._signed(0) == "0"
    assert images.decimal(-2.3) == "\u22122.3"
    assert images.decimal(-0.04) == "0.0"
    assert images.decimal(24.95) in ("24.9", "25.0")
    assert Row("x", mu=25.0, sigma=25 / 3).rating == pytest.approx(0.0)
