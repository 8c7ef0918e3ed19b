"""Hypothesis: random legal sheets built from reachable/targets keep every invariant."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dice import DiceStream
from bot.ruleset import OrderRejected, StateError
from cogs.tactics import ai, maps, rules
from tests.cogs.tactics.test_properties import check_invariants

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_sheet(state: rules.TacticsState, seat: str, data: st.DataObject) -> str:
    """A sheet drawn from the builder helpers: each line checked by the parser as it grows."""
    lines: list[str] = []
    for uid in rules.own_units(state, seat):
        if not data.draw(st.booleans()):
            continue
        trial = rules.parse(state, seat, "\n".join(lines) or "wait")
        moved = {ln.unit: ln.dest for ln in trial.lines}
        if uid in moved:
            continue
        dest = data.draw(st.sampled_from(rules.reachable(state, uid)))
        found = rules.targets(state, uid, dest)
        kind = data.draw(st.sampled_from(["wait", "attack", "ability"]))
        line = f"{uid} >{dest} wait"
        if found.get(kind):
            line = f"{uid} >{dest} {kind} {data.draw(st.sampled_from(found[kind]))}"
        try:
            rules.parse(state, seat, "\n".join([*lines, line]))
        except OrderRejected:
            continue
        lines.append(line)
    return "\n".join(lines) or "wait"


@SETTINGS
@given(
    seed=st.binary(min_size=32, max_size=32),
    board=st.sampled_from(maps.names()),
    data=st.data(),
)
def test_random_legal_sheets_keep_the_invariants(seed, board, data):
    dice = DiceStream(seed, "prop")
    state = rules.new_game("g", rules.SEATS, {"map": board}, dice)
    for _ in range(2 + rules.MAX_TURNS):
        if rules.outcome(state).finished:
            break
        state, _ = rules.start_step(state, dice)
        texts = {
            s: (random_sheet(state, s, data) if state.step == "play" else ai.choose(state, s, dice))
            for s in rules.awaiting(state)
        }
        orders = {s: rules.parse(state, s, t) for s, t in texts.items()}
        for seat, order in orders.items():
            assert rules.parse(state, seat, order.canonical()) == order
        before = state
        state, events = rules.resolve(state, orders, dice)
        check_invariants(state, before)
        json.dumps([e.to_json() for e in events])
        json.dumps(rules.view(state, None))
        assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state
    assert rules.outcome(state).winner in ("A", "B", "draw")


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.dictionaries(st.text(max_size=8), st.integers()), st.none(), st.integers()))
def test_garbage_state_raises_state_error(obj):
    try:
        rules.from_json(obj)  # type: ignore[arg-type]
    except StateError:
        return
    raise AssertionError("garbage loaded")
