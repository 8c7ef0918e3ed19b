"""Master-unit tactics (``../shared/rules/tactics.md``): the pure rules engine.

Steps (each is one "turn" of the framework, both seats order at once):

1. ``roster`` (friendly matches only; skipped when the options carry league rosters): a master
   preset and 1–9 pool units each (``warlord knight knight archer``).
2. ``deploy``: a lineup of 1–5 roster units, total cost at most the cap, each on a free square of
   the side's zone (``knight C9, archer D9``); both revealed together, dice decide who goes first.
3. ``play`` turns 1..10: an action sheet per side, one line per unit (``knight C4>C6 attack D6``,
   ``剣士 C4→C6 攻撃 D6``, ``魔導士 待機``, ``summon knight A9`` on turns 3 and 7).

Steps are the framework's turns: :func:`turn` is the 1-based index of the open step once
:func:`start_step` has opened it (roster 1, deploy 2, play turn n = n + 2; without a roster step
deploy 1 and play n = n + 1); between a resolve and the next ``start_step`` it is still the
index of the step just resolved (0 for a new game), as the framework expects.
:func:`awaiting` is both seats while a step is open, nobody between a resolve and the next
``start_step`` or once finished.

Timing decisions (the digest leaves them open):

- A unit that used its ability in turn t cannot act in turn t + 1 (``exhausted``; a line for it
  is refused at submission). A unit summoned or revived in turn t acts from turn t + 1.
- A stat change "for N turns" counts the turn it is applied in: it ends after N turn ends (both
  phases), so a buff of 1 turn cast in the first phase also helps in the second phase.
- The annihilation check runs after each phase; "none it may still summon" means no reserve unit
  whose cost fits the mana of a summon turn (3 or 7) still to come in this match.

Events (``Event(type, data)``; data is JSON; units by id, squares as labels; the presenter
renders ``tactics.event.<type>``). Every event that names units (``unit``, ``killer``,
``target_unit``, ``by``) also carries ``names`` {unit id: {en, ja}}. Fields, stable:

- ``rosters`` {units: [unit view as in :func:`view`]}: both rosters, revealed together.
- ``deployed`` {seat, units: [{unit, square}]}: one per seat, both after both lineups are in.
- ``first`` {dice: {A: [d6…], B: [d6…]}, seat}: ties rerolled; ``seat`` plays first.
- ``phase`` {seat, turn} · ``mana`` {seat, mana, max}: a phase opens, the mana refills.
- ``summon`` {unit, to, cost} · ``fallback.no_summon`` {unit, reason}.
- ``move`` {unit, from, to, path: [squares, from first to last]}.
- ``attack`` {unit, target_unit, target, square, damage, hp}: ``target`` = ``square`` = the
  target's square, ``hp`` its HP after the hit; a ``death`` may follow.
- ``ability`` {unit, ability: {en, ja}, effect, target, target_unit (or null), square, mana}, then
  the effect's events: ``damage`` {unit, damage, hp, by} · ``heal`` {unit, amount, hp} ·
  ``push`` / ``pull`` {unit, from, to} · ``stat`` {unit, stat, delta, turns} ·
  ``teleport`` {unit, from, to} · ``revive`` {unit, to, hp} · ``obstacle`` {unit, square}.
- ``death`` {unit, killer, friendly, dp_to, points}: ``points`` 0 when ``friendly`` (the killer
  is on the dead unit's side), else 1, or 2 for a master; ``dp_to`` the opposed side.
- ``wait`` {unit}: a line that neither moves nor acts (units without a line wait silently).
- ``fallback.no_move`` {unit, to, reason}: the move cannot be made now, the unit does nothing.
- ``fallback.move_only`` {unit, reason, moved}: the attack or ability cannot be made, the unit
  only moves (``moved`` false: it had no move either, so it does nothing).
- ``fallback.gone`` {unit}: the unit fell before its line came.
- ``resigned`` {seat} · ``end`` {outcome: A | B | draw, reason: annihilation | dp | hp, dp}.

Reasons are message keys ``tactics.why.*`` (occupied, unreachable, target_gone, out_of_range,
no_mana, no_enemy, no_ally, no_unit, not_free, self_only, nobody_fallen, not_in_reserve).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.render.squaregrid import label, try_parse
from bot.ruleset import (  # noqa: F401
    DRAW,
    Choice,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    RuleError,
    StateError,
    counted_step,
)
from cogs.tactics import effects, maps, master, movement, sheet, units
from cogs.tactics.sheet import (  # noqa: F401  (re-exported for the builder, the AI, tests)
    KEYWORDS,
    LINEUP,
    MAX_COPIES,
    MAX_MANA,
    MAX_ORDER_CHARS,
    ROSTER_MAX,
    SUMMON_TURNS,
    Line,
    Order,
)
from cogs.tactics.state import (
    DEFAULT_CAP,
    MAX_TURNS,
    Square,
    StatEffect,
    TacticsState,
    Unit,
)
from cogs.tactics.units import UnitType

NAME = "tactics"
SEATS = ("A", "B")
SCHEMA_VERSION = 1
TIE_BREAKS = ("none", "hp")
DEFAULT_ROSTER = (
    "knight",
    "archer",
    "cleric",
    "lancer",
    "mage",
    "guardian",
    "thief",
    "scout",
    "brute",
)


class OptionError(RuleError):
    pass


_other = sheet.other
_reject = sheet.reject


# --- options and setup ------------------------------------------------------------------------


def _roster_types(entry: Mapping[str, Any]) -> list[UnitType]:
    """A league roster ``{"master": preset id or design, "units": [pool ids]}`` as unit types."""
    raw_master = entry.get("master")
    if isinstance(raw_master, str):
        found = master.preset(raw_master)
        if found is None:
            raise OptionError("tactics.option.unknown_master", name=raw_master)
        boss = found
    elif isinstance(raw_master, Mapping):
        boss = master.design(raw_master)
    else:
        raise OptionError("tactics.option.no_master")
    chosen = []
    for unit_id in entry.get("units") or ():
        unit = units.by_id(str(unit_id))
        if unit is None:
            raise OptionError("tactics.option.unknown_unit", name=unit_id)
        chosen.append(unit)
    # A league roster is the nine drafted units plus what antes won (league digest): no more
    # than MAX_COPIES of a unit, however many it holds. A friendly roster's nine is the sheet's.
    most = MAX_COPIES * len(units.pool())
    if not 1 <= len(chosen) <= most:
        raise OptionError("tactics.option.roster_size", max=most)
    for unit in chosen:
        if chosen.count(unit) > MAX_COPIES:
            raise OptionError("tactics.option.too_many_copies", name=unit.id, max=MAX_COPIES)
    return [boss, *chosen]


def check_options(options: Mapping[str, Any]) -> None:
    maps.load(str(options.get("map", maps.DEFAULT)))
    cap = options.get("cost_cap", DEFAULT_CAP)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 60:
        raise OptionError("tactics.option.cap", value=cap)
    if options.get("tie_break", "none") not in TIE_BREAKS:
        raise OptionError("tactics.option.tie_break", value=options.get("tie_break"))
    turns = options.get("turns", MAX_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 30:
        raise OptionError("tactics.option.turns", value=turns)
    rosters = options.get("rosters")
    if rosters is not None:
        if not isinstance(rosters, Mapping) or set(rosters) != set(SEATS):
            raise OptionError("tactics.option.rosters")
        for seat in SEATS:
            # A record's options are any JSON: each shape is checked before it is read.
            entry = rosters[seat]
            if not isinstance(entry, Mapping):
                raise OptionError("tactics.option.roster_entry", seat=seat)
            chosen = entry.get("units")
            if chosen is not None and not (
                isinstance(chosen, list | tuple) and all(isinstance(u, str) for u in chosen)
            ):
                raise OptionError("tactics.option.roster_units", seat=seat)
            _roster_types(entry)


def _set_roster(state: TacticsState, seat: str, types: Sequence[UnitType]) -> None:
    for index, unit_type in enumerate(types, start=1):
        uid = f"{seat}{index}"
        state.units[uid] = Unit(uid, seat, unit_type, unit_type.hp)


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice = NO_SECRET,
) -> TacticsState:
    if tuple(seats) != SEATS:
        raise OptionError("tactics.option.seats")
    check_options(options)
    state = TacticsState(str(game_id), dict(options), "roster")
    rosters = options.get("rosters")
    if rosters:
        for seat in SEATS:
            _set_roster(state, seat, _roster_types(rosters[seat]))
        state.step = "deploy"
    return state


def start_step(
    state: TacticsState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[TacticsState, list[Event]]:
    return counted_step(state)


def awaiting(state: TacticsState) -> list[str]:
    if state.step == "finished" or state.step_no <= state.resolved:
        return []
    return list(SEATS)


def step_number(state: TacticsState) -> int:
    return state.step_no


def step_label(state: TacticsState) -> str:
    """``roster``, ``deploy``, then ``turn 1`` … (the game's turns, not the table's steps)."""
    return f"turn {state.turn}" if state.step in ("play", "finished") else state.step


def outcome(state: TacticsState) -> Outcome:
    if state.winner is None:
        return Outcome.ongoing()
    if state.winner == DRAW:
        return Outcome.drawn(state.end_reason)
    return Outcome.win(state.winner, reason=state.end_reason)


# --- text (cogs/tactics/sheet.py) -----------------------------------------------------------


def parse(state: TacticsState, seat: str, text: str) -> Order:
    """The order ``text`` gives for the current step, or OrderRejected (see ``sheet.py``)."""
    return sheet.parse(state, seat, text)


# --- builder helpers --------------------------------------------------------------------------


def own_units(state: TacticsState, seat: str) -> list[str]:
    """Ids of ``seat``'s units that may be given a line this turn."""
    return [
        u.id
        for u in state.side_units(seat)
        if u.on_board and u.exhausted_turn != state.turn and state.step == "play"
    ]


def reachable(state: TacticsState, unit_id: str) -> list[str]:
    unit = state.units[unit_id]
    if not unit.on_board:
        return []
    start = unit.square
    assert start is not None  # a unit on the board stands on a square
    positions = {u.id: u.square for u in state.units.values() if u.on_board}
    squares = sheet.reach(state, unit, start, positions)
    return [
        label(sq) for sq in sorted(squares, key=lambda s: (movement.distance(s, start), s[1], s[0]))
    ]


def targets(state: TacticsState, unit_id: str, from_square: str) -> dict[str, list[str]]:
    """Squares the unit could attack or use its ability on, standing on ``from_square``."""
    unit = state.units[unit_id]
    origin = try_parse(from_square)
    found: dict[str, list[str]] = {"attack": [], "ability": []}
    if origin is None:
        return found
    m = state.map
    every = [(c, r) for r in range(m.height) for c in range(m.width)]
    every.sort(key=lambda s: (movement.distance(s, origin), s[1], s[0]))
    if unit.type.atk > 0:
        low, high = unit.type.range
        found["attack"] = [
            label(s) for s in every if s != origin and low <= movement.distance(s, origin) <= high
        ]
    if unit.type.ability is not None:
        low, high = unit.type.ability.range
        found["ability"] = [label(s) for s in every if low <= movement.distance(s, origin) <= high]
    return found


def choices(state: TacticsState, seat: str) -> list[ChoiceGroup]:
    """One button for the answer that needs no thought (a whole sheet is built with the cog's
    builder, 📝): the preset roster, the suggested lineup on the front row (both named on the
    button), or every unit waiting. Each is the step's default order, always legal."""
    if seat not in SEATS or seat not in awaiting(state):
        return []
    order = default_order(state, seat)
    if state.step == "roster":
        boss = master.preset(order.roster[0])
        name = dict(boss.name) if boss is not None else order.roster[0]
        count = len(order.roster) - 1
        quick = Choice(
            order.canonical(), "tactics.choice.roster", params={"master": name, "count": count}
        )
    elif state.step == "deploy":
        placed = [f"{units.tag(ln.unit)} {label(ln.dest)}" for ln in order.lines if ln.dest]
        lineup = {"en": ", ".join(placed), "ja": "、".join(placed)}
        quick = Choice(order.canonical(), "tactics.choice.deploy", params={"lineup": lineup})
    else:
        quick = Choice(order.canonical(), "tactics.choice.wait")
    return [ChoiceGroup("quick", "tactics.choice.group", [quick])]


def default_order(state: TacticsState, seat: str) -> Order:
    if state.step == "roster":
        return Order("roster", roster=(master.presets()[0].id, *DEFAULT_ROSTER))
    if state.step == "deploy":
        mine = state.side_units(seat)
        lineup: list[Unit] = []
        cost = 0
        pool_index = {u.id: i for i, u in enumerate(units.pool())}
        in_order = sorted(mine, key=lambda u: (not u.type.master, pool_index.get(u.type.id, 0)))
        for unit in in_order:
            if len(lineup) < LINEUP[1] and cost + unit.type.cost <= state.cap:
                lineup.append(unit)
                cost += unit.type.cost
        if not lineup:
            lineup = [min(mine, key=lambda u: u.type.cost)]
        zone = [sq for sq in state.map.zones[seat] if sq not in state.obstacles()]
        # Front row of the zone first: the row nearest the enemy.
        enemy_zone = state.map.zones[_other(seat)]
        zone.sort(key=lambda sq: min(movement.distance(sq, e) for e in enemy_zone))
        return Order("deploy", tuple(Line(u.id, sq) for u, sq in zip(lineup, zone, strict=False)))
    return Order("play", ())


# --- resolution -------------------------------------------------------------------------------


class _Resolver:
    """A working copy of the state that effects act on (the ``effects.Board`` protocol)."""

    def __init__(self, state: TacticsState) -> None:
        self.s = state
        self.events: list[Event] = []

    # effects.Board
    def unit_at(self, sq: Square) -> Unit | None:
        return self.s.unit_at(sq)

    def inside(self, sq: Square) -> bool:
        return self.s.map.inside(sq)

    def free(self, sq: Square) -> bool:
        return self.inside(sq) and sq not in self.s.obstacles() and self.s.unit_at(sq) is None

    def label(self, sq: Square) -> str:
        return label(sq)

    def place(self, unit: Unit, sq: Square) -> None:
        unit.square = sq

    def add_obstacle(self, sq: Square) -> None:
        self.s.placed_obstacles.append(sq)

    def add_effect(self, unit: Unit, stat: str, delta: int, turns: int) -> None:
        unit.effects.append(StatEffect(stat, delta, turns))

    def last_dead(self, side: str) -> Unit | None:
        for uid in reversed(self.s.fallen):
            unit = self.s.units[uid]
            if unit.side == side and unit.status == "dead":
                return unit
        return None

    def revive(self, unit: Unit, sq: Square) -> None:
        unit.status, unit.square = "board", sq
        unit.hp = max(1, unit.type.hp // 2)
        unit.effects = []
        unit.exhausted_turn = self.s.turn  # back now, it acts from the next turn on (a summon)
        self.s.fallen.remove(unit.id)

    def heal(self, unit: Unit, amount: int) -> int:
        before = unit.hp
        unit.hp = min(unit.type.hp, unit.hp + max(0, amount))
        if unit.hp > before:
            self._mark("heal", unit, amount=unit.hp - before)
        return unit.hp - before

    def _mark(self, kind: str, unit: Unit, **extra: Any) -> None:
        """What the board shows of last turn besides moves and strikes: each hit's damage, each
        heal, and where a unit fell (it has left the board, so only this remembers the square)."""
        if unit.square is None:
            return
        self.s.last.append(
            {"kind": kind, "side": unit.side, "unit": unit.id, "at": label(unit.square), **extra}
        )

    def damage(self, unit: Unit, amount: int, source: Unit) -> list[Event]:
        amount = max(0, amount)
        self._mark("damage", unit, amount=amount)
        unit.hp -= amount
        events = [
            Event(
                "damage",
                {"unit": unit.id, "damage": amount, "hp": max(unit.hp, 0), "by": source.id},
            )
        ]
        if unit.hp <= 0:
            events.append(self._death(unit, source))
        return events

    def _death(self, unit: Unit, killer: Unit) -> Event:
        self._mark("death", unit)
        unit.status, unit.square, unit.hp = "dead", None, 0
        unit.deaths += 1
        unit.effects = []
        self.s.fallen.append(unit.id)
        friendly = killer.side == unit.side
        points = 0 if friendly else (2 if unit.type.master else 1)
        to = _other(unit.side)
        self.s.dp[to] += points
        return Event(
            "death",
            {
                "unit": unit.id,
                "killer": killer.id,
                "friendly": friendly,
                "dp_to": to,
                "points": points,
            },
        )


def _named(state: TacticsState, event: Event) -> Event:
    ids = [
        v
        for k, v in event.data.items()
        if k in ("unit", "killer", "target_unit", "by") and isinstance(v, str)
    ]
    names = {uid: dict(state.units[uid].type.name) for uid in ids if uid in state.units}
    return Event(event.type, {**event.data, "names": names}) if names else event


def _unit_view(unit: Unit, turn: int, playing: bool) -> dict[str, Any]:
    t = unit.type
    return {
        "id": unit.id,
        "side": unit.side,
        "kind": t.id,
        "name": dict(t.name),
        "square": label(unit.square) if unit.on_board and unit.square else None,
        "status": unit.status,
        "hp": max(unit.hp, 0),
        "max_hp": t.hp,
        "atk": unit.stat("atk"),
        "def": unit.stat("def"),
        "move": unit.stat("move"),
        "range": list(t.range),
        "cost": t.cost,
        "master": t.master,
        "exhausted": playing and unit.on_board and unit.exhausted_turn == turn,
        "ability": t.ability.to_json() if t.ability else None,
        "effects": [{"stat": e.stat, "delta": e.delta, "turns": e.turns} for e in unit.effects],
    }


def resolve(
    state: TacticsState, orders: Mapping[str, Order], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[TacticsState, list[Event]]:
    if not awaiting(state):
        raise RuleError("tactics.error.not_open")
    new = copy.deepcopy(state)
    new.resolved = new.step_no
    new.last = []
    if new.step == "roster":
        events = _resolve_roster(new, orders)
    elif new.step == "deploy":
        events = _resolve_deploy(new, orders, dice)
    else:
        events = _resolve_play(new, orders)
    return new, [_named(new, e) for e in events]


def _resolve_roster(state: TacticsState, orders: Mapping[str, Order]) -> list[Event]:
    for seat in SEATS:
        order = orders.get(seat) or default_order(state, seat)
        boss = master.preset(order.roster[0])
        types = [boss, *(units.by_id(u) for u in order.roster[1:])]
        _set_roster(state, seat, [t for t in types if t is not None])
    state.step = "deploy"
    return [Event("rosters", {"units": [_unit_view(u, 0, False) for u in state.units.values()]})]


def _resolve_deploy(state: TacticsState, orders: Mapping[str, Order], dice: Dice) -> list[Event]:
    events = []
    for seat in SEATS:
        order = orders.get(seat) or default_order(state, seat)
        placed = []
        for line in order.lines:
            dest = line.dest
            assert dest is not None  # a deployment line always names its square
            unit = state.units[line.unit]
            unit.status, unit.square = "board", dest
            state.last.append({"kind": "summon", "side": seat, "unit": unit.id, "to": label(dest)})
            placed.append({"unit": line.unit, "square": label(dest)})
        events.append(Event("deployed", {"seat": seat, "units": placed}))
    rolls: dict[str, list[int]] = {"A": [], "B": []}
    while True:
        a, b = dice.roll(6), dice.roll(6)
        rolls["A"].append(a)
        rolls["B"].append(b)
        if a != b:
            break
    state.first = "A" if rolls["A"][-1] > rolls["B"][-1] else "B"
    events.append(Event("first", {"dice": rolls, "seat": state.first}))
    state.step, state.turn = "play", 1
    return events


def _may_still_summon(state: TacticsState, seat: str, phase_done: bool) -> bool:
    reserve = [u for u in state.side_units(seat) if u.status == "reserve"]
    for summon_turn in SUMMON_TURNS:
        if summon_turn > state.max_turns:
            continue
        later = summon_turn > state.turn or (summon_turn == state.turn and not phase_done)
        if later and any(u.type.cost <= min(summon_turn, MAX_MANA) for u in reserve):
            return True
    return False


def _check_annihilation(state: TacticsState, done: set[str]) -> Event | None:
    wiped = [
        seat
        for seat in SEATS
        if not any(u.on_board for u in state.side_units(seat))
        and not _may_still_summon(state, seat, seat in done)
    ]
    if not wiped:
        return None
    state.winner = DRAW if len(wiped) == 2 else _other(wiped[0])
    state.end_reason = "annihilation"
    state.step = "finished"
    return Event("end", {"outcome": state.winner, "reason": "annihilation", "dp": dict(state.dp)})


def _resolve_play(state: TacticsState, orders: Mapping[str, Order]) -> list[Event]:
    events: list[Event] = []
    board = _Resolver(state)
    assert state.first is not None
    done: set[str] = set()
    for seat in (state.first, _other(state.first)):
        cap = min(state.turn, MAX_MANA)
        state.mana[seat] = [cap, cap]
        events.append(Event("phase", {"seat": seat, "turn": state.turn}))
        events.append(Event("mana", {"seat": seat, "mana": cap, "max": cap}))
        order = orders.get(seat) or Order("play", ())
        for line in order.lines:
            if line.action == "summon":
                events += _summon(state, seat, line)
        for line in order.lines:
            if line.action != "summon":
                events += _act(state, board, seat, line)
        done.add(seat)
        end = _check_annihilation(state, done)
        if end is not None:
            return [*events, end]
    for unit in state.units.values():
        for effect in unit.effects:
            effect.turns -= 1
        unit.effects = [e for e in unit.effects if e.turns > 0]
    if state.turn >= state.max_turns:
        return [*events, _final(state)]
    state.turn += 1
    return events


def _final(state: TacticsState) -> Event:
    a, b = state.dp["A"], state.dp["B"]
    reason = "dp"
    if a == b and state.options.get("tie_break", "none") == "hp":
        a = sum(max(u.hp, 0) for u in state.side_units("A") if u.on_board)
        b = sum(max(u.hp, 0) for u in state.side_units("B") if u.on_board)
        reason = "hp"
    state.winner = DRAW if a == b else ("A" if a > b else "B")
    state.end_reason = reason
    state.step = "finished"
    return Event("end", {"outcome": state.winner, "reason": reason, "dp": dict(state.dp)})


def _summon(state: TacticsState, seat: str, line: Line) -> list[Event]:
    unit = state.units[line.unit]
    sq = line.target
    assert sq is not None
    reason = None
    if unit.status != "reserve":
        reason = "tactics.why.not_in_reserve"
    elif sq in state.obstacles() or state.unit_at(sq) is not None:
        reason = "tactics.why.occupied"
    elif state.mana[seat][0] < unit.type.cost:
        reason = "tactics.why.no_mana"
    if reason:
        return [Event("fallback.no_summon", {"unit": unit.id, "reason": reason})]
    state.mana[seat][0] -= unit.type.cost
    unit.status, unit.square = "board", sq
    unit.exhausted_turn = state.turn  # a summoned unit acts from the next turn
    state.last.append({"kind": "summon", "side": seat, "unit": unit.id, "to": label(sq)})
    return [Event("summon", {"unit": unit.id, "to": label(sq), "cost": unit.type.cost})]


def _move_only(unit: Unit, why: str, *, moved: bool) -> Event:
    """The second fallback rule: the move stands, the attack or ability does not happen."""
    return Event("fallback.move_only", {"unit": unit.id, "reason": why, "moved": moved})


def _act(state: TacticsState, board: _Resolver, seat: str, line: Line) -> list[Event]:
    unit = state.units[line.unit]
    if not unit.on_board:
        return [Event("fallback.gone", {"unit": unit.id})]
    start = unit.square
    assert start is not None  # a unit on the board stands on a square
    events: list[Event] = []
    if line.dest is not None:
        positions = {u.id: u.square for u in state.units.values() if u.on_board}
        if line.dest in state.obstacles() or state.unit_at(line.dest) is not None:
            reason = "tactics.why.occupied"
        elif line.dest not in sheet.reach(state, unit, start, positions):
            reason = "tactics.why.unreachable"
        else:
            reason = None
        if reason:
            return [
                Event(
                    "fallback.no_move",
                    {"unit": unit.id, "to": label(line.dest), "reason": reason},
                )
            ]
        path = sheet.path(state, unit, start, line.dest)
        unit.square = line.dest
        state.last.append(
            {"kind": "move", "side": seat, "unit": unit.id, "path": [label(s) for s in path]}
        )
        events.append(
            Event(
                "move",
                {
                    "unit": unit.id,
                    "from": label(start),
                    "to": label(line.dest),
                    "path": [label(s) for s in path],
                },
            )
        )
    where = unit.square
    assert where is not None
    if line.action == "attack":
        target = state.unit_at(line.target) if line.target else None
        low, high = unit.type.range
        if line.target is None or target is None:
            return [*events, _move_only(unit, "tactics.why.target_gone", moved=bool(events))]
        if target is unit or not low <= movement.distance(where, line.target) <= high:
            return [*events, _move_only(unit, "tactics.why.out_of_range", moved=bool(events))]
        amount = max(0, unit.stat("atk") - target.stat("def"))
        state.last.append(
            {
                "kind": "attack",
                "side": seat,
                "unit": unit.id,
                "from": label(where),
                "to": label(line.target),
                "friendly": target.side == seat,
            }
        )
        hit = Event(
            "attack",
            {
                "unit": unit.id,
                "target_unit": target.id,
                "target": label(line.target),
                "square": label(line.target),
                "damage": amount,
                "hp": max(target.hp - amount, 0),
            },
        )
        events.append(hit)
        events += board.damage(target, amount, unit)[1:]  # the attack line already says the damage
        return events
    if line.action == "ability":
        ability = unit.type.ability
        assert ability is not None
        target_sq = line.target or where
        low, high = ability.range
        why = None
        if state.mana[seat][0] < ability.mana:
            why = "tactics.why.no_mana"
        elif not low <= movement.distance(where, target_sq) <= high:
            why = "tactics.why.out_of_range"
        else:
            why = effects.valid_target(board, unit, target_sq, ability)
        if why:
            return [*events, _move_only(unit, why, moved=bool(events))]
        state.mana[seat][0] -= ability.mana
        unit.exhausted_turn = state.turn + 1
        target_unit = state.unit_at(target_sq)
        state.last.append(
            {
                "kind": "ability",
                "side": seat,
                "unit": unit.id,
                "from": label(where),
                "to": label(target_sq),
                "friendly": target_unit is not None
                and target_unit.side == seat
                and target_unit is not unit
                and ability.effect in ("damage", "area_damage", "push", "pull"),
            }
        )
        events.append(
            Event(
                "ability",
                {
                    "unit": unit.id,
                    "ability": dict(ability.name),
                    "effect": ability.effect,
                    "target": label(target_sq),
                    "target_unit": target_unit.id if target_unit is not None else None,
                    "square": label(target_sq),
                    "mana": ability.mana,
                },
            )
        )
        events += effects.EFFECTS[ability.effect](board, unit, target_sq, ability)
        return events
    if line.dest is None:
        events.append(Event("wait", {"unit": unit.id}))
    return events


def resign(state: TacticsState, seat: str) -> tuple[TacticsState, list[Event]]:
    new = copy.deepcopy(state)
    new.winner = _other(seat)
    new.end_reason = "resign"
    new.step = "finished"
    return new, [Event("resigned", {"seat": seat})]


# --- views ------------------------------------------------------------------------------------


def view(state: TacticsState, seat: str | None) -> dict[str, Any]:
    m = state.map
    playing = state.step == "play"
    shown = list(state.units.values())
    return {
        "step": state.step,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "first": state.first,
        "map": {
            "name": dict(m.titles),
            "key": m.name,
            "width": m.width,
            "height": m.height,
            "obstacles": sorted(label(sq) for sq in state.obstacles()),
            "zones": {s: [label(sq) for sq in m.zones[s]] for s in SEATS},
        },
        "units": [_unit_view(u, state.turn, playing) for u in shown],
        "dp": dict(state.dp),
        "mana": {s: list(v) for s, v in state.mana.items()},
        "next_mana": min(max(state.turn, 1), MAX_MANA),
        "alive": {s: sum(1 for u in state.side_units(s) if u.on_board) for s in SEATS},
        "cost_cap": state.cap,
        "summon_turn": playing and state.turn in SUMMON_TURNS,
        "last": copy.deepcopy(state.last),  # a view shares nothing with the state
        "outcome": state.winner,
    }


def last_resolved_turn(state: TacticsState) -> int:
    """The last turn whose phases were played, the turn the stored mana belongs to (0 before the
    first). ``state.turn`` is the turn being played: it moves on right after a turn resolves,
    except after the last turn or a wipe-out, which end the game inside the turn."""
    if state.step == "finished" and state.end_reason in ("dp", "hp", "annihilation"):
        return state.turn
    return max(state.turn - 1, 0)


def summary(state: TacticsState) -> dict[str, Any]:
    """The replay summary: ``turn`` is the last resolved turn, whose mana ``mana`` shows."""
    return {
        "turn": last_resolved_turn(state),
        "dp": dict(state.dp),
        "mana": {s: list(v) for s, v in state.mana.items()},
        "units": {
            s: [
                {"id": u.id, "square": label(u.square), "hp": u.hp}
                for u in state.side_units(s)
                if u.on_board and u.square
            ]
            for s in SEATS
        },
    }


# --- storage ----------------------------------------------------------------------------------


def to_json(state: TacticsState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "options": state.options,
        "step": state.step,
        "step_no": state.step_no,
        "resolved": state.resolved,
        "turn": state.turn,
        "first": state.first,
        "units": [
            {
                "id": u.id,
                "side": u.side,
                "type": u.type.to_json(),
                "hp": u.hp,
                "status": u.status,
                "square": list(u.square) if u.square else None,
                "exhausted_turn": u.exhausted_turn,
                "effects": [[e.stat, e.delta, e.turns] for e in u.effects],
                "deaths": u.deaths,
            }
            for u in state.units.values()
        ],
        "dp": dict(state.dp),
        "mana": {s: list(v) for s, v in state.mana.items()},
        "placed_obstacles": [list(sq) for sq in state.placed_obstacles],
        "fallen": list(state.fallen),
        "last": copy.deepcopy(state.last),
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def from_json(obj: Mapping[str, Any]) -> TacticsState:
    try:
        if obj.get("schema") != SCHEMA_VERSION:
            raise StateError("tactics.error.schema", found=obj.get("schema"))
        state = TacticsState(
            game_id=str(obj["game_id"]),
            options=dict(obj["options"]),
            step=str(obj["step"]),
            step_no=int(obj["step_no"]),
            resolved=int(obj["resolved"]),
            turn=int(obj["turn"]),
            first=obj.get("first"),
            dp={s: int(v) for s, v in obj["dp"].items()},
            mana={s: [int(x) for x in v] for s, v in obj["mana"].items()},
            placed_obstacles=[(int(a), int(b)) for a, b in obj.get("placed_obstacles", [])],
            fallen=[str(x) for x in obj.get("fallen", [])],
            last=[dict(x) for x in copy.deepcopy(obj.get("last", []))],
            winner=obj.get("winner"),
            end_reason=obj.get("end_reason"),
        )
        for u in obj["units"]:
            state.units[u["id"]] = Unit(
                id=str(u["id"]),
                side=str(u["side"]),
                type=UnitType.from_json(u["type"]),
                hp=int(u["hp"]),
                status=str(u["status"]),
                square=(int(u["square"][0]), int(u["square"][1])) if u.get("square") else None,
                exhausted_turn=int(u.get("exhausted_turn", 0)),
                effects=[StatEffect(str(a), int(b), int(c)) for a, b, c in u.get("effects", [])],
                deaths=int(u.get("deaths", 0)),
            )
        if state.step not in ("roster", "deploy", "play", "finished"):
            raise StateError("tactics.error.step", step=state.step)
        return state
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise StateError("tactics.error.state", detail=str(exc)) from exc
