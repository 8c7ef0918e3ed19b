"""Esper war, part 2: scenario tests of ESP combat against the digest (``../shared/rules/esper.md``,
Combat): the two check charts, initiative, sync attacks, defences and their levels, maintained
defences, escapes and blocks, the damage table's columns, melee with weapons and the counter,
death, hand limits, and the start of a combat from a turn.

Combats are set up directly on a table (:func:`tests.cogs.esper.test_rules.table`) with known
hands and initiative; exact rolls come from :class:`bot.dice.ScriptedDice`, and every scripted
roll must be used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from bot.dice import ScriptedDice
from bot.ruleset import Event
from cogs.esper import combat as combats
from cogs.esper import rules
from cogs.esper.rules import EsperState
from tests.cogs.esper.test_rules import PACK, RandomDice, has, of, one, opened, rejected, table

FIVE = ("c04", "c02", "c13", "c08", "c10")  # A B (GOOD), C (SPECIAL), D E (EVIL)


def fighting(
    *sheets: str,
    seats: Sequence[str] = ("A", "B", "C"),
    hands: Mapping[str, Sequence[str]] | None = None,
    spot: str = "P1-1",
) -> EsperState:
    """A combat on ``spot`` between ``seats``, in that initiative order (black cards ♠ 1, 2 …),
    the first one's combat turn due; hands as given (else empty)."""
    state = table(*(sheets or FIVE))
    for seat in seats:
        state.seats[seat].spot = spot
    combat = rules.Combat(spot=spot, why="fight", by="A", seats=list(seats))
    combat.order = list(seats)
    combat.cards = {s: f"{i + 1}♠" for i, s in enumerate(seats)}
    state.combat = combat
    for seat, cards in (hands or {}).items():
        state.seats[seat].c_hand = list(cards)
    state.step, state.waiting = combats.CTURN, [seats[0]]
    return state


def play(
    state: EsperState,
    orders: Mapping[str, str] | None = None,
    rolls: Sequence[int] = (),
    secret: ScriptedDice | RandomDice | None = None,
) -> tuple[EsperState, list[Event]]:
    state = opened(state)
    dice = ScriptedDice(list(rolls))
    state, events = rules.resolve(state, dict(orders or {}), dice, secret or ScriptedDice([]))
    assert dice.remaining == 0, f"{dice.remaining} scripted roll(s) unused"
    return state, events


def attack(state: EsperState, text: str) -> tuple[EsperState, list[Event]]:
    """A's attack, and the sync step a sync card opens: everyone yet to act is asked, whatever
    they hold (here nothing to add: they pass)."""
    state, events = play(state, {"A": text})
    if state.step == combats.SYNC:
        state, more = play(state, {seat: "pass" for seat in state.waiting})
        events += more
    return state, events


# --- pure tables ----------------------------------------------------------------------------------


def test_columns_are_firepower_over_durability_floored_within_the_table() -> None:
    assert combats.column_index(11, 6) == 1  # 1:1
    assert combats.column_index(5, 6) == 0  # below 1:1: the lowest column, 1:2
    assert combats.column_index(30, 3) == 10  # 10:1 at most
    assert combats.column_index(7, 0) == 10  # nothing left to declare
    assert combats.COLUMNS[combats.column_index(9, 3)] == "3:1"


def test_melee_columns_compare_firepowers_and_shift_within_the_limits() -> None:
    # 8 against 4: 2:1 and 1:2; a [格闘] difference of 2 moves them to 4:1 and (floor) 1:2
    assert combats.melee_columns(8, 4, 0) == (2, 0)
    assert combats.melee_columns(8, 4, 2) == (4, 0)
    # the weaker side's better weapons: 4 against 8 with +3 shifts 1:2 → 3:1 and 2:1 → 1:2
    assert combats.melee_columns(4, 8, 3) == (3, 0)
    assert combats.melee_columns(30, 1, 5) == (10, 0)  # never past 10:1


def test_initiative_black_ace_to_ten_then_red_with_suit_ties() -> None:
    cards = ["A♥", "10♠", "3♦", "3♥", "A♣", "A♠", "3♣"]
    ordered = sorted(cards, key=combats.initiative_key)
    assert ordered == ["A♠", "A♣", "3♣", "10♠", "A♥", "3♥", "3♦"]
    assert len(combats.initiative_deck()) == 40  # A–10 of four suits, no court cards


@pytest.mark.parametrize("roll", range(2, 13))
def test_the_two_check_charts(roll: int) -> None:
    assert PACK.there_at(roll) == ("yes" if roll >= 11 else "late" if roll >= 9 else "no")
    assert PACK.alive_at(roll) == ("yes" if roll == 12 else "no")


# --- attacks, syncs and defences -----------------------------------------------------------------


def test_a_sync_attack_adds_a_level_per_helper_and_sums_the_firepower() -> None:
    # A attacks C with Kinetic Lance (level 3, 8 E); B, yet to act, syncs a Psi Bolt (1, 3)
    state = fighting(hands={"A": ["k05"], "B": ["k01", "k03"], "C": []})
    state, events = play(state, {"A": "card k05 C"})
    assert state.step == combats.SYNC and state.waiting == ["B"]
    assert rejected(state, "B", "sync k08") == combats.R_CARD  # not in its hand
    state, events = play(state, {"B": "sync k01"})
    total = one(events, "sync_total").data
    assert (total["level"], total["firepower"]) == (4, 11)
    assert state.step == combats.DEFEND and state.waiting == ["C"]
    # C declares its true durability (6): 11 ÷ 6 = 1:1; 2D6 = 7
    state, events = play(state, {"C": "pass"}, rolls=[3, 4])
    roll = one(events, "damage_roll").data
    assert (roll["column"], roll["declared"]) == ("1:1", 6)
    assert roll["damage"] == PACK.damage_at(7, 1) == state.seats["C"].damage
    # B's turn went into the sync: C acts next
    assert state.step == combats.CTURN and state.waiting == ["C"]


def test_a_sync_card_must_be_below_the_first_cards_level() -> None:
    state = fighting(hands={"A": ["k03"], "B": ["k05", "k01"], "C": []})
    state, _ = play(state, {"A": "card k03 C"})  # level 2
    assert combats.sync_cards(state, "B") == ["k01"]
    assert rejected(state, "B", "sync k05") == combats.R_KIND


def test_a_defence_below_the_attacks_level_is_refused_and_a_fitting_one_holds() -> None:
    state = fighting(hands={"A": ["k05"], "B": [], "C": ["k14", "k16", "k18", "k15"]})
    state, _ = attack(state, "card k05 C")  # level 3 E
    state = opened(state)
    assert rejected(state, "C", "defend k16") == combats.R_LEVEL  # level 2 < 3
    assert rejected(state, "C", "defend k15") == combats.R_LEVEL
    state2 = fighting(hands={"A": ["k02"], "B": [], "C": ["k14"]})
    state2, _ = play(state2, {"A": "card k02 C"})  # level 1 M
    assert rejected(state2, "C", "defend k14") == combats.R_BLOCKS  # k14 stops E only
    state, events = play(state, {"C": "defend k18"})  # level 4, E and M
    assert one(events, "defended").data["card"] == "k18"
    assert state.combat is not None and state.combat.maintained["C"]["level"] == 4
    assert not of(events, "damage_roll")


def test_a_maintained_defence_stops_lower_attacks_and_breaks_under_a_higher_one() -> None:
    # B holds c07 (ESP 8): its level-5 card needs no check
    state = fighting("c04", "c07", "c13", "c08", "c10", hands={"A": ["k03"], "B": ["k11"], "C": []})
    assert state.combat is not None
    state.combat.maintained["C"] = {"card": "k18", "level": 4, "blocks": ["E", "M"], "upkeep": 1}
    # level 2 against the held level 4: stopped with no answer asked
    state, events = attack(state, "card k03 C")
    assert one(events, "defended").data["held"] is True
    assert state.step == combats.CTURN and state.waiting == ["B"]
    # level 5 breaks it: C may not defend again (it held one), only take the roll
    state, events = play(state, {"B": "card k11 C"})
    assert one(events, "defence_broken").data["card"] == "k18"
    assert state.step == combats.DEFEND
    state.seats["C"].c_hand = ["k19"]  # a fresh level-5 defence: too late, the attack goes through
    assert rejected(state, "C", "defend k19") == combats.R_MAINTAINED
    state, events = play(state, {"C": "durability 4"}, rolls=[6, 6])
    roll = one(events, "damage_roll").data
    assert (roll["column"], roll["declared"]) == ("3:1", 4)  # 15 ÷ 4
    assert PACK.damage_at(12, 3) > 4 and not state.seats["C"].alive  # above what it declared


def test_a_held_defence_may_not_be_replaced_by_a_new_one() -> None:
    state = fighting(hands={"A": ["k02"], "B": [], "C": ["k15"]})
    assert state.combat is not None
    state.combat.maintained["C"] = {"card": "k14", "level": 1, "blocks": ["E"], "upkeep": 0}
    state, _ = play(state, {"A": "card k02 C"})  # M: the held E shield cannot stop it
    assert rejected(state, "C", "defend k15") == combats.R_MAINTAINED


def test_keeping_a_defence_costs_its_upkeep_in_esp_power() -> None:
    state = fighting(hands={"A": [], "B": [], "C": []}, seats=("C", "A", "B"))
    assert state.combat is not None
    state.combat.maintained["C"] = {"card": "k18", "level": 4, "blocks": ["E", "M"], "upkeep": 1}
    state, events = play(state, {"C": "keep; pass"})
    assert one(events, "kept").data["upkeep"] == 1 and state.seats["C"].power_lost == 1
    state.combat.index = 0
    state.combat.acted = []
    state.step, state.waiting = combats.CTURN, ["C"]
    state, events = play(state, {"C": "drop; pass"})
    assert has(events, "dropped") and "C" not in state.combat.maintained


def test_a_card_above_the_users_esp_level_needs_a_check() -> None:
    # B (c02, ESP 3) plays Ion Tempest (level 4): 2D6 ≤ 3 fails, the card is spent for nothing
    state = fighting(hands={"A": [], "B": ["k08"], "C": []}, seats=("B", "A", "C"))
    state, events = play(state, {"B": "card k08 C"}, rolls=[4, 5])
    assert one(events, "check").data["success"] is False
    assert one(events, "check_target").data["target"] == 3
    assert not of(events, "attack") and state.c_discard == ["k08"]


# --- escapes and blocks --------------------------------------------------------------------------


def test_an_escape_leaves_the_combat_and_moves_1d6_round_the_ring() -> None:
    state = fighting(hands={"A": ["k05"], "B": [], "C": ["k22"]})
    state, _ = attack(state, "card k05 C")
    state = opened(state)
    assert rejected(state, "C", "escape k22") == combats.R_LEVEL  # Dodge is level 1 < 3
    state = fighting(hands={"A": ["k01"], "B": [], "C": ["k22"]})
    state, _ = attack(state, "card k01 C")
    state, events = play(state, {"C": "escape k22 left"}, rolls=[2])
    assert one(events, "escaped").data["steps"] == 2
    assert state.seats["C"].spot == "P1-6" and state.combat is not None
    assert "C" not in state.combat.seats and not of(events, "damage_roll")


def test_a_teleport_escape_is_blocked_by_a_higher_teleport_with_syncs_from_those_who_acted() -> (
    None
):
    # C escapes with Phase Shift (teleport, level 4); A (who acted) leads with Deep Jump (5)
    # is already enough; here B's Short Jump (2, sync) joins A's Phase Shift (4): 4 + 1 = 5 > 4
    state = fighting(hands={"A": ["k01", "k25"], "B": ["k24"], "C": ["k25"]})
    state, _ = attack(state, "card k01 C")
    state, _ = play(state, {"C": "escape k25"})
    assert state.step == combats.BLOCK and sorted(state.waiting) == ["A", "B"]
    state, events = play(state, {"A": "block k25", "B": "block k24"})
    block = one(events, "block").data
    assert block["level"] == 5 and block["blocked"] is True and sorted(block["by"]) == ["A", "B"]
    # blocked: C stays in the combat, and still takes no damage
    assert state.combat is not None and "C" in state.combat.seats
    assert not of(events, "damage_roll") and not of(events, "escaped")


def test_an_equal_teleport_does_not_block() -> None:
    state = fighting(hands={"A": ["k01", "k25"], "B": [], "C": ["k25"]})
    state, _ = attack(state, "card k01 C")
    state, _ = play(state, {"C": "escape k25 right"})
    state, events = play(state, {"A": "block k25"}, rolls=[3])
    assert one(events, "block").data["blocked"] is False
    assert state.seats["C"].spot == "P1-4"


# --- damage ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "declared", "column"),
    [
        ("k03", 6, "1:2"),  # 5 ÷ 6
        ("k05", 4, "2:1"),  # 8 ÷ 4
        ("k10", 6, "3:1"),  # a fixed column, whatever the durability
        ("k12", 1, "5:1"),
    ],
)
def test_a_damage_roll_on_each_kind_of_column_with_a_declared_durability(
    card: str, declared: int, column: str
) -> None:
    state = fighting("c04", "c02", "c07", "c08", "c10", hands={"A": [card], "B": [], "C": []})
    state.seats["A"].sheet = "c07"  # ESP 8: every card without a check
    state, _ = attack(state, f"card {card} C")
    state, events = play(state, {"C": f"durability {declared}"}, rolls=[2, 3])
    roll = one(events, "damage_roll").data
    index = combats.COLUMNS.index(column)
    assert (roll["column"], roll["declared"]) == (column, declared)
    assert roll["damage"] == PACK.damage_at(5, index)


def test_a_hit_above_the_declared_durability_kills_and_the_dead_drop_cards() -> None:
    state = fighting(hands={"A": ["k05"], "B": [], "C": ["k14", "k22"]})
    state.seats["C"].face_up = ["a05"]
    state, _ = attack(state, "card k05 C")
    # C has 6 left but declares 1: 8 ÷ 1 = 8:1; 2D6 = 12 deals more than 1
    state, events = play(state, {"C": "durability 1"}, rolls=[6, 6])
    assert PACK.damage_at(12, 8) > 1
    died = one(events, "died").data
    assert died["dropped"] == {"abilities": 1, "hand": 2}
    assert not state.seats["C"].alive and state.seats["C"].c_hand == []
    assert state.seats["C"].face_up == [] and {"k14", "k22"} <= set(state.c_discard)
    assert state.combat is not None and "C" not in state.combat.seats


def test_a_durability_above_the_current_one_is_refused() -> None:
    state = fighting(hands={"A": ["k01"], "B": [], "C": []})
    state, _ = attack(state, "card k01 C")
    assert rejected(state, "C", "durability 9") == combats.R_DURABILITY


# --- melee ----------------------------------------------------------------------------------------


def test_melee_with_a_weapon_and_a_counter_shifts_both_columns_and_rolls_both_at_once() -> None:
    # A (c04: [格闘:2] unarmed, durability 5) with an Energy Blade (+2): X 4; C (c13) counters
    # with nothing: shift 4. A declares 5 firepower, C 6: 5 ÷ 6 → 1:2 +4 = 4:1; 6 ÷ 5 = 1:1 −4 → 1:2
    state = fighting(hands={"A": ["k27"], "B": [], "C": []})
    state, events = play(state, {"A": "melee C 5 +k27"})
    assert one(events, "attack").data["firepower"] == 5
    state, events = play(state, {"C": "counter"}, rolls=[4, 4, 3, 3])
    rolls = of(events, "damage_roll")
    assert [(r.data["seat"], r.data["column"]) for r in rolls] == [("C", "4:1"), ("A", "1:2")]
    assert state.seats["C"].damage == PACK.damage_at(8, 4)
    assert state.seats["A"].damage == PACK.damage_at(6, 0)


def test_melee_firepower_counts_henchmen_and_is_defended_at_level_1() -> None:
    state = fighting("c09", "c02", "c13", "c08", "c10", hands={"A": [], "B": [], "C": ["k21"]})
    assert state.combat is not None
    state.combat.henchmen["A"] = 3  # c09's [手下]
    state, events = play(state, {"A": "melee C 4"})
    assert one(events, "attack").data["firepower"] == 7 and one(events, "attack").data["level"] == 1
    state, events = play(state, {"C": "defend k21"})  # a level-1 guard against melee
    assert has(events, "defended")


def test_two_weapons_at_once_are_refused() -> None:
    state = fighting("c15", "c02", "c13", "c08", "c10", hands={"A": ["k27"], "B": [], "C": []})
    assert rejected(state, "A", "melee C 3 +k27 +c15b") == combats.R_WEAPON


# --- rounds, hands and the combat's end -----------------------------------------------------------


def test_hand_limit_is_seven_plus_henchmen_plus_the_sheet_bonus() -> None:
    state = fighting("c09", "c02", "c13", "c08", "c10")
    assert state.combat is not None
    state.combat.henchmen["A"] = 3
    assert combats.hand_limit(state, "A") == 7 + 3 + PACK.sheets["c09"].hand
    assert combats.hand_limit(state, "B") == 7 + PACK.sheets["c02"].hand


def test_the_round_ends_trims_hands_and_refills_short_ones() -> None:
    limit_b = 7 + PACK.sheets["c02"].hand  # 8
    hand_b = ["k01"] * 3 + ["k02"] * 3 + ["k03"] * 4  # 10: two over the limit
    state = fighting(hands={"A": ["k05"], "B": hand_b, "C": ["k14"]}, seats=("A", "B", "C"))
    state.c_deck = ["k22"] * 20
    state, _ = play(state, {"A": "card k05 C"})
    state, _ = play(state, {"B": "pass"})  # no sync
    state, _ = play(state, {"C": "pass"}, rolls=[1, 1])
    state, _ = play(state, {"B": "pass"})
    state, events = play(state, {"C": "pass"})
    assert state.step == combats.ROUND_END and has(events, "round_end")
    state, events = play(
        state,
        {"A": "continue", "B": "continue; discard k02", "C": "stop"},
        rolls=[1] * 39,  # the next round's initiative: a shuffle of 40 cards
        secret=RandomDice(1),
    )
    assert len(state.seats["B"].c_hand) == limit_b
    assert state.seats["B"].c_hand.count("k02") == 2  # the one it named went first
    assert len(state.seats["C"].c_hand) == 7 + PACK.sheets["c13"].hand  # refilled
    assert has(events, "initiative") and state.combat is not None and state.combat.round == 2


def test_a_round_without_an_attack_ends_the_combat_and_the_turn() -> None:
    state = fighting(hands={"A": [], "B": [], "C": []})
    state.active = "A"
    state, _ = play(state, {"A": "pass"})
    state, _ = play(state, {"B": "pass"})
    state, events = play(state, {"C": "pass"})
    assert one(events, "combat_end").data["why"] == "no_attack"
    assert state.combat is None and state.step == rules.TURN and state.active != "A"


# --- starting combats -----------------------------------------------------------------------------


def test_fight_after_a_move_starts_a_combat_and_the_others_may_rush_in() -> None:
    state = table(*FIVE, spots={"A": "P1-1", "B": "P1-2"})
    state, events = play(state, {"A": "move right; fight"}, secret=RandomDice(2))
    start = one(events, "combat_start").data
    assert start["seats"] == ["A", "B"] and start["why"] == "fight"
    assert state.step == combats.ENTRY and state.waiting == ["C", "D", "E"]
    # D (an EVIL silhouette, no piece) rushes in: 2D6 = 11 on the chart: there at once
    state, events = play(
        state, {"D": "join", "E": "join"}, rolls=[5, 6, 4, 5, *[1] * 39], secret=RandomDice(3)
    )
    assert [e.data["result"] for e in of(events, "there")] == ["yes", "late"]
    assert state.combat is not None and state.combat.seats == ["A", "B", "D"]
    assert state.combat.late == ["E"] and state.seats["D"].spot == "P1-2"
    assert all(len(state.seats[s].c_hand) == combats.hand_limit(state, s) for s in "ABD")


def test_fight_needs_someone_on_the_spot_and_a_move_teleport_or_pass() -> None:
    state = table(*FIVE, spots={"A": "P1-1", "B": "P4-4", "C": "P5-5"})
    state, events = play(state, {"A": "move right; fight"})
    assert one(events, "skipped_why").data["why"] == rules.R_FIGHT_ALONE
    assert state.combat is None


def test_the_ambush_starts_a_combat_with_its_runner() -> None:
    state = table(*FIVE, spots={"A": "P1-1", "B": "P4-4", "C": "P5-5"})
    state.ambush, state.ambush_runner = "P1-2", "D"
    state, events = play(state, {"A": "move right"}, secret=RandomDice(4))
    assert has(events, "ambush")
    assert one(events, "combat_start").data == {
        "spot": "P1-2",
        "why": "ambush",
        "by": "A",
        "seats": ["A", "D"],
        "key": None,
    }


def test_an_escaper_may_fight_where_it_lands_once_the_combat_is_over() -> None:
    state = fighting(hands={"A": ["k01"], "B": [], "C": ["k22"]})
    state.seats["D"].spot = "P1-6"  # someone where C will land
    state.active = "A"
    state, _ = attack(state, "card k01 C")
    state, events = play(state, {"C": "逃避 k22 左 戦闘"}, rolls=[2])
    assert state.seats["C"].spot == "P1-6" and state.combat is not None
    assert state.combat.then == ["C"]
    state, _ = play(state, {"B": "pass"})
    state, events = play(state, {"A": "stop", "B": "stop"}, secret=RandomDice(5))
    assert one(events, "combat_end").data["why"] == "stopped"
    start = one(events, "combat_start").data
    assert (start["why"], start["spot"], start["seats"]) == ("escape", "P1-6", ["C", "D"])
    assert state.combat is not None and state.step == combats.ENTRY
