"""Replaying a match record (``shared/spec/match-record.md``, ``python -m bot replay``): the
game played again from its start, event for event.

``replay`` checks what ``verify`` checks before it plays (:mod:`bot.record.audit`: seeds against
their commitments, orders against their receipts, the orders digests, the secret seed), so a
tampered record is refused, never replayed as if it were genuine; what only playing can check (a
defaulted seat's receipt, the rolls the seeds give, the secret rolls, the record's ``result``) is
checked here as the game is played. A mid-game export of a game with hidden information
(``dice-and-receipts.md``) holds only what is public: replay stops where the withheld part begins
(:class:`~bot.record.read.WithheldError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import dice as dicelib
from bot import registry
from bot.record.audit import Audit, check_before, check_players
from bot.record.export import STATUSES
from bot.record.handovers import check_handovers
from bot.record.read import (
    Halted,
    Record,
    RecordError,
    SecretDraw,
    UnrevealedSecret,
    WithheldError,
    block_orders_digest,
    dice_for,
    is_withheld,
    label_of,
    mapping_at,
    one_line,
    order_text,
    read_record,
    reason_of,
    refused_if_malformed,
    scripted_dice,
    unhex,
    where,
)
from bot.ruleset import Event, Order, RuleError

WITHHELD_ORDER = (
    "this order is withheld (only its receipt is public until it is revealed):"
    " the withheld part of the game begins here"
)
WITHHELD_SECRET = (
    "this step draws from the secret stream, which is withheld until the game ends (the record"
    " has no secret seed): the withheld part of the game begins here"
)
NO_MATCH = "the order (with its salt) does not match its receipt"


@dataclass
class Replay:
    """What playing a record gives: the game's state, its events by step, and the rolls and
    canonical orders each step used (kept until a failure stopped the replay, for verify)."""

    ruleset: str
    state: Any
    turns_resolved: int
    events: list[tuple[int, Event]] = field(default_factory=list)
    drawn: list[dict[str, list[int]]] = field(default_factory=list)
    orders: list[dict[str, str]] = field(default_factory=list)  # canonical text used per turn
    setup_drawn: dict[str, list[int]] = field(default_factory=dict)
    secret_drawn: list[int] = field(default_factory=list)  # every secret roll, in order
    secret_blocks: int = 0  # blocks of the secret stream drawn (rejected ones included)
    # How the replayed game ended, as a record's ``result.end_reason`` says it: "rules" (a
    # step's resolution), "resign" or "adjudicated"; None while it goes on.
    ended_by: str | None = None
    # Every step as it was played, kept only when a caller asks (``[]``: the match viewer draws
    # each step's board from them); replay and verify keep none.
    steps: list[PlayedStep] | None = None

    def result(self) -> dict[str, Any]:
        engine = registry.get(self.ruleset).engine
        outcome = engine.outcome(self.state)
        return {
            "ruleset": self.ruleset,
            "turns_resolved": self.turns_resolved,
            "finished": outcome.finished,
            "winner": outcome.winner,
            "summary": engine.summary(self.state),
        }


class SidedDice:
    """A stream's dice that also keep each die's number of sides, in draw order: a stream's
    rolls can be recomputed from its seed only when the sizes are known, and the rules choose
    them (the match viewer checks the dice in the browser so)."""

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
class PlayedStep:
    """One step as :func:`play` played it (0: the setup, ``k``: ``turns[k - 1]``), kept in
    :attr:`Replay.steps` when asked. A step the replay stopped in keeps what it reached (its
    ``state`` None). Engines are pure: every state kept stays as it was."""

    index: int
    turn: int = 0  # the turn in its streams' labels (``game:turn:phase``)
    opened: Any = None  # the state once the step opened (None: the setup)
    ordered: Any = None  # the state the orders were taken in (after the step's departures)
    state: Any = None  # the state once it resolved
    awaited: list[str] = field(default_factory=list)
    canonical: dict[str, str] = field(default_factory=dict)  # each order played, as sealed
    started: list[Event] = field(default_factory=list)  # the events of opening the step
    resolved: list[Event] = field(default_factory=list)  # departures, then the resolution
    sides: dict[str, list[int]] = field(default_factory=dict)  # per phase: each die's sides
    rolls: dict[str, list[int]] = field(default_factory=dict)  # per phase: the rolls drawn
    secret_sides: list[int] = field(default_factory=list)  # this step's secret draws


def _check_drawn(
    audit: Audit,
    block: Mapping[str, Any],
    recomputed: Mapping[str, list[int]],
    index: int,
    named: str | None,
) -> None:
    """The rolls a step's record lists against the ones replaying it drew (``named``: the
    step's label for an error, the ruleset's own when the record has none)."""
    at = where(index, label_of(block))
    drawn = block.get("drawn")
    if drawn is None:
        return
    if not isinstance(drawn, Mapping):
        error = RecordError("drawn must be a JSON object", turn=index, step=named)
        audit.during(False, f"{at} drawn (not a JSON object)", index, 3, error)
        return
    for phase, values in drawn.items():
        same = isinstance(values, list) and recomputed.get(phase) == values
        error = RecordError(
            f"the {phase} rolls in the record {values} are not the rolls its seed gives"
            f" {recomputed.get(phase)}",
            turn=index,
            step=named,
        )
        # A mismatch says what was expected, as the result check does: the reader sees the die
        # that differs without recomputing the stream.
        expected = ""
        if not same:
            want = recomputed.get(phase)
            expected = (
                f" (expected {want}: the rolls its seed gives)"
                if want is not None
                else f" (expected none: the step draws no {phase} rolls)"
            )
        audit.during(same, f"{at} {phase} rolls {values}{expected}", index, 3, error)


def play(rec: Record, audit: Audit, deferred: Mapping[int, Mapping[str, str]], out: Replay) -> None:
    """Play the record from its start into ``out`` (``audit`` checks the rolls and the deferred
    receipts on the way).

    Raises :class:`WithheldError` where the withheld part of a mid-game export begins, and
    :class:`RecordError` for anything the engine refuses; ``out`` keeps what was played until
    then (verify reports on it).
    """
    rules = rec.rules
    secret = rec.secret_dice()
    recorded_secret = rec.secret_drawn()
    counted = [0]  # secret rolls checked so far
    keep = out.steps is not None
    # What the rules draw from: the same dice, counting each die's sides when steps are kept (an
    # unrevealed secret stream is passed as it is: it must refuse a draw as itself).
    drawn_from: Any = (
        SidedDice(secret) if keep and isinstance(secret, dicelib.DiceStream) else secret
    )

    def sided(dice: dicelib.Dice) -> dicelib.Dice:
        return SidedDice(dice) if keep else dice

    def kept(index: int) -> PlayedStep:
        step = PlayedStep(index)
        if out.steps is not None:
            out.steps.append(step)
        return step

    def secret_since(step: PlayedStep, start: int) -> None:
        if isinstance(drawn_from, SidedDice):
            step.secret_sides = drawn_from.sides[start:]

    def check_secret(index: int, label: str | None, named: str | None) -> None:
        """The record's secret rolls of this step against the ones its seed gives."""
        out.secret_drawn = list(secret.rolls)
        if isinstance(secret, dicelib.DiceStream):
            out.secret_blocks = secret.blocks
        if recorded_secret is None or not isinstance(secret, dicelib.DiceStream):
            return
        start, end = counted[0], len(secret.rolls)
        counted[0] = end
        if start == end:
            return
        got, want = recorded_secret[start:end], secret.rolls[start:end]
        error = RecordError(
            f"the secret rolls in the record {got} are not the rolls the secret seed gives {want}",
            turn=index,
            step=named,
        )
        expected = "" if got == want else f" (expected {want}: the rolls the secret seed gives)"
        what = f"{where(index, label)} secret rolls {got}{expected}"
        audit.during(got == want, what, index, 4, error)

    label = label_of(rec.setup)
    audit.enter(0)
    setup_given = scripted_dice(rec.setup, 0) or dice_for(
        rec.setup, rec.game_id, 0, dicelib.PRE, None, 0
    )
    setup_dice = sided(setup_given)
    setup_step = kept(0)
    rec.check_options()  # before anything reads them: the new game, then every step
    try:
        state = rules.new_game(rec.game_id, rec.seats, rec.options, setup_dice, drawn_from)
    except SecretDraw:
        raise WithheldError(WITHHELD_SECRET, turn=0, step=label) from None
    except (RuleError, dicelib.DiceError) as exc:
        if isinstance(secret, UnrevealedSecret):  # the ruleset cannot start without it
            raise WithheldError(
                f"{WITHHELD_SECRET} ({reason_of(exc)})", turn=0, step=label
            ) from None
        raise RecordError(reason_of(exc), turn=0, step=label) from None
    out.state = state
    out.setup_drawn = (
        {"rolls": list(setup_dice.rolls)}
        if isinstance(setup_given, dicelib.ScriptedDice) and "rolls" in rec.setup
        else {dicelib.PRE: list(setup_dice.rolls)}
    )
    setup_step.state = state
    setup_step.rolls = out.setup_drawn
    if isinstance(setup_dice, SidedDice):
        setup_step.sides = {next(iter(out.setup_drawn)): setup_dice.sides}
    secret_since(setup_step, 0)
    _check_drawn(audit, rec.setup, out.setup_drawn, 0, label)
    check_secret(0, label, label)

    for index, block in enumerate(rec.turns, start=1):
        audit.enter(index)
        if not isinstance(block, Mapping):
            raise RecordError("each turn is a JSON object", turn=index)
        label = label_of(block)
        if rules.outcome(state).finished:
            raise RecordError("the game was already over", turn=index, step=label)
        scripted = scripted_dice(block, index)
        inputs = block.get("inputs") or {}
        if not isinstance(inputs, Mapping):
            raise RecordError(
                "inputs must be an object from seat to order text", turn=index, step=label
            )
        # A misspelt seat ("a" for "A") would otherwise be ignored and the real seat defaulted:
        # a different game, replayed without a word.
        strangers = sorted(str(s) for s in inputs if s not in rec.seats)
        if strangers:
            raise RecordError("not a seat of this game", turn=index, seat=strangers[0], step=label)
        receipts, salts = mapping_at(block, "receipts"), mapping_at(block, "salts")
        pending = deferred.get(index, {})
        seat: str | None = None
        named = label  # the record's label, else the ruleset's own once the step is open
        step = kept(index)
        secret_before = len(drawn_from.sides) if isinstance(drawn_from, SidedDice) else 0
        try:
            step.turn = turn = rules.step_number(state) + 1
            pre = sided(scripted or dice_for(block, rec.game_id, turn, dicelib.PRE, None, index))
            state, started = rules.start_step(state, pre, drawn_from)
            step.opened, step.started = state, started
            named = label or rules.step_label(state)
            for seat, given in sorted(inputs.items()):
                if is_withheld(given):
                    raise WithheldError(WITHHELD_ORDER, turn=index, seat=seat, step=named)
                if isinstance(given, Mapping):
                    raise RecordError(
                        'an input is order text, a list of texts, or {"receipt": hex} (withheld)',
                        turn=index,
                        seat=seat,
                        step=named,
                    )
            seat = None
            out.events.extend((turn, e) for e in started)
            # Seats that left during this step while the game went on for the others.
            for seat in _left(block, rec.seats, index, named):
                state, departed = rules.resign(state, seat)
                out.events.extend((turn, e) for e in departed)
                step.resolved.extend(departed)
                if out.ended_by is None and rules.outcome(state).finished:
                    out.ended_by = "resign"
            seat = None
            orders: dict[str, Order] = {}
            step.ordered, step.awaited = state, list(rules.awaiting(state))
            for seat in step.awaited:
                given = inputs.get(seat)
                if given is None:
                    orders[seat] = rules.default_order(state, seat)
                    continue
                try:
                    orders[seat] = rules.parse(state, seat, order_text(given))
                except RuleError:
                    if pending.get(seat) != "canonical":
                        raise
                    # Not the text its receipt seals, and not an order at all here: an edited
                    # order is a receipt mismatch on its own step, not an illegal move.
                    error = RecordError(NO_MATCH, turn=index, seat=seat, step=named)
                    what = f"{where(index, label)} seat {seat} receipt"
                    audit.during(False, what, index, 1, error)
                    audit.done.add((index, seat))
                    raise Halted(NO_MATCH, turn=index, seat=seat, step=named) from None
            seat = None
            # The receipts only the replay can check: the sealed text is the canonical order
            # (for a defaulted seat, the default order's).
            for sealed, _kind in sorted(pending.items()):
                order = orders.get(sealed)
                salt = unhex(salts.get(sealed))
                actual = (
                    None
                    if order is None or salt is None
                    else dicelib.receipt(salt, order.canonical())
                )
                why = NO_MATCH if order is not None else "a receipt, but no order in this step"
                error = RecordError(why, turn=index, seat=sealed, step=named)
                what = f"{where(index, label)} seat {sealed} receipt"
                audit.during(actual == receipts.get(sealed), what, index, 1, error)
                audit.done.add((index, sealed))
            step.canonical = {s: o.canonical() for s, o in orders.items()}
            resolve = sided(
                scripted
                or dice_for(
                    block,
                    rec.game_id,
                    turn,
                    dicelib.RESOLVE,
                    block_orders_digest(block, rec.seats),
                    index,
                )
            )
            state, events = rules.resolve(state, orders, resolve, drawn_from)
            out.events.extend((turn, e) for e in events)
            step.resolved.extend(events)
            if out.ended_by is None and rules.outcome(state).finished:
                out.ended_by = "rules"
        except SecretDraw:
            raise WithheldError(WITHHELD_SECRET, turn=index, step=named) from None
        except (RuleError, dicelib.DiceError) as exc:
            raise RecordError(reason_of(exc), turn=index, seat=seat, step=named) from None
        finally:
            secret_since(step, secret_before)
        out.state = step.state = state
        if scripted is not None and scripted.remaining:
            raise RecordError(f"{scripted.remaining} roll(s) left unused", turn=index, step=named)
        recomputed = (
            {dicelib.PRE: list(pre.rolls), dicelib.RESOLVE: list(resolve.rolls)}
            if scripted is None
            else {"rolls": list(scripted.rolls)}
        )
        out.drawn.append(recomputed)
        step.rolls = recomputed
        if isinstance(pre, SidedDice) and isinstance(resolve, SidedDice):
            step.sides = (
                {dicelib.PRE: pre.sides, dicelib.RESOLVE: resolve.sides}
                if scripted is None
                else {"rolls": [*pre.sides, *resolve.sides]}
            )
        _check_drawn(audit, block, recomputed, index, named)
        check_secret(index, label, named)
        out.orders.append({s: o.canonical() for s, o in orders.items()})
        out.turns_resolved = index


def _left(block: Mapping[str, Any], seats: list[str], index: int, step: str | None) -> list[str]:
    """The step's ``left``: the seats that resigned during it while the game went on."""
    left = block.get("left")
    if left is None:
        return []
    if not isinstance(left, list) or not all(isinstance(s, str) for s in left):
        raise RecordError("left must be a list of seat names", turn=index, step=step)
    for seat in left:
        if seat not in seats:
            raise RecordError("not a seat of this game", turn=index, seat=seat, step=step)
    return left


def resign(rec: Record, end: Any, out: Replay) -> None:
    """How the game ended after its last exported step: the seats that resigned then, and a
    moderator's ruling (``"adjudicated": true``: the ruleset's tie-break)."""
    if not isinstance(end, Mapping):
        return
    resigned = end.get("resigned")
    rules, state = rec.rules, out.state
    for seat_name in (resigned if isinstance(resigned, list) else [resigned]) if resigned else []:
        try:
            state, events = rules.resign(state, seat_name)
        except RuleError as exc:  # a seat that does not exist, or a game already over
            at = rules.step_number(state)
            raise RecordError(reason_of(exc), turn=at, seat=str(seat_name)) from None
        out.events.extend((rules.step_number(state), e) for e in events)
        if out.ended_by is None and rules.outcome(state).finished:
            out.ended_by = "resign"
    if end.get("adjudicated"):
        adjudicate = rec.spec.adjudicate
        if adjudicate is None:
            raise RecordError("the record says a moderator adjudicated, but these rules cannot")
        try:
            state, events = adjudicate(state)
        except RuleError as exc:
            raise RecordError(reason_of(exc), turn=rules.step_number(state)) from None
        out.events.extend((rules.step_number(state), e) for e in events)
        if out.ended_by is None and rules.outcome(state).finished:
            out.ended_by = "adjudicated"
    out.state = state


def check_secret_after(rec: Record, audit: Audit, out: Replay, complete: bool) -> None:
    """The secret rolls of the whole game, once every step was played: none missing, none
    added. The rolls of a step that never resolved (a game resigned or abandoned in the middle of
    a step) are drawn but not replayed: verify says so."""
    recorded = rec.secret_drawn()
    if recorded is None or unhex(rec.secret.get("seed")) is None:
        return
    end = len(rec.turns) + 1
    extra = len(recorded) - len(out.secret_drawn)
    if not complete:
        if extra > 0:
            audit.note(
                f"secret stream: {extra} later roll(s) not checked (the replay stopped)", end, 0
            )
        return
    finished = out.state is not None and rec.rules.outcome(out.state).finished
    if extra > 0 and finished:
        error = RecordError(
            f"secret stream: the record lists {extra} roll(s) more than the game drew"
        )
        audit.during(
            False, f"secret stream: {extra} roll(s) more than the game drew", end, 0, error
        )
    elif extra > 0:
        what = f"secret stream: the last {extra} roll(s) were drawn in a step that never resolved"
        audit.note(f"{what} (not replayed)", end, 0)
    elif extra == 0 and "blocks" in rec.secret:
        # The stream's own counter, where it stopped (rejected blocks included): the table
        # resumes the stream from there at every step.
        blocks = rec.secret.get("blocks")
        error = RecordError(
            f"secret stream: {blocks} block(s) recorded, the game drew {out.secret_blocks}"
        )
        audit.during(blocks == out.secret_blocks, f"secret stream blocks {blocks}", end, 0, error)


def _winner(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(one_line(v) for v in value)
    return one_line(value)


def _same_winner(claimed: Any, replayed: Any) -> bool:
    if isinstance(claimed, list) and isinstance(replayed, list):
        return sorted(map(str, claimed)) == sorted(map(str, replayed))
    # An older export of a game several seats won says no single winner (its ``outcome``).
    return claimed == replayed or (claimed is None and isinstance(replayed, list))


def check_result(
    record: Mapping[str, Any], rec: Record, audit: Audit, out: Replay, replayed: str
) -> None:
    """The record's ``result`` (status, winner, end_reason, grades, turns_resolved) against the
    game its steps replay to: a forged result, or a record cut short (``truncated``), fails.

    ``replayed``: ``"complete"``, ``"withheld"`` (a mid-game export's withheld part stopped the
    replay) or ``"stopped"`` (a failure, already reported, stopped it)."""
    result = record.get("result")
    if result is None:
        return
    end = len(rec.turns) + 1

    def check(ok: bool, what: str, why: str = "") -> None:
        audit.during(ok, what, end, 7, RecordError(why or what))

    if not isinstance(result, Mapping):
        check(False, "result (not a JSON object)", "result must be a JSON object")
        return
    held = len(rec.turns)
    claimed = result.get("turns_resolved")
    if claimed is not None:
        if isinstance(claimed, bool) or not isinstance(claimed, int):
            check(False, "result turns_resolved (not a number)")
        elif claimed > held:
            check(False, f"truncated: the record claims {claimed} resolved turns but holds {held}")
        else:
            what = f"result turns_resolved {claimed}"
            check(claimed == held, what if claimed == held else f"{what} (the record holds {held})")
    status, winner = result.get("status"), result.get("winner")
    if status not in STATUSES:
        what = f"result status {one_line(status)} (not a game status: {', '.join(STATUSES)})"
        check(False, what)
        return
    if replayed != "complete":
        if replayed == "withheld" and status == "finished":
            # A finished game's export holds everything: the secret seed, every order.
            check(False, "truncated: the record claims a finished game but withholds part of it")
        else:
            audit.note("result not checked (the replay did not reach the end)", end, 7)
        return
    outcome = rec.rules.outcome(out.state)
    over = f"the replay's game is over: winner {_winner(outcome.winner)}"
    if status != "finished":
        check(not outcome.finished, f"result status {status}" + (f" ({over})" * outcome.finished))
        check(
            winner is None,
            f"result winner {_winner(winner)}"
            + " (a game that is not over has no winner)" * (winner is not None),
        )
        return
    if not outcome.finished:
        check(
            False,
            f"truncated: the record claims a finished game (winner {_winner(winner)}) but its"
            f" {held} turn(s) replay to a game still going on",
        )
        return
    check(True, "result status finished (the replay's game is over)")
    same = _same_winner(winner, outcome.winner)
    suffix = "" if same else f" (the replay's winner is {_winner(outcome.winner)})"
    check(same, f"result winner {_winner(winner)}{suffix}")
    reason = result.get("end_reason")
    if reason is not None:  # older exports may not say; the others can be derived
        same = reason == out.ended_by
        suffix = "" if same else f" (the replay's game ended by {out.ended_by})"
        check(same, f"result end_reason {one_line(reason)}{suffix}")
    grades = result.get("grades")
    if grades is not None:
        same = isinstance(grades, Mapping) and dict(grades) == dict(outcome.grades)
        suffix = "" if same else f" (the replay's grades are {dict(outcome.grades)})"
        check(same, f"result grades {one_line(grades)}{suffix}")


def replay(record: Mapping[str, Any]) -> Replay:
    """Play a record from its start; refuse it (:class:`RecordError`, one line) if it was
    tampered with (its dice, orders, players or result), if the engine refuses it, or where its
    withheld part begins."""
    with refused_if_malformed():
        return _replay(record)


def _replay(record: Mapping[str, Any]) -> Replay:
    rec = read_record(record)
    audit = Audit(strict=True)
    deferred = check_before(rec, audit)
    if (refused := audit.first(deferred)) is not None:
        raise refused
    if (refused := check_players(record, rec, audit)) is not None:
        raise refused
    if (refused := check_handovers(record, rec, audit)) is not None:
        raise refused
    out = Replay(rec.spec.key, None, 0)
    try:
        play(rec, audit, deferred, out)
    except RecordError as exc:
        raise audit.instead_of(exc) from None
    check_secret_after(rec, audit, out, complete=True)
    resign(rec, record.get("end"), out)
    check_result(record, rec, audit, out, "complete")
    return out
