"""Match records (``shared/spec/match-record.md``): export, replay and verification.

Pure: a record is plain JSON, the engines are deterministic given their inputs and dice, so
replaying a record always gives the same game, event for event.

``replay`` checks what ``verify`` checks before it plays (seeds against their commitments, orders
against their receipts, the orders digests, the secret seed), so a tampered record is refused,
never replayed as if it were genuine; what only playing can check (a defaulted seat's receipt, the
rolls the seeds give) is checked as the game is played. A mid-game export of a game with hidden
information (``dice-and-receipts.md``) holds only what is public: replay stops where the withheld
part begins, and ``verify`` checks what is there and says what is withheld.

Beyond the spec's example, an export carries: ``turns[i].step`` (the ruleset's label of the step),
``turns[i].left`` (seats that resigned during that step while the game went on; the replay
resigns them there), a top-level ``secret`` block (``commitment``; once the game is over also
``seed``, ``drawn`` and ``blocks``), a withheld order as ``{"receipt": hex}`` in ``inputs``
(its salt left out of ``salts``), ``players`` (seat → display name) with ``players_digest``
(:func:`players_digest`: what binds them to the seats), and ``result`` (``status``, ``winner``,
``end_reason``, ``turns_resolved``): ``verify`` compares the result with the game the record
replays to, so a forged winner or a record cut short (``truncated``) fails.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot import dice as dicelib
from bot import registry
from bot.i18n import t
from bot.ruleset import DRAW, Engine, Event, Order, Outcome, RuleError, RulesetSpec

if TYPE_CHECKING:
    from bot.storage.base import GameRow, OrderRow, StreamRow

FORMAT = "pbp-match/1"
WITHHELD_KEY = "receipt"  # a withheld input is exported as {"receipt": hex}, nothing more
# The largest record ``/verify record`` and ``python -m bot replay|verify`` read (bytes).
MAX_RECORD_BYTES = 2_000_000
# ``result.status`` of a game that goes on, and every status a record may claim.
RUNNING_STATUSES = ("lobby", "setup", "active", "paused")
STATUSES = (*RUNNING_STATUSES, "finished", "abandoned")


def where(turn: int | None, step: str | None = None) -> str:
    """How records name a step: ``setup``, ``turn 3``, ``turn 3 (deploy)`` (the index in
    ``turns``, then the ruleset's label when it says more than the index)."""
    if turn is None:
        return ""
    base = "setup" if turn == 0 else f"turn {turn}"
    return f"{base} ({step})" if step and step != base else base


class RecordError(ValueError):
    """A record the engine refuses; ``str()`` is one line naming the step, the seat and why."""

    def __init__(
        self,
        message: str,
        *,
        turn: int | None = None,
        seat: str | None = None,
        step: str | None = None,
    ) -> None:
        place = []
        if turn is not None:
            place.append(where(turn, step))
        if seat is not None:
            place.append(f"seat {seat}")
        super().__init__(f"{', '.join(place)}: {message}" if place else message)
        self.reason = message
        self.turn = turn
        self.seat = seat
        self.step = step
        # A refusal with a catalogue message (reading the file): ``t(lang, key, **params)``
        # says it in the reader's language; ``str()`` is the English.
        self.key: str | None = None
        self.params: dict[str, Any] = {}

    @classmethod
    def keyed(cls, key: str, **params: Any) -> RecordError:
        error = cls(t("en", key, **params))
        error.key, error.params = key, params
        return error


class WithheldError(RecordError):
    """Replay reached the withheld part of a mid-game export (a withheld order, or a draw from
    the secret stream, whose seed is revealed only when the game ends)."""


class _Halted(RecordError):
    """Verify cannot play on past an order that does not match its receipt (already reported)."""


WITHHELD_ORDER = (
    "this order is withheld (only its receipt is public until it is revealed):"
    " the withheld part of the game begins here"
)
WITHHELD_SECRET = (
    "this step draws from the secret stream, which is withheld until the game ends (the record"
    " has no secret seed): the withheld part of the game begins here"
)
NO_MATCH = "the order (with its salt) does not match its receipt"
NO_DIGEST = (
    "the orders digest is missing (the resolve seed's dice depend on it):"
    " the record has neither orders_digest nor the receipts it is made of"
)


def load_record(data: bytes | str) -> Any:
    """A record file's JSON, unchecked (``replay`` and ``verify`` refuse what is not a record);
    :class:`RecordError` (keyed, one line) for what is not JSON at all, JSON nested too deeply
    for the parser, or a number too long to read."""
    try:
        return json.loads(data)
    except UnicodeDecodeError:
        raise RecordError.keyed("record.load.not_utf8") from None
    except json.JSONDecodeError as exc:
        raise RecordError.keyed("record.load.not_json", reason=str(exc)) from None
    except RecursionError:
        raise RecordError.keyed("record.load.too_deep") from None
    except ValueError:  # Python's limit on the digits of an integer read from text
        raise RecordError.keyed("record.load.long_number", digits=_max_digits()) from None


def _max_digits() -> int:
    return sys.get_int_max_str_digits()


def players_digest(game_id: str, seats: Sequence[str], players: Mapping[str, Any]) -> str:
    """What binds the players to their seats in a record (``players_digest``): sha256 of the
    canonical JSON (sorted keys, no spaces, UTF-8) of ``{"game_id": id, "players": [[seat, name],
    …]}`` in seat order. It is public data, so it proves nothing on its own: it is the value to
    compare with the game's first post (which names the players by seat beside the first
    commitments), and it turns a players map edited without it into a failed check."""
    seating = {"game_id": game_id, "players": [[seat, players.get(seat)] for seat in seats]}
    canonical = json.dumps(seating, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@contextmanager
def _refused_if_malformed() -> Iterator[None]:
    """Whatever a record holds, ``replay`` and ``verify`` answer with one line: JSON nested too
    deeply to walk (it parsed, but copying or printing it recurses further) and numbers too long
    to print become a :class:`RecordError` too."""
    try:
        yield
    except RecordError:
        raise
    except RecursionError:
        raise RecordError.keyed("record.load.too_deep") from None
    except (RuleError, dicelib.DiceError) as exc:  # refused where nothing named the step
        raise RecordError(_reason(exc)) from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            raise RecordError.keyed("record.load.long_number", digits=_max_digits()) from None
        raise RecordError(" ".join(f"the record is malformed: {exc}".split())) from None


# --- export ------------------------------------------------------------------------------------


def build_record(
    game: GameRow, orders: Iterable[OrderRow], streams: Iterable[StreamRow]
) -> dict[str, Any]:
    """The record of everything resolved so far. Secrets of the running turn are never included,
    nor the secret stream's seed before the end, nor a withheld order's text and salt."""
    by_turn: dict[int, dict[str, StreamRow]] = {}
    secret: StreamRow | None = None
    for s in streams:
        if s.phase == dicelib.SECRET:
            secret = s
        else:
            by_turn.setdefault(s.turn, {})[s.phase] = s
    orders_by_turn: dict[int, dict[str, OrderRow]] = {}
    for o in orders:
        orders_by_turn.setdefault(o.turn, {})[o.seat] = o
    # Seats that resigned, by the step they left in: within an exported step (the game went on
    # for the others) its entry says so; in the step the game ended in, ``end`` does.
    left: dict[int, list[str]] = {}
    for seat in sorted(game.seats, key=lambda s: s.position):
        if seat.left_turn is not None:
            left.setdefault(seat.left_turn, []).append(seat.seat)

    def dice_block(turn_streams: Mapping[str, StreamRow]) -> dict[str, Any]:
        shown = {p: s for p, s in turn_streams.items() if s.revealed}
        return {
            "seeds": {p: s.seed for p, s in shown.items()},
            "commitments": {p: s.commitment for p, s in shown.items()},
            "drawn": {p: s.drawn for p, s in shown.items()},
        }

    def labelled(turn_streams: Mapping[str, StreamRow]) -> dict[str, Any]:
        label = next((s.step for s in turn_streams.values() if s.step), None)
        return {"step": label} if label else {}

    setup_streams = by_turn.get(0, {})
    setup = {**labelled(setup_streams), "inputs": {}, **dice_block(setup_streams)}
    turns = []
    for turn in sorted(k for k in by_turn if k > 0):
        phases = by_turn[turn]
        if not all(s.revealed for s in phases.values()):
            continue  # the running turn: its seeds are still secret
        turn_orders = sorted(orders_by_turn.get(turn, {}).items())
        entry: dict[str, Any] = {
            **labelled(phases),
            **({"left": left[turn]} if turn in left else {}),
            # A withheld order (a defaulted one too) shows its receipt only, as in the channel.
            "inputs": {
                s: {WITHHELD_KEY: o.receipt} if o.withheld else o.text
                for s, o in turn_orders
                if o.withheld or not o.defaulted
            },
            **dice_block(phases),
            "receipts": {s: o.receipt for s, o in turn_orders},
            "salts": {s: o.salt for s, o in turn_orders if not o.withheld},
            "defaulted": sorted(s for s, o in turn_orders if o.defaulted),
        }
        if (resolve := phases.get(dicelib.RESOLVE)) and resolve.orders_digest:
            entry["orders_digest"] = resolve.orders_digest
        turns.append(entry)
    players = {s.seat: s.name for s in game.seats}
    record: dict[str, Any] = {
        "format": FORMAT,
        "game_id": game.id,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": game.seat_order,
        "players": players,
        # binds each player to a seat: nothing else in the record does (see _check_players)
        "players_digest": players_digest(game.id, game.seat_order, players),
        "setup": setup,
    }
    if secret is not None:
        # Its commitment is public from the first post; its seed and rolls only at the end.
        record["secret"] = {"commitment": secret.commitment}
        if secret.revealed:
            record["secret"].update(
                seed=secret.seed, drawn=list(secret.drawn), blocks=secret.blocks
            )
    record["turns"] = turns
    outcome = Outcome.from_json(game.result) if game.result else None
    record["result"] = {
        "status": game.status,
        # a seat, "draw", a co-op result, or several seats (the typed outcome's legacy form)
        "winner": outcome.winner if outcome is not None else game.outcome,
        "end_reason": game.end_reason,
        # the steps exported: a record cut short says fewer than it claims (``truncated``)
        "turns_resolved": len(turns),
    }
    if outcome is not None and outcome.grades:
        record["result"]["grades"] = dict(outcome.grades)
    exported = {t for t in by_turn if t > 0 and all(s.revealed for s in by_turn[t].values())}
    end: dict[str, Any] = {}
    last = [s for t, seats in sorted(left.items()) if t not in exported for s in seats]
    if last:
        end["resigned"] = last[0] if len(last) == 1 else last
    elif game.end_reason == "resign" and game.outcome and game.outcome != DRAW:
        # A game stored before departures were: the loser is whoever did not win.
        losers = [s for s in game.seat_order if s != game.outcome]
        end["resigned"] = losers[0] if len(losers) == 1 else losers
    if game.end_reason == "adjudicated":
        end["adjudicated"] = True
    if end:
        record["end"] = end
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


@dataclass
class Check:
    """One line of ``verify``: a check that passed or failed, or (``note``) a remark that is
    neither, such as what a mid-game export withholds."""

    ok: bool
    what: str
    note: bool = False


def _reason(error: RuleError | dicelib.DiceError) -> str:
    """The refusal's sentence, on one line: a value it quotes from the record (an option, an
    order's word) shows a line break or a terminal's control character escaped."""
    return t("en", error.key, **{k: _printable(v) for k, v in error.params.items()})


def _printable(value: Any) -> Any:
    if not isinstance(value, str) or value.isprintable():
        return value
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in value)


def _unhex(value: Any) -> bytes | None:
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _label(block: Any) -> str | None:
    step = block.get("step") if isinstance(block, Mapping) else None
    return step if isinstance(step, str) and step else None


def _mapping(block: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = block.get(name)
    return value if isinstance(value, Mapping) else {}


def _withheld(given: Any) -> bool:
    """Whether an input is a withheld order: ``{"receipt": hex}``, its text not public yet."""
    return isinstance(given, Mapping) and isinstance(given.get(WITHHELD_KEY), str)


def _text(given: Any) -> str:
    """An input as order text (several inputs in sequence: this ruleset takes one)."""
    if isinstance(given, list):
        return " ".join(str(x) for x in given)
    return str(given)


def _scripted(block: Mapping[str, Any], turn: int) -> dicelib.ScriptedDice | None:
    """The block's scripted ``rolls`` (one shared list per turn), or None if it has seeds."""
    if "rolls" not in block:
        return None
    rolls = block["rolls"]
    # A string or a number here would otherwise crash the replay (len() of an int) or be read
    # digit by digit; each value's range is checked as it is drawn.
    if not isinstance(rolls, list):
        raise RecordError("rolls must be a list of die results", turn=turn, step=_label(block))
    return dicelib.ScriptedDice(rolls)


def _dice_for(
    block: Mapping[str, Any], game_id: str, turn: int, phase: str, digest: str | None, index: int
) -> dicelib.Dice:
    seeds = block.get("seeds") or {}
    label = _label(block)
    if not isinstance(seeds, Mapping):
        raise RecordError(
            'seeds must be an object {"pre": hex, "resolve": hex}', turn=index, step=label
        )
    seed = seeds.get(phase)
    if seed is None:
        return dicelib.ScriptedDice([])
    if not isinstance(seed, str) or _unhex(seed) is None:
        raise RecordError(f"the {phase} seed is not hex", turn=index, step=label)
    if phase == dicelib.RESOLVE and digest is None:
        raise RecordError(NO_DIGEST, turn=index, step=label)
    return dicelib.replay_stream(seed, game_id, turn, phase, digest)


def _orders_digest(block: Mapping[str, Any], seats: list[str]) -> str | None:
    """The turn's orders digest: the record's (a string; ``null`` is no digest), else the one
    its receipts make; None if it has neither."""
    given = block.get("orders_digest")
    if given is not None:
        return given if isinstance(given, str) else str(given)
    receipts = block.get("receipts")
    if receipts and isinstance(receipts, Mapping):  # a malformed one fails the checks
        return dicelib.orders_digest(str(receipts[s]) for s in seats if s in receipts)
    return None


class _SecretDraw(dicelib.DiceError):
    """A draw from the secret stream of a record that does not reveal its seed."""


class _UnrevealedSecret(dicelib.NoDice):
    """The secret stream of a record without its seed (a mid-game export): like
    :data:`bot.dice.NO_SECRET` (a ruleset may test for :class:`~bot.dice.NoDice`), but a draw
    stops the replay where the withheld part begins."""

    def roll(self, sides: int) -> int:
        raise _SecretDraw("dice.none_expected", sides=sides)


@dataclass
class _Record:
    """A record's frame, read and checked (anything else is checked as it is used)."""

    spec: RulesetSpec[Any, Any]
    game_id: str
    seats: list[str]
    options: Mapping[str, Any]
    setup: Mapping[str, Any]
    turns: list[Any]
    secret: Mapping[str, Any]

    @property
    def rules(self) -> Engine[Any, Any]:
        return self.spec.engine

    def blocks(self) -> list[tuple[int, Any]]:
        return [(0, self.setup), *enumerate(self.turns, start=1)]

    def secret_dice(self) -> dicelib.Dice:
        seed = _unhex(self.secret.get("seed"))
        if seed is not None:
            return dicelib.DiceStream(seed, dicelib.stream_label(self.game_id, 0, dicelib.SECRET))
        return _UnrevealedSecret() if self.spec.secret_stream else dicelib.NO_SECRET

    def secret_drawn(self) -> list[Any] | None:
        drawn = self.secret.get("drawn")
        return drawn if isinstance(drawn, list) else None


def _read(record: Any) -> _Record:
    if not isinstance(record, Mapping):
        raise RecordError("a match record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown format {record.get('format')!r} (expected {FORMAT})")
    try:
        spec = registry.get(str(record.get("ruleset")))
    except RuleError:
        raise RecordError(f"unknown ruleset {record.get('ruleset')!r}") from None
    seats = record.get("seats") or list(spec.seats.names)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RecordError("seats must be a list of seat names")
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("options must be an object")
    setup = record.get("setup") or {}
    if not isinstance(setup, Mapping):
        raise RecordError("setup is a JSON object", turn=0)
    turns = record.get("turns") or []
    if not isinstance(turns, list):
        raise RecordError("turns must be a list")
    secret = record.get("secret") or {}
    if not isinstance(secret, Mapping):
        raise RecordError('secret must be an object {"commitment": hex, "seed": hex, …}')
    game_id = str(record.get("game_id", "replay"))
    return _Record(spec, game_id, seats, options, setup, turns, secret)


class _Audit:
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


def _check_secret_before(rec: _Record, audit: _Audit) -> None:
    secret = rec.secret
    if not secret:
        return
    seed, published = secret.get("seed"), secret.get("commitment")
    if seed is None:
        what = "secret stream: seed withheld until the game ends (its commitment only)"
        audit.note(what, -1, 0)
    elif (raw := _unhex(seed)) is None:
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
    rec: _Record,
    audit: _Audit,
    index: int,
    block: Mapping[str, Any],
    deferred: dict[int, dict[str, str]],
) -> None:
    """The seeds, receipts and digest of one step (setup is step 0)."""
    label = _label(block)
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
        raw = _unhex(seed)
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
        if _withheld(given):
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
        salt = _unhex(salts.get(seat))
        if salt is None:
            error = RecordError(
                "no salt (hex) to check this order's receipt with",
                turn=index,
                seat=seat,
                step=label,
            )
            audit.before(False, what, index, 1, error)
        elif dicelib.receipt(salt, _text(given)) == receipt:
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


def _check_before(rec: _Record, audit: _Audit) -> dict[int, dict[str, str]]:
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


def _check_drawn(
    audit: _Audit,
    block: Mapping[str, Any],
    recomputed: Mapping[str, list[int]],
    index: int,
    named: str | None,
) -> None:
    """The rolls a step's record lists against the ones replaying it drew (``named``: the
    step's label for an error, the ruleset's own when the record has none)."""
    at = where(index, _label(block))
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


def _play(
    rec: _Record, audit: _Audit, deferred: Mapping[int, Mapping[str, str]], out: Replay
) -> None:
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

    label = _label(rec.setup)
    audit.enter(0)
    setup_dice = _scripted(rec.setup, 0) or _dice_for(
        rec.setup, rec.game_id, 0, dicelib.PRE, None, 0
    )
    try:
        # A record's options are any JSON: the ruleset's own check says what is wrong with them
        # before anything reads them (a new game, and every later step that consults them).
        rules.check_options(rec.options)
    except RuleError as exc:
        raise RecordError(_reason(exc), turn=0, step=label) from None
    try:
        state = rules.new_game(rec.game_id, rec.seats, rec.options, setup_dice, secret)
    except _SecretDraw:
        raise WithheldError(WITHHELD_SECRET, turn=0, step=label) from None
    except (RuleError, dicelib.DiceError) as exc:
        if isinstance(secret, _UnrevealedSecret):  # the ruleset cannot start without it
            raise WithheldError(f"{WITHHELD_SECRET} ({_reason(exc)})", turn=0, step=label) from None
        raise RecordError(_reason(exc), turn=0, step=label) from None
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
        label = _label(block)
        if rules.outcome(state).finished:
            raise RecordError("the game was already over", turn=index, step=label)
        scripted = _scripted(block, index)
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
        receipts, salts = _mapping(block, "receipts"), _mapping(block, "salts")
        pending = deferred.get(index, {})
        seat: str | None = None
        named = label  # the record's label, else the ruleset's own once the step is open
        try:
            turn = rules.turn(state) + 1
            pre = scripted or _dice_for(block, rec.game_id, turn, dicelib.PRE, None, index)
            state, started = rules.start_turn(state, pre, secret)
            named = label or rules.step_label(state)
            for seat, given in sorted(inputs.items()):
                if _withheld(given):
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
                    orders[seat] = rules.parse(state, seat, _text(given))
                except RuleError:
                    if pending.get(seat) != "canonical":
                        raise
                    # Not the text its receipt seals, and not an order at all here: an edited
                    # order is a receipt mismatch on its own step, not an illegal move.
                    error = RecordError(NO_MATCH, turn=index, seat=seat, step=named)
                    what = f"{where(index, label)} seat {seat} receipt"
                    audit.during(False, what, index, 1, error)
                    audit.done.add((index, seat))
                    raise _Halted(NO_MATCH, turn=index, seat=seat, step=named) from None
            seat = None
            # The receipts only the replay can check: the sealed text is the canonical order
            # (for a defaulted seat, the default order's).
            for sealed, _kind in sorted(pending.items()):
                order = orders.get(sealed)
                salt = _unhex(salts.get(sealed))
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
            resolve = scripted or _dice_for(
                block,
                rec.game_id,
                turn,
                dicelib.RESOLVE,
                _orders_digest(block, rec.seats),
                index,
            )
            state, events = rules.resolve(state, orders, resolve, secret)
            out.events.extend((turn, e) for e in events)
            if out.ended_by is None and rules.outcome(state).finished:
                out.ended_by = "rules"
        except _SecretDraw:
            raise WithheldError(WITHHELD_SECRET, turn=index, step=named) from None
        except (RuleError, dicelib.DiceError) as exc:
            raise RecordError(_reason(exc), turn=index, seat=seat, step=named) from None
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


def _resign(rec: _Record, end: Any, out: Replay) -> None:
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
            raise RecordError(_reason(exc), turn=at, seat=str(seat_name)) from None
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
            raise RecordError(_reason(exc), turn=rules.turn(state)) from None
        out.events.extend((rules.turn(state), e) for e in events)
        if out.ended_by is None and rules.outcome(state).finished:
            out.ended_by = "adjudicated"
    out.state = state


def _check_secret_after(rec: _Record, audit: _Audit, out: Replay, complete: bool) -> None:
    """The secret rolls of the whole game, once every step was played: none missing, none
    added. The rolls of a step that never resolved (a game resigned or abandoned in the middle of
    a step) are drawn but not replayed: verify says so."""
    recorded = rec.secret_drawn()
    if recorded is None or _unhex(rec.secret.get("seed")) is None:
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


def _names(players: Mapping[str, Any], seats: Sequence[str]) -> str:
    """``A Aurora, B Borealis`` (one line, whatever a name holds)."""
    return ", ".join(f"{seat} {_one_line(players.get(seat))}" for seat in seats)


def _check_players(record: Mapping[str, Any], rec: _Record, audit: _Audit) -> RecordError | None:
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


def _one_line(value: Any) -> str:
    """A record's value in a verify line: one line, whatever it holds."""
    return " ".join(str(value).split())


def _winner(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_one_line(v) for v in value)
    return _one_line(value)


def _same_winner(claimed: Any, replayed: Any) -> bool:
    if isinstance(claimed, list) and isinstance(replayed, list):
        return sorted(map(str, claimed)) == sorted(map(str, replayed))
    # An older export of a game several seats won says no single winner (its ``outcome``).
    return claimed == replayed or (claimed is None and isinstance(replayed, list))


def _check_result(
    record: Mapping[str, Any], rec: _Record, audit: _Audit, out: Replay, replayed: str
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
        what = f"result status {_one_line(status)} (not a game status: {', '.join(STATUSES)})"
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
        check(same, f"result end_reason {_one_line(reason)}{suffix}")
    grades = result.get("grades")
    if grades is not None:
        same = isinstance(grades, Mapping) and dict(grades) == dict(outcome.grades)
        suffix = "" if same else f" (the replay's grades are {dict(outcome.grades)})"
        check(same, f"result grades {_one_line(grades)}{suffix}")


def replay(record: Mapping[str, Any]) -> Replay:
    """Play a record from its start; refuse it (:class:`RecordError`, one line) if it was
    tampered with (its dice, orders, players or result), if the engine refuses it, or where its
    withheld part begins."""
    with _refused_if_malformed():
        return _replay(record)


def _replay(record: Mapping[str, Any]) -> Replay:
    rec = _read(record)
    audit = _Audit(strict=True)
    deferred = _check_before(rec, audit)
    if (refused := audit.first(deferred)) is not None:
        raise refused
    if (refused := _check_players(record, rec, audit)) is not None:
        raise refused
    out = Replay(rec.spec.key, None, 0)
    try:
        _play(rec, audit, deferred, out)
    except RecordError as exc:
        raise audit.instead_of(exc) from None
    _check_secret_after(rec, audit, out, complete=True)
    _resign(rec, record.get("end"), out)
    _check_result(record, rec, audit, out, "complete")
    return out


# --- verification ------------------------------------------------------------------------------


def verify(record: Mapping[str, Any]) -> list[Check]:
    """Check every commitment, receipt, orders digest and drawn roll of a real export, and its
    players and result.

    Seeds and receipts are checked first, without playing, so an edited order is a receipt
    mismatch on its own step; then the game is replayed to recompute every roll (the secret
    stream's too) and the receipts of defaulted seats; last, the record's ``result`` is compared
    with the game the replay ends in (a forged winner, a record cut short). A mid-game export is
    checked as far as it goes; its withheld parts are ``note`` lines, neither passed nor failed.
    """
    with _refused_if_malformed():
        return _verify(record)


def _verify(record: Mapping[str, Any]) -> list[Check]:
    rec = _read(record)
    audit = _Audit(strict=False)
    deferred = _check_before(rec, audit)
    _check_players(record, rec, audit)
    out = Replay(rec.spec.key, None, 0)
    complete, replayed = False, "stopped"
    try:
        _play(rec, audit, deferred, out)
        complete = True
        _check_secret_after(rec, audit, out, complete)  # before a resignation ends the game
        _resign(rec, record.get("end"), out)
        replayed = "complete"
    except WithheldError as exc:
        audit.note(f"{exc} (not replayed from here on)", exc.turn or 0, 5)
        replayed = "withheld"
    except _Halted as exc:  # the halt's receipt check failed already
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
        at = where(index, _label(block))
        for seat, kind in sorted(seats.items()):
            if (index, seat) in audit.done:
                continue
            if kind == "default":  # the replay stopped before: the default order is unknown
                audit.note(f"{at} seat {seat} receipt not checked (a default order)", index, 1)
            else:  # the text as given is not what its receipt seals
                audit.fail(f"{at} seat {seat} receipt", index, 1)
    if not complete:
        _check_secret_after(rec, audit, out, complete)
    _check_result(record, rec, audit, out, replayed)
    return audit.checks()
