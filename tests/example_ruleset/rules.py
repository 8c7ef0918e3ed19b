"""Rock-paper-scissors, best of three: the pure engine of the smallest complete ruleset.

Both seats throw at once each round: rock beats scissors, scissors beats paper, paper beats rock.
A drawn round does not count and is thrown again; the first seat to win two rounds wins the match.

The module itself is the engine: its module-level functions are the :class:`bot.ruleset.Engine`
the spec names, over the state and order types below. It is pure (no discord, storage, clock or
randomness), so a match record replays it exactly. This game draws no dice: the ``dice`` and
``secret`` streams the table hands it stay unused (their commitments are still published and
``python -m bot verify`` still checks them). Every refusal is a :class:`RuleError` with a message
key; the catalogue (``locales/rps.*.json``) words it in the reader's language.

>>> from bot.dice import ScriptedDice
>>> state, _ = start_turn(new_game("g", SEATS, {}, ScriptedDice([])), ScriptedDice([]))
>>> orders = {"A": parse(state, "A", "グー"), "B": Throw("scissors")}
>>> state, events = resolve(state, orders, ScriptedDice([]))
>>> dict(state.wins), events[0].type
({'A': 1, 'B': 0}, 'round_won')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.ruleset import Choice, ChoiceGroup, Event, OrderRejected, Outcome, RuleError, StateError

SEATS: tuple[str, ...] = ("A", "B")
SCHEMA_VERSION = 1  # bump when to_json changes shape: stored games of another schema are refused
WINS_NEEDED = 2  # best of three
THROWS: tuple[str, ...] = ("rock", "paper", "scissors")
BEATS: Mapping[str, str] = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
DEFAULT_THROW = "rock"  # what a player who lets the deadline pass throws

# What a player may type (after NFKC and lower-casing), in either language.
WORDS: Mapping[str, str] = {
    **{word: "rock" for word in ("rock", "r", "グー", "ぐー", "石")},
    **{word: "paper" for word in ("paper", "p", "パー", "ぱー", "紙")},
    **{word: "scissors" for word in ("scissors", "s", "チョキ", "ちょき", "はさみ", "鋏")},
}

# Message keys of refusals (kept as constants so the i18n test can follow them).
R_EMPTY = "rps.reject.empty"
R_UNKNOWN = "rps.reject.unknown"
R_FINISHED = "rps.reject.finished"
R_NOT_SEATED = "rps.reject.not_seated"
R_NOT_OPEN = "rps.reject.not_open"


# --- orders and state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    """One seat's order for a round: ``rock``, ``paper`` or ``scissors``."""

    token: str

    def __post_init__(self) -> None:
        # A Throw built by hand (not by parse) must still be one the engine can resolve.
        if self.token not in THROWS:
            raise OrderRejected(R_UNKNOWN, word=str(self.token)[:32])

    def canonical(self) -> str:
        """The text the table seals and stores; :func:`parse` reads it back as this Throw."""
        return self.token


@dataclass(frozen=True)
class RpsState:
    """The whole match. The throws of an open round are not here: the table keeps them sealed
    until both are in, so no view can leak one."""

    game_id: str
    round: int = 0  # rounds started so far: the table's turn number
    open: bool = False  # a round awaits both throws (between start_turn and resolve)
    wins: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    last: Mapping[str, str] | None = None  # the last resolved round's throws, by seat
    winner: str | None = None
    resigned: str | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise OrderRejected(R_NOT_SEATED, seat=str(seat)[:32])


# --- lifecycle -----------------------------------------------------------------------------------


def check_options(options: Mapping[str, Any]) -> None:
    """This game has no options: refuse any, so a misspelt one never starts another game."""
    if options:
        raise RuleError("rps.option.unknown", option=sorted(options)[0])


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice = NO_SECRET,
) -> RpsState:
    """Nobody has won a round yet; the table opens round 1 with :func:`start_turn`."""
    if tuple(seats) != SEATS:
        raise RuleError("rps.error.seats", seats=list(seats))
    check_options(options or {})
    return RpsState(str(game_id))


def start_turn(
    state: RpsState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[RpsState, list[Event]]:
    """Open the next round. No event: the channel post already says which turn it is."""
    if state.finished:
        raise RuleError("rps.error.finished")
    if state.open:
        raise RuleError("rps.error.round_open", round=state.round)
    return replace(state, round=state.round + 1, open=True), []


def awaiting(state: RpsState) -> list[str]:
    """Both seats while a round is open; nobody otherwise (the table then starts the next)."""
    return list(SEATS) if state.open and not state.finished else []


def turn(state: RpsState) -> int:
    return state.round


def step_label(state: RpsState) -> str:
    """What match records call the open step: ``round 2``."""
    return f"round {state.round}"


def outcome(state: RpsState) -> Outcome:
    if state.winner is None:
        return Outcome.ongoing()
    return Outcome.win(state.winner, reason="resign" if state.resigned else "score")


# --- orders --------------------------------------------------------------------------------------


def _check_order_now(state: RpsState, seat: str) -> None:
    _check_seat(seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    if not state.open:
        raise OrderRejected(R_NOT_OPEN)


def parse(state: RpsState, seat: str, text: str) -> Throw:
    """Order text in English or Japanese (``rock``, ``r``, ``グー``…) to a :class:`Throw`.

    >>> from bot.dice import ScriptedDice
    >>> state, _ = start_turn(new_game("g", SEATS, {}, ScriptedDice([])), ScriptedDice([]))
    >>> parse(state, "A", " Ｐａｐｅｒ ").canonical(), parse(state, "B", "ちょき").canonical()
    ('paper', 'scissors')
    """
    _check_order_now(state, seat)
    word = unicodedata.normalize("NFKC", text).strip().lower()
    if not word:
        raise OrderRejected(R_EMPTY)
    token = WORDS.get(word)
    if token is None:
        raise OrderRejected(R_UNKNOWN, word=word[:32])
    return Throw(token)


def choices(state: RpsState, seat: str) -> list[ChoiceGroup]:
    """One row of three buttons; each token is order text :func:`parse` accepts."""
    _check_seat(seat)
    if state.finished or not state.open:
        return []
    throws = [Choice(token, f"rps.choice.{token}") for token in THROWS]
    return [ChoiceGroup("throw", "rps.group.throw", throws)]


def default_order(state: RpsState, seat: str) -> Throw:
    """What the table seals for a seat that let the deadline pass: always legal."""
    return Throw(DEFAULT_THROW)


# --- resolution ----------------------------------------------------------------------------------


def _prepared(state: RpsState, orders: Mapping[str, Any]) -> dict[str, Throw]:
    for seat in orders:
        _check_seat(seat)
    prepared: dict[str, Throw] = {}
    for seat in SEATS:
        order = orders.get(seat)
        if order is None:
            order = default_order(state, seat)  # no order: as when the deadline passes
        elif isinstance(order, str):
            order = parse(state, seat, order)
        elif not isinstance(order, Throw):
            raise OrderRejected(R_UNKNOWN, word=type(order).__name__)
        prepared[seat] = order
    return prepared


def resolve(
    state: RpsState, orders: Mapping[str, Throw], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[RpsState, list[Event]]:
    """Compare the two throws: a win scores a point, a draw is thrown again. Draws no dice."""
    if state.finished:
        raise RuleError("rps.error.finished")
    if not state.open:
        raise RuleError("rps.error.round_not_open", round=state.round)
    throws = {seat: order.token for seat, order in _prepared(state, orders).items()}
    a, b = SEATS
    events: list[Event] = []
    wins = dict(state.wins)
    winner: str | None = None
    if throws[a] == throws[b]:
        events.append(Event("round_drawn", {"round": state.round, "throw": throws[a]}))
    else:
        taker = a if BEATS[throws[a]] == throws[b] else b
        loser = _other(taker)
        wins[taker] += 1
        events.append(
            Event(
                "round_won",
                {
                    "round": state.round,
                    "winner": taker,
                    "loser": loser,
                    "winning": throws[taker],
                    "losing": throws[loser],
                },
            )
        )
        if wins[taker] >= WINS_NEEDED:
            winner = taker
            events.append(
                Event("match_won", {"winner": taker, "wins": wins[taker], "losses": wins[loser]})
            )
    new = replace(state, open=False, wins=wins, last=throws, winner=winner)
    return new, events


def resign(state: RpsState, seat: str) -> tuple[RpsState, list[Event]]:
    """``seat`` gives up: the other seat wins the match at once."""
    _check_seat(seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    winner = _other(seat)
    new = replace(state, open=False, winner=winner, resigned=seat)
    return new, [Event("resigned", {"seat": seat, "winner": winner})]


# --- views and storage ---------------------------------------------------------------------------


def view(state: RpsState, seat: str | None) -> dict[str, Any]:
    """The same for every reader: nothing in the state is private (the spec declares no
    ``private_view_fields``), since the open round's throws stay in the table's sealed orders."""
    return {
        "round": state.round,
        "open": state.open,
        "wins": dict(state.wins),
        "needed": WINS_NEEDED,
        "last": dict(state.last) if state.last is not None else None,
        "winner": state.winner,
        "resigned": state.resigned,
    }


def summary(state: RpsState) -> dict[str, Any]:
    """What ``python -m bot replay`` prints as the game's result."""
    return {"wins": dict(state.wins), "rounds": state.round}


def to_json(state: RpsState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "round": state.round,
        "open": state.open,
        "wins": dict(state.wins),
        "last": dict(state.last) if state.last is not None else None,
        "winner": state.winner,
        "resigned": state.resigned,
    }


def _invalid(reason: str) -> StateError:
    return StateError("rps.state.invalid", reason=reason)


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _invalid(f"{what}: not a count")
    return value


def from_json(obj: Mapping[str, Any]) -> RpsState:
    """Load a stored state. Anything malformed, or of another schema, is a :class:`StateError`
    rather than a game that quietly plays by other rules."""
    if not isinstance(obj, Mapping):
        raise _invalid("not an object")
    if obj.get("schema") != SCHEMA_VERSION:
        raise StateError("rps.state.schema", found=repr(obj.get("schema")), expected=SCHEMA_VERSION)
    game_id = obj.get("game_id")
    if not isinstance(game_id, str):
        raise _invalid("game_id")
    is_open = obj.get("open")
    if not isinstance(is_open, bool):
        raise _invalid("open")
    wins = obj.get("wins")
    if not isinstance(wins, Mapping) or set(wins) != set(SEATS):
        raise _invalid("wins")
    last = obj.get("last")
    if last is not None and (
        not isinstance(last, Mapping)
        or set(last) != set(SEATS)
        or not all(v in THROWS for v in last.values())
    ):
        raise _invalid("last")
    winner, resigned = obj.get("winner"), obj.get("resigned")
    if winner not in (None, *SEATS) or resigned not in (None, *SEATS):
        raise _invalid("winner")
    return RpsState(
        game_id,
        _count(obj.get("round"), "round"),
        is_open,
        {seat: _count(wins[seat], f"wins {seat}") for seat in SEATS},
        {seat: last[seat] for seat in SEATS} if last is not None else None,
        winner,
        resigned,
    )
