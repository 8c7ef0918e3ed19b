"""Order text in both languages (cogs/tactics/sheet.py): examples, canonical forms, refusals."""

from __future__ import annotations

import pytest

from bot.ruleset import OrderRejected
from cogs.tactics import rules, sheet
from tests.cogs.tactics.test_rules_scenarios import board, sq


def roster_state():
    state = rules.new_game("g", rules.SEATS, {}, None)  # type: ignore[arg-type]
    state, _ = rules.start_step(state, None)  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "warlord knight knight archer cleric mage",
            "roster warlord knight knight archer cleric mage",
        ),
        ("覇王 剣士 剣士 弓兵", "roster warlord knight knight archer"),
        ("覇王、剣士・弓兵,僧侶", "roster warlord knight archer cleric"),
        ("ｗａｒｌｏｒｄ　ｋｎｉｇｈｔ", "roster warlord knight"),
        ("roster warlord knight", "roster warlord knight"),
        ("デッキ 覇王 剣士", "roster warlord knight"),  # the seed's word (glossary)
        ("ロスター 覇王 剣士", "roster warlord knight"),
    ],
)
def test_rosters_in_both_languages(text, canonical):
    state = roster_state()
    order = rules.parse(state, "A", text)
    assert order.canonical() == canonical
    assert rules.parse(state, "A", canonical) == order


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("knight archer", "tactics.reject.no_master"),
        ("warlord oracle knight", "tactics.reject.two_masters"),
        ("warlord", "tactics.reject.roster_size"),
        ("warlord " + "knight " * 3, "tactics.reject.too_many_copies"),
        (
            "warlord " + " ".join(["knight", "archer", "mage", "cleric", "scout"] * 2),
            "tactics.reject.roster_size",
        ),
        ("warlord dragon", "tactics.reject.unknown_unit"),
        ("", "tactics.reject.empty"),
    ],
)
def test_bad_rosters(text, key):
    with pytest.raises(OrderRejected) as caught:
        rules.parse(roster_state(), "A", text)
    assert caught.value.key == key


def sheet_state():
    return board(
        {"warlord": "E9", "knight": "C4", "mage": "H9", "lancer": None},
        {"archmage": "E2", "scout": "D6"},
        turn=3,
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("knight C4>C6 attack D6", "A2 >C6 attack D6"),
        ("剣士 C4→C6 攻撃 D6", "A2 >C6 attack D6"),
        ("剣士C4→C6攻撃D6", "A2 >C6 attack D6"),
        ("ｋｎｉｇｈｔ　Ｃ４＞Ｃ６　ａｔｔａｃｋ　Ｄ６", "A2 >C6 attack D6"),
        ("A2 C4->C5 atk D5", "A2 >C5 attack D5"),
        ("knight C4", "A2 wait"),
        ("knight >C5", "A2 >C5 wait"),
        ("knight C4>C4 wait", "A2 wait"),
        ("魔導士 待機", "A3 wait"),
        ("魔導士待機", "A3 wait"),
        ("mage stay", "A3 wait"),
        ("mage skill F7", "A3 ability F7"),
        ("魔導士 特技 F7", "A3 ability F7"),
        ("A3 H9 能力 F7", "A3 ability F7"),
        ("summon lancer A9", "summon A4 A9"),
        ("召喚 槍兵 A9", "summon A4 A9"),
        ("knight >C5; mage wait", "A2 >C5 wait\nA3 wait"),
        ("knight >C5；魔導士 待機", "A2 >C5 wait\nA3 wait"),
        ("", "wait"),
        ("wait", "wait"),
        ("待機", "wait"),
        ("  \n\n ", "wait"),
    ],
)
def test_sheet_examples_in_both_languages(text, canonical):
    state = sheet_state()
    order = rules.parse(state, "A", text)
    assert order.canonical() == canonical
    assert rules.parse(state, "A", order.canonical()) == order
    assert order.line_texts() == ([] if canonical == "wait" else canonical.split("\n"))


def test_lines_keep_their_order_and_expose_their_parts():
    order = rules.parse(sheet_state(), "A", "mage wait\nknight C4>C5 attack D5")
    assert [ln.unit for ln in order.lines] == ["A3", "A2"]
    line = order.lines[1]
    assert (line.dest, line.action, line.target) == (sq("C5"), "attack", sq("D5"))


def test_normalise_and_words():
    assert sheet.words(sheet.normalise("剣士C4→C6攻撃D6")) == [
        "剣士",
        "C4",
        ">",
        "C6",
        "攻撃",
        "D6",
    ]
    assert sheet.words("a、b・c,d  e") == ["a", "b", "c", "d", "e"]


def test_a_deploy_order_canonical_round_trips():
    state = board({"warlord": None, "knight": None}, {"archmage": None}, turn=1)
    state.step = "deploy"
    order = rules.parse(state, "A", "剣士 C9、覇王 E10")
    assert order.canonical() == "A2 C9, A1 E10"
    assert rules.parse(state, "A", order.canonical()) == order
