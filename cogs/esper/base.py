"""Esper war, part 2: the secret base (``../shared/rules/esper.md``, Stage 2, D2).

Pure. The base is a 6×6 field ``A1``–``F6`` (column letter, row number), laid face down from
the secret stream in reading order. Its framework steps (``state.step``):

- ``keys``: EVIL silhouettes vote where the key installations go (``keys B2 D5 E1``, withheld);
- ``place``: the living invaders holding the most info place their pieces on outer spots
  (``place A1``); the others wait around the base;
- then normal turns (``turn`` and its sub-steps, as on the planets) for everyone, with the base's
  own moves: ``move B3`` (one spot orthogonally), ``teleport N [C4>C5>D5]`` (the path: orthogonal
  steps, never straight back) and, around the base, ``infiltrate [A1]`` (an ESP level check, +1
  per earlier failure; EVIL silhouettes pass by right).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.dice import Dice, shuffle
from bot.ruleset import Event, OrderRejected
from cogs.esper.effects import (
    card_effect,
    esp_check,
    place,
)
from cogs.esper.state import (
    BASE_STAGE,
    DEFENDER,
    INVADER,
    R_MOVE,
    R_NOT_NOW,
    R_UNKNOWN,
    TURN,
    Action,
    EsperOrder,
    EsperState,
    party_info,
    side_of,
)

KEYS, PLACE, PATH = "keys", "place", "path"
STEPS = (KEYS, PLACE, PATH)
COLUMNS = "ABCDEF"
ROWS = 6
OFFSETS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

R_BASE_SPOT = "esper.reject.base_spot"
R_OUTER = "esper.reject.outer"
R_KEYS = "esper.reject.keys"
R_PATH = "esper.reject.path"
R_OUTSIDE = "esper.reject.outside"
R_INSIDE = "esper.reject.inside"


# --- geometry ------------------------------------------------------------------------------------


# spots() and neighbours() are made once (neighbours() of at most 256 spots, whatever a caller
# passes): the base's AI charts the whole map for every order it weighs, hundreds of thousands of
# calls in an AI game.
@functools.cache
def spots() -> tuple[str, ...]:
    """The 36 spots in reading order: A1 … F1, A2 … F6."""
    return tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)


def coords(spot: str) -> tuple[int, int] | None:
    if len(spot) != 2 or spot[0] not in COLUMNS or not spot[1].isdigit():
        return None
    row = int(spot[1])
    if not 1 <= row <= ROWS:
        return None
    return COLUMNS.index(spot[0]), row - 1


def spot_at(x: int, y: int) -> str | None:
    if 0 <= x < len(COLUMNS) and 0 <= y < ROWS:
        return f"{COLUMNS[x]}{y + 1}"
    return None


def outer(spot: str) -> bool:
    xy = coords(spot)
    return xy is not None and (xy[0] in (0, len(COLUMNS) - 1) or xy[1] in (0, ROWS - 1))


def outer_spots() -> list[str]:
    return [s for s in spots() if outer(s)]


@functools.lru_cache(maxsize=256)
def neighbours(spot: str) -> tuple[str, ...]:
    xy = coords(spot)
    if xy is None:
        return ()
    out = []
    for dx, dy in OFFSETS.values():
        other = spot_at(xy[0] + dx, xy[1] + dy)
        if other is not None:
            out.append(other)
    return tuple(out)


def path_ok(start: str, path: Sequence[str]) -> bool:
    """Orthogonal steps from ``start``, never straight back to the spot just left."""
    previous, here = None, start
    for spot in path:
        if spot not in neighbours(here) or spot == previous:
            return False
        previous, here = here, spot
    return True


def spot_word(word: str) -> str:
    spot = word.upper()
    if coords(spot) is None:
        raise OrderRejected(R_BASE_SPOT, spot=word[:8])
    return spot


def path_word(word: str) -> list[str]:
    return [spot_word(w) for w in word.replace("→", ">").split(">") if w]


def line(start: str, steps: int, direction: str) -> str:
    """``steps`` spots in ``direction``, stopping at the edge (an escape's move in the base)."""
    xy = coords(start)
    assert xy is not None
    dx, dy = OFFSETS.get(direction, OFFSETS["right"])
    x, y = xy
    for _ in range(steps):
        nxt = spot_at(x + dx, y + dy)
        if nxt is None:
            break
        x, y = x + dx, y + dy
    return spot_at(x, y) or start


# --- opening the base ----------------------------------------------------------------------------


def open_base(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> bool:
    """The planet stage is over: lay the base, then the key installations' votes. True when the
    pieces are in already (nobody votes or places): the caller opens the first turn."""
    state.stage = BASE_STAGE
    state.active = None
    deck = state.pack.base_deck()
    shuffle(secret, deck)
    state.base = dict(zip(spots(), deck[: len(spots())], strict=False))
    for seat in state.order:
        s = state.seats[seat]
        s.spot, s.last_spot = None, None
    events.append(Event("base", {"spots": len(state.base)}))
    voters = [s for s in state.order if side_of(state, s) == DEFENDER and state.seats[s].alive]
    if voters and state.pack.keys_placed:
        state.step, state.waiting = KEYS, voters
        return False
    _place_keys(state, {}, secret, events)
    return _open_placement(state, dice, events)


def parse(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    step = state.step
    if step == KEYS:
        words = [w for p in parts for w in p]
        if words == ["pass"]:
            return EsperOrder((Action("pass"),))
        if words[:1] == ["keys"]:
            words = words[1:]
        # A spot named twice is one vote for it (the buttons ask a column and a row per key,
        # and cannot keep a second key off the first's spot): a vote of fewer spots votes for
        # fewer, and the tally fills what no vote reaches (``_place_keys``). More spots than
        # keys: refused.
        chosen = list(dict.fromkeys(spot_word(w) for w in _paired(words)))
        if not chosen or len(chosen) > state.pack.keys_placed:
            raise OrderRejected(R_KEYS, n=state.pack.keys_placed)
        return EsperOrder((Action("keys", tuple(chosen)),))
    if step == PLACE:
        words = [w for p in parts for w in p]
        if words[:1] == ["place"]:
            words = words[1:]
        if len(words) != 1:
            raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
        spot = spot_word(words[0])
        if not outer(spot):
            raise OrderRejected(R_OUTER, spot=spot)
        return EsperOrder((Action("place", (spot,)),))
    if step == PATH:
        words = [w for p in parts for w in p]
        if len(words) != 1:
            raise OrderRejected(R_PATH, n=state.pending.get("distance", 0))
        path = path_word(words[0])
        _check_path(state, seat, path, int(state.pending.get("distance", 0)))
        return EsperOrder((Action("path", (">".join(path),)),))
    raise OrderRejected(R_NOT_NOW)


def _paired(words: Sequence[str]) -> list[str]:
    """Spots given as a column and a row apart (the buttons' ``B 2 D 5``) joined (``B2 D5``);
    whole spots as they are."""
    out: list[str] = []
    for word in words:
        if out and word.isdigit() and len(out[-1]) == 1 and out[-1].upper() in COLUMNS:
            out[-1] += word
        else:
            out.append(word)
    return out


def _check_path(state: EsperState, seat: str, path: Sequence[str], n: int) -> None:
    start = state.seats[seat].spot
    if start is None or len(path) != n or not path_ok(start, path):
        raise OrderRejected(R_PATH, n=n)


def default_order(state: EsperState, seat: str) -> EsperOrder:
    if state.step == KEYS:
        return EsperOrder((Action("pass"),))  # a vote not sent counts as none
    if state.step == PLACE:
        free = [s for s in outer_spots() if not _occupied(state, s)]
        return EsperOrder((Action("place", ((free or outer_spots())[0],)),))
    if state.step == PATH:
        return EsperOrder((Action("path", (">".join(default_path(state, seat)),)),))
    raise OrderRejected(R_NOT_NOW)


def default_path(state: EsperState, seat: str) -> list[str]:
    """A path of the pending distance: the first neighbour in reading order, never back."""
    n = int(state.pending.get("distance", 0))
    here = state.seats[seat].spot or "A1"
    previous: str | None = None
    path: list[str] = []
    for _ in range(n):
        options = [s for s in neighbours(here) if s != previous]
        previous, here = here, options[0]
        path.append(here)
    return path


def _occupied(state: EsperState, spot: str) -> bool:
    return any(state.seats[s].spot == spot and state.seats[s].alive for s in state.order)


def resolve_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> bool:
    """The set-up's steps, ``keys`` and ``place`` (a teleport's ``path`` is a turn's: the
    turn lands it). True when the pieces are in: the caller opens the first turn."""
    if state.step == KEYS:
        votes = {s: list(o.actions[0].args) for s, o in orders.items() if o.verb == "keys"}
        _place_keys(state, votes, secret, events)
        return _open_placement(state, dice, events)
    return _resolve_place(state, orders, dice, events)


def _place_keys(
    state: EsperState, votes: Mapping[str, list[str]], secret: Dice, events: list[Event]
) -> None:
    """The most voted spots, ties to the earliest seat's list (its order); no vote at all: the
    secret stream picks (*decided*: a base needs its key installations)."""
    n = state.pack.keys_placed
    ids = list(state.pack.keys)[:n]
    counts = Counter(spot for chosen in votes.values() for spot in chosen)
    rank: dict[str, int] = {}
    for seat in state.order:
        for index, spot in enumerate(votes.get(seat, [])):
            rank.setdefault(spot, seat_index(state, seat) * 100 + index)
    chosen = sorted(counts, key=lambda spot: (-counts[spot], rank[spot]))[:n]
    if len(chosen) < n:
        rest = [s for s in spots() if s not in chosen]
        shuffle(secret, rest)
        chosen += rest[: n - len(chosen)]
    state.keys = {
        spot: {"id": key_id, "damage": 0, "found": False, "destroyed": False}
        for spot, key_id in zip(chosen, ids, strict=False)
    }
    events.append(Event("keys_placed", {"n": len(state.keys)}))
    defenders = [s for s in state.order if side_of(state, s) == DEFENDER]
    if defenders:
        events.append(
            Event(
                "keys_at",
                {"keys": {spot: k["id"] for spot, k in state.keys.items()}},
                to=tuple(defenders),
            )
        )


def seat_index(state: EsperState, seat: str) -> int:
    return state.order.index(seat)


def _open_placement(state: EsperState, dice: Dice, events: list[Event]) -> bool:
    """The living invaders with the most info place; nobody has any: all of them; one of them
    unable (a black hole): nobody. The rest wait around the base. True when nobody places (the
    pieces are in)."""
    invaders = [s for s in state.order if side_of(state, s) == INVADER and state.seats[s].alive]
    for seat in state.order:
        state.seats[seat].outside = state.seats[seat].alive
    most = max((party_info(state, s) for s in invaders), default=0)
    placers = [s for s in invaders if party_info(state, s) == most]
    if any(state.seats[s].black_hole for s in placers):
        placers = []
    events.append(Event("placement", {"seats": placers}))
    if placers:
        state.step, state.waiting = PLACE, placers
        return False
    return _place_evil(state, dice, events)


def _resolve_place(
    state: EsperState, orders: Mapping[str, EsperOrder], dice: Dice, events: list[Event]
) -> bool:
    last = state.pending.get("last_actor")
    order = list(state.order)
    if last in order:  # seat order from the last actor
        start = order.index(last)
        order = order[start:] + order[:start]
    for seat in order:
        chosen = orders.get(seat)
        if chosen is None:
            continue
        enter(state, seat, chosen.actions[0].args[0], "placed", events)
    return _place_evil(state, dice, events)


def enter(state: EsperState, seat: str, spot: str, how: str, events: list[Event]) -> None:
    state.seats[seat].outside = False
    place(state, seat, spot, how, events)


def _place_evil(state: EsperState, dice: Dice, events: list[Event]) -> bool:
    """EVIL silhouettes go in by the resolve stream (d6 column, d6 row, in seat order); then
    everyone's turns, from the seat after the last actor (True: the caller opens it)."""
    for seat in state.order:
        if side_of(state, seat) != DEFENDER or not state.seats[seat].alive:
            continue
        x, y = dice.roll(6), dice.roll(6)
        spot = spot_at(x - 1, y - 1)
        assert spot is not None
        events.append(Event("evil_placed", {"seat": seat, "dice": [x, y]}))
        enter(state, seat, spot, "evil", events)
    state.step = TURN
    events.append(Event("base_start", {}))
    state.active = state.pending.pop("last_actor", None) or state.order[-1]
    state.pending = {}
    return True


# --- turns in the base ---------------------------------------------------------------------------


def move_target(state: EsperState, seat: str, where: str) -> str:
    here = state.seats[seat].spot
    if state.seats[seat].outside or here is None:
        raise OrderRejected(R_OUTSIDE)
    spot = spot_word(where)
    if spot not in neighbours(here):
        raise OrderRejected(R_MOVE)
    return spot


def check_infiltrate(state: EsperState, seat: str, args: Sequence[str]) -> None:
    if not state.seats[seat].outside:
        raise OrderRejected(R_INSIDE)
    if args and not outer(spot_word(args[0])):
        raise OrderRejected(R_OUTER, spot=args[0])


def infiltrate(
    state: EsperState, seat: str, args: Sequence[str], dice: Dice, events: list[Event]
) -> None:
    """An ESP level check, +1 per earlier failure (cumulative); EVIL silhouettes pass by right."""
    s = state.seats[seat]
    if side_of(state, seat) == DEFENDER:
        ok = True
        events.append(Event("infiltrated", {"seat": seat, "auto": True}))
    else:
        s.bonus += s.infiltration
        ok = esp_check(state, seat, dice, events, "infiltrate")
        if not ok:
            s.infiltration += 1
    if ok:
        spot = (
            spot_word(args[0])
            if args
            else next((o for o in outer_spots() if not _occupied(state, o)), "A1")
        )
        s.infiltration = 0
        enter(state, seat, spot, "infiltrate", events)


def teleport(
    state: EsperState, seat: str, args: Sequence[str], dice: Dice, events: list[Event]
) -> bool:
    """``teleport N [path]``: 1D6 below N moves that many steps along the path (given now, or
    asked for after the roll). True when the path is still to come."""
    n = int(args[0])
    roll = dice.roll(6)
    ok = roll < n
    events.append(Event("teleport", {"seat": seat, "level": n, "roll": roll, "success": ok}))
    if not ok:
        return False
    given = path_word(args[1]) if len(args) > 1 else []
    start = state.seats[seat].spot
    assert start is not None
    if len(given) >= roll and path_ok(start, given[:roll]):
        place(state, seat, given[roll - 1], "teleport", events)
        return False
    state.pending["distance"] = roll
    state.step, state.waiting = PATH, [seat]
    return True


def square(state: EsperState, seat: str, events: list[Event]) -> None:
    """The base card under the piece: face up and fired for invaders; EVIL silhouettes ignore
    it unless it says so, and it never turns face up for them. A key installation there is
    found."""
    s = state.seats[seat]
    spot = s.spot
    if spot is None or s.outside:
        return
    evil = side_of(state, seat) == DEFENDER
    key = state.keys.get(spot)
    if key is not None and not evil and not key["found"] and not key["destroyed"]:
        key["found"] = True
        events.append(Event("key_found", {"seat": seat, "spot": spot, "key": key["id"]}))
    card_id = state.base.get(spot)
    if card_id is None or spot in state.base_spent:
        return
    card = state.pack.base_cards[card_id]
    if evil and not card.evil:
        return
    if evil:
        # The card stays face down: only its holder hears what it did, and the channel sees only
        # what it changed in public (damage, info, ability cards), never a recovery of nothing.
        events.append(
            Event("base_trap", {"seat": seat, "effect": card.effect, "n": card.n}, to=(seat,))
        )
        effects: list[Event] = []
        card_effect(state, seat, spot, card.effect, card.n, effects)
        events += [e for e in effects if not _changes_nothing(e)]
    else:
        if spot not in state.base_up:
            state.base_up.append(spot)
        events.append(Event("square", {"seat": seat, "spot": spot, "card": card_id}))
        card_effect(state, seat, spot, card.effect, card.n, events)
    if (card.once or card.effect == "info") and not evil:
        state.base_spent.append(spot)


def _changes_nothing(event: Event) -> bool:
    """Whether a hidden card's effect ``event`` records no change at all: a recovery of nothing,
    which would name the card in public (its holder hears of it by the private base_trap)."""
    return event.type == "recovered" and event.data["n"] == 0


def keys_left(state: EsperState) -> int:
    return sum(1 for k in state.keys.values() if not k["destroyed"])


def public(state: EsperState) -> dict[str, Any] | None:
    """The base's public facts: face-up cards, found key installations (every one once the game
    is over: where the unfound ones were), who waits outside."""
    if state.stage != BASE_STAGE:
        return None
    over = state.ended is not None
    return {
        "up": {s: state.base[s] for s in state.base_up if s in state.base},
        "spent": [s for s in state.base_spent if s in state.base_up],
        "keys": {
            spot: {
                "id": k["id"],
                "damage": k["damage"],
                "durability": state.pack.keys[k["id"]].durability,
                "destroyed": k["destroyed"],
                "found": bool(k["found"] or k["destroyed"]),
            }
            for spot, k in state.keys.items()
            if k["found"] or k["destroyed"] or over
        },
        "keys_total": len(state.keys),
        "outside": [s for s in state.order if state.seats[s].outside and state.seats[s].alive],
    }
