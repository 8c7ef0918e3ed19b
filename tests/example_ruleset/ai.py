"""The demo's player (``python -m bot demo rps``): a random throw is the optimal strategy."""

from __future__ import annotations

import random

from .rules import THROWS, RpsState


def choose(state: RpsState, seat: str, rng: random.Random) -> str:
    return rng.choice(THROWS)  # rng: the demo's seeded generator (``--seed``)
