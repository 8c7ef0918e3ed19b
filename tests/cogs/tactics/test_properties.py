"""Hypothesis invariants of the tactics engine over whole games played by the built-in AI."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dice import DiceStream
from bot.ruleset import OrderRejected
from cogs.tactics import ai, maps, rules
from cogs.tactics.rules import TacticsState

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: TacticsState, before: TacticsState) -> None:
    on_board = [u for u in state.units.values() if u.on_board]
    squares = [u.square for u in on_board]
    assert len(squares) == len(set(squares)), "two units on one square"
    blocked = state.obstacles()
    for unit in on_board:
        assert unit.square not in blocked and state.map.inside(unit.square)
        assert 0 < unit.hp <= unit.type.hp
    for unit in state.units.values():
        if unit.status == "dead":
            assert unit.square is None and unit.hp == 0
    for seat in rules.SEATS:
        current, maximum = state.mana[seat]
        assert 0 <= current <= maximum <= rules.MAX_MANA
        assert state.dp[seat] >= before.dp[seat], "DP never decreases"


@SETTINGS
@given(
    seed=st.binary(min_size=32, max_size=32),
    choices=st.integers(0, 2**32),
    board=st.sampled_from(maps.names()),
)
def test_legal_games_keep_every_invariant_and_end_by_turn_10(seed, choices, board):
    dice = DiceStream(seed, "prop")
    rng = random.Random(choices)
    state = rules.new_game("g", rules.SEATS, {"map": board}, dice)
    for _ in range(2 + rules.MAX_TURNS):
        if rules.outcome(state).finished:
            break
        state, _ = rules.start_step(state, dice)
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}
        before = state
        state, _ = rules.resolve(state, orders, dice)
        check_invariants(state, before)
        again = rules.from_json(json.loads(json.dumps(rules.to_json(state))))
        assert again == state
    assert rules.outcome(state).winner in ("A", "B", "draw")
    assert state.turn <= rules.MAX_TURNS


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=300), seat=st.sampled_from(rules.SEATS), step=st.sampled_from(range(3))
)
def test_random_text_raises_only_the_rules_own_rejection(text, seat, step):
    dice = DiceStream(b"\x01" * 32, "prop")
    rng = random.Random(1)
    state = rules.new_game("g", rules.SEATS, {}, dice)
    state, _ = rules.start_step(state, dice)
    for _ in range(step):  # roster, deploy, then a play turn
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.SEATS}
        state, _ = rules.resolve(state, orders, dice)
        state, _ = rules.start_step(state, dice)
    try:
        order = rules.parse(state, seat, text)
    except OrderRejected:
        return
    assert rules.parse(state, seat, order.canonical()) == order
