"""Renderer test helpers: open a PNG strictly, compare two, check a board's catalogue strings."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image, ImageChops

from bot.i18n import catalogue, has
from bot.render.fonts import renderable


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def diff_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    """The rectangle where two renders differ (None when identical)."""
    return ImageChops.difference(open_png(a), open_png(b)).getbbox()


def assert_keys_in_both_languages(used: Iterable[str], prefix: str) -> set[str]:
    """Every key a board uses exists in en and ja, and the two languages have the same keys."""
    used = set(used)
    for key in used:
        assert has(key), key
        assert key in catalogue("ja"), key
    en = {k for k in catalogue("en") if k.startswith(prefix)}
    ja = {k for k in catalogue("ja") if k.startswith(prefix)}
    assert en == ja
    return en


def assert_catalogue_renderable(prefix: str, lang: str) -> None:
    """Every ``lang`` string under ``prefix`` draws whole in the bundled font, regular and bold:
    a glyph the font lacks would vanish from the board without any error."""
    for key, value in catalogue(lang).items():
        if key.startswith(prefix):
            for bold in (False, True):
                assert renderable(value, bold) == value, (key, value)
