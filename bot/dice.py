"""Committed dice streams, scripted dice and sealed-order receipts.

This is exactly the recipe of ``shared/spec/dice-and-receipts.md``, so that anyone can re-check a
game with a short script of their own. Pure: no I/O, no discord, no storage.

A stream is named by a label ``"{game_id}:{turn}:{phase}"``. For a ``pre`` stream the HMAC key is
the secret seed itself; for a ``resolve`` stream the key also binds the turn's sealed orders, so the
bot cannot choose a seed to suit orders it had not seen.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

T = TypeVar("T")

PRE = "pre"
RESOLVE = "resolve"
SECRET = "secret"  # the game's one secret stream: turn 0, revealed only when the game ends
PHASES = (PRE, RESOLVE, SECRET)
_SPAN = 2**64


class DiceError(ValueError):
    """A die could not be drawn (scripted value out of range, or none left)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(f"{key} {params}")
        self.key = key
        self.params = params


class Dice(Protocol):
    """What a ruleset may draw from. Every draw is recorded in ``rolls`` in draw order."""

    rolls: list[int]

    def roll(self, sides: int) -> int: ...


SEED_BYTES = 32  # a stream's secret seed
SALT_BYTES = 16  # a sealed order's salt


def new_seed() -> bytes:
    """A fresh 32-byte secret from a cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """``sha256(seed)`` in hex: published before any roll of the stream is used."""
    return hashlib.sha256(seed).hexdigest()


def stream_label(game_id: str, turn: int, phase: str) -> str:
    if phase not in PHASES:
        raise ValueError(f"unknown dice phase {phase!r}")
    return f"{game_id}:{turn}:{phase}"


def stream_key(seed: bytes, phase: str, orders_digest: str | None = None) -> bytes:
    if phase == RESOLVE:
        if orders_digest is None:
            raise ValueError("a resolve stream needs the turn's orders digest")
        return hmac.new(seed, ("resolve:" + orders_digest).encode(), hashlib.sha256).digest()
    return seed


@dataclass
class DiceStream:
    """A committed stream: block n is ``hmac_sha256(key, label + ":" + n)``.

    ``start_block`` resumes a stream whose counter runs over the whole game (the secret stream,
    drawn a little at every step): ``blocks`` is where the next draw will start.
    """

    seed: bytes
    label: str
    orders_digest: str | None = None
    rolls: list[int] = field(default_factory=list)
    start_block: int = 0
    _key: bytes = field(init=False, repr=False)
    _block: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        phase = self.label.rsplit(":", 1)[-1]
        self._key = stream_key(self.seed, phase, self.orders_digest)
        self._block = self.start_block

    @property
    def blocks(self) -> int:
        return self._block

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def _next_block(self) -> bytes:
        msg = f"{self.label}:{self._block}".encode()
        self._block += 1
        return hmac.new(self._key, msg, hashlib.sha256).digest()

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        limit = _SPAN - (_SPAN % sides)
        while True:
            x = int.from_bytes(self._next_block()[:8], "big")
            if x < limit:  # rejection sampling: no modulo bias
                value = x % sides + 1
                self.rolls.append(value)
                return value


@dataclass
class ScriptedDice:
    """Dice whose results are given in advance (tests and hand-made match records)."""

    script: Sequence[int]
    rolls: list[int] = field(default_factory=list)
    _pos: int = field(default=0, init=False, repr=False)

    def roll(self, sides: int) -> int:
        # ``index`` counts rolls from 1: the catalogues say "roll 2" / "2 番目" to a reader.
        if self._pos >= len(self.script):
            raise DiceError("dice.missing", index=self._pos + 1, sides=sides)
        value = self.script[self._pos]
        # JSON ``true`` is a Python int (== 1) but no die result: a record holding it is refused.
        if isinstance(value, bool) or not (isinstance(value, int) and 1 <= value <= sides):
            raise DiceError("dice.out_of_range", index=self._pos + 1, value=value, sides=sides)
        self._pos += 1
        self.rolls.append(value)
        return value

    @property
    def remaining(self) -> int:
        return len(self.script) - self._pos


class NoDice:
    """For steps that must not roll: any draw is a bug in the ruleset."""

    rolls: list[int]

    def __init__(self) -> None:
        self.rolls = []

    def roll(self, sides: int) -> int:
        raise DiceError("dice.none_expected", sides=sides)


# What an engine that asked for no secret stream is handed as ``secret``: a draw is a bug.
NO_SECRET = NoDice()


def shuffle(dice: Dice, items: MutableSequence[T]) -> None:
    """Fisher–Yates from the end, drawing ``roll(i + 1) - 1`` for i = m-1 … 1 (in place)."""
    for i in range(len(items) - 1, 0, -1):
        j = dice.roll(i + 1) - 1
        items[i], items[j] = items[j], items[i]


# --- sealed orders -----------------------------------------------------------------------------


def receipt(salt: bytes, canonical_order: str) -> str:
    """``sha256(salt + canonical_order_utf8)`` in hex."""
    return hashlib.sha256(salt + canonical_order.encode("utf-8")).hexdigest()


def orders_digest(receipts_in_seat_order: Iterable[str]) -> str:
    """``sha256`` of the seats' final receipts joined by ``","`` in seat order (hex)."""
    return hashlib.sha256(",".join(receipts_in_seat_order).encode()).hexdigest()


def replay_stream(
    seed_hex: str, game_id: str, turn: int, phase: str, orders_digest: str | None = None
) -> DiceStream:
    """Rebuild a revealed stream for verification or replay."""
    return DiceStream(bytes.fromhex(seed_hex), stream_label(game_id, turn, phase), orders_digest)
