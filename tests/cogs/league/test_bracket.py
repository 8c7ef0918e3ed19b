"""The cup's bracket image (cogs/league/bracket.py): a valid PNG of a sane size from 2 to 64
players, byes, forfeits and the champion drawn, hostile names kept inside their boxes, both
languages, the layout's columns and boxes, and legible at Discord's 550 px."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.i18n import t
from bot.render.canvas import GOLD
from cogs.league import bracket, cup
from cogs.league.bracket import MAX_COLUMNS, WIDTH, layout, render_bracket, round_name
from cogs.league.cup import BYE, WALKOVER, Cup
from cogs.league.images import CANVAS, LEADER_BG
from tests.cogs.league.drawn import Text, smallest_at, spying
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

COUNTS = (2, 3, 5, 8, 13, 32, 64)
HOSTILE = {  # the first eight reach a cup of eight
    "long": "Bartholomew Maximilian von Longname-Featherstonehaugh the Third of Somewhere",
    "mixed": "🐉 Ryu 🔥",
    "arabic": "علي",
    "japanese": "さくら",
    "emoji": "🐉🔥👑",
    "rtl": "\u202eevil\u202c علي",
    "spaces": "  \n\t ",
    "long_ja": "山田太郎左衛門之助という大変長い名前の剣士さまでございます",
    "empty": "",
    "wide": "W" * 60,
    "markdown": "**bold** `code` <@123>",
}


def players(count: int) -> list[str]:
    return [f"{100 + n}" for n in range(1, count + 1)]


def short_names(count: int) -> dict[str, str]:
    """Names that fit any box whole: P01, P02…"""
    return {p: f"P{n:02d}" for n, p in enumerate(players(count), 1)}


def play(c: Cup, rng: random.Random, games: int | None = None, walkovers: float = 0.25) -> Cup:
    """Play ``games`` ready ties (all when None), upsets and walkovers at random."""
    played = 0
    while cup.ready(c) and (games is None or played < games):
        _, _, tie = rng.choice(cup.ready(c))
        assert tie.a is not None and tie.b is not None
        winner = rng.choice([tie.a, tie.b])
        c = cup.record(c, tie.a, tie.b, winner, walkover=rng.random() < walkovers)
        played += 1
    return c


def a_cup(count: int, *, finished: bool = False, seed: int = 0) -> Cup:
    """A cup of ``count`` players with half its first ties played (or played out), a player
    withdrawn from five players up."""
    rng = random.Random(seed * 100 + count)
    c = cup.new(players(count))
    if count >= 5:
        c = cup.withdraw(c, players(count)[count // 2])
    return play(c, rng, None if finished else len(cup.ready(c)) // 2)


def render(c: Cup, names: dict[str, str], lang: str = "en") -> bytes:
    return render_bracket(c, names, lang, title="Spring Cup", subtitle="Season 3")


def drawn(c: Cup, names: dict[str, str], lang: str = "en") -> tuple[bytes, list[Text]]:
    with spying(CANVAS.factor) as texts:
        png = render(c, names, lang)
    return png, texts


def texts_in(texts: list[Text], box: tuple[float, float, float, float]) -> list[Text]:
    x0, y0, x1, y1 = box
    return [d for d in texts if x0 <= d.x <= x1 and y0 <= d.y <= y1]


# --- a valid image of a sane size ---------------------------------------------------------------


@pytest.mark.parametrize("finished", [False, True])
@pytest.mark.parametrize("count", COUNTS)
def test_valid_png_of_a_sane_size(count: int, finished: bool) -> None:
    c = a_cup(count, finished=finished)
    img = open_png(render(c, short_names(count)))
    lay = layout(len(c.rounds))
    assert img.size == (WIDTH, lay.height)
    # ~41 output px of height per player at most, never wider than the standings table
    assert 150 < img.height <= 300 + 42 * count
    assert (cup.champion(c) is not None) == finished


def test_height_grows_with_the_field_but_never_the_width() -> None:
    heights = [layout(rounds).height for rounds in range(1, 8)]
    assert heights == sorted(set(heights))
    for rounds in range(1, 8):
        lay = layout(rounds)
        right = max(box[2] for box in lay.boxes.values())
        assert min(box[0] for box in lay.boxes.values()) >= 20 and right <= WIDTH - 20


@pytest.mark.parametrize("rounds", range(1, 8))
def test_layout_boxes_are_apart_and_each_tie_sits_between_its_feeders(rounds: int) -> None:
    lay = layout(rounds)
    assert len(lay.boxes) == (1 << rounds) - 1  # every tie of the cup has its box
    assert lay.column_w >= 180  # room for a name at 550 px
    xs = {box[0] for box in lay.boxes.values()}
    assert len(xs) == min(rounds, MAX_COLUMNS)  # never more columns than MAX_COLUMNS
    boxes = sorted([*lay.boxes.values(), lay.champion])
    for a, b in itertools.pairwise(boxes):
        if a[0] == b[0]:  # one column: stacked without overlap
            assert a[3] < b[1], (a, b)
    for block, _ in lay.blocks:
        for column, _, r, i in block.ties_by_column():
            if column == 0:
                continue
            upper, lower, box = (
                lay.boxes[r - 1, 2 * i],
                lay.boxes[r - 1, 2 * i + 1],
                lay.boxes[r, i],
            )
            assert upper[3] < (box[1] + box[3]) / 2 < lower[1]
            assert upper[2] < box[0]  # one column to the right
    final = lay.boxes[rounds - 1, 0]
    assert lay.champion[1] > final[3] and lay.champion[0] == final[0]


def test_a_large_cup_is_drawn_in_sections_then_the_finals() -> None:
    assert [b.section for b in bracket.blocks(4)] == [None]
    six = bracket.blocks(6)  # 64 players: four sections of 16, then the semi-finals and final
    assert [b.section for b in six] == [0, 1, 2, 3, None]
    assert six[-1].feeders and six[-1].first_round == MAX_COLUMNS and six[-1].columns == 2
    covered = sorted((r, i) for b in six for _, _, r, i in b.ties_by_column())
    assert covered == sorted((r, i) for r in range(6) for i in range(32 >> r))
    assert [bracket.letter(n) for n in (0, 1, 25, 26)] == ["A", "B", "Z", "27"]


# --- what is drawn ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("count", COUNTS)
def test_names_seeds_and_round_names_are_drawn(count: int, lang: str) -> None:
    c = a_cup(count)
    names = short_names(count)
    _, texts = drawn(c, names, lang)
    words = [d.text for d in texts]
    # every player in the first round: name and seed number
    for seed, player in enumerate(c.seeds, 1):
        assert names[player] in words
        assert str(seed) in words
    rounds = len(c.rounds)
    headings = [round_name(lang, r, rounds) for r in range(rounds)]
    assert set(headings) <= set(words)
    assert headings[-1] == t(lang, "league.cup.bracket.final")
    if rounds >= 2:
        assert headings[-2] == t(lang, "league.cup.bracket.semi_final")
    if rounds >= 4:
        assert headings[0] == t(lang, "league.cup.bracket.round", number=1)
    assert words.count(t(lang, "league.cup.bracket.bye")) == len(cup.byes(c))
    sections = 1 << (rounds - MAX_COLUMNS) if rounds > MAX_COLUMNS else 0
    for n in range(sections):
        assert t(lang, "league.cup.bracket.section", letter=bracket.letter(n)) in words


def test_round_names_in_both_languages() -> None:
    assert [round_name("en", r, 6) for r in range(6)] == [
        "Round 1",
        "Round 2",
        "Round 3",
        "Quarter-final",
        "Semi-final",
        "Final",
    ]
    assert [round_name("ja", r, 6) for r in range(6)] == [
        "1回戦",
        "2回戦",
        "3回戦",
        "準々決勝",
        "準決勝",
        "決勝",
    ]
    assert round_name("en", 0, 1) == "Final"


def test_catalogue_labels_exist_in_both_languages_and_draw_whole() -> None:
    used = [
        "league.cup.bracket.bye",
        "league.cup.bracket.champion",
        "league.cup.bracket.final",
        "league.cup.bracket.forfeit",
        "league.cup.bracket.quarter_final",
        "league.cup.bracket.round",
        "league.cup.bracket.section",
        "league.cup.bracket.section_winner",
        "league.cup.bracket.semi_final",
    ]
    assert assert_keys_in_both_languages(used, "league.cup.bracket.") == set(used)
    for lang in ("en", "ja"):
        assert_catalogue_renderable("league.cup.bracket.", lang)


def test_languages_differ_only_in_the_words() -> None:
    c = a_cup(8)
    en, ja = render(c, short_names(8), "en"), render(c, short_names(8), "ja")
    assert open_png(en).size == open_png(ja).size
    assert diff_box(en, ja) is not None
    assert render(c, short_names(8), "en") == en  # the same cup draws the same bytes


def test_byes_forfeits_and_winners_are_marked_in_their_ties() -> None:
    c = cup.new(players(5))  # seeds 1-3 through by byes; 4 v 5 to play
    c = cup.record(c, "104", "105", "105", walkover=True)  # seed 4 forfeits
    names = short_names(5)
    png, texts = drawn(c, names)
    lay = layout(len(c.rounds))
    img = open_png(png)
    for i, tie in enumerate(c.rounds[0]):
        box = lay.boxes[0, i]
        inside = [d.text for d in texts_in(texts, box)]
        if tie.how == BYE:
            assert "bye" in inside and names[tie.a or ""] in inside
            assert "forfeit" not in inside
        else:
            assert tie.how == WALKOVER and tie.winner == "105"
            assert inside.count("forfeit") == 1
            # the forfeit mark is on the loser's line (seed 4, the upper slot)
            mark = next(d for d in texts_in(texts, box) if d.text == "forfeit")
            assert mark.y < (box[1] + box[3]) / 2
            # the winner's line (the lower slot) is on the gold band, the loser's is not
            x = round(box[2] - 20)
            assert img.getpixel((x, round(box[3] - 3))) == LEADER_BG
            assert img.getpixel((x, round(box[1] + 3))) != LEADER_BG
    # nobody won a game by a bye: no gold band in a bye's box
    bye_box = lay.boxes[0, 0]
    assert img.getpixel((round(bye_box[2] - 20), round(bye_box[1] + 3))) != LEADER_BG


@pytest.mark.parametrize("count", [2, 13, 64])
def test_the_champion_is_named_once_decided(count: int) -> None:
    names = short_names(count)
    open_cup = a_cup(count)
    _, texts = drawn(open_cup, names)
    lay = layout(len(open_cup.rounds))
    assert [d.text for d in texts_in(texts, lay.champion)] == ["Champion"]
    done = a_cup(count, finished=True)
    winner = cup.champion(done)
    assert winner is not None
    png, texts = drawn(done, names)
    assert [d.text for d in texts_in(texts, lay.champion)] == ["Champion", names[winner]]
    x0, y0, _, _ = lay.champion
    img = open_png(png)
    rim = [img.getpixel((round(x0) + 1, round(y0) + dy)) for dy in range(8, 20)]
    assert GOLD in rim


def test_the_finals_say_which_section_comes_there() -> None:
    c = cup.new(players(32))  # two sections: their winners meet in the final
    _, texts = drawn(c, short_names(32))
    final = layout(5).boxes[4, 0]
    assert [d.text for d in texts_in(texts, final)] == [
        "Winner of section A",
        "Winner of section B",
    ]


# --- hostile names ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("count", [8, 64])
def test_hostile_names_stay_inside_their_boxes(count: int, lang: str) -> None:
    kinds = list(HOSTILE.values())
    names = {p: kinds[n % len(kinds)] for n, p in enumerate(players(count))}
    c = a_cup(count, finished=True)
    png, texts = drawn(c, names, lang)
    lay = layout(len(c.rounds))
    assert open_png(png).size == (WIDTH, lay.height)
    for box in [*lay.boxes.values(), lay.champion]:
        for d in texts_in(texts, box):
            assert box[0] < d.left and d.right < box[2], (d, box)
    for d in texts:
        assert d.left >= 0 and d.right <= WIDTH, d
        assert "\n" not in d.text and "\u202e" not in d.text
    words = {d.text for d in texts}
    assert "Ryu" in words and "さくら" in words
    assert any(w.startswith("Bartholomew") and w.endswith("…") for w in words)
    # a name with nothing the font can draw (emoji, Arabic, blank) is the player's id
    fallen_back = {p for p, name in names.items() if not name.strip() or name in ("علي", "🐉🔥👑")}
    assert fallen_back and fallen_back <= words


def test_a_long_name_is_cut_at_its_box_and_the_gap_stays_clear() -> None:
    long = HOSTILE["long"]
    c = cup.new(players(8))
    png = render(c, {"101": long})
    assert png == render(c, {"101": long + "XXXXXXXX"})  # cut at the same place
    assert png != render(c, {"101": "Bart"})
    _, y0, x1, _ = layout(3).boxes[0, 0]
    img = open_png(png)
    gap = img.crop((round(x1) + 2, round(y0) + 3, round(x1) + 12, round(y0) + 20))
    assert len(gap.getcolors() or []) == 1  # nothing spilled past the box


# --- legible where players see it ---------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("count", [2, 13, 64])
def test_legible_at_discord_width(count: int, lang: str) -> None:
    c = a_cup(count, finished=True)
    assert smallest_at(lambda: render(c, short_names(count), lang), 550) >= 9
