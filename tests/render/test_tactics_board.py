"""Tactics board renderer: valid PNGs of a fixed size, both languages, every mark, any map size."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageChops

from bot.render import fonts, squaregrid
from cogs.tactics import board
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

ROOT = Path(__file__).resolve().parent.parent.parent
NAMES = {
    "A": "🐉 Ryūnosuke the Unbreakable Gladiator of the Northern Wastes 🔥",
    "B": "オレンジ侍🔥",
}


def unit(
    uid: str,
    kind: str,
    en: str,
    ja: str,
    square: str | None,
    hp: int,
    max_hp: int,
    *,
    exhausted: bool = False,
    master: bool = False,
    effects: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "id": uid,
        "side": uid[0],
        "kind": kind,
        "name": {"en": en, "ja": ja},
        "square": square,
        "hp": hp,
        "max_hp": max_hp,
        "exhausted": exhausted,
        "master": master,
        "effects": effects or [],
    }


def zone(rows: range, width: int = 10) -> list[str]:
    return [squaregrid.label((c, r)) for r in rows for c in range(width)]


def make_view(**changes: Any) -> dict[str, Any]:
    """A realistic mid-game 10×10 view: 11 units, exhausted ones, masters, effects, last turn."""
    view: dict[str, Any] = {
        "step": "play",
        "turn": 4,
        "max_turns": 10,
        "first": "B",
        "map": {
            "name": {"en": "Old Ford", "ja": "古い渡し場"},
            "width": 10,
            "height": 10,
            "obstacles": ["E5", "F5", "B7", "I4", "I5"],
            "zones": {"A": zone(range(8, 10)), "B": zone(range(0, 2))},
        },
        "units": [
            unit("A1", "commander", "Commander", "指揮官", "E9", 12, 15, master=True),
            unit(
                "A2",
                "knight",
                "Knight",
                "剣士",
                "C6",
                7,
                10,
                exhausted=True,
                effects=[{"stat": "atk", "delta": 2, "turns": 1}],
            ),
            unit("A3", "archer", "Archer", "弓兵", "F8", 5, 8, exhausted=True),
            unit("A4", "cleric", "Cleric", "僧侶", "D8", 6, 6),
            unit(
                "A5",
                "sorcerer",
                "Sorcerer",
                "妖術師",
                "H8",
                3,
                7,
                effects=[{"stat": "def", "delta": -1, "turns": 2}],
            ),
            unit("B1", "warlord", "Warlord", "覇王", "F2", 14, 16, master=True),
            unit(
                "B2",
                "dark_knight",
                "Dark Knight",
                "暗黒騎士",
                "D6",
                4,
                12,
                exhausted=True,
                effects=[
                    {"stat": "def", "delta": -2, "turns": 1},
                    {"stat": "atk", "delta": 1, "turns": 2},
                ],
            ),
            unit("B3", "lancer", "Lancer", "槍兵", "G4", 9, 9, exhausted=True),
            unit("B4", "mage", "Mage", "魔導士", "E3", 5, 6),
            unit("B5", "skeleton", "Skeleton", "骸骨兵", "B3", 2, 5, exhausted=True),
            unit("B6", "golem", "Golem", "ゴーレム", "H3", 11, 14),
        ],
        "dp": {"A": 3, "B": 1},
        "mana": {"A": [3, 5], "B": [1, 5]},
        "alive": {"A": 5, "B": 6},
        "last": [
            {"kind": "move", "side": "B", "unit": "B2", "path": ["D3", "D4", "D5", "D6"]},
            {
                "kind": "ability",
                "side": "B",
                "unit": "B4",
                "from": "E3",
                "to": "D6",
                "friendly": True,
            },
            {
                "kind": "attack",
                "side": "B",
                "unit": "B3",
                "from": "G4",
                "to": "H3",
                "friendly": True,
            },
            {"kind": "move", "side": "A", "unit": "A2", "path": ["C8", "C7", "C6"]},
            {
                "kind": "attack",
                "side": "A",
                "unit": "A2",
                "from": "C6",
                "to": "D6",
                "friendly": False,
            },
            {"kind": "move", "side": "A", "unit": "A3", "path": ["G9", "F9", "F8"]},
            {
                "kind": "attack",
                "side": "A",
                "unit": "A3",
                "from": "F8",
                "to": "E3",
                "friendly": False,
            },
            {
                "kind": "ability",
                "side": "A",
                "unit": "A5",
                "from": "H8",
                "to": "G4",
                "friendly": False,
            },
        ],
        "outcome": None,
    }
    view.update(changes)
    return view


def deploy_view(**changes: Any) -> dict[str, Any]:
    """The deployment step: zones on an empty board, nobody placed yet, no last turn."""
    base = make_view()
    return {
        **base,
        "step": "deploy",
        "turn": 0,
        "first": None,
        "units": [],
        "last": [],
        "dp": {"A": 10, "B": 10},
        "mana": {"A": [0, 5], "B": [0, 5]},
        "alive": {"A": 0, "B": 0},
        **changes,
    }


def cell_of(view: dict[str, Any], square: str) -> tuple[float, float, float]:
    """Output-pixel centre and size of ``square`` on ``view``'s map."""
    grid = board._grid(view["map"]["width"], view["map"]["height"])
    x, y = grid.center(squaregrid.parse(square))
    return x / board.SS, y / board.SS, grid.cell / board.SS


def map_diff(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    """Where two renders differ above the sides' boxes (the header and the map)."""
    box = (0, 0, board.WIDTH, board.PANEL_Y0)
    return ImageChops.difference(open_png(a).crop(box), open_png(b).crop(box)).getbbox()


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


# --- the image as a whole ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("maker", [make_view, deploy_view])
def test_renders_a_png_of_the_fixed_size(maker: Any, lang: str) -> None:
    img = open_png(board.render(maker(), lang, NAMES))
    assert img.size == (board.WIDTH, board.HEIGHT) == (720, 1090)


def test_render_is_deterministic_and_does_not_mutate_the_view() -> None:
    view = make_view()
    kept = copy.deepcopy(view)
    first = board.render(view, "ja", NAMES)
    assert board.render(view, "ja", NAMES) == first
    assert board.render(json.loads(json.dumps(view)), "ja", NAMES) == first
    assert view == kept


def test_japanese_and_english_differ() -> None:
    assert diff_box(board.render(make_view(), "en", NAMES), board.render(make_view(), "ja", NAMES))
    assert diff_box(board.render(deploy_view(), "en"), board.render(deploy_view(), "ja"))


def test_unit_names_follow_the_language_in_the_unit_list() -> None:
    """A unit's name is in its side's list under the map (a token carries its label and HP)."""
    view = make_view()
    renamed = make_view()
    renamed["units"][1]["name"]["ja"] = "侍"
    assert board.render(view, "en") == board.render(renamed, "en")
    box = diff_box(board.render(view, "ja"), board.render(renamed, "ja"))
    x0, x1 = board.BOX_X["A"]
    assert box is not None and box[1] >= board.PANEL_Y0 and x0 <= box[0] and box[2] <= x1


def test_long_and_emoji_names_stay_within_the_panel() -> None:
    plain = board.render(make_view(), "en", {"A": "Al", "B": "Bo"})
    long = board.render(make_view(), "en", NAMES)
    box = diff_box(plain, long)
    assert box is not None and box[1] >= board.PANEL_Y0 and box[3] <= board.PANEL_Y1
    # Names made only of glyphs the font lacks fall back to "Player A".
    assert board.render(make_view(), "en", {"A": "🐉🔥", "B": "\u200d"}) == board.render(
        make_view(), "en", {}
    )
    endless = {"A": "W" * 200, "B": "渡" * 200}
    over = make_view(step="over", outcome="A")
    box = diff_box(
        board.render(over, "ja", {"A": "Al", "B": "Bo"}), board.render(over, "ja", endless)
    )
    assert box is not None and box[1] >= board.PANEL_Y0 and box[2] <= board.PANEL_X1


@pytest.mark.parametrize(("width", "height"), [(8, 12), (12, 8), (26, 26), (6, 6)])
def test_other_map_sizes_render(width: int, height: int) -> None:
    view = make_view()
    view["map"].update(width=width, height=height, zones={"A": ["A1", "B1"], "B": ["A2"]})
    view["map"]["obstacles"] = ["B2", "Z26"]  # off-map squares are ignored
    img = open_png(board.render(view, "ja", NAMES))
    assert img.size == (board.WIDTH, board.HEIGHT)
    # The grid stays inside the board area.
    grid = board._grid(width, height)
    x0, y0, x1, y1 = (v / board.SS for v in grid.bounds)
    ax0, ay0, ax1, ay1 = board.BOARD_AREA
    assert ax0 <= x0 and x1 <= ax1 and ay0 <= y0 and y1 <= ay1


def test_empty_deploy_board_and_roster_render() -> None:
    deploy = board.render(deploy_view(), "en")
    roster = board.render(deploy_view(step="roster"), "en")
    open_png(deploy)
    box = diff_box(deploy, roster)
    assert box is not None  # the step name in the header (and the zone tint) differ
    assert box[1] < board.HEADER_H
    # Units without a square yet (choosing the roster) are not on the map, only in the list.
    unplaced = deploy_view(
        step="roster",
        units=[{**unit("A1", "knight", "Knight", "剣士", None, 10, 10), "status": "reserve"}],
    )
    assert map_diff(board.render(unplaced, "en"), roster) is None
    assert diff_box(board.render(unplaced, "en"), roster) is not None


def test_malformed_bits_are_ignored() -> None:
    view = make_view(
        last=[{"kind": "move", "side": "A", "path": ["C4"]}, {"kind": "attack", "to": "??"}]
    )
    view["units"].append(unit("A9", "ghost", "Ghost", "亡霊", "Q99", 1, 1))
    assert map_diff(board.render(view, "en"), board.render(make_view(last=[]), "en")) is None


# --- pixels ------------------------------------------------------------------------------------


def test_zone_squares_are_tinted_in_their_side_colour() -> None:
    view = deploy_view()
    img = open_png(board.render(view, "en"))
    bare = deploy_view()
    bare["map"] = {**view["map"], "zones": {"A": [], "B": []}}
    plain = open_png(board.render(bare, "en"))
    for seat, square in (("A", "E9"), ("B", "E2")):
        x, y, _ = cell_of(view, square)
        tinted, floor = img.getpixel((x, y)), plain.getpixel((x, y))
        assert tinted != floor
        side = board.SIDE[seat]
        # Moved from the floor towards the side colour on every channel that differs.
        for t_c, f_c, s_c in zip(tinted, floor, side, strict=True):
            assert abs(t_c - s_c) <= abs(f_c - s_c)
    x, y, _ = cell_of(view, "E5")  # an obstacle, not a zone
    assert img.getpixel((x, y)) == plain.getpixel((x, y))


def test_token_colour_is_its_sides() -> None:
    view = make_view()
    img = open_png(board.render(view, "en"))
    c = cell_of(view, "A1")[2]
    for square, seat in (("D8", "A"), ("E3", "B")):  # fresh units
        x, y, _ = cell_of(view, square)
        # Inside the token body, above its label.
        probe = img.getpixel((round(x), round(y - c * 0.38)))
        assert close(probe, board.SIDE[seat]), (square, probe)


def test_exhausted_unit_differs_from_a_fresh_one() -> None:
    fresh = make_view()
    tired = make_view()
    tired["units"][3]["exhausted"] = True  # A4 cleric on D8
    box = map_diff(board.render(fresh, "en"), board.render(tired, "en"))
    x, y, c = cell_of(fresh, "D8")
    assert box is not None
    half = c / 2 + 2  # the corner mark may touch the grid line
    assert x - half <= box[0] and box[2] <= x + half and y - half <= box[1] and box[3] <= y + half
    img = open_png(board.render(tired, "en"))
    probe = img.getpixel((round(x), round(y - c * 0.38)))
    assert not close(probe, board.SIDE["A"], 40)  # greyed out


def test_master_and_effects_are_marked() -> None:
    view = make_view()
    plain = make_view()
    plain["units"][0]["master"] = False
    box = map_diff(board.render(view, "en"), board.render(plain, "en"))
    x, y, _c = cell_of(view, "E9")
    assert box is not None and box[0] < x and box[1] < y  # crown at the top left of the token
    plain["units"][1]["effects"] = []
    box = diff_box(board.render(view, "en"), board.render(plain, "en"))
    assert box is not None


def test_move_arrow_changes_pixels_along_its_path() -> None:
    moved = make_view()
    still = make_view(last=[a for a in moved["last"] if a["unit"] != "A2"])
    a, b = open_png(board.render(moved, "en")), open_png(board.render(still, "en"))
    x, y, c = cell_of(moved, "C7")  # the middle square of C8 → C7 → C6
    changed = sum(
        a.getpixel((round(x + dx), round(y + dy))) != b.getpixel((round(x + dx), round(y + dy)))
        for dx in range(-4, 5)
        for dy in range(-int(c / 3), int(c / 3))
    )
    assert changed > 20
    x, y, _ = cell_of(moved, "C8")  # the start gets a ghost ring
    assert diff_box(board.render(moved, "en"), board.render(still, "en"))


def test_attack_ability_and_friendly_fire_look_different() -> None:
    view = make_view(
        last=[{"kind": "attack", "side": "A", "from": "F8", "to": "E3", "friendly": False}]
    )
    images = {
        name: board.render(v, "en")
        for name, v in {
            "attack": view,
            "ability": make_view(last=[{**view["last"][0], "kind": "ability"}]),
            "friendly": make_view(last=[{**view["last"][0], "friendly": True}]),
            "none": make_view(last=[]),
        }.items()
    }
    assert len(set(images.values())) == 4
    # Attacks are red: some pixel along the line F8 → E3 is close to the attack colour.
    img = open_png(images["attack"])
    (x0, y0, _), (x1, y1, _) = cell_of(view, "F8"), cell_of(view, "E3")
    reds = sum(
        close(
            img.getpixel((round(x0 + (x1 - x0) * k / 40), round(y0 + (y1 - y0) * k / 40))),
            board.RED,
            30,
        )
        for k in range(41)
    )
    assert reds > 10


def test_header_and_outcome() -> None:
    running = make_view()
    won = make_view(step="over", outcome="B")
    draw = make_view(step="over", outcome="draw")
    box = diff_box(board.render(running, "en", NAMES), board.render(won, "en", NAMES))
    assert box is not None and box[1] < board.HEADER_H and box[3] > board.LEGEND_Y[0]
    assert diff_box(board.render(won, "ja", NAMES), board.render(draw, "ja", NAMES))
    later = make_view(turn=5)
    box = diff_box(board.render(running, "en"), board.render(later, "en"))
    assert box is not None and box[3] <= board.HEADER_H  # only the turn counter


def test_first_player_dp_and_mana_are_in_the_panel() -> None:
    view = make_view()
    for changed in (
        make_view(first="A"),
        make_view(dp={"A": 9, "B": 1}),
        make_view(mana={"A": [5, 5], "B": [1, 5]}),
        make_view(alive={"A": 4, "B": 6}),
    ):
        box = diff_box(board.render(view, "en", NAMES), board.render(changed, "en", NAMES))
        assert box is not None and box[1] >= board.PANEL_Y0


# --- strings and geometry ----------------------------------------------------------------------


def _used_keys() -> set[str]:
    source = (ROOT / "cogs" / "tactics" / "board.py").read_text("utf-8")
    keys = set(re.findall(r'"(tactics\.board\.[a-z_.]+)"', source))
    keys |= {
        f"tactics.board.step.{step}" for step in ("roster", "deploy")
    }  # built with an f-string
    return keys


def test_every_board_key_exists_in_both_languages() -> None:
    used = _used_keys()
    assert len(used) > 15
    assert assert_keys_in_both_languages(used, "tactics.board.") == used


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_strings_have_glyphs_in_the_bundled_font(lang: str) -> None:
    assert_catalogue_renderable("tactics.board.", lang)


def test_short_names_fit_the_token() -> None:
    sizes = (34, 30, 26, 24, 22, 20)
    for name in (
        "Knight",
        "Sorcerer",
        "Skeleton",
        "Dark Knight",
        "剣士",
        "暗黒騎士",
        "ネクロマンサー",
    ):
        label, fnt = board._short_name(name, 76, sizes)
        assert label and fnt.getlength(label) <= 76, name
    assert board._short_name("剣士", 76, sizes)[0] == "剣士"
    short = board._short_name("Dark Knight", 76, sizes)[0]
    assert short.startswith("D.K") and short != "D.K.", short  # initials, then the last word


def test_squaregrid_labels_and_rects() -> None:
    assert squaregrid.parse("A1") == (0, 0)
    assert squaregrid.parse("c4") == (2, 3)
    assert squaregrid.parse("Z26") == (25, 25)
    assert squaregrid.label((2, 3)) == "C4"
    assert all(
        squaregrid.parse(squaregrid.label((c, r))) == (c, r) for c in range(26) for r in range(26)
    )
    for bad in ("", "4C", "A0", "AA1", "A-1", None):
        assert squaregrid.try_parse(bad) is None
        if bad is not None:
            with pytest.raises(ValueError):
                squaregrid.parse(bad)
    with pytest.raises(ValueError):
        squaregrid.column_letter(26)
    grid = squaregrid.Grid(10, 8, 64, (10, 20))
    assert grid.rect((0, 0)) == (10, 20, 74, 84)
    assert grid.center((2, 3)) == (10 + 2.5 * 64, 20 + 3.5 * 64)
    assert grid.bounds == (10, 20, 650, 532)
    assert grid.contains((9, 7)) and not grid.contains((10, 0)) and not grid.contains((0, -1))
    assert len(grid.squares()) == 80 and grid.squares()[1] == (1, 0)


# --- read at 550 px wide (Discord's desktop; a phone is narrower still) -----------------------


def after_a_fight() -> dict[str, Any]:
    """make_view plus last turn's damage, a heal and a death, and a fallen and a reserve unit."""
    view = make_view()
    view["last"] += [
        {"kind": "damage", "side": "B", "unit": "B2", "at": "D6", "amount": 3},
        {"kind": "heal", "side": "A", "unit": "A4", "at": "D8", "amount": 2},
        {"kind": "death", "side": "B", "unit": "B7", "at": "B5"},
    ]
    view["units"] += [
        {**unit("B7", "bard", "Bard", "吟遊詩人", None, 0, 6), "status": "dead"},
        {**unit("A6", "hookman", "Hookman", "鉤縄使い", None, 8, 8), "status": "reserve"},
    ]
    return view


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("width", "height"), [(10, 10), (6, 6), (26, 26), (12, 8)])
def test_no_text_is_under_9_px_when_shown_550_px_wide(lang: str, width: int, height: int) -> None:
    view = after_a_fight()
    view["map"].update(width=width, height=height)
    over = {**view, "step": "over", "outcome": "A"}
    board._base.cache_clear()  # the cached layer's fonts count too
    with fonts.recording() as log:
        board.render(view, lang, NAMES)
        board.render(over, lang, NAMES)
    smallest = min(log.sizes) / board.SS
    assert smallest >= board.MIN_TEXT
    assert smallest * board.SHOWN_WIDTH / board.WIDTH >= 9


def test_the_map_fills_the_width() -> None:
    grid = board._grid(10, 10)
    x0, _y0, x1, _y1 = (v / board.SS for v in grid.bounds)
    assert (x1 - x0) / board.WIDTH >= 0.9


def test_tokens_carry_the_units_label_not_a_square_name() -> None:
    """The token shows ``A-4`` (what orders and the log say); renumbering a unit changes its
    token, and the label differs from the square it stands on."""
    view = make_view()
    renumbered = make_view()
    renumbered["units"][3]["id"] = "A9"  # the cleric on D8
    box = map_diff(board.render(view, "en"), board.render(renumbered, "en"))
    x, y, c = cell_of(view, "D8")
    assert box is not None
    assert x - c / 2 <= box[0] and box[2] <= x + c / 2 and y - c / 2 <= box[1] <= y + c / 2
    assert board._label(view["units"][3]) == "A-4"


def test_a_unit_that_fell_last_turn_is_crossed_out_where_it_stood_and_in_its_list() -> None:
    plain = make_view()
    plain["units"].append({**unit("B7", "bard", "Bard", "吟遊詩人", None, 0, 6), "status": "dead"})
    fell = copy.deepcopy(plain)
    fell["last"].append({"kind": "death", "side": "B", "unit": "B7", "at": "B5"})
    box = map_diff(board.render(plain, "en"), board.render(fell, "en"))
    x, y, c = cell_of(plain, "B5")
    assert box is not None and x - c / 2 <= box[0] and box[2] <= x + c / 2 + 1
    img = open_png(board.render(fell, "en"))
    reds = sum(
        close(img.getpixel((round(x + k), round(y + k - c * 0.06))), board.DEBUFF, 40)
        for k in range(-8, 9)
    )
    assert reds > 5  # the red cross through the square's middle
    # The list of B: the fallen bard's row differs from a living one.
    alive = copy.deepcopy(plain)
    alive["units"][-1].update(status="reserve", hp=6)
    box = diff_box(board.render(plain, "en"), board.render(alive, "en"))
    assert box is not None and box[1] >= board.PANEL_Y0 and box[0] >= board.BOX_X["B"][0]


def test_damage_shows_as_a_number_on_the_square_it_hit() -> None:
    view = make_view()
    hit = make_view()
    hit["last"].append({"kind": "damage", "side": "B", "unit": "B2", "at": "D6", "amount": 3})
    box = map_diff(board.render(view, "en"), board.render(hit, "en"))
    x, y, c = cell_of(view, "D6")
    assert box is not None and x - c / 2 <= box[0] and box[2] <= x + c / 2
    img = open_png(board.render(hit, "en"))
    assert close(img.getpixel((round(x - 1), round(y - c * 0.43 - 5))), board.DAMAGE_BG, 40)
    # The badge sits on the square's top edge: the token's label and HP stay as they were.
    assert box[3] <= y - c * 0.2


def test_strikes_are_drawn_under_the_tokens_never_over_the_attackers_hp() -> None:
    shot = make_view(
        last=[{"kind": "attack", "side": "A", "from": "F8", "to": "F2", "friendly": False}]
    )
    a, b = open_png(board.render(shot, "en")), open_png(board.render(make_view(last=[]), "en"))
    x, y, c = cell_of(shot, "F8")
    # The attacker's token and HP bar (the arrow leaves upwards through them) are untouched.
    for dy in range(round(-c * 0.4), round(c * 0.45)):
        assert a.getpixel((round(x), round(y + dy))) == b.getpixel((round(x), round(y + dy))), dy
    assert map_diff(board.render(shot, "en"), board.render(make_view(last=[]), "en"))
