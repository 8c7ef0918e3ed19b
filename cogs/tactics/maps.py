"""Tactics maps: readable text files in ``cogs/tactics/data/maps/<name>.txt``.

Format (one character per square, rows top to bottom, so the first row is row 1)::

    # a comment: '#' then a space (a map row never holds a space)
    name.en: Old Ford
    name.ja: 古い渡し場
    bbbbbbbbbb        b: deployment zone of seat B (also floor)
    ...#......        #: obstacle, .: floor
    aaaaaaaaaa        a: deployment zone of seat A

Every row has the same width (1–26 columns, so a column is one letter), at most 26 rows, and each
side has at least 5 zone squares (room for a full lineup). Squares are ``(col, row)`` from 0,
labelled ``A1`` top-left as on the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.render.squaregrid import label
from bot.ruleset import RuleError

Square = tuple[int, int]
DATA = Path(__file__).resolve().parent / "data" / "maps"
DEFAULT = "default"
ZONE_CHARS = {"a": "A", "b": "B"}
MIN_ZONE = 5


class MapError(RuleError):
    pass


@dataclass(frozen=True)
class Map:
    name: str
    titles: dict[str, str]
    width: int
    height: int
    obstacles: frozenset[Square]
    zones: dict[str, tuple[Square, ...]]

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def inside(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height


def parse(name: str, text: str) -> Map:
    titles: dict[str, str] = {}
    rows: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("# ") or line.startswith("#\t"):
            continue
        if line.startswith("name.") and ":" in line:
            key, value = line.split(":", 1)
            titles[key.removeprefix("name.").strip()] = value.strip()
            continue
        rows.append(line)
    if not rows or len(rows) > 26:
        raise MapError("tactics.map.bad_size", name=name)
    width = len(rows[0])
    if not 1 <= width <= 26 or any(len(r) != width for r in rows):
        raise MapError("tactics.map.ragged", name=name)
    obstacles: set[Square] = set()
    zones: dict[str, list[Square]] = {"A": [], "B": []}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                obstacles.add((c, r))
            elif ch in ZONE_CHARS:
                zones[ZONE_CHARS[ch]].append((c, r))
            elif ch != ".":
                raise MapError("tactics.map.bad_char", name=name, char=ch, square=label((c, r)))
    for seat, squares in zones.items():
        if len(squares) < MIN_ZONE:
            raise MapError("tactics.map.small_zone", name=name, seat=seat, minimum=MIN_ZONE)
    return Map(
        name,
        titles or {"en": name},
        width,
        len(rows),
        frozenset(obstacles),
        {s: tuple(v) for s, v in zones.items()},
    )


def names() -> list[str]:
    return sorted(p.stem for p in DATA.glob("*.txt"))


@cache
def load(name: str) -> Map:
    if name not in names():
        raise MapError("tactics.map.unknown", name=name, known=", ".join(names()))
    return parse(name, (DATA / f"{name}.txt").read_text("utf-8"))
