"""The hex dungeon's steps resolved (pure): what a step's orders do, and every monster turn the
engine then runs by itself.

:func:`resolve` reveals the round's picks (each monster type on the board draws its ability card
and the round's order is set), plays a character's turn (its move springs traps and hazards and
may open a door, whose rooms are set up at once; its attacks, pushes, pulls and heal) or settles a
monster tie by the party's votes. Then monster turns follow in initiative order (the AI,
:mod:`cogs.dungeon.ai`, chooses; several equally good outcomes make the next step a tie vote)
until a character must act; a round's end rests or exhausts the characters, and the scenario is
won or lost. The dice are drawn as :mod:`.rules` says.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from bot.dice import NO_SECRET, Dice, shuffle
from bot.ruleset import Event, OrderRejected, StateError
from cogs.dungeon import content
from cogs.dungeon.ai import Character, MonsterAction, Outcome, Situation, solve
from cogs.dungeon.content import Card, label
from cogs.dungeon.hexes import Hex, distance
from cogs.dungeon.movement import Mover, Path, forced, paths
from cogs.dungeon.orders import Order, check_attacks, check_heal, check_move, default_order
from cogs.dungeon.state import (
    MONSTERS,
    PARTY,
    DungeonState,
    Hero,
    Monster,
    ai_map,
    card_of,
    ground,
    initiative,
    monster_card,
    order_key,
    visible_doors,
)

MAX_TIE_OPTIONS = 9


def resolve(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[DungeonState, list[Event]]:
    new = copy.deepcopy(state)
    new.resolved = new.step_no
    new.last = []
    events: list[Event] = []
    if new.phase == "pick":
        _reveal_picks(new, orders, dice, events)
    elif new.phase == "act":
        actor = new.current()
        assert actor is not None
        order = orders.get(actor) or default_order(new, actor)
        _character_turn(new, new.heroes[actor], order, dice, events)
        _check_end(new, events)
    elif new.phase == "tie":
        _settle_tie(new, orders, dice, events)
        _check_end(new, events)
    if new.phase != "over":
        _advance(new, dice, events)
    return new, events


def _reveal_picks(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, events: list[Event]
) -> None:
    for hero in state.heroes_in_play():
        order = orders.get(hero.seat) or default_order(state, hero.seat)
        card = order.card if order.card in hero.hand else hero.hand[0]
        hero.card = card
    state.round_cards = {}
    for mtype in sorted({m.type for m in state.living_monsters()}):
        _draw_monster_card(state, mtype, dice)
    actors = [h.seat for h in state.heroes_in_play()] + [m.id for m in state.living_monsters()]
    state.order = sorted(actors, key=lambda a: order_key(state, a))
    state.position = -1
    events.append(
        Event(
            "picks",
            {
                "round": state.round,
                "cards": {h.seat: h.card for h in state.heroes_in_play()},
                "monster_cards": dict(state.round_cards),
                "order": [[a, initiative(state, a)] for a in state.order],
            },
        )
    )


def _draw_monster_card(state: DungeonState, mtype: str, dice: Dice) -> None:
    deck = content.monster_types()[mtype].deck
    used = state.used_cards.setdefault(mtype, [])
    left = [c.id for c in deck if c.id not in used]
    if not left:
        used.clear()
        left = [c.id for c in deck]
    chosen = left[dice.roll(len(left)) - 1] if len(left) > 1 else left[0]
    used.append(chosen)
    state.round_cards[mtype] = chosen


def _advance(state: DungeonState, dice: Dice, events: list[Event]) -> None:
    """Run monster turns until a character must act, the players must break a tie, the round
    ends (then the next round's picks are awaited) or the scenario is over."""
    while state.phase != "over":
        state.position += 1
        actor = state.current()
        if actor is None:
            _end_round(state, events)
            return
        if actor in state.heroes:
            if state.heroes[actor].in_play:
                state.phase = "act"
                return
            continue
        monster = state.monster(actor)
        if monster is None or not monster.alive:
            continue
        options = _monster_options(state, monster)
        if len(options) > 1:
            state.phase = "tie"
            state.pending = {"monster": monster.id, "options": [o.to_json() for o in options]}
            events.append(
                Event(
                    "monster_tie",
                    {
                        "monster": monster.id,
                        "options": [outcome_labels(o) for o in options],
                    },
                )
            )
            return
        _monster_turn(state, monster, options[0] if options else None, dice, events)
        _check_end(state, events)


def outcome_labels(o: Outcome) -> dict[str, Any]:
    return {"move_to": label(o.move_to), "attacks": [label(h) for h in o.attacks]}


def _monster_action(state: DungeonState, monster: Monster) -> MonsterAction:
    card = monster_card(state, monster.type)
    assert card is not None
    mt = content.monster_types()[monster.type]
    return MonsterAction(
        move=card.move,
        range=card.range,
        targets=card.targets if card.attack > 0 else 0,
        jump=card.jump,
        flying=card.flying or mt.flying,
    )


def situation(state: DungeonState, monster: Monster) -> Situation:
    heroes = state.heroes_in_play()
    return Situation(
        map=ai_map(state),
        monster=monster.hex,
        allies=frozenset(m.hex for m in state.living_monsters() if m.id != monster.id),
        characters=tuple(
            Character(h.hex, initiative(state, h.seat)) for h in heroes if h.hex is not None
        ),
        action=_monster_action(state, monster),
    )


def _monster_options(state: DungeonState, monster: Monster) -> list[Outcome]:
    if not state.heroes_in_play():
        return []
    return list(solve(situation(state, monster), state.rules_variant)[:MAX_TIE_OPTIONS])


def monster_path(state: DungeonState, monster: Monster, dest: Hex) -> Path | None:
    """The path a monster takes to the AI's destination: the fewest traps, then the fewest points
    (the AI's own measure); None when it stays."""
    if dest == monster.hex:
        return None
    action = _monster_action(state, monster)
    mode = "flying" if action.flying else "jump" if action.jump else "normal"
    mover = Mover(
        monster.hex,
        mode,
        friends=frozenset(m.hex for m in state.living_monsters()),
        foes=frozenset(h.hex for h in state.heroes_in_play() if h.hex is not None),
        opens_doors=False,
        jump_pays_last_difficult=state.rules_variant == "gloomhaven",
    )
    return paths(ground(state), mover, action.move).get(dest)


def _monster_turn(
    state: DungeonState, monster: Monster, chosen: Outcome | None, dice: Dice, events: list[Event]
) -> None:
    card = monster_card(state, monster.type)
    assert card is not None
    if chosen is None:
        events.append(Event("monster_idle", {"monster": monster.id}))
        return
    path = monster_path(state, monster, chosen.move_to)
    if chosen.move_to != monster.hex and path is None:
        # cannot happen while the AI and the paths agree; a test keeps them agreeing
        raise StateError("dungeon.error.no_path", monster=monster.id, hex=label(chosen.move_to))
    if path is None and not chosen.attacks:
        events.append(Event("monster_idle", {"monster": monster.id}))
        return
    if path is not None:
        start = monster.hex
        _walk(state, monster, path, None, dice, events)
        state.last.append(
            {
                "kind": "move",
                "figure": monster.id,
                "from": label(start),
                "path": [label(h) for h in path.hexes],
            }
        )
    if not monster.alive:
        return
    attack = card.attack + state.level // 2
    for h in chosen.attacks:
        target = state.figure_at(h)
        if isinstance(target, Hero):
            _hit(state, monster.id, target, attack, dice, events)
    if not content.monster_types()[monster.type].flying:
        _land(state, monster, events)


def _settle_tie(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, events: list[Event]
) -> None:
    pending = state.pending
    assert pending is not None
    count = len(pending["options"])
    votes = [0] * (count + 1)
    for seat in [h.seat for h in state.heroes_in_play()]:
        order = orders.get(seat) or default_order(state, seat)
        option = order.option if 1 <= order.option <= count else 1
        votes[option] += 1
    chosen = max(range(1, count + 1), key=lambda i: (votes[i], -i))
    monster = state.monster(pending["monster"])
    assert monster is not None
    raw = pending["options"][chosen - 1]
    outcome_ = Outcome(
        (int(raw["move_to"][0]), int(raw["move_to"][1])),
        tuple((int(a), int(b)) for a, b in raw["attacks"]),
    )
    events.append(
        Event("tie_chosen", {"monster": monster.id, "option": chosen, "votes": votes[1:]})
    )
    state.pending = None
    state.phase = "act"  # _advance moves on from this monster
    _monster_turn(state, monster, outcome_, dice, events)


def _character_turn(
    state: DungeonState, hero: Hero, order: Order, dice: Dice, events: list[Event]
) -> None:
    card = card_of(state, hero)
    assert card is not None and hero.hex is not None
    try:
        path = check_move(state, hero, card, list(order.move))
        end = path.end if path and path.end else hero.hex
        check_attacks(state, hero, card, end, list(order.attacks))
        if order.heal:
            check_heal(state, hero, card, end, order.heal)
    except OrderRejected as exc:
        # an order checked when it was sealed is still legal (nothing moves in between); a
        # record edited by hand is not: it acts as a pass, and the log says why
        events.append(
            Event(
                "order_void",
                {"seat": hero.seat, "reason": exc.key, "reason_params": dict(exc.params)},
            )
        )
        return
    if path is not None:
        start = hero.hex
        _walk(state, hero, path, hero.seat, dice, events)
        state.last.append(
            {
                "kind": "move",
                "figure": hero.seat,
                "from": label(start),
                "path": [label(h) for h in path.hexes],
            }
        )
        if not hero.in_play:
            return
    if not order.move and not order.attacks and not order.heal:
        events.append(Event("passed", {"seat": hero.seat}))
    for h in order.attacks:
        target = state.figure_at(h)
        if isinstance(target, Monster):
            _hit(state, hero.seat, target, card.attack, dice, events)
            if target.alive and (card.push or card.pull):
                _force(state, hero, target, card, events)
    if order.heal:
        _heal(state, state.heroes[order.heal], card.heal, events, hero.seat)
    elif card.heal and not order.heal:
        _heal(state, hero, card.heal, events, hero.seat)
    _land(state, hero, events)


def _walk(
    state: DungeonState,
    figure: Hero | Monster,
    path: Path,
    credit: str | None,
    dice: Dice,
    events: list[Event],
) -> None:
    """Move along ``path``, springing its traps and hazards and opening a door at its end."""
    start = figure.hex
    events.append(
        Event(
            "moved",
            {
                "figure": _fid(figure),
                "from": label(start) if start else None,
                "path": [label(h) for h in path.hexes],
            },
        )
    )
    for h in path.hexes:
        figure.hex = h
        if h in path.painful:
            _spring(state, figure, h, credit, events)
            if not _alive(figure):
                return
    end = path.end
    if isinstance(figure, Hero) and end is not None and end in visible_doors(state):
        _open_door(state, figure, end, dice, events)


def _fid(figure: Hero | Monster) -> str:
    return figure.seat if isinstance(figure, Hero) else figure.id


def _alive(figure: Hero | Monster) -> bool:
    return figure.in_play if isinstance(figure, Hero) else figure.alive


def _spring(
    state: DungeonState, figure: Hero | Monster, h: Hex, credit: str | None, events: list[Event]
) -> None:
    """A trap (level + 2, then removed) or hazardous terrain ((level + 2) // 2) on entering."""
    kind = state.scenario.terrain.get(h)
    if kind == "trap" and h not in state.sprung:
        damage = state.level + 2
        state.sprung.append(h)
    elif kind == "hazardous":
        damage = (state.level + 2) // 2
    else:
        return
    events.append(
        Event(kind, {"figure": _fid(figure), "hex": label(h), "damage": damage, "by": credit})
    )
    _damage(state, figure, damage, credit, events, kind)
    _note_damage(state, figure, h, kind, damage)


def _damage(
    state: DungeonState,
    figure: Hero | Monster,
    damage: int,
    by: str | None,
    events: list[Event],
    cause: str = "hit",
) -> None:
    if isinstance(figure, Hero):
        figure.note(cause, by, damage)
    figure.hp = max(0, figure.hp - damage)
    if figure.hp > 0:
        return
    if isinstance(figure, Monster):
        figure.alive = False
        if by in state.heroes:
            state.heroes[by].kills += 1
        events.append(Event("killed", {"figure": figure.id, "by": by}))
    else:
        figure.status = "dead"
        figure.hex = None
        events.append(Event("killed", {"figure": figure.seat, "by": by}))


def _note_damage(
    state: DungeonState, figure: Hero | Monster, h: Hex, cause: str, damage: int
) -> None:
    """Note damage that no attack dealt (after it is taken) for the board."""
    state.last.append(
        {
            "kind": "damage",
            "figure": _fid(figure),
            "hex": label(h),
            "cause": cause,
            "damage": damage,
            "killed": not _alive(figure),
        }
    )


def _hex_of(state: DungeonState, fid: str) -> Hex | None:
    if fid in state.heroes:
        return state.heroes[fid].hex
    monster = state.monster(fid)
    return monster.hex if monster else None


def _hit(
    state: DungeonState,
    attacker: str,
    target: Hero | Monster,
    value: int,
    dice: Dice,
    events: list[Event],
) -> None:
    face = content.modifiers()[dice.roll(6) - 1]
    if face == "miss":
        damage = 0
    elif face == "x2":
        damage = value * 2
    else:
        damage = max(0, value + int(face))
    events.append(
        Event(
            "attack",
            {
                "attacker": attacker,
                "target": _fid(target),
                "value": value,
                "modifier": face,
                "damage": damage,
                "hp": max(0, target.hp - damage),
            },
        )
    )
    source, where = _hex_of(state, attacker), target.hex
    _damage(state, target, damage, attacker, events)
    state.last.append(
        {
            "kind": "attack",
            "figure": attacker,
            "target": _fid(target),
            "from": label(source) if source else None,
            "to": label(where) if where else None,
            "damage": damage,
            "killed": not _alive(target),
        }
    )


def _force(
    state: DungeonState, hero: Hero, target: Monster, card: Card, events: list[Event]
) -> None:
    assert hero.hex is not None
    away = card.push > 0
    amount = card.push or card.pull
    blocked = frozenset(
        [m.hex for m in state.living_monsters() if m.id != target.id]
        + [h.hex for h in state.heroes_in_play() if h.hex is not None]
    )
    start = target.hex
    moved = forced(ground(state), target.hex, hero.hex, amount, away=away, blocked=blocked)
    if not moved:
        return
    events.append(
        Event(
            "pushed" if away else "pulled",
            {"figure": target.id, "from": label(start), "path": [label(h) for h in moved]},
        )
    )
    state.last.append(
        {
            "kind": "move",
            "figure": target.id,
            "from": label(start),
            "path": [label(h) for h in moved],
            "forced": True,
        }
    )
    flying = content.monster_types()[target.type].flying
    for h in moved:
        target.hex = h
        if not flying and state.scenario.terrain.get(h) in ("trap", "hazardous"):
            _spring(state, target, h, hero.seat, events)
            if not target.alive:
                return


def _land(state: DungeonState, figure: Hero | Monster, events: list[Event]) -> None:
    """A figure whose flying ends on an obstacle takes trap damage and moves to the nearest
    empty hex (the digest). A character's or a card's flying lasts its turn."""
    if not _alive(figure) or figure.hex is None:
        return
    if state.scenario.terrain.get(figure.hex) != "obstacle":
        return
    damage = state.level + 2
    start = figure.hex
    _damage(state, figure, damage, None, events, "grounded")
    _note_damage(state, figure, start, "grounded", damage)
    landing = None
    if _alive(figure):
        g = ground(state)
        free = [
            h
            for h in g.hexes
            if g.kind(h) not in ("wall", "obstacle") and state.figure_at(h) is None
        ]
        if free:
            landing = min(free, key=lambda h: (distance(h, start), label(h)))
            figure.hex = landing
    events.append(
        Event(
            "grounded",
            {
                "figure": _fid(figure),
                "hex": label(start),
                "damage": damage,
                "to": label(landing) if landing else None,
            },
        )
    )


def _heal(state: DungeonState, hero: Hero, amount: int, events: list[Event], by: str) -> None:
    before = hero.hp
    hero.hp = min(hero.max_hp, hero.hp + amount)
    if hero.hp > before:
        hero.note("healed", by, hero.hp - before)
    events.append(Event("healed", {"seat": hero.seat, "amount": hero.hp - before, "hp": hero.hp}))


def _open_door(
    state: DungeonState, hero: Hero, door_hex: Hex, dice: Dice, events: list[Event]
) -> None:
    """The door opens, the room behind it is set up at once, and each newly placed monster type
    whose initiative is lower than the current figure's acts right after this turn."""
    door = state.scenario.door_at(door_hex)
    assert door is not None
    state.open_doors.append(door_hex)
    rooms = [r for r in door.rooms if r not in state.revealed]
    placed: list[Monster] = []
    for rid in rooms:
        state.revealed.append(rid)
        placed += set_up_room(state, rid, door_hex, dice)
    events.append(
        Event(
            "door_opened",
            {
                "seat": hero.seat,
                "door": label(door_hex),
                "rooms": rooms,
                "monsters": [[m.id, label(m.hex)] for m in placed],
            },
        )
    )
    if not placed:
        return
    now = initiative(state, hero.seat)
    for mtype in sorted({m.type for m in placed}):
        if mtype not in state.round_cards:
            _draw_monster_card(state, mtype, dice)
    later = state.order[state.position + 1 :]
    soon = [m.id for m in placed if initiative(state, m.id) < now]
    rest = [m.id for m in placed if initiative(state, m.id) >= now]
    soon.sort(key=lambda a: order_key(state, a))
    later = sorted(later + rest, key=lambda a: order_key(state, a))
    state.order = state.order[: state.position + 1] + soon + later
    events.append(
        Event(
            "joined_round",
            {
                "monsters": [[m, initiative(state, m)] for m in soon + [x for x in rest]],
                "next": soon,
            },
        )
    )


def set_up_room(state: DungeonState, room_id: str, opener: Hex, dice: Dice) -> list[Monster]:
    """Place the room's monsters for this many players: in random standee order, nearest the
    opener first (the digest). Returns the monsters placed."""
    room = state.scenario.room(room_id)
    players = len(state.seats)
    placed: list[Monster] = []
    wanted = [p for p in room.monsters if p.min_players <= players]
    types_in_order: list[str] = []
    for p in wanted:
        if p.type not in types_in_order:
            types_in_order.append(p.type)
    for mtype in types_in_order:
        spots = sorted(
            (p.hex for p in wanted if p.type == mtype),
            key=lambda h: (distance(h, opener), label(h)),
        )
        used = {m.number for m in state.monsters if m.type == mtype}
        free = [n for n in range(1, content.monster_types()[mtype].standees + 1) if n not in used]
        shuffle(dice, free)
        mt = content.monster_types()[mtype]
        for spot, number in zip(spots, free, strict=False):
            if state.figure_at(spot) is not None:
                continue  # a character already stands there (a figure on a door is in no room)
            hp = mt.max_hp(state.level)
            monster = Monster(f"{mtype}-{number}", mtype, number, spot, hp, hp)
            state.monsters.append(monster)
            placed.append(monster)
    return placed


def _end_round(state: DungeonState, events: list[Event]) -> None:
    for hero in [state.heroes[s] for s in state.seats]:
        if hero.card is not None and hero.status == "active":
            hero.hand.remove(hero.card)
            hero.discard.append(hero.card)
        played = hero.card
        hero.card = None
        if hero.status != "active" or hero.hand:
            continue
        if len(hero.discard) >= 2:
            lost = played if played in hero.discard else hero.discard[-1]
            hero.discard.remove(lost)
            hero.lost.append(lost)
            cards = content.classes()[hero.cls].cards
            hero.hand = [c.id for c in cards if c.id in hero.discard]
            hero.discard = []
            events.append(Event("rested", {"seat": hero.seat, "lost": lost}))
        else:
            hero.status = "exhausted"
            hero.hex = None
            events.append(Event("exhausted", {"seat": hero.seat}))
    events.append(Event("round_end", {"round": state.round}))
    state.round += 1
    state.order = []
    state.position = -1
    state.round_cards = {}
    state.phase = "pick"
    _check_end(state, events)


def _check_end(state: DungeonState, events: list[Event]) -> None:
    if state.phase == "over":
        return
    if not state.heroes_in_play():
        state.phase, state.outcome = "over", MONSTERS
        events.append(Event("lost", {"round": state.round}))
        return
    every_room = len(state.revealed) == len(state.scenario.rooms)
    if every_room and not state.living_monsters():
        state.phase, state.outcome = "over", PARTY
        events.append(Event("won", {"round": state.round}))
