"""Esper war: the normal turns, the planet stage's end and the game's
(``../shared/rules/esper.md``).

A seat's normal turn, on the planets and in the base alike: its check phase, its supports and main
action, the square under its piece, what it planned after the square and ``end`` or ``fight``; the
sub-steps it may open (``direction``, the base's ``path``, ``party``, ``after``, a declaration's
``objection``); then the next turn, or an end: the planet stage's (``see``, then the secret
base) or the game's, with its grades.

A turn starts combats and the stage's end lays the base; both hand the game back here. A combat
is over when ``state.combat`` is None again after one of its calls, and :func:`after_combat`
ends the turn that started it; the base's set-up says when the pieces are in, and the first turn
opens. Neither :mod:`.combat` nor :mod:`.base` knows of turns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.ruleset import Event, OrderRejected
from cogs.esper import base as base_stage
from cogs.esper import combat as combats
from cogs.esper import combat_play
from cogs.esper.effects import (
    card_effect,
    do_support,
    open_sheet,
    place,
    recover,
    skip,
    use,
)
from cogs.esper.orders import (
    ENDS,
    check_action,
    is_check_use,
    is_main,
    move_target,
    parse_action,
    tokens,
)
from cogs.esper.state import (
    AFTER,
    ALL_DOWN,
    BASE_STAGE,
    DECLARED,
    DEFENDER,
    DIRECTION,
    EVIL,
    EVIL_SURVIVAL,
    EVIL_SURVIVAL_TURNS,
    GOOD,
    INFO_TO_END,
    INVADER,
    KEYS_DESTROYED,
    OBJECTION,
    OVER,
    PARTY,
    PLANET_STAGE,
    R_FIGHT,
    R_FIGHT_ALONE,
    RAFNOR,
    SEE,
    SOLO,
    TURN,
    TURN_LIMIT,
    Action,
    EsperOrder,
    EsperState,
    abilities_of,
    can_act,
    card_spots,
    living,
    party_info,
    ring,
    secret_of,
    sheet_of,
    side_of,
    sides,
    spot_name,
)

# --- a normal turn -------------------------------------------------------------------------------


def open_turn(state: EsperState, seat: str, events: list[Event]) -> None:
    """The seat's normal turn opens: its check phase, then the ``turn`` step."""
    state.active, state.step, state.waiting = seat, TURN, [seat]
    state.pending = {}
    s = state.seats[seat]
    s.used = []
    events.append(Event("turn", {"seat": seat, "turn": state.turn + 1}))
    # Nothing fires by itself in the check phase: a [check] ability is used only when its
    # holder orders it (an unordered use would name the sheet and spend its mind unasked).


def run_turn(
    state: EsperState, seat: str, actions: list[Action], dice: Dice, events: list[Event]
) -> None:
    checks = state.pending.get("checked") is None
    state.pending["checked"] = True  # the check phase is over, whatever the order holds
    while checks and actions and is_check_use(state, seat, actions[0]):
        _support(state, seat, actions.pop(0), TURN, dice, events)
        if not state.seats[seat].alive:
            next_turn(state, dice, events)
            return
    if checks and not actions:
        state.step, state.waiting = TURN, [seat]  # the rest of the turn is ordered next
        return
    while actions:
        action = actions.pop(0)
        if is_main(state, seat, action):
            if not _valid(state, seat, action, events, main=True):
                action = Action("pass")
            state.pending["after"] = [a.text() for a in actions]
            _do_main(state, seat, action, dice, events)
            return
        stopped = _support(state, seat, action, TURN, dice, events)
        if stopped == "dead":
            next_turn(state, dice, events)
        if stopped:
            return


def _support(
    state: EsperState, seat: str, action: Action, resume: str, dice: Dice, events: list[Event]
) -> str | None:
    """One support action when its time comes: None to go on, ``"declared"`` (answers are due,
    then play resumes at ``resume``) or ``"dead"`` (the turn is over)."""
    if not _valid(state, seat, action, events, main=False):
        return None
    if action.verb in ("declare", "declare-solo"):
        _declare(state, seat, action.verb == "declare-solo", resume, events)
        return "declared"
    do_support(state, seat, action, dice, events)
    return None if state.seats[seat].alive else "dead"


def _valid(
    state: EsperState, seat: str, action: Action, events: list[Event], *, main: bool
) -> bool:
    """Check an action when its time comes (earlier ones may have changed the spot); one that
    no longer holds is skipped with a public line."""
    try:
        check_action(state, seat, action, main=main)
    except OrderRejected as error:
        skip(state, seat, action, error.key, events, error.params)
        return False
    return True


def _do_main(state: EsperState, seat: str, action: Action, dice: Dice, events: list[Event]) -> None:
    verb, args = action.verb, action.args
    state.pending["main"] = verb
    if state.stage == BASE_STAGE and verb == "move":
        place(state, seat, base_stage.move_target(state, seat, args[0]), "move", events)
    elif state.stage == BASE_STAGE and verb == "teleport":
        if base_stage.teleport(state, seat, args, dice, events):
            return  # the path is asked for
    elif verb == "infiltrate":
        base_stage.infiltrate(state, seat, args, dice, events)
    elif verb == "move":
        place(state, seat, move_target(state, seat, args[0]), "move", events)
    elif verb == "teleport":
        n = int(args[0])
        roll = dice.roll(6)
        ok = roll < n
        events.append(Event("teleport", {"seat": seat, "level": n, "roll": roll, "success": ok}))
        if ok:
            state.pending["distance"] = roll
            if len(args) == 2:
                teleport_land(state, seat, args[1], events)
            else:
                state.step, state.waiting = DIRECTION, [seat]
                return
    elif verb == "recover":
        recover(state, seat, args[0], 1, events)
    elif verb == "treat":
        recover(state, args[0], "durability", 1, events)
        events.append(Event("treated", {"seat": seat, "target": args[0]}))
    elif verb == "party":
        events.append(Event("party_proposed", {"seat": seat, "named": list(args)}))
        state.pending["party"] = list(args)
        state.step, state.waiting = PARTY, list(args)
        return
    elif verb == "use":
        ability = abilities_of(state, seat)[args[0]]
        use(state, seat, ability, args[1] if len(args) > 1 else None, dice, events)
    else:
        events.append(Event("passed", {"seat": seat}))
    square_then_after(state, seat, dice, events)


def teleport_land(state: EsperState, seat: str, direction: str, events: list[Event]) -> None:
    spot = state.seats[seat].spot or ""
    planet, index = ring(spot) or (0, 0)
    distance = int(state.pending.pop("distance", 0))
    step = distance if direction == "right" else -distance
    place(state, seat, spot_name(planet, index + step), "teleport", events)


def square_then_after(state: EsperState, seat: str, dice: Dice, events: list[Event]) -> None:
    """The square effect, then what the order planned after it (or the ``after`` step)."""
    if state.seats[seat].alive:
        _square(state, seat, dice, events)
    if state.combat is not None:
        return  # the ambush: a combat first; the turn ends after it
    if not state.seats[seat].alive or state.seats[seat].black_hole or state.ended:
        if state.ended is None:
            next_turn(state, dice, events)
        return
    planned = state.pending.pop("after", [])
    actions = [parse_action(state, seat, tokens(text)) for text in planned]
    run_after(state, seat, actions, dice, events)


def _square(state: EsperState, seat: str, dice: Dice, events: list[Event]) -> None:
    s = state.seats[seat]
    spot = s.spot
    if state.stage == BASE_STAGE:
        base_stage.square(state, seat, events)
        return
    if spot is None or spot.endswith("-0"):
        return
    if spot == state.ambush and not state.ambush_revealed:
        state.ambush_revealed = True
        state.face_up.append(spot)
        state.spent.append(spot)
        events.append(Event("ambush", {"seat": seat, "spot": spot, "runner": state.ambush_runner}))
        runner = state.ambush_runner
        if runner is not None and state.seats[runner].alive and not state.seats[runner].resigned:
            start_combat(state, seat, spot, "ambush", dice, events, runner=runner)
        return
    if spot == RAFNOR:
        card_id, spent = state.rafnor, state.rafnor_up and RAFNOR in state.spent
        if card_id is None or spent:
            return
        state.rafnor_up = True
    else:
        card_id = state.planets.get(spot)
        if card_id is None or spot in state.spent:
            return
        if spot not in state.face_up:
            state.face_up.append(spot)
    card = state.pack.planets[card_id]
    events.append(Event("square", {"seat": seat, "spot": spot, "card": card_id}))
    card_effect(state, seat, spot, card.effect, card.n, events)
    if card.once or card.effect == "info":
        state.spent.append(spot)


def run_after(
    state: EsperState, seat: str, actions: list[Action], dice: Dice, events: list[Event]
) -> None:
    """The supports after the square, then ``end`` (or ``fight``); an order that planned no end
    leaves the ``after`` step open for the rest."""
    for action in actions:
        if action.verb in ENDS:
            why = None
            if _combat_due(state, seat):
                why = "twin"  # "俺は俺だが、お前はだれだ": whatever the main action was
            elif action.verb == "fight":
                if state.pending.get("main") not in ("move", "teleport", "pass"):
                    skip(state, seat, action, R_FIGHT, events)
                elif not combats.can_fight(state, seat):
                    skip(state, seat, action, R_FIGHT_ALONE, events)
                else:
                    why = "fight"
            if why is not None:
                spot = state.seats[seat].spot
                assert spot is not None
                start_combat(state, seat, spot, why, dice, events)
                return
            break
        stopped = _support(state, seat, action, AFTER, dice, events)
        if stopped == "declared":
            return
        if stopped == "dead":
            break
    else:
        if state.seats[seat].alive:
            state.step, state.waiting = AFTER, [seat]
            return
    next_turn(state, dice, events)


def after_combat(state: EsperState, dice: Dice, events: list[Event]) -> None:
    """A combat is over: the game may be, else the turn that started it ends."""
    if state.ended is not None:
        return
    if state.stage == BASE_STAGE and state.keys and base_stage.keys_left(state) == 0:
        finish(state, KEYS_DESTROYED, events)
        return
    state.pending.pop("after", None)
    next_turn(state, dice, events)


def _combat_due(state: EsperState, seat: str) -> bool:
    """Someone on the active's spot holds a silhouette of its name and alignment ("俺は俺だが、
    お前はだれだ"): a combat starts whatever the main action was (part 2)."""
    spot = state.seats[seat].spot
    own = state.seats[seat].sheet
    if spot is None or state.seats[seat].outside:
        return False  # around the base nobody shares a spot
    if state.pack.sheets[own].alignment != state.seats[seat].alignment:
        return False  # converted: a silhouette shows the printed one ("同名かつ同アライメント")
    return any(
        o != seat
        and state.seats[o].alive
        and not state.seats[o].outside
        and state.seats[o].spot == spot
        and state.seats[o].silhouette == own
        for o in state.order
    )


def resolve_party(
    state: EsperState, orders: Mapping[str, EsperOrder], dice: Dice, events: list[Event]
) -> None:
    active = state.active
    assert active is not None
    joined = [s for s in state.order if s in orders and orders[s].verb == "join"]
    declined = [s for s in state.pending.get("party", []) if s not in joined]
    if joined:
        number = state.seats[active].party
        if number is None:
            state.parties += 1
            number = state.parties
            state.seats[active].party = number
        for seat in joined:
            state.seats[seat].party = number
    events.append(Event("party", {"seat": active, "joined": joined, "declined": declined}))
    state.pending.pop("party", None)
    square_then_after(state, active, dice, events)


def _declare(state: EsperState, seat: str, solo: bool, resume: str, events: list[Event]) -> None:
    open_sheet(state, seat, events)
    s = state.seats[seat]
    state.pending["declared"] = True
    voters = [o for o in living(state) if o != seat and not state.seats[o].resigned]
    state.declaration = {"seat": seat, "alignment": s.alignment, "resume": resume, "solo": solo}
    if solo:
        # the living in a black hole may still object (only the dead cannot)
        events.append(Event("declared_solo", {"seat": seat, "voters": voters}))
    else:
        if s.declared_turn is None:
            s.declared_turn = state.turn
        if s.alignment == EVIL and s.evil_declared is None:
            s.evil_declared = state.turn
        events.append(Event("declared", {"seat": seat, "alignment": s.alignment, "voters": voters}))
    if not voters:
        _declaration_stands(state, events)
        return
    state.step, state.waiting = OBJECTION, voters


def _declaration_stands(state: EsperState, events: list[Event]) -> None:
    assert state.declaration is not None
    if state.declaration.get("solo"):
        state.solo = state.declaration["seat"]
        finish(state, SOLO, events)
        return
    state.declared_by = state.declaration["alignment"]
    finish(state, DECLARED, events)


def resolve_objection(
    state: EsperState, orders: Mapping[str, EsperOrder], dice: Dice, events: list[Event]
) -> None:
    assert state.declaration is not None
    objectors = [s for s in state.order if s in orders and orders[s].verb == "object"]
    seat = state.declaration["seat"]
    if not objectors:
        events.append(Event("declaration_unopposed", {"seat": seat}))
        _declaration_stands(state, events)
        return
    events.append(Event("declaration_opposed", {"seat": seat, "objectors": objectors}))
    resume = state.declaration["resume"]
    state.declaration = None
    active = state.active
    assert active is not None
    if resume == TURN:
        state.step, state.waiting = TURN, [active]
    else:
        state.step, state.waiting = AFTER, [active]


def next_turn(state: EsperState, dice: Dice, events: list[Event], *, count: bool = True) -> None:
    """After a normal turn: the stage's end, the game's other ends, then the next seat."""
    active = state.active
    if count:
        state.turn += 1
    state.pending = {}
    if state.stage == BASE_STAGE and state.keys and base_stage.keys_left(state) == 0:
        finish(state, KEYS_DESTROYED, events)
        return
    if all_down(state):
        finish(state, ALL_DOWN, events)
        return
    for seat in state.order:
        turn_declared = state.seats[seat].evil_declared
        if (
            state.seats[seat].alive
            and turn_declared is not None
            and state.turn - turn_declared >= EVIL_SURVIVAL_TURNS
        ):
            finish(state, EVIL_SURVIVAL, events)
            return
    if state.stage == PLANET_STAGE and _stage_over(state):
        end_stage(state, dice, events)
        return
    limit = int(state.options.get("turn_limit") or 0)
    if limit and state.turn >= limit:
        events.append(Event("turn_limit", {"turns": state.turn}))
        finish(state, TURN_LIMIT, events)
        return
    start = state.order.index(active) if active in state.order else -1
    for offset in range(1, len(state.order) + 1):
        seat = state.order[(start + offset) % len(state.order)]
        if can_act(state, seat) and not state.seats[seat].resigned:
            open_turn(state, seat, events)
            return
    if state.stage == BASE_STAGE:
        finish(state, ALL_DOWN, events)
        return
    end_stage(state, dice, events)


def all_down(state: EsperState) -> bool:
    return all(not s.alive or s.black_hole for s in state.seats.values())


def _stage_over(state: EsperState) -> bool:
    spots = card_spots()
    if all(spot in state.face_up or spot in state.spent for spot in spots):
        return True
    return any(party_info(state, s) >= INFO_TO_END for s in living(state))


def end_stage(state: EsperState, dice: Dice, events: list[Event]) -> None:
    """EVIL silhouettes flip face-down cards (white ones give ability cards); a character or
    party with 3+ info gains an ability card each and may see as many EVIL silhouettes' sheets
    as info held (esper.md, Stage 2 transition; D1 ends the game after it)."""
    events.append(Event("stage_end", {}))
    defenders = [s for s in sides(state)[DEFENDER] if state.seats[s].alive]
    invaders = len(sides(state)[INVADER])
    for seat in defenders:
        down = [s for s in card_spots() if s not in state.face_up and s not in state.spent]
        if not down:
            break
        n = math.ceil(len(down) / 2 / max(invaders, 1))
        flipped = down[:n]
        state.face_up += flipped
        shown = {s: state.planets[s] for s in flipped}
        if state.ambush in flipped:
            # the ambush lies there, not the card it displaced (that one is Rafnor's)
            state.ambush_revealed = True
            state.spent.append(state.ambush)
            shown[state.ambush] = "ambush"
        white = sum(
            1 for c in shown.values() if c != "ambush" and state.pack.planets[c].effect == "ability"
        )
        drawn = [state.ability_deck.pop(0) for _ in range(min(white, len(state.ability_deck)))]
        state.seats[seat].hand += drawn
        events.append(
            Event(
                "flipped",
                {"seat": seat, "spots": shown, "n": len(drawn)},
            )
        )
        if drawn:
            events.append(Event("ability_drawn", {"cards": drawn}, to=(seat,)))
    holders = [s for s in living(state) if party_info(state, s) >= INFO_TO_END]
    evil_sils = [s for s in state.order if side_of(state, s) == DEFENDER]
    see: dict[str, dict[str, Any]] = {}
    for seat in holders:
        if state.ability_deck:
            card = state.ability_deck.pop(0)
            state.seats[seat].hand.append(card)
            events.append(Event("abilities", {"seat": seat, "n": 1}))
            events.append(Event("ability_drawn", {"cards": [card]}, to=(seat,)))
        of = [s for s in evil_sils if s != seat]
        if of:
            see[seat] = {"n": min(party_info(state, seat), len(of)), "of": of}
    if see:
        events.append(Event("views_due", {"seats": list(see)}))
        state.pending = {"see": see, "last_actor": state.active}
        state.step, state.waiting, state.active = SEE, list(see), None
        return
    state.pending = {"last_actor": state.active}
    open_base(state, dice, secret_of(dice), events)


def resolve_see(state: EsperState, orders: Mapping[str, EsperOrder], events: list[Event]) -> None:
    for seat in state.order:
        order = orders.get(seat)
        if order is None:
            continue
        seen = {t: state.seats[t].sheet for t in order.actions[0].args}
        state.seats[seat].seen.update(seen)
        if seen:
            events.append(Event("seen", {"seat": seat, "sheets": seen}, to=(seat,)))
    state.pending.pop("see", None)


# --- combats and the base: the turn goes on after them -------------------------------------------


def start_combat(
    state: EsperState,
    seat: str | None,
    spot: str,
    why: str,
    dice: Dice,
    events: list[Event],
    *,
    runner: str | None = None,
) -> None:
    """A combat starts on the spot (:func:`cogs.esper.combat_play.start`); one that is over at
    once ends the turn that started it."""
    combat_play.start(state, seat, spot, why, dice, secret_of(dice), events, runner=runner)
    if state.combat is None:
        after_combat(state, dice, events)


def combat_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    """One of a combat's steps; the one that ends the combat ends the turn that started it."""
    combat_play.resolve_step(state, orders, dice, secret, events)
    if state.combat is None:
        after_combat(state, dice, events)


def withdraw(state: EsperState, seat: str, events: list[Event]) -> bool:
    """A participant resigns mid-combat (:func:`cogs.esper.combat_play.withdraw`: True when the
    combat went on at once); if that ended it, the turn that started it ends, on no dice."""
    handled = combat_play.withdraw(state, seat, events)
    if handled and state.combat is None:
        after_combat(state, NO_SECRET, events)
    return handled


def open_base(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """The planet stage is over: the base is laid (:func:`cogs.esper.base.open_base`); once the
    pieces are in, the turn after the last actor's opens (the stage's end counts none)."""
    if base_stage.open_base(state, dice, secret, events):
        next_turn(state, dice, events, count=False)


def base_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    """The base's set-up steps (the key installations' votes, the placement), then the first
    turn once the pieces are in."""
    if base_stage.resolve_step(state, orders, dice, secret, events):
        next_turn(state, dice, events, count=False)


def land_on_path(
    state: EsperState, seat: str, order: EsperOrder, dice: Dice, events: list[Event]
) -> None:
    """The base's ``path`` step: a teleport lands where its path ends, then its square."""
    path = order.actions[0].args[0].split(">")
    state.pending.pop("distance", None)
    place(state, seat, path[-1], "teleport", events)
    square_then_after(state, seat, dice, events)


# --- the end and the grades ----------------------------------------------------------------------


def _holder(state: EsperState, sheet_id: str) -> str | None:
    return next((s for s in state.order if state.seats[s].sheet == sheet_id), None)


def defeated(state: EsperState, seat: str) -> bool:
    """Whether any of the seat's own defeat conditions is met (esper-pack.md, Defeat)."""
    for condition in sheet_of(state, seat).defeat:
        if condition.kind == "dead":
            who = seat if condition.who is None else _holder(state, condition.who)
            if who is not None and not state.seats[who].alive:
                return True
        elif condition.kind == "alive":
            who = _holder(state, condition.who or "")
            if who is not None and state.seats[who].alive:
                return True
        elif condition.kind == "info_below":
            if party_info(state, seat) < condition.n:
                return True
        elif condition.kind == "alone":
            if state.seats[seat].party is None:
                return True
        elif condition.kind == "declared" and state.declared_by == condition.alignment:
            return True
    return False


def loses(state: EsperState, seat: str) -> bool:
    s = state.seats[seat]
    if s.resigned:
        return True
    if state.ended == SOLO:
        return seat != state.solo
    if not any(o.alive for o in state.seats.values()):
        return True
    if defeated(state, seat):
        return True
    declared = state.declared_by
    if s.alignment == GOOD:
        if (declared is not None and declared != GOOD) or state.ended == EVIL_SURVIVAL:
            return True
    elif s.alignment == EVIL:
        if (declared is not None and declared != EVIL) or state.ended == KEYS_DESTROYED:
            return True
    elif not s.alive:  # SPECIAL
        return True
    if sheet_of(state, seat).lock:
        others = [o for o in state.order if o != seat and sheet_of(state, o).lock]
        if any(state.seats[o].alive for o in others):
            return True
    return False


def finish(state: EsperState, reason: str, events: list[Event]) -> None:
    state.ended, state.step, state.open, state.waiting = reason, OVER, False, []
    state.grades, state.winners = {}, []
    for seat in state.order:
        won, alive = not loses(state, seat), state.seats[seat].alive
        state.grades[seat] = ("A" if alive else "B") if won else ("C" if alive else "D")
        if won:
            state.winners.append(seat)
    reveal = {
        seat: {
            "sheet": state.seats[seat].sheet,
            "alignment": state.seats[seat].alignment,
            "card": state.seats[seat].card,
            "grade": state.grades[seat],
        }
        for seat in state.order
    }
    events.append(Event("revealed", {"seats": reveal, "ambush": state.ambush}))
    events.append(
        Event(
            "end",
            {"reason": reason, "winners": list(state.winners), "declared": state.declared_by},
        )
    )
