"""Apeiron's state: the types every part of the engine shares, its constants and refusal keys,
and the small reads of a state (who stands where, a unit's stats as they are read now, the
acting unit, the side zones).

The engine is cut at its seams, each module importing only those below it (no cycle):
``state`` < :mod:`.orders` (the order types and the grammar) < :mod:`.targets` (what an effect
or an attack may aim at) < :mod:`.effects` (what happens: effects, events, damage, moves, an
activation's opening and end) < :mod:`.legality` (what a seat may order: reach, the checks at
submission) < :mod:`.rules` (the engine the spec names).

Pure: no discord, no storage, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from bot.render.squaregrid import label
from bot.ruleset import OrderRejected, StateError
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.field import Slot, Square
from cogs.apeiron.pack import Pack

SEATS = ("A", "B")
DEPLOY = 5
FACING_OF = {"A": "S", "B": "N"}
BOMB_DAMAGE = 2

# steps
DECK, DEPLOY_STEP, PLAY, OVER = "deck", "deploy", "play", "over"
PLACE, OPTION, MOVE = "place", "option", "move"  # follow-up steps inside an activation
MID_STEPS = (PLACE, OPTION, MOVE)
OBJECT_CAP = 5  # placed objects of a kind on the field
TREASURE_CAP = 4

# refusals (raised by the grammar, the checks and the effects alike)
R_EMPTY = "apeiron.reject.empty"
R_SYNTAX = "apeiron.reject.syntax"
R_NOT_YOURS = "apeiron.reject.not_your_step"
R_UNKNOWN_CARD = "apeiron.reject.unknown_card"
R_DECK = "apeiron.reject.deck"
R_DEPLOY_COUNT = "apeiron.reject.deploy_count"
R_DEPLOY_UNIT = "apeiron.reject.deploy_unit"
R_DEPLOY_SQUARE = "apeiron.reject.deploy_square"
R_SQUARE = "apeiron.reject.square"
R_STEP = "apeiron.reject.step"
R_BLOCKED = "apeiron.reject.blocked"
R_TOO_FAR = "apeiron.reject.too_far"
R_SAME_SQUARE = "apeiron.reject.same_square"
R_NOT_BOXED = "apeiron.reject.not_boxed"
R_STOP = "apeiron.reject.stop"
R_ARROW = "apeiron.reject.arrow"
R_NO_PATH = "apeiron.reject.no_path"
R_TARGET = "apeiron.reject.target"
R_OUT_OF_RANGE = "apeiron.reject.out_of_range"
R_LINE = "apeiron.reject.line"
R_NOT_YET = "apeiron.reject.not_yet"
R_FINISHED = "apeiron.reject.finished"
R_NOT_ACTING = "apeiron.reject.not_acting"
R_NO_ABILITY = "apeiron.reject.no_ability"
R_WHEN = "apeiron.reject.when"
R_ARGS = "apeiron.reject.args"
R_PICK = "apeiron.reject.pick"
R_NOTHING = "apeiron.reject.nothing"
R_NO_TREASURE = "apeiron.reject.no_treasure"
R_CHEST_EMPTY = "apeiron.reject.chest_empty"
R_CHANCE_USED = "apeiron.reject.chance_used"
R_NO_ITEM = "apeiron.reject.no_item"
R_ZONE = "apeiron.reject.zone"
R_OPTION = "apeiron.reject.option"
R_MOVE_ONLY = "apeiron.reject.move_only"


# --- state ---------------------------------------------------------------------------------------


@dataclass
class UnitState:
    id: str
    seat: str
    order: int  # action order, 1..5
    square: Square | None  # None: dead
    facing: str
    hp: int
    mods: list[tuple[str, int, int]] = dc_field(default_factory=list)  # (stat, delta, last turn)
    died: int | None = None  # game turn of death

    @property
    def alive(self) -> bool:
        return self.square is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "order": self.order,
            "square": None if self.square is None else label(self.square),
            "facing": self.facing,
            "hp": self.hp,
            "mods": [list(m) for m in self.mods],
            "died": self.died,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> UnitState:
        square = obj["square"]
        return cls(
            str(obj["id"]),
            str(obj["seat"]),
            int(obj["order"]),
            None if square is None else read_square(square),
            str(obj["facing"]),
            int(obj["hp"]),
            [(str(s), int(d), int(t)) for s, d, t in obj.get("mods", [])],
            obj.get("died"),
        )


@dataclass
class Grave:
    seat: str
    unit: str
    returns: int  # the game turn whose owner's activation brings the unit back


@dataclass
class ApeironState:
    game_id: str
    pack: Pack
    options: dict[str, Any]
    field: dict[int, Slot | None]
    step: str = DECK
    steps: int = 0  # framework steps opened
    open: bool = False
    decks: dict[str, dict[str, list[str]]] = dc_field(default_factory=dict)
    chest: dict[str, list[str]] = dc_field(default_factory=dict)  # draw order (secret)
    units: dict[str, list[UnitState]] = dc_field(default_factory=dict)  # by action order
    objects: dict[Square, str] = dc_field(default_factory=dict)
    graves: dict[Square, Grave] = dc_field(default_factory=dict)
    revealed: bool = False
    turn: int = 0  # game turn
    first: str | None = None
    active: str | None = None  # the seat whose activation is open (or last was)
    acting: int | None = None  # the acting unit's order number
    half: int = 0  # activations done in this game turn (0 or 1 before the next opens)
    marker: dict[str, int] = dc_field(default_factory=lambda: {"A": 1, "B": 1})
    gravity: bool = False  # the acting unit started on a gravity panel
    chance_used: dict[str, bool] = dc_field(default_factory=lambda: {"A": False, "B": False})
    extra: dict[str, int | None] = dc_field(default_factory=lambda: {"A": None, "B": None})
    extra_hit: dict[str, bool] = dc_field(default_factory=lambda: {"A": False, "B": False})
    # a side zone holds one card: {"card": id, "owner": seat who put it there} (None: empty)
    side: dict[str, dict[str, str] | None] = dc_field(
        default_factory=lambda: {"A": None, "B": None}
    )
    last: dict[str, int] = dc_field(default_factory=lambda: {"A": 0, "B": 0})  # last acted order
    # the follow-up step open inside an activation: a drawn item to place, or an effect whose
    # targets are chosen one piece at a time (``option``)
    pick: dict[str, Any] | None = None
    pending_move: dict[str, Any] | None = None  # an action-first order's move, still to walk
    # what the last activation did, for the board to draw: its own moves (start square first)
    # and its attacks (from, to); kept through its follow-up steps, replaced by the next one
    trail: dict[str, Any] | None = None
    # the next activation was opened at the end of the last resolve (see :func:`.rules.resolve`)
    ahead: bool = False
    ended: str | None = None
    winner: str | None = None


# --- small reads ---------------------------------------------------------------------------------


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def read_square(text: str) -> Square:
    square = fld.parse_square(str(text))
    if square is None:
        raise StateError("apeiron.state.invalid", reason=f"square {text!r}")
    return square


def unit_card(state: ApeironState, unit: UnitState) -> packlib.Unit:
    return state.pack.units[unit.id]


def living(state: ApeironState, seat: str) -> list[UnitState]:
    return [u for u in state.units.get(seat, []) if u.alive]


def unit_at(state: ApeironState, square: Square) -> UnitState | None:
    for seat in SEATS:
        for unit in state.units.get(seat, []):
            if unit.square == square:
                return unit
    return None


def find(state: ApeironState, seat: str, order: int) -> UnitState:
    return next(u for u in state.units[seat] if u.order == order)


def off_field(state: ApeironState, square: Square) -> bool:
    return not fld.on_board(square) or state.field.get(fld.position(square)) is None


def kind_at(state: ApeironState, square: Square) -> str | None:
    slot = state.field.get(fld.position(square))
    return None if slot is None else slot.kind


def obstacle(state: ApeironState, square: Square) -> bool:
    return off_field(state, square) or state.objects.get(square) == "obstacle"


def occupied(state: ApeironState, square: Square) -> bool:
    """A unit or a grave stands there."""
    return unit_at(state, square) is not None or square in state.graves


# --- stats (read on the unit's square and panel when they are read) ------------------------------


def _passive(state: ApeironState, unit: UnitState, stat: str) -> list[packlib.Effect]:
    card = unit_card(state, unit)
    if unit.hp <= 0:
        return []  # passives do not work at 0 H
    here = kind_at(state, unit.square) if unit.square else None
    return [
        a.effect
        for a in card.abilities
        if a.timing == "passive" and a.effect.stat == stat and a.when in (None, here)
    ]


def power(state: ApeironState, unit: UnitState) -> int:
    value = unit_card(state, unit).power
    value += sum(e.delta or 0 for e in _passive(state, unit, "power"))
    value += sum(d for s, d, t in unit.mods if s == "power" and t >= state.turn)
    return max(value, 0)


def attack_range(state: ApeironState, unit: UnitState) -> int:
    card = unit_card(state, unit)
    value = card.range
    if value < 2:
        return 1  # contact units stay contact units
    value += sum(e.delta or 0 for e in _passive(state, unit, "range"))
    value += sum(d for s, d, t in unit.mods if s == "range" and t >= state.turn)
    return max(value, 2)


def on_gravity(state: ApeironState, unit: UnitState) -> bool:
    """Gravity is a standing state of every unit on a gravity panel (M 1, no flying while it is
    there), not of the acting unit alone: a unit pushed or pulled onto the panel, or whose move
    ends there, is grounded on arrival (so the final square's poison or bomb applies to a flier).
    The acting unit's reading at its activation's start (``state.gravity``) holds for its move."""
    if state.gravity and unit.seat == state.active and unit.order == state.acting:
        return True
    return unit.square is not None and kind_at(state, unit.square) == "gravity"


def move_points(state: ApeironState, unit: UnitState) -> int:
    if on_gravity(state, unit):
        return 1
    value = unit_card(state, unit).move
    value += sum(e.delta or 0 for e in _passive(state, unit, "move"))
    value += sum(d for s, d, t in unit.mods if s == "move" and t >= state.turn)
    return max(value, 1)


def flying(state: ApeironState, unit: UnitState) -> bool:
    if on_gravity(state, unit):
        return False
    value = unit_card(state, unit).flying
    for effect in _passive(state, unit, "flying"):
        value = bool(effect.value)
    for stat, delta, last in unit.mods:
        if stat == "flying" and last >= state.turn:
            value = bool(delta)
    return value


# --- the activation, the side zones, the chest ---------------------------------------------------


def acting_unit(state: ApeironState) -> UnitState:
    assert state.active is not None and state.acting is not None
    return find(state, state.active, state.acting)


def poisoned(state: ApeironState, square: Square) -> bool:
    return state.objects.get(square) == "poison" or kind_at(state, square) == "poison"


def star_ability(state: ApeironState, unit: UnitState, index: int) -> packlib.Ability:
    stars = [a for a in unit_card(state, unit).abilities if a.timing == "star"]
    if not 1 <= index <= len(stars):
        raise OrderRejected(R_NO_ABILITY, unit=unit.id)
    return stars[index - 1]


def zone_item(state: ApeironState, seat: str) -> packlib.ChestCard:
    zone = state.side[seat]
    card = None if zone is None else state.pack.chest.get(zone["card"])
    if card is None or card.kind != "item" or card.effect is None:
        raise OrderRejected(R_NO_ITEM)
    return card


def all_units(state: ApeironState) -> list[UnitState]:
    units = [u for s in SEATS for u in living(state, s)]
    return sorted(units, key=lambda u: (u.square[1], u.square[0]))  # type: ignore[index]


def zone_open(state: ApeironState, placer: str, zone_seat: str) -> bool:
    """A new card replaces the zone's old one, except over the opponent's special unit in the
    opponent's zone (in the own zone anything may be replaced)."""
    held = state.side[zone_seat]
    if placer == zone_seat or held is None:
        return True
    return not (held["card"] in state.pack.specials and held["owner"] == zone_seat)
