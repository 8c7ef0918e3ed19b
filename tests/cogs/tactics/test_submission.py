"""Sheets refused at submission (the amended digest) and the replay summary's turn.

A sheet is refused when it is sent only for what is wrong whatever the opponent does; what
depends on enemy units (a path or a square an enemy holds now, a target that may move or die
first) is accepted and falls back at resolution, with the reason in the log.
"""

from __future__ import annotations

import pytest

from bot.dice import ScriptedDice
from bot.ruleset import OrderRejected
from cogs.tactics import rules
from tests.cogs.tactics.test_digest import play, play_state, sq


def refused_key(state: rules.TacticsState, seat: str, text: str) -> str:
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, seat, text)
    return refused.value.key


# --- a path an enemy blocks now -----------------------------------------------------------------


def blocked_corridor(first: str) -> rules.TacticsState:
    # A's knight (MOVE 3) on A6; B's militia on A5 stands between it and A4 (around is 4 steps).
    return play_state(
        {"warlord": "J10", "knight": "A6"}, {"archmage": "J1", "militia": "A5"}, first=first
    )


def test_a_path_an_enemy_blocks_now_is_accepted() -> None:
    state = blocked_corridor("B")
    order = rules.parse(state, "A", "knight A6>A4")  # was refused: "A-2 cannot reach A4"
    assert order.lines[0].dest == sq("A4")


def test_the_blocked_line_acts_when_the_enemy_moved_away_first() -> None:
    new, events = play(blocked_corridor("B"), "knight A6>A4", "militia A5>C5")
    move = next(e for e in events if e["type"] == "move" and e["unit"] == "A2")
    assert move["path"] == ["A6", "A5", "A4"] and new.units["A2"].square == sq("A4")


def test_the_blocked_line_falls_back_when_the_enemy_is_still_there() -> None:
    new, events = play(blocked_corridor("A"), "knight A6>A4", "militia A5>C5")
    fallback = next(e for e in events if e["type"] == "fallback.no_move")
    assert fallback["unit"] == "A2" and fallback["reason"] == "tactics.why.unreachable"
    assert new.units["A2"].square == sq("A6")


def test_the_blocked_line_acts_when_the_enemy_fell_first() -> None:
    state = play_state(
        {"warlord": "J10", "knight": "A6", "sniper": "D5"},
        {"archmage": "J1", "militia": "A5"},
    )
    state.units["B2"].hp = 1
    # The sniper's shot clears the corridor before the knight's line acts.
    new, events = play(state, "sniper attack A5\nknight A6>A4")
    assert any(e["type"] == "death" and e["unit"] == "B2" for e in events)
    assert new.units["A2"].square == sq("A4")


# --- a square an enemy holds now ----------------------------------------------------------------


def test_a_destination_an_enemy_holds_now_is_accepted_and_falls_back_if_still_held() -> None:
    state = play_state({"warlord": "J10", "knight": "D8"}, {"archmage": "J1", "militia": "D6"})
    rules.parse(state, "A", "knight D8>D6")
    new, events = play(state, "knight D8>D6 attack D5")
    fallback = next(e for e in events if e["type"] == "fallback.no_move")
    assert fallback["reason"] == "tactics.why.occupied" and new.units["A2"].square == sq("D8")
    state.first = "B"
    new, _ = play(state, "knight D8>D6", "militia D6>F6")
    assert new.units["A2"].square == sq("D6")


def test_a_summon_square_an_enemy_holds_now_is_accepted() -> None:
    state = play_state({"warlord": "J10", "knight": None}, {"archmage": "A9"}, turn=3, first="B")
    rules.parse(state, "A", "summon knight A10")  # not held: fine either way
    rules.parse(state, "A", "summon knight A9")  # B's master stands there now
    new, events = play(state, "summon knight A9", "archmage A9>A7")
    assert new.units["A2"].square == sq("A9")
    assert any(e["type"] == "summon" for e in events)


def test_an_attack_on_a_square_no_enemy_holds_now_is_accepted() -> None:
    state = play_state({"warlord": "J10", "knight": "D8"}, {"archmage": "J1"})
    order = rules.parse(state, "A", "knight D8>D6 attack D5")  # an enemy may step onto D5
    assert order.lines[0].target == sq("D5")


# --- what stays refused: wrong whatever the opponent does -----------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("knight D8>D4", "tactics.reject.occupied"),  # D4 is an obstacle of the map
        ("knight D8>E9", "tactics.reject.occupied"),  # its own warlord stands there
        ("knight D8>D3", "tactics.reject.unreachable"),  # 5 steps for MOVE 3, enemies aside
        ("knight D8>Z30", "tactics.reject.bad_square"),
        ("knight D8>D6 attack D3", "tactics.reject.out_of_range"),  # from where the line moves to
        ("sniper wait", "tactics.reject.unknown_unit"),
        ("warlord ability D8", "tactics.reject.not_enough_mana"),
    ],
)
def test_what_is_wrong_whatever_the_opponent_does_is_still_refused(text: str, key: str) -> None:
    state = play_state({"warlord": "E9", "knight": "D8"}, {"archmage": "D5", "militia": "D7"})
    assert refused_key(state, "A", text) == key


# --- the replay summary names the turn its mana belongs to --------------------------------------


def test_the_summary_names_the_last_resolved_turn_with_its_mana() -> None:
    state = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=3)
    new, _ = play(state)
    assert new.turn == 4  # the turn now being played
    summary = rules.summary(new)
    assert summary["turn"] == 3 and summary["mana"] == {"A": [3, 3], "B": [3, 3]}


def test_the_summary_after_the_last_turn_and_before_the_first() -> None:
    state = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=10)
    new, _ = play(state)
    assert new.step == "finished" and rules.summary(new)["turn"] == 10
    assert rules.summary(new)["mana"]["A"] == [10, 10]
    fresh = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=1)
    assert rules.summary(fresh)["turn"] == 0  # nothing resolved yet: no turn's mana
    resigned, _ = rules.resign(play(fresh)[0], "B")
    assert rules.summary(resigned)["turn"] == 1  # resigned during turn 2: turn 1 was the last


# --- unit labels: ``A-2`` everywhere a person reads, the old ``A2`` still accepted ---------------


@pytest.mark.parametrize(
    "name",
    ["A2", "a2", "A-2", "a-2", "A－2", "Aー2", "Ａ－２", "A‐2", "A−2", "A_2", "knight", "剣士"],
)
def test_a_unit_is_named_by_new_label_old_id_or_name(name: str) -> None:
    state = play_state({"warlord": "E9", "knight": "D8"}, {"archmage": "D2"})
    order = rules.parse(state, "A", f"{name} D8>D6")
    assert order.lines[0].unit == "A2" and order.lines[0].dest == sq("D6")
    assert order.canonical() == "A2 >D6 wait"  # stored (and sealed) with the id, so records replay


def test_labels_work_in_lineups_summons_and_japanese_lines() -> None:
    state = play_state({"warlord": "E9", "knight": None}, {"archmage": "D2"}, turn=3)
    assert rules.parse(state, "A", "召喚 Aー2 A9").lines[0].unit == "A2"
    assert rules.parse(state, "A", "A-1 E9→E7 待機").lines[0].unit == "A1"
    fresh = rules.new_game(
        "g",
        rules.SEATS,
        {"rosters": {s: {"master": "warlord", "units": ["knight"]} for s in "AB"}},
        ScriptedDice([]),
    )
    lineup = rules.parse(fresh, "A", "A-1 E9, A-2 D9")
    assert [ln.unit for ln in lineup.lines] == ["A1", "A2"]


def test_refusals_name_units_by_label() -> None:
    state = play_state({"warlord": "E9", "knight": "D8"}, {"archmage": "D2"})
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "B-1 wait")
    assert refused.value.params["unit"] == "B-1"
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "knight D8>D3")
    assert refused.value.params["unit"] == "A-2"


def test_a_label_is_never_read_as_a_square() -> None:
    from bot.render.squaregrid import try_parse
    from cogs.tactics.units import tag, untag

    assert tag("A4") == "A-4" and tag("B10") == "B-10" and untag("B-10") == "B10"
    assert try_parse(tag("A4")) is None  # "A-4" is no square; "A4" is
