"""One scenario per rule of the tactics digest (../shared/rules/tactics.md), hand-placed boards."""

from __future__ import annotations

import json

import pytest

from bot.dice import ScriptedDice
from bot.ruleset import OrderRejected
from cogs.tactics import rules
from cogs.tactics.rules import TacticsState
from cogs.tactics.units import Ability, UnitType


def sq(text: str) -> tuple[int, int]:
    return rules.try_parse(text)  # type: ignore[return-value]


def play_state(
    a: dict[str, str | None],
    b: dict[str, str | None],
    *,
    turn: int = 1,
    first: str = "A",
    **options: object,
) -> TacticsState:
    """A play-step state: ``{"warlord": "E9", "knight": "D9", "archer": None}`` per side (the
    first entry is the master preset; ``None`` leaves a unit in reserve)."""
    rosters = {}
    padded = []
    for seat, placed in (("A", a), ("B", b)):
        names = list(placed)
        if len(names) == 1:  # a roster needs a normal unit: one that has already fallen
            names.append("militia")
            padded.append(f"{seat}2")
        rosters[seat] = {"master": names[0], "units": names[1:]}
    state = rules.new_game("g", rules.SEATS, {"rosters": rosters, **options}, ScriptedDice([]))
    for uid in padded:
        state.units[uid].status = "dead"
    for seat, placed in (("A", a), ("B", b)):
        for index, where in enumerate(placed.values(), start=1):
            unit = state.units[f"{seat}{index}"]
            if where is not None:
                unit.status, unit.square = "board", sq(where)
    state.step, state.turn, state.first = "play", turn, first
    state.step_no = state.resolved = 2 + turn - 1
    state.step_no += 1  # the turn is open
    return state


def play(state: TacticsState, a: str = "", b: str = "") -> tuple[TacticsState, list]:
    orders = {"A": rules.parse(state, "A", a or "wait"), "B": rules.parse(state, "B", b or "wait")}
    new, events = rules.resolve(state, orders, ScriptedDice([]))
    return new, [e.to_json() for e in events]


def types(events: list) -> list[str]:
    return [e["type"] for e in events]


# --- mana -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "mana"), [(1, 1), (3, 3), (9, 9), (10, 10)])
def test_mana_refills_to_min_turn_10_each_phase(turn, mana):
    state = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=turn)
    state.mana = {"A": [0, 0], "B": [7, 7]}  # leftovers never carry over
    new, _ = play(state)
    assert new.mana == {"A": [mana, mana], "B": [mana, mana]}


def test_unused_mana_does_not_carry_over_and_abilities_spend_it():
    state = play_state({"warlord": "E9", "cleric": "D9"}, {"archmage": "E2"}, turn=3)
    state.units["A1"].hp = 5
    new, events = play(state, "cleric ability E9")
    assert new.mana["A"] == [1, 3]  # Heal costs 2 of 3
    assert "heal" in types(events)
    new.step_no += 1
    newer, _ = play(new)
    assert newer.mana["A"] == [4, 4]


def test_an_ability_beyond_the_mana_is_refused_at_submission():
    state = play_state({"warlord": "E9", "mage": "D9"}, {"archmage": "E2"}, turn=2)
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "mage ability D6")  # Fireball: 3 mana, turn 2 has 2
    assert refused.value.key == "tactics.reject.not_enough_mana"


# --- summons ----------------------------------------------------------------------------------


def test_summons_only_on_turns_3_and_7():
    for turn in (1, 2, 4, 5, 6, 8, 9, 10):
        state = play_state({"warlord": "E9", "scout": None}, {"archmage": "E2"}, turn=turn)
        with pytest.raises(OrderRejected) as refused:
            rules.parse(state, "A", "summon scout A9")
        assert refused.value.key == "tactics.reject.summon_not_now"
    state = play_state({"warlord": "E9", "knight": None}, {"archmage": "E2"}, turn=3)
    new, events = play(state, "summon knight A9")
    assert new.units["A2"].square == sq("A9") and new.mana["A"] == [0, 3]  # cost 3 paid
    assert "summon" in types(events)
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "summon knight A9\nknight >A8")  # acts from the next turn
    assert refused.value.key == "tactics.reject.not_on_board"


def test_a_summon_outside_the_zone_or_beyond_the_mana_is_refused():
    state = play_state({"warlord": "E9", "golem": None}, {"archmage": "E2"}, turn=3)
    with pytest.raises(OrderRejected, match="not_enough_mana"):
        rules.parse(state, "A", "summon golem A9")  # cost 5 > 3
    state = play_state({"warlord": "E9", "scout": None}, {"archmage": "E2"}, turn=7)
    with pytest.raises(OrderRejected, match="not_in_zone"):
        rules.parse(state, "A", "summon scout A5")


# --- moves and zone of control ----------------------------------------------------------------


def test_a_move_never_enters_an_enemy_square_but_passes_allies():
    state = play_state(
        {"warlord": "J10", "knight": "A6", "guardian": "B6"},
        {"archmage": "J1", "militia": "A5", "pikeman": "C5"},
    )
    # The knight (MOVE 3) on A6 cannot reach A4 through B's militia on A5 (around is 4 steps).
    # The sheet is accepted (the militia may move first), and the line falls back when it acts.
    assert "A4" not in rules.reachable(state, "A2")
    new, events = play(state, "knight A6>A4")
    fallback = next(e for e in events if e["type"] == "fallback.no_move")
    assert fallback["reason"] == "tactics.why.unreachable" and new.units["A2"].square == sq("A6")
    # Through its own guardian on B6 it can reach B5 then B4 (allies are passable).
    order = rules.parse(state, "A", "knight A6>B4")
    assert order.lines[0].dest == sq("B4")
    assert "B6" not in rules.reachable(state, "A2")  # passed through, never ended on


def test_a_move_must_end_on_a_free_square():
    state = play_state({"warlord": "E9", "knight": "D9"}, {"archmage": "E2"})
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "knight D9>E9")
    assert refused.value.key == "tactics.reject.occupied"


# --- attacks, friendly fire, DP ---------------------------------------------------------------


def test_attack_deals_atk_minus_def_and_a_kill_scores_one_dp():
    state = play_state({"warlord": "E9", "knight": "D5"}, {"archmage": "E2", "scout": "D4"})
    new, events = play(state, "knight attack D4")  # knight ATK 5 vs scout DEF 0, HP 4
    death = next(e for e in events if e["type"] == "death")
    assert death["unit"] == "B2" and death["points"] == 1 and death["dp_to"] == "A"
    assert new.dp == {"A": 1, "B": 0}
    assert new.units["B2"].status == "dead"


def test_friendly_fire_hurts_but_scores_no_dp_and_never_hits_itself():
    state = play_state({"warlord": "E9", "knight": "D5", "scout": "D4"}, {"archmage": "E2"})
    new, events = play(state, "knight attack D4")
    death = next(e for e in events if e["type"] == "death")
    assert death["friendly"] is True and death["points"] == 0
    assert new.dp == {"A": 0, "B": 0}
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "knight attack D5")
    assert refused.value.key == "tactics.reject.self_target"


def test_a_master_is_worth_two_dp():
    state = play_state({"warlord": "E9", "sniper": "E6"}, {"archmage": "E2", "knight": "A1"})
    state.units["B1"].hp = 3
    new, events = play(state, "sniper attack E2")  # distance 4, ATK 6 vs DEF 1
    assert new.dp["A"] == 2
    assert any(e["type"] == "death" and e["points"] == 2 for e in events)


def test_revival_keeps_the_dp_and_a_second_death_scores_again():
    state = play_state(
        {"warlord": "E9", "knight": "D5"},
        {"oracle": "J1", "scout": "D4", "militia": "A1"},
        first="A",
        turn=6,
    )
    new, _ = play(state, "knight attack D4")
    assert new.dp["A"] == 1 and new.units["B2"].status == "dead"
    new.step_no += 1
    revived, events = play(new, "", "oracle ability I1")  # Rebirth (revive): cost 5, turn 7
    assert "revive" in types(events)
    assert revived.units["B2"].status == "board" and revived.dp["A"] == 1  # DP not returned
    revived.units["B2"].square = sq("D4")
    revived.units["B2"].exhausted_turn = 0
    revived.step_no += 1
    again, _ = play(revived, "knight attack D4")
    assert again.dp["A"] == 2


# --- the two fallback rules -------------------------------------------------------------------


def test_a_move_that_became_impossible_means_the_unit_does_nothing():
    # B moves first onto the square A's knight was going to, so A's knight does nothing at all.
    state = play_state(
        {"warlord": "J10", "knight": "D8"}, {"archmage": "J1", "cavalry": "D4"}, first="B"
    )
    new, events = play(state, "knight D8>D6 attack D5", "cavalry D4>D6")
    fallback = next(e for e in events if e["type"] == "fallback.no_move")
    assert fallback["unit"] == "A2" and fallback["reason"] == "tactics.why.occupied"
    assert new.units["A2"].square == sq("D8")
    assert not any(e["type"] == "attack" and e["unit"] == "A2" for e in events)


def test_an_attack_that_became_impossible_means_the_unit_only_moves():
    state = play_state(
        {"warlord": "J10", "knight": "D8"}, {"archmage": "J1", "scout": "D5"}, first="B"
    )
    new, events = play(state, "knight D8>D6 attack D5", "scout D5>A5")
    fallback = next(e for e in events if e["type"] == "fallback.move_only")
    assert fallback["reason"] == "tactics.why.target_gone" and fallback["moved"] is True
    assert new.units["A2"].square == sq("D6")


# --- exhaustion -------------------------------------------------------------------------------


def test_a_unit_that_used_its_ability_cannot_act_next_turn():
    state = play_state({"warlord": "E9", "lancer": "D6"}, {"archmage": "J1", "golem": "D4"}, turn=2)
    new, events = play(state, "lancer ability D4")
    assert "ability" in types(events)
    new.step_no += 1
    assert rules.view(new, None)["units"][1]["exhausted"] is True
    with pytest.raises(OrderRejected) as refused:
        rules.parse(new, "A", "lancer attack D4")
    assert refused.value.key == "tactics.reject.exhausted"
    new.step_no += 1
    rested, _ = play(new)
    rested.step_no += 1
    assert rules.parse(rested, "A", "lancer attack D4")


# --- the end ----------------------------------------------------------------------------------


def test_annihilation_loses_at_once_unless_a_summon_is_still_possible():
    state = play_state({"warlord": "E9", "knight": "D5"}, {"archmage": None, "scout": "D4"}, turn=8)
    new, events = play(state, "knight attack D4")  # B's last unit dies; its master is in reserve
    # Archmage costs 8: no summon turn is left after 7, so B is wiped out.
    assert new.winner == "A" and new.end_reason == "annihilation"
    assert events[-1]["type"] == "end"

    state = play_state({"warlord": "E9", "knight": "D5"}, {"archmage": None, "scout": "D4"}, turn=2)
    state.units["B1"].type = UnitType(
        "cheap", {"en": "Cheap", "ja": "安"}, 3, 5, 1, 0, 1, (1, 1), master=True
    )
    new, _ = play(state, "knight attack D4")
    assert new.winner is None  # B may still summon its cheap master on turn 3


def test_after_the_last_turn_more_dp_wins_and_equal_dp_is_a_draw():
    state = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=10)
    state.dp = {"A": 3, "B": 1}
    new, events = play(state)
    assert new.winner == "A" and events[-1]["type"] == "end" and events[-1]["reason"] == "dp"
    state.dp = {"A": 2, "B": 2}
    assert play(state)[0].winner == "draw"


def test_the_hp_tie_break_decides_equal_dp():
    state = play_state({"warlord": "E9"}, {"archmage": "E2"}, turn=10, tie_break="hp")
    state.dp = {"A": 2, "B": 2}
    new, events = play(state)  # warlord 18 HP against archmage 12
    assert new.winner == "A" and events[-1]["reason"] == "hp"


def test_first_player_dice_reroll_ties():
    state = rules.new_game(
        "g",
        rules.SEATS,
        {"rosters": {s: {"master": "warlord", "units": ["knight"]} for s in "AB"}},
        ScriptedDice([]),
    )
    state, _ = rules.start_step(state, ScriptedDice([]))
    orders = {s: rules.default_order(state, s) for s in "AB"}
    new, events = rules.resolve(state, orders, ScriptedDice([4, 4, 2, 5]))
    first = next(e.to_json() for e in events if e.type == "first")
    assert first["dice"] == {"A": [4, 2], "B": [4, 5]} and new.first == "B"


def test_deployment_is_checked_zone_cap_and_size():
    state = rules.new_game(
        "g",
        rules.SEATS,
        {
            "cost_cap": 13,
            "rosters": {
                s: {"master": "warlord", "units": ["knight", "scout", "militia"]} for s in "AB"
            },
        },
        ScriptedDice([]),
    )
    state, _ = rules.start_step(state, ScriptedDice([]))
    assert rules.parse(state, "A", "warlord E9, knight D9")  # 10 + 3 = 13: the cap is inclusive
    with pytest.raises(OrderRejected, match="over_cap"):
        rules.parse(state, "A", "warlord E9, knight D9, scout C9")
    with pytest.raises(OrderRejected, match="not_in_zone"):
        rules.parse(state, "A", "knight D5")
    with pytest.raises(OrderRejected, match="not_in_zone"):
        rules.parse(state, "B", "knight D9")


def test_resign_gives_the_game_to_the_other_side_and_state_round_trips():
    state = play_state({"warlord": "E9"}, {"archmage": "E2"})
    new, _ = rules.resign(state, "B")
    assert new.winner == "A"
    assert rules.from_json(json.loads(json.dumps(rules.to_json(new)))) == new


def test_an_ability_needs_a_valid_target_or_the_unit_only_moves():
    state = play_state({"warlord": "E9", "cleric": "D8"}, {"archmage": "J1"}, turn=3)
    new, events = play(state, "cleric D8>D7 ability F7")  # Heal on an empty square
    fallback = next(e for e in events if e["type"] == "fallback.move_only")
    assert fallback["reason"] == "tactics.why.no_ally" and new.units["A2"].square == sq("D7")
    assert new.mana["A"] == [3, 3]  # nothing paid


def test_an_ability_unit_type_round_trips():
    ability = Ability({"en": "X", "ja": "エックス"}, 2, "heal", 3, (0, 2), "ally")
    assert Ability.from_json(ability.to_json()) == ability


def test_a_line_for_a_fallen_unit_is_refused():
    state = play_state({"warlord": "E9", "knight": "D9", "scout": None}, {"archmage": "E2"})
    state.units["A3"].status = "dead"
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "A3 wait")
    assert refused.value.key == "tactics.reject.dead_unit"


# --- the effect catalogue ---------------------------------------------------------------------


def test_push_pull_teleport_obstacle_and_area_damage():
    state = play_state(
        {"warlord": "J10", "brute": "C6", "hookman": "A9", "thief": "H9", "engineer": "F8"},
        {"archmage": "J1", "golem": "C5", "scout": "A5", "militia": "C2", "pikeman": "D2"},
        turn=6,
    )
    new, events = play(
        state,
        "brute ability C5\nhookman ability A5\nthief ability H4\nengineer ability F7",
    )
    assert new.units["B2"].square == sq("C3")  # pushed 2 squares straight away from C6
    assert new.units["A4"].square == sq("H4")  # teleported
    assert new.units["B3"].square == sq("A8")  # pulled 3 squares towards A9
    assert sq("F7") in new.obstacles()
    kinds = types(events)
    assert {"push", "pull", "teleport", "obstacle"} <= set(kinds)
    new.step_no += 1
    # Fireball-like area damage hits friend and foe around the square, never the caster.
    state = play_state(
        {"warlord": "J10", "mage": "C8", "knight": "C5"},
        {"archmage": "J1", "scout": "C4", "militia": "B4"},
        turn=3,
    )
    hit, events = play(state, "mage ability C4")
    assert hit.units["B2"].status == "dead" and hit.units["B3"].hp == 2
    assert hit.units["A3"].hp == 10 - 4  # friendly splash on C5, no DP for it
    assert hit.dp == {"A": 1, "B": 0}
