"""What a league image drew: every ``ImageDraw.text`` call of a render, with where it went and
how wide it was (as tests/cogs/esper/test_privacy.py's ``_spy_boards`` spies on boards)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from bot.render import fonts


@dataclass(frozen=True)
class Text:
    """One string drawn: its anchor point and horizontal extent in output pixels (the canvas
    is ``factor`` times larger), its font size in canvas pixels."""

    text: str
    x: float
    y: float
    left: float
    right: float
    size: int


@contextmanager
def spying(factor: int) -> Iterator[list[Text]]:
    """Inside the block, every string drawn is also noted in the list yielded."""
    drawn: list[Text] = []
    original: Callable[..., None] = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **k: Any) -> None:
        fnt = k.get("font")
        anchor = str(k.get("anchor") or "la")
        x, y = (float(v) / factor for v in xy)
        width = fnt.getlength(str(text)) / factor if fnt is not None else 0.0
        left = {"l": x, "m": x - width / 2, "r": x - width}[anchor[0]]
        size = int(getattr(fnt, "size", 0))
        drawn.append(Text(str(text), x, y, left, left + width, size))
        original(self, xy, text, *a, **k)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def smallest_at(draw: Callable[[], bytes], shown: float) -> float:
    """The smallest font a render used, in pixels, when its image is shown ``shown`` px wide."""
    with fonts.recording() as log:
        draw()
    assert log.sizes and log.widths
    return log.at_width(shown)
