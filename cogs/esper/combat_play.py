"""Esper war, part 2: an ESP combat played out (``../shared/rules/esper.md``, Combat, D2).

Pure. A combat starts on a spot (:func:`start`); each of its framework steps (:mod:`.combat`
names them, reads and checks their orders) is resolved here (:func:`resolve_step`), with what
happens between the steps: the "actually there" and "actually alive" rolls, drawing up to the
hand limit, initiative, attacks and their syncs, defences, escapes and blocks, the damage rolls,
the round's end. When the combat is over ``state.combat`` is None again, and whoever called in
goes on (the turn that started it ends: :mod:`.turns`); this module knows nothing of turns.
Hidden facts (the C deck) come from the secret stream, public rolls from the step's resolve
stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.dice import NO_SECRET, Dice, shuffle
from bot.ruleset import Event, OrderRejected
from cogs.esper import base as base_stage
from cogs.esper.combat import (
    BLOCK,
    COLUMNS,
    CTURN,
    DEFEND,
    DIRECTIONS,
    ENTRY,
    PRECOMBAT,
    R_CARD,
    R_TARGET,
    ROUND_END,
    SYNC,
    TAIL,
    block_asked,
    can_defend,
    can_fight,
    ccard,
    check_cturn,
    check_defence_ability,
    column_index,
    column_label,
    combat_action,
    current,
    default_order,
    hand_limit,
    initiative_deck,
    initiative_key,
    is_combat_main,
    melee_columns,
    melee_x,
    power,
    precombat_asked,
    sheet_henchmen,
    sync_asked,
    targets,
)
from cogs.esper.effects import (
    apply_ability,
    do_support,
    esp_check,
    place,
    recover,
)
from cogs.esper.orders import (
    tokens,
)
from cogs.esper.pack import CCard
from cogs.esper.state import (
    BASE_STAGE,
    PLANET_STAGE,
    RAFNOR,
    Action,
    Combat,
    EsperOrder,
    EsperState,
    abilities_of,
    durability,
    key_here,
    ring,
    secret_of,
    sheet_of,
    spot_name,
)

# --- starting a combat ---------------------------------------------------------------------------


def start(
    state: EsperState,
    seat: str | None,
    spot: str,
    why: str,
    dice: Dice,
    secret: Dice,
    events: list[Event],
    *,
    runner: str | None = None,
) -> None:
    """A combat starts on ``spot``: everyone there takes part (esper.md, Combat)."""
    seats = [
        s
        for s in state.order
        if state.seats[s].alive
        and not state.seats[s].black_hole
        and state.seats[s].spot == spot
        and not state.seats[s].outside
    ]
    state.combats_started += 1
    combat = Combat(
        spot=spot,
        why=why,
        by=seat,
        key=key_here(state, spot),
        number=state.combats_started,
    )
    state.combat = combat
    if runner is not None and runner not in seats and state.seats[runner].alive:
        seats.append(runner)
        combat.ambush_runner = runner
        if state.seats[runner].spot is None:
            combat.from_stage_one.append(runner)
        state.seats[runner].spot = spot
    combat.seats = seats
    combat.new = list(seats)
    dealt = any(state.seats[s].c_hand for s in state.order)
    if not state.c_deck and not state.c_discard and not dealt:  # the game's first combat
        state.c_deck = state.pack.c_deck()
        shuffle(secret, state.c_deck)
    for s in seats:
        state.seats[s].power_lost = 0  # ESP power refills when a combat starts
    events.append(
        Event(
            "combat_start",
            {"spot": spot, "why": why, "by": seat, "seats": list(seats), "key": combat.key},
        )
    )
    candidates = _entry_candidates(state)
    if candidates:
        state.step, state.waiting = ENTRY, candidates
        return
    _after_entries(state, dice, secret, events)


def _entry_candidates(state: EsperState) -> list[str]:
    combat = state.combat
    assert combat is not None
    out = []
    for seat in state.order:
        s = state.seats[seat]
        if seat in combat.seats or not s.alive or s.black_hole or s.resigned or s.outside:
            continue
        if state.stage == BASE_STAGE and s.spot is None:
            continue
        out.append(seat)
    return out


def there_bonus(state: EsperState, seat: str) -> int:
    """What the seat adds to its "actually there" roll: its sheet's [戦闘前] or ``always`` bonus
    (said as it rolls: the roll comes before the [戦闘前] step) and lasting cards in play."""
    return sum(
        a.n
        for a in abilities_of(state, seat).values()
        if a.effect == "there_bonus"
        and (a.id not in state.pack.abilities or a.id in state.seats[seat].face_up)
    )


def _resolve_entry(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    for seat in state.order:
        order = orders.get(seat)
        if order is None or order.verb != "join":
            continue
        a, b = dice.roll(6), dice.roll(6)
        bonus = there_bonus(state, seat)
        total = max(2, min(12, a + b + bonus))
        result = state.pack.there_at(total)
        # the dice and whether it was there; the bonus (one sheet's ability) to the roller only
        events.append(Event("there", {"seat": seat, "dice": [a, b], "result": result}))
        if bonus:
            events.append(
                Event(
                    "there_bonus",
                    {"seat": seat, "dice": [a, b], "bonus": bonus, "result": result},
                    to=(seat,),
                )
            )
        if result == "yes":
            _enter(state, seat, events)
        elif result == "late":
            combat.late.append(seat)
    _after_entries(state, dice, secret, events)


def _enter(state: EsperState, seat: str, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    s = state.seats[seat]
    if s.spot is None:
        combat.from_stage_one.append(seat)
    if s.spot != combat.spot:
        place(state, seat, combat.spot, "there", events)
    combat.seats.append(seat)
    combat.new.append(seat)
    s.power_lost = 0
    events.append(Event("entered", {"seat": seat}))


def _after_entries(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """ "Actually alive" (the dead of this spot's game roll once per combat), [手下], then the
    [戦闘前] step or the hands."""
    combat = state.combat
    assert combat is not None
    if combat.round == 1:
        for seat in state.order:
            s = state.seats[seat]
            if s.alive or s.resigned or seat in combat.seats:
                continue
            a, b = dice.roll(6), dice.roll(6)
            result = state.pack.alive_at(a + b)
            events.append(Event("alive_check", {"seat": seat, "dice": [a, b], "result": result}))
            if result == "yes":
                s.alive = True
                s.damage = sheet_of(state, seat).durability - 1
                events.append(Event("returned", {"seat": seat}))
                _enter(state, seat, events)
    for seat in combat.new:
        n = sheet_henchmen(state, seat)
        combat.henchmen[seat] = n
        if n:
            events.append(Event("henchmen", {"seat": seat, "n": n}))
    asked = precombat_asked(state)
    if asked:
        state.step, state.waiting = PRECOMBAT, asked
        return
    _draw_and_initiative(state, dice, secret, events)


def _resolve_precombat(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    for seat in state.order:
        order = orders.get(seat)
        if order is None or order.verb != "use":
            continue
        for action in order.actions:
            ability = abilities_of(state, seat)[action.args[0]]
            combat.used.setdefault(seat, []).append(ability.id)
            s = state.seats[seat]
            s.mind_lost += ability.cost_mind
            s.power_lost += ability.cost_power
            # "能力名を宣言する必要は無く効果も宣言しなくてもよい": the name to its user only; the
            # channel learns what it must see (henchmen aloud, durability recovered)
            events.append(
                Event("precombat_used", {"seat": seat, "ability": ability.id}, to=(seat,))
            )
            if ability.id in s.hand:
                s.hand.remove(ability.id)
                if ability.lasting:
                    s.face_up.append(ability.id)
            if ability.effect == "henchmen":
                combat.henchmen[seat] = combat.henchmen.get(seat, 0) + ability.n
                events.append(Event("henchmen", {"seat": seat, "n": combat.henchmen[seat]}))
            else:
                effects: list[Event] = []
                apply_ability(state, seat, ability, None, dice, effects)
                events += [e for e in effects if _seen(e)]
    _draw_and_initiative(state, dice, secret, events)


def _seen(event: Event) -> bool:
    """Whether the channel sees a [戦闘前] effect: damage recovered, as all damage is; not a
    mind recovered (mind is private: its user's sheet shows it)."""
    return not (event.type == "recovered" and event.data.get("stat") == "mind")


def draw(state: EsperState, seat: str, n: int, secret: Dice) -> list[str]:
    """``n`` C cards from the deck (the discards shuffled back by the secret stream when it runs
    out)."""
    drawn: list[str] = []
    for _ in range(n):
        if not state.c_deck:
            if not state.c_discard:
                break
            state.c_deck, state.c_discard = state.c_discard, []
            shuffle(secret, state.c_deck)
        drawn.append(state.c_deck.pop(0))
    state.seats[seat].c_hand += drawn
    return drawn


def _refill(state: EsperState, seat: str, secret: Dice, events: list[Event]) -> None:
    short = hand_limit(state, seat) - len(state.seats[seat].c_hand)
    if short <= 0:
        return
    drawn = draw(state, seat, short, secret)
    if drawn:
        events.append(Event("drew", {"seat": seat, "n": len(drawn)}))
        events.append(Event("c_drawn", {"seat": seat, "cards": drawn}, to=(seat,)))


def _draw_and_initiative(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    for seat in combat.new:
        _refill(state, seat, secret, events)
    combat.new = []
    deck = initiative_deck()
    shuffle(dice, deck)
    combat.cards = {seat: deck[i] for i, seat in enumerate(combat.seats)}
    combat.order = sorted(combat.seats, key=lambda s: initiative_key(combat.cards[s]))
    combat.index = 0
    combat.acted = []
    combat.attacked = False
    events.append(
        Event(
            "initiative",
            {"round": combat.round, "order": [[s, combat.cards[s]] for s in combat.order]},
        )
    )
    _next_actor(state, dice, secret, events)


# --- combat turns --------------------------------------------------------------------------------


def _next_actor(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """Open the next participant's combat turn, or the round's end."""
    combat = state.combat
    assert combat is not None
    while combat.index < len(combat.order):
        seat = combat.order[combat.index]
        if seat in combat.seats and seat not in combat.acted and state.seats[seat].alive:
            state.step, state.waiting = CTURN, [seat]
            state.seats[seat].used = []
            events.append(Event("combat_turn", {"seat": seat, "round": combat.round}))
            return
        combat.index += 1
    _round_end(state, dice, secret, events)


def _resolve_cturn(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    seat = combat.order[combat.index]
    actions = list(_order_of(state, orders, seat).actions)
    combat.acted.append(seat)
    # check phase: a maintained defence is kept (its upkeep paid, a check if above the level)
    if seat in combat.maintained:
        keep = bool(actions) and actions[0].verb == "keep"
        if actions and actions[0].verb in ("keep", "drop"):
            actions.pop(0)
        _check_phase(state, seat, keep, dice, events)
    main_done = False
    while actions:
        action = actions.pop(0)
        if not state.seats[seat].alive or seat not in combat.seats:
            break
        if not main_done and is_combat_main(state, seat, action):
            main_done = True
            combat.attack = None
            if _valid(state, seat, action, events):
                stopped = _do_main(state, seat, action, dice, secret, events)
                if stopped:
                    state.pending["combat_after"] = [a.text() for a in actions]
                    return
            else:
                events.append(Event("passed", {"seat": seat}))  # no main action, as a pass
            continue
        if _valid(state, seat, action, events):
            do_support(state, seat, action, dice, events)
    _turn_done(state, dice, secret, events)


def _valid(state: EsperState, seat: str, action: Action, events: list[Event]) -> bool:
    """An action checked when its time comes (a target dead since the order was sent): one that
    no longer holds is skipped, told to its seat only. The channel never saw the order (it is
    withheld), and the action's words may name an ability of the sheet or a card of the hand."""
    try:
        if action.verb in ("card", "discard") and action.args[0] not in state.seats[seat].c_hand:
            raise OrderRejected(R_CARD, card=action.args[0])
        if action.verb in ("card", "melee", "use"):
            target = next(
                (a for a in action.args[1:] if a not in TAIL and not a.startswith("+")),
                None,
            )
            if action.verb == "melee":
                target = action.args[0]
            if target is not None and action.verb != "use" and target not in targets(state, seat):
                raise OrderRejected(R_TARGET, target=target)
        check_cturn(state, seat, [action])
    except OrderRejected as error:
        _skip(seat, action.text(), error.key, events, error.params)
        return False
    return True


def _skip(seat: str, text: str, why: str, events: list[Event], params: Mapping[str, Any]) -> None:
    events.append(
        Event(
            "skipped_why",
            {"seat": seat, "action": text, "why": why, "params": dict(params)},
            to=(seat,),
        )
    )


def _check_phase(state: EsperState, seat: str, keep: bool, dice: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    held = combat.maintained[seat]
    upkeep = int(held.get("upkeep", 0))
    if keep and upkeep > power(state, seat):
        keep = False
    if (
        keep
        and held.get("card") in state.pack.ccards
        and int(held["level"]) > sheet_of(state, seat).esp
    ):
        keep = esp_check(state, seat, dice, events, "keep")
    if keep:
        state.seats[seat].power_lost += upkeep
        events.append(Event("kept", {"seat": seat, "card": held["card"], "upkeep": upkeep}))
    else:
        del combat.maintained[seat]
        events.append(Event("dropped", {"seat": seat, "card": held["card"]}))


def _turn_done(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    combat.attack = None
    combat.escape = None
    state.pending.pop("combat_after", None)
    if _decided(state):
        _end(state, "decided", dice, events)
        return
    combat.index += 1
    _next_actor(state, dice, secret, events)


def _spend(state: EsperState, seat: str, card_id: str) -> None:
    state.seats[seat].c_hand.remove(card_id)
    state.c_discard.append(card_id)


def _level_check(state: EsperState, seat: str, level: int, dice: Dice, events: list[Event]) -> bool:
    """A C card above the user's ESP level works only after an ESP level check (*decided*)."""
    if level <= sheet_of(state, seat).esp:
        return True
    return esp_check(state, seat, dice, events, "card")


def _do_main(
    state: EsperState,
    seat: str,
    action: Action,
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> bool:
    """The main action. True when answers are now due (sync, defence, block)."""
    combat = state.combat
    assert combat is not None
    verb, args = action.verb, action.args
    target: str | None  # an attack's (melee, an ability, a card), or none
    if verb == "pass":
        events.append(Event("passed", {"seat": seat}))
        return False
    if verb == "discard":
        _spend(state, seat, args[0])
        events.append(Event("discarded", {"seat": seat, "n": 1}))
        return False
    if verb == "melee":
        target, n = args[0], int(args[1])
        weapon = args[2][1:] if len(args) > 2 else None
        return _attack(
            state,
            seat,
            {
                "kind": "melee",
                "by": seat,
                "target": target,
                "level": 1,
                "card_level": 1,
                "attribute": "melee",
                "firepower": n + combat.henchmen.get(seat, 0),
                "declared": n,
                "x": melee_x(state, seat, weapon),
                "weapon": weapon,
                "card": None,
                "sync": [],
            },
            dice,
            secret,
            events,
        )
    if verb == "use":
        ability = abilities_of(state, seat)[args[0]]
        target = args[1] if len(args) > 1 else None
        s = state.seats[seat]
        s.used.append(ability.id)
        s.mind_lost += ability.cost_mind
        s.power_lost += ability.cost_power
        events.append(Event("used", {"seat": seat, "ability": ability.id, "target": target}))
        if ability.id in s.hand:
            s.hand.remove(ability.id)
            if ability.lasting:
                s.face_up.append(ability.id)
        if ability.effect == "attack" and target is not None:
            params = ability.params
            ok = True
            if ability.timing == "pre-emptive":
                # [先制]: "失敗後即座に主要行動を行える" (a failure gives another main action)
                ok = esp_check(state, seat, dice, events, "pre-emptive")
            if not ok:
                combat.acted.remove(seat)  # the turn goes on: its main action is still due
                state.step, state.waiting = CTURN, [seat]
                events.append(Event("combat_turn", {"seat": seat, "round": combat.round}))
                return True
            return _attack(
                state,
                seat,
                _card_attack(seat, target, None, params, ability.id),
                dice,
                secret,
                events,
            )
        apply_ability(state, seat, ability, target, dice, events)
        return False
    # a C card
    card = ccard(state, args[0])
    rest = args[1:]
    target = next((w for w in rest if w not in TAIL), None)
    direction = next((w for w in rest if w in DIRECTIONS), "right")
    _spend(state, seat, card.id)
    events.append(
        Event("played", {"seat": seat, "card": card.id, "target": target, "level": card.level})
    )
    if not _level_check(state, seat, card.level, dice, events):
        return False
    if card.kind == "attack" and target is not None:
        return _attack(
            state,
            seat,
            _card_attack(seat, target, card, card.params, card.id),
            dice,
            secret,
            events,
        )
    if card.kind == "escape":
        # answers are due when the others are asked to block it
        return (
            _escape(
                state,
                seat,
                card.level,
                card.teleport,
                card.id,
                direction,
                dice,
                secret,
                events,
                fight="fight" in rest,
            )
            == "block"
        )
    if card.kind == "special":
        _special(state, seat, card, target, dice, events)
    return False


def _card_attack(
    seat: str, target: str, card: CCard | None, params: Mapping[str, Any], source: str
) -> dict[str, Any]:
    return {
        "kind": "card" if card is not None else "ability",
        "by": seat,
        "target": target,
        "level": int(params.get("level", 0)),
        "card_level": int(params.get("level", 0)),
        "attribute": params.get("attribute", "E"),
        "firepower": params.get("firepower"),
        "column": params.get("column"),
        "no_defence": bool(params.get("no_defence")),
        "can_sync": bool(card is not None and card.sync),
        "card": source,
        "sync": [],
    }


def _special(
    state: EsperState,
    seat: str,
    card: CCard,
    target: str | None,
    dice: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    effect = card.effect
    if effect == "henchmen":
        combat.henchmen[seat] = combat.henchmen.get(seat, 0) + card.n
        events.append(Event("henchmen", {"seat": seat, "n": combat.henchmen[seat]}))
    elif effect == "recover":
        who = target if target in combat.seats else seat
        recover(state, who, str(card.params.get("stat", "durability")), card.n, events)
    elif effect == "check_bonus":
        state.seats[seat].bonus += card.n
    # there_bonus: nothing more to join in this combat (it helps only a later "actually there")


def _attack(
    state: EsperState,
    seat: str,
    attack: dict[str, Any],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> bool:
    combat = state.combat
    assert combat is not None
    combat.attacked = True
    combat.attack = attack
    events.append(
        Event(
            "attack",
            {
                k: attack.get(k)
                for k in ("by", "target", "kind", "card", "level", "attribute", "firepower")
            }
            | {"column": column_label(attack.get("column"))},
        )
    )
    if attack.get("can_sync"):
        helpers = sync_asked(state)
        if helpers:
            state.step, state.waiting = SYNC, helpers
            return True
    return _to_defence(state, dice, secret, events)


def _resolve_sync(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    for seat in combat.order:
        order = orders.get(seat)
        if order is None or order.verb != "sync":
            continue
        card = ccard(state, order.actions[0].args[0])
        _spend(state, seat, card.id)
        combat.acted.append(seat)  # joining uses up the helper's turn (esper.md, *decided*)
        attack["sync"].append([seat, card.id])
        attack["level"] = int(attack["level"]) + 1
        if attack.get("firepower") is not None and card.firepower is not None:
            attack["firepower"] = int(attack["firepower"]) + card.firepower
        events.append(Event("synced", {"seat": seat, "card": card.id}))
    if attack["sync"]:
        events.append(
            Event(
                "sync_total",
                {
                    "by": attack["by"],
                    "level": attack["level"],
                    "firepower": attack.get("firepower"),
                    "helpers": [s for s, _ in attack["sync"]],
                },
            )
        )
    if _to_defence(state, dice, secret, events):
        return
    _after_attack(state, dice, secret, events)


def _to_defence(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> bool:
    """The attacked answers, or (a key installation) takes the roll at once. True when answers
    are due."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    target = attack["target"]
    if target == combat.key:
        _damage_key(state, dice, events)
        return False
    held = combat.maintained.get(target)
    if held is not None:
        if int(attack["level"]) > int(held["level"]):
            del combat.maintained[target]
            attack["broke"] = True  # the attack goes through: no new defence against it
            events.append(Event("defence_broken", {"seat": target, "card": held["card"]}))
        elif attack["attribute"] in held["blocks"]:
            events.append(Event("defended", {"seat": target, "card": held["card"], "held": True}))
            return False
    state.step, state.waiting = DEFEND, [target]
    return True


def _resolve_defend(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    seat = attack["target"]
    actions = list(_order_of(state, orders, seat).actions)
    declared = max(0, durability(state, seat))
    counter: Action | None = None
    tries: list[Action] = []
    for action in actions:
        if action.verb == "durability":
            declared = min(declared, int(action.args[0]))
        elif action.verb == "counter":
            counter = action
        elif action.verb in ("defend", "escape", "use"):
            tries.append(action)
    attack["defender_declared"] = declared
    # a card and abilities, each tried in turn until one works (2011 rule)
    defendable = can_defend(state, seat)
    tries.sort(key=lambda a: a.verb == "use")  # the card first
    for action in tries if defendable else []:
        outcome = _try_defence(state, seat, action, dice, secret, events)
        if outcome == "escaped":
            _after_attack(state, dice, secret, events)
            return
        if outcome == "block":
            return  # the others answer first
        if outcome == "defended":
            _after_attack(state, dice, secret, events)
            return
    _damage_roll(state, declared, counter, dice, events)
    _after_attack(state, dice, secret, events)


def _try_defence(
    state: EsperState,
    seat: str,
    action: Action,
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> str:
    """One try: ``defended``, ``escaped``, ``block`` (answers due) or ``failed``."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    if action.verb == "use":
        ability = abilities_of(state, seat).get(action.args[0])
        if ability is None:
            return "failed"
        try:
            check_defence_ability(state, seat, ability)
        except OrderRejected:
            return "failed"
        s = state.seats[seat]
        s.mind_lost += ability.cost_mind
        s.power_lost += ability.cost_power
        events.append(Event("used", {"seat": seat, "ability": ability.id, "target": None}))
        params = ability.params
        if ability.effect == "defend":
            return _defended(state, seat, ability.id, params, events)
        return _escape(
            state,
            seat,
            int(params.get("level", 0)),
            bool(params.get("teleport")),
            ability.id,
            "right",
            dice,
            secret,
            events,
            reaction=True,
        )
    card_id = action.args[0]
    if card_id not in state.seats[seat].c_hand:
        return "failed"
    card = ccard(state, card_id)
    _spend(state, seat, card_id)
    events.append(
        Event("played", {"seat": seat, "card": card_id, "target": None, "level": card.level})
    )
    if not _level_check(state, seat, card.level, dice, events):
        return "failed"
    if action.verb == "defend":
        return _defended(state, seat, card_id, card.params, events)
    direction = next((w for w in action.args[1:] if w in DIRECTIONS), "right")
    return _escape(
        state,
        seat,
        card.level,
        card.teleport,
        card_id,
        direction,
        dice,
        secret,
        events,
        reaction=True,
        fight="fight" in action.args[1:],
    )


def _defended(
    state: EsperState,
    seat: str,
    source: str,
    params: Mapping[str, Any],
    events: list[Event],
) -> str:
    combat = state.combat
    assert combat is not None
    combat.maintained[seat] = {
        "card": source,
        "level": int(params.get("level", 0)),
        "blocks": list(params.get("blocks", [])),
        "upkeep": int(params.get("upkeep", 0)),
    }
    events.append(Event("defended", {"seat": seat, "card": source, "held": False}))
    return "defended"


def _escape(
    state: EsperState,
    seat: str,
    level: int,
    teleport: bool,
    source: str,
    direction: str,
    dice: Dice,
    secret: Dice,
    events: list[Event],
    *,
    reaction: bool = False,
    fight: bool = False,
) -> str:
    """An escape works (``escaped``); a teleport one may still be blocked by the others
    (``block``: they are asked; then the escaper stays, but takes no damage)."""
    combat = state.combat
    assert combat is not None
    combat.escape = {
        "seat": seat,
        "level": level,
        "card": source,
        "direction": direction,
        "reaction": reaction,
        "fight": fight,
    }
    events.append(
        Event("escape", {"seat": seat, "card": source, "level": level, "teleport": teleport})
    )
    if teleport:
        blockers = block_asked(state, seat)
        if blockers:
            state.step, state.waiting = BLOCK, blockers
            return "block"
    _leave(state, seat, direction, dice, events, fight=fight)
    return "escaped"


def _leave(
    state: EsperState,
    seat: str,
    direction: str,
    dice: Dice,
    events: list[Event],
    *,
    fight: bool = False,
) -> None:
    """An escape leaves the combat and moves 1D6 spots, as a teleport that cannot fail; with
    ``fight``, meeting others there starts a combat once this one is over (esper.md)."""
    combat = state.combat
    assert combat is not None
    combat.escape = None
    combat.seats.remove(seat)
    combat.maintained.pop(seat, None)
    combat.escapers.append(seat)
    steps = dice.roll(6)
    events.append(Event("escaped", {"seat": seat, "steps": steps}))
    if seat in combat.from_stage_one and state.stage == PLANET_STAGE:
        state.seats[seat].spot = None  # an EVIL silhouette has no piece on the planets
        return
    _flee(state, seat, steps, direction, events)
    if fight:
        combat.then.append(seat)


def _flee(state: EsperState, seat: str, steps: int, direction: str, events: list[Event]) -> None:
    """An escape's 1D6 spots, as a teleport that cannot fail: round the ring (planets), or
    straight on to the edge (the base, *decided*: a path chosen after the roll would need one
    more step in the middle of a combat)."""
    spot = state.seats[seat].spot
    if spot is None:
        return
    if state.stage == BASE_STAGE:
        place(state, seat, base_stage.line(spot, steps, direction), "escape", events)
        return
    if spot == RAFNOR:
        return
    planet, index = ring(spot) or (1, 0)
    step = -steps if direction == "left" else steps
    place(state, seat, spot_name(planet, index + step), "escape", events)


def _resolve_block(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.escape is not None
    escape = combat.escape
    played = []
    for seat in combat.order + [s for s in combat.seats if s not in combat.order]:
        order = orders.get(seat)
        if order is None or order.verb != "block" or (seat, order) in played:
            continue
        played.append((seat, order))
    cards = [(seat, ccard(state, order.actions[0].args[0])) for seat, order in played]
    blocked = False
    level = 0
    if cards:
        lead_seat, lead = max(cards, key=lambda pair: pair[1].level)
        helpers = [(s, c) for s, c in cards if c.level < lead.level and c.sync]
        used = [(lead_seat, lead), *helpers]
        for s, c in used:
            _spend(state, s, c.id)
            events.append(
                Event(
                    "played", {"seat": s, "card": c.id, "target": escape["seat"], "level": c.level}
                )
            )
        level = lead.level + len(helpers)
        blocked = level > int(escape["level"])
        events.append(
            Event(
                "block",
                {
                    "seat": escape["seat"],
                    "by": [s for s, _ in used],
                    "level": level,
                    "blocked": blocked,
                },
            )
        )
    if blocked:
        combat.escape = None
    else:
        fight = bool(escape.get("fight"))
        _leave(state, escape["seat"], str(escape["direction"]), dice, events, fight=fight)
    if escape.get("reaction"):
        _after_attack(state, dice, secret, events)
    else:
        _continue_turn(state, dice, secret, events)


def _damage_roll(
    state: EsperState,
    declared: int,
    counter: Action | None,
    dice: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    target, by = attack["target"], attack["by"]
    if attack["kind"] == "melee":
        defence_fp = declared + combat.henchmen.get(target, 0)
        weapon = counter.args[0][1:] if counter is not None and counter.args else None
        shift = int(attack["x"]) - melee_x(state, target, weapon)
        mine, theirs = melee_columns(int(attack["firepower"]), defence_fp, shift)
        rolls = [(target, by, mine, declared)]
        if counter is not None:
            events.append(Event("counter", {"seat": target, "firepower": defence_fp}))
            rolls.append((by, target, theirs, int(attack["declared"])))
        hits = []
        for victim, hitter, column, limit in rolls:
            a, b = dice.roll(6), dice.roll(6)
            hits.append(
                (victim, hitter, column, limit, [a, b], state.pack.damage_at(a + b, column))
            )
        for victim, hitter, column, limit, roll, n in hits:  # both at once
            _hit(state, victim, hitter, column, limit, roll, n, events)
        return
    if attack.get("column") is not None:
        column = int(attack["column"])
    else:
        column = column_index(int(attack["firepower"] or 0), declared)
    a, b = dice.roll(6), dice.roll(6)
    _hit(state, target, by, column, declared, [a, b], state.pack.damage_at(a + b, column), events)


def _hit(
    state: EsperState,
    victim: str,
    by: str,
    column: int,
    declared: int,
    roll: list[int],
    n: int,
    events: list[Event],
) -> None:
    """A damage roll's result: more than the declared durability kills (esper.md, Damage)."""
    events.append(
        Event(
            "damage_roll",
            {
                "seat": victim,
                "by": by,
                "dice": roll,
                "column": COLUMNS[column],
                "declared": declared,
                "damage": n,
            },
        )
    )
    s = state.seats[victim]
    if not s.alive:
        return
    if n:
        s.damage += n
        events.append(Event("damaged", {"seat": victim, "n": n, "total": s.damage}))
    if n > declared or s.damage > sheet_of(state, victim).durability:
        die(state, victim, events)


def die(state: EsperState, seat: str, events: list[Event]) -> None:
    """Death in combat: face-up ability cards and the hand are dropped; the dead leave."""
    s = state.seats[seat]
    s.alive = False
    dropped = {"abilities": len(s.face_up), "hand": len(s.c_hand)}
    state.c_discard += s.c_hand
    s.c_hand = []
    s.face_up = []
    events.append(Event("died", {"seat": seat, "dropped": dropped}))
    combat = state.combat
    if combat is not None and seat in combat.seats:
        combat.seats.remove(seat)
        combat.maintained.pop(seat, None)


def _damage_key(state: EsperState, dice: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None and combat.key is not None
    attack = combat.attack
    key = state.keys[combat.key]
    installation = state.pack.keys[key["id"]]
    left = installation.durability - int(key["damage"])
    if attack.get("column") is not None:
        column = int(attack["column"])
    else:
        column = column_index(int(attack["firepower"] or 0), left)
    a, b = dice.roll(6), dice.roll(6)
    n = state.pack.damage_at(a + b, column)
    key["damage"] = int(key["damage"]) + n
    destroyed = key["damage"] > installation.durability
    events.append(
        Event(
            "damage_roll",
            {
                "seat": combat.key,
                "by": attack["by"],
                "dice": [a, b],
                "column": COLUMNS[column],
                "declared": left,
                "damage": n,
            },
        )
    )
    if destroyed:
        key["destroyed"] = True
        events.append(Event("key_destroyed", {"spot": combat.key, "key": key["id"]}))
        combat.key = None


def _after_attack(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    combat.attack = None
    _continue_turn(state, dice, secret, events)


def _continue_turn(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """Back to the actor: the supports its order planned after the main action, then the next."""
    combat = state.combat
    assert combat is not None
    if state.ended is not None:
        return
    seat = combat.order[combat.index] if combat.index < len(combat.order) else None
    planned = state.pending.pop("combat_after", [])
    if seat is not None and seat in combat.seats and state.seats[seat].alive:
        for text in planned:
            try:  # its target may have left (dead or escaped) while the others answered
                action = combat_action(state, seat, tokens(text))
            except OrderRejected as error:
                _skip(seat, text, error.key, events, error.params)
                continue
            if _valid(state, seat, action, events):
                do_support(state, seat, action, dice, events)
    _turn_done(state, dice, secret, events)


# --- the round's end and the combat's ------------------------------------------------------------


def _participants(state: EsperState) -> int:
    combat = state.combat
    assert combat is not None
    return len(combat.seats) + (1 if combat.key is not None else 0)


def _decided(state: EsperState) -> bool:
    return _participants(state) <= 1 or state.ended is not None


def _round_end(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    events.append(Event("round_end", {"round": combat.round, "attacked": combat.attacked}))
    if not combat.attacked:
        _end(state, "no_attack", dice, events)
        return
    if _decided(state):
        _end(state, "decided", dice, events)
        return
    asked = [s for s in combat.seats if state.seats[s].alive]
    state.step, state.waiting = ROUND_END, asked


def _resolve_round_end(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    going = [s for s in combat.seats if s in orders and orders[s].verb == "continue"]
    events.append(Event("round_answers", {"continue": going}))
    for seat in list(combat.seats):
        order = orders.get(seat)
        discards = [a.args[0] for a in order.actions if a.verb == "discard"] if order else []
        _trim(state, seat, discards, events)
    if not going:
        _end(state, "stopped", dice, events)
        return
    for seat in combat.seats:
        _refill(state, seat, secret, events)
    combat.round += 1
    combat.new = []
    for seat in list(combat.late):
        if state.seats[seat].alive and not state.seats[seat].black_hole:
            _enter(state, seat, events)
    combat.late = []
    for seat in combat.new:
        combat.henchmen[seat] = sheet_henchmen(state, seat)
    _draw_and_initiative(state, dice, secret, events)


def _trim(state: EsperState, seat: str, discards: list[str], events: list[Event]) -> None:
    """Over the limit: down to it (named cards first, then the last drawn); at the limit, one
    named card may go."""
    hand = state.seats[seat].c_hand
    limit = hand_limit(state, seat)
    named = [c for c in discards if c in hand]
    out: list[str] = []
    if len(hand) > limit:
        excess = len(hand) - limit
        out = named[:excess]
        for card_id in reversed(list(hand)):
            if len(out) >= excess:
                break
            if card_id not in out:
                out.append(card_id)
    elif len(hand) == limit and named:
        out = named[:1]
    for card_id in out:
        _spend(state, seat, card_id)
    if out:
        events.append(Event("discarded", {"seat": seat, "n": len(out)}))


def _end(state: EsperState, why: str, dice: Dice, events: list[Event]) -> None:
    """The combat is over (``state.combat`` None: whoever called into it ends the turn that
    started it), unless an escaper who asked to fight where it landed starts the next one."""
    combat = state.combat
    assert combat is not None
    events.append(
        Event("combat_end", {"spot": combat.spot, "why": why, "seats": list(combat.seats)})
    )
    for seat in combat.from_stage_one:
        if state.seats[seat].alive and state.stage == PLANET_STAGE:
            state.seats[seat].spot = None  # back to no piece (EVIL silhouettes on the planets)
    state.combat = None
    for seat in combat.then:  # an escaper who asked to fight where it landed
        spot = state.seats[seat].spot
        if state.seats[seat].alive and spot is not None and can_fight(state, seat):
            start(state, seat, spot, "escape", dice, secret_of(dice), events)
            return


def _order_of(state: EsperState, orders: Mapping[str, EsperOrder], seat: str) -> EsperOrder:
    """The seat's order; its default when it sent none (it resigned while the step waited on it
    alone, and the step is resolved without it)."""
    return orders.get(seat) or default_order(state, seat)


# --- the framework's dispatch --------------------------------------------------------------------


def resolve_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    RESOLVERS[state.step](state, orders, dice, secret, events)


RESOLVERS = {
    ENTRY: _resolve_entry,
    PRECOMBAT: _resolve_precombat,
    CTURN: _resolve_cturn,
    SYNC: _resolve_sync,
    DEFEND: _resolve_defend,
    BLOCK: _resolve_block,
    ROUND_END: _resolve_round_end,
}


def withdraw(state: EsperState, seat: str, events: list[Event]) -> bool:
    """A participant resigns mid-combat: it leaves; when the step waited on it alone (its turn,
    its defence) the combat goes on at once. True when handled so."""
    combat = state.combat
    assert combat is not None
    if seat in combat.seats:
        combat.seats.remove(seat)
    combat.maintained.pop(seat, None)
    dice = NO_SECRET
    if state.step == CTURN and current(state) == seat:
        combat.acted.append(seat)
        _turn_done(state, dice, dice, events)
        return True
    if state.step == DEFEND and combat.attack is not None and combat.attack["target"] == seat:
        _after_attack(state, dice, dice, events)
        return True
    return False
