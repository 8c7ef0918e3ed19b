"""The dungeon's data packs: scenarios, character classes with their hands, monster types with
their ability decks, the attack modifier die. Pure: TOML in ``cogs/dungeon/data/`` in, frozen
dataclasses out; every refusal is a :class:`ContentError` with a message key.

Scenario files (``data/scenarios/<id>.toml``) are written by hand, so hexes are written as
labels, not axial pairs: a column letter and a row number, ``C4``, on the odd-q offset grid of
:mod:`cogs.dungeon.hexes` (column ``C`` is ``q = 2``; row 1 is the bottom row). A room's ``area``
is a list of rectangles ``"A1:E5"`` (corners included) and single hexes; terrain lists
(``walls``, ``obstacles``, ``traps``, ``hazardous``, ``difficult``, ``icy``) name hexes of that
room. A door is a hex in no room that touches the two rooms it joins. ``thin_walls`` are pairs of
neighbouring hexes. Monsters are placed per room, optionally only from ``min_players`` players.

Everything outside the rooms is rock (a wall for movement and sight). Keep corridors at least two
hexes wide: under Gloomhaven's vertex line of sight, two hexes of a one-hex-wide corridor do not
see each other (every vertex touches the rock), so a monster could not attack along it.
"""

from __future__ import annotations

import re
import tomllib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.ruleset import RuleError
from cogs.dungeon.ai import RULES
from cogs.dungeon.hexes import Hex, from_offset, neighbours, to_offset

DATA = Path(__file__).resolve().parent / "data"
TERRAIN_LISTS = {
    "walls": "wall",
    "obstacles": "obstacle",
    "traps": "trap",
    "hazardous": "hazardous",
    "difficult": "difficult",
    "icy": "icy",
}
MAX_PLAYERS = 4
_LABEL = re.compile(r"^([A-Za-z])(\d{1,2})$")


class ContentError(RuleError):
    """A data file the dungeon cannot use (``key`` names the message, ``params`` where)."""


# --- hex labels ----------------------------------------------------------------------------------


def label(h: Hex) -> str:
    """``C4`` for the hex in column C (``q = 2``), row 4.

    >>> label((2, 2)), parse_label("c4")
    ('C4', (2, 2))
    """
    col, row = to_offset(h)
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_label(text: str) -> Hex | None:
    """The hex a label names, or None when it is not a label."""
    match = _LABEL.match(text.strip())
    if not match:
        return None
    col = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if row < 0:
        return None
    return from_offset(col, row)


# --- cards and figures ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """A character's card or a monster's ability card."""

    id: str
    initiative: int
    move: int = 0
    attack: int = 0
    range: int = 0
    targets: int = 1
    jump: bool = False
    flying: bool = False
    heal: int = 0
    heal_range: int = 0
    push: int = 0
    pull: int = 0

    @property
    def mode(self) -> str:
        return "flying" if self.flying else "jump" if self.jump else "normal"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "initiative": self.initiative, "move": self.move}
        for name in ("attack", "range", "heal", "heal_range", "push", "pull"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.attack and self.targets != 1:
            out["targets"] = self.targets
        if self.jump:
            out["jump"] = True
        if self.flying:
            out["flying"] = True
        return out


@dataclass(frozen=True)
class CharacterClass:
    id: str
    hp: int
    cards: tuple[Card, ...]

    def card(self, card_id: str) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)


@dataclass(frozen=True)
class MonsterType:
    id: str
    hp: int
    hp_per_level: int
    standees: int
    flying: bool
    deck: tuple[Card, ...]

    def max_hp(self, level: int) -> int:
        return self.hp + self.hp_per_level * level

    def card(self, card_id: str) -> Card | None:
        return next((c for c in self.deck if c.id == card_id), None)


def _int(obj: Mapping[str, Any], name: str, where: str, low: int, high: int, default: int) -> int:
    value = obj.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ContentError("dungeon.content.bad_number", where=where, field=name, value=value)
    return value


def _card(obj: Any, where: str) -> Card:
    if not isinstance(obj, Mapping) or not isinstance(obj.get("id"), str):
        raise ContentError("dungeon.content.bad_card", where=where)
    at = f"{where}/{obj['id']}"
    known = {"id", "initiative", "move", "attack", "range", "targets", "jump", "flying"}
    known |= {"heal", "heal_range", "push", "pull"}
    unknown = set(obj) - known
    if unknown:
        raise ContentError("dungeon.content.unknown_field", where=at, field=sorted(unknown)[0])
    card = Card(
        id=obj["id"],
        initiative=_int(obj, "initiative", at, 1, 99, 0),
        move=_int(obj, "move", at, 0, 9, 0),
        attack=_int(obj, "attack", at, 0, 9, 0),
        range=_int(obj, "range", at, 0, 9, 0),
        targets=_int(obj, "targets", at, 1, 6, 1),
        jump=bool(obj.get("jump", False)),
        flying=bool(obj.get("flying", False)),
        heal=_int(obj, "heal", at, 0, 9, 0),
        heal_range=_int(obj, "heal_range", at, 0, 9, 0),
        push=_int(obj, "push", at, 0, 5, 0),
        pull=_int(obj, "pull", at, 0, 5, 0),
    )
    if card.jump and card.flying:
        raise ContentError("dungeon.content.jump_and_flying", where=at)
    return card


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ContentError("dungeon.content.no_file", path=path.name) from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError("dungeon.content.not_toml", path=path.name, detail=str(exc)) from None


def parse_classes(doc: Mapping[str, Any]) -> dict[str, CharacterClass]:
    out = {}
    seen: set[str] = set()
    for cid, obj in doc.items():
        if not isinstance(obj, Mapping) or not isinstance(obj.get("cards"), list):
            raise ContentError("dungeon.content.bad_class", where=cid)
        cards = tuple(_card(c, cid) for c in obj["cards"])
        if len(cards) < 2:
            raise ContentError("dungeon.content.small_hand", where=cid)
        for c in cards:
            if c.id in seen:
                raise ContentError("dungeon.content.duplicate_card", where=cid, card=c.id)
            seen.add(c.id)
        out[cid] = CharacterClass(cid, _int(obj, "hp", cid, 1, 40, 0), cards)
    if not out:
        raise ContentError("dungeon.content.no_classes")
    return out


def parse_monsters(doc: Mapping[str, Any]) -> dict[str, MonsterType]:
    out = {}
    for mid, obj in doc.items():
        if not isinstance(obj, Mapping) or not isinstance(obj.get("deck"), list) or not obj["deck"]:
            raise ContentError("dungeon.content.bad_monster", where=mid)
        out[mid] = MonsterType(
            id=mid,
            hp=_int(obj, "hp", mid, 1, 40, 0),
            hp_per_level=_int(obj, "hp_per_level", mid, 0, 10, 0),
            standees=_int(obj, "standees", mid, 1, 10, 6),
            flying=bool(obj.get("flying", False)),
            deck=tuple(_card(c, mid) for c in obj["deck"]),
        )
    return out


def parse_modifiers(doc: Mapping[str, Any]) -> tuple[str | int, ...]:
    faces = doc.get("d6")
    if not isinstance(faces, list) or len(faces) != 6:
        raise ContentError("dungeon.content.bad_modifiers")
    for face in faces:
        if face not in ("miss", "x2") and (isinstance(face, bool) or not isinstance(face, int)):
            raise ContentError("dungeon.content.bad_modifiers")
    return tuple(faces)


@cache
def classes() -> dict[str, CharacterClass]:
    return parse_classes(_read(DATA / "classes.toml"))


@cache
def monster_types() -> dict[str, MonsterType]:
    return parse_monsters(_read(DATA / "monsters.toml"))


@cache
def modifiers() -> tuple[str | int, ...]:
    return parse_modifiers(_read(DATA / "modifiers.toml"))


# --- scenarios -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    type: str
    hex: Hex
    min_players: int = 1


@dataclass(frozen=True)
class Room:
    id: str
    hexes: frozenset[Hex]
    monsters: tuple[Placement, ...]


@dataclass(frozen=True)
class Door:
    hex: Hex
    rooms: tuple[str, str]


@dataclass(frozen=True)
class Scenario:
    """A playable map: rooms, doors, terrain, thin walls, monsters per room, level, rules."""

    id: str
    level: int
    rules: str
    rooms: tuple[Room, ...]  # the first is where the characters start
    doors: tuple[Door, ...]
    terrain: Mapping[Hex, str]
    thin_walls: frozenset[frozenset[Hex]]
    starts: tuple[Hex, ...]

    def room(self, room_id: str) -> Room:
        return next(r for r in self.rooms if r.id == room_id)

    def room_of(self, h: Hex) -> str | None:
        return next((r.id for r in self.rooms if h in r.hexes), None)

    def door_at(self, h: Hex) -> Door | None:
        return next((d for d in self.doors if d.hex == h), None)

    @property
    def all_hexes(self) -> frozenset[Hex]:
        out: set[Hex] = {d.hex for d in self.doors}
        for room in self.rooms:
            out |= room.hexes
        return frozenset(out)


def _hexes(items: Any, where: str) -> list[Hex]:
    """Labels and ``A1:E5`` rectangles."""
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, list):
        raise ContentError("dungeon.content.bad_hex", where=where, value=items)
    out: list[Hex] = []
    for item in items:
        text = str(item)
        if ":" in text:
            a, b = (parse_label(x) for x in text.split(":", 1))
            if a is None or b is None:
                raise ContentError("dungeon.content.bad_hex", where=where, value=text)
            (c0, r0), (c1, r1) = to_offset(a), to_offset(b)
            for col in range(min(c0, c1), max(c0, c1) + 1):
                for row in range(min(r0, r1), max(r0, r1) + 1):
                    out.append(from_offset(col, row))
        else:
            h = parse_label(text)
            if h is None:
                raise ContentError("dungeon.content.bad_hex", where=where, value=text)
            out.append(h)
    return out


def _one_hex(value: Any, where: str) -> Hex:
    found = _hexes([value], where) if isinstance(value, str) and ":" not in value else []
    if len(found) != 1:
        raise ContentError("dungeon.content.bad_hex", where=where, value=value)
    return found[0]


def parse_scenario(sid: str, doc: Mapping[str, Any]) -> Scenario:
    """A scenario document (decoded TOML), checked: every refusal names the place and the reason."""
    level = _int(doc, "level", sid, 0, 7, 1)
    rules = doc.get("rules", "gloomhaven")
    if rules not in RULES:
        raise ContentError("dungeon.content.unknown_rules", where=sid, rules=rules)
    types = monster_types()
    rooms: list[Room] = []
    terrain: dict[Hex, str] = {}
    owner: dict[Hex, str] = {}
    raw_rooms = doc.get("rooms")
    if not isinstance(raw_rooms, list) or not raw_rooms:
        raise ContentError("dungeon.content.no_rooms", where=sid)
    for obj in raw_rooms:
        rid = str(obj.get("id", ""))
        where = f"{sid}/{rid}"
        if not rid or any(r.id == rid for r in rooms):
            raise ContentError("dungeon.content.bad_room_id", where=where)
        area = set(_hexes(obj.get("area", []), where))
        if not area:
            raise ContentError("dungeon.content.empty_room", where=where)
        for h in area:
            if h in owner:
                raise ContentError(
                    "dungeon.content.rooms_overlap", where=where, hex=label(h), other=owner[h]
                )
            owner[h] = rid
        for field_name, kind in TERRAIN_LISTS.items():
            for h in _hexes(obj.get(field_name, []), f"{where}/{field_name}"):
                if h not in area:
                    raise ContentError("dungeon.content.outside_room", where=where, hex=label(h))
                if h in terrain:
                    raise ContentError("dungeon.content.two_terrains", where=where, hex=label(h))
                terrain[h] = kind
        placements = []
        for m in obj.get("monsters", []):
            if not isinstance(m, Mapping) or m.get("type") not in types:
                raise ContentError(
                    "dungeon.content.unknown_monster", where=where, type=m.get("type")
                )
            h = _one_hex(m.get("hex"), where)
            if h not in area or terrain.get(h) in ("wall", "obstacle"):
                raise ContentError("dungeon.content.bad_monster_hex", where=where, hex=label(h))
            if any(p.hex == h for p in placements):
                raise ContentError("dungeon.content.two_monsters", where=where, hex=label(h))
            placements.append(
                Placement(m["type"], h, _int(m, "min_players", where, 1, MAX_PLAYERS, 1))
            )
        for mtype in {p.type for p in placements}:
            if sum(p.type == mtype for p in placements) > types[mtype].standees:
                raise ContentError("dungeon.content.too_many_monsters", where=where, type=mtype)
        rooms.append(Room(rid, frozenset(area), tuple(placements)))
    room_hexes = {r.id: r.hexes for r in rooms}
    doors = []
    for obj in doc.get("doors", []):
        h = _one_hex(obj.get("hex"), f"{sid}/doors")
        joined = obj.get("rooms")
        if (
            not isinstance(joined, list)
            or len(joined) != 2
            or not all(r in room_hexes for r in joined)
        ):
            raise ContentError("dungeon.content.bad_door", where=sid, hex=label(h))
        if h in owner:
            raise ContentError("dungeon.content.door_in_room", where=sid, hex=label(h))
        for rid in joined:
            if not any(n in room_hexes[rid] and terrain.get(n) != "wall" for n in neighbours(h)):
                raise ContentError("dungeon.content.door_not_touching", where=sid, hex=label(h))
        doors.append(Door(h, (joined[0], joined[1])))
    thin = set()
    for pair in doc.get("thin_walls", []):
        hexes = _hexes(pair, f"{sid}/thin_walls")
        if len(hexes) != 2 or hexes[1] not in neighbours(hexes[0]):
            raise ContentError("dungeon.content.bad_thin_wall", where=sid, value=pair)
        thin.add(frozenset(hexes))
    starts = tuple(_hexes(doc.get("starts", []), f"{sid}/starts"))
    if len(starts) < MAX_PLAYERS or len(set(starts)) != len(starts):
        raise ContentError("dungeon.content.starts", where=sid, needed=MAX_PLAYERS)
    first = rooms[0]
    for h in starts:
        if h not in first.hexes or terrain.get(h) in ("wall", "obstacle"):
            raise ContentError("dungeon.content.bad_start", where=sid, hex=label(h))
        if any(p.hex == h for p in first.monsters):
            raise ContentError("dungeon.content.bad_start", where=sid, hex=label(h))
    scenario = Scenario(
        sid, level, rules, tuple(rooms), tuple(doors), terrain, frozenset(thin), starts
    )
    _check_connected(scenario)
    return scenario


def _check_connected(s: Scenario) -> None:
    """Every walkable hex (through doors) reaches every other: obstacles never cut the map, every
    room can be reached, and no monster stands where no one can get at it."""
    walkable = {h for h in s.all_hexes if s.terrain.get(h) not in ("wall", "obstacle")}
    start = s.starts[0]
    seen = {start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in walkable and n not in seen and frozenset((h, n)) not in s.thin_walls:
                seen.add(n)
                queue.append(n)
    cut = sorted(walkable - seen)
    if cut:
        raise ContentError("dungeon.content.cut_in_two", where=s.id, hex=label(cut[0]))


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in (DATA / "scenarios").glob("*.toml"))


@cache
def scenario(sid: str) -> Scenario:
    if sid not in scenario_ids():
        raise ContentError("dungeon.content.unknown_scenario", name=sid)
    return parse_scenario(sid, _read(DATA / "scenarios" / f"{sid}.toml"))


def sort_hexes(hexes: Sequence[Hex]) -> list[Hex]:
    """Reading order on the board (top row first, then left to right), for stable listings."""
    return sorted(hexes, key=lambda h: (-to_offset(h)[1], to_offset(h)[0]))
