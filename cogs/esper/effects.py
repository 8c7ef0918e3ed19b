"""Esper war: what an action or a card does to the characters, shared by the planets, the base
and a combat (``../shared/rules/esper.md``).

Pure: a piece moved, damage and recovery, an ESP level check, a sheet opened, a conversion tried,
an ability used, a planet or base card's effect, an action skipped when it no longer holds. Each
appends the events it makes; none decides what comes next (the turn's flow: :mod:`.turns`; a
combat's: :mod:`.combat`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ruleset import Event
from cogs.esper.pack import Ability
from cogs.esper.state import RAFNOR, Action, EsperState, abilities_of, check_bonus, ring, sheet_of


def skip(
    state: EsperState,
    seat: str,
    action: Action,
    why: str,
    events: list[Event],
    params: Mapping[str, Any] | None = None,
) -> None:
    """An action that no longer holds when its time comes: skipped in public; why is the seat's
    own business (a sheet that cannot convert, the mind it lacks, a card no longer held)."""
    events.append(Event("skipped", {"seat": seat, "action": action.text()}))
    events.append(
        Event(
            "skipped_why",
            {"seat": seat, "action": action.text(), "why": why, "params": dict(params or {})},
            to=(seat,),
        )
    )


def esp_check(state: EsperState, seat: str, dice: Any, events: list[Event], why: str) -> bool:
    """2D6 ≤ ESP level + bonus (public roll). The channel sees the dice and the result only:
    the target (the sheet's ESP level and private bonuses) would narrow the sheet down, so it
    goes to the roller's DM (esper.md, What the channel may depend on)."""
    s = state.seats[seat]
    bonus = s.bonus + check_bonus(state, seat)
    s.bonus = 0
    a: int = dice.roll(6)
    b: int = dice.roll(6)
    target = sheet_of(state, seat).esp + bonus
    ok = a + b <= target
    events.append(Event("check", {"seat": seat, "dice": [a, b], "success": ok, "why": why}))
    events.append(
        Event(
            "check_target",
            {"seat": seat, "why": why, "target": target, "success": ok},
            to=(seat,),
        )
    )
    return ok


def place(state: EsperState, seat: str, spot: str, how: str, events: list[Event]) -> None:
    s = state.seats[seat]
    state.last.append({"seat": seat, "from": s.spot, "to": spot, "how": how})
    s.spot = spot
    events.append(Event("moved", {"seat": seat, "to": spot, "how": how}))


def recover(state: EsperState, seat: str, stat: str, n: int, events: list[Event]) -> None:
    s = state.seats[seat]
    if stat == "mind":
        amount = min(n, s.mind_lost)
        s.mind_lost -= amount
    else:
        amount = min(n, s.damage)
        s.damage -= amount
    events.append(Event("recovered", {"seat": seat, "stat": stat, "n": amount}))


def damage(state: EsperState, seat: str, n: int, events: list[Event]) -> None:
    s = state.seats[seat]
    s.damage += n
    events.append(Event("damaged", {"seat": seat, "n": n, "total": s.damage}))
    if s.damage > sheet_of(state, seat).durability and s.alive:
        s.alive = False
        events.append(Event("died", {"seat": seat}))


def open_sheet(state: EsperState, seat: str, events: list[Event]) -> None:
    s = state.seats[seat]
    if not s.open:
        s.open = True
        events.append(Event("opened", {"seat": seat, "sheet": s.sheet}))


def convert(state: EsperState, seat: str, target: str, dice: Any, events: list[Event]) -> None:
    open_sheet(state, seat, events)
    side = state.seats[seat].alignment
    other = state.seats[target]
    other.tried_by.append(side)
    events.append(Event("convert", {"seat": seat, "target": target}))
    ok = esp_check(state, seat, dice, events, "convert")
    changed = False
    if ok and side in sheet_of(state, target).convertible_by and other.alignment != side:
        other.alignment = side
        changed = True
    # whether it worked, and nothing more: a target that did not change keeps its alignment
    # secret (it may not be convertible, or already of the converter's side)
    result: dict[str, Any] = {"seat": seat, "target": target, "changed": changed}
    if changed:
        result["alignment"] = side
    if ok:
        # only the two concerned learn whether it worked (esper.md, Conversion)
        for who in (seat, target):
            state.seats[who].told.append(dict(result))
        events.append(Event("conversion_result", result, to=(seat, target)))


def use(
    state: EsperState,
    seat: str,
    ability: Ability,
    target: str | None,
    dice: Any,
    events: list[Event],
) -> None:
    s = state.seats[seat]
    s.used.append(ability.id)
    s.mind_lost += ability.cost_mind
    s.power_lost += ability.cost_power
    card = ability.id in state.pack.abilities
    events.append(Event("used", {"seat": seat, "ability": ability.id, "target": target}))
    if card and ability.id in s.hand:
        s.hand.remove(ability.id)
        if ability.lasting:
            s.face_up.append(ability.id)
    apply_ability(state, seat, ability, target, dice, events)


def apply_ability(
    state: EsperState,
    seat: str,
    ability: Ability,
    target: str | None,
    dice: Any,
    events: list[Event],
) -> None:
    s = state.seats[seat]
    effect = ability.effect
    if effect == "check_bonus":
        s.bonus += ability.n
    elif effect == "recover":
        who = target if ability.target == "spot" and target else seat
        recover(state, who, ability.stat, ability.n, events)
    elif effect == "peek" and target is not None:
        s.seen[target] = state.seats[target].sheet
        events.append(
            Event("peek", {"seat": seat, "target": target, "sheet": s.seen[target]}, to=(seat,))
        )
    elif effect == "info":
        s.info += ability.n
        events.append(Event("info", {"seat": seat, "n": ability.n, "total": s.info}))
    elif effect == "to_spaceport" and target is not None:
        place(state, seat, f"{target}-0", "ability", events)
    elif effect == "free" and target is not None:
        other = state.seats[target]
        other.black_hole = False
        back = other.last_spot
        events.append(Event("freed", {"seat": target, "by": seat}))
        if back is not None:
            place(state, target, back, "freed", events)


def do_support(
    state: EsperState, seat: str, action: Action, dice: Any, events: list[Event]
) -> None:
    """A support action (``open``, ``convert``, ``use``), checked when its time came by whoever
    plays it (:func:`cogs.esper.orders.check_action`, a combat's own checks)."""
    verb = action.verb
    if verb == "open":
        open_sheet(state, seat, events)
    elif verb == "convert":
        convert(state, seat, action.args[0], dice, events)
    elif verb == "use":
        ability = abilities_of(state, seat)[action.args[0]]
        target = action.args[1] if len(action.args) > 1 else None
        use(state, seat, ability, target, dice, events)


def card_effect(
    state: EsperState, seat: str, spot: str, effect: str, n: int, events: list[Event]
) -> None:
    """A planet or base card's effect on the character on its spot (``rafnor`` and
    ``to_spaceport`` only on the planets: a base card never has them)."""
    s = state.seats[seat]
    if effect == "info":
        s.info += n
        events.append(Event("info", {"seat": seat, "n": n, "total": s.info}))
    elif effect == "ability":
        drawn = [state.ability_deck.pop(0) for _ in range(min(n, len(state.ability_deck)))]
        s.hand += drawn
        events.append(Event("abilities", {"seat": seat, "n": len(drawn)}))
        if drawn:
            events.append(Event("ability_drawn", {"cards": drawn}, to=(seat,)))
    elif effect == "damage":
        damage(state, seat, n, events)
    elif effect == "recover":
        recover(state, seat, "durability", n, events)
    elif effect == "rafnor":
        place(state, seat, RAFNOR, "rafnor", events)
    elif effect == "black_hole":
        s.black_hole, s.last_spot = True, spot
        events.append(Event("black_hole", {"seat": seat}))
    elif effect == "to_spaceport":
        planet, _ = ring(spot) or (1, 0)
        place(state, seat, f"P{planet}-0", "card", events)
