"""Reading a match record (``shared/spec/match-record.md``): the one guarded reader of a record.

A record is any JSON until it is read here. :func:`load_record` parses a record file;
:func:`read_record` checks its frame (format, ruleset, seats, options, setup, turns, secret) into
a :class:`Record`, whose :meth:`Record.check_options` is the ruleset's own check of the options;
the readers of a step's fields (its label, inputs and dice) take whatever the record holds there.
Whatever is not a record is refused with a :class:`RecordError` of one line, and
:func:`refused_if_malformed` makes one of anything else reading a record raises.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot import dice as dicelib
from bot import registry
from bot.i18n import t
from bot.record.export import FORMAT, WITHHELD_KEY
from bot.ruleset import Engine, RuleError, RulesetSpec

# The largest record ``/verify record`` and ``python -m bot replay|verify`` read (bytes).
MAX_RECORD_BYTES = 2_000_000


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


class Halted(RecordError):
    """Verify cannot play on past an order that does not match its receipt (already reported)."""


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


@contextmanager
def refused_if_malformed() -> Iterator[None]:
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
        raise RecordError(reason_of(exc)) from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            raise RecordError.keyed("record.load.long_number", digits=_max_digits()) from None
        raise RecordError(" ".join(f"the record is malformed: {exc}".split())) from None


def reason_of(error: RuleError | dicelib.DiceError) -> str:
    """The refusal's sentence, on one line: a value it quotes from the record (an option, an
    order's word) shows a line break or a terminal's control character escaped."""
    return t("en", error.key, **{k: _printable(v) for k, v in error.params.items()})


def _printable(value: Any) -> Any:
    if not isinstance(value, str) or value.isprintable():
        return value
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in value)


def one_line(value: Any) -> str:
    """A record's value in a verify line: one line, whatever it holds."""
    return " ".join(str(value).split())


def unhex(value: Any) -> bytes | None:
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def label_of(block: Any) -> str | None:
    step = block.get("step") if isinstance(block, Mapping) else None
    return step if isinstance(step, str) and step else None


def mapping_at(block: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = block.get(name)
    return value if isinstance(value, Mapping) else {}


def is_withheld(given: Any) -> bool:
    """Whether an input is a withheld order: ``{"receipt": hex}``, its text not public yet."""
    return isinstance(given, Mapping) and isinstance(given.get(WITHHELD_KEY), str)


def order_text(given: Any) -> str:
    """An input as order text (several inputs in sequence: this ruleset takes one)."""
    if isinstance(given, list):
        return " ".join(str(x) for x in given)
    return str(given)


def scripted_dice(block: Mapping[str, Any], turn: int) -> dicelib.ScriptedDice | None:
    """The block's scripted ``rolls`` (one shared list per turn), or None if it has seeds."""
    if "rolls" not in block:
        return None
    rolls = block["rolls"]
    # A string or a number here would otherwise crash the replay (len() of an int) or be read
    # digit by digit; each value's range is checked as it is drawn.
    if not isinstance(rolls, list):
        raise RecordError("rolls must be a list of die results", turn=turn, step=label_of(block))
    return dicelib.ScriptedDice(rolls)


def dice_for(
    block: Mapping[str, Any], game_id: str, turn: int, phase: str, digest: str | None, index: int
) -> dicelib.Dice:
    seeds = block.get("seeds") or {}
    label = label_of(block)
    if not isinstance(seeds, Mapping):
        raise RecordError(
            'seeds must be an object {"pre": hex, "resolve": hex}', turn=index, step=label
        )
    seed = seeds.get(phase)
    if seed is None:
        return dicelib.ScriptedDice([])
    if not isinstance(seed, str) or unhex(seed) is None:
        raise RecordError(f"the {phase} seed is not hex", turn=index, step=label)
    if phase == dicelib.RESOLVE and digest is None:
        raise RecordError(NO_DIGEST, turn=index, step=label)
    return dicelib.replay_stream(seed, game_id, turn, phase, digest)


def block_orders_digest(block: Mapping[str, Any], seats: list[str]) -> str | None:
    """The turn's orders digest: the record's (a string; ``null`` is no digest), else the one
    its receipts make; None if it has neither."""
    given = block.get("orders_digest")
    if given is not None:
        return given if isinstance(given, str) else str(given)
    receipts = block.get("receipts")
    if receipts and isinstance(receipts, Mapping):  # a malformed one fails the checks
        return dicelib.orders_digest(str(receipts[s]) for s in seats if s in receipts)
    return None


class SecretDraw(dicelib.DiceError):
    """A draw from the secret stream of a record that does not reveal its seed."""


class UnrevealedSecret(dicelib.NoDice):
    """The secret stream of a record without its seed (a mid-game export): like
    :data:`bot.dice.NO_SECRET` (a ruleset may test for :class:`~bot.dice.NoDice`), but a draw
    stops the replay where the withheld part begins."""

    def roll(self, sides: int) -> int:
        raise SecretDraw("dice.none_expected", sides=sides)


@dataclass
class Record:
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

    def check_options(self) -> None:
        """The ruleset's own check of the options: a record's options are any JSON, so it says
        what is wrong with them before anything reads them (a new game, and every later step
        that consults them). Replay calls it where it starts the game, not :func:`read_record`:
        a tampered step that the checks before playing find is refused first."""
        try:
            self.rules.check_options(self.options)
        except RuleError as exc:
            raise RecordError(reason_of(exc), turn=0, step=label_of(self.setup)) from None

    def blocks(self) -> list[tuple[int, Any]]:
        return [(0, self.setup), *enumerate(self.turns, start=1)]

    def secret_dice(self) -> dicelib.Dice:
        seed = unhex(self.secret.get("seed"))
        if seed is not None:
            return dicelib.DiceStream(seed, dicelib.stream_label(self.game_id, 0, dicelib.SECRET))
        return UnrevealedSecret() if self.spec.secret_stream else dicelib.NO_SECRET

    def secret_drawn(self) -> list[Any] | None:
        drawn = self.secret.get("drawn")
        return drawn if isinstance(drawn, list) else None


def read_record(record: Any) -> Record:
    """A record's frame: what is not a record, or not one these rules can read, is refused here
    (anything inside the frame is checked where it is read)."""
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
    return Record(spec, game_id, seats, options, setup, turns, secret)
