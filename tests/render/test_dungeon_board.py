"""The dungeon board (cogs/dungeon/board.py): a PNG in both languages, deterministic, only the
revealed rooms drawn, figures where the view puts them, arrows for the last moves, the players'
options numbered on the map during a monster tie, and every catalogue string drawable."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.dice import DiceStream
from cogs.dungeon import board, players, rules
from cogs.dungeon.content import parse_label
from tests.render.pngs import assert_catalogue_renderable, diff_box, open_png

NAMES = {"A": "Aurora", "B": "ボレアリス"}


def play(seed: int, scenario: str, seats: int, until: Any) -> rules.DungeonState:
    """A game of the demo's players, stopped when ``until(state)`` holds."""
    rng = random.Random(seed)
    state = rules.new_game(
        "g", list(rules.SEATS[:seats]), {"scenario": scenario}, DiceStream(b"\x07" * 32, "s")
    )
    for step in range(1, 200):
        if until(state) or rules.outcome(state).finished:
            return state
        state, _ = rules.start_step(state, DiceStream(bytes([seed, step % 256]) * 16, "p"))
        orders = {
            s: rules.parse(state, s, players.choose(state, s, rng)) for s in rules.awaiting(state)
        }
        state, _ = rules.resolve(state, orders, DiceStream(bytes([seed, step % 256, 1]) * 11, "r"))
    return state


def pixel(
    png: bytes, view: dict, hex_label: str, dx: float = 0.0, dy: float = 0.0
) -> tuple[int, int, int]:
    """The colour at the centre of a hex on the rendered board (``dx``, ``dy`` in hex sizes)."""
    m = board._Map.of(view)
    x, y = m.center(parse_label(hex_label))
    x += dx * m.layout.size
    y += dy * m.layout.size
    img = open_png(png)
    return img.getpixel((round(x / board.SS), round(y / board.SS)))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_renders_a_png_in_each_language(lang: str) -> None:
    view = rules.view(play(1, "crypt", 2, lambda s: s.round >= 2), None)
    img = open_png(board.render(view, lang, NAMES))
    assert img.width > 900 and img.height >= 600


def test_render_is_deterministic_and_leaves_the_view_alone() -> None:
    view = rules.view(play(2, "crypt", 2, lambda s: s.round >= 2), None)
    before = copy.deepcopy(view)
    assert board.render(view, "en", NAMES) == board.render(view, "en", NAMES)
    assert view == before


def test_japanese_and_english_differ() -> None:
    view = rules.view(play(3, "crypt", 2, lambda s: False), None)
    assert diff_box(board.render(view, "en", NAMES), board.render(view, "ja", NAMES)) is not None


def test_only_revealed_rooms_are_drawn_and_a_door_shows_the_room_behind() -> None:
    state = rules.new_game("g", ["A", "B"], {"scenario": "crypt"}, DiceStream(b"\x07" * 32, "s"))
    view = rules.view(state, None)
    png = board.render(view, "en", NAMES)
    dark, floor = pixel(png, view, "I5"), pixel(png, view, "B1")
    assert dark != floor  # the ossuary is not drawn until its door opens
    opened = play(4, "crypt", 2, lambda s: bool(s.open_doors))
    assert opened.open_doors, "the demo players open the door"
    view2 = rules.view(opened, None)
    assert pixel(board.render(view2, "en", NAMES), view2, "I5") != dark


def test_figures_stand_on_their_hexes() -> None:
    state = play(5, "crypt", 2, lambda s: s.phase == "act")
    view = rules.view(state, None)
    png = board.render(view, "en", NAMES)
    hero = next(h for h in view["heroes"] if h["hex"])
    monster = view["monsters"][0]
    # a character's disc is its seat colour; a monster's square is red (both in the upper part
    # of the hex, above its label)
    assert pixel(png, view, hero["hex"], dx=-0.3, dy=-0.2) == board.SEAT_COLOURS[hero["seat"]]
    r, g, b = pixel(png, view, monster["hex"], dx=-0.3, dy=-0.2)
    assert r > 150 and g < 90 and b < 90


def test_the_map_fills_its_box_from_the_first_round() -> None:
    """Round 1 shows one room: it is drawn large, not at the scale of the whole dungeon."""
    first = rules.view(play(1, "crypt", 2, lambda s: True), None)
    assert len(first["hexes"]) == 25
    m = board._Map.of(first)
    centres = [m.center(parse_label(h)) for h in first["hexes"]]
    x0, x1 = min(x for x, _ in centres), max(x for x, _ in centres)
    y0, y1 = min(y for _, y in centres), max(y for _, y in centres)
    bx0, by0, bx1, by1 = board.MAP_BOX
    # the room's extent covers most of the map's box one way or the other
    assert max((x1 - x0) / board.SS / (bx1 - bx0), (y1 - y0) / board.SS / (by1 - by0)) > 0.75
    assert m.size_out >= 45
    whole = board._Map(tuple(parse_label(h) for h in _all_hexes()))
    assert whole.size_out >= 34  # every room open: still labels a 550-px reader can read


def _all_hexes() -> list[str]:
    state = play(4, "crypt", 2, lambda s: bool(s.open_doors))
    return rules.view(state, None)["hexes"]


def test_a_monster_is_tagged_so_it_is_neither_a_seat_nor_a_hex() -> None:
    from bot.i18n import t

    for lang in ("en", "ja"):
        tag = t(lang, "dungeon.board.monster_tag", number=6)
        assert parse_label(tag) is None and tag not in rules.SEATS
        assert tag in t(lang, "dungeon.board.monster_name", name="x", number=6)


def test_the_legend_names_every_tile_the_map_draws() -> None:
    assert {"door", "open_door", "thin_wall", "trap", "obstacle"} <= set(board.LEGEND)


def test_the_last_moves_are_drawn_as_arrows() -> None:
    state = play(6, "crypt", 2, lambda s: bool(s.last) and s.phase == "act")
    view = rules.view(state, None)
    with_arrows = board.render(view, "en", NAMES)
    view_without = {**view, "last": []}
    assert diff_box(with_arrows, board.render(view_without, "en", NAMES)) is not None


def test_a_tie_numbers_its_options_on_the_map() -> None:
    state = play(2, "crypt", 2, lambda s: s.phase == "tie")
    assert state.phase == "tie"
    view = rules.view(state, None)
    png = board.render(view, "en", NAMES)
    no_tie = board.render({**view, "tie_labels": [], "tie": None}, "en", NAMES)
    # option 1's gold disc (its number is drawn in the middle: look beside it)
    m = board._Map.of(view)
    x, y = board.tie_mark_centres(m, view)[0]
    at = (round((x - m.layout.size * 0.2) / board.SS), round(y / board.SS))
    assert open_png(png).getpixel(at) == board.TIE
    assert open_png(no_tie).getpixel(at) != board.TIE


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_strings_draw_whole(lang: str) -> None:
    assert_catalogue_renderable("dungeon.board.", lang)
    assert_catalogue_renderable("dungeon.monster.", lang)
    assert_catalogue_renderable("dungeon.card.", lang)
    assert_catalogue_renderable("dungeon.scenario.crypt", lang)


def test_the_cached_map_layer_never_leaks_into_another_view() -> None:
    closed = rules.view(play(4, "crypt", 2, lambda s: False), None)
    opened = rules.view(play(4, "crypt", 2, lambda s: bool(s.open_doors)), None)
    first = board.render(closed, "en", NAMES)
    board.render(opened, "en", NAMES)
    board.render(closed, "ja", NAMES)
    assert board.render(closed, "en", NAMES) == first
    sprung = {**closed, "terrain": {k: v for k, v in closed["terrain"].items() if v != "trap"}}
    assert diff_box(board.render(sprung, "en", NAMES), first) is not None


def test_attacks_damage_and_deaths_are_drawn() -> None:
    state = play(6, "crypt", 2, lambda s: any(x.get("kind") == "attack" for x in s.last))
    view = rules.view(state, None)
    hits = [x for x in view["last"] if x.get("kind") == "attack"]
    assert hits, "the seeded game has an attack"
    moves_only = {**view, "last": [x for x in view["last"] if x.get("kind") == "move"]}
    plain = board.render(moves_only, "en", NAMES)
    assert diff_box(board.render(view, "en", NAMES), plain) is not None
    # a death leaves a cross where the figure fell, although the view no longer has it
    fell = {**moves_only, "last": [*moves_only["last"], {**hits[0], "killed": True}]}
    killed = {**fell, "last": [*fell["last"][:-1], {**hits[0], "killed": False}]}
    assert diff_box(board.render(fell, "ja", NAMES), board.render(killed, "ja", NAMES))
