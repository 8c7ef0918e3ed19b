"""Whole games keep the ruleset contract (``tests/test_ruleset_conformance.py`` has the rest).

Each ruleset plays a few whole games to their end, every engine call checked for purity and every
step for its turn, its outcome, its events and the private fields it shows; every property of
the conformance module on the first steps, the last and a seeded sample of the others
(``every-step``, marked ``slow`` and run in CI, on all of them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.ruleset import RulesetSpec
from tests.test_component_ids import check_builder, check_order_views
from tests.test_ruleset_conformance import (
    WHOLE_GAME_SEEDS,
    WHOLE_GAME_STEPS,
    Checked,
    Step,
    _example_registered,  # noqa: F401 (an autouse fixture: the examples play here too)
    check_events,
    check_no_leak,
    check_no_shared_objects,
    check_orders,
    check_outcome,
    check_outcome_text,
    check_pure_calls,
    check_resign,
    check_round_trip,
    check_state_texts,
    check_turns,
    check_view_fields,
    per_ruleset,
    play,
    private_parts,
    seats_for,
)

# A whole game checks every property on its first steps (the setup, then a table step's opened
# and resolved states: a short game is checked whole), then on one step in WHOLE_GAME_SAMPLE, and
# on its last; the ``every-step`` run (``slow``, in CI) checks them on all.
WHOLE_GAME_OPENING = 20
WHOLE_GAME_SAMPLE = 8


def sampled(game: str, every: int) -> Callable[[int], bool]:
    """Whether the whole game ``game`` checks every property on its ``index``-th step (asked in
    order): the first WHOLE_GAME_OPENING, then one in ``every`` at random (seeded by the game, so
    a run checks the same steps each time, and no period of the game's own, a combat round or a
    day, hides a kind of step)."""
    rng = random.Random(f"sample:{game}")
    return lambda index: index < WHOLE_GAME_OPENING or rng.random() * every < 1


def check_every_property(
    spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str], engine: Checked, seed: int
) -> None:
    check_pure_calls(spec, step, seats, engine)
    check_orders(spec, step, seats, seed)
    check_round_trip(spec, step, seats)
    check_no_shared_objects(spec, step)
    check_view_fields(spec, step, seats)
    check_no_leak(spec, step, seats)
    check_state_texts(spec, step, seats)
    if step.kind != "resolved":
        check_resign(spec, step, seats)


@per_ruleset
@pytest.mark.parametrize("seed", WHOLE_GAME_SEEDS)
@pytest.mark.parametrize(
    "every",
    [
        pytest.param(WHOLE_GAME_SAMPLE, id="sampled"),
        pytest.param(1, id="every-step", marks=pytest.mark.slow),
    ],
)
def test_whole_game_keeps_the_contract(spec: RulesetSpec[Any, Any], seed: int, every: int) -> None:
    """A whole game to its end. Every engine call is checked for purity, every step for its turn,
    its outcome, its events and which private fields it shows; every property on the first steps,
    the last and one in ``every`` of the others (``every-step``, under ``slow``: on all)."""
    allowed = spec.seats.allowed()
    seats = seats_for(spec, allowed[seed % len(allowed)])
    private_somewhere: set[str] = set()
    last: Step | None = None
    last_checked = False
    engine = Checked(spec)
    checks = sampled(f"{spec.key}:{seed}", every)
    steps = check_turns(spec, play(spec, seed, seats, WHOLE_GAME_STEPS, engine))
    opened: list[Step] = []
    for index, step in enumerate(steps):
        if step.kind == "opened":
            opened.append(step)
        check_events(spec, step)
        check_outcome(spec, step, seats)
        private_somewhere |= set(private_parts(spec, step.state, seats)[1])
        last_checked = checks(index)
        if last_checked:
            check_every_property(spec, step, seats, engine, seed)
        last = step
    assert last is not None
    if not last_checked:
        check_every_property(spec, last, seats, engine, seed)
    # A declared private field that never differs from the public view declares nothing (or the
    # public view shows what should be private).
    never = sorted(spec.private_view_fields - private_somewhere)
    assert not never, f"{spec.key}: private_view_fields {never} were never private in a game"
    outcome = spec.engine.outcome(last.state)
    if outcome.finished:
        check_outcome_text(spec, outcome, last.where, "rules")
    OPENED.setdefault((spec.key, seed), opened)


# The opened steps of each whole game played above, for the component ids' test below: the same
# games (the same seeds and seats), played once for both.
OPENED: dict[tuple[str, int], list[Step]] = {}


def opened_steps(spec: RulesetSpec[Any, Any], seed: int, seats: Sequence[str]) -> list[Step]:
    """The opened steps of the whole game ``(spec, seed)``: those kept above, else played now."""
    key = (spec.key, seed)
    if key not in OPENED:
        played = play(spec, seed, seats, WHOLE_GAME_STEPS)
        OPENED[key] = [step for step in played if step.kind == "opened"]
    return OPENED[key]


@per_ruleset
@pytest.mark.parametrize("seed", WHOLE_GAME_SEEDS)
async def test_every_component_id_fits_and_parses_back(
    spec: RulesetSpec[Any, Any], seed: int
) -> None:
    """Every order button and menu of every step of a whole game, and the Apeiron builder's
    views, fit Discord's limits and read back (``tests/test_component_ids.py``)."""
    allowed = spec.seats.allowed()
    seats = seats_for(spec, allowed[seed % len(allowed)])
    engine = spec.engine
    checked = 0
    for step in opened_steps(spec, seed, seats):
        turn = step.turn
        for seat in engine.awaiting(step.state):
            where = f"{spec.key} seed {seed} {step.where} seat {seat}"
            groups = engine.choices(step.state, seat)
            has_builder = spec.sheet_builder is not None
            checked += check_order_views(groups, turn, where, has_builder=has_builder)
            if spec.key == "apeiron":
                checked += check_builder(engine.to_json(step.state), turn, seat, where)
    assert checked, f"{spec.key}: no component was built in a whole game"
