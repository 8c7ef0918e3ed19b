"""Match records (``shared/spec/match-record.md``): export, replay and verification.

Pure: a record is plain JSON, the engines are deterministic given their inputs and dice, so
replaying a record always gives the same game, event for event.

``replay`` checks what ``verify`` checks before it plays (seeds against their commitments, orders
against their receipts, the orders digests, the secret seed), so a tampered record is refused,
never replayed as if it were genuine; what only playing can check (a defaulted seat's receipt, the
rolls the seeds give) is checked as the game is played. A mid-game export of a game with hidden
information (``dice-and-receipts.md``) holds only what is public: replay stops where the withheld
part begins, and ``verify`` checks what is there and says what is withheld.

:mod:`bot.record.export` writes a record, :mod:`bot.record.read` reads one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import dice as dicelib
from bot import registry
from bot.record.export import (
    FORMAT,
    RUNNING_STATUSES,
    STATUSES,
    WITHHELD_KEY,
    build_record,
    players_digest,
)
from bot.record.read import (
    MAX_RECORD_BYTES,
    NO_DIGEST,
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
    load_record,
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

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "RUNNING_STATUSES",
    "STATUSES",
    "WITHHELD_KEY",
    "Check",
    "RecordError",
    "Replay",
    "WithheldError",
    "build_record",
    "load_record",
    "players_digest",
    "replay",
    "verify",
    "where",
]


@dataclass
class Check:
    """One line of ``verify``: a check that passed or failed, or (``note``) a remark that is
    neither, such as what a mid-game export withholds."""

    ok: bool
    what: str
    note: bool = False


class Audit:
    """The checks of one record. ``strict`` (replay): a failure refuses the record; otherwise
    (verify) every check becomes a line. Checks made before playing are held, per step, until
    the replay decides which failure comes first."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self._lines: list[tuple[int, int, Check]] = []
        self.held: dict[int, RecordError] = {}
        self.done: set[tuple[int, str]] = set()  # the deferred receipts checked while playing
        self.diverged: dict[int, RecordError] = {}  # receipts failed while playing (verify)

    # ``index`` orders the lines (-1 the secret stream, 0 setup, then each turn), ``rank`` orders
    # a step's lines: commitments, receipts, digest, rolls, secret rolls, where the replay stopped.
    def before(self, ok: bool, what: str, index: int, rank: int, error: RecordError | None) -> None:
        """A check made before playing (``error``: why replay refuses it; None: verify only)."""
        self._lines.append((index, rank, Check(ok, what)))
        if not ok and error is not None:
            self.held.setdefault(index, error)

    def during(self, ok: bool, what: str, index: int, rank: int, error: RecordError) -> None:
        """A check made while playing: replay refuses the record at once."""
        self._lines.append((index, rank, Check(ok, what)))
        if not ok and self.strict:
            raise error
        if not ok and rank == 1:  # an order not the one its receipt seals: another game
            self.diverged.setdefault(index, error)

    def note(self, what: str, index: int, rank: int) -> None:
        self._lines.append((index, rank, Check(True, what, note=True)))

    def fail(self, what: str, index: int, rank: int) -> None:
        self._lines.append((index, rank, Check(False, what)))

    def checks(self) -> list[Check]:
        return [c for _, _, c in sorted(self._lines, key=lambda line: line[:2])]

    def enter(self, index: int) -> None:
        """Replay is about to play step ``index``: a failure found there before playing stops it."""
        if self.strict and index in self.held:
            raise self.held[index]

    def first(self, deferred: Mapping[int, Any]) -> RecordError | None:
        """The failure to refuse the record with before playing: the earliest one, unless a step
        before it has receipts only the replay can check (which might fail first)."""
        if not self.held:
            return None
        earliest = min(self.held)
        if earliest <= min((i for i, seats in deferred.items() if seats), default=earliest):
            return self.held[earliest]
        return None

    def cause_of(self, error: RecordError) -> RecordError | None:
        """Verify: the failed check that made the replayed game differ from the real one, at or
        before the step where playing stopped with ``error`` (a seed, an order, a digest that
        does not match), if any: that, not ``error``, is why the replay stopped."""
        causes = {**self.diverged, **self.held}
        earlier = [i for i in causes if error.turn is None or i <= error.turn]
        return causes[min(earlier)] if earlier else None

    def instead_of(self, error: RecordError) -> RecordError:
        """What to refuse a record with when playing it failed with ``error``: a tampered step
        found before playing, if it comes first (or if replay stopped at a withheld part)."""
        if not self.held:
            return error
        earliest = min(self.held)
        if isinstance(error, WithheldError) or error.turn is None or earliest <= error.turn:
            return self.held[earliest]
        return error


def _check_secret_before(rec: Record, audit: Audit) -> None:
    secret = rec.secret
    if not secret:
        return
    seed, published = secret.get("seed"), secret.get("commitment")
    if seed is None:
        what = "secret stream: seed withheld until the game ends (its commitment only)"
        audit.note(what, -1, 0)
    elif (raw := unhex(seed)) is None:
        error = RecordError("secret stream: the seed is not hex")
        audit.before(False, "secret stream seed (not hex)", -1, 0, error)
    else:
        ok = hashlib.sha256(raw).hexdigest() == published
        error = RecordError("secret stream: the seed does not match its commitment sha256(seed)")
        what = "secret stream commitment sha256(seed)"
        audit.before(ok, what, -1, 0, error if published is not None else None)
    drawn = secret.get("drawn")
    if drawn is not None and not isinstance(drawn, list):
        error = RecordError("secret stream: drawn must be a list of rolls")
        audit.before(False, "secret stream drawn (not a list)", -1, 0, error)


def _check_block(
    rec: Record,
    audit: Audit,
    index: int,
    block: Mapping[str, Any],
    deferred: dict[int, dict[str, str]],
) -> None:
    """The seeds, receipts and digest of one step (setup is step 0)."""
    label = label_of(block)
    at = where(index, label)

    def obj(name: str) -> Mapping[str, Any]:
        # A field of the wrong shape fails a check of its own instead of crashing the
        # checker (or, read as empty, silently skipping the checks it should have fed).
        value = block.get(name)
        if value is None or isinstance(value, Mapping):
            return value or {}
        error = RecordError(f"{name} must be a JSON object", turn=index, step=label)
        audit.before(False, f"{at} {name} (not a JSON object)", index, 0, error)
        return {}

    published, seeds = obj("commitments"), obj("seeds")
    for phase, seed in seeds.items():
        raw = unhex(seed)
        if raw is None:
            error = RecordError(f"the {phase} seed is not hex", turn=index, step=label)
            audit.before(False, f"{at} {phase} seed (not hex)", index, 0, error)
            continue
        ok = hashlib.sha256(raw).hexdigest() == published.get(phase)
        error = RecordError(
            f"the {phase} seed does not match its commitment sha256(seed)",
            turn=index,
            step=label,
        )
        # A hand-made record may give seeds without commitments: verify says so, replay
        # plays it; a commitment that is there must match.
        what = f"{at} {phase} commitment sha256(seed)"
        audit.before(ok, what, index, 0, error if phase in published else None)

    receipts, salts = obj("receipts"), obj("salts")
    inputs = block.get("inputs")
    inputs = inputs if isinstance(inputs, Mapping) else {}
    for seat, given in inputs.items():
        if is_withheld(given):
            audit.note(f"{at} seat {seat} order withheld (its receipt only)", index, 1)
            if receipts and given.get(WITHHELD_KEY) != receipts.get(seat):
                error = RecordError(
                    "the withheld order's receipt is not its receipt in receipts",
                    turn=index,
                    seat=str(seat),
                    step=label,
                )
                audit.before(False, f"{at} seat {seat} withheld receipt", index, 1, error)
        elif receipts and seat not in receipts and not isinstance(given, Mapping):
            error = RecordError("this order has no receipt", turn=index, seat=str(seat), step=label)
            audit.before(False, f"{at} seat {seat} receipt (none)", index, 1, error)
    for seat, receipt in receipts.items():
        given = inputs.get(seat)
        if isinstance(given, Mapping):
            continue  # withheld: its text and salt are not public yet (or not an input at all)
        if given is None:
            deferred.setdefault(index, {})[seat] = "default"
            continue
        what = f"{at} seat {seat} receipt"
        salt = unhex(salts.get(seat))
        if salt is None:
            error = RecordError(
                "no salt (hex) to check this order's receipt with",
                turn=index,
                seat=seat,
                step=label,
            )
            audit.before(False, what, index, 1, error)
        elif dicelib.receipt(salt, order_text(given)) == receipt:
            audit.before(True, what, index, 1, None)
        else:  # perhaps not the canonical text: the replay, which parses it, decides
            deferred.setdefault(index, {})[seat] = "canonical"
    given = block.get("orders_digest")
    if receipts and given is not None:
        digest = dicelib.orders_digest(str(receipts[s]) for s in rec.seats if s in receipts)
        error = RecordError("the orders digest does not match the receipts", turn=index, step=label)
        audit.before(digest == given, f"{at} orders digest", index, 2, error)
    elif given is None and not receipts and dicelib.RESOLVE in seeds and "rolls" not in block:
        # Not "the resolve seed is not hex": the seed may be fine, its key cannot be made.
        error = RecordError(NO_DIGEST, turn=index, step=label)
        audit.before(False, f"{at} orders digest (missing)", index, 2, error)


def check_before(rec: Record, audit: Audit) -> dict[int, dict[str, str]]:
    """Everything that can be checked without playing. Returns, per step, the seats whose
    receipts only the replay can check: ``"default"`` (a defaulted seat: its order is the
    ruleset's default, known only by replaying) or ``"canonical"`` (an input that is not the
    sealed canonical text itself, such as a hand-written record's Japanese order)."""
    _check_secret_before(rec, audit)
    deferred: dict[int, dict[str, str]] = {}
    for index, block in rec.blocks():
        if isinstance(block, Mapping):  # otherwise the replay refuses it
            _check_block(rec, audit, index, block, deferred)
    return deferred


def _names(players: Mapping[str, Any], seats: Sequence[str]) -> str:
    """``A Aurora, B Borealis`` (one line, whatever a name holds)."""
    return ", ".join(f"{seat} {one_line(players.get(seat))}" for seat in seats)


def check_players(record: Mapping[str, Any], rec: Record, audit: Audit) -> RecordError | None:
    """``players`` (seat → display name) against ``seats``, and against ``players_digest`` when
    the record has one. Returns why replay refuses the record (None: nothing to refuse).

    Nothing else in a record binds a player to a seat: the dice and the receipts bind orders and
    rolls to *seats*, so a players map with two names swapped replays and verifies exactly like
    the real one. ``players_digest`` (exported since) commits to the map: edited on its own, the
    map fails here; edited with its digest, it no longer matches the game's first post, which
    names the players by seat beside the first commitments. Without a digest verify says that
    the map is not bound (an older export)."""
    players, digest = record.get("players"), record.get("players_digest")
    if players is None:
        if digest is None:
            return None
        error = RecordError("players_digest without players: the record does not say who played")
        audit.before(False, "players (none, but a players_digest)", -2, 0, None)
        return error
    if not isinstance(players, Mapping) or not all(isinstance(v, str) for v in players.values()):
        error = RecordError("players must be an object from seat to player name")
        audit.before(False, "players (not an object from seat to player name)", -2, 0, None)
        return error
    missing = [seat for seat in rec.seats if seat not in players]
    strangers = sorted(str(seat) for seat in players if seat not in rec.seats)
    if missing or strangers:
        why = "; ".join(
            [
                *([f"no player for seat {', '.join(missing)}"] if missing else []),
                *([f"{', '.join(strangers)} not a seat of this game"] if strangers else []),
            ]
        )
        audit.before(False, f"players one per seat ({why})", -2, 0, None)
        return RecordError(f"players: {why}")
    named = _names(players, rec.seats)
    if digest is None:
        what = (
            f"players one per seat: {named} (no players_digest binds them to the seats:"
            " compare with the game's first post)"
        )
        audit.before(True, what, -2, 0, None)
        return None
    audit.before(True, f"players one per seat: {named}", -2, 0, None)
    if digest == players_digest(rec.game_id, rec.seats, players):
        audit.before(True, "players bound to their seats (players_digest)", -2, 1, None)
        return None
    why = f"the players {named} are not the ones the record's players_digest binds to the seats"
    audit.before(False, f"players digest: {why}", -2, 1, None)
    return RecordError(why)


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
    setup_dice = scripted_dice(rec.setup, 0) or dice_for(
        rec.setup, rec.game_id, 0, dicelib.PRE, None, 0
    )
    rec.check_options()  # before anything reads them: the new game, then every step
    try:
        state = rules.new_game(rec.game_id, rec.seats, rec.options, setup_dice, secret)
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
        if isinstance(setup_dice, dicelib.ScriptedDice) and "rolls" in rec.setup
        else {dicelib.PRE: list(setup_dice.rolls)}
    )
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
        try:
            turn = rules.turn(state) + 1
            pre = scripted or dice_for(block, rec.game_id, turn, dicelib.PRE, None, index)
            state, started = rules.start_turn(state, pre, secret)
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
                if out.ended_by is None and rules.outcome(state).finished:
                    out.ended_by = "resign"
            seat = None
            orders: dict[str, Order] = {}
            for seat in rules.awaiting(state):
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
            resolve = scripted or dice_for(
                block,
                rec.game_id,
                turn,
                dicelib.RESOLVE,
                block_orders_digest(block, rec.seats),
                index,
            )
            state, events = rules.resolve(state, orders, resolve, secret)
            out.events.extend((turn, e) for e in events)
            if out.ended_by is None and rules.outcome(state).finished:
                out.ended_by = "rules"
        except SecretDraw:
            raise WithheldError(WITHHELD_SECRET, turn=index, step=named) from None
        except (RuleError, dicelib.DiceError) as exc:
            raise RecordError(reason_of(exc), turn=index, seat=seat, step=named) from None
        out.state = state
        if scripted is not None and scripted.remaining:
            raise RecordError(f"{scripted.remaining} roll(s) left unused", turn=index, step=named)
        recomputed = (
            {dicelib.PRE: list(pre.rolls), dicelib.RESOLVE: list(resolve.rolls)}
            if scripted is None
            else {"rolls": list(scripted.rolls)}
        )
        out.drawn.append(recomputed)
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
            at = rules.turn(state)
            raise RecordError(reason_of(exc), turn=at, seat=str(seat_name)) from None
        out.events.extend((rules.turn(state), e) for e in events)
        if out.ended_by is None and rules.outcome(state).finished:
            out.ended_by = "resign"
    if end.get("adjudicated"):
        adjudicate = rec.spec.adjudicate
        if adjudicate is None:
            raise RecordError("the record says a moderator adjudicated, but these rules cannot")
        try:
            state, events = adjudicate(state)
        except RuleError as exc:
            raise RecordError(reason_of(exc), turn=rules.turn(state)) from None
        out.events.extend((rules.turn(state), e) for e in events)
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
    out = Replay(rec.spec.key, None, 0)
    try:
        play(rec, audit, deferred, out)
    except RecordError as exc:
        raise audit.instead_of(exc) from None
    check_secret_after(rec, audit, out, complete=True)
    resign(rec, record.get("end"), out)
    check_result(record, rec, audit, out, "complete")
    return out


def verify(record: Mapping[str, Any]) -> list[Check]:
    """Check every commitment, receipt, orders digest and drawn roll of a real export, and its
    players and result.

    Seeds and receipts are checked first, without playing, so an edited order is a receipt
    mismatch on its own step; then the game is replayed to recompute every roll (the secret
    stream's too) and the receipts of defaulted seats; last, the record's ``result`` is compared
    with the game the replay ends in (a forged winner, a record cut short). A mid-game export is
    checked as far as it goes; its withheld parts are ``note`` lines, neither passed nor failed.
    """
    with refused_if_malformed():
        return _verify(record)


def _verify(record: Mapping[str, Any]) -> list[Check]:
    rec = read_record(record)
    audit = Audit(strict=False)
    deferred = check_before(rec, audit)
    check_players(record, rec, audit)
    out = Replay(rec.spec.key, None, 0)
    complete, replayed = False, "stopped"
    try:
        play(rec, audit, deferred, out)
        complete = True
        check_secret_after(rec, audit, out, complete)  # before a resignation ends the game
        resign(rec, record.get("end"), out)
        replayed = "complete"
    except WithheldError as exc:
        audit.note(f"{exc} (not replayed from here on)", exc.turn or 0, 5)
        replayed = "withheld"
    except Halted as exc:  # the halt's receipt check failed already
        audit.note(f"{exc} (not replayed from here on)", exc.turn or 0, 5)
    except RecordError as exc:
        stopped = exc.turn if exc.turn is not None else len(rec.turns) + 1
        cause = audit.cause_of(exc)
        if cause is None:
            audit.fail(f"replay: {exc}", stopped, 5)
        else:
            # The game differs from the tampered step on (other dice, other orders): whatever
            # stopped it there (an illegal move, a game over early) is not the record's fault
            # to report; the failed check above is.
            place = where(exc.turn, exc.step) or "the end"
            since = where(cause.turn, cause.step) or "the start"
            seat = f", seat {cause.seat}" if cause.seat is not None else ""
            audit.note(
                f"{place}: not replayed from here on ({since}{seat}: {cause.reason})", stopped, 5
            )
    for index, seats in sorted(deferred.items()):
        block = rec.turns[index - 1] if index else rec.setup
        at = where(index, label_of(block))
        for seat, kind in sorted(seats.items()):
            if (index, seat) in audit.done:
                continue
            if kind == "default":  # the replay stopped before: the default order is unknown
                audit.note(f"{at} seat {seat} receipt not checked (a default order)", index, 1)
            else:  # the text as given is not what its receipt seals
                audit.fail(f"{at} seat {seat} receipt", index, 1)
    if not complete:
        check_secret_after(rec, audit, out, complete)
    check_result(record, rec, audit, out, replayed)
    return audit.checks()
