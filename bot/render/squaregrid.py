"""Square-grid geometry for board renderers: chess-like labels and pixel rectangles (pure maths).

A square is named by its column letter then its row number, ``"A1"`` at the top left, columns
growing to the right and rows downwards (``"C4"`` is column 2, row 3, zero-based). Up to 26
columns (``A``-``Z``); rows have no limit. No Pillow and no game knowledge here.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

Square = tuple[int, int]  # (col, row), zero-based
Point = tuple[float, float]
Rect = tuple[float, float, float, float]

MAX_COLUMNS = 26
_LABEL = re.compile(r"\s*([A-Za-z])\s*(\d{1,4})\s*")


def column_letter(col: int) -> str:
    if not 0 <= col < MAX_COLUMNS:
        raise ValueError(f"column {col} outside A-Z")
    return string.ascii_uppercase[col]


def label(square: Square) -> str:
    """``(2, 3)`` → ``"C4"``."""
    col, row = square
    if row < 0:
        raise ValueError(f"row {row} is negative")
    return f"{column_letter(col)}{row + 1}"


def parse(text: str) -> Square:
    """``"C4"`` (or ``"c4"``) → ``(2, 3)``; ValueError for anything else."""
    match = _LABEL.fullmatch(str(text))
    if match is None or int(match.group(2)) < 1:
        raise ValueError(f"not a square: {text!r}")
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def try_parse(text: object) -> Square | None:
    """Like ``parse`` but ``None`` instead of an error (for lenient rendering)."""
    try:
        return parse(str(text))
    except ValueError:
        return None


@dataclass(frozen=True)
class Grid:
    """``width`` × ``height`` squares of ``cell`` px, square A1's top-left corner at ``origin``."""

    width: int
    height: int
    cell: float
    origin: Point = (0.0, 0.0)

    def contains(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def rect(self, square: Square, inset: float = 0.0) -> Rect:
        """``(x0, y0, x1, y1)`` of a square, optionally shrunk by ``inset`` px on every side."""
        x = self.origin[0] + square[0] * self.cell
        y = self.origin[1] + square[1] * self.cell
        return x + inset, y + inset, x + self.cell - inset, y + self.cell - inset

    def center(self, square: Square) -> Point:
        return (
            self.origin[0] + (square[0] + 0.5) * self.cell,
            self.origin[1] + (square[1] + 0.5) * self.cell,
        )

    @property
    def bounds(self) -> Rect:
        """Pixel box of the whole grid."""
        x0, y0 = self.origin
        return x0, y0, x0 + self.width * self.cell, y0 + self.height * self.cell

    def squares(self) -> list[Square]:
        """Every square, row by row from the top left."""
        return [(c, r) for r in range(self.height) for c in range(self.width)]
