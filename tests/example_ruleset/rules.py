"""Rock-paper-scissors, best of three: the engine of the smallest complete ruleset.

Both seats throw at once each round: rock beats scissors, scissors beats paper, paper beats rock.
A drawn round is thrown again; the first seat to win two rounds wins the match.

A :class:`bot.ruleset.BaseEngine`: its defaults open each round, await both seats, play the
default throw of a seat whose deadline passed, resign, and store the state through its
dataclass, so what is left here is the game. Pure, and it draws no dice.

>>> from bot.dice import ScriptedDice
>>> state, _ = RPS.start_step(RPS.new_game("g", SEATS, {}, ScriptedDice([])), ScriptedDice([]))
>>> state, events = RPS.resolve(state, {"A": "グー", "B": Throw("scissors")}, ScriptedDice([]))
>>> dict(state.wins), events[0].type, RPS.step_label(state)
({'A': 1, 'B': 0}, 'round_won', 'round 1')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.dice import Dice
from bot.ruleset import BaseEngine, Choice, ChoiceGroup, Event, GameState, OrderRejected, Outcome

SEATS = ("A", "B")
WINS_NEEDED = 2  # best of three
THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
WORDS = {  # what a player may type (after NFKC and lower-casing), in either language
    **dict.fromkeys(("rock", "r", "グー", "ぐー", "石"), "rock"),
    **dict.fromkeys(("paper", "p", "パー", "ぱー", "紙"), "paper"),
    **dict.fromkeys(("scissors", "s", "チョキ", "ちょき", "はさみ", "鋏"), "scissors"),
}


@dataclass(frozen=True)
class Throw:
    """One seat's order for a round: ``rock``, ``paper`` or ``scissors``."""

    token: str

    def canonical(self) -> str:
        return self.token  # the text the table seals and stores, parsed back as this Throw


@dataclass(frozen=True)
class RpsState(GameState):
    """The match (``step`` counts rounds). An open round's throws are sealed at the table."""

    wins: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    last: Mapping[str, str] | None = None  # the last round's throws, by seat


class Rps(BaseEngine[RpsState, Throw]):
    state_type = RpsState
    SCHEMA_VERSION = 2  # the stored state's shape (1: before BaseEngine); bump it when it changes
    STEP_NAME = "round"  # records name the steps "round 1", "round 2"…
    FINISHED, NOT_SEATED = "rps.reject.finished", "rps.reject.not_seated"  # in our own words

    def parse(self, state: RpsState, seat: str, text: str) -> Throw:
        """A throw in English or Japanese, in any width or case (``rock``, ``Ｒ``, ``グー``…)."""
        self.check_seat(state, seat)
        word = unicodedata.normalize("NFKC", text).strip().lower()
        if not word:
            raise OrderRejected("rps.reject.empty")
        if word not in WORDS:
            raise OrderRejected("rps.reject.unknown", word=word[:32])
        return Throw(WORDS[word])

    def choices(self, state: RpsState, seat: str) -> list[ChoiceGroup]:
        """Three buttons while the seat is awaited; each token is text parse accepts."""
        throws = [Choice(token, f"rps.choice.{token}") for token in THROWS]
        awaited = seat in self.awaiting(state)
        return [ChoiceGroup("throw", "rps.group.throw", throws)] if awaited else []

    def default_order(self, state: RpsState, seat: str) -> Throw:
        return Throw("rock")  # what a seat whose deadline passed throws

    def play(
        self, state: RpsState, orders: Mapping[str, Throw], dice: Dice, secret: Dice
    ) -> tuple[RpsState, list[Event]]:
        """Compare the throws: a win scores a round, a draw is thrown again."""
        last = {seat: orders[seat].token for seat in SEATS}
        a, b = last.values()
        if a == b:
            drawn = Event("round_drawn", {"round": state.step, "throw": a})
            return replace(state, last=last), [drawn]
        winner, loser = SEATS if BEATS[a] == b else SEATS[::-1]
        wins = {**state.wins, winner: state.wins[winner] + 1}
        won = {"winner": winner, "loser": loser, "winning": last[winner], "losing": last[loser]}
        events = [Event("round_won", {"round": state.step, **won})]
        if wins[winner] == WINS_NEEDED:
            score = {"winner": winner, "wins": WINS_NEEDED, "losses": wins[loser]}
            events.append(Event("match_won", score))
            state = replace(state, result=Outcome.win(winner, reason="score"))
        return replace(state, wins=wins, last=last), events

    def summary(self, state: RpsState) -> dict[str, Any]:
        """What ``python -m bot replay`` prints as the match's result."""
        return {"wins": dict(state.wins), "rounds": state.step}


RPS = Rps()
