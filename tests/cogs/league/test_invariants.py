"""Invariants of the draft and the ledger under any sequence of legal steps (Hypothesis)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.league import draft as D
from cogs.league.ledger import append, roster_at
from cogs.tactics.units import pool

POOL = [(u.id, u.cost) for u in pool()]  # the tactics starter pool, one copy of each unit


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=5),
    rounds=st.integers(min_value=1, max_value=4),
    choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=20, max_size=20),
    lates=st.lists(st.booleans(), min_size=20, max_size=20),
)
def test_any_draft_completes_and_round_trips(
    players: int, rounds: int, choices: list[int], lates: list[bool]
) -> None:
    names = [f"p{i}" for i in range(players)]
    state = D.new_draft("x", names, POOL, rounds=rounds, per_pick=30, at=0)
    now = 0.0
    for i in range(players * rounds):
        assert D.DraftState.from_json(json.loads(json.dumps(state.to_json()))) == state
        if lates[i % len(lates)]:
            now += 31
            state = D.run_expired(state, now)
        else:
            now += 1
            left = state.available()
            state = D.pick(state, state.current or "", left[choices[i % 20] % len(left)], now)
        now = max(now, state.turn_started_at)
    assert state.over and D.run_expired(state, 10**9) == state
    counts = Counter(p.player for p in state.picks)
    assert counts == dict.fromkeys(names, rounds)
    assert not Counter(p.unit for p in state.picks) - Counter(u for u, _ in POOL)
    entries = append([], *D.ledger_entries(state))
    for name in names:
        assert sorted(roster_at(entries, name).units) == sorted(state.picks_of(name))
