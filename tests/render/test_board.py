"""Arena Duel board renderer: valid PNGs, both languages, every state element, purity."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render import fonts, hexgrid
from cogs.arena import board
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

ROOT = Path(__file__).resolve().parent.parent.parent
PANEL_X0 = board.PANEL_X0


def fighter(h: tuple[int, int], facing: str, stamina: int = 15, **flags: bool) -> dict[str, Any]:
    return {
        "hex": list(h),
        "facing": facing,
        "stamina": stamina,
        "may_charge": flags.get("may_charge", False),
        "no_retreat": flags.get("no_retreat", False),
    }


START: dict[str, Any] = {
    "turn": 1,
    "fighters": {"A": fighter((0, 2), "N"), "B": fighter((0, -2), "S")},
    "obstacles": [],
    "last_turn": None,
    "dice": {},
    "outcome": None,
}
MID: dict[str, Any] = {
    "turn": 4,
    "fighters": {
        "A": fighter((0, 0), "N", 11, may_charge=True),
        "B": fighter((1, -1), "SW", 9, no_retreat=True),
    },
    "obstacles": [[-1, -1], [2, 0]],
    "last_turn": {
        "turn": 3,
        "paths": {"A": [[0, 2], [0, 1], [0, 0]], "B": [[1, -2], [1, -1]]},
        "charged": {"A": True, "B": False},
    },
    "dice": {},
    "outcome": None,
}
PRIVATE: dict[str, Any] = {**MID, "dice": {"A": [6, 2, 5]}}
FINISHED: dict[str, Any] = {
    "turn": 12,
    "fighters": {"A": fighter((-1, 1), "NE", 2), "B": fighter((0, 0), "SW", 0)},
    "obstacles": [],
    "last_turn": {
        "turn": 11,
        "paths": {"A": [[-1, 2], [-1, 1]], "B": [[0, 0]]},
        "charged": {"A": False, "B": False},
    },
    "dice": {},
    "outcome": "A",
}
NAMES = {
    "A": "🐉 Ryūnosuke the Unbreakable Gladiator of the Northern Wastes 🔥",
    "B": "オレンジ侍🔥",
}
STATES = {"start": START, "mid": MID, "private": PRIVATE, "finished": FINISHED}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("state", list(STATES))
def test_renders_valid_png_of_expected_size(state: str, lang: str) -> None:
    img = open_png(board.render(STATES[state], lang, NAMES, title="金曜リーグ 🔥 Round 2"))
    assert img.size == (board.WIDTH, board.HEIGHT) == (900, 720)


@pytest.mark.parametrize("state", list(STATES))
def test_languages_differ(state: str) -> None:
    assert diff_box(board.render(STATES[state], "en"), board.render(STATES[state], "ja"))


def test_states_differ_from_each_other() -> None:
    images = {name: board.render(view, "en") for name, view in STATES.items()}
    names = list(images)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert diff_box(images[a], images[b]), (a, b)


def test_render_is_deterministic_and_does_not_mutate_view() -> None:
    view = copy.deepcopy(MID)
    first = board.render(view, "ja", NAMES)
    assert board.render(view, "ja", NAMES) == first
    assert view == MID


def test_json_round_trip_view_renders_the_same() -> None:
    assert board.render(json.loads(json.dumps(MID)), "en") == board.render(MID, "en")


def test_private_dice_only_change_the_panel() -> None:
    box = diff_box(board.render(MID, "en"), board.render(PRIVATE, "en"))
    assert box is not None and box[0] >= PANEL_X0  # drawn in the side panel, not on the board
    assert box[1] >= board.CARD_Y["A"]  # and in A's card


def test_dice_values_change_the_faces() -> None:
    other = {**PRIVATE, "dice": {"A": [1, 2, 5]}}
    assert diff_box(board.render(PRIVATE, "en"), board.render(other, "en"))


def test_restrictions_and_charge_are_drawn_on_board_and_panel() -> None:
    plain = copy.deepcopy(MID)
    plain["fighters"]["B"]["no_retreat"] = False
    box = diff_box(board.render(MID, "en"), board.render(plain, "en"))
    assert box is not None and box[0] < PANEL_X0 < box[2]  # back hexsides + badge
    plain["fighters"]["A"]["may_charge"] = False
    box = diff_box(board.render(MID, "en"), board.render(plain, "en"))
    assert box is not None and box[2] > PANEL_X0


def test_charge_path_is_drawn_differently_from_a_normal_move() -> None:
    walked = copy.deepcopy(MID)
    walked["last_turn"]["charged"]["A"] = False
    assert diff_box(board.render(MID, "en"), board.render(walked, "en"))


def test_damage_collision_and_fight_are_drawn_where_they_happened() -> None:
    hit = copy.deepcopy(MID)
    hit["last_turn"].update(damage={"A": 0, "B": 2}, fight="A", collision=None)
    # the fight's swords lie between the fighters, the damage burst on B's far side
    box = diff_box(board.render(hit, "en"), board.render(MID, "en"))
    assert box is not None and box[2] <= PANEL_X0
    crashed = copy.deepcopy(hit)
    crashed["last_turn"]["collision"] = [-1, 1]
    box = diff_box(board.render(crashed, "en"), board.render(hit, "en"))
    cx, cy = board.LAYOUT.center((-1, 1))
    assert (
        box is not None and box[0] <= cx / board.SS <= box[2] and box[1] <= cy / board.SS <= box[3]
    )
    # the rules say there was no fight: no swords, although the two now stand side by side
    apart = copy.deepcopy(MID)
    apart["last_turn"].update(damage={"A": 0, "B": 0}, fight=None, collision=None)
    assert diff_box(board.render(apart, "en"), board.render(MID, "en")) is not None


def test_head_on_paths_and_both_dice_render() -> None:
    view = {
        "turn": 7,
        "fighters": {"A": fighter((0, -1), "N", -1), "B": fighter((0, 1), "S", 8)},
        "obstacles": [],
        "last_turn": {
            "turn": 6,
            "paths": {"A": [[0, 1], [0, 0], [0, -1]], "B": [[0, -1], [0, 0], [0, 1]]},
            "charged": {"A": True, "B": False},
        },
        "dice": {"A": [1, 3, 4], "B": [2, 2, 6]},
        "outcome": "draw",
    }
    assert open_png(board.render(view, "ja")).size == (900, 720)


@pytest.mark.parametrize("outcome", ["A", "B", "draw"])
def test_outcome_banner(outcome: str) -> None:
    finished = {**FINISHED, "outcome": outcome}
    running = {**FINISHED, "outcome": None}
    box = diff_box(board.render(finished, "ja", NAMES), board.render(running, "ja", NAMES))
    assert box is not None and box[1] < board.HEADER_H + 100  # banner at the top of the board


def test_names_long_japanese_emoji_and_defaults() -> None:
    default = board.render(MID, "en")
    assert diff_box(default, board.render(MID, "en", {"A": "山田太郎", "B": "Bob"}))
    # Names made only of glyphs the font lacks fall back to the default label.
    assert board.render(MID, "en", {"A": "🐉🔥", "B": "\u200d"}) == default
    assert board.render(MID, "en", {}) == default


def test_renderable_drops_missing_glyphs_and_keeps_japanese() -> None:
    assert fonts.renderable("🐉 Ryu 🔥") == "Ryu"
    assert fonts.renderable("オレンジ侍🔥") == "オレンジ侍"
    assert fonts.renderable("a\n\tb") == "a b"
    assert not fonts.has_glyph("😀")
    assert fonts.has_glyph("撃") and fonts.has_glyph("…")


def test_fit_truncates_to_width_with_ellipsis() -> None:
    fnt = fonts.font(20, bold=True)
    text = "Ryūnosuke the Unbreakable Gladiator"
    cut = fonts.fit(text, fnt, 150)
    assert cut.endswith(fonts.ELLIPSIS) and fnt.getlength(cut) <= 150
    assert fonts.fit("Bob", fnt, 150) == "Bob"
    _, smaller = fonts.fit_sized("x" * 30, (30, 20), 10_000)
    assert smaller.size == 30


def _drawn(fnt: Any, words: list[str]) -> bytes:
    img = Image.new("RGB", (420, 40 * len(words)), (20, 20, 30))
    draw = ImageDraw.Draw(img)
    for i, word in enumerate(words):
        draw.text((5, 5 + 40 * i), word, font=fnt, fill=(230, 200, 90), anchor="la")
        draw.text((410, 5 + 40 * i), word, font=fnt, fill=(90, 200, 230), anchor="ra",
                  stroke_width=2, stroke_fill=(0, 0, 0))  # fmt: skip
    return img.tobytes()


def test_cached_fonts_draw_and_measure_what_plain_fonts_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled fonts keep rasterised text between renders: the same pixels and widths as a
    plain FreeType font, drawn again from the cache, and the cache stays within its bytes."""
    words = ["Ryu", "オレンジ侍", "12", "Ryu", "撃…", "A→B", "12"]
    cached = fonts.font(22, bold=True)
    plain = ImageFont.truetype(
        str(fonts.FONT_DIR / "Mplus1-Bold.otf"), 22, layout_engine=ImageFont.Layout.BASIC
    )
    assert _drawn(cached, words) == _drawn(plain, words)
    assert _drawn(cached, words) == _drawn(plain, words)  # from the cache this time
    assert [cached.getlength(w) for w in words * 2] == [plain.getlength(w) for w in words * 2]
    monkeypatch.setattr(fonts, "MASK_CACHE_BYTES", 2_000)
    _drawn(cached, [f"label {n}" for n in range(40)])
    assert 0 < fonts._mask_bytes <= 2_000 or len(fonts._masks) == 1


def _used_keys() -> set[str]:
    source = (ROOT / "cogs" / "arena" / "board.py").read_text("utf-8")
    keys = set(re.findall(r'"(arena\.board\.[a-z_.]+)"', source))
    keys |= {f"arena.board.dir.{name}" for name in hexgrid.FACINGS}  # built with an f-string
    return keys


def test_every_board_key_exists_in_both_languages() -> None:
    used = _used_keys()
    assert len(used) > 10
    assert_keys_in_both_languages(used, "arena.board.")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_catalogue_strings_have_glyphs_in_bundled_font(lang: str) -> None:
    assert_catalogue_renderable("arena.board.", lang)


def test_hexgrid_geometry() -> None:
    cells = hexgrid.hexagon(2)
    assert len(cells) == 19 and len(set(cells)) == 19
    assert len(hexgrid.ring(3)) == 18
    layout = hexgrid.Layout(10, (0, 0))
    for d, (dq, dr) in enumerate(hexgrid.DIRECTIONS):
        # The neighbour in direction d lies through hexside d, whose midpoint is on that line.
        nx, ny = layout.center((dq, dr))
        mx, my = layout.edge_mid((0, 0), d)
        assert abs(nx / 2 - mx) < 1e-9 and abs(ny / 2 - my) < 1e-9
        a, b = layout.edge((0, 0), d)
        assert abs((a[0] + b[0]) / 2 - mx) < 1e-9 and abs((a[1] + b[1]) / 2 - my) < 1e-9
    assert layout.center((0, -1))[0] == 0 and layout.center((0, -1))[1] < 0  # N is straight up
    assert hexgrid.facing_index("sw") == 4 == hexgrid.facing_index(10)
    assert hexgrid.neighbor((0, 2), 0) == (0, 1)
    assert hexgrid.distance((0, 2), (0, -2)) == 4


def test_pure_modules_import_no_discord_or_storage() -> None:
    code = (
        "import sys\n"
        "import bot.render.hexgrid, bot.render.fonts, bot.render.draw, cogs.arena.board\n"
        "bad = sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.')"
        " or m.startswith('bot.storage'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_no_arrows_or_legend_when_nobody_moved() -> None:
    apart = copy.deepcopy(MID)
    apart["fighters"]["B"]["hex"] = [2, -2]  # not adjacent: no fight mark either
    still = {**apart, "last_turn": {"turn": 3, "paths": {"A": [[0, 0]], "B": [[2, -2], [2, -2]]}}}
    assert board.render(still, "en") == board.render({**apart, "last_turn": None}, "en")


def test_adjacent_fighters_after_a_turn_show_the_fight() -> None:
    apart = copy.deepcopy(MID)
    apart["fighters"]["A"]["hex"], apart["fighters"]["B"]["hex"] = [0, 0], [1, -1]
    last = {"turn": 3, "paths": {"A": [[0, 0]], "B": [[1, -1]]}}
    assert diff_box(board.render({**apart, "last_turn": last}, "en"), board.render(apart, "en"))


def test_finished_match_shows_no_next_turn_badges() -> None:
    flagged = copy.deepcopy(FINISHED)
    flagged["fighters"]["A"].update(may_charge=True, no_retreat=True)
    assert board.render(flagged, "en") == board.render(FINISHED, "en")
