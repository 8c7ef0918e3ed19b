"""A deep copy of an Esper state (cogs/esper/state.py's JsonCopied) equals the state, shares no
value a step may change with it, and keeps the pack itself: each order is tried on such a copy,
so a trial that reached the real state would change the game."""

from __future__ import annotations

import copy

from cogs.esper import ai, rules
from cogs.esper.rules import EsperState
from tests.cogs.esper.test_ai import RandomDice, new, step


def in_combat_in_the_base() -> EsperState:
    """An AI game of 7 (seed 9) at a step with a combat in progress in the secret base: seats,
    combat, key installations and pending parts all filled in."""
    state, rng, secret = new(7, 9)
    for _ in range(2000):
        state = step(state, rng, secret)
        if state.combat is not None and state.stage == rules.BASE_STAGE and state.keys:
            return state
    raise AssertionError("no combat in the base")


def test_a_copy_equals_the_state_and_changing_it_changes_nothing_there() -> None:
    state = in_combat_in_the_base()
    before = rules.to_json(state)
    trial = copy.deepcopy(state)
    assert trial == state and type(trial) is EsperState
    assert trial.pack is state.pack  # immutable: shared, never copied
    assert trial.combat is not None and trial.combat is not state.combat
    for seat in trial.order:
        assert trial.seats[seat] is not state.seats[seat]
        trial.seats[seat].hand.append("x")
        trial.seats[seat].seen["A"] = "x"
        trial.seats[seat].damage += 1
        for told in trial.seats[seat].told:
            told["x"] = 1
    trial.combat.seats.append("x")
    trial.combat.cards["x"] = "x"
    for key in trial.keys.values():
        key["damage"] = -1
    trial.pending["x"] = [1]
    trial.options["x"] = {"y": [1]}
    trial.order.append("x")
    assert rules.to_json(state) == before


def test_orders_tried_on_copies_leave_the_game_as_it_was() -> None:
    """A whole AI game of 5 (seed 3), each awaited seat's order parsed (the whole order tried on
    a copy of the state) before the step resolves: the state the trials started from is never
    changed by them."""
    state, rng, secret = new(5, 3)
    for _ in range(2000):
        opened, _ = rules.start_step(state, RandomDice(rng), secret)
        before = rules.to_json(opened)
        orders = {
            s: rules.parse(opened, s, ai.choose(opened, s, rng)) for s in rules.awaiting(opened)
        }
        assert rules.to_json(opened) == before, rules.step_label(opened)
        state, _ = rules.resolve(opened, orders, RandomDice(rng), secret)
        if rules.outcome(state).finished:
            return
    raise AssertionError("no end")
