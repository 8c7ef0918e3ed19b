"""The Apeiron field (``apeiron.md`` § Components, § Secret stream draws): nine 3×3 panels on a
9×9 board, their secret layout, rotation and the geometry every rule reads.

Squares are ``(col, row)`` zero-based, ``A1`` = ``(0, 0)`` top left (labels as in
:mod:`bot.render.squaregrid`). Panel positions (the digest's spiral from the centre)::

    3 4 5   rows 1–3: seat A
    2 1 6   rows 4–6
    9 8 7   rows 7–9: seat B

A panel at rotation 90 is its rotation-0 layout turned a quarter clockwise.

>>> label(origin(3)), label(origin(7)), position((4, 4))
('A1', 'G7', 1)
>>> rotate_local((0, 0), 1), turn_facing("N", 1), turn_facing("W", 3)
((2, 0), 'E', 'S')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from bot.dice import Dice, shuffle
from bot.render.squaregrid import label, try_parse  # noqa: F401  (doctests, callers)
from bot.ruleset import RuleError
from cogs.apeiron.pack import ARROWS, EVENT_KINDS, PER_TERRAIN_KIND, TERRAIN_KINDS, Pack

Square = tuple[int, int]
SIZE = 9
POSITIONS = tuple(range(1, 10))
# position -> (panel column, panel row)
GRID: Mapping[int, tuple[int, int]] = {
    3: (0, 0), 4: (1, 0), 5: (2, 0),
    2: (0, 1), 1: (1, 1), 6: (2, 1),
    9: (0, 2), 8: (1, 2), 7: (2, 2),
}  # fmt: skip
AT: Mapping[tuple[int, int], int] = {cell: pos for pos, cell in GRID.items()}
ROWS: Mapping[str, tuple[int, ...]] = {"A": (3, 4, 5), "B": (9, 8, 7)}
MIDDLE = (2, 1, 6)
FACINGS = "NESW"
STEP: Mapping[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ROTATIONS = (0, 90, 180, 270)
# ``^ > v <`` on an arrow panel, as facings
ARROW_FACING = dict(zip(ARROWS, FACINGS, strict=True))
EVENT_ORDER = EVENT_KINDS  # the order the option ``events`` draws its kinds in

E_FIELD = "apeiron.option.field"
E_EVENTS = "apeiron.option.events"


@dataclass(frozen=True)
class Slot:
    """The panel at one position: its pack id, its current kind (a change alters it) and its
    rotation in degrees clockwise."""

    panel: str
    kind: str
    rot: int

    def to_json(self) -> dict[str, object]:
        return {"panel": self.panel, "kind": self.kind, "rot": self.rot}


Field = Mapping[int, Slot | None]  # None: removed (off-field)


# --- geometry ------------------------------------------------------------------------------------


def origin(pos: int) -> Square:
    col, row = GRID[pos]
    return col * 3, row * 3


def position(square: Square) -> int:
    return AT[(square[0] // 3, square[1] // 3)]


def on_board(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def squares_of(pos: int) -> list[Square]:
    """The nine squares of a position, in reading order."""
    x0, y0 = origin(pos)
    return [(x0 + x, y0 + y) for y in range(3) for x in range(3)]


def rotate_local(cell: tuple[int, int], quarters: int) -> tuple[int, int]:
    """A panel cell ``(x, y)`` after ``quarters`` clockwise quarter turns."""
    x, y = cell
    for _ in range(quarters % 4):
        x, y = 2 - y, x
    return x, y


def turn_facing(facing: str, quarters: int) -> str:
    return FACINGS[(FACINGS.index(facing) + quarters) % 4]


def neighbours(square: Square) -> Iterator[tuple[str, Square]]:
    """Orthogonal neighbours on the board, in the order N, E, S, W."""
    for facing in FACINGS:
        dx, dy = STEP[facing]
        nxt = (square[0] + dx, square[1] + dy)
        if on_board(nxt):
            yield facing, nxt


def adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def within(a: Square, b: Square, radius: int) -> bool:
    """``b`` in the {range radius} block around ``a`` (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= radius


def direction(a: Square, b: Square) -> str | None:
    """The facing from ``a`` toward ``b`` on a shared row or column (None otherwise, or equal)."""
    if a == b:
        return None
    if a[0] == b[0]:
        return "S" if b[1] > a[1] else "N"
    if a[1] == b[1]:
        return "E" if b[0] > a[0] else "W"
    return None


def between(a: Square, b: Square) -> list[Square]:
    """The squares strictly between two squares of one row or column."""
    facing = direction(a, b)
    if facing is None:
        return []
    dx, dy = STEP[facing]
    out, cur = [], (a[0] + dx, a[1] + dy)
    while cur != b:
        out.append(cur)
        cur = (cur[0] + dx, cur[1] + dy)
    return out


def behind(square: Square, facing: str) -> Square:
    """The square at a unit's back."""
    dx, dy = STEP[facing]
    return square[0] - dx, square[1] - dy


def panel_neighbours(pos: int) -> list[int]:
    col, row = GRID[pos]
    out = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        cell = (col + dc, row + dr)
        if cell in AT:
            out.append(AT[cell])
    return out


# --- a panel's squares ---------------------------------------------------------------------------


def layout_at(pack: Pack, slot: Slot) -> dict[tuple[int, int], str]:
    """The panel's layout characters at its rotation, by local cell (after the turn)."""
    layout = pack.panels[slot.panel].layout
    quarters = slot.rot // 90
    out = {}
    for y in range(3):
        for x in range(3):
            char = layout[y][x]
            if char in ARROW_FACING:
                char = ARROWS[(ARROWS.index(char) + quarters) % 4]
            out[rotate_local((x, y), quarters)] = char
    return out


def arrow(pack: Pack, field: Field, square: Square) -> str | None:
    """The facing an arrow panel's square points to (None: no arrow there)."""
    slot = field.get(position(square))
    if slot is None or slot.kind != "arrow" or pack.panels[slot.panel].kind != "arrow":
        return None
    x0, y0 = origin(position(square))
    return ARROW_FACING.get(layout_at(pack, slot)[(square[0] - x0, square[1] - y0)])


def initial_objects(pack: Pack, field: Field) -> dict[Square, str]:
    """The obstacles and treasure the panels' layouts put on the field."""
    objects: dict[Square, str] = {}
    for pos, slot in field.items():
        if slot is None:
            continue
        x0, y0 = origin(pos)
        for (x, y), char in layout_at(pack, slot).items():
            if char == "#":
                objects[(x0 + x, y0 + y)] = "obstacle"
            elif char == "T":
                objects[(x0 + x, y0 + y)] = "treasure"
    return objects


# --- building the field --------------------------------------------------------------------------


def shuffled(pack: Pack, secret: Dice, events: Sequence[str] = ()) -> dict[int, Slot | None]:
    """Draws (1)–(3) of the digest from the secret stream."""
    panels = pack.terrain_panels()
    if len(panels) < len(POSITIONS):
        raise RuleError(E_FIELD, reason="panels", value=len(panels))
    shuffle(secret, panels)
    field: dict[int, Slot | None] = {
        pos: Slot(panel.id, panel.kind, 0) for pos, panel in zip(POSITIONS, panels, strict=False)
    }
    for pos in POSITIONS:
        slot = field[pos]
        assert slot is not None
        field[pos] = Slot(slot.panel, slot.kind, (secret.roll(4) - 1) * 90)
    for kind in EVENT_ORDER:
        if kind not in events:
            continue
        panel = pack.event_panel(kind)
        if panel is None:
            raise RuleError(E_EVENTS, kind=kind)
        while True:
            pos = secret.roll(9)
            slot = field[pos]
            assert slot is not None
            if slot.kind in TERRAIN_KINDS:
                break
        field[pos] = Slot(panel.id, panel.kind, slot.rot)
    return field


_SLOT = re.compile(r"([a-z0-9][a-z0-9-]*)@(\d{1,3})")


def from_option(pack: Pack, value: object) -> dict[int, Slot | None]:
    """The option ``field``: nine ``panel@rotation`` for positions 1..9 (rotation in degrees)."""
    if not isinstance(value, (list, tuple)) or len(value) != len(POSITIONS):
        raise RuleError(E_FIELD, reason="nine", value=str(value)[:60])
    field: dict[int, Slot | None] = {}
    seen: set[str] = set()
    for pos, item in zip(POSITIONS, value, strict=True):
        match = _SLOT.fullmatch(str(item))
        if match is None or int(match[2]) not in ROTATIONS:
            raise RuleError(E_FIELD, reason="slot", value=str(item)[:40])
        panel = pack.panels.get(match[1])
        if panel is None or panel.id in seen:
            raise RuleError(E_FIELD, reason="panel", value=match[1])
        seen.add(panel.id)
        field[pos] = Slot(panel.id, panel.kind, int(match[2]))
    check_caps(field)
    return field


def check_caps(field: Field) -> None:
    """At most 4 terrain panels of a kind and 1 event panel of a kind on the field."""
    kinds = [slot.kind for slot in field.values() if slot is not None]
    for kind in set(kinds):
        cap = PER_TERRAIN_KIND if kind in TERRAIN_KINDS else 1
        if kinds.count(kind) > cap:
            raise RuleError(E_FIELD, reason="cap", value=kind)


def caps_ok(field: Field) -> bool:
    try:
        check_caps(field)
    except RuleError:
        return False
    return True


def parse_square(text: str) -> Square | None:
    square = try_parse(text)
    return square if square is not None and on_board(square) else None
