"""Arena Duel rules: the digest's and the seed's examples as scenarios.

Positions are built directly (``at``) where the doors are inconvenient; every scenario then runs
through ``start_step`` with scripted dice and ``resolve`` with dice that refuse any draw.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.dice import NoDice, ScriptedDice
from bot.ruleset import Choice, ChoiceGroup, Event, OrderRejected, RuleError, StateError
from cogs.arena import rules
from cogs.arena.rules import (
    FACING_NAMES,
    ArenaState,
    Fighter,
    LastTurn,
    OptionError,
    Order,
    TurnError,
)

Hex = tuple[int, int]


# --- helpers -----------------------------------------------------------------------------------


def at(
    a: tuple[Hex, str] = ((0, 2), "N"),
    b: tuple[Hex, str] = ((0, -2), "S"),
    *,
    stamina: tuple[int, int] = (15, 15),
    may_charge: tuple[bool, bool] = (False, False),
    no_retreat: tuple[bool, bool] = (False, False),
    obstacles: Sequence[Hex] = (),
    turn: int = 0,
) -> ArenaState:
    """A state between turns (no dice drawn) with the figures where the test wants them."""
    fighters = {
        seat: Fighter(h, FACING_NAMES.index(f), stamina[i], may_charge[i], no_retreat[i])
        for i, (seat, (h, f)) in enumerate((("A", a), ("B", b)))
    }
    return ArenaState("t", turn, fighters, {}, frozenset(obstacles))


def opened(state: ArenaState, dice_a: Sequence[int] = (1, 1, 1), dice_b: Sequence[int] = (1, 1, 1)):
    state, _ = rules.start_step(state, ScriptedDice([*dice_a, *dice_b]))
    return state


def play(
    state: ArenaState,
    order_a: str,
    order_b: str,
    dice_a: Sequence[int] = (1, 1, 1),
    dice_b: Sequence[int] = (1, 1, 1),
) -> tuple[ArenaState, list[Event]]:
    state = opened(state, dice_a, dice_b)
    orders = {"A": rules.parse(state, "A", order_a), "B": rules.parse(state, "B", order_b)}
    return rules.resolve(state, orders, NoDice())  # NoDice: resolve must draw nothing


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, (kind, types(events))
    return found[0]


def where(state: ArenaState, seat: str) -> tuple[Hex, str, int]:
    f = state.fighters[seat]
    return f.hex, FACING_NAMES[f.facing], f.stamina


def rejected(state: ArenaState, seat: str, text: str) -> OrderRejected:
    with pytest.raises(OrderRejected) as info:
        rules.parse(state, seat, text)
    return info.value


# --- dice comparison -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((1, 6, 6), (2, 6), 1),  # two sixes beat one
        ((4, 5, 5), (1, 6), -1),  # a six beats fives
        ((3, 3, 3), (4,), -1),  # the highest die first
        ((6, 2, 3), (3, 6, 3), -1),  # 6=6, 3=3, then 3 beats 2
        ((6, 2, 3), (3, 6), 1),  # equal so far, the longer list wins
        ((), (), 0),  # back against back: nobody has dice
        ((5, 5), (5, 5), 0),
        ((1,), (), 1),
    ],
)
def test_compare_dice_seed_examples(a: tuple[int, ...], b: tuple[int, ...], expected: int) -> None:
    assert rules.compare_dice(a, b) == expected
    assert rules.compare_dice(b, a) == -expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((3, 3, 3), (3, 3, 3), (False, False)),  # all equal: nobody
        ((1, 2, 3), (1, 5, 6), (True, True)),  # one pair equal: both
        ((2, 4, 6), (5, 4, 1), (True, True)),
        ((6, 6, 1), (1, 1, 6), (True, False)),  # A higher in two pairs
        ((6, 5, 4), (1, 2, 3), (True, False)),  # A higher in three
        ((1, 1, 6), (6, 6, 1), (False, True)),
        ((6, 1, 6), (1, 6, 1), (True, False)),
    ],
)
def test_charge_check(a: tuple[int, ...], b: tuple[int, ...], expected: tuple[bool, bool]) -> None:
    assert rules.charge_check(a, b) == expected


# --- lifecycle -----------------------------------------------------------------------------------


def test_module_is_the_registered_engine() -> None:
    from bot import registry

    # The whole contract is checked for every ruleset in tests/test_rulesets.py.
    assert registry.get("arena").engine is rules
    assert (rules.NAME, rules.SEATS, rules.SCHEMA_VERSION) == ("arena", ("A", "B"), 1)


def test_new_game_doors_and_first_turn() -> None:
    state = rules.new_game("g-1", ["A", "B"], {}, NoDice())
    assert where(state, "A") == ((0, 2), "N", 15)
    assert where(state, "B") == ((0, -2), "S", 15)
    assert rules.step_number(state) == 0
    assert rules.awaiting(state) == []  # nobody owes an order before the first start_step
    assert not rules.outcome(state).finished
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    new, events = rules.start_step(state, dice)
    assert dice.rolls == [1, 2, 3, 4, 5, 6]
    assert new.dice == {"A": (1, 2, 3), "B": (4, 5, 6)}  # A's three, then B's three
    assert events == [Event("turn_started", {"turn": 1})]
    assert rules.step_number(new) == 1 and rules.awaiting(new) == ["A", "B"]
    assert state.dice == {} and state.turn == 0  # the input state is untouched
    with pytest.raises(TurnError) as info:
        rules.start_step(new, ScriptedDice([1] * 6))
    assert info.value.key == "arena.error.turn_open"


def test_resolve_needs_an_open_turn() -> None:
    state = rules.new_game("g", ["A", "B"], {}, NoDice())
    with pytest.raises(TurnError):
        rules.resolve(state, {"A": Order("stay"), "B": Order("stay")}, NoDice())


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"obstacles": [[3, 0]]}, "arena.option.obstacle_outside"),
        ({"obstacles": [[0, 2]]}, "arena.option.obstacle_on_start"),
        ({"obstacles": [[0, -2]]}, "arena.option.obstacle_on_start"),
        ({"obstacles": [[0]]}, "arena.option.invalid"),
        ({"obstacles": "0,0"}, "arena.option.invalid"),
        ({"obstacles": [[True, 0]]}, "arena.option.invalid"),
        ({"walls": []}, "arena.option.unknown"),
    ],
)
def test_new_game_rejects_bad_options(options: dict[str, Any], key: str) -> None:
    with pytest.raises(OptionError) as info:
        rules.new_game("g", ["A", "B"], options, NoDice())
    assert info.value.key == key


def test_new_game_obstacles_and_seats() -> None:
    state = rules.new_game("g", ("A", "B"), {"obstacles": [[0, 0], (1, -1), [0, 0]]}, NoDice())
    assert state.obstacles == frozenset({(0, 0), (1, -1)})
    assert rules.view(state, None)["obstacles"] == [[0, 0], [1, -1]]
    with pytest.raises(RuleError):
        rules.new_game("g", ["A", "B", "C"], {}, NoDice())


def test_match_record_example_turns() -> None:
    """The two turns of ``spec/match-record.md`` replay as expected."""
    state = rules.new_game("g-0001", ["A", "B"], {}, NoDice())
    state = opened(state, (4, 6, 1), (2, 3, 5))
    orders = {
        s: rules.parse(state, s, t)
        for s, t in {"A": "右前 左回転", "B": "前 向きを変えない"}.items()
    }
    state, events = rules.resolve(state, orders, NoDice())
    assert where(state, "A") == ((1, 1), "NW", 14)  # moved NE, then turned left
    assert where(state, "B") == ((0, -1), "S", 14)
    assert "combat" not in types(events)  # not adjacent
    # 4>2 and 6>3: A is higher in two pairs and alone may charge.
    assert only(events, "charge_check").data["seat"] == "A"
    assert state.fighters["A"].may_charge and not state.fighters["B"].may_charge
    state = opened(state, (1, 1, 1), (6, 6, 6))
    state, _ = rules.resolve(state, {"A": rules.parse(state, "A", "stay none")}, NoDice())
    assert rules.summary(state) == {
        "fighters": {
            "A": {
                "hex": [1, 1],
                "facing": "NW",
                "stamina": 13,
                "may_charge": False,
                "no_retreat": False,
            },
            "B": {
                "hex": [0, -1],
                "facing": "S",
                "stamina": 13,
                "may_charge": True,
                "no_retreat": False,
            },
        }
    }


# --- movement situations -----------------------------------------------------------------------


def test_passing_lower_die_2_takes_two_and_no_other_combat() -> None:
    # A moves front-left (north) into B's hex while B moves forward (south) into A's: they swap.
    state = at(((0, 1), "NE"), ((0, 0), "S"))
    new, events = play(state, "fl", "forward", (1, 2, 1), (1, 5, 1))
    assert where(new, "A") == ((0, 0), "NE", 12)  # 2 damage + 1 stamina
    assert where(new, "B") == ((0, 1), "S", 14)
    passing = only(events, "passing")
    assert passing.data == {"step": 1, "die_A": 2, "die_B": 5, "loser": "A", "damage": 2}
    # Adjacent afterwards (A would strike B with die 1 from its back-right), but no combat.
    assert "combat" not in types(events) and "combat_draw" not in types(events)
    assert new.last_turn is not None
    assert new.last_turn.paths == {"A": ((0, 1), (0, 0)), "B": ((0, 0), (0, 1))}


def test_passing_tie_deals_nothing() -> None:
    state = at(((0, 1), "NE"), ((0, 0), "S"))
    new, events = play(state, "fl right", "forward left", (1, 4, 1), (2, 4, 3))
    assert "passing_draw" in types(events)
    assert where(new, "A") == ((0, 0), "SE", 14)  # both complete their moves and turns
    assert where(new, "B") == ((0, 1), "SE", 14)
    assert not {"combat", "combat_draw", "push_back"} & set(types(events))


def test_collision_higher_die_3_goes_on_lower_stays_without_turning() -> None:
    state = at(((0, 1), "N"), ((0, -1), "S"))
    new, events = play(state, "forward", "forward right", (1, 1, 6), (2, 2, 2))
    col = only(events, "collision")
    assert col.data == {
        "step": 1,
        "hex": [0, 0],
        "die_A": 6,
        "die_B": 2,
        "winner": "A",
        "loser": "B",
    }
    assert only(events, "turn_prevented").data == {"seat": "B"}
    # Then adjacent combat, front against front: A's (6, 1, 1) beats B's (2, 2, 2) and pushes back.
    combat = only(events, "combat")
    assert combat.data["dice_A"] == [6, 1, 1] and combat.data["dice_B"] == [2, 2, 2]
    assert only(events, "push_back").data == {
        "seat": "A",
        "target": "B",
        "from_hex": [0, -1],
        "to_hex": [0, -2],
    }
    assert where(new, "A") == ((0, -1), "N", 14)
    assert where(new, "B") == ((0, -2), "S", 13)  # no turn for the stopped figure


def test_collision_lower_die_3_for_a() -> None:
    state = at(((0, 1), "N"), ((0, -1), "S"))
    new, events = play(state, "forward left", "forward right", (2, 2, 2), (1, 1, 6))
    assert only(events, "collision").data["winner"] == "B"
    # B entered (0, 0) and turned to SW; A stayed at (0, 1) still facing N.
    combat = only(events, "combat")
    assert combat.data["position_A"] == "front" and combat.data["position_B"] == "front_left"
    assert combat.data["dice_A"] == [2, 2, 2] and combat.data["dice_B"] == [1, 1]
    assert combat.data["winner"] == "A"
    assert where(new, "A") == ((0, 0), "N", 14)  # pushed B back
    assert where(new, "B") == ((0, -1), "SW", 13)


def test_collision_tie_both_stay_and_neither_turns() -> None:
    state = at(((0, 1), "N"), ((0, -1), "S"))
    new, events = play(state, "forward left", "forward right", (1, 1, 4), (2, 2, 4))
    assert only(events, "collision_draw").data["die_A"] == 4
    assert where(new, "A") == ((0, 1), "N", 14)
    assert where(new, "B") == ((0, -1), "S", 14)
    assert "combat" not in types(events)  # two hexes apart


def test_collision_stopped_charger_did_not_charge() -> None:
    # A charges, collides on its first hex and loses: it moved no hex, so no double damage.
    state = at(((0, 2), "N"), ((0, 0), "S"), may_charge=(True, False))
    new, events = play(state, "charge", "forward", (6, 6, 1), (1, 1, 6))
    assert only(events, "collision").data["winner"] == "B"
    assert new.last_turn is not None and new.last_turn.charged == {"A": False, "B": False}


def test_push_on_entry_open() -> None:
    state = at(((0, 1), "N"), ((0, 0), "S"))
    new, events = play(state, "forward left", "stay", (6, 5, 1), (1, 1, 1))
    assert only(events, "push").data == {
        "seat": "A",
        "target": "B",
        "from_hex": [0, 0],
        "to_hex": [0, -1],
    }
    # A now faces NW, B stands at its front-right: A uses dice 1 and 2 and wins; no push-back.
    combat = only(events, "combat")
    assert combat.data["position_A"] == "front_right" and combat.data["dice_A"] == [6, 5]
    assert "push_back" not in types(events)
    assert where(new, "A") == ((0, 0), "NW", 14)
    assert where(new, "B") == ((0, -1), "S", 13)
    assert new.last_turn is not None
    assert new.last_turn.paths == {"A": ((0, 1), (0, 0)), "B": ((0, 0), (0, -1))}


def test_push_on_entry_blocked_by_wall() -> None:
    state = at(((0, -1), "N"), ((0, -2), "S"))
    new, events = play(state, "forward right", "stay", (6, 1, 1), (1, 1, 1))
    assert only(events, "push_blocked").data == {
        "seat": "A",
        "target": "B",
        "hex": [0, -2],
        "damage": 1,
    }
    assert where(new, "A")[:2] == ((0, -1), "NE")  # did not move, but still turned
    assert where(new, "B")[:2] == ((0, -2), "S")
    # 1 (blocked push) + 1 (A wins combat with (6, 1) from its front-left) + 1 (stamina)
    assert new.fighters["B"].stamina == 12


def test_push_on_entry_blocked_by_obstacle() -> None:
    state = at(((0, 1), "N"), ((0, 0), "S"), obstacles=[(0, -1)])
    new, events = play(state, "forward", "stay", (1, 1, 1), (1, 1, 1))
    assert "push_blocked" in types(events)
    assert "combat_draw" in types(events)  # equal dice, front against front
    assert where(new, "A") == ((0, 1), "N", 14)
    assert where(new, "B") == ((0, 0), "S", 13)


def test_charge_pushes_on_its_second_hex() -> None:
    state = at(((0, 2), "N"), ((0, 0), "S"), may_charge=(True, False))
    new, events = play(state, "charge", "stay", (1, 1, 1), (1, 1, 1))
    assert [e.data["to_hex"] for e in events if e.type == "move"] == [[0, 1], [0, 0]]
    assert only(events, "push").data["to_hex"] == [0, -1]
    assert new.last_turn is not None and new.last_turn.charged == {"A": True, "B": False}


def test_blocked_push_ends_the_charge_but_counts_as_charged() -> None:
    state = at(((0, 0), "N"), ((0, -2), "S"), may_charge=(True, False))
    new, events = play(state, "charge", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "push_blocked").data["damage"] == 1
    assert new.fighters["A"].hex == (0, -1)
    combat = only(events, "combat")
    assert combat.data["winner"] == "A" and combat.data["damage"] == 2 and combat.data["charged"]
    # Front: cornered against the wall for one more.
    assert only(events, "cornered").data == {"seat": "A", "target": "B", "damage": 1}
    assert new.fighters["B"].stamina == 15 - 1 - 2 - 1 - 1


def test_charger_passes_over_a_standing_opponent() -> None:
    state = at(((0, 1), "N"), ((0, 0), "S"), may_charge=(True, False))
    new, events = play(state, "charge right", "stay", (4, 1, 1), (6, 6, 6))
    assert only(events, "pass_over").data == {"seat": "A", "target": "B", "hex": [0, 0]}
    assert "push" not in types(events)
    assert where(new, "A")[:2] == ((0, -1), "NE")
    assert where(new, "B")[:2] == ((0, 0), "S")
    # A has B at its back-right (die 1: 4); B has A straight behind (no dice): A wins, doubled.
    combat = only(events, "combat")
    assert combat.data["dice_A"] == [4] and combat.data["dice_B"] == []
    assert combat.data["damage"] == 2
    assert new.fighters["B"].stamina == 12
    assert new.last_turn is not None
    assert new.last_turn.paths["A"] == ((0, 1), (0, 0), (0, -1))
    assert rules.view(new, None)["last_turn"] == {
        "turn": 1,
        "paths": {"A": [[0, 1], [0, 0], [0, -1]], "B": [[0, 0]]},
        "charged": {"A": True, "B": False},
        # what the board draws: the fight's winner and the stamina B lost to it
        "damage": {"A": 0, "B": 2},
        "fight": "A",
        "collision": None,
    }
    again = rules.from_json(rules.to_json(new))
    assert again.last_turn == new.last_turn


def test_a_state_stored_before_damage_was_noted_still_loads() -> None:
    state = at(((0, 1), "N"), ((0, -1), "S"))
    new, _ = play(state, "forward", "forward right", (1, 1, 6), (2, 2, 2))
    assert new.last_turn is not None and new.last_turn.collision == (0, 0)
    assert rules.view(new, None)["last_turn"]["collision"] == [0, 0]
    stored = rules.to_json(new)
    for key in ("damage", "fight", "collision"):
        del stored["last_turn"][key]
    old = rules.from_json(stored)
    assert old.last_turn is not None
    assert (old.last_turn.fight, old.last_turn.collision) == (None, None)
    assert rules.view(old, None)["last_turn"]["damage"] == {"A": 0, "B": 0}


def test_two_charges_pass_each_other_in_step_2() -> None:
    state = at(((0, 2), "N"), ((0, -1), "S"), may_charge=(True, True))
    new, events = play(state, "charge", "charge", (1, 3, 1), (1, 2, 1))
    assert only(events, "passing").data == {
        "step": 2,
        "die_A": 3,
        "die_B": 2,
        "loser": "B",
        "damage": 2,
    }
    assert new.fighters["A"].hex == (0, 0) and new.fighters["B"].hex == (0, 1)


def test_two_charges_collide_in_step_2() -> None:
    state = at(((0, 2), "N"), ((0, -2), "S"), may_charge=(True, True))
    new, events = play(state, "charge", "charge", (1, 1, 5), (1, 1, 2))
    collision = only(events, "collision")
    assert collision.data["step"] == 2 and collision.data["hex"] == [0, 0]
    assert [e.data["to_hex"] for e in events if e.type == "move"] == [[0, 1], [0, -1], [0, 0]]
    # Both moved a hex, so both charged; A (front, 5 1 1) beats B (front, 2 1 1), doubled.
    combat = only(events, "combat")
    assert combat.data["winner"] == "A" and combat.data["damage"] == 2
    assert new.fighters["A"].hex == (0, -1) and new.fighters["B"].hex == (0, -2)  # pushed back


def test_one_moves_into_the_hex_the_other_leaves() -> None:
    state = at(((0, 1), "N"), ((0, 0), "N"))
    new, events = play(state, "forward", "forward", (1, 1, 1), (1, 1, 1))
    assert not {"push", "collision", "passing"} & set(types(events))
    moves = [(e.data["seat"], e.data["to_hex"]) for e in events if e.type == "move"]
    assert moves == [("A", [0, 0]), ("B", [0, -1])]
    # Then A strikes B's back and pushes it on.
    assert new.fighters["A"].hex == (0, -1) and new.fighters["B"].hex == (0, -2)


# --- combat --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facing", "position", "used"),
    [
        ("N", "front", [6, 5, 4]),
        ("NW", "front_right", [6, 5]),
        ("NE", "front_left", [6, 5]),
        ("SW", "back_right", [6]),
        ("SE", "back_left", [6]),
        ("S", "back", []),
    ],
)
def test_combat_dice_by_relative_position(facing: str, position: str, used: list[int]) -> None:
    # B stands north of A facing A (front: all three of B's dice).
    state = at(((0, 0), facing), ((0, -1), "S"))
    _, events = play(state, "stay", "stay", (6, 5, 4), (2, 2, 2))
    kind = "combat" if "combat" in types(events) else "combat_draw"
    combat = only(events, kind)
    assert combat.data["position_A"] == position and combat.data["dice_A"] == used
    assert combat.data["position_B"] == "front" and combat.data["dice_B"] == [2, 2, 2]
    assert len(used) == len(rules.dice_used(position))
    assert combat.data["winner"] == ("B" if position == "back" else "A")


def test_not_adjacent_no_combat() -> None:
    _, events = play(at(((0, 1), "N"), ((0, -1), "S")), "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert not {"combat", "combat_draw"} & set(types(events))


def test_push_back_into_a_free_hex() -> None:
    state = at(((0, 1), "N"), ((0, 0), "S"))
    new, events = play(state, "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "combat").data["damage"] == 1
    assert only(events, "push_back").data["to_hex"] == [0, -1]
    assert where(new, "A") == ((0, 0), "N", 14)
    assert where(new, "B") == ((0, -1), "S", 13)
    assert new.last_turn is not None
    assert new.last_turn.paths == {"A": ((0, 1), (0, 0)), "B": ((0, 0), (0, -1))}


def test_cornered_against_the_wall() -> None:
    state = at(((0, -1), "N"), ((0, -2), "S"))
    new, events = play(state, "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "cornered").data == {"seat": "A", "target": "B", "damage": 1}
    assert where(new, "A") == ((0, -1), "N", 14)
    assert where(new, "B") == ((0, -2), "S", 12)  # 1 + 1 cornered + 1 stamina


def test_cornered_against_an_obstacle() -> None:
    state = at(((0, 1), "N"), ((0, 0), "S"), obstacles=[(0, -1)])
    new, events = play(state, "stay", "stay", (1, 1, 1), (6, 6, 6))
    assert "cornered" not in types(events)  # B won; A's back (0, 2) is free: pushed back
    assert new.fighters["A"].hex == (0, 2) and new.fighters["B"].hex == (0, 1)
    state = at(((0, 1), "N"), ((0, 0), "S"), obstacles=[(0, -1)])
    new, events = play(state, "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "cornered").data["target"] == "B"
    assert new.fighters["B"].stamina == 12


def test_winner_not_facing_the_loser_does_not_push_back() -> None:
    state = at(((0, 0), "NE"), ((0, -1), "SE"))
    new, events = play(state, "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "combat").data["winner"] == "A"
    assert "push_back" not in types(events) and "cornered" not in types(events)
    assert new.fighters["B"].hex == (0, -1)


# --- charge --------------------------------------------------------------------------------------


def test_charge_allowed_and_refused_at_parse() -> None:
    allowed = opened(at(may_charge=(True, False)))
    assert rules.parse(allowed, "A", "charge") == Order("charge", "none")
    assert rules.parse(allowed, "A", "突撃右前進 右を向く") == Order("charge-fr", "right")
    assert rules.parse(allowed, "A", "突撃左前進") == Order("charge-fl", "none")
    assert rejected(allowed, "B", "charge").key == "arena.reject.charge_not_allowed"
    assert rejected(allowed, "B", "突撃前進").key == "arena.reject.charge_not_allowed"


def test_charge_double_damage() -> None:
    state = at(((0, 2), "N"), ((0, -1), "S"), may_charge=(True, False))
    new, events = play(state, "charge", "stay", (6, 6, 6), (1, 1, 1))
    combat = only(events, "combat")
    assert combat.data["winner"] == "A" and combat.data["damage"] == 2 and combat.data["charged"]
    assert where(new, "A") == ((0, -1), "N", 14)  # advanced after the push-back
    assert where(new, "B") == ((0, -2), "S", 12)


def test_normal_move_gets_no_bonus_even_when_charge_was_allowed() -> None:
    state = at(((0, 1), "N"), ((0, -1), "S"), may_charge=(True, False))
    new, events = play(state, "forward", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "combat").data["damage"] == 1
    assert new.fighters["B"].stamina == 13


def test_charge_blocked_by_wall_or_obstacle() -> None:
    state = opened(at(((1, -1), "N"), ((0, 1), "S"), may_charge=(True, True)))
    assert rejected(state, "A", "charge").key == "arena.reject.charge_blocked"  # 2nd hex: wall
    assert rejected(state, "A", "charge").params == {"move_key": "arena.move.charge"}
    assert rejected(state, "A", "charge-fr").key == "arena.reject.charge_blocked"  # 1st: wall
    assert rules.parse(state, "A", "charge-fl") == Order("charge-fl")
    blocked = opened(at(((0, 2), "N"), ((2, -2), "S"), may_charge=(True, True), obstacles=[(0, 0)]))
    assert rejected(blocked, "A", "charge").key == "arena.reject.charge_blocked"
    # The opponent is no obstacle: B may charge over A.
    over = opened(at(((0, 1), "N"), ((0, 0), "S"), may_charge=(True, True)))
    assert rules.parse(over, "B", "charge") == Order("charge")


def test_charge_check_after_resolution() -> None:
    cases = [
        ((3, 3, 3), (3, 3, 3), "charge_check_none", (False, False)),
        ((1, 2, 3), (1, 5, 6), "charge_check_both", (True, True)),
        ((6, 6, 1), (1, 1, 6), "charge_check", (True, False)),
        ((1, 1, 6), (6, 6, 1), "charge_check", (False, True)),
    ]
    for dice_a, dice_b, kind, expected in cases:
        new, events = play(at(), "stay", "stay", dice_a, dice_b)
        assert kind in types(events)
        assert (new.fighters["A"].may_charge, new.fighters["B"].may_charge) == expected


# --- retreat restriction -----------------------------------------------------------------------


def test_retreat_restriction_set_and_enforced() -> None:
    # B stands right behind A and beats it (A has no dice against its back), pushing A on.
    state = at(((0, 0), "N"), ((0, 1), "N"))
    new, events = play(state, "stay", "stay", (6, 6, 6), (1, 1, 1))
    assert only(events, "combat").data["winner"] == "B"
    assert only(events, "retreat_restricted").data == {"seat": "A"}
    assert new.fighters["A"].no_retreat and not new.fighters["B"].no_retreat
    new = opened(new)
    for text in ("back", "後退", "br", "右後退", "bl", "左後退 右を向く"):
        err = rejected(new, "A", text)
        assert err.key == "arena.reject.retreat_restricted", text
    assert rules.parse(new, "A", "fr") == Order("front-right")
    moves = {c.token: c for c in rules.choices(new, "A")[0].choices}
    assert moves["back"].reason_key == "arena.reject.retreat_restricted"
    assert not moves["back"].enabled


def test_retreat_restriction_lifts() -> None:
    state = at(((0, 0), "N"), ((0, 2), "N"), no_retreat=(True, False))
    new, _ = play(state, "stay", "stay")
    assert not new.fighters["A"].no_retreat


# --- stamina and the end -----------------------------------------------------------------------


def test_stamina_loss_every_turn() -> None:
    _, events = play(at(), "stay", "stay")
    assert [e.data for e in events if e.type == "stamina_loss"] == [
        {"seat": "A", "amount": 1, "stamina": 14},
        {"seat": "B", "amount": 1, "stamina": 14},
    ]


def test_death_and_winner() -> None:
    new, events = play(at(stamina=(1, 2)), "stay", "stay")
    assert only(events, "death").data == {"seat": "A"}
    assert only(events, "game_over").data == {"winner": "B"}
    assert rules.outcome(new).winner == "B"
    assert rules.awaiting(new) == []
    assert new.fighters["A"].stamina == 0 and new.fighters["B"].stamina == 1
    assert rules.view(new, None)["outcome"] == "B"
    assert rules.choices(new, "A") == []
    with pytest.raises(TurnError):
        rules.start_step(new, ScriptedDice([1] * 6))
    assert rejected(new, "A", "stay").key == "arena.reject.finished"


def test_both_dead_is_a_draw() -> None:
    new, events = play(at(stamina=(1, 1)), "forward", "forward")
    assert "game_over_draw" in types(events)
    assert rules.outcome(new).winner == "draw"
    assert where(new, "A")[0] == (0, 1)  # the final positions are kept


def test_damage_kills_only_at_the_end_of_the_turn() -> None:
    # A takes 2 in passing with 2 stamina left; it still completes its turn, then dies.
    state = at(((0, 1), "NE"), ((0, 0), "S"), stamina=(2, 5))
    new, events = play(state, "fl right", "forward", (1, 1, 1), (1, 6, 1))
    assert where(new, "A") == ((0, 0), "SE", 0)
    assert types(events).index("death") > types(events).index("turn_right")
    assert rules.outcome(new).winner == "B"


def test_resign() -> None:
    state = opened(at())
    new, events = rules.resign(state, "A")
    assert events == [Event("resigned", {"seat": "A", "winner": "B"})]
    assert rules.outcome(new).winner == "B" and rules.awaiting(new) == [] and new.resigned == "A"
    assert rules.view(new, "A")["dice"] == {}
    with pytest.raises(OrderRejected):
        rules.resign(new, "B")
    with pytest.raises(OrderRejected):
        rules.resign(state, "C")


# --- parsing -----------------------------------------------------------------------------------

JA_MOVES = {
    "前進": "forward",
    "右前進": "front-right",
    "左前進": "front-left",
    "右後退": "back-right",
    "左後退": "back-left",
    "後退": "back",
    "留まる": "stay",
    "突撃前進": "charge",
    "突撃右前進": "charge-fr",
    "突撃左前進": "charge-fl",
    "突進": "charge",
    "突進右前進": "charge-fr",
}
JA_TURNS = {
    "向きを変えない": "none",
    "右を向く": "right",
    "右回転": "right",
    "左を向く": "left",
    "左回転": "left",
}
EN_MOVES = {
    "forward": "forward",
    "f": "forward",
    "front-right": "front-right",
    "fr": "front-right",
    "front-left": "front-left",
    "fl": "front-left",
    "back-right": "back-right",
    "br": "back-right",
    "back-left": "back-left",
    "bl": "back-left",
    "back": "back",
    "b": "back",
    "stay": "stay",
    "s": "stay",
    "charge": "charge",
    "charge-fr": "charge-fr",
    "charge-fl": "charge-fl",
    "charge-forward": "charge",
    "charge-front-right": "charge-fr",
}
EN_TURNS = {
    "none": "none",
    "-": "none",
    "right": "right",
    "r": "right",
    "left": "left",
    "l": "left",
}


@pytest.fixture
def center() -> ArenaState:
    """Every order legal: A in the middle, may charge, free on all sides."""
    return opened(at(((0, 0), "N"), ((2, -2), "S"), may_charge=(True, True)))


@pytest.mark.parametrize(("word", "move"), JA_MOVES.items())
@pytest.mark.parametrize(("turn_word", "turn"), JA_TURNS.items())
def test_parse_japanese_words(
    center: ArenaState, word: str, move: str, turn_word: str, turn: str
) -> None:
    expected = Order(move, turn)
    assert rules.parse(center, "A", f"{word} {turn_word}") == expected
    assert rules.parse(center, "A", f"{word}{turn_word}") == expected  # no space
    assert rules.parse(center, "A", f"  {word}　　{turn_word} ") == expected  # full-width space


@pytest.mark.parametrize(("word", "move"), EN_MOVES.items())
@pytest.mark.parametrize(("turn_word", "turn"), EN_TURNS.items())
def test_parse_english_words(
    center: ArenaState, word: str, move: str, turn_word: str, turn: str
) -> None:
    expected = Order(move, turn)
    assert rules.parse(center, "A", f"{word} {turn_word}") == expected
    assert rules.parse(center, "A", f"{word.upper()}   {turn_word.upper()}") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("右前 左回転", Order("front-right", "left")),  # the seed's own examples
        ("前 向きを変えない", Order("forward", "none")),
        ("「右前」「左回転」", Order("front-right", "left")),
        ("右前、左回転", Order("front-right", "left")),
        ("突撃右前進右を向く", Order("charge-fr", "right")),
        ("後退左回転", Order("back", "left")),
        ("右後退右回転", Order("back-right", "right")),
        ("突撃 右前進", Order("charge-fr", "none")),
        ("留まる", Order("stay", "none")),
        ("右を向く 前進", Order("forward", "right")),
        ("ＦＯＲＷＡＲＤ　ＲＩＧＨＴ", Order("forward", "right")),
        ("ｆｒ　ｌ", Order("front-right", "left")),
        ("ｃｈａｒｇｅ－ｆｌ ｎｏｎｅ", Order("charge-fl", "none")),
        ("ｽﾃｲ", None),  # half-width katakana is not a word we know
        ("Forward Left", Order("forward", "left")),
        ("stay", Order("stay", "none")),
        ("charge fr", Order("charge-fr", "none")),
        ("charge right", Order("charge", "right")),
        ("back right", Order("back", "right")),  # never joined: back, then turn right
        ("forwardnone", Order("forward", "none")),
        ("fr-left", Order("front-right", "left")),
        ("stay\tleft\n", Order("stay", "left")),
    ],
)
def test_parse_forms(center: ArenaState, text: str, expected: Order | None) -> None:
    if expected is None:
        assert rejected(center, "A", text).key == "arena.reject.unknown"
    else:
        assert rules.parse(center, "A", text) == expected


@pytest.mark.parametrize(
    ("text", "key", "params"),
    [
        ("", "arena.reject.empty", {}),
        ("   ", "arena.reject.empty", {}),
        ("「」、", "arena.reject.empty", {}),
        ("f" * 201, "arena.reject.too_long", {"limit": 200}),
        ("jump", "arena.reject.unknown", {"word": "jump"}),
        ("forward 4 6 1", "arena.reject.unknown", {"word": "4"}),
        ("前進 ほげ右を向く", "arena.reject.unknown", {"word": "ほげ"}),
        ("前進ですか", "arena.reject.unknown", {"word": "ですか"}),
        ("forward back", "arena.reject.two_moves", {"first": "forward", "second": "back"}),
        ("前進後退", "arena.reject.two_moves", {"first": "前進", "second": "後退"}),
        ("stay left right", "arena.reject.two_turns", {"first": "left", "second": "right"}),
        ("右を向く 左回転 前", "arena.reject.two_turns", {"first": "右を向く", "second": "左回転"}),
        ("left", "arena.reject.no_move", {}),
        ("向きを変えない", "arena.reject.no_move", {}),
        ("前進 right", "arena.reject.mixed_language", {}),
        ("forward 右を向く", "arena.reject.mixed_language", {}),
        ("charge 前進", "arena.reject.mixed_language", {}),
        ("forward前進", "arena.reject.mixed_language", {}),
    ],
)
def test_parse_rejections(center: ArenaState, text: str, key: str, params: dict[str, Any]) -> None:
    err = rejected(center, "A", text)
    assert err.key == key
    assert err.params == params
    assert i18n.has(key)


def test_parse_rejects_by_state() -> None:
    state = at()
    assert rejected(state, "A", "stay").key == "arena.reject.not_started"
    state = opened(state)
    err = rejected(state, "C", "stay")
    assert err.key == "arena.reject.not_seated" and err.params == {"seat": "C"}
    # A at its door facing N: back is the wall.
    err = rejected(state, "A", "back")
    assert err.key == "arena.reject.wall" and err.params == {"move_key": "arena.move.back"}
    # The refusal names the move in the reader's words, not the English token.
    assert i18n.t("ja", err.key, **err.params).startswith("「後退」はできません")
    assert i18n.t("en", err.key, **err.params).startswith("Back is not possible")
    assert rejected(state, "A", "後退").key == "arena.reject.wall"
    assert rejected(state, "A", "br").key == "arena.reject.wall"
    obstacle = opened(at(obstacles=[(0, 1)]))
    assert rejected(obstacle, "A", "forward").key == "arena.reject.wall"
    # The opponent's hex is no reason to reject.
    close = opened(at(((0, 1), "N"), ((0, 0), "S")))
    assert rules.parse(close, "A", "forward") == Order("forward")


def test_parse_never_raises_anything_else(center: ArenaState) -> None:
    for text in ["\x00", "𝔣𝔯", "🗡", "前進" * 100, "ー", "--", "fr--l", "㍿"]:
        try:
            order = rules.parse(center, "A", text)
        except OrderRejected:
            continue
        assert rules.parse(center, "A", order.canonical()) == order
    with pytest.raises(OrderRejected):
        rules.parse(center, "A", None)  # type: ignore[arg-type]


def test_canonical_round_trip_of_every_legal_order(center: ArenaState) -> None:
    orders = rules.legal(center, "A")
    assert len(orders) == 30
    for order in orders:
        assert rules.parse(center, "A", order.canonical()) == order
    assert Order("charge-fr", "left").canonical() == "charge-fr left"
    assert Order("stay", "right").canonical() == "stay right"
    with pytest.raises(OrderRejected):
        Order("jump", "none")


# --- choices, default, view, serialisation -----------------------------------------------------


def test_choices_groups_and_reasons() -> None:
    state = opened(at())  # A at its door facing N, may not charge
    groups = rules.choices(state, "A")
    assert [g.name for g in groups] == ["move", "turn"]
    assert all(isinstance(g, ChoiceGroup) for g in groups)
    moves = {c.token: c for c in groups[0].choices}
    assert list(moves) == list(rules.MOVES)
    assert moves["forward"] == Choice("forward", "arena.move.forward", True, None)
    assert moves["back"].reason_key == "arena.reject.wall"
    assert moves["charge"] == Choice(
        "charge", "arena.move.charge", False, "arena.reject.charge_not_allowed"
    )
    turns = [c.token for c in groups[1].choices]
    assert turns == ["none", "right", "left"]
    for group in groups:
        assert i18n.has(group.label_key)
        for c in group.choices:
            assert i18n.has(c.label_key)
            assert c.reason_key is None or i18n.has(c.reason_key)
    for m in moves.values():
        for t in turns:
            if m.enabled:
                assert rules.parse(state, "A", f"{m.token} {t}") == Order(m.token, t)
            else:
                assert rejected(state, "A", f"{m.token} {t}").key == m.reason_key
    with pytest.raises(OrderRejected):
        rules.choices(state, "Z")


def test_default_order_is_always_legal() -> None:
    state = opened(at(((0, -2), "S"), ((0, 2), "N"), no_retreat=(True, True)))
    order = rules.default_order(state, "A")
    assert order == Order("stay", "none") and order.canonical() == "stay none"
    assert rules.parse(state, "A", order.canonical()) == order
    # A seat missing from the orders gets the default (as on a deadline).
    _, events = rules.resolve(state, {"A": Order("forward")}, NoDice())
    assert [e.data["move"] for e in events if e.type == "order"] == ["forward", "stay"]


def test_resolve_rechecks_orders_and_does_not_mutate() -> None:
    state = opened(at())
    before = rules.to_json(state)
    with pytest.raises(OrderRejected) as info:
        rules.resolve(state, {"A": Order("back"), "B": Order("stay")}, NoDice())
    assert info.value.key == "arena.reject.wall"
    with pytest.raises(OrderRejected):
        rules.resolve(state, {"A": Order("charge"), "B": Order("stay")}, NoDice())
    with pytest.raises(OrderRejected):
        rules.resolve(state, {"C": Order("stay")}, NoDice())
    new, _ = rules.resolve(state, {"A": "前進", "B": Order("stay")}, NoDice())  # text is parsed
    assert rules.to_json(state) == before
    assert new.fighters["A"].hex == (0, 1)


def test_view_hides_the_opponents_dice() -> None:
    state = opened(at(), (1, 2, 3), (4, 5, 6))
    public = rules.view(state, None)
    assert public["dice"] == {}
    assert rules.view(state, "A")["dice"] == {"A": [1, 2, 3]}
    assert rules.view(state, "B")["dice"] == {"B": [4, 5, 6]}
    assert rules.view(state, "someone")["dice"] == {}
    assert public == {
        "turn": 1,
        "fighters": {
            "A": {
                "hex": [0, 2],
                "facing": "N",
                "stamina": 15,
                "may_charge": False,
                "no_retreat": False,
            },
            "B": {
                "hex": [0, -2],
                "facing": "S",
                "stamina": 15,
                "may_charge": False,
                "no_retreat": False,
            },
        },
        "obstacles": [],
        "last_turn": None,
        "dice": {},
        "outcome": None,
    }
    json.dumps(rules.view(state, "A"))
    # After the resolution the dice are revealed in the events, and no dice are current.
    new, events = rules.resolve(state, {"A": Order("stay"), "B": Order("stay")}, NoDice())
    assert [e.data["dice"] for e in events if e.type == "dice"] == [[1, 2, 3], [4, 5, 6]]
    assert rules.view(new, "A")["dice"] == {} and rules.awaiting(new) == []


def test_json_round_trip_and_bad_input() -> None:
    state = opened(at(obstacles=[(1, 0), (-1, 0)]), (1, 2, 3), (4, 5, 6))
    new, events = rules.resolve(state, {"A": Order("front-right", "left")}, NoDice())
    for s in (state, new):
        obj = rules.to_json(s)
        assert obj["schema"] == rules.SCHEMA_VERSION
        assert json.loads(json.dumps(obj)) == obj
        assert rules.from_json(obj) == s
        assert rules.to_json(rules.from_json(obj)) == obj
    for e in events:
        json.dumps(e.to_json())
    obj = rules.to_json(new)
    assert isinstance(new.last_turn, LastTurn)
    bad = [
        {**obj, "schema": 2},
        {**obj, "schema": None},
        {k: v for k, v in obj.items() if k != "fighters"},
        {**obj, "fighters": {"A": obj["fighters"]["A"]}},
        {**obj, "fighters": {**obj["fighters"], "B": {**obj["fighters"]["B"], "hex": [5, 5]}}},
        {**obj, "fighters": {**obj["fighters"], "B": {**obj["fighters"]["B"], "facing": "X"}}},
        {**obj, "fighters": {**obj["fighters"], "B": obj["fighters"]["A"]}},
        {**obj, "dice": {"A": [0, 1, 2], "B": [1, 1, 1]}},
        {**obj, "winner": "C"},
        {**obj, "turn": "1"},
        {**obj, "last_turn": {"turn": 1}},
        [],
    ]
    for b in bad:
        with pytest.raises(StateError):
            rules.from_json(b)  # type: ignore[arg-type]


def test_every_event_and_key_has_both_languages() -> None:
    root = Path(rules.__file__).parent / "locales"
    en = json.loads((root / "en.json").read_text("utf-8"))
    ja = json.loads((root / "ja.json").read_text("utf-8"))
    assert set(en) == set(ja)
    # Every event the scenarios above can produce has a sentence whose fields the event carries.
    events: list[Event] = []
    scenarios = [
        (at(((0, 1), "NE"), ((0, 0), "S")), "fl right", "forward", (1, 2, 1), (1, 5, 1)),
        (at(((0, 1), "NE"), ((0, 0), "S")), "fl", "forward left", (1, 4, 1), (1, 4, 1)),
        (at(((0, 1), "N"), ((0, -1), "S")), "forward", "forward right", (1, 1, 6), (2, 2, 2)),
        (at(((0, 1), "N"), ((0, -1), "S")), "f l", "f r", (1, 1, 4), (2, 2, 4)),
        (at(((0, -1), "N"), ((0, -2), "S")), "f", "s", (1, 1, 1), (1, 1, 1)),
        (
            at(((0, 1), "N"), ((0, 0), "S"), may_charge=(True, False)),
            "charge",
            "s",
            (4, 1, 1),
            (6, 6, 6),
        ),
        (at(((0, -1), "N"), ((0, -2), "S"), stamina=(1, 1)), "s", "s", (6, 6, 6), (1, 1, 1)),
        (at(((0, 1), "N"), ((0, 0), "N"), stamina=(1, 3)), "s", "s", (6, 6, 1), (1, 1, 6)),
        (at(), "s", "s", (1, 2, 3), (1, 5, 6)),
        (at(((0, 1), "N"), ((0, 0), "S")), "f", "s", (1, 1, 1), (1, 1, 1)),
        (at(), "s", "s", (2, 2, 2), (2, 2, 2)),
    ]
    for state, a, b, da, db in scenarios:
        events += play(state, a, b, da, db)[1]
    events += rules.start_step(at(), ScriptedDice([1] * 6))[1]
    events += rules.resign(at(), "A")[1]
    seen = {e.type for e in events}
    assert {
        "turn_started",
        "order",
        "dice",
        "move",
        "pass_over",
        "passing",
        "passing_draw",
        "collision",
        "collision_draw",
        "push",
        "push_blocked",
        "turn_right",
        "turn_left",
        "turn_prevented",
        "combat",
        "combat_draw",
        "push_back",
        "cornered",
        "stamina_loss",
        "death",
        "charge_check",
        "charge_check_both",
        "charge_check_none",
        "retreat_restricted",
        "game_over",
        "game_over_draw",
        "resigned",
    } <= seen
    for e in events:
        key = f"arena.event.{e.type}"
        assert key in en and key in ja, key
        for lang in (en, ja):
            fields = {f for _, f, _, _ in string.Formatter().parse(lang[key]) if f}
            assert fields <= set(e.data), (key, fields - set(e.data))
        json.dumps(e.to_json())
