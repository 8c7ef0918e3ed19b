"""Apeiron's targets: what an attack may hit and what an effect may aim at, read on the board
as it stands.

An effect's targets are chosen as a list of tokens, one piece at a time: a unit's square
(``enemy``/``ally``/``unit``), ``count`` squares (``place``) or one (``remove``), a panel ``P4``
then, by effect, ``cw``/``ccw`` (rotate), a destination panel (move_panel) or a kind (change into
"choice"). :func:`pieces` lists the legal tokens for the next piece; typed orders (``ability D6
E6``), the event option step and the buttons all go through it.

These reads sit below both :mod:`.effects` (an attack finds its victim, an event its options, an
effect whom it hits) and :mod:`.legality` (an order's targets are checked against them), which
itself plays an order's earlier parts with the effects: so neither holds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.squaregrid import label
from bot.ruleset import OrderRejected
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.field import Slot, Square
from cogs.apeiron.state import (
    OBJECT_CAP,
    R_LINE,
    R_OUT_OF_RANGE,
    R_TARGET,
    TREASURE_CAP,
    ApeironState,
    UnitState,
    all_units,
    attack_range,
    kind_at,
    obstacle,
    occupied,
    off_field,
    read_square,
    unit_at,
)

# --- an attack's victim --------------------------------------------------------------------------


def attack_victim(state: ApeironState, attacker: UnitState, target: Square) -> UnitState:
    """The unit ``attacker`` may attack on ``target`` (refusal otherwise)."""
    assert attacker.square is not None
    victim = unit_at(state, target)
    if victim is None or victim is attacker:
        raise OrderRejected(R_TARGET, square=label(target))
    if victim.seat == attacker.seat and kind_at(state, target) != "lawless":
        raise OrderRejected(R_TARGET, square=label(target))
    reach = attack_range(state, attacker)
    if reach == 1:
        if not fld.adjacent(attacker.square, target):
            raise OrderRejected(R_OUT_OF_RANGE, square=label(target))
        return victim
    if (
        fld.direction(attacker.square, target) is None
        or max(abs(attacker.square[0] - target[0]), abs(attacker.square[1] - target[1])) > reach
    ):
        raise OrderRejected(R_OUT_OF_RANGE, square=label(target))
    if any(obstacle(state, s) for s in fld.between(attacker.square, target)):
        raise OrderRejected(R_LINE, square=label(target))
    return victim


# --- an effect's targets, piece by piece ---------------------------------------------------------


def _reading(squares: Any) -> list[Square]:
    return sorted(squares, key=lambda s: (s[1], s[0]))


def _in_reach(state: ApeironState, actor: UnitState | None, reach: str, square: Square) -> bool:
    if off_field(state, square):
        return False
    if reach == "field":
        return True
    if actor is None or actor.square is None:
        return False
    here = actor.square
    if reach == "self":
        return square == here
    if reach == "adjacent":
        return fld.adjacent(here, square)
    if reach.startswith("range:"):
        return square != here and fld.within(here, square, int(reach[6:]))
    match = packlib.LINE.fullmatch(reach)
    assert match is not None
    if fld.direction(here, square) is None:
        return False
    distance = max(abs(here[0] - square[0]), abs(here[1] - square[1]))
    return distance <= int(match[1]) and not any(
        obstacle(state, s) for s in fld.between(here, square)
    )


def _hit(seat: str, unit: UnitState, hits: str) -> bool:
    if hits == "enemies":
        return unit.seat != seat
    if hits == "allies":
        return unit.seat == seat
    return True


def _chosen_ok(seat: str, actor: UnitState | None, unit: UnitState, target: str) -> bool:
    if unit is actor:
        return False
    if target == "enemy":
        return unit.seat != seat
    if target == "ally":
        return unit.seat == seat
    return True  # unit


def _free_for_object(state: ApeironState, square: Square) -> bool:
    return (
        not off_field(state, square) and not occupied(state, square) and square not in state.objects
    )


def _cap(kind: str) -> int:
    return TREASURE_CAP if kind == "treasure" else OBJECT_CAP


def _terrain_obstacle(state: ApeironState, square: Square) -> bool:
    """An obstacle of its panel's own layout (terrain, not a placed object)."""
    slot = state.field.get(fld.position(square))
    if slot is None or slot.kind != state.pack.panels[slot.panel].kind:
        return False  # a changed panel lost its layout's obstacles
    x0, y0 = fld.origin(fld.position(square))
    return fld.layout_at(state.pack, slot)[(square[0] - x0, square[1] - y0)] == "#"


def placed_count(state: ApeironState, kind: str) -> int:
    """Objects of a kind on the field, as the caps count them: every treasure (the forests'
    included, cap 4), and of the others those placed by effects (*ruling*: the panels' own
    obstacles are terrain, else a field of rocks would forbid every cactus)."""
    return sum(
        1
        for square, k in state.objects.items()
        if k == kind and not (k == "obstacle" and _terrain_obstacle(state, square))
    )


def _panel_reach(state: ApeironState, actor: UnitState | None, reach: str) -> list[int]:
    if reach == "field":
        candidates = list(fld.POSITIONS)
    elif actor is None or actor.square is None:
        return []
    else:
        here = fld.position(actor.square)
        candidates = [here] + (fld.panel_neighbours(here) if reach == "adjacent-panel" else [])
    return sorted(p for p in candidates if state.field.get(p) is not None)


def _kinds_for(state: ApeironState, pos: int, into: str | None) -> list[str]:
    """The kinds a change may give the panel at ``pos`` without breaking the 4 / 1 caps."""
    slot = state.field[pos]
    assert slot is not None
    options = [into] if into not in (None, "choice") else [k for k in packlib.KINDS if k != "arrow"]
    out = []
    for kind in options:
        assert kind is not None
        if into == "choice" and kind == slot.kind:
            continue  # a choice that changes nothing is not offered
        trial = dict(state.field)
        trial[pos] = Slot(slot.panel, kind, slot.rot)
        if fld.caps_ok(trial):
            out.append(kind)
    return out


def pieces(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    effect: packlib.Effect,
    args: Sequence[str],
) -> list[str] | None:
    """The legal tokens for the next piece of ``effect``'s targets after ``args``; None: the
    targets are complete; an empty list: nothing legal to choose."""
    n = len(args)
    if effect.target in ("self", "each"):
        return None
    if effect.target in ("enemy", "ally", "unit"):
        if n:
            return None
        return [
            label(u.square)  # type: ignore[arg-type]
            for u in all_units(state)
            if _chosen_ok(seat, actor, u, effect.target)
            and _in_reach(state, actor, effect.reach, u.square)  # type: ignore[arg-type]
        ]
    if effect.target == "square":
        squares = [
            s
            for s in _reading((x, y) for y in range(fld.SIZE) for x in range(fld.SIZE))
            if _in_reach(state, actor, effect.reach, s)
        ]
        if effect.effect == "remove":
            if n:
                return None
            return [label(s) for s in squares if state.objects.get(s) in effect.objects]
        kind = effect.object or "obstacle"
        free = [s for s in squares if _free_for_object(state, s)]
        room = _cap(kind) - placed_count(state, kind)
        need = min(effect.count or 1, max(room, 0), len(free))
        if need == 0:
            return []
        if n >= need:
            return None
        return [label(s) for s in free if label(s) not in args]
    # a panel, then its parameter
    if n == 0:
        out = []
        for pos in _panel_reach(state, actor, effect.reach):
            if effect.effect == "change" and not _kinds_for(state, pos, effect.into):
                continue
            out.append(f"P{pos}")
        return out
    pos = int(args[0][1:])
    if effect.effect == "rotate":
        return ["cw", "ccw"] if n == 1 else None
    if effect.effect == "move_panel":
        return [f"P{p}" for p in fld.POSITIONS if p != pos] if n == 1 else None
    if effect.effect == "change" and effect.into == "choice":
        return _kinds_for(state, pos, "choice") if n == 1 else None
    return None


def usable(state: ApeironState, seat: str, actor: UnitState | None, effect: packlib.Effect) -> bool:
    """Whether the effect can fire at all (something to aim at; an actor where it needs one)."""
    needs_actor = effect.effect != "summon" and (
        effect.target == "self" or effect.reach not in ("field",)
    )
    if needs_actor and (actor is None or not actor.alive):
        return False
    if effect.effect == "summon":
        return True
    return pieces(state, seat, actor, effect, []) != []


# --- whom an effect hits -------------------------------------------------------------------------


def unit_targets(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    effect: packlib.Effect,
    args: Sequence[str],
) -> list[UnitState]:
    if effect.target == "self":
        return [actor] if actor is not None and actor.alive else []
    if effect.target == "each":
        # every unit of ``hits`` within reach; the actor is never among its own ``each``
        return [
            u
            for u in all_units(state)
            if u is not actor
            and _hit(seat, u, effect.hits)
            and _in_reach(state, actor, effect.reach, u.square)  # type: ignore[arg-type]
        ]
    centre = read_square(args[0])
    chosen = unit_at(state, centre)
    if effect.area and effect.effect in ("damage", "heal"):
        return [
            u
            for u in all_units(state)
            if _hit(seat, u, effect.hits) and fld.within(centre, u.square, effect.area)  # type: ignore[arg-type]
        ]
    return [chosen] if chosen is not None else []
