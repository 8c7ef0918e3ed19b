"""Apeiron's prompt (issue 35): what changed since the seat's last prompt, the question, the 📋
sheet, buttons that name their unit, ability and target, the post's headline and its tallies."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.apeiron import rules
from cogs.apeiron.present import PRESENTER

from .helpers import card, play, situation, star, tiny_pack, unit

LANGS = ("en", "ja")


def bash_pack() -> dict[str, Any]:
    basher = unit("basher", hp=5, abilities=[star("damage", target="enemy", reach="adjacent")])
    basher.update(
        text_en="★ Bash: 1 damage to an adjacent enemy.", text_ja="★殴打：隣接する敵に1ダメージ。"
    )
    basher["abilities"][0].update(amount=1, cost=1)
    return tiny_pack(basher, unit("sol"), unit("tank", hp=9, power=1, move=1))


def test_the_first_prompt_has_no_news() -> None:
    state = situation([("sol", "C6", "N")], [("tank", "D5", "N")])
    for lang in LANGS:
        assert PRESENTER.seat_news(None, rules.view(state, "A"), "A", lang) == []


def test_news_says_the_damage_dealt_since_the_seats_last_prompt() -> None:
    state = situation([("sol", "C6", "N")], [("tank", "D5", "N")])
    memo = PRESENTER.seat_memo(rules.view(state, "B"), "B")
    assert len(json.dumps(memo)) < 400  # small: stored with the seat at every prompt
    state, _ = play(state, "C6>C5 E attack D5")
    assert state.active == "B"
    view = rules.view(state, "B")
    # one unit a side: extra-turn counts follow the damage and who came near
    assert PRESENTER.seat_news(memo, view, "B", "en")[:2] == [
        "💥 Your Tank on D5 took 2 damage: H 7.",
        "👣 A's Sol came to C5, next to your Tank (D5).",
    ]
    assert PRESENTER.seat_news(memo, view, "B", "ja")[0] == (
        "💥 あなたのユニットtank（D5）が2ダメージを受けました。残りH 7です。"
    )
    # nothing changed since a prompt: nothing to say
    again = PRESENTER.seat_memo(view, "B")
    assert PRESENTER.seat_news(again, view, "B", "en") == []


def _view(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "step": "play",
        "active": "A",
        "first": "A",
        "marker": {"A": 1, "B": 1},
        "units": {
            "A": [{"id": "sol", "square": "C5", "facing": "S", "hp": 4, "order": 1}],
            "B": [{"id": "tank", "square": "H9", "facing": "N", "hp": 9, "order": 1}],
        },
        "panels": [{"pos": p, "panel": "g", "kind": "grass", "rot": 0} for p in range(1, 10)],
        "side": {"A": None, "B": None},
        "chest_left": {"A": 6, "B": 6},
        "chance_used": {"A": False, "B": False},
        "extra_turn": {"A": None, "B": None},
        "cards": {
            "sol": {"name": {"en": "Sol", "ja": "兵"}, "hp": 4},
            "tank": {"name": {"en": "Tank", "ja": "戦車"}, "hp": 9},
            "i1": {"name": {"en": "Tonic", "ja": "強壮剤"}},
        },
    }
    base.update(over)
    return base


def test_news_of_an_enemy_come_near_a_draw_a_zone_and_a_panel() -> None:
    before = _view()
    memo = PRESENTER.seat_memo(before, "A")
    panels = list(before["panels"])
    panels[3] = "off"
    panels[4] = {"pos": 5, "panel": "f", "kind": "forest", "rot": 0}
    after = _view(
        units={
            "A": before["units"]["A"],
            "B": [{"id": "tank", "square": "D6", "facing": "N", "hp": 9, "order": 1}],
        },
        chest_left={"A": 6, "B": 5},
        side={"A": None, "B": {"card": "i1", "owner": "B"}},
        panels=panels,
        extra_turn={"A": 1, "B": None},
    )
    assert PRESENTER.seat_news(memo, after, "A", "en") == [
        "👣 B's Tank came to D6, next to your Sol (C5).",
        "🃏 B drew 1 from their chest (5 left).",
        "🎒 B's side zone now holds Tonic.",
        "🗺 Panel P4 left the field.",
        "🗺 Panel P5 is now Forest.",
        "⚠️ Extra turn 1/3: deal damage by the third or lose.",
    ]
    ja = PRESENTER.seat_news(memo, after, "A", "ja")
    assert ja[0] == "👣 Bの戦車がD6に来ました。あなたの兵（C5）の隣です。"
    assert all(line.endswith(("。", "です。")) for line in ja)


def test_the_reveal_is_news_once_and_the_middle_row_is_not() -> None:
    hidden: list[Any] = [None] * 9
    middle: list[Any] = [None] * 9
    for pos in (1, 2, 6):
        middle[pos - 1] = {"pos": pos, "panel": "g", "kind": "grass", "rot": 0}
    deck = PRESENTER.seat_memo(_view(panels=hidden, units={"A": [], "B": []}), "A")
    assert PRESENTER.seat_news(deck, _view(panels=middle), "A", "en") == []
    deploy = PRESENTER.seat_memo(_view(panels=middle, units={"A": [], "B": []}), "A")
    assert PRESENTER.seat_news(deploy, _view(), "A", "en") == [
        "🗺 Every panel and unit is revealed; A plays first."
    ]


def test_the_question_names_the_acting_unit_in_a_line() -> None:
    state = situation([("sol", "C6", "N")], [("tank", "D5", "N")])
    view = rules.view(state, "A")
    assert PRESENTER.question(view, "A", "en") == [
        "**A1 Sol on C6 acts** · H 4/4 · M 2 · facing ↑ north: move, then at most one action."
    ]
    (ja,) = PRESENTER.question(view, "A", "ja")
    assert ja.startswith("**C6のA1 ユニットsolの行動です**") and ja.endswith("ください。")


def test_the_sheet_is_the_seats_own_and_complete() -> None:
    pack = tiny_pack(
        unit("sol"), unit("tank", hp=9), chest=[card("i1", effect="heal", target="self", amount=2)]
    )
    state = situation(
        [("sol", "C6", "N")], [("tank", "D5", "N")], pack=pack, chest={"A": ["i1"], "B": []}
    )
    for lang in LANGS:
        mine = "\n".join(PRESENTER.private_lines(rules.view(state, "A"), "A", lang))
        theirs = "\n".join(PRESENTER.private_lines(rules.view(state, "B"), "B", lang))
        name = "I1" if lang == "en" else "カードi1"
        assert name in mine and name not in theirs  # the chest list is its owner's alone
        assert "▶" in mine and "C6" in mine and "H 4/4" in mine
        assert "D5" in theirs and "▶" not in theirs  # B's own units, B not acting
        memo = json.dumps(PRESENTER.seat_memo(rules.view(state, "A"), "A"))
        assert "i1" not in memo  # the memo holds counts, never the chest


def test_buttons_name_the_unit_the_ability_and_the_target() -> None:
    state = situation([("basher", "C5", "E")], [("tank", "D5", "W")], pack=bash_pack())
    groups = {g.name: g for g in rules.choices(state, "A")}
    assert [c.label("en") for c in groups["unit"].choices] == ["Act with A1 Basher (C5)"]
    assert [c.label("ja") for c in groups["unit"].choices] == ["C5のA1 ユニットbasherで行動"]
    paths = [c.label("en") for c in groups["move"].choices]
    assert all("→" in p or len(p) == 2 for p in paths) and "C4→B4" in paths
    for lang in LANGS:
        labels = [c.label(lang) for c in groups["action"].choices]
        assert len(labels) == len(set(labels)), labels  # each says what it does
        assert all(len(label) <= 80 for label in labels)
    actions = {c.token: c for c in groups["action"].choices}
    if "attack D5" in actions:  # legal from every reachable end only where the tank stands near
        assert actions["attack D5"].label("en") == "Attack Tank on D5"
    abilities = [c for token, c in actions.items() if token.startswith("ability")]
    for choice in abilities:
        assert choice.label("en").startswith("★ Bash → ") and "(H cost 1)" in choice.label("en")
        assert choice.label("ja").startswith("★殴打 → ")


def test_every_action_the_engine_offers_is_named() -> None:
    state = situation([("basher", "C5", "E")], [("tank", "D5", "W")], pack=bash_pack())
    unit_state = rules.acting_unit(state)
    texts = rules.action_texts(state, "A", unit_state)
    assert "attack D5" in texts and "ability D5" in texts
    labels = {t: rules.action_choice(state, "A", unit_state, t) for t in texts}
    assert labels["attack D5"].label("en") == "Attack Tank on D5"
    assert labels["attack D5"].label("ja") == "D5のユニットtankを攻撃"
    assert labels["ability D5"].label("en") == "★ Bash → D5 Tank (H cost 1)"
    assert labels["ability D5"].label("ja") == "★殴打 → D5 ユニットtank（コストH1）"


def test_the_headline_is_a_unit_lost_over_the_move_and_the_attack() -> None:
    names = {"A": "Aurora", "B": "Borealis"}
    state = situation([("sol", "C6", "N")], [("ghost", "D5", "N"), ("tank", "I9", "N")])
    state, events = play(state, "C6>C5 E attack D5")
    public = [e for e in events if e["type"] != "activation"]
    assert "death" in [e["type"] for e in public]
    for lang in LANGS:
        line = PRESENTER.headline(public, lang, names)
        assert line is not None and ("D5" in line) and ("falls" in line or "消滅" in line)
    assert PRESENTER.headline([e for e in public if e["type"] == "move"], "en", names) == (
        "Sol (A) moves C6→C5, facing → east."
    )


@pytest.mark.parametrize("lang", LANGS)
def test_tallies_are_one_field_per_seat_and_thing(lang: str) -> None:
    state = situation([("sol", "C6", "N")], [("tank", "D5", "N")])
    fields = PRESENTER.tallies(rules.view(state, None), lang, {"A": "Aurora", "B": "Borealis"})
    assert len(fields) == 4
    assert len({name for name, _ in fields}) == 4
    if lang == "ja":
        assert all("·" not in name for name, _ in fields)


def test_the_headline_names_every_unit_lost_when_several_fall() -> None:
    def death(unit_id: str, en: str, ja: str, square: str) -> dict[str, Any]:
        names = {unit_id: {"en": en, "ja": ja}}
        return {"type": "death", "seat": "A", "unit": unit_id, "square": square, "names": names}

    events = [
        {"type": "panel_removed", "pos": 4},
        death("u06", "Wyvern", "飛竜", "D3"),
        death("u08", "Bonewalker", "骨歩き", "F3"),
    ]
    names = {"A": "Aurora", "B": "Borealis"}
    assert PRESENTER.headline(events, "en", names) == "2 units fall: Wyvern (A), Bonewalker (A)."
    assert PRESENTER.headline(events, "ja", names) == "2体が消滅：飛竜（A）、骨歩き（A）。"
