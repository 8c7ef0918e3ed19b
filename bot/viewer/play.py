"""A match record played again step by step, keeping what the viewer shows of every step.

:func:`bot.record.replay` plays a record to its end and keeps the last state; the viewer needs the
state after each step opened and after it resolved (the channel's board is drawn from them), who
was awaited, which orders stayed private at the time, and, for the page's own check of the dice
in the browser, the size of every die each stream drew (a stream's rolls can be recomputed from
its seed only when the die sizes are known, and those come from the rules). It plays the record
as the replayer does (the same readers of a step's inputs and dice) but never refuses it: a
tampered record is played as far as the engine accepts it, and :attr:`Played.stopped` says where
and why it could not go on (the page marks that step; the checks themselves are the browser's).
Engines are pure, so every state kept here stays as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import dice as dicelib
from bot.record import RecordError, Replay, WithheldError
from bot.record.read import (
    Record,
    SecretDraw,
    UnrevealedSecret,
    block_orders_digest,
    dice_for,
    is_withheld,
    label_of,
    order_text,
    read_record,
    reason_of,
    scripted_dice,
)
from bot.record.replayer import resign
from bot.ruleset import Event, Order, RuleError


class SidedDice:
    """A stream's dice that also keep each die's number of sides, in draw order."""

    def __init__(self, inner: dicelib.Dice) -> None:
        self.inner = inner
        self.sides: list[int] = []

    @property
    def rolls(self) -> list[int]:
        return self.inner.rolls

    @rolls.setter
    def rolls(self, value: list[int]) -> None:
        self.inner.rolls = value

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.sides.append(sides)  # after the draw: a refused die is not part of the stream
        return value


@dataclass
class Step:
    """One step of the record (0: the setup, ``k``: ``turns[k - 1]``) as it was played."""

    index: int
    block: Mapping[str, Any]
    stream_turn: int = 0  # the turn in its streams' labels (``game:turn:phase``)
    opened: Any = None  # the state once the step opened (None: the setup)
    state: Any = None  # the state once it resolved (None: the engine stopped in it)
    awaited: list[str] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)  # orders private after the step
    canonical: dict[str, str] = field(default_factory=dict)  # each played order, as sealed
    started: list[Event] = field(default_factory=list)  # events of opening the step
    resolved: list[Event] = field(default_factory=list)  # departures, then the resolution
    sides: dict[str, list[int]] = field(default_factory=dict)  # per phase: each die's sides
    rolls: dict[str, list[int]] = field(default_factory=dict)  # per phase: the rolls drawn
    secret_sides: list[int] = field(default_factory=list)  # the secret draws of this step
    left_state: Any = None  # the state once the step's departures (``left``) were played

    @property
    def label(self) -> str | None:
        return label_of(self.block)


@dataclass
class Stop:
    """Where playing stopped: ``index`` the step, ``withheld`` when it is a mid-game export's
    withheld part (not a fault), ``reason`` in English as replay would say it."""

    index: int
    reason: str
    withheld: bool


@dataclass
class Played:
    rec: Record
    steps: list[Step]
    stopped: Stop | None
    final: Any  # the last state (after the record's ``end``: resignations, a ruling)
    ended: list[Event] = field(default_factory=list)  # the events of that ``end``
    ended_by: str | None = None

    @property
    def finished(self) -> bool:
        return self.final is not None and self.rec.rules.outcome(self.final).finished


def play(record: Mapping[str, Any]) -> Played:
    """Play ``record`` as far as its engine takes it. :class:`RecordError` only for what is not
    a record at all (its frame: format, ruleset, seats); anything inside it stops the play."""
    rec = read_record(record)
    rules = rec.rules
    secret_inner = rec.secret_dice()
    # An unrevealed or absent secret stream is passed as it is: a ruleset may test its type.
    secret: Any = (
        SidedDice(secret_inner) if isinstance(secret_inner, dicelib.DiceStream) else secret_inner
    )
    steps: list[Step] = []
    played = Played(rec, steps, None, None)

    def secret_since(start: int) -> list[int]:
        return list(secret.sides[start:]) if isinstance(secret, SidedDice) else []

    def stop(index: int, exc: Exception) -> None:
        held = isinstance(exc, (WithheldError, SecretDraw))
        if isinstance(exc, SecretDraw) or (
            isinstance(exc, (RuleError, dicelib.DiceError)) and isinstance(secret, UnrevealedSecret)
        ):
            reason = "the secret stream is withheld until the game ends"
            held = True
        elif isinstance(exc, RecordError):
            reason = exc.reason
        elif isinstance(exc, (RuleError, dicelib.DiceError)):
            reason = reason_of(exc)
        else:
            reason = str(exc)
        played.stopped = Stop(index, reason, held)

    setup = Step(0, rec.setup)
    steps.append(setup)
    try:
        rec.check_options()
        given = scripted_dice(rec.setup, 0)
        dice = SidedDice(given or dice_for(rec.setup, rec.game_id, 0, dicelib.PRE, None, 0))
        state = rules.new_game(rec.game_id, rec.seats, rec.options, dice, secret)
    except (RecordError, RuleError, dicelib.DiceError) as exc:
        stop(0, exc)
        return played
    setup.state = state
    phase = "rolls" if "rolls" in rec.setup else "pre"  # scripted rolls, as replay names them
    setup.sides, setup.rolls = {phase: dice.sides}, {phase: list(dice.rolls)}
    setup.secret_sides = secret_since(0)
    for index, block in enumerate(rec.turns, start=1):
        if not isinstance(block, Mapping):
            stop(index, RecordError("each turn is a JSON object"))
            break
        if rules.outcome(state).finished:
            stop(index, RecordError("the game was already over"))
            break
        step = Step(index, block)
        steps.append(step)
        drawn_before = len(secret.sides) if isinstance(secret, SidedDice) else 0
        try:
            state = _play_step(rec, step, state, secret)
        except (RecordError, RuleError, dicelib.DiceError) as exc:
            step.secret_sides = secret_since(drawn_before)
            stop(index, exc)
            break
        step.secret_sides = secret_since(drawn_before)
        if played.ended_by is None and rules.outcome(state).finished:
            # as the record's result says it: a departure in the step, else its resolution
            after_left = step.left_state
            gone = after_left is not None and rules.outcome(after_left).finished
            played.ended_by = "resign" if gone else "rules"
    played.final = state
    if played.stopped is None:
        out = Replay(rec.spec.key, state, len(rec.turns), ended_by=played.ended_by)
        try:
            resign(rec, record.get("end"), out)
        except RecordError as exc:
            stop(len(rec.turns), exc)
        else:
            played.final, played.ended = out.state, [e for _, e in out.events]
            played.ended_by = out.ended_by
    return played


def _play_step(rec: Record, step: Step, state: Any, secret: Any) -> Any:
    """Open, order and resolve one step into ``step``; the state it resolved to."""
    rules, block, index = rec.rules, step.block, step.index
    scripted = scripted_dice(block, index)
    inputs = block.get("inputs") or {}
    if not isinstance(inputs, Mapping):
        raise RecordError("inputs must be an object from seat to order text")
    strangers = sorted(str(s) for s in inputs if s not in rec.seats)
    if strangers:
        raise RecordError(f"{strangers[0]} is not a seat of this game")
    step.stream_turn = turn = rules.step_number(state) + 1
    pre = SidedDice(scripted or dice_for(block, rec.game_id, turn, dicelib.PRE, None, index))
    state, step.started = rules.start_step(state, pre, secret)
    step.opened = state
    for seat, given in inputs.items():
        if is_withheld(given):
            raise WithheldError("this order is withheld (only its receipt is public)", seat=seat)
    left = block.get("left") or []
    for seat in left if isinstance(left, list) else []:
        state, departed = rules.resign(state, seat)
        step.resolved.extend(departed)
        step.left_state = state
    step.awaited = list(rules.awaiting(state))
    withheld = rec.spec.withheld
    step.withheld = [s for s in step.awaited if withheld is not None and withheld(state, s)]
    orders: dict[str, Order] = {}
    for seat in step.awaited:
        given = inputs.get(seat)
        orders[seat] = (
            rules.default_order(state, seat)
            if given is None
            else rules.parse(state, seat, order_text(given))
        )
    step.canonical = {s: o.canonical() for s, o in orders.items()}
    digest = block_orders_digest(block, rec.seats)
    resolve_dice = scripted or dice_for(block, rec.game_id, turn, dicelib.RESOLVE, digest, index)
    sided = SidedDice(resolve_dice)
    state, events = rules.resolve(state, orders, sided, secret)
    step.resolved.extend(events)
    step.state = state
    if scripted is not None:
        step.sides = {"rolls": [*pre.sides, *sided.sides]}
        step.rolls = {"rolls": list(scripted.rolls)}
    else:
        step.sides = {"pre": pre.sides, "resolve": sided.sides}
        step.rolls = {"pre": list(pre.rolls), "resolve": list(sided.rolls)}
    return state
