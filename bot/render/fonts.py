"""Bundled fonts (M PLUS 1, OFL) and text fitting helpers for the board renderers (pure).

Only the fonts in ``data/fonts/`` are used: system fonts differ between the dev machine and the
host, and most lack Japanese. Everything is cached because FreeType loading dominates render time.

Every font a renderer draws with comes from :func:`font`, so :func:`recording` can tell which pixel
sizes a render used (the legibility test holds the smallest of them against the board's width).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

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


# Rasterised text kept between renders, least recently used first, at most this many bytes of
# masks in all: a game's boards draw the same labels (names, spots, numbers) turn after turn, and
# FreeType's rendering was a third of a board's time.
MASK_CACHE_BYTES = 16 * 1024 * 1024
_masks: OrderedDict[Hashable, tuple[Any, tuple[int, int], int]] = OrderedDict()
_mask_bytes = 0


class _CachedFont(ImageFont.FreeTypeFont):
    """A bundled font whose rasterised text (:meth:`getmask2`, what ``ImageDraw.text`` draws
    from) and widths (:meth:`getlength`, what the fitting helpers measure) are cached.

    Same pixels as the plain font: a mask depends only on the arguments that make its key.
    """

    def __init__(self, path: str, size: int) -> None:
        # BASIC layout gives identical pixels whether or not libraqm is installed on the host,
        # and M PLUS 1 (Latin + kana + kanji) needs no complex shaping.
        super().__init__(path, size, layout_engine=ImageFont.Layout.BASIC)
        self._lengths: dict[Hashable, float] = {}

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        draw = (text, mode, direction, features, language, stroke_width, anchor, ink, start)
        if mode == "RGBA" or args:  # colour glyphs (ImageDraw writes into them): not cached
            return super().getmask2(*draw, *args, **kwargs)
        # ink colours only RGBA masks; the others are coverage alone
        key = (id(self), text, mode, direction, tuple(features or ()), language, stroke_width,
               anchor, start, tuple(sorted(kwargs.items())))  # fmt: skip
        hit = _masks.get(key)
        if hit is not None:
            _masks.move_to_end(key)
            return hit[0], hit[1]
        mask, offset = super().getmask2(*draw, **kwargs)
        _remember(key, mask, offset)
        return mask, offset

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        key = (text, mode, direction, tuple(features or ()), language)
        length = self._lengths.get(key)
        if length is None:
            if len(self._lengths) >= 4096:  # a font's widths: small, cleared when full
                self._lengths.clear()
            length = self._lengths[key] = super().getlength(
                text, mode, direction, features, language
            )
        return length


def _remember(key: Hashable, mask: Any, offset: tuple[int, int]) -> None:
    global _mask_bytes
    width, height = mask.size
    size = width * height + 64
    _masks[key] = (mask, offset, size)
    _mask_bytes += size
    while _mask_bytes > MASK_CACHE_BYTES and len(_masks) > 1:
        _, (_, _, gone) = _masks.popitem(last=False)
        _mask_bytes -= gone


@cache
def _load(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return _CachedFont(str(FONT_DIR / _FILES[bold]), size)


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
