"""The viewer's patches (bot.viewer.pictures): a board drawn over the one before it, grown or
shrunk in its middle, with the tiles that changed, is the board itself, pixel for pixel; a board
most of which changed is stored whole. No browser: the page's script draws a patch the same way
(tests/viewer/test_viewer_browser.py compares the two)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.viewer.pictures import TILE, apply_patch, plan, strip_of


def board(rows: int, *, mark: tuple[int, int] | None = None, width: int = 200) -> Image.Image:
    """A palette board: a header, ``rows`` lines in its middle, a footer (as Esper's board grows
    a line of its table); ``mark`` a dot drawn at that point."""
    height = 60 + rows * 23 + 50
    image = Image.new("P", (width, height), 0)
    image.putpalette([0, 0, 0, 200, 30, 30, 30, 200, 30, 250, 250, 250] + [0] * 756)
    draw = ImageDraw.Draw(image)
    draw.rectangle((5, 5, width - 5, 50), fill=1)
    for r in range(rows):
        draw.line((10, 60 + r * 23 + 10, width - 10 - r * 7, 60 + r * 23 + 10), fill=3)
    draw.rectangle((5, height - 45, width - 40, height - 5), fill=2)
    if mark is not None:
        draw.ellipse((mark[0], mark[1], mark[0] + 6, mark[1] + 6), fill=3)
    return image


def redrawn(before: Image.Image, after: Image.Image) -> Image.Image:
    patch = plan(before, after)
    assert patch is not None
    return apply_patch(before, strip_of(after, patch.tiles), patch)


def test_a_patch_redraws_the_board_exactly() -> None:
    before = board(3)
    same_size = board(3, mark=(100, 20))
    patch = plan(before, same_size)
    assert patch is not None and len(patch.tiles) == 1 and patch.shift == 0
    assert redrawn(before, same_size).tobytes() == same_size.tobytes()
    for after in (board(5, mark=(30, 150)), board(1), board(4)):
        patch = plan(before, after)
        assert patch is not None and patch.shift == after.height - before.height
        # the footer moved with the middle: not redrawn tile by tile
        assert len(patch.tiles) < 0.5 * len(range(0, after.height, TILE)) * (200 // TILE + 1)
        assert redrawn(before, after).tobytes() == after.tobytes()


def test_a_board_mostly_changed_or_of_another_width_is_whole() -> None:
    before = board(3)
    other = Image.new("P", before.size, 2)
    other.putpalette(before.getpalette() or [])
    assert plan(before, other) is None
    assert plan(before, board(3, width=216)) is None
