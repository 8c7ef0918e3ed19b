"""The Esper planet board: PNGs of a sane size for 5 and 11 seats, early, late and over, in both
languages; legible at Discord's width; deterministic; every word on it from the view, the players'
names or the catalogue (a name the view does not give is never drawn)."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

from bot.i18n import catalogue
from bot.render import fonts
from cogs.esper import board
from tests.render.pngs import (
    assert_catalogue_renderable,
    assert_keys_in_both_languages,
    diff_box,
    open_png,
)

LETTERS = "ABCDEFGHIJK"
SILHOUETTES = {
    "c01": ("Lock", "ロック"),
    "c02": ("Nia of the Long Night", "長い夜のニア"),
    "c03": ("Yamato", "ヤマト"),
    "c04": ("Jessica", "ジェシカ"),
    "c05": ("Lorelei", "ローレライ"),
    "c06": ("Cyborg Commander", "サイボーグ司令官"),
    "c07": ("Kael", "カエル"),
    "c08": ("Ran", "ラン"),
    "c09": ("The Emperor", "皇帝"),
    "c10": ("Mirror", "ミラー"),
    "c11": ("Grey Wanderer", "灰色の放浪者"),
}
CARDS = {
    "p01": ("Archive", "資料庫"),
    "p02": ("Black hole", "ブラックホール"),
    "p03": ("Ability cache", "能力カード入手"),
    "p04": ("Meteor storm", "流星嵐"),
    "p05": ("Shuttle", "シャトル"),
    "p06": ("Abandoned research station", "放棄された研究所"),
    "p07": ("Hospital", "病院"),
    "p08": ("Rafnor gate", "ラフノールへの門"),
}
PLAYERS = {"A": "Aurora", "B": "ボレアリス", "C": "Cassiopeia the Very Long Named", "D": "Dana"}
PLAYERS.update({s: f"Player {s}{s}" for s in LETTERS[4:]})


def _names(ids: list[str]) -> dict[str, dict[str, str]]:
    table = {**SILHOUETTES, **CARDS}
    return {i: {"en": table[i][0], "ja": table[i][1]} for i in ids}


def _seat(
    silhouette: str | None, side: str | None, spot: str | None, **more: Any
) -> dict[str, Any]:
    seat = {
        "silhouette": silhouette,
        "side": side,
        "spot": spot,
        "alive": True,
        "black_hole": False,
        "open": None,
        "damage": 0,
        "info": 0,
        "abilities": 0,
        "party": None,
        "refusals": 0,
        "declared": False,
    }
    seat.update(more)
    return seat


def early_view(count: int) -> dict[str, Any]:
    """The first turn: every invader on P1's spaceport (the default start), nothing face up."""
    seats = {}
    sils = list(SILHOUETTES)
    for i, letter in enumerate(LETTERS[:count]):
        invader = i % 3 != 1  # about a third are defenders
        seats[letter] = _seat(
            sils[i], "invader" if invader else "defender", "P1-0" if invader else None
        )
    first = next(s for s, v in seats.items() if v["side"] == "invader")
    return {
        "stage": "planets",
        "step": "turn",
        "turn": 0,
        "active": first,
        "seats": seats,
        "planets": {},
        "rafnor": None,
        "ambush": None,
        "declaration": None,
        "last": [{"seat": s, "from": None, "to": "P1-0", "how": "start"} for s in seats][:1],
        "names": _names(sils[:count]),
    }


def late_view(count: int) -> dict[str, Any]:
    """Turn 47: many spots face up or spent, the ambush revealed, parties, the dead, a black hole,
    Rafnor face up with a piece on it, a teleport and a walk this step."""
    view = early_view(count)
    planets = {}
    cards = list(CARDS)
    for n, spot in enumerate(f"P{p}-{k}" for p in range(1, 7) for k in range(1, 7)):
        if n % 3 == 0:
            planets[spot] = "x"
        elif n % 3 == 1:
            planets[spot] = cards[n % len(cards)]
    spots = ["P3-2", "P3-2", "P5-4", "P2-0", "P2-0", "P6-1", "P3-2", "P4-6"]
    invaders = [s for s, v in view["seats"].items() if v["side"] == "invader"]
    for i, seat in enumerate(invaders):
        view["seats"][seat].update(spot=spots[i], damage=i % 3, info=(i + 1) % 3, abilities=i % 2)
    view["seats"][invaders[-1]]["spot"] = "R"
    defenders = [s for s, v in view["seats"].items() if v["side"] == "defender"]
    seats = view["seats"]
    seats[invaders[0]].update(party=1, open=seats[invaders[0]]["silhouette"], declared=True)
    seats[invaders[1]].update(party=1)
    seats[invaders[2]].update(black_hole=True)
    seats[defenders[0]].update(alive=False, open="c06" if count > 5 else "c02", damage=9)
    if len(invaders) > 5:
        seats[invaders[4]].update(party=2)
        seats[invaders[5]].update(party=2, alive=False)
    active = invaders[1]
    view.update(
        turn=47,
        active=active,
        step="objection",
        declaration=invaders[0],
        planets=planets,
        rafnor="p08",
        ambush="P3-2",
        last=[
            {"seat": active, "from": "P3-4", "to": "P3-2", "how": "teleport"},
            {"seat": invaders[-1], "from": "P5-3", "to": "R", "how": "rafnor"},
            {"seat": invaders[0], "from": "P3-1", "to": "P3-2", "how": "move"},
        ],
    )
    shown = [v["silhouette"] for v in seats.values()] + [v["open"] for v in seats.values()]
    view["names"] = _names(sorted({i for i in shown + cards if i}))
    return view


def over_view(count: int) -> dict[str, Any]:
    view = late_view(count)
    sheets = list(SILHOUETTES)
    alignments = ("GOOD", "EVIL", "SPECIAL")
    cards = ("Q♠", "10♥", "A♦", "7♣", "K♠", "2♥", "J♣", "3♦", "9♠", "A♥", "5♣")
    view.update(stage="over", step="over", active=None, declaration=None, last=[])
    view["reveal"] = {
        s: {
            "sheet": sheets[(i + 3) % len(sheets)],
            "alignment": alignments[i % 3],
            "card": cards[i],
        }
        for i, s in enumerate(view["seats"])
    }
    view["grades"] = {s: "ABCD"[i % 4] for i, s in enumerate(view["seats"])}
    view["names"] = _names(
        sorted(set(view["names"]) | {r["sheet"] for r in view["reveal"].values()})
    )
    return view


VIEWS = {"early": early_view, "late": late_view, "over": over_view}
CASES = [(m, n, lang) for m in VIEWS for n in (5, 11) for lang in ("en", "ja")]


@pytest.mark.parametrize(("moment", "count", "lang"), CASES)
def test_renders_a_legible_png_of_a_sane_size(moment: str, count: int, lang: str) -> None:
    view = VIEWS[moment](count)
    with fonts.recording() as log:
        png = board.render(view, lang, PLAYERS)
    image = open_png(png)
    assert image.size == board.board_size(count)
    assert 700 <= image.width <= 760 and 700 <= image.height <= 1100
    assert log.at_width(550) >= 9, (log.smallest(), max(log.widths))
    assert len(png) < 400_000


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_setup_and_sparse_views(lang: str) -> None:
    """Before silhouettes are revealed (no side, no spot), and a view missing optional keys."""
    setup = {
        "stage": "setup",
        "step": "deal",
        "turn": 0,
        "active": None,
        "seats": {s: _seat(None, None, None, refusals=1) for s in LETTERS[:6]},
        "planets": {},
        "names": {},
    }
    assert open_png(board.render(setup, lang)).size == board.board_size(6)
    sparse = {"stage": "planets", "step": "turn", "seats": {"A": {"spot": "P2-3"}, "B": {}}}
    assert open_png(board.render(sparse, lang, {"A": "x"})).size == board.board_size(2)


def test_deterministic() -> None:
    view = late_view(11)
    assert board.render(view, "ja", PLAYERS) == board.render(late_view(11), "ja", PLAYERS)


def test_face_up_cards_moves_and_ambush_change_the_map() -> None:
    view = late_view(7)
    bare = dict(view, planets={}, rafnor=None, ambush=None, last=[])
    box = diff_box(board.render(view, "en", PLAYERS), board.render(bare, "en", PLAYERS))
    assert box is not None
    assert box[3] <= board.ROSTER_Y  # only the map and the strip differ, not the roster


def test_the_roster_fits_eleven_seats_and_the_map_any_piece() -> None:
    width, height = board.board_size(11)
    assert height > board.ROSTER_Y + board.ROSTER_HEAD + 11 * board.ROW_H
    assert sum(w for _, w in board.PLAY_COLUMNS) == width - 2 * board.MARGIN
    assert sum(w for _, w in board.OVER_COLUMNS) == width - 2 * board.MARGIN
    # seven invaders on one spaceport (eleven seats, all starting on P1) stay on the map
    spots = [f"P{p}-{k}" for p in range(1, 7) for k in range(7)] + ["R"]
    for spot in spots:
        places = board._token_places(spot, 8)
        assert len(set(places)) == 8
        for x, y in places:
            assert board.EDGE <= x <= width - board.EDGE, spot
            assert y - board.TOKEN >= board.MAP_Y and y + board.TOKEN <= board.ROSTER_Y, spot


def test_spot_geometry() -> None:
    assert board.parse_spot("P3-2") == (3, 2)
    for bad in ("P7-0", "P3-7", "R", "P3", None, "x"):
        assert board.parse_spot(bad) is None
    # the spaceport on top; right (the next number) is clockwise; P1-6's right is P1-0
    port, one, six = (board.spot_centre(f"P1-{i}") for i in (0, 1, 6))
    assert port and one and six
    assert port[1] < one[1] and one[0] > port[0] and six[0] < port[0]
    assert board.spot_centre("R") == board.RAFNOR_AT


def test_step_text() -> None:
    view = late_view(5)
    assert board.step_text(dict(view, step="turn"), "en") == f"Turn 48 · {view['active']} to play"
    assert board.step_text(view, "en").endswith(f"{view['declaration']} declares: answers")
    assert "ターン48" in board.step_text(view, "ja")
    assert board.step_text(over_view(5), "ja") == "ゲーム終了"
    assert board.step_text(dict(view, stage="setup", step="silhouette"), "en") == (
        "Picking silhouettes"
    )


# --- only the view's words -------------------------------------------------------------------


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string the board draws."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield seen


def _allowed(view: dict[str, Any], lang: str) -> set[str]:
    """Whole words the board may draw: names from the view, players', catalogue words, seat
    letters, spot labels, numbers, grades and playing cards."""
    words = set(PLAYERS.values()) | {"—", "†", "?"}
    for entry in view["names"].values():
        words |= {entry["en"], entry["ja"]}
    words |= {v for k, v in catalogue(lang).items() if k.startswith("esper.board.")}
    words |= set(LETTERS) | {f"P{p}" for p in range(1, 7)}
    words |= {f"P{p}-{k}" for p in range(1, 7) for k in range(7)} | {"R"}
    words |= {str(n) for n in range(100)} | {"A", "J", "Q", "K"}
    return words


def _explained(text: str, allowed: set[str]) -> bool:
    """A whole allowed word, or a piece of one (a line of a wrapped name, a name cut with "…")."""
    core = text.rstrip("…")
    return text in allowed or (bool(core) and any(core in word for word in allowed))


@pytest.mark.parametrize("moment", list(VIEWS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_draws_only_what_the_view_gives(drawn: list[str], moment: str, lang: str) -> None:
    view = VIEWS[moment](7)
    board.render(view, lang, PLAYERS)
    allowed = _allowed(view, lang)
    titles = {board._stage_text(view, lang), board.step_text(view, lang)}
    strange = [
        text for text in drawn if text not in titles and not _explained(text, allowed | titles)
    ]
    assert strange == []


def test_a_name_the_view_does_not_give_is_never_drawn(drawn: list[str]) -> None:
    view = late_view(7)
    # the card on P1-2 face down, its name left out of the view: the id is never swapped for a
    # name from elsewhere; a face-up id the view does not name is drawn as its id
    view["planets"]["P1-2"] = "p99"
    board.render(view, "en", PLAYERS)
    assert "p99" in drawn
    every = " ".join(drawn)
    for en, ja in [*SILHOUETTES.values(), *CARDS.values()]:
        named = any(en == e["en"] for e in view["names"].values())
        if not named:
            assert en not in every and ja not in every, en


def test_an_unopened_sheet_is_not_drawn(drawn: list[str]) -> None:
    view = late_view(5)
    # the view names only silhouettes and the opened sheet; another character's name is absent
    board.render(view, "en", PLAYERS)
    assert "The Emperor" not in " ".join(drawn)  # c09: nobody's silhouette in a 5-seat game


def test_names_without_glyphs_or_players_fall_back() -> None:
    view = early_view(5)
    view["names"]["c01"] = {"en": "🐉", "ja": ""}
    png = board.render(view, "en", {"A": "🔥"})
    assert open_png(png).width == board.WIDTH
    assert board.name_of(view, "c01", "en") == "c01"
    assert board.name_of(view, "c03", "ja") == "ヤマト"
    assert board.name_of(view, "c03", "fr") == "Yamato"


def test_catalogue_words() -> None:
    source = Path(board.__file__).read_text("utf-8")
    used = {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith("esper.board.")
        and not node.value.endswith(".")  # the head of an f-string key
    }
    keys = assert_keys_in_both_languages(used, "esper.board.")
    for area in ("legend", "col", "step", "side", "alignment", "stage"):
        assert any(k.startswith(f"esper.board.{area}.") for k in keys), area
    for lang in ("en", "ja"):
        assert_catalogue_renderable("esper.board.", lang)


def test_example_boards(tmp_path: Path) -> None:
    """The examples a reviewer looks at: ``ESPER_BOARD_EXAMPLES=1`` writes them to
    ``/tmp/esper-board-*.png`` (else to the test's own folder)."""
    folder = Path("/tmp") if os.environ.get("ESPER_BOARD_EXAMPLES") else tmp_path
    for name, view, lang in (
        ("early-5-en", early_view(5), "en"),
        ("early-11-ja", early_view(11), "ja"),
        ("late-11-ja", late_view(11), "ja"),
        ("late-7-en", late_view(7), "en"),
        ("over-11-en", over_view(11), "en"),
    ):
        png = board.render(view, lang, PLAYERS)
        (folder / f"esper-board-{name}.png").write_bytes(png)
        assert open_png(png).width == board.WIDTH
