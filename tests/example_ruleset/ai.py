"""The demo's rock-paper-scissors player (``python -m bot demo rps``). Pure.

A uniformly random throw is the game's optimal strategy: nothing in the state can do better
against an opponent who plays the same way, so this player needs no look at the state at all.
"""

from __future__ import annotations

import random

from .rules import THROWS, RpsState


def choose(state: RpsState, seat: str, rng: random.Random) -> str:
    """Order text for ``seat``: ``rng`` is the demo's seeded generator, so ``--seed`` repeats
    the same match."""
    return rng.choice(THROWS)
