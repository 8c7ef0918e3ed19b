"""The boards' side colours stay apart for the common colour-vision deficiencies.

Every palette that tells sides (or a highlight) apart is simulated with ``colorspacious`` for
protanopia, deuteranopia and tritanopia (its ``protanomaly``, ``deuteranomaly`` and
``tritanomaly`` at severity 100, Machado et al. 2009) and for normal vision, and any two of its
colours must stay at least :data:`MIN_DELTA_E` apart in CAM02-UCS (ΔE′, Luo et al. 2006: about
1 is a just-noticeable difference; 20 is two colours nobody confuses at a glance). The boards
also tell the sides apart by letters and shapes (the seat's letter on every token, squares
against circles); this keeps the colour a help to every reader rather than a trap to some.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

colorspacious = pytest.importorskip("colorspacious")

from bot.render.canvas import GOLD, MUTED, SIDE, TEXT  # noqa: E402
from cogs.dungeon.board import MONSTER, SEAT_COLOURS  # noqa: E402
from cogs.esper.board_kit import DEFENDER, INVADER, PARTY_COLOURS  # noqa: E402
from cogs.league.bracket import FORFEIT  # noqa: E402
from cogs.league.images import LEADER_BG, ROW_BG  # noqa: E402

MIN_DELTA_E = 20.0
VISIONS = ("normal", "protanomaly", "deuteranomaly", "tritanomaly")

Colour = Sequence[int]

PALETTES: dict[str, Mapping[str, Colour]] = {
    # arena, tactics and Apeiron: the house's A and B
    "house sides": SIDE,
    "dungeon seats and monsters": {**SEAT_COLOURS, "monster": MONSTER},
    "esper sides": {"invader": INVADER, "defender": DEFENDER},
    "esper parties": {str(i): c for i, c in enumerate(PARTY_COLOURS, start=1)},
    # the league's images: a winner's gold, a forfeit's red, plain and muted text
    "league highlights": {"gold": GOLD, "forfeit": FORFEIT, "muted": MUTED, "text": TEXT},
}
# Pairs that must differ where the rest need not (the table's two row shades are one band):
# the leader's band against either row shade.
PAIRS: dict[str, tuple[Colour, Colour]] = {
    f"league leader band / row {i}": (LEADER_BG, row) for i, row in enumerate(ROW_BG)
}


def seen(colour: Colour, vision: str) -> np.ndarray:
    """``colour`` (sRGB 0–255) as ``vision`` sees it, in CAM02-UCS."""
    rgb = np.array(colour[:3], dtype=float) / 255
    if vision != "normal":
        cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
        rgb = np.clip(colorspacious.cspace_convert(rgb, cvd, "sRGB1"), 0, 1)
    return np.asarray(colorspacious.cspace_convert(rgb, "sRGB1", "CAM02-UCS"))


def delta_e(a: Colour, b: Colour, vision: str) -> float:
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))


def closest(colours: Mapping[str, Colour]) -> list[tuple[float, str, str, str]]:
    return sorted(
        (delta_e(a, b, vision), vision, x, y)
        for (x, a), (y, b) in itertools.combinations(colours.items(), 2)
        for vision in VISIONS
    )


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_side_colours_stay_apart_for_every_vision(name: str) -> None:
    too_close = [c for c in closest(PALETTES[name]) if c[0] < MIN_DELTA_E]
    assert too_close == []


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_highlight_bands_stay_apart_for_every_vision(name: str) -> None:
    a, b = PAIRS[name]
    worst = min((delta_e(a, b, vision), vision) for vision in VISIONS)
    assert worst[0] >= MIN_DELTA_E, worst


def test_the_simulation_does_confuse_what_it_should() -> None:
    """The dungeon's old blue A and purple D, far apart in normal vision, fall together for a
    protanope, and red and green for a deuteranope: the check sees a palette that fails."""
    blue, purple = (45, 112, 232), (170, 92, 220)
    assert delta_e(blue, purple, "normal") > MIN_DELTA_E > 5 > delta_e(blue, purple, "protanomaly")
    red, green = (200, 60, 40), (90, 150, 30)
    assert delta_e(red, green, "normal") > MIN_DELTA_E > 12 > delta_e(red, green, "deuteranomaly")
