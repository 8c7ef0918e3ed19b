"""The demo's Sealed Bids player (``python -m bot demo bids``). Pure.

It plays a random card from its own hand: it looks at nothing a seat could not see.
"""

from __future__ import annotations

import random

from .rules import BidsState, Play


def choose(state: BidsState, seat: str, rng: random.Random) -> str:
    """Order text for ``seat``; ``rng`` is the demo's seeded generator."""
    return Play(rng.choice(state.hands[seat])).canonical()
