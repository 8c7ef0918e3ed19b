"""Hidden twins of an Apeiron state, for the noninterference check (``RulesetSpec.hidden_twin``).

A twin differs from the state only in facts the public cannot tell apart (``apeiron.md``): the
face-down panels (which lies where, and how it is turned) or a chest's draw order. The check plays
the state and its twin on with the same orders and dice and requires the same channel posts
(``tests/test_noninterference.py``). Pure: the state handed in is not changed.
"""

from __future__ import annotations

import random

from cogs.apeiron import field as fld
from cogs.apeiron import rules
from cogs.apeiron.rules import ApeironState


def hidden_twin(state: ApeironState, rng: random.Random) -> ApeironState | None:
    """A state the public cannot tell from ``state``, drawn with ``rng`` (None: there is none):
    its face-down panels dealt to other positions and turned anew, or a chest's draw order
    shuffled."""
    if state.ended is not None:
        return None
    makers = [_deal_face_down, _shuffle_chest]
    rng.shuffle(makers)
    for make in makers:
        twin = rules.from_json(rules.to_json(state))
        if make(twin, rng):
            return twin
    return None


def _deal_face_down(state: ApeironState, rng: random.Random) -> bool:
    """The panels the public view hides, permuted and turned; the obstacles and treasure their
    layouts put on the field go with them (nothing has moved them while they lie face down)."""
    public = rules.summary(state)["panels"]
    hidden = [
        pos
        for pos, entry in zip(fld.POSITIONS, public, strict=True)
        if entry is None and state.field[pos] is not None
    ]
    if len(hidden) < 2:
        return False
    slots = [state.field[pos] for pos in hidden]
    before = list(slots)
    while slots == before:
        rng.shuffle(slots)
        slots = [
            None if s is None else fld.Slot(s.panel, s.kind, rng.choice(fld.ROTATIONS))
            for s in slots
        ]
    squares = {sq for pos in hidden for sq in fld.squares_of(pos)}
    state.objects = {sq: kind for sq, kind in state.objects.items() if sq not in squares}
    for pos, slot in zip(hidden, slots, strict=True):
        state.field[pos] = slot
    laid = fld.initial_objects(state.pack, {pos: state.field[pos] for pos in hidden})
    state.objects.update(laid)
    return True


def _shuffle_chest(state: ApeironState, rng: random.Random) -> bool:
    seats = [s for s in rules.SEATS if len(set(state.chest.get(s, []))) > 1]
    if not seats:
        return False
    chest = state.chest[rng.choice(seats)]
    before = list(chest)
    while chest == before:
        rng.shuffle(chest)
    return True
