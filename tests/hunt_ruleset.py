"""Hunt: a tiny hidden-information ruleset for the match-record tests (key ``hunt``).

Two seats, three steps. Setup draws each seat's gem value (a d6) from the *secret* stream. Step 1
(``hide``): each seat hides its gem at a spot, 1 to 3 (``hide 2``); the order is withheld (only
its receipt is public). Steps 2 and 3 (``guess 1``, ``guess 2``): each seat guesses where the
other hid (``guess 3``); a hit scores the other's gem plus a bonus d6 from the resolve stream.
Each guess step opens with a d4 of "wind" from the secret stream and every step with a public d6
from its pre stream. The last step reveals the hides (``inputs_revealed``). More points wins.

The module is the engine (:class:`bot.ruleset.Engine`); :data:`RULESET` is its spec, registered
by the tests themselves (``bot.registry.register``). ``CALLS`` counts engine calls, so a test can
tell that a record was refused before anything was played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.ruleset import (
    INPUTS_REVEALED,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    Presenter,
    RuleError,
    RulesetSpec,
    SeatSpec,
)

KEY = "hunt"
SEATS: tuple[str, ...] = ("A", "B")
SCHEMA_VERSION = 1
STEPS = 3
SPOTS = 3
CALLS: Counter[str] = Counter()


@dataclass(frozen=True)
class Pick:
    verb: str  # "hide" or "guess"
    spot: int

    def canonical(self) -> str:
        return f"{self.verb} {self.spot}"


@dataclass(frozen=True)
class HuntState:
    game_id: str
    gems: Mapping[str, int]
    step: int = 0
    open: bool = False
    hides: Mapping[str, int] = field(default_factory=dict)
    wind: tuple[int, ...] = ()
    public: tuple[int, ...] = ()
    score: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    resigned: str | None = None

    @property
    def finished(self) -> bool:
        return self.resigned is not None or (self.step == STEPS and not self.open)


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _verb(state: HuntState) -> str:
    return "hide" if state.step == 1 else "guess"


def check_options(options: Mapping[str, Any]) -> None:
    if options:
        raise RuleError("hunt.option.unknown", option=sorted(options)[0])


def new_game(
    game_id: str, seats: Sequence[str], options: Mapping[str, Any], dice: Dice, secret: Dice
) -> HuntState:
    CALLS["new_game"] += 1
    if tuple(seats) != SEATS:
        raise RuleError("hunt.error.seats")
    check_options(options)
    return HuntState(str(game_id), {seat: secret.roll(6) for seat in SEATS})


def start_step(
    state: HuntState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[HuntState, list[Event]]:
    CALLS["start_step"] += 1
    if state.finished or state.open:
        raise RuleError("hunt.error.not_now")
    step = state.step + 1
    wind = state.wind + ((secret.roll(4),) if step > 1 else ())
    state = replace(state, step=step, open=True, wind=wind, public=(*state.public, dice.roll(6)))
    return state, [Event("step", {"step": step})]


def awaiting(state: HuntState) -> list[str]:
    return list(SEATS) if state.open and not state.finished else []


def parse(state: HuntState, seat: str, text: str) -> Pick:
    words = text.split()
    if len(words) != 2 or words[0] != _verb(state) or not words[1].isdigit():
        raise OrderRejected("hunt.reject.order", text=text[:32])
    spot = int(words[1])
    if not 1 <= spot <= SPOTS:
        raise OrderRejected("hunt.reject.spot", spot=spot)
    return Pick(words[0], spot)


def choices(state: HuntState, seat: str) -> list[ChoiceGroup]:
    return []


def default_order(state: HuntState, seat: str) -> Pick:
    return Pick(_verb(state), 1)


def resolve(
    state: HuntState, orders: Mapping[str, Pick], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[HuntState, list[Event]]:
    CALLS["resolve"] += 1
    if state.finished:  # a seat left during the step
        return state, []
    events: list[Event] = []
    if state.step == 1:
        hides = {seat: orders[seat].spot for seat in SEATS}
        events += [Event("hidden", {"spot": hides[s]}, to=(s,)) for s in SEATS]
        state = replace(state, hides=hides, open=False)
    else:
        score = dict(state.score)
        for seat in SEATS:
            if orders[seat].spot == state.hides[_other(seat)]:
                bonus = dice.roll(6)
                score[seat] += state.gems[_other(seat)] + bonus
                events.append(Event("hit", {"seat": seat, "bonus": bonus}))
        state = replace(state, score=score, open=False)
    if state.step == STEPS:
        events.append(Event(INPUTS_REVEALED, {"steps": [1]}))
    return state, events


def resign(state: HuntState, seat: str) -> tuple[HuntState, list[Event]]:
    if seat not in SEATS or state.finished:
        raise RuleError("hunt.error.not_now")
    return replace(state, resigned=seat, open=False), [Event("resigned", {"seat": seat})]


def outcome(state: HuntState) -> Outcome:
    if not state.finished:
        return Outcome.ongoing()
    if state.resigned is not None:
        return Outcome.win(_other(state.resigned), reason="resign")
    a, b = (state.score[s] for s in SEATS)
    return Outcome.drawn("score") if a == b else Outcome.win(SEATS[a < b], reason="score")


def summary(state: HuntState) -> dict[str, Any]:
    return {"step": state.step, "score": dict(state.score), "public": list(state.public)}


def view(state: HuntState, seat: str | None) -> dict[str, Any]:
    return summary(state)


def step_number(state: HuntState) -> int:
    return state.step


def step_label(state: HuntState) -> str:
    return "hide" if state.step <= 1 else f"guess {state.step - 1}"


def to_json(state: HuntState) -> dict[str, Any]:
    return {
        "game_id": state.game_id,
        "gems": dict(state.gems),
        "step": state.step,
        "open": state.open,
        "hides": dict(state.hides),
        "wind": list(state.wind),
        "public": list(state.public),
        "score": dict(state.score),
        "resigned": state.resigned,
    }


def from_json(obj: Mapping[str, Any]) -> HuntState:
    return HuntState(
        obj["game_id"],
        dict(obj["gems"]),
        obj["step"],
        obj["open"],
        dict(obj["hides"]),
        tuple(obj["wind"]),
        tuple(obj["public"]),
        dict(obj["score"]),
        obj["resigned"],
    )


def withheld(state: HuntState, seat: str) -> bool:
    """The hide step's orders stay private after it (until the last step reveals them)."""
    return state.step == 1


def _engine() -> Any:
    import sys

    return sys.modules[__name__]


RULESET: RulesetSpec[HuntState, Pick] = RulesetSpec(
    key=KEY,
    engine=_engine(),
    presenter=Presenter(KEY),
    seats=SeatSpec(SEATS),
    secret_stream=True,
    withheld=withheld,
)
