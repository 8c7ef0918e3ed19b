"""Apeiron's effects: what happens on the board once an order is accepted.

An activation opens (graves return, a special unit fires at its owner's round start, gravity is
read, start abilities fire) and ends (a unit at 0 H is removed, end abilities, the marker, the
extra-turn count, annihilation and the turn limit); between them the actions (attacks with back
attacks and the lawless panels' strike back, ★ abilities and items, treasure and chance draws),
the effect catalogue (:func:`_apply`: damage, heal, push, pull, place, remove, stat, panel
rotate/move/change/remove, summon), the chest's events and items with their follow-up steps
(``option``, ``place``), moves (poison, bombs, arrows, a flier grounded by gravity), damage and
death.

Each function is handed the state to change (the caller's copy) and the event list to add to.
It reads :mod:`.state`, :mod:`.orders` and :mod:`.targets`; :mod:`.legality` plays an order's
earlier parts with it on a copy, :mod:`.rules` on the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.render.squaregrid import label
from bot.ruleset import Event
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.field import Slot, Square
from cogs.apeiron.orders import Action, OptionOrder, PlaceOrder
from cogs.apeiron.state import (
    BOMB_DAMAGE,
    DEPLOY,
    OPTION,
    OVER,
    PLACE,
    PLAY,
    SEATS,
    ApeironState,
    Grave,
    UnitState,
    acting_unit,
    attack_range,
    find,
    flying,
    kind_at,
    living,
    obstacle,
    occupied,
    off_field,
    other,
    poisoned,
    power,
    read_square,
    star_ability,
    unit_at,
    unit_card,
    zone_item,
    zone_open,
)
from cogs.apeiron.targets import attack_victim, pieces, unit_targets, usable

# --- an activation opens -------------------------------------------------------------------------


def _next_unit(state: ApeironState, seat: str) -> UnitState | None:
    """The unit at or after the marker (wrapping), skipping the dead."""
    units = sorted(state.units[seat], key=lambda u: u.order)
    count = len(units)
    start = state.marker[seat]
    for i in range(count):
        order = (start - 1 + i) % count + 1
        unit = find(state, seat, order)
        if unit.alive:
            return unit
    return None


def open_activation(state: ApeironState) -> list[Event]:
    """Whose activation, which unit; graves due return; a special unit fires at its owner's
    round start; gravity is read; start abilities fire. A unit its own start ability removes
    has had its activation: the next one opens."""
    events: list[Event] = []
    assert state.first is not None
    for _ in range(4 * len(SEATS) * (DEPLOY + 1)):
        if state.half == 0:
            state.turn += 1
            state.active = state.first
        else:
            state.active = other(state.first)
        seat = state.active
        events.append(Event("activation", {"seat": seat, "turn": state.turn}))
        events += _graves_return(state, seat)
        unit = _next_unit(state, seat)
        if unit is not None and (state.last[seat] == 0 or unit.order <= state.last[seat]):
            _round_start(state, seat, events)
            if annihilation(state, events):
                return events
            unit = _next_unit(state, seat)
        if unit is None:  # nothing left: the end check already ran; be safe
            state.acting = None
            return events
        state.acting = unit.order
        state.marker[seat] = unit.order
        assert unit.square is not None
        state.gravity = kind_at(state, unit.square) == "gravity"
        events.append(
            Event("acting", {"seat": seat, "unit": unit.id, "square": label(unit.square)})
        )
        _fire_timed(state, unit, "start", events)
        if state.ended is not None or annihilation(state, events):
            return events
        if unit.alive:
            return events
        end_activation(state, seat, events)
        if _over(state):  # (a helper: mypy has narrowed ``state.ended`` above)
            return events
    return events


def _over(state: ApeironState) -> bool:
    return state.ended is not None


def _graves_return(state: ApeironState, seat: str) -> list[Event]:
    events = []
    for square, grave in sorted(state.graves.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if grave.seat != seat or grave.returns > state.turn:
            continue
        del state.graves[square]
        unit = next(u for u in state.units[seat] if u.id == grave.unit)
        spot = square if not _blocked_for_return(state, square) else _nearest_free(state, square)
        if spot is None:
            continue
        unit.square, unit.hp, unit.died = spot, unit_card(state, unit).hp, None
        events.append(Event("returned", {"seat": seat, "unit": unit.id, "square": label(spot)}))
    return events


def _blocked_for_return(state: ApeironState, square: Square) -> bool:
    return off_field(state, square) or occupied(state, square) or obstacle(state, square)


def _nearest_free(state: ApeironState, start: Square) -> Square | None:
    candidates = [
        (abs(x - start[0]) + abs(y - start[1]), y, x)
        for y in range(fld.SIZE)
        for x in range(fld.SIZE)
        if not _blocked_for_return(state, (x, y))
    ]
    if not candidates:
        return None
    _, y, x = min(candidates)
    return x, y


# --- the effect catalogue ------------------------------------------------------------------------


def _apply(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    effect: packlib.Effect,
    args: Sequence[str],
    events: list[Event],
) -> None:
    """One effect of the catalogue, its targets already checked."""
    name = effect.effect
    if name in packlib.PANEL_EFFECTS:
        _panel_effect(state, effect, args, events)
        return
    if name == "place":
        for token in args:
            state.objects[read_square(token)] = effect.object or "obstacle"
        events.append(Event("placed", {"object": effect.object, "squares": list(args)}))
        return
    if name == "remove":
        for token in args:
            removed = state.objects.pop(read_square(token), None)
            events.append(Event("removed", {"object": removed, "square": token}))
        return
    if name == "summon":
        assert effect.special is not None
        _zone_put(state, seat, seat, effect.special, events)
        return
    targets = unit_targets(state, seat, actor, effect, args)
    if name in ("push", "pull"):
        assert actor is not None and actor.square is not None
        here = actor.square

        def distance(u: UnitState) -> int:
            assert u.square is not None
            return abs(u.square[0] - here[0]) + abs(u.square[1] - here[1])

        # the far one first when pushing, the near one first when pulling: nobody blocks a
        # unit of the same effect that would have moved out of the way
        targets.sort(key=distance, reverse=name == "push")
        for target in targets:
            if target.alive and actor.square is not None:
                _shove(state, actor, target, effect.steps or 1, name == "push", events)
        return
    for target in targets:
        if not target.alive:
            continue
        if name == "damage":
            _damage(state, target, effect.amount or 0, events, actor)
        elif name == "heal":
            _heal(state, target, effect.amount or 0, events)
        elif name == "stat":
            value = effect.delta if effect.stat != "flying" else int(bool(effect.value))
            assert effect.stat is not None and value is not None and effect.turns is not None
            target.mods.append((effect.stat, value, state.turn + effect.turns - 1))
            events.append(
                Event(
                    "stat",
                    {
                        "seat": target.seat,
                        "unit": target.id,
                        "stat": effect.stat,
                        "value": value,
                        "turns": effect.turns,
                    },
                )
            )


def _heal(state: ApeironState, unit: UnitState, amount: int, events: list[Event]) -> None:
    top = unit_card(state, unit).hp
    healed = max(min(unit.hp + amount, top) - unit.hp, 0)
    unit.hp += healed
    events.append(
        Event("heal", {"seat": unit.seat, "unit": unit.id, "amount": healed, "hp": unit.hp})
    )


def _shove(
    state: ApeironState,
    actor: UnitState,
    target: UnitState,
    steps: int,
    away: bool,
    events: list[Event],
) -> None:
    """Straight away from / toward the actor on their shared row or column; a unit, grave,
    obstacle or off-field square stops it on the last free square. Squares passed do nothing;
    the final square's poison, bomb or arrow applies (a unit not on the actor's row or column
    is not moved)."""
    assert actor.square is not None and target.square is not None
    facing = fld.direction(actor.square, target.square)
    if facing is None:
        return
    if not away:
        facing = fld.turn_facing(facing, 2)
    dx, dy = fld.STEP[facing]
    start = cur = target.square
    for _ in range(steps):
        nxt = (cur[0] + dx, cur[1] + dy)
        if off_field(state, nxt) or occupied(state, nxt) or obstacle(state, nxt):
            break
        cur = nxt
    if cur == start:
        return
    target.square = cur
    kind = "pushed" if away else "pulled"
    events.append(
        Event(
            kind, {"seat": target.seat, "unit": target.id, "from": label(start), "to": label(cur)}
        )
    )
    _land(state, target, events)


def _land(state: ApeironState, unit: UnitState, events: list[Event]) -> None:
    """A unit moved by an effect: the final square's arrow, poison and bomb (flying units:
    only the arrow)."""
    assert unit.square is not None
    end = unit.square
    forced = fld.arrow(state.pack, state.field, end)
    if forced is not None:
        unit.facing = forced
    if flying(state, unit):
        return
    if poisoned(state, end):
        _damage(state, unit, 1, events, None)
    if unit.alive and state.objects.get(end) == "bomb":
        del state.objects[end]
        events.append(Event("bomb", {"square": label(end)}))
        _damage(state, unit, BOMB_DAMAGE, events, None)


# --- panels on the live board --------------------------------------------------------------------


def _remap(state: ApeironState, mapping: Mapping[Square, Square], quarters: int) -> None:
    """Units, graves and objects go (and units turn) with their squares."""
    for seat in SEATS:
        for unit in state.units.get(seat, []):
            if unit.square is not None and unit.square in mapping:
                unit.square = mapping[unit.square]
                unit.facing = fld.turn_facing(unit.facing, quarters)
    state.graves = {mapping.get(s, s): g for s, g in state.graves.items()}
    state.objects = {mapping.get(s, s): k for s, k in state.objects.items()}


def _panel_effect(
    state: ApeironState, effect: packlib.Effect, args: Sequence[str], events: list[Event]
) -> None:
    pos = int(args[0][1:])
    slot = state.field[pos]
    assert slot is not None
    squares = fld.squares_of(pos)
    x0, y0 = fld.origin(pos)
    if effect.effect == "rotate":
        quarters = (effect.quarters or 1) if args[1] == "cw" else (4 - (effect.quarters or 1)) % 4
        mapping = {}
        for sq in squares:
            x, y = fld.rotate_local((sq[0] - x0, sq[1] - y0), quarters)
            mapping[sq] = (x0 + x, y0 + y)
        _remap(state, mapping, quarters)
        state.field[pos] = Slot(slot.panel, slot.kind, (slot.rot + 90 * quarters) % 360)
        events.append(
            Event("panel_rotated", {"pos": pos, "direction": args[1], "quarters": effect.quarters})
        )
    elif effect.effect == "move_panel":
        dest = int(args[1][1:])
        d0 = fld.origin(dest)
        mapping = {}
        for sq in squares:
            mapping[sq] = (d0[0] + sq[0] - x0, d0[1] + sq[1] - y0)
            mapping[mapping[sq]] = sq
        _remap(state, mapping, 0)
        state.field[pos], state.field[dest] = state.field[dest], slot
        events.append(Event("panel_moved", {"from": pos, "to": dest}))
    elif effect.effect == "change":
        into = args[1] if effect.into == "choice" else effect.into
        assert into is not None
        state.field[pos] = Slot(slot.panel, into, slot.rot)
        # all its obstacles go, other objects stay (no new layout)
        for sq in squares:
            if state.objects.get(sq) == "obstacle":
                del state.objects[sq]
        events.append(Event("panel_changed", {"pos": pos, "kind": into}))
    else:  # remove_panel
        events.append(Event("panel_removed", {"pos": pos}))
        for sq in squares:
            victim = unit_at(state, sq)
            if victim is not None:
                _dies(state, victim, events, grave=False)
            state.graves.pop(sq, None)
            state.objects.pop(sq, None)
        state.field[pos] = None


# --- chest, side zones, special units ------------------------------------------------------------


def _zone_put(
    state: ApeironState, placer: str, zone_seat: str, card: str, events: list[Event]
) -> None:
    held = state.side[zone_seat]
    state.side[zone_seat] = {"card": card, "owner": placer}
    events.append(
        Event(
            "zone",
            {
                "seat": placer,
                "zone": zone_seat,
                "card": card,
                "replaced": None if held is None else held["card"],
            },
        )
    )


def _draw(state: ApeironState, seat: str, unit: UnitState, via: str, events: list[Event]) -> None:
    card_id = state.chest[seat].pop(0)
    events.append(
        Event("drawn", {"seat": seat, "card": card_id, "via": via, "left": len(state.chest[seat])})
    )
    card = state.pack.chest[card_id]
    if card.kind == "item":
        state.pick = {"kind": "place", "seat": seat, "card": card_id}
        state.step = PLACE
        return
    _fire_event(state, seat, unit, card, events)


def _fire_event(
    state: ApeironState,
    seat: str,
    unit: UnitState,
    card: packlib.ChestCard,
    events: list[Event],
) -> None:
    """An event acts at once; a choice it needs opens the ``option`` step."""
    actor = unit if unit.alive else None
    here = kind_at(state, unit.square) if unit.square is not None else None
    if card.when is not None and here != card.when:
        events.append(Event("fizzled", {"seat": seat, "card": card.id}))
        return
    if card.options:
        if not any(usable(state, seat, actor, e) for e in card.options):
            events.append(Event("fizzled", {"seat": seat, "card": card.id}))
            return
        state.pick = {"kind": "option", "seat": seat, "card": card.id, "opt": None, "args": []}
        state.step = OPTION
        return
    assert card.effect is not None
    _start_effect(state, seat, actor, card.id, 0, card.effect, events)


def _start_effect(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    card: str,
    opt: int,
    effect: packlib.Effect,
    events: list[Event],
) -> None:
    if not usable(state, seat, actor, effect):
        events.append(Event("fizzled", {"seat": seat, "card": card}))
        return
    if pieces(state, seat, actor, effect, []) is None:
        _apply(state, seat, actor, effect, [], events)
        return
    state.pick = {"kind": "option", "seat": seat, "card": card, "opt": opt, "args": []}
    state.step = OPTION


def _pick_effect(state: ApeironState) -> packlib.Effect | None:
    pick = state.pick
    assert pick is not None and pick["kind"] == "option"
    card = state.pack.chest[pick["card"]]
    if pick["opt"] is None:
        return None
    return card.options[pick["opt"]] if card.options else card.effect


def option_list(state: ApeironState) -> list[str]:
    """The ``option`` step's numbered list: the card's usable options (``1``, ``2`` …), then the
    legal tokens of each piece of its targets in turn."""
    pick = state.pick
    if pick is None or pick["kind"] != "option":
        return []
    actor = _actor_of_pick(state)
    effect = _pick_effect(state)
    if effect is None:
        card = state.pack.chest[pick["card"]]
        return [
            str(i + 1) for i, e in enumerate(card.options) if usable(state, pick["seat"], actor, e)
        ]
    return pieces(state, pick["seat"], actor, effect, pick["args"]) or []


def _actor_of_pick(state: ApeironState) -> UnitState | None:
    unit = acting_unit(state)
    return unit if unit.alive else None


def resolve_option(state: ApeironState, order: OptionOrder, events: list[Event]) -> None:
    pick = state.pick
    assert pick is not None
    token = option_list(state)[order.number - 1]
    actor = _actor_of_pick(state)
    seat = pick["seat"]
    events.append(Event("option", {"seat": seat, "card": pick["card"], "choice": token}))
    if pick["opt"] is None:
        opt = int(token) - 1
        state.pick = None
        card = state.pack.chest[pick["card"]]
        _start_effect(state, seat, actor, card.id, opt, card.options[opt], events)
        return
    pick["args"] = [*pick["args"], token]
    effect = _pick_effect(state)
    assert effect is not None
    if pieces(state, seat, actor, effect, pick["args"]) is None:
        state.pick = None
        _apply(state, seat, actor, effect, pick["args"], events)


def resolve_place(state: ApeironState, order: PlaceOrder, events: list[Event]) -> None:
    pick = state.pick
    assert pick is not None
    seat, card = pick["seat"], pick["card"]
    state.pick = None
    if order.where == "discard" or (
        order.where == "opponent" and not zone_open(state, seat, other(seat))
    ):
        events.append(Event("discarded", {"seat": seat, "card": card}))
        return
    _zone_put(state, seat, seat if order.where == "own" else other(seat), card, events)


def _round_start(state: ApeironState, seat: str, events: list[Event]) -> None:
    """A special unit in the seat's zone fires when the seat's round starts."""
    held = state.side[seat]
    if held is None or held["card"] not in state.pack.specials:
        return
    special = state.pack.specials[held["card"]]
    events.append(Event("special", {"seat": seat, "card": special.id}))
    _apply(state, seat, None, special.effect, [], events)


def _fire_timed(state: ApeironState, unit: UnitState, timing: str, events: list[Event]) -> None:
    """Start (行動開始時) or end (行動終了時) abilities: self or each, nothing chosen."""
    for ability in unit_card(state, unit).abilities:
        if ability.timing != timing or not unit.alive or state.ended is not None:
            continue
        assert unit.square is not None
        if ability.when is not None and kind_at(state, unit.square) != ability.when:
            continue
        events.append(Event("ability", {"seat": unit.seat, "unit": unit.id, "timing": timing}))
        _apply(state, unit.seat, unit, ability.effect, [], events)


# --- actions -------------------------------------------------------------------------------------


def do_action(
    state: ApeironState,
    seat: str,
    unit: UnitState,
    action: Action,
    events: list[Event],
    *,
    trial_run: bool = False,
) -> None:
    """The action, checked already. ``trial_run``: a draw only takes its treasure (the card is
    secret, so an order is never checked against it)."""
    assert unit.square is not None
    if action.kind == "attack":
        _attack(state, unit, action.target, events)
    elif action.kind == "ability":
        ability = star_ability(state, unit, action.index)
        unit.hp = max(unit.hp - ability.cost, 0)  # paid first; 0 H: removed at activation end
        events.append(
            Event(
                "ability",
                {
                    "seat": seat,
                    "unit": unit.id,
                    "timing": "star",
                    "cost": ability.cost,
                    "hp": unit.hp,
                    "args": list(action.args),
                },
            )
        )
        _apply(state, seat, unit, ability.effect, action.args, events)
    elif action.kind == "item":
        card = zone_item(state, seat)
        state.side[seat] = None
        events.append(
            Event(
                "item", {"seat": seat, "unit": unit.id, "card": card.id, "args": list(action.args)}
            )
        )
        assert card.effect is not None
        _apply(state, seat, unit, card.effect, action.args, events)
    elif action.kind == "treasure":
        del state.objects[unit.square]
        if not trial_run:
            _draw(state, seat, unit, "treasure", events)
    elif action.kind == "chance":
        state.chance_used[seat] = True
        if not trial_run:
            _draw(state, seat, unit, "chance", events)


def _attack(state: ApeironState, attacker: UnitState, target: Square, events: list[Event]) -> None:
    victim = attack_victim(state, attacker, target)
    assert attacker.square is not None and victim.square is not None
    contact = attack_range(state, attacker) == 1
    back = contact and fld.behind(victim.square, victim.facing) == attacker.square
    amount = power(state, attacker) + int(back)
    if state.trail is not None:
        state.trail["attacks"].append([label(attacker.square), label(target)])
    events.append(
        Event(
            "attack",
            {
                "seat": attacker.seat,
                "unit": attacker.id,
                "from": label(attacker.square),
                "target": label(target),
                "victim": victim.id,
                "back": back,
            },
        )
    )
    _damage(state, victim, amount, events, attacker)
    # lawless panel: a unit that survives a contact attack strikes back for 1
    if (
        contact
        and victim.alive
        and attacker.alive
        and kind_at(state, victim.square) == "lawless"
        and _in_attack_range(state, victim, attacker)
    ):
        events.append(
            Event(
                "strike_back",
                {"seat": victim.seat, "unit": victim.id, "target": label(attacker.square)},
            )
        )
        _damage(state, attacker, 1, events, victim)


def _in_attack_range(state: ApeironState, unit: UnitState, other_unit: UnitState) -> bool:
    assert unit.square is not None and other_unit.square is not None
    reach = attack_range(state, unit)
    if reach == 1:
        return fld.adjacent(unit.square, other_unit.square)
    if fld.direction(unit.square, other_unit.square) is None:
        return False
    distance = max(
        abs(unit.square[0] - other_unit.square[0]), abs(unit.square[1] - other_unit.square[1])
    )
    return distance <= reach and not any(
        obstacle(state, s) for s in fld.between(unit.square, other_unit.square)
    )


# --- moves, damage and death ---------------------------------------------------------------------


def _damage(
    state: ApeironState, victim: UnitState, amount: int, events: list[Event], by: UnitState | None
) -> None:
    if amount <= 0 or not victim.alive:
        return
    victim.hp = max(victim.hp - amount, 0)
    events.append(
        Event("damage", {"seat": victim.seat, "unit": victim.id, "amount": amount, "hp": victim.hp})
    )
    if by is not None and by.seat != victim.seat and living(state, by.seat) == [by]:
        # only the last remaining unit's damage resets the extra-turn count (End): damage its
        # side dealt before it dropped to one unit, even in the same activation, does not
        state.extra_hit[by.seat] = True
    if victim.hp == 0:
        _dies(state, victim, events)


def _dies(
    state: ApeironState, victim: UnitState, events: list[Event], *, grave: bool = True
) -> None:
    assert victim.square is not None
    square = victim.square
    victim.square, victim.hp, victim.died, victim.mods = None, 0, state.turn, []
    turns = unit_card(state, victim).grave_turns
    if grave and turns:
        state.graves[square] = Grave(victim.seat, victim.id, state.turn + turns)
    events.append(
        Event(
            "death",
            {
                "seat": victim.seat,
                "unit": victim.id,
                "square": label(square),
                "grave": bool(grave and turns),
            },
        )
    )


def flying_at_end(state: ApeironState, unit: UnitState, end: Square) -> bool:
    """Whether ``unit``, flying as it starts its move, is still flying where the move ends (a
    gravity panel grounds it there); the demo AI reads it too."""
    return flying(state, unit) and kind_at(state, end) != "gravity"


def walk_path(
    state: ApeironState,
    unit: UnitState,
    path: Sequence[Square],
    facing: str | None,
    events: list[Event],
) -> None:
    assert unit.square is not None
    start = unit.square
    flies = flying(state, unit)
    end = path[-1] if path else start
    # a flier whose move ends on a gravity panel is grounded there: the end square's poison and
    # bomb apply to it (the squares it passed over do nothing)
    lands_flying = flying_at_end(state, unit, end)
    poison = sum(
        1
        for i, square in enumerate(path)
        if not (lands_flying if i == len(path) - 1 else flies) and poisoned(state, square)
    )
    unit.square = end
    if state.trail is not None and path:
        state.trail["moves"].append([label(start), *(label(s) for s in path)])
    new_facing = fld.arrow(state.pack, state.field, end) or facing or unit.facing
    unit.facing = new_facing
    events.append(
        Event(
            "move",
            {
                "seat": unit.seat,
                "unit": unit.id,
                "from": label(start),
                "to": label(end),
                "path": [label(s) for s in path],
                "facing": new_facing,
            },
        )
    )
    if poison:
        _damage(state, unit, poison, events, None)
    if unit.alive and not lands_flying and path and state.objects.get(end) == "bomb":
        del state.objects[end]
        events.append(Event("bomb", {"square": label(end)}))
        _damage(state, unit, BOMB_DAMAGE, events, None)


# --- an activation's end, and the game's ---------------------------------------------------------


def end_activation(state: ApeironState, seat: str, events: list[Event]) -> None:
    unit = acting_unit(state)
    state.step, state.pick, state.pending_move = PLAY, None, None
    if unit.alive and unit.hp <= 0:
        _dies(state, unit, events)  # brought to 0 by a cost: removed now
    elif unit.alive:
        _fire_timed(state, unit, "end", events)
    state.last[seat] = unit.order
    # the marker moves past the acting unit
    count = len(state.units[seat])
    state.marker[seat] = unit.order % count + 1
    state.gravity = False
    state.half = 1 - state.half
    if annihilation(state, events):
        return
    _extra_turn(state, seat, events)
    if state.ended is None and state.half == 0:
        limit = state.options.get("turn_limit")
        if limit is not None and state.turn >= int(limit):
            tie_break(state, "turn_limit", events)


def annihilation(state: ApeironState, events: list[Event]) -> bool:
    empty = [s for s in SEATS if not living(state, s)]
    if not empty:
        return False
    if len(empty) == 2:
        tie_break(state, "annihilation", events)
    else:
        finish(state, other(empty[0]), "annihilation", events)
    return True


def _extra_turn(state: ApeironState, seat: str, events: list[Event]) -> None:
    """``extra[s]``: the game turn that is count turn 1 for seat ``s`` (None: no count). The game
    turn a player drops to one unit is count turn 1; damage that unit deals to an enemy makes the
    next game turn count turn 1; at the end of its activation in count turn 3 its player loses."""
    for s in SEATS:
        if len(living(state, s)) != 1:
            state.extra[s] = None
            state.extra_hit[s] = False
            continue
        if state.extra[s] is None:
            state.extra[s] = state.turn
            events.append(Event("extra_turn", {"seat": s, "count": 1}))
        if state.extra_hit[s]:
            state.extra_hit[s] = False
            state.extra[s] = state.turn + 1
            events.append(Event("extra_turn_reset", {"seat": s}))
    base = state.extra[seat]
    if base is not None and state.turn - base + 1 >= 3:
        events.append(Event("extra_turn_lost", {"seat": seat}))
        finish(state, other(seat), "extra_turn", events)


def extra_count(state: ApeironState, seat: str) -> int | None:
    """The seat's extra-turn count turn now (None: no count running)."""
    base = state.extra[seat]
    return None if base is None else max(state.turn - base + 1, 1)


def tie_break(state: ApeironState, reason: str, events: list[Event]) -> None:
    """More surviving units, then more total H, then the first player."""
    alive = {s: len(living(state, s)) for s in SEATS}
    hp = {s: sum(u.hp for u in living(state, s)) for s in SEATS}
    if alive["A"] != alive["B"]:
        winner, by = max(SEATS, key=alive.__getitem__), "units"
    elif hp["A"] != hp["B"]:
        winner, by = max(SEATS, key=hp.__getitem__), "hp"
    else:
        winner, by = state.first or "A", "first"
    events.append(Event("tie_break", {"units": alive, "hp": hp, "by": by, "seat": winner}))
    finish(state, winner, reason, events)


def finish(state: ApeironState, winner: str, reason: str, events: list[Event]) -> None:
    state.ended, state.winner, state.step, state.open = reason, winner, OVER, False
    events.append(Event("chests_revealed", {s: list(state.chest.get(s, [])) for s in SEATS}))
    events.append(Event("end", {"seat": winner, "reason": reason}))
