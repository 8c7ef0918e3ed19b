"""The checks of a match record that need no playing (``shared/spec/dice-and-receipts.md``):
each seed against its commitment ``sha256(seed)``, the secret stream's too; each revealed order
with its salt against its receipt; each step's orders digest against its receipts; and the
players against their seats (``players_digest``, or a forgotten record's own digest).

:class:`Audit` keeps every check as a line (:class:`Check`) and, for replay, the failure to
refuse the record with. Replay (:mod:`bot.record.replayer`) runs these before it plays and adds
what only playing can check; verify (:mod:`bot.record.verifier`) reports them all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import dice as dicelib
from bot.record import forgotten
from bot.record.export import WITHHELD_KEY, players_digest
from bot.record.read import (
    NO_DIGEST,
    Record,
    RecordError,
    WithheldError,
    is_withheld,
    label_of,
    one_line,
    order_text,
    unhex,
    where,
)


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
    the map is not bound (an older export). A record of forgotten players is checked by
    :func:`bot.record.forgotten.check_forgotten` instead (their names cannot be hashed again)."""
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
    if forgotten.KEY in record:  # some names are labels now: see bot.record.forgotten
        audit.before(True, f"players one per seat: {named}", -2, 0, None)
        return forgotten.check_forgotten(record, rec, audit, players)
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
