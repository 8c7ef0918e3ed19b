"""The append-only roster ledger of a league, pure.

Every change to a roster is one :class:`Entry` (a draft pick, an ante gain or loss, a moderator's
edit, a master set); nothing is ever rewritten. A roster is therefore the fold of its entries, and
can be shown as of any time (:func:`roster_at`), and every unit traced (:func:`history`).

Times are floats (seconds since the epoch) passed in by the caller: no clock is read here. Entries
with the same time keep the order they were appended in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ruleset import RuleError

DRAFT_PICK = "draft_pick"
ANTE_GAIN = "ante_gain"
ANTE_LOSS = "ante_loss"
MODERATOR_ADD = "moderator_add"
MODERATOR_REMOVE = "moderator_remove"
MASTER_SET = "master_set"
KINDS = (DRAFT_PICK, ANTE_GAIN, ANTE_LOSS, MODERATOR_ADD, MODERATOR_REMOVE, MASTER_SET)
GAINS = frozenset({DRAFT_PICK, ANTE_GAIN, MODERATOR_ADD})
LOSSES = frozenset({ANTE_LOSS, MODERATOR_REMOVE})
MAX_COPIES = 2  # the roster limit (league.md): at most two copies of a unit


class LedgerError(RuleError):
    """An entry that cannot be appended (removing a unit not held, a kind not known…)."""


@dataclass(frozen=True)
class Entry:
    league: str
    player: str
    unit: str
    kind: str
    at: float
    by: str
    ref: str = ""  # a match id, a draft pick number…
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "league": self.league,
            "player": self.player,
            "unit": self.unit,
            "kind": self.kind,
            "at": self.at,
            "by": self.by,
            "ref": self.ref,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Entry:
        return cls(
            league=str(obj["league"]),
            player=str(obj["player"]),
            unit=str(obj["unit"]),
            kind=str(obj["kind"]),
            at=float(obj["at"]),
            by=str(obj["by"]),
            ref=str(obj.get("ref", "")),
            note=str(obj.get("note", "")),
        )


@dataclass(frozen=True)
class Roster:
    """A roster at one moment: the normal units (a multiset, in order of acquisition) and the
    master unit, if one is set."""

    player: str
    units: tuple[str, ...] = ()
    master: str | None = None

    def count(self, unit: str) -> int:
        return self.units.count(unit)

    def counts(self) -> Counter[str]:
        return Counter(self.units)

    def distinct(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.units))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "units": list(self.units), "master": self.master}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Roster:
        master = obj.get("master")
        return cls(str(obj["player"]), tuple(str(u) for u in obj["units"]), master and str(master))


def ordered(entries: Iterable[Entry]) -> list[Entry]:
    """Entries by time; equal times keep their appended order (``sorted`` is stable)."""
    return sorted(entries, key=lambda e: e.at)


def roster_at(entries: Iterable[Entry], player: str, at: float | None = None) -> Roster:
    """The roster of ``player`` as of ``at`` (inclusive), or now (every entry) if ``at`` is None."""
    units: list[str] = []
    master: str | None = None
    for entry in ordered(entries):
        if entry.player != player or (at is not None and entry.at > at):
            continue
        if entry.kind in GAINS:
            units.append(entry.unit)
        elif entry.kind in LOSSES:
            # the newest copy goes first: the remaining copy keeps its older provenance
            for i in range(len(units) - 1, -1, -1):
                if units[i] == entry.unit:
                    del units[i]
                    break
        elif entry.kind == MASTER_SET:
            master = entry.unit or None
    return Roster(player, tuple(units), master)


def check(entries: Sequence[Entry], entry: Entry, *, max_copies: int | None = MAX_COPIES) -> None:
    """Refuse an entry that would break the ledger: an unknown kind, one dated before the newest
    entry (that would rewrite rosters already shown), a loss of a unit the player does not hold, a
    gain beyond ``max_copies`` (None: no limit)."""
    if entry.kind not in KINDS:
        raise LedgerError("league.ledger.bad_kind", kind=entry.kind)
    latest = max((e.at for e in entries), default=None)
    if latest is not None and entry.at < latest:
        raise LedgerError("league.ledger.backdated", latest=latest)
    roster = roster_at(entries, entry.player, entry.at)
    if entry.kind in LOSSES and roster.count(entry.unit) == 0:
        raise LedgerError("league.ledger.not_held", unit=entry.unit)
    if entry.kind in GAINS and max_copies is not None and roster.count(entry.unit) >= max_copies:
        raise LedgerError("league.ledger.too_many", unit=entry.unit, limit=max_copies)


def append(
    entries: Sequence[Entry], *new: Entry, max_copies: int | None = MAX_COPIES
) -> list[Entry]:
    """A new ledger with ``new`` appended, each checked against what precedes it."""
    result = list(entries)
    for entry in new:
        check(result, entry, max_copies=max_copies)
        result.append(entry)
    return result


def history(entries: Iterable[Entry], player: str, unit: str) -> list[Entry]:
    """Every entry touching ``unit`` in ``player``'s roster, oldest first: its provenance."""
    return [e for e in ordered(entries) if e.player == player and e.unit == unit]


def line(entry: Entry) -> tuple[str, dict[str, Any]]:
    """A provenance line as a message key and its parameters (``league.ledger.<kind>``)."""
    return f"league.ledger.{entry.kind}", {
        "unit": entry.unit,
        "by": entry.by,
        "ref": entry.ref,
        "note": entry.note,
        "at": entry.at,
    }
