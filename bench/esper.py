"""Esper benchmarks, with their targets (issues 20 and 22). Run: ``python bench/esper.py``.

1. Resolve + render, one normal turn: one turn of an 11-player game (the demo AI's order for the
   active seat) resolved by the pure engine, then its public board rendered to PNG. Positions come
   from AI games of 11, taken at every open ``turn`` step. Target: median under 50 ms.
2. Resolve + render, one combat round of 8 participants: every step of the round (each combat
   turn, its syncs, defences, blocks and damage rolls, then the round's end) resolved by the pure
   engine with the demo AI's answers, then the public board (with its combat panel) rendered
   once, as the round's channel post shows it. Rounds come from combats of 8 of 11 characters on
   one spot. Target: median under 50 ms.

Not a test: it prints figures against the targets and exits non-zero when one is missed.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import _timing

from bot.dice import Dice, DiceStream
from cogs.esper import ai, combat, present, rules

TARGET_MS = 50.0
PLAYERS = 11
FIGHTERS = 8
NAMES = {seat: f"Player {seat}" for seat in rules.SEATS}
MAX_STEPS = 200  # steps of one round at most (8 turns, each with its answers)


def setup(game: int) -> tuple[Any, Dice, Dice]:
    secret = DiceStream(game.to_bytes(32, "big"), "secret")
    dice = DiceStream(game.to_bytes(32, "little"), "bench")
    return rules.new_game("g-bench", rules.SEATS[:PLAYERS], {}, dice, secret), dice, secret


def positions(count: int) -> list[_timing.Case]:
    """(open turn step, its order) pairs from AI games of 11."""
    return _timing.ai_positions(count, rules, setup, ai.choose, lambda s: s.step == rules.TURN)


def _answer(state: Any, rng: random.Random) -> dict[str, Any]:
    return {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}


def combat_rounds(count: int) -> list[_timing.Case]:
    """States at the first combat turn of a round, 8 characters fighting (``orders`` carry the
    AI's seed and the secret stream the round draws from)."""
    found: list[_timing.Case] = []
    game = 0
    while len(found) < count:
        game += 1
        state, dice, secret = setup(game)
        rng = random.Random(game)
        for _ in range(400):  # to the planet stage's first normal turn
            state, _ = rules.start_step(state, dice, secret)
            if state.step == rules.TURN:
                break
            state, _ = rules.resolve(state, _answer(state, rng), dice, secret)
        active = state.active
        assert active is not None
        spot = state.seats[active].spot
        for seat in [s for s in state.order if s != active][: FIGHTERS - 1]:
            state.seats[seat].spot = spot
            state.seats[seat].black_hole = False
        state, _ = rules.resolve(
            state, {active: rules.parse(state, active, "pass; fight")}, dice, secret
        )
        for _ in range(MAX_STEPS):
            if len(found) >= count or state.combat is None or state.ended:
                break
            state, _ = rules.start_step(state, dice, secret)
            fighting = state.combat is not None and len(state.combat.seats) == FIGHTERS
            first_turn = (
                state.step == combat.CTURN
                and state.combat is not None
                and state.combat.index == 0
                and not state.combat.acted
            )
            if fighting and first_turn:
                found.append((state, {"answers": _round_answers(state, rng), "secret": secret}))
            state, _ = rules.resolve(state, _answer(state, rng), dice, secret)
    return found


def _round_dice() -> Dice:
    return DiceStream(b"\2" * 32, "round")


def _round_answers(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The AI's answers to each step of the round, chosen once (what players send is not the
    bot's work to time), with the dice the timed run rolls."""
    answers = []
    dice, secret = _round_dice(), DiceStream(b"\3" * 32, "secret")
    start_round = state.combat.round
    while True:
        answers.append(_answer(state, rng))
        state, _ = rules.resolve(state, answers[-1], dice, secret)
        if state.combat is None or state.combat.round != start_round or state.ended:
            return answers
        state, _ = rules.start_step(state, dice, secret)


def resolve_turn(case: _timing.Case, dice: Dice, lang: str) -> bytes:
    """One turn resolved (a secret stream beside it: a fight shuffles the C deck, the stage's
    end lays the base), then its public board rendered."""
    after, _ = rules.resolve(*case, dice, DiceStream(b"\1" * 32, "secret"))
    return present.PRESENTER.render_board(rules.view(after, None), lang, NAMES)


def resolve_round(case: _timing.Case, _dice: Dice, lang: str) -> bytes:
    """Every step of the round opened and resolved with the answers chosen beforehand (on the
    same dice), then the board rendered once."""
    state, extra = case
    dice, secret = _round_dice(), DiceStream(b"\3" * 32, "secret")
    for index, answers in enumerate(extra["answers"]):
        if index:
            state, _ = rules.start_step(state, dice, secret)
        state, _ = rules.resolve(state, answers, dice, secret)
    return present.PRESENTER.render_board(rules.view(state, None), lang, NAMES)


if __name__ == "__main__":
    label = f"esper resolve + render, one turn of {PLAYERS} players"
    turns = _timing.main(__doc__, positions, resolve_turn, TARGET_MS, label, "turns")
    label = f"esper resolve + render, one combat round of {FIGHTERS} participants"
    rounds = _timing.main(__doc__, combat_rounds, resolve_round, TARGET_MS, label, "rounds")
    sys.exit(turns or rounds)
