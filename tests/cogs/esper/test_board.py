"""The Esper planet board: PNGs of a sane size for 5 and 11 seats, early, late and over, in both
languages; legible at Discord's width; deterministic; every word on it from the view, the players'
names or the catalogue (a name the view does not give is never drawn)."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageChops, ImageDraw

from bot.i18n import catalogue
from bot.render import fonts
from cogs.esper import base_board, board, board_kit, combat_board, rules
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
            assert y - board.TOKEN >= board_kit.MAP_Y and y + board.TOKEN <= board.ROSTER_Y, spot


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
    modules = (board, board_kit, base_board, combat_board)  # the board and the parts it draws
    used = {
        node.value
        for module in modules
        for node in ast.walk(ast.parse(Path(module.__file__).read_text("utf-8")))
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


# --- part 2: the secret base and combats ---------------------------------------------------------

BASE_CARDS = {
    "b01": ("Empty Corridor", "無人の通路"),
    "b04": ("Auto Turret", "自動砲台"),
    "b07": ("Med Station", "医療ステーション"),
    "b09": ("Data Core", "データコア"),
    "b10": ("Weapons Locker", "武器庫"),
}
KEYS = {
    "key1": ("Main Reactor", "主動力炉"),
    "key2": ("Command Core", "司令中枢"),
    "key3": ("Gravity Engine", "重力機関"),
    "key4": ("Warp Beacon Tower", "ワープ標識塔"),
}
C_CARDS = {
    "k05": ("Kinetic Lance", "念動槍"),
    "k12": ("Soul Rend", "魂裂き"),
    "k16": ("Force Wall", "力場の壁"),
    "k03": ("Shock Wave", "衝撃波"),  # in a hand: never drawn
}


def _part_two_names(ids: list[str]) -> dict[str, dict[str, str]]:
    table = {**SILHOUETTES, **CARDS, **BASE_CARDS, **KEYS, **C_CARDS}
    return {i: {"en": table[i][0], "ja": table[i][1]} for i in ids}


def base_view(count: int) -> dict[str, Any]:
    """The base, turn 60: invaders inside and waiting around it, EVIL silhouettes inside, cards
    face up (one spent), a key installation found and damaged, another destroyed."""
    view = early_view(count)
    spots = ["A1", "B2", "B2", "C4", "F6", "D5", "E3", "A6", "F1", "C3", "D2"]
    for i, seat in enumerate(view["seats"].values()):
        outside = i in (2, 5, 8)
        seat.update(spot=None if outside else spots[i], outside=outside, damage=i % 4)
    first = next(iter(view["seats"]))
    view["seats"][first]["alive"] = False
    view.update(
        stage="base",
        step="turn",
        turn=59,
        planets={},
        base={
            "up": {"A1": "b01", "B2": "b04", "C4": "b10", "D5": "b07", "F6": "b09"},
            "spent": ["F6"],
            "keys": {
                "B2": {"id": "key1", "damage": 5, "destroyed": False},
                "E1": {"id": "key3", "damage": 9, "destroyed": True},
            },
            "keys_total": 3,
            "outside": [s for i, s in enumerate(view["seats"]) if i in (2, 5, 8)],
        },
        combat=None,
        last=[
            {"seat": "B", "from": "B1", "to": "B2", "how": "move"},
            {"seat": "D", "from": "C1", "to": "C4", "how": "teleport"},
        ],
    )
    sils = [v["silhouette"] for v in view["seats"].values()]
    view["names"] = _part_two_names([*sils, "b01", "b04", "b10", "b07", "b09", "key1", "key3"])
    return view


def with_combat(view: dict[str, Any], spot: str, seats: list[str]) -> dict[str, Any]:
    """A combat of ``seats`` on ``spot``, round 2: the second to act is answering a fixed-column
    attack, the first keeps a defence up."""
    view = dict(view)
    order = list(seats)
    cards = ["A♠", "3♣", "7♣", "2♥", "9♦", "10♠", "5♥", "6♦"]
    view["step"] = "defend"
    view["combat"] = {
        "spot": spot,
        "why": "fight",
        "round": 2,
        "seats": list(seats),
        "key": spot if spot == "B2" else None,
        "order": order,
        "cards": {s: cards[i % len(cards)] for i, s in enumerate(order)},
        "current": order[1],
        "hands": {s: 5 + i for i, s in enumerate(order)},
        "henchmen": {order[0]: 2},
        "maintained": {order[0]: {"card": "k16", "level": 2, "blocks": ["E"], "upkeep": 1}},
        "attack": {
            "by": order[1],
            "target": order[0],
            "kind": "card",
            "card": "k12",
            "level": 5,
            "attribute": "M",
            "firepower": None,
            "column": 5,  # the engine's view gives the column's index
        },
        "late": [s for s in view["seats"] if s not in seats][:1],
    }
    view["names"] = {**view["names"], **_part_two_names(["k12", "k16"])}
    return view


BASE_CASES = [(n, lang, fought) for n in (5, 11) for lang in ("en", "ja") for fought in (0, 1)]


@pytest.mark.parametrize(("count", "lang", "fought"), BASE_CASES)
def test_the_base_board_renders_legibly(count: int, lang: str, fought: int) -> None:
    view = base_view(count)
    if fought:
        view = with_combat(view, "B2", list(view["seats"])[1:4])
    with fonts.recording() as log:
        png = board.render(view, lang, PLAYERS)
    image = open_png(png)
    assert image.size == board.board_size(count, view)
    assert image.width == board.WIDTH and 800 <= image.height <= 1500
    assert log.at_width(550) >= 9, (log.smallest(), max(log.widths))
    assert len(png) < 500_000
    if fought:  # the combat's panel sits between the strip and the roster
        assert image.height == board.board_size(count, base_view(count))[1] + (
            board.combat_height(view) + 6
        )


def test_base_geometry() -> None:
    assert board.base_cell("A1") == (board_kit.GRID_X, board_kit.GRID_Y, *board.base_cell("B2")[:2])
    for bad in ("G1", "A7", "A0", "P1-2", None, "B"):
        assert board.base_cell(bad) is None
    last = board.base_cell("F6")
    assert last is not None and last[2] <= board.WIDTH - board.MARGIN + 1
    assert last[3] < board.BASE_STRIP_Y
    # pieces stay inside their cell, clear of its key installation's band
    for count in range(1, 9):
        box = board.base_cell("C3")
        assert box is not None
        for x, y in base_board._base_token_places("C3", count):
            assert box[0] < x - board_kit.BASE_TOKEN and x + board_kit.BASE_TOKEN < box[2]
            assert box[1] < y - board_kit.BASE_TOKEN and y + board_kit.BASE_TOKEN <= box[3] - 17


def test_a_key_installation_the_view_does_not_list_is_never_drawn(drawn: list[str]) -> None:
    view = base_view(7)
    # every key installation named (as if the names leaked) and a seat's own list of them:
    # only the public ``base.keys`` (found or destroyed) may be drawn
    view["names"] = {**view["names"], **_part_two_names(list(KEYS))}
    view["you"] = {"keys": {"B2": "key1", "D5": "key2", "E1": "key3", "F3": "key4"}}
    board.render(view, "en", PLAYERS)
    every = " ".join(drawn)
    assert any(text.startswith("Main Reac") for text in drawn)  # B2, found (perhaps cut)
    assert any(text.startswith("Gravity") for text in drawn)  # E1, destroyed
    for hidden in ("key2", "key4"):
        en, ja = KEYS[hidden]
        assert en.split()[0] not in every and ja[:2] not in every, hidden
    assert "D5" in drawn and "F3" in drawn  # their spots as face-down cards, nothing more


def _templates(lang: str) -> list[re.Pattern[str]]:
    """Every board template of ``lang`` as a pattern, its placeholders as wildcards."""
    out = []
    for key, value in catalogue(lang).items():
        if key.startswith("esper.board.") and "{" in value:
            parts = re.split(r"\{\w+\}", value)
            out.append(re.compile(".+".join(re.escape(p) for p in parts) + "…?"))
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_base_and_a_combat_draw_only_what_the_view_gives(drawn: list[str], lang: str) -> None:
    view = with_combat(base_view(7), "B2", ["B", "C", "D"])
    board.render(view, lang, PLAYERS)
    allowed = _allowed(view, lang) | {f"{c}{r}" for c in "ABCDEF" for r in range(1, 7)}
    allowed |= {"▶", "5:1"} | set(view["combat"]["cards"].values())
    titles = {board._stage_text(view, lang), board.step_text(view, lang)}
    patterns = _templates(lang)

    def explained(text: str) -> bool:
        if text in titles or _explained(text, allowed):
            return True
        if any(r.fullmatch(text.rstrip("…")) for r in patterns):
            return True
        pieces = text.split(" · ")
        return all(
            _explained(p, allowed) or any(r.fullmatch(p.rstrip("…")) for r in patterns)
            for p in pieces
        )

    assert [text for text in drawn if not explained(text)] == []
    every = " ".join(drawn)
    assert C_CARDS["k03"][0] not in every and C_CARDS["k03"][1] not in every
    # the panel: each participant's hand size, the attack's card, the defence kept up
    for i in range(3):
        assert any(str(5 + i) in text for text in drawn if "5" <= text[-1:] <= "9")
    assert any(C_CARDS["k12"][0 if lang == "en" else 1] in text for text in drawn)
    assert any(C_CARDS["k16"][0 if lang == "en" else 1] in text for text in drawn)
    assert any("5:1" in text for text in drawn)


def test_a_combat_on_the_planets_gets_its_panel() -> None:
    view = late_view(7)
    fought = with_combat(view, "P3-2", ["A", "B", "D"])
    assert board.board_size(7, fought)[1] == board.board_size(7)[1] + (
        board.combat_height(fought) + 6
    )
    png = board.render(fought, "ja", PLAYERS)
    assert open_png(png).size == board.board_size(7, fought)
    # under the header, the map differs only by the combat's mark round P3-2
    plain = open_png(board.render(view, "ja", PLAYERS))
    image = open_png(png)
    box = (0, board.HEADER + 2, board.WIDTH, board.STRIP_Y)
    changed = ImageChops.difference(image.crop(box), plain.crop(box)).getbbox()
    centre = board.spot_centre("P3-2")
    assert changed is not None and centre is not None
    left, top, right, bottom = changed
    assert left <= centre[0] <= right and top <= centre[1] - board.HEADER - 2 <= bottom
    assert right - left < 2 * board.RING and bottom - top < 2 * board.RING


def test_an_engine_base_view_renders_in_both_languages(drawn: list[str]) -> None:
    """The view the engine gives in the base (after the key installations are hidden), in a
    combat there too; an EVIL silhouette's own view draws no key installation either."""
    from tests.cogs.esper.test_present import Run, fight, to_base, to_turns

    run = Run.new()
    to_turns(run)
    to_base(run)
    run.step({s: "keys B2 D5 E1" for s in run.defenders()})
    while run.state.step == "place":
        run.step()
    names = {spot: run.state.pack.keys[k["id"]] for spot, k in run.state.keys.items()}
    evil = run.defenders()[0]
    for view in (rules.view(run.state, None), rules.view(run.state, evil)):
        for lang in ("en", "ja"):
            png = board.render(view, lang, PLAYERS)
            assert open_png(png).size == board.board_size(len(view["seats"]), view)
    every = " ".join(drawn)
    for key in names.values():
        assert key.name_en not in every and key.name_ja not in every
    del fight  # (the planets' fight helper: combats are drawn above)


def test_step_text_in_combat_and_base() -> None:
    view = with_combat(base_view(5), "B2", ["B", "C"])
    assert board.step_text(view, "en") == "Combat B2 · round 2 · B defends"
    assert board.step_text(view, "ja") == "戦闘 B2・第2ラウンド · Bの防御"
    assert board.step_text(dict(view, step="keys", combat=None), "en") == (
        "Key installations hidden in secret"
    )
    assert board._stage_text(view, "ja") == "エスパー戦争 · 第二部：秘密基地"


def test_example_base_boards(tmp_path: Path) -> None:
    """``ESPER_BOARD_EXAMPLES=1`` writes the base's examples to ``/tmp/esper-board-*.png``."""
    folder = Path("/tmp") if os.environ.get("ESPER_BOARD_EXAMPLES") else tmp_path
    for name, view, lang in (
        ("base-7-en", base_view(7), "en"),
        ("base-11-ja", base_view(11), "ja"),
        ("base-combat-7-en", with_combat(base_view(7), "B2", ["B", "C", "D"]), "en"),
        ("base-combat-11-ja", with_combat(base_view(11), "B2", list("BCDEFGHI")), "ja"),
        ("planets-combat-7-en", with_combat(late_view(7), "P3-2", ["A", "B", "D"]), "en"),
    ):
        png = board.render(view, lang, PLAYERS)
        (folder / f"esper-board-{name}.png").write_bytes(png)
        assert open_png(png).width == board.WIDTH
