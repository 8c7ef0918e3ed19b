"""The viewer's pictures: every board the page shows, drawn once, in one palette for the whole
page, and a public board that differs little from the one shown before it stored only as the
tiles that changed (a *patch*), which the page's script draws over that board.

Boards are flat colours and text: a 64-colour palette drawn losslessly keeps them sharp at a
third of a PNG's size. One palette for the page (not one per board) maps a pixel that did not
change to the same colour in every board, so a patch is exact and leaves no seam. An Esper game of
eleven seats shows 650 boards (22 MB as whole pictures); most of a step's board is the step
before's (a ring, a row, a token moved), so the page keeps whole pictures only every
:data:`KEY_EVERY` boards or where most of it changed. WebP where this Pillow writes it, else a
palette PNG. A page whose pictures still pass :data:`IMAGE_BUDGET` draws them again with
:data:`SMALL_PALETTE` colours.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops

from bot.ruleset import Presenter

PALETTE_COLOURS = 64
SMALL_PALETTE = 32
IMAGE_BUDGET = 6 * 1024 * 1024
TILE = 16  # a patch's tiles: 16 px squares (a changed pixel marks its tile)
STRIP_ACROSS = 16  # tiles a row of a patch's picture
# The longest chain of patches: showing a board draws at most this many over a whole one.
KEY_EVERY = 48
WHOLE_ABOVE = 0.5  # a board more than half of whose tiles changed is stored whole
PALETTE_SAMPLES = 8  # boards the page's palette is made from, spread over the game


@dataclass
class Drawn:
    """Boards drawn, and mapped to a palette, which pages may share (a game's tampered copies
    show mostly the same boards): each view's picture, each picture's PNG."""

    by_view: dict[str, str] = field(default_factory=dict)
    png: dict[str, bytes] = field(default_factory=dict)
    mapped: dict[tuple[str, str], Image.Image] = field(default_factory=dict)
    encoded: dict[tuple[str, str, bool], str] = field(default_factory=dict)


@dataclass
class Pictures:
    """What the page holds: ``uris`` (a picture's id -> its data URI) and ``patches`` (a board's
    id -> ``{"base": the board it is drawn over, "strip": the picture of its changed tiles,
    "tiles": each tile's number, row by row}``; the tiles are :data:`TILE` px squares, laid
    :data:`STRIP_ACROSS` to a row in their strip)."""

    uris: dict[str, str]
    patches: dict[str, dict[str, Any]]

    @property
    def size(self) -> int:
        return sum(map(len, self.uris.values())) + len(json.dumps(self.patches))


@dataclass
class Images:
    """The boards of one page, in the order it shows them; :meth:`pictures` encodes them."""

    webp: bool = True
    drawn: Drawn = field(default_factory=Drawn)
    public: list[str] = field(default_factory=list)  # each frame's board, in frame order
    private: list[str] = field(default_factory=list)

    def board(
        self,
        presenter: Presenter,
        view: Any,
        lang: str,
        names: Mapping[str, str],
        ruleset: str,
        public: bool = True,
    ) -> str:
        """The id of the board drawn from ``view`` (drawn once per distinct view)."""
        key = hashlib.sha256(
            json.dumps([ruleset, lang, view, dict(names)], sort_keys=True, default=str).encode()
        ).hexdigest()
        drawn = self.drawn
        if key not in drawn.by_view:
            png = presenter.render_board(view, lang, names)
            digest = hashlib.sha256(png).hexdigest()[:16]
            drawn.png.setdefault(digest, png)
            drawn.by_view[key] = digest
        digest = drawn.by_view[key]
        (self.public if public else self.private).append(digest)
        return digest

    def pictures(self, colours: int = PALETTE_COLOURS) -> Pictures:
        """Every board encoded: whole, or as a patch over the public board shown before it."""
        distinct = list(dict.fromkeys([*self.public, *self.private]))
        if not distinct:
            return Pictures({}, {})
        palette, name = self._palette(distinct, colours)
        uris: dict[str, str] = {}
        patches: dict[str, dict[str, Any]] = {}
        depth: dict[str, int] = {}
        previous: str | None = None
        for digest in self.public:
            if digest not in depth:
                image = self._mapped(digest, palette, name)
                patch = None
                if previous is not None and depth[previous] < KEY_EVERY:
                    patch = plan(self._mapped(previous, palette, name), image)
                if patch is not None and previous is not None:
                    strip = f"{digest}-{previous}"
                    uris[strip] = self._encode(strip_of(image, patch.tiles), None)
                    patches[digest] = patch.data(previous, strip)
                    depth[digest] = depth[previous] + 1
                else:
                    uris[digest] = self._encode(image, (digest, name))
                    depth[digest] = 0
            previous = digest
        for digest in self.private:
            if digest not in uris and digest not in patches:
                image = self._mapped(digest, palette, name)
                uris[digest] = self._encode(image, (digest, name), self.drawn.png[digest])
        return Pictures(uris, patches)

    def _palette(self, digests: list[str], colours: int) -> tuple[Image.Image, str]:
        """One palette for the page, made from boards spread over the game; its name (a digest)
        keys the boards mapped to it."""
        step = max(1, len(digests) // PALETTE_SAMPLES)
        sample = [self._rgb(d) for d in digests[::step][:PALETTE_SAMPLES]]
        width = max(image.width for image in sample)
        montage = Image.new("RGB", (width, sum(image.height for image in sample)))
        top = 0
        for image in sample:
            montage.paste(image, (0, top))
            top += image.height
        palette = montage.quantize(colours, method=Image.Quantize.FASTOCTREE)
        name = hashlib.sha256(bytes(palette.getpalette() or [])).hexdigest()[:16]
        return palette, name

    def _rgb(self, digest: str) -> Image.Image:
        return Image.open(io.BytesIO(self.drawn.png[digest])).convert("RGB")

    def _mapped(self, digest: str, palette: Image.Image, name: str) -> Image.Image:
        key = (digest, name)
        if key not in self.drawn.mapped:
            rgb = self._rgb(digest)
            self.drawn.mapped[key] = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        return self.drawn.mapped[key]

    def _encode(
        self, image: Image.Image, key: tuple[str, str] | None, png: bytes | None = None
    ) -> str:
        """``image`` as a data URI (``key``: a whole board's, kept for the next page; ``png``:
        the presenter's own, used where it is smaller and no patch is drawn over it)."""
        cached = None if key is None else (*key, self.webp)
        if cached is not None and cached in self.drawn.encoded:
            return self.drawn.encoded[cached]
        out = io.BytesIO()
        if self.webp:
            image.save(out, "WEBP", lossless=True, method=4)
            kind = "webp"
        else:
            image.save(out, "PNG", optimize=True)
            kind = "png"
        data = out.getvalue()
        if png is not None and len(data) >= len(png):
            data, kind = png, "png"
        uri = f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")
        if cached is not None:
            self.drawn.encoded[cached] = uri
        return uri


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's colour numbers as a greyscale image (a changed number: a changed
    pixel, whatever its colour)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _placed(before: Image.Image, size: tuple[int, int], shift: int) -> Image.Image:
    placed = Image.new("L", size)
    placed.paste(_indices(before), (0, shift))
    return placed


def _marks(predicted: Image.Image, after: Image.Image) -> list[list[bool]]:
    """Per tile row, per tile: whether ``after`` differs from ``predicted`` in that tile."""
    diff = ImageChops.difference(predicted, _indices(after))
    # Any changed pixel of a tile makes its reduced pixel non-zero: 255 over 256 pixels still
    # rounds to 1 (and partial tiles at the edges average fewer pixels).
    marks = list(diff.point(lambda v: 255 if v else 0).reduce(TILE).tobytes())
    across = -(-after.width // TILE)
    return [[bool(v) for v in marks[i : i + across]] for i in range(0, len(marks), across)]


def plan(before: Image.Image, after: Image.Image) -> Patch | None:
    """How ``after`` is drawn over ``before``: ``before`` at the top, from tile row ``split`` on
    ``before`` moved down by ``shift`` px (a board that grew or shrank in its middle), then the
    tiles that still differ. None where a patch would not pay (another width, or most of it
    changed)."""
    if before.width != after.width:
        return None
    shift = after.height - before.height
    top = _marks(_placed(before, after.size, 0), after)
    rows = len(top)
    # a tile the drawing of ``before`` does not cover whole is drawn from the patch
    for r in range(rows):
        if min((r + 1) * TILE, after.height) > before.height:
            top[r] = [True] * len(top[r])
    split, moved = rows, top
    if shift:
        moved = _marks(_placed(before, after.size, shift), after)
        for r in range(rows):
            if r * TILE < shift or min((r + 1) * TILE, after.height) > before.height + shift:
                moved[r] = [True] * len(moved[r])
        costs = [sum(map(sum, top[:r])) + sum(map(sum, moved[r:])) for r in range(rows + 1)]
        split = min(range(rows + 1), key=costs.__getitem__)
    chosen = [*top[:split], *moved[split:]]
    across = len(chosen[0]) if chosen else 0
    tiles = [r * across + c for r, row in enumerate(chosen) for c, v in enumerate(row) if v]
    if len(tiles) > WHOLE_ABOVE * across * rows:
        return None
    return Patch(after.size, split * TILE if shift else 0, shift, tiles)


@dataclass(frozen=True)
class Patch:
    size: tuple[int, int]
    split: int  # px: from there down, the board before is drawn ``shift`` px lower
    shift: int
    tiles: list[int]

    def data(self, base: str, strip: str) -> dict[str, Any]:
        return {
            "base": base,
            "strip": strip,
            "size": list(self.size),
            "split": self.split,
            "shift": self.shift,
            "tiles": self.tiles,
        }


def strip_of(image: Image.Image, tiles: list[int]) -> Image.Image:
    """The tiles of ``image`` numbered ``tiles``, side by side in rows of
    :data:`STRIP_ACROSS` (the page's script reads them back in that order)."""
    across = -(-image.width // TILE)
    wide = max(1, min(len(tiles), STRIP_ACROSS))
    strip = Image.new("P", (wide * TILE, max(1, -(-len(tiles) // STRIP_ACROSS)) * TILE))
    strip.putpalette(image.getpalette() or [])
    for n, tile in enumerate(tiles):
        x, y = (tile % across) * TILE, (tile // across) * TILE
        box = (x, y, min(x + TILE, image.width), min(y + TILE, image.height))
        strip.paste(image.crop(box), ((n % STRIP_ACROSS) * TILE, (n // STRIP_ACROSS) * TILE))
    return strip


def apply_patch(base: Image.Image, strip: Image.Image, patch: Patch) -> Image.Image:
    """``base`` with a patch drawn over it, as the page's script draws it (for the tests: a
    patched board is the board itself)."""
    out = Image.new(base.mode, patch.size)
    out.paste(base, (0, 0))
    if patch.shift:
        moved = Image.new(base.mode, patch.size)
        moved.paste(base, (0, patch.shift))
        box = (0, patch.split, patch.size[0], patch.size[1])
        out.paste(moved.crop(box), (0, patch.split))
    across = -(-out.width // TILE)
    for n, tile in enumerate(patch.tiles):
        x, y = (tile % across) * TILE, (tile // across) * TILE
        w, h = min(TILE, out.width - x), min(TILE, out.height - y)
        sx, sy = (n % STRIP_ACROSS) * TILE, (n // STRIP_ACROSS) * TILE
        out.paste(strip.crop((sx, sy, sx + w, sy + h)), (x, y))
    return out
