"""Sealed Bids: the pure engine of a small hidden-information ruleset (key ``bids``).

The rules, exactly as played here:

- **Seats** ``A``…``K``; a game starts with 3 to 11 players (the first n seats).
- **Setup**, drawn from the game's *secret* stream only (nothing public is drawn, ever): the seats
  are shuffled (``bot.dice.shuffle``) and split into two teams, ``sun`` (the first ceil(n/2) of the
  shuffled order) and ``moon`` (the rest); then a deck of the cards 1…3n is shuffled the same way
  and dealt in seat order, three cards each: the i-th seat (from 0) takes cards 3i+1…3i+3 of the
  shuffled deck. A seat knows only its own team and hand.
- **Three rounds**, one table step each (``round N``). Every seat still in the game plays one card
  from its hand, in secret: ``7``, ``play 7`` or ``7を出す`` (full-width digits too). A card not in
  the hand is refused. A seat that sends nothing plays its lowest card.
- **Cards stay secret** (every play is withheld: only its receipt is shown) and are **revealed one
  round late**: when round N ≥ 2 resolves, the cards of round N-1 are revealed
  (``inputs_revealed`` for table step N-1, and a public ``cards_revealed`` listing seat → card).
  The last round's cards are revealed by the game's end (with a ``cards_revealed`` event, and every
  seat's team with ``teams_revealed``).
- **Scoring**: each team adds up the cards its seats played this round; the higher total scores
  the round (``round_scored``, naming the team but no totals); equal totals score nothing
  (``round_tied``). Each seat is also told, privately, which card it played (``your_play``).
- **The end**: after round 3, the team that scored more rounds wins: its seats still in the game
  are the winners, graded ``A``; every other seat (resigned ones included) is graded ``C``. Equal
  rounds: a draw. A seat may resign at any time: it leaves (its hand is discarded) and the game
  goes on for the others, unless its team now has no seat left, in which case that team loses at
  once (``forfeit``). A moderator may adjudicate: the game ends now by the rounds scored so far
  (more rounds wins, equal is a draw; reason ``adjudicated``).
- **Deadlines**: round 1 (a quick first pick) has a deadline of its own, 120 seconds; later rounds
  take the game's.

The module itself is the engine (:class:`bot.ruleset.Engine` over :class:`BidsState` and
:class:`Play`); the spec's hooks :func:`withheld`, :func:`step_seconds` and :func:`adjudicate` live
here too. Pure: no discord, storage, clock or randomness but the secret dice it is handed.

>>> from bot.dice import ScriptedDice
>>> no_swaps = ScriptedDice([3, 2, *range(9, 1, -1)])  # shuffle draws roll(i + 1) = i + 1
>>> state = new_game("g", ("A", "B", "C"), {}, ScriptedDice([]), no_swaps)
>>> dict(state.teams), dict(state.hands)
({'A': 'sun', 'B': 'sun', 'C': 'moon'}, {'A': (1, 2, 3), 'B': (4, 5, 6), 'C': (7, 8, 9)})
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.dice import NO_SECRET, Dice, NoDice, shuffle
from bot.ruleset import (
    INPUTS_REVEALED,
    Choice,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    RuleError,
    StateError,
)

SEATS: tuple[str, ...] = tuple("ABCDEFGHIJK")
MIN_PLAYERS = 3
SCHEMA_VERSION = 1
ROUNDS = 3
HAND = 3  # cards dealt to each seat (one per round)
SUN, MOON = "sun", "moon"
TEAMS: tuple[str, ...] = (SUN, MOON)
TIE = "tie"  # a round's result when the totals are equal
FIRST_ROUND_SECONDS = 120
WIN_GRADE, OTHER_GRADE = "A", "C"
MAX_CARD = HAND * len(SEATS)

# Why a game ended (the outcome's ``reason``).
BY_ROUNDS, FORFEIT, ADJUDICATED = "rounds", "forfeit", "adjudicated"
REASONS = (BY_ROUNDS, FORFEIT, ADJUDICATED)

# Refusals (message keys).
R_EMPTY = "bids.reject.empty"
R_UNKNOWN = "bids.reject.unknown"
R_NOT_IN_HAND = "bids.reject.not_in_hand"
R_NOT_SEATED = "bids.reject.not_seated"
R_RESIGNED = "bids.reject.resigned"
R_FINISHED = "bids.reject.finished"
R_NOT_OPEN = "bids.reject.not_open"

# ``7``, ``play 7``, ``7を出す`` (after NFKC and lower-casing: full-width digits are digits).
ORDER = re.compile(r"(?:play\s*)?(\d{1,3})(?:\s*を?\s*出す)?")


# --- orders and state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """One seat's order for a round: the card it plays."""

    card: int

    def canonical(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True)
class BidsState:
    """The whole game. The cards of the open round are not here: the table keeps them sealed
    (and withheld) until the round resolves; ``plays`` holds the resolved rounds' cards, which
    views show only once revealed."""

    game_id: str
    seats: tuple[str, ...]
    teams: Mapping[str, str]  # seat -> sun | moon (secret until the end)
    hands: Mapping[str, tuple[int, ...]]  # seat -> its cards, ascending (secret)
    round: int = 0  # rounds started so far: the table's turn number
    open: bool = False  # a round awaits its cards (between start_step and resolve)
    plays: tuple[Mapping[str, int], ...] = ()  # per resolved round: seat -> card
    results: tuple[str, ...] = ()  # per resolved round: sun, moon or tie
    resigned: tuple[str, ...] = ()  # in the order they left
    ended: str | None = None  # why the game ended (REASONS); None while it goes on
    winner: str | None = None  # the winning team (None with ``ended``: a draw)

    @property
    def finished(self) -> bool:
        return self.ended is not None


def active(state: BidsState) -> list[str]:
    """The seats still in the game, in seat order."""
    return [seat for seat in state.seats if seat not in state.resigned]


def members(state: BidsState, team: str, *, only_active: bool = False) -> list[str]:
    seats = active(state) if only_active else state.seats
    return [seat for seat in seats if state.teams[seat] == team]


def scored(state: BidsState) -> dict[str, int]:
    """Rounds scored so far, by team."""
    return {team: state.results.count(team) for team in TEAMS}


def _other(team: str) -> str:
    return MOON if team == SUN else SUN


def _check_seat(state: BidsState, seat: str) -> None:
    if seat not in state.seats:
        raise OrderRejected(R_NOT_SEATED, seat=str(seat)[:32])


# --- lifecycle -----------------------------------------------------------------------------------


def check_options(options: Mapping[str, Any]) -> None:
    if options:
        raise RuleError("bids.option.unknown", option=sorted(options)[0])


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice,
) -> BidsState:
    """Teams and hands, from the secret stream (``dice``, the public setup stream, stays unused).
    Without a secret stream (:data:`bot.dice.NO_SECRET`) there is no game: a ``RuleError``."""
    count = len(seats)
    if not MIN_PLAYERS <= count <= len(SEATS) or tuple(seats) != SEATS[:count]:
        raise RuleError("bids.error.seats", seats=list(seats))
    check_options(options or {})
    if isinstance(secret, NoDice):
        raise RuleError("bids.error.no_secret")
    order = list(seats)
    shuffle(secret, order)
    suns = set(order[: (count + 1) // 2])
    deck = list(range(1, HAND * count + 1))
    shuffle(secret, deck)
    return BidsState(
        str(game_id),
        tuple(seats),
        {seat: SUN if seat in suns else MOON for seat in seats},
        {seat: tuple(sorted(deck[HAND * i : HAND * (i + 1)])) for i, seat in enumerate(seats)},
    )


def start_step(
    state: BidsState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[BidsState, list[Event]]:
    """Open the next round. No event, no dice."""
    if state.finished:
        raise RuleError("bids.error.finished")
    if state.open:
        raise RuleError("bids.error.round_open", round=state.round)
    return replace(state, round=state.round + 1, open=True), []


def awaiting(state: BidsState) -> list[str]:
    """Every seat still in the game while a round is open (a resigned seat is never awaited)."""
    return active(state) if state.open and not state.finished else []


def step_number(state: BidsState) -> int:
    return state.round


def step_label(state: BidsState) -> str:
    return f"round {state.round}"


def outcome(state: BidsState) -> Outcome:
    """Several winners (the winning team's seats still in), graded A; everyone else C."""
    if state.ended is None:
        return Outcome.ongoing()
    if state.winner is None:
        return Outcome.drawn(reason=state.ended)
    winners = members(state, state.winner, only_active=True)
    grades = {seat: WIN_GRADE if seat in winners else OTHER_GRADE for seat in state.seats}
    return Outcome.win(*winners, reason=state.ended, **grades)


# --- the spec's hooks ----------------------------------------------------------------------------


def withheld(state: BidsState, seat: str) -> bool:
    """Every play stays private after its round resolves (revealed a round later)."""
    return True


def step_seconds(state: BidsState) -> int | None:
    """Round 1 has its own short deadline; later rounds take the game's."""
    return FIRST_ROUND_SECONDS if state.open and state.round == 1 else None


def adjudicate(state: BidsState) -> tuple[BidsState, list[Event]]:
    """End the game now by the rounds scored so far (more wins; equal: a draw)."""
    if state.finished:
        raise RuleError("bids.error.finished")
    score = scored(state)
    winner = None if score[SUN] == score[MOON] else max(TEAMS, key=score.__getitem__)
    new = replace(state, open=False, ended=ADJUDICATED, winner=winner)
    return new, [Event("adjudicated", dict(score)), *_ending(state, new)]


# --- orders --------------------------------------------------------------------------------------


def _check_order_now(state: BidsState, seat: str) -> None:
    _check_seat(state, seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    if seat in state.resigned:
        raise OrderRejected(R_RESIGNED)
    if not state.open:
        raise OrderRejected(R_NOT_OPEN)


def _in_hand(state: BidsState, seat: str, card: int) -> Play:
    if card not in state.hands[seat]:
        raise OrderRejected(R_NOT_IN_HAND, card=card)
    return Play(card)


def parse(state: BidsState, seat: str, text: str) -> Play:
    """``7``, ``play 7``, ``7を出す`` (full-width ``７`` too): a :class:`Play` of a card in hand."""
    _check_order_now(state, seat)
    word = " ".join(unicodedata.normalize("NFKC", text).lower().split())
    if not word:
        raise OrderRejected(R_EMPTY)
    match = ORDER.fullmatch(word)
    if match is None:
        raise OrderRejected(R_UNKNOWN, word=word[:32])
    return _in_hand(state, seat, int(match[1]))


def choices(state: BidsState, seat: str) -> list[ChoiceGroup]:
    """One button per card in hand (for a seat the open round awaits)."""
    _check_seat(state, seat)
    if seat not in awaiting(state):
        return []
    cards = [Choice(Play(card).canonical(), f"bids.card.{card}") for card in state.hands[seat]]
    return [ChoiceGroup("card", "bids.group.card", cards)]


def default_order(state: BidsState, seat: str) -> Play:
    """The lowest card in hand."""
    _check_order_now(state, seat)
    return Play(min(state.hands[seat]))


# --- resolution ----------------------------------------------------------------------------------


def _prepared(state: BidsState, orders: Mapping[str, Any]) -> dict[str, Play]:
    """Each active seat's play (the default where none came). An order of a seat that resigned
    after sealing it is dropped."""
    for seat in orders:
        _check_seat(state, seat)
    prepared: dict[str, Play] = {}
    for seat in active(state):
        order = orders.get(seat)
        if order is None:
            order = default_order(state, seat)
        elif isinstance(order, str):
            order = parse(state, seat, order)
        elif isinstance(order, Play):
            order = _in_hand(state, seat, order.card)
        else:
            raise OrderRejected(R_UNKNOWN, word=type(order).__name__)
        prepared[seat] = order
    return prepared


def resolve(
    state: BidsState, orders: Mapping[str, Play], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[BidsState, list[Event]]:
    """Play the round's cards: the team with the higher total scores it. Draws no dice."""
    if state.finished:
        raise RuleError("bids.error.finished")
    if not state.open:
        raise RuleError("bids.error.round_not_open", round=state.round)
    n = state.round
    played = {seat: play.card for seat, play in _prepared(state, orders).items()}
    hands = {
        seat: tuple(c for c in hand if c != played.get(seat)) for seat, hand in state.hands.items()
    }
    events = [Event("your_play", {"card": c, "round": n}, to=(s,)) for s, c in played.items()]
    if n >= 2:
        events.append(Event(INPUTS_REVEALED, {"steps": [n - 1]}))
        events.append(Event("cards_revealed", {"round": n - 1, "plays": dict(state.plays[-1])}))
    totals = {team: sum(c for s, c in played.items() if state.teams[s] == team) for team in TEAMS}
    if totals[SUN] == totals[MOON]:
        result = TIE
        events.append(Event("round_tied", {"round": n}))
    else:
        result = max(TEAMS, key=totals.__getitem__)
        events.append(Event("round_scored", {"round": n, "team": result}))
    new = replace(
        state,
        hands=hands,
        open=False,
        plays=(*state.plays, played),
        results=(*state.results, result),
    )
    if n >= ROUNDS:
        score = scored(new)
        winner = None if score[SUN] == score[MOON] else max(TEAMS, key=score.__getitem__)
        ended = replace(new, ended=BY_ROUNDS, winner=winner)
        events += _ending(new, ended)
        new = ended
    return new, events


def _ending(before: BidsState, after: BidsState) -> list[Event]:
    """What the end reveals: the cards of the resolved round(s) not yet revealed (the last), every
    seat's team, and the result."""
    events = [
        Event("cards_revealed", {"round": index + 1, "plays": dict(before.plays[index])})
        for index in range(_revealed(before), len(before.plays))
    ]
    events.append(Event("teams_revealed", {team: members(before, team) for team in TEAMS}))
    score = scored(after)
    if after.winner is None:
        events.append(Event("teams_tied", dict(score)))
    elif after.ended == FORFEIT:
        events.append(
            Event("team_forfeits", {"team": _other(after.winner), "winner": after.winner})
        )
    else:
        events.append(Event("team_won", {"team": after.winner, **score}))
    return events


def resign(state: BidsState, seat: str) -> tuple[BidsState, list[Event]]:
    """``seat`` leaves (its hand is discarded); the game goes on unless its team is now empty,
    in which case that team forfeits."""
    _check_seat(state, seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    if seat in state.resigned:
        raise OrderRejected(R_RESIGNED)
    new = replace(state, hands={**state.hands, seat: ()}, resigned=(*state.resigned, seat))
    events = [Event("resigned", {"seat": seat})]
    team = state.teams[seat]
    if not members(new, team, only_active=True):
        ended = replace(new, open=False, ended=FORFEIT, winner=_other(team))
        events += _ending(new, ended)
        new = ended
    return new, events


# --- views and storage ---------------------------------------------------------------------------


def _revealed(state: BidsState) -> int:
    """How many resolved rounds' cards are public: all at the end, else all but the last."""
    return len(state.plays) if state.finished else max(len(state.plays) - 1, 0)


def view(state: BidsState, seat: str | None) -> dict[str, Any]:
    """The public view, plus ``you`` (the seat's own team and hand) for a seated reader. Teams are
    public only once the game is over; hands never; cards only once revealed."""
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "open": state.open,
        "seats": list(state.seats),
        "active": active(state),
        "resigned": list(state.resigned),
        "scored": scored(state),
        "results": list(state.results),
        "cards_left": {s: len(state.hands[s]) for s in state.seats},
        "revealed": [
            {"round": index + 1, "plays": dict(state.plays[index])}
            for index in range(_revealed(state))
        ],
        "teams": dict(state.teams) if state.finished else None,
        "outcome": None,
    }
    if state.finished:
        result = outcome(state)
        out["outcome"] = {
            "team": state.winner,
            "winners": list(result.winners),
            "draw": result.draw,
            "reason": state.ended,
        }
    if seat is not None and seat in state.seats:
        out["you"] = {"seat": seat, "team": state.teams[seat], "hand": list(state.hands[seat])}
    return out


def summary(state: BidsState) -> dict[str, Any]:
    return {
        "rounds": state.round,
        "scored": scored(state),
        "teams": dict(state.teams) if state.finished else None,
    }


def to_json(state: BidsState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "seats": list(state.seats),
        "teams": dict(state.teams),
        "hands": {seat: list(hand) for seat, hand in state.hands.items()},
        "round": state.round,
        "open": state.open,
        "plays": [dict(p) for p in state.plays],
        "results": list(state.results),
        "resigned": list(state.resigned),
        "ended": state.ended,
        "winner": state.winner,
    }


def _invalid(reason: str) -> StateError:
    return StateError("bids.state.invalid", reason=reason)


def _card(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_CARD:
        raise _invalid(f"{what}: not a card")
    return value


def _seat_map(
    value: Any, seats: Sequence[str], what: str, *, whole: bool = True
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not set(value) <= set(seats):
        raise _invalid(what)
    if whole and set(value) != set(seats):
        raise _invalid(what)
    return value


def from_json(obj: Mapping[str, Any]) -> BidsState:
    """Load a stored state; anything malformed or of another schema is a :class:`StateError`."""
    if not isinstance(obj, Mapping):
        raise _invalid("not an object")
    if obj.get("schema") != SCHEMA_VERSION:
        raise StateError(
            "bids.state.schema", found=repr(obj.get("schema")), expected=SCHEMA_VERSION
        )
    game_id, seats = obj.get("game_id"), obj.get("seats")
    if not isinstance(game_id, str):
        raise _invalid("game_id")
    if not isinstance(seats, list) or tuple(seats) != SEATS[: len(seats)] or len(seats) < 3:
        raise _invalid("seats")
    teams = _seat_map(obj.get("teams"), seats, "teams")
    if not all(team in TEAMS for team in teams.values()):
        raise _invalid("teams")
    hands = _seat_map(obj.get("hands"), seats, "hands")
    if not all(isinstance(hand, list) and len(hand) <= HAND for hand in hands.values()):
        raise _invalid("hands")
    round_, is_open = obj.get("round"), obj.get("open")
    if not isinstance(round_, int) or isinstance(round_, bool) or not 0 <= round_ <= ROUNDS:
        raise _invalid("round")
    if not isinstance(is_open, bool):
        raise _invalid("open")
    plays, results, resigned = obj.get("plays"), obj.get("results"), obj.get("resigned")
    if not isinstance(plays, list) or not isinstance(results, list) or len(plays) != len(results):
        raise _invalid("plays")
    if not all(r in (*TEAMS, TIE) for r in results):
        raise _invalid("results")
    if not isinstance(resigned, list) or not set(resigned) <= set(seats):
        raise _invalid("resigned")
    ended, winner = obj.get("ended"), obj.get("winner")
    if ended not in (None, *REASONS) or winner not in (None, *TEAMS):
        raise _invalid("ended")
    return BidsState(
        game_id,
        tuple(seats),
        {seat: str(teams[seat]) for seat in seats},
        {seat: tuple(_card(c, f"hand of {seat}") for c in hands[seat]) for seat in seats},
        round_,
        is_open,
        tuple(
            {
                s: _card(c, f"play of {s}")
                for s, c in _seat_map(p, seats, "play", whole=False).items()
            }
            for p in plays
        ),
        tuple(str(r) for r in results),
        tuple(str(s) for s in resigned),
        ended,
        winner,
    )


# --- the noninterference check's hook ------------------------------------------------------------


def hidden_twin(state: BidsState, rng: Any) -> BidsState | None:
    """A state the public cannot tell from ``state`` (``RulesetSpec.hidden_twin``), drawn with
    ``rng`` (a ``random.Random``): two seats of different teams swap teams, or two seats swap one
    card of their hands (the counts, all that is public of a hand, stay). None: there is none
    (the game is over, or nobody holds a card to swap)."""
    if state.finished:
        return None
    seats = active(state)
    teams = [(x, y) for x in seats for y in seats if x < y and state.teams[x] != state.teams[y]]
    cards = [
        (x, y, a, b)
        for x in seats
        for y in seats
        if x < y
        for a in state.hands[x]
        for b in state.hands[y]
    ]
    if teams and (not cards or rng.random() < 0.5):
        x, y = rng.choice(teams)
        return replace(state, teams={**state.teams, x: state.teams[y], y: state.teams[x]})
    if not cards:
        return None
    x, y, a, b = rng.choice(cards)
    hands = dict(state.hands)
    hands[x] = tuple(sorted(b if c == a else c for c in hands[x]))
    hands[y] = tuple(sorted(a if c == b else c for c in hands[y]))
    return replace(state, hands=hands)
