"""Match records (``shared/spec/match-record.md``): export, replay and verification.

Pure: a record is plain JSON, the engines are deterministic given their inputs and dice, so
replaying a record always gives the same game, event for event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot import dice as dicelib
from bot import registry
from bot.i18n import t
from bot.ruleset import DRAW, Engine, Event, Order, RuleError

if TYPE_CHECKING:
    from bot.storage.base import GameRow, OrderRow, StreamRow

FORMAT = "pbp-match/1"


class RecordError(ValueError):
    """A record the engine refuses; ``str()`` is one line naming the turn, the seat and why."""

    def __init__(self, message: str, *, turn: int | None = None, seat: str | None = None) -> None:
        where = []
        if turn is not None:
            where.append("setup" if turn == 0 else f"turn {turn}")
        if seat is not None:
            where.append(f"seat {seat}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.turn = turn
        self.seat = seat


# --- export ------------------------------------------------------------------------------------


def build_record(
    game: GameRow, orders: Iterable[OrderRow], streams: Iterable[StreamRow]
) -> dict[str, Any]:
    """The record of everything resolved so far. Secrets of the running turn are never included."""
    by_turn: dict[int, dict[str, StreamRow]] = {}
    for s in streams:
        by_turn.setdefault(s.turn, {})[s.phase] = s
    orders_by_turn: dict[int, dict[str, OrderRow]] = {}
    for o in orders:
        orders_by_turn.setdefault(o.turn, {})[o.seat] = o

    def dice_block(turn_streams: Mapping[str, StreamRow]) -> dict[str, Any]:
        shown = {p: s for p, s in turn_streams.items() if s.revealed}
        return {
            "seeds": {p: s.seed for p, s in shown.items()},
            "commitments": {p: s.commitment for p, s in shown.items()},
            "drawn": {p: s.drawn for p, s in shown.items()},
        }

    setup = {"inputs": {}, **dice_block(by_turn.get(0, {}))}
    turns = []
    for turn in sorted(k for k in by_turn if k > 0):
        phases = by_turn[turn]
        if not all(s.revealed for s in phases.values()):
            continue  # the running turn: its seeds are still secret
        turn_orders = orders_by_turn.get(turn, {})
        entry: dict[str, Any] = {
            "inputs": {s: o.text for s, o in sorted(turn_orders.items()) if not o.defaulted},
            **dice_block(phases),
            "receipts": {s: o.receipt for s, o in sorted(turn_orders.items())},
            "salts": {s: o.salt for s, o in sorted(turn_orders.items())},
            "defaulted": sorted(s for s, o in turn_orders.items() if o.defaulted),
        }
        if (resolve := phases.get(dicelib.RESOLVE)) and resolve.orders_digest:
            entry["orders_digest"] = resolve.orders_digest
        turns.append(entry)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game_id": game.id,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": game.seat_order,
        "players": {s.seat: s.name for s in game.seats},
        "setup": setup,
        "turns": turns,
        "result": {"status": game.status, "winner": game.outcome, "end_reason": game.end_reason},
    }
    if game.end_reason == "resign" and game.outcome and game.outcome != DRAW:
        losers = [s for s in game.seat_order if s != game.outcome]
        record["end"] = {"resigned": losers[0] if len(losers) == 1 else losers}
    return record


# --- replay ------------------------------------------------------------------------------------


@dataclass
class Replay:
    ruleset: str
    state: Any
    turns_resolved: int
    events: list[tuple[int, Event]] = field(default_factory=list)
    drawn: list[dict[str, list[int]]] = field(default_factory=list)
    orders: list[dict[str, str]] = field(default_factory=list)  # canonical text used per turn

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


def _reason(error: RuleError | dicelib.DiceError) -> str:
    return t("en", error.key, **error.params)


def _scripted(block: Mapping[str, Any], turn: int) -> dicelib.ScriptedDice | None:
    """The block's scripted ``rolls`` (one shared list per turn), or None if it has seeds."""
    if "rolls" not in block:
        return None
    rolls = block["rolls"]
    # A string or a number here would otherwise crash the replay (len() of an int) or be read
    # digit by digit; each value's range is checked as it is drawn.
    if not isinstance(rolls, list):
        raise RecordError("rolls must be a list of die results", turn=turn)
    return dicelib.ScriptedDice(rolls)


def _dice_for(
    block: Mapping[str, Any], game_id: str, turn: int, phase: str, digest: str | None
) -> dicelib.Dice:
    seeds = block.get("seeds") or {}
    if not isinstance(seeds, Mapping):
        raise RecordError('seeds must be an object {"pre": hex, "resolve": hex}', turn=turn)
    seed = seeds.get(phase)
    if seed is None:
        return dicelib.ScriptedDice([])
    if not isinstance(seed, str):
        raise RecordError(f"the {phase} seed is not hex", turn=turn)
    try:
        return dicelib.replay_stream(seed, game_id, turn, phase, digest)
    except ValueError as exc:
        raise RecordError(f"the {phase} seed is not hex ({exc})", turn=turn) from None


def _orders_digest(block: Mapping[str, Any], seats: list[str]) -> str | None:
    if "orders_digest" in block:
        return str(block["orders_digest"])
    receipts = block.get("receipts")
    if receipts and isinstance(receipts, Mapping):  # a malformed one fails verify's own checks
        return dicelib.orders_digest(str(receipts[s]) for s in seats if s in receipts)
    return None


def replay(record: Mapping[str, Any]) -> Replay:
    if not isinstance(record, Mapping):
        raise RecordError("a match record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown format {record.get('format')!r} (expected {FORMAT})")
    try:
        spec = registry.get(str(record.get("ruleset")))
    except RuleError:
        raise RecordError(f"unknown ruleset {record.get('ruleset')!r}") from None
    rules: Engine[Any, Any] = spec.engine
    game_id = str(record.get("game_id", "replay"))
    seats = record.get("seats") or list(spec.seats.names)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RecordError("seats must be a list of seat names")
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("options must be an object")
    setup = record.get("setup") or {}
    turns = record.get("turns") or []
    if not isinstance(turns, list):
        raise RecordError("turns must be a list")
    out = Replay(spec.key, None, 0)

    if not isinstance(setup, Mapping):
        raise RecordError("setup is a JSON object", turn=0)
    setup_dice = _scripted(setup, 0) or _dice_for(setup, game_id, 0, dicelib.PRE, None)
    try:
        state = rules.new_game(game_id, seats, options, setup_dice, dicelib.NO_SECRET)
    except (RuleError, dicelib.DiceError) as exc:
        raise RecordError(_reason(exc), turn=0) from None

    for index, block in enumerate(turns, start=1):
        if not isinstance(block, Mapping):
            raise RecordError("each turn is a JSON object", turn=index)
        if rules.outcome(state).finished:
            raise RecordError("the game was already over", turn=index)
        scripted = _scripted(block, index)
        inputs = block.get("inputs") or {}
        if not isinstance(inputs, Mapping):
            raise RecordError("inputs must be an object from seat to order text", turn=index)
        # A misspelt seat ("a" for "A") would otherwise be ignored and the real seat defaulted:
        # a different game, replayed without a word.
        strangers = sorted(str(s) for s in inputs if s not in seats)
        if strangers:
            raise RecordError("not a seat of this game", turn=index, seat=strangers[0])
        seat: str | None = None
        try:
            turn = rules.turn(state) + 1
            pre = scripted or _dice_for(block, game_id, turn, dicelib.PRE, None)
            state, started = rules.start_turn(state, pre, dicelib.NO_SECRET)
            out.events.extend((turn, e) for e in started)
            orders: dict[str, Order] = {}
            for seat in rules.awaiting(state):
                text = inputs.get(seat)
                if isinstance(text, list):  # several inputs in sequence: this ruleset takes one
                    text = " ".join(str(x) for x in text)
                orders[seat] = (
                    rules.default_order(state, seat)
                    if text is None
                    else rules.parse(state, seat, str(text))
                )
            seat = None
            resolve = scripted or _dice_for(
                block, game_id, turn, dicelib.RESOLVE, _orders_digest(block, seats)
            )
            state, events = rules.resolve(state, orders, resolve, dicelib.NO_SECRET)
            out.events.extend((turn, e) for e in events)
        except (RuleError, dicelib.DiceError) as exc:
            raise RecordError(_reason(exc), turn=index, seat=seat) from None
        if scripted is not None and scripted.remaining:
            raise RecordError(f"{scripted.remaining} roll(s) left unused", turn=index)
        out.drawn.append(
            {"pre": list(pre.rolls), "resolve": list(resolve.rolls)}
            if scripted is None
            else {"rolls": list(scripted.rolls)}
        )
        out.orders.append({s: o.canonical() for s, o in orders.items()})
        out.turns_resolved = index

    end = record.get("end") or {}
    resigned = end.get("resigned") if isinstance(end, Mapping) else None
    if resigned:
        for seat_name in resigned if isinstance(resigned, list) else [resigned]:
            try:
                state, events = rules.resign(state, seat_name)
            except RuleError as exc:  # a seat that does not exist, or a game already over
                where = rules.turn(state)
                raise RecordError(_reason(exc), turn=where, seat=str(seat_name)) from None
            out.events.extend((rules.turn(state), e) for e in events)
    out.state = state
    return out


# --- verification ------------------------------------------------------------------------------


@dataclass
class Check:
    ok: bool
    what: str


def verify(record: Mapping[str, Any]) -> list[Check]:
    """Check every commitment, receipt, orders digest and drawn roll of a real export."""
    checks: list[Check] = []
    # Replay first: it refuses anything that is not a record (a JSON list, an unknown ruleset…)
    # with a RecordError that names the problem, before any field is read here.
    replayed = replay(record)
    seats = list(record.get("seats") or registry.get(replayed.ruleset).seats.names)

    def unhex(value: Any) -> bytes | None:
        try:
            return bytes.fromhex(value) if isinstance(value, str) else None
        except ValueError:
            return None

    def field(block: Mapping[str, Any], name: str, where: str) -> Mapping[str, Any]:
        # A field of the wrong shape fails a check of its own instead of crashing the checker
        # (or, read as empty, silently skipping the checks it should have fed).
        value = block.get(name)
        if value is None or isinstance(value, Mapping):
            return value or {}
        checks.append(Check(False, f"{where} {name} (not a JSON object)"))
        return {}

    def commitments(block: Mapping[str, Any], where: str) -> None:
        published = field(block, "commitments", where)
        for phase, seed in field(block, "seeds", where).items():
            raw = unhex(seed)
            actual = None if raw is None else hashlib.sha256(raw).hexdigest()
            ok = actual == published.get(phase)
            checks.append(Check(ok, f"{where} {phase} commitment sha256(seed)"))

    commitments(record.get("setup") or {}, "setup")
    for index, block in enumerate(record.get("turns") or [], start=1):
        where = f"turn {index}"
        commitments(block, where)
        receipts = field(block, "receipts", where)
        salts = field(block, "salts", where)
        inputs = block.get("inputs") or {}
        for seat, receipt in receipts.items():
            # The sealed text is the canonical order (for a defaulted seat, the default order's).
            text = replayed.orders[index - 1].get(seat, inputs.get(seat, ""))
            salt = unhex(salts.get(seat))  # a missing or non-hex salt fails its check
            actual = None if salt is None else dicelib.receipt(salt, str(text))
            checks.append(Check(actual == receipt, f"{where} seat {seat} receipt"))
        if receipts and "orders_digest" in block:
            digest = dicelib.orders_digest(str(receipts[s]) for s in seats if s in receipts)
            checks.append(Check(digest == block["orders_digest"], f"{where} orders digest"))
        recomputed = replayed.drawn[index - 1]
        for phase, values in field(block, "drawn", where).items():
            same = isinstance(values, list) and recomputed.get(phase) == values
            checks.append(Check(same, f"{where} {phase} rolls {values}"))
    return checks
