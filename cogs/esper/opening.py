"""Esper war: the set-up (``../shared/rules/esper.md``, Setup), from the deal to the first
normal turn.

Its framework steps: ``deal`` (``keep``, ``refuse``, ``refuse-last``), ``silhouette`` and
``repick`` (secret picks revealed together; of the same picks one keeps it, bound by an Ace, else
drawn), ``balance`` and ``balance_card`` (the larger side may change, then must follow a new
playing card) and ``start`` (ambush votes and start planets), each read, checked and resolved
here. Hidden draws (the deals, the 52-card deck, the planet layout, the ability deck, each seat's
default silhouette, who keeps a clashing pick) come from the game's secret stream; the first
player from the step's resolve stream.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.dice import Dice, shuffle
from bot.ruleset import Event, OrderRejected
from cogs.esper.orders import (
    WORDS,
    normal,
    planet_word,
    seat_word,
)
from cogs.esper.pack import Pack
from cogs.esper.state import (
    BALANCE,
    BALANCE_CARD,
    DEFENDER,
    EVIL,
    GOOD,
    INVADER,
    R_ACE,
    R_KEEP_CARD,
    R_REFUSE_LAST,
    R_REFUSE_SEASON,
    R_REFUSE_USED,
    R_RUNNER,
    R_SILHOUETTE,
    R_SPOT,
    R_TAKEN,
    R_TEN,
    R_UNKNOWN,
    RANKS,
    REPICK,
    SILHOUETTE,
    SPECIAL,
    START,
    SUITS,
    Action,
    EsperOrder,
    EsperState,
    can_act,
    card_spots,
    composition,
    history,
    rank,
    ring,
    side_of,
    sides,
)
from cogs.esper.turns import (
    end_stage,
    open_turn,
)

# --- the deal ------------------------------------------------------------------------------------


def check_deal(state: EsperState, seat: str, order: EsperOrder) -> EsperOrder:
    s = state.seats[seat]
    season, previous = history(state, seat)
    if order.verb == "refuse":
        if s.refused:
            raise OrderRejected(R_REFUSE_USED)
        if s.sheet not in season:
            raise OrderRejected(R_REFUSE_SEASON)
    elif order.verb == "refuse-last" and s.sheet != previous and s.sheet not in s.refused_sheets:
        raise OrderRejected(R_REFUSE_LAST)
    return order


def deal(state: EsperState, secret: Dice, events: list[Event]) -> None:
    """Shuffle the (L) sheets, deal the first; per alignment shuffle the others and take what the
    composition still needs; shuffle the dealt sheets onto the seats (esper.md, Setup 1)."""
    pack = state.pack
    need = dict(zip((GOOD, EVIL, SPECIAL), composition(pack, len(state.order)), strict=True))
    locks = [s.id for s in pack.sheets.values() if s.lock]
    shuffle(secret, locks)
    dealt: list[str] = []
    for sheet_id in locks:
        if need[pack.sheets[sheet_id].alignment] > 0:
            dealt.append(sheet_id)
            need[pack.sheets[sheet_id].alignment] -= 1
            break
    undealt: dict[str, list[str]] = {"L": [s for s in locks if s not in dealt]}
    for alignment in (GOOD, EVIL, SPECIAL):
        others = [s.id for s in pack.sheets.values() if s.alignment == alignment and not s.lock]
        shuffle(secret, others)
        dealt += others[: need[alignment]]
        undealt[alignment] = others[need[alignment] :]
    shuffle(secret, dealt)
    for seat, sheet_id in zip(state.order, dealt, strict=True):
        s = state.seats[seat]
        s.sheet, s.alignment = sheet_id, pack.sheets[sheet_id].alignment
    state.undealt = undealt
    events.append(Event("dealt", {"seats": len(state.order)}))


def resolve_deal(
    state: EsperState, orders: Mapping[str, EsperOrder], secret: Dice, events: list[Event]
) -> None:
    refusers = [s for s in state.order if s in orders and orders[s].verb == "refuse"]
    if refusers:
        for seat in refusers:
            s = state.seats[seat]
            s.refused, s.refusals = True, s.refusals + 1
            s.refused_sheets.append(s.sheet)
        events.append(Event("refused", {"seats": refusers}))
        deal(state, secret, events)
        state.waiting = list(state.order)
        return
    lasts = [s for s in state.order if s in orders and orders[s].verb == "refuse-last"]
    if lasts:
        again = []
        for seat in lasts:
            s = state.seats[seat]
            old = state.pack.sheets[s.sheet]
            queue = state.undealt["L" if old.lock else old.alignment]
            new = next((i for i in queue if state.pack.sheets[i].alignment == old.alignment), None)
            # A failed refusal looks like any other in public (the seat answers again): which
            # shuffle ran out would tell the table the seat's alignment.
            events.append(Event("refused_last", {"seat": seat}))
            again.append(seat)
            if new is None:
                events.append(Event("refuse_last_failed", {"seat": seat}, to=(seat,)))
                continue
            queue.remove(new)
            s.refused_sheets.append(s.sheet)
            s.sheet, s.refusals = new, s.refusals + 1
        if again:
            state.waiting = again
            return
    events.append(Event("sheets_fixed", {}))
    _after_deal(state, secret, events)


def _after_deal(state: EsperState, secret: Dice, events: list[Event]) -> None:
    """The deal is fixed: the 52-card deck, the planet layout and the ability deck, in that
    order from the secret stream; each seat gets its playing card."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    shuffle(secret, deck)
    for seat in state.order:
        state.seats[seat].card = deck.pop(0)
    state.deck = deck
    cards = state.pack.planet_deck()
    shuffle(secret, cards)
    state.planets = dict(zip(card_spots(), cards[: len(card_spots())], strict=False))
    abilities = state.pack.ability_deck()
    shuffle(secret, abilities)
    state.ability_deck = abilities
    state.step, state.waiting = SILHOUETTE, list(state.order)


# --- the silhouettes -----------------------------------------------------------------------------


def silhouette_id(pack: Pack, word: str) -> str | None:
    """A sheet (silhouette) named by id or by name in either language (NFKC, case-insensitive)."""
    low = normal(word).lower()
    if low in pack.sheets:
        return low
    for sheet in pack.sheets.values():
        if low in (normal(sheet.name_en).lower(), normal(sheet.name_ja).lower()):
            return sheet.id
    return None


def draw_defaults(state: EsperState, secret: Dice) -> dict[str, str]:
    """Each asked seat's default silhouette, drawn from the secret stream among those its card
    allows and nobody keeps yet (esper.md, Setup 3): a default of the own character, or of the
    own alignment, would tell the table what the seat holds. Drawn when the step opens, so that
    the default is an order like any other (the table seals its text at the deadline)."""
    out = {}
    for seat in state.waiting:
        allowed = allowed_silhouettes(state, seat)
        out[seat] = allowed[secret.roll(len(allowed)) - 1] if len(allowed) > 1 else allowed[0]
    return out


def allowed_silhouettes(state: EsperState, seat: str, card: str | None = None) -> list[str]:
    """The silhouettes the seat's playing card allows (Ace: its own; 10: its alignment's),
    among those not kept by another seat (in the first pick nothing is kept yet)."""
    s = state.seats[seat]
    card = s.card if card is None else card
    taken = set() if state.step == SILHOUETTE else _taken(state, seat)
    return _card_allows(state, seat, card, taken)


def _card_allows(state: EsperState, seat: str, card: str | None, taken: set[str]) -> list[str]:
    s = state.seats[seat]
    out = []
    for sheet in state.pack.sheets.values():
        if sheet.id in taken:
            continue
        if rank(card) == "A" and sheet.id != s.sheet:
            continue
        if rank(card) == "10" and sheet.alignment != s.alignment:
            continue
        out.append(sheet.id)
    if not out:
        # what the card asks is taken (an Ace's own character by a silhouette kept earlier, every
        # one of a 10's alignment): the card cannot be followed, so any free one
        out = [i for i in state.pack.sheets if i not in taken]
    return out


def _taken(state: EsperState, seat: str) -> set[str]:
    return {sil for o in state.order if o != seat and (sil := state.seats[o].silhouette)}


def default_silhouette(state: EsperState, seat: str) -> str:
    """The one drawn for the seat when the step opened (:func:`draw_defaults`). A step opened
    before defaults were drawn (a game stored by an older version) falls back on the first
    silhouette the card allows in the pack's order, which depends on the card alone."""
    allowed = allowed_silhouettes(state, seat)
    drawn = state.pending.get("defaults", {}).get(seat)
    return drawn if drawn in allowed else allowed[0]


def parse_silhouette(state: EsperState, seat: str, text: str) -> EsperOrder:
    """A pick in the ``silhouette``, ``repick``, ``balance`` and ``balance_card`` steps:
    ``silhouette NAME``, the name alone, or (in the balance) ``keep``."""
    step = state.step
    # a silhouette's name may hold spaces: take the whole text after the word
    raw = normal(text)
    head, _, rest = raw.partition(" ")
    word = WORDS.get(head, head.lower())
    if word == "keep" and not rest and step in (BALANCE, BALANCE_CARD):
        order = EsperOrder((Action("keep"),))
    elif word == "silhouette" and rest:
        order = EsperOrder((Action("silhouette", (rest.strip(),)),))
    else:
        sil = silhouette_id(state.pack, raw)
        if sil is None:
            raise OrderRejected(R_UNKNOWN, text=raw[:40])
        order = EsperOrder((Action("silhouette", (sil,)),))
    return _check_silhouette(state, seat, order)


def _check_silhouette(state: EsperState, seat: str, order: EsperOrder) -> EsperOrder:
    if order.verb == "keep":
        if state.step == BALANCE_CARD:
            current = state.seats[seat].silhouette
            if current not in allowed_silhouettes(state, seat) and current != _own(state, seat):
                raise OrderRejected(R_KEEP_CARD)
        return order
    sil = silhouette_id(state.pack, order.actions[0].args[0])
    if sil is None:
        raise OrderRejected(R_SILHOUETTE, text=order.actions[0].args[0][:40])
    if sil not in allowed_silhouettes(state, seat):
        s = state.seats[seat]
        if rank(s.card) == "A" and sil != s.sheet:
            raise OrderRejected(R_ACE)
        if rank(s.card) == "10" and state.pack.sheets[sil].alignment != s.alignment:
            raise OrderRejected(R_TEN)
        raise OrderRejected(R_TAKEN)
    return EsperOrder((Action("silhouette", (sil,)),))


def _own(state: EsperState, seat: str) -> str:
    return state.seats[seat].sheet


def resolve_silhouettes(
    state: EsperState, orders: Mapping[str, EsperOrder], secret: Dice, events: list[Event]
) -> None:
    picks = {seat: orders[seat].actions[0].args[0] for seat in orders}
    for seat, sil in picks.items():
        state.seats[seat].silhouette = sil
    by_pick: dict[str, list[str]] = {}
    for seat in state.order:
        shown = state.seats[seat].silhouette
        if shown is not None and not state.seats[seat].resigned:
            by_pick.setdefault(shown, []).append(seat)
    again: list[str] = []
    for sil, holders in by_pick.items():
        if len(holders) < 2:
            continue
        # The one bound to it by an Ace keeps it, else one drawn from the secret stream: the
        # channel learns who picks again, never why (a visible Ace rule would name the keeper's
        # card and sheet). Every clash settles a seat, so re-picks end.
        bound = [h for h in holders if rank(state.seats[h].card) == "A" and _own(state, h) == sil]
        keeper = bound[0] if bound else holders[secret.roll(len(holders)) - 1]
        again += [h for h in holders if h != keeper]
    events.append(Event("silhouettes", {"picks": {s: picks[s] for s in state.order if s in picks}}))
    if again:
        for seat in again:
            state.seats[seat].silhouette = None
        again = [s for s in state.order if s in again]
        events.append(Event("repick", {"seats": again}))
        state.step, state.waiting = REPICK, again
        state.pending = {}
        return
    state.pending = {}
    _balance(state, events, first=True)


# --- the balance ---------------------------------------------------------------------------------


def _short(state: EsperState) -> str | None:
    """The larger side when a side numbers fewer than the EVIL sheets dealt, else None."""
    evil = composition(state.pack, len(state.order))[1]
    by_side = sides(state)
    if len(by_side[INVADER]) >= evil and len(by_side[DEFENDER]) >= evil:
        return None
    return INVADER if len(by_side[INVADER]) > len(by_side[DEFENDER]) else DEFENDER


def _balance(state: EsperState, events: list[Event], *, first: bool) -> None:
    larger = _short(state)
    if larger is None:
        _open_start(state, events)
        return
    seats = sides(state)[larger]
    if first:
        events.append(Event("balance", {"side": larger, "seats": seats}))
        state.step, state.waiting = BALANCE, seats
        return
    if state.step == BALANCE and state.deck:
        events.append(Event("balance_cards", {"side": larger, "seats": seats}))
        for seat in seats:
            if state.deck:
                state.seats[seat].card = state.deck.pop(0)
        state.step, state.waiting = BALANCE_CARD, seats
        return
    events.append(Event("balance_stands", {"side": larger}))
    _open_start(state, events)


def resolve_balance(
    state: EsperState, orders: Mapping[str, EsperOrder], events: list[Event]
) -> None:
    changes = {}
    for seat in state.order:
        order = orders.get(seat)
        if order is None or order.verb == "keep":
            continue
        sil = order.actions[0].args[0]
        if sil in {state.seats[o].silhouette for o in state.order if o != seat}:
            events.append(Event("silhouette_kept", {"seat": seat}))  # taken by an earlier seat
            continue
        state.seats[seat].silhouette = sil
        changes[seat] = sil
    events.append(Event("silhouettes_changed", {"picks": changes}))
    _balance(state, events, first=False)


# --- the start -----------------------------------------------------------------------------------


def _open_start(state: EsperState, events: list[Event]) -> None:
    state.step, state.waiting = START, [s for s in state.order if not state.seats[s].resigned]
    events.append(Event("sides", {s: side_of(state, s) for s in state.order}))


def _spot_word(word: str) -> str:
    spot = word.upper()
    if ring(spot) is None:
        raise OrderRejected(R_SPOT, spot=word)
    return spot


def parse_start(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    words = parts[0] if len(parts) == 1 else []
    if side_of(state, seat) == DEFENDER:
        if words in (["pass"], ["none"]):
            return EsperOrder((Action("pass"),))
        if len(words) == 5 and words[0] == "ambush" and words[3] == "runner":
            # the buttons' order: the planet and the spot on it as two picks (``P3 2``)
            words = ["ambush", f"{words[1]}-{words[2]}", "runner", words[4]]
        if len(words) == 4 and words[0] == "ambush" and words[2] == "runner":
            spot = _spot_word(words[1])
            if spot.endswith("-0"):
                raise OrderRejected(R_SPOT, spot=spot)
            runner = seat_word(state, words[3])
            if side_of(state, runner) != DEFENDER:
                raise OrderRejected(R_RUNNER, seat=runner)
            return EsperOrder((Action("ambush", (spot, "runner", runner)),))
        raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
    if len(words) == 2 and words[0] == "start":
        return EsperOrder((Action("start", (planet_word(words[1]),)),))
    if len(words) == 1 and re.fullmatch(r"p[1-6]", words[0]):
        return EsperOrder((Action("start", (planet_word(words[0]),)),))
    raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])


def _vote(state: EsperState, votes: Mapping[str, str]) -> str | None:
    """The most voted value; ties go to the earliest seat's vote."""
    if not votes:
        return None
    tally: dict[str, int] = {}
    for value in votes.values():
        tally[value] = tally.get(value, 0) + 1
    best = max(tally.values())
    for seat in state.order:
        if seat in votes and tally[votes[seat]] == best:
            return votes[seat]
    return None


def resolve_start(
    state: EsperState, orders: Mapping[str, EsperOrder], dice: Dice, events: list[Event]
) -> None:
    spots, runners = {}, {}
    for seat, order in orders.items():
        action = order.actions[0]
        if action.verb == "ambush":
            spots[seat], runners[seat] = action.args[0], action.args[2]
        elif action.verb == "start":
            spot = f"{action.args[0]}-0"
            state.seats[seat].spot = spot
            state.last.append({"seat": seat, "from": None, "to": spot, "how": "start"})
    defenders = sides(state)[DEFENDER]
    state.ambush, state.ambush_runner = _vote(state, spots), _vote(state, runners)
    if state.ambush is not None:
        state.rafnor = state.planets[state.ambush]
        events.append(
            Event(
                "ambush_set",
                {"spot": state.ambush, "runner": state.ambush_runner},
                to=tuple(defenders),
            )
        )
    events.append(
        Event("started", {s: state.seats[s].spot for s in state.order if state.seats[s].spot})
    )
    actors = [s for s in state.order if can_act(state, s)]
    if not actors:
        end_stage(state, dice, events)
        return
    first = actors[dice.roll(len(actors)) - 1]
    state.first = first
    events.append(Event("first_player", {"seat": first, "of": len(actors)}))
    open_turn(state, first, events)
