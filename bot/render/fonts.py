"""Bundled fonts (M PLUS 1, OFL) and text fitting helpers for the board renderers (pure).

Only the fonts in ``data/fonts/`` are used: system fonts differ between the dev machine and the
host, and most lack Japanese. Everything is cached because FreeType loading dominates render time.

Every font a renderer draws with comes from :func:`font`, so :func:`recording` can tell which pixel
sizes a render used (the legibility test holds the smallest of them against the board's width).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "fonts"
_FILES = {False: "Mplus1-Regular.otf", True: "Mplus1-Bold.otf"}
ELLIPSIS = "…"  # present in M PLUS 1
_PROBE_SIZE = 24
_SPACES = re.compile(r"\s+")


@dataclass
class FontLog:
    """What one render used: every font size asked for and the width of every canvas made (both
    in canvas pixels, so a supersampled board needs no factor: a size over a width is a ratio)."""

    sizes: list[int] = field(default_factory=list)
    widths: list[int] = field(default_factory=list)

    def smallest(self) -> int:
        return min(self.sizes)

    def at_width(self, shown: float) -> float:
        """The smallest font's height in pixels when the board is shown ``shown`` px wide."""
        return self.smallest() * shown / max(self.widths)


_LOGS: list[FontLog] = []


@contextmanager
def recording() -> Iterator[FontLog]:
    """Record the font sizes (and canvas widths) used inside the block."""
    log = FontLog()
    _LOGS.append(log)
    try:
        yield log
    finally:
        _LOGS.remove(log)


def record_canvas(width: int) -> None:
    """Called by what makes a board canvas (:meth:`bot.render.canvas.Supersample.new_board`)."""
    for log in _LOGS:
        log.widths.append(width)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` px (cached per size/weight). Every renderer's font comes from
    here, which is what :func:`recording` counts on."""
    for log in _LOGS:
        log.sizes.append(size)
    return _load(size, bold)


@cache
def _load(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    # BASIC layout gives identical pixels whether or not libraqm is installed on the host, and
    # M PLUS 1 (Latin + kana + kanji) needs no complex shaping.
    return ImageFont.truetype(
        str(FONT_DIR / _FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
    )


def _mask_signature(ch: str, bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = _load(_PROBE_SIZE, bold).getmask(ch)  # a probe, not a drawn size: not recorded
    return mask.size, bytes(mask)


@cache
def _notdef(bold: bool) -> tuple[tuple[int, int], bytes]:
    # A noncharacter the font cannot map: what FreeType draws for any missing glyph (tofu box).
    return _mask_signature("\U0010fffd", bold)


@cache
def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether the bundled font draws ``ch`` as itself rather than as the tofu box.

    Pillow exposes no cmap lookup, so compare the rendered mask with the missing-glyph mask.
    """
    if ch.isspace():
        return True
    return _mask_signature(ch, bold) != _notdef(bold)


def renderable(text: str, bold: bool = False) -> str:
    """``text`` with whitespace collapsed and characters the font lacks (emoji, ZWJ…) removed.

    Dropping is better than tofu: a name like "🐉 Ryu 🔥" reads as "Ryu" instead of "□ Ryu □".
    """
    kept = "".join(ch for ch in text if has_glyph(ch, bold))
    return _SPACES.sub(" ", kept).strip()


def fit(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut at a character boundary so that it plus an ellipsis fits ``max_width`` px."""
    if fnt.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def fit_sized(
    text: str, sizes: tuple[int, ...], max_width: float, bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Try each font size (largest first) before truncating at the smallest one."""
    for size in sizes:
        fnt = font(size, bold)
        if fnt.getlength(text) <= max_width:
            return text, fnt
    fnt = font(sizes[-1], bold)
    return fit(text, fnt, max_width), fnt


PLACEHOLDER = "\x00"  # where the name goes in a template; no catalogue string contains it


def fit_into(
    template: str, name: str, sizes: tuple[int, ...], max_width: float, bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``template`` with ``name`` in place of :data:`PLACEHOLDER`, all within ``max_width``.

    Only the name shrinks or is truncated; the template's own words are measured at the largest
    size and always kept whole, so a long name never cuts "Winner:" off.
    """
    before, _, after = template.partition(PLACEHOLDER)
    fixed = font(sizes[0], bold).getlength(before + after)
    shown, fnt = fit_sized(name, sizes, max_width - fixed, bold)
    return before + shown + after, fnt
