"""A built-in Arena Duel player for ``python -m bot demo arena`` (pure).

It plays fair: it sees only what its seat sees (its own dice, the public board). For each legal
order it imagines a few replies of the opponent with guessed dice, lets the real engine resolve
each, and keeps the order with the best average outcome (stamina difference, then a position
where the opponent stands in front). A little noise keeps two AIs from mirroring each other.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.dice import ScriptedDice
from cogs.arena import rules
from cogs.arena.rules import ArenaState, Order

SAMPLES = 6
POSITION_VALUE = {
    "front": 0.6,
    "front_right": 0.3,
    "front_left": 0.3,
    "back_right": -0.3,
    "back_left": -0.3,
    "back": -0.7,
}


def _position_score(state: ArenaState, seat: str) -> float:
    me, them = state.fighters[seat], state.fighters[_other(seat)]
    mine = rules.relative_position(me, them.hex)
    theirs = rules.relative_position(them, me.hex)
    score = POSITION_VALUE.get(mine or "", 0.0) - POSITION_VALUE.get(theirs or "", 0.0)
    return score


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _value(state: ArenaState, seat: str) -> float:
    if state.winner == seat:
        return 100.0
    if state.winner == "draw":
        return 0.0
    if state.winner is not None:
        return -100.0
    me, them = state.fighters[seat], state.fighters[_other(seat)]
    return (me.stamina - them.stamina) + _position_score(state, seat)


def choose(state: ArenaState, seat: str, rng: random.Random) -> str:
    """The order text this AI sends for ``seat`` (always a legal order)."""
    other = _other(seat)
    mine = rules.legal(state, seat)
    theirs = rules.legal(state, other)
    best: tuple[float, Order] | None = None
    for order in mine:
        total = 0.0
        for _ in range(SAMPLES):
            guess = tuple(rng.randint(1, 6) for _ in range(3))
            imagined = replace(state, dice={**state.dice, other: guess})
            reply = rng.choice(theirs)
            after, _events = rules.resolve(imagined, {seat: order, other: reply}, ScriptedDice([]))
            total += _value(after, seat)
        score = total / SAMPLES + rng.uniform(0, 0.3)
        if best is None or score > best[0]:
            best = (score, order)
    assert best is not None
    return best[1].canonical()
