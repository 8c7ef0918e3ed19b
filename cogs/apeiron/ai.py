"""The demo AI for Apeiron: a greedy player that uses attacks, ★ abilities, treasure, Apeiron
chance and the items in its side zone (``python -m bot demo apeiron``, the tests' whole games).

It reads only what its seat may know: the state's public parts, its own chest list (never the
chest's order), and it plays through :func:`rules.parse`, so every order it sends is legal.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from bot.render.squaregrid import label
from bot.ruleset import RuleError
from cogs.apeiron import rules
from cogs.apeiron.rules import ApeironState, UnitState

CANDIDATES = 40  # orders tried, best first, before falling back to the default


class DemoAI:
    """The ``DemoPlayer`` of the spec: ``choose(state, seat, rng)`` gives an order text."""

    def choose(self, state: ApeironState, seat: str, rng: Any) -> str:
        return choose(state, seat, rng)


def choose(state: ApeironState, seat: str, rng: Any = None) -> str:
    rng = rng if rng is not None else random.Random(0)
    if state.step == rules.DECK:
        offers = rules.deck_offers(state, seat)  # a league seat's come from its collection
        return rules.DeckOrder(*offers[rng.randrange(len(offers))]).canonical()
    if state.step == rules.DEPLOY_STEP:
        return _deploy(state, seat, rng)
    if state.step == rules.PLACE:
        return _place(state, seat, rng)
    if state.step == rules.OPTION:
        return f"option {rng.randrange(len(rules.option_list(state))) + 1}"
    for text in _ranked(state, seat, rng)[:CANDIDATES]:
        try:
            rules.parse(state, seat, text)
        except RuleError:
            continue
        return text
    return rules.default_order(state, seat).canonical()


def _deploy(state: ApeironState, seat: str, rng: Any) -> str:
    """Five units of the deck on random free squares of the own rows, facing the opponent."""
    deck = list(state.decks[seat]["units"])
    rng.shuffle(deck)
    free = [
        s
        for s in rules.own_squares_reading(seat)
        if state.objects.get(s) != "obstacle" and not rules.off_field(state, s)
    ]
    rng.shuffle(free)
    parts = [
        f"{uid} {label(sq)} {rules.FACING_OF[seat]}"
        for uid, sq in zip(deck[: rules.DEPLOY], free, strict=False)
    ]
    return "deploy " + ", ".join(parts)


def _place(state: ApeironState, seat: str, rng: Any) -> str:
    """Own zone if it is free or holds nothing better; now and then the opponent's (a card there
    is theirs to use, so only when it would overwrite one of their items)."""
    mine = state.side[seat]
    theirs = state.side[rules.other(seat)]
    if mine is None or (mine["card"] not in state.pack.specials and rng.random() < 0.5):
        return "place own"
    if theirs is not None and rules.zone_open(state, seat, rules.other(seat)):
        return "place opponent"
    return "discard"


def _ranked(state: ApeironState, seat: str, rng: Any) -> list[str]:
    """Orders for the acting unit, best first: each reachable end with each action there."""
    unit = rules.acting_unit(state)
    assert unit.square is not None
    scored: list[tuple[float, float, str]] = []
    if rules.boxed_in(state, unit):
        ends: dict[Any, tuple[Any, ...]] = {unit.square: ()}
        texts = {unit.square: "stay"}
    else:
        ends = rules.reachable(state, unit)
        texts = {end: ">".join(label(s) for s in path) for end, path in ends.items()}
    enemies = rules.living(state, rules.other(seat))
    for end, path in ends.items():
        trial = copy.deepcopy(state)
        me = rules.acting_unit(trial)
        me.square = end
        # what the move costs, as the engine walks it (a flier ending on a gravity panel lands)
        flies, lands = rules.flying(state, unit), rules.flying_at_end(state, unit, end)
        poison = sum(
            rules.poisoned(state, s)
            for i, s in enumerate(path)
            if not (lands if i == len(path) - 1 else flies)
        )
        base = -0.3 * _nearest(end, enemies) - 1.5 * poison
        if state.objects.get(end) in ("bomb",) and not lands:
            base -= 3
        actions = [""] if state.step == rules.MOVE else ["", *rules.action_texts(trial, seat, me)]
        for action in actions:
            score = base + _value(trial, seat, me, action)
            text = texts[end] + (f" {action}" if action else "")
            scored.append((score, rng.random(), text))
    scored.sort(reverse=True)
    return [text for _, _, text in scored]


def _nearest(square: Any, units: list[UnitState]) -> int:
    if not units:
        return 0
    return min(
        abs(square[0] - u.square[0]) + abs(square[1] - u.square[1]) for u in units if u.square
    )


def _value(state: ApeironState, seat: str, unit: UnitState, action: str) -> float:
    """A rough worth: damage dealt (a kill counts double), a draw, an item, an ability."""
    if not action:
        return 0.0
    kind = action.split()[0]
    if kind == "attack":
        victim = rules.unit_at(state, rules.read_square(action.split()[1]))
        if victim is None or victim.seat == seat:
            return -5.0
        amount = rules.power(state, unit)
        return 2.0 * amount + (6.0 if amount >= victim.hp else 0.0)
    if kind == "treasure":
        return 5.0
    if kind == "chance":
        return 1.0 if state.turn >= 4 else -1.0
    if kind == "item":
        return 3.0
    return 3.5  # a ★ ability
