"""Ante (アンティ): the winner of a league match may take one unit from the loser, pure.

Life of an ante:

- :func:`offer` when a league match ends with a winner: the candidates are the loser's roster as it
  stood when the match ended, without the master unit and without units the winner already holds
  twice or more.
- :func:`declare` by the winner, as often as they like while the ante is open (a second declaration
  is a change).
- :func:`settle` when the winner's next league match starts (or a moderator's deadline passes,
  :func:`due`): the pick locks and the unit moves (ledger entries ``ante_loss`` and ``ante_gain``);
  with no pick the right lapses. :func:`on_match_start` settles every open ante of the players of a
  match that is starting.
- :func:`extend` (a moderator's deadline, which replaces "until the winner's next match": earlier
  or later) and :func:`void` (a moderator ends an open ante, with a reason).

Every change is a :class:`LogLine` (action, by, at, unit, note). Refusals are
:class:`AnteError` with ``league.ante.*`` keys. Times are floats passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.ruleset import RuleError
from cogs.league.ledger import ANTE_GAIN, ANTE_LOSS, MAX_COPIES, Entry, append, roster_at

SCHEMA = 1
OPEN, LOCKED, LAPSED, VOID = "open", "locked", "lapsed", "void"
STATUSES = (OPEN, LOCKED, LAPSED, VOID)
ACTIONS = ("offer", "declare", "change", "lock", "lapse", "extend", "void")
SYSTEM = "system"


class AnteError(RuleError):
    """An ante action refused (``league.ante.*``)."""


@dataclass(frozen=True)
class LogLine:
    action: str
    by: str
    at: float
    unit: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "by": self.by,
            "at": self.at,
            "unit": self.unit,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> LogLine:
        return cls(
            str(obj["action"]),
            str(obj["by"]),
            float(obj["at"]),
            str(obj.get("unit", "")),
            str(obj.get("note", "")),
        )


@dataclass(frozen=True)
class Ante:
    league: str
    match: str
    winner: str
    loser: str
    ended_at: float
    candidates: tuple[str, ...]  # distinct unit ids, in the loser's roster order
    loser_master: str | None = None
    pick: str | None = None
    deadline: float | None = None  # a moderator's deadline; None: the winner's next match
    status: str = OPEN
    log: tuple[LogLine, ...] = ()

    @property
    def open(self) -> bool:
        return self.status == OPEN

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "league": self.league,
            "match": self.match,
            "winner": self.winner,
            "loser": self.loser,
            "ended_at": self.ended_at,
            "candidates": list(self.candidates),
            "loser_master": self.loser_master,
            "pick": self.pick,
            "deadline": self.deadline,
            "status": self.status,
            "log": [line.to_json() for line in self.log],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Ante:
        deadline = obj.get("deadline")
        return cls(
            league=str(obj["league"]),
            match=str(obj["match"]),
            winner=str(obj["winner"]),
            loser=str(obj["loser"]),
            ended_at=float(obj["ended_at"]),
            candidates=tuple(str(u) for u in obj["candidates"]),
            loser_master=obj.get("loser_master"),
            pick=obj.get("pick"),
            deadline=None if deadline is None else float(deadline),
            status=str(obj.get("status", OPEN)),
            log=tuple(LogLine.from_json(line) for line in obj.get("log", ())),
        )


def _logged(ante: Ante, line: LogLine, **changes: Any) -> Ante:
    return replace(ante, log=(*ante.log, line), **changes)


def offer(
    entries: Sequence[Entry],
    league: str,
    match: str,
    winner: str,
    loser: str,
    ended_at: float,
    *,
    max_copies: int = MAX_COPIES,
    spare: Callable[[Sequence[str], str], bool] | None = None,
) -> Ante:
    """The ante the winner of ``match`` is offered when it ends at ``ended_at``; ``spare``
    (the ruleset's, where it has one: :class:`bot.leagues.AnteChecked`) keeps out a unit the
    loser cannot lose and still play a match."""
    theirs = roster_at(entries, loser, ended_at)
    mine = roster_at(entries, winner, ended_at)
    candidates = tuple(
        u
        for u in theirs.distinct()
        if u != theirs.master
        and mine.count(u) < max_copies
        and (spare is None or spare(theirs.units, u))
    )
    ante = Ante(league, match, winner, loser, float(ended_at), candidates, theirs.master)
    return _logged(ante, LogLine("offer", SYSTEM, float(ended_at)))


def _refuse_closed(ante: Ante) -> None:
    if ante.status == LOCKED:
        raise AnteError("league.ante.locked", unit=ante.pick or "")
    if ante.status == LAPSED:
        raise AnteError("league.ante.lapsed")
    if ante.status == VOID:
        raise AnteError("league.ante.void")


def declare(
    ante: Ante,
    entries: Sequence[Entry],
    player: str,
    unit: str,
    at: float,
    *,
    max_copies: int = MAX_COPIES,
) -> Ante:
    """The winner names (or changes) the unit they will take."""
    if player != ante.winner:
        raise AnteError("league.ante.not_winner", winner=ante.winner)
    _refuse_closed(ante)
    if due(ante, at):
        raise AnteError("league.ante.locked", unit=ante.pick or "")
    if unit == ante.loser_master:
        raise AnteError("league.ante.master", unit=unit)
    if roster_at(entries, player, at).count(unit) >= max_copies:
        raise AnteError("league.ante.held_twice", unit=unit)
    if unit not in ante.candidates:
        raise AnteError("league.ante.not_candidate", unit=unit)
    if unit == ante.pick:
        return ante
    action = "declare" if ante.pick is None else "change"
    return _logged(ante, LogLine(action, player, float(at), unit), pick=unit)


def due(ante: Ante, now: float) -> bool:
    """Whether a moderator's deadline has passed on an open ante."""
    return ante.open and ante.deadline is not None and now >= ante.deadline


def settle(
    ante: Ante,
    entries: Sequence[Entry],
    at: float,
    *,
    by: str = SYSTEM,
    ref: str = "",
    max_copies: int = MAX_COPIES,
) -> tuple[Ante, list[Entry]]:
    """Close an open ante at ``at``: lock the pick and move the unit, or lapse without one.

    Returns the ante and the ledger with the move appended (unchanged on a lapse). ``ref`` names
    what closed it (the winner's next match, or empty for a deadline). If the pick can no longer
    move (the loser no longer holds it, or the winner now holds it twice) the right lapses, with
    the reason as its note.
    """
    _refuse_closed(ante)
    if ante.pick is None:
        line = LogLine("lapse", by, float(at), note=ref)
        return _logged(ante, line, status=LAPSED), list(entries)
    unit = ante.pick
    if roster_at(entries, ante.loser, at).count(unit) == 0:
        line = LogLine("lapse", by, float(at), unit, "not_held")
        return _logged(ante, line, status=LAPSED), list(entries)
    if roster_at(entries, ante.winner, at).count(unit) >= max_copies:
        line = LogLine("lapse", by, float(at), unit, "held_twice")
        return _logged(ante, line, status=LAPSED), list(entries)
    moved = append(
        entries,
        Entry(ante.league, ante.loser, unit, ANTE_LOSS, float(at), by, ante.match, ref),
        Entry(ante.league, ante.winner, unit, ANTE_GAIN, float(at), by, ante.match, ref),
        max_copies=max_copies,
    )
    return _logged(ante, LogLine("lock", by, float(at), unit, ref), status=LOCKED), moved


def on_match_start(
    antes: Iterable[Ante],
    entries: Sequence[Entry],
    players: Iterable[str],
    match: str,
    at: float,
) -> tuple[list[Ante], list[Entry]]:
    """A league match between ``players`` starts at ``at``: every open ante won by one of them
    settles (oldest first), unless a moderator has extended its deadline beyond ``at`` (then it
    settles at that deadline, :func:`settle_due`). Returns all the antes (settled ones replaced)
    and the ledger."""
    starting = set(players)
    ledger = list(entries)
    result: list[Ante] = []
    for ante in sorted(antes, key=lambda a: a.ended_at):
        if ante.open and ante.winner in starting and not _extended_past(ante, at):
            ante, ledger = settle(ante, ledger, at, ref=match)
        result.append(ante)
    return result, ledger


def _extended_past(ante: Ante, at: float) -> bool:
    """A moderator's deadline later than ``at`` keeps the ante open past the match start."""
    return ante.deadline is not None and ante.deadline > at


def settle_due(
    antes: Iterable[Ante], entries: Sequence[Entry], now: float
) -> tuple[list[Ante], list[Entry]]:
    """Settle every open ante whose moderator deadline has passed by ``now``, at its deadline (or,
    if the ledger already has later entries, at the newest of them: the ledger is never
    back-dated)."""
    ledger = list(entries)
    result: list[Ante] = []
    for ante in sorted(antes, key=lambda a: a.ended_at):
        if due(ante, now):
            assert ante.deadline is not None
            latest = max((e.at for e in ledger), default=ante.deadline)
            ante, ledger = settle(ante, ledger, max(ante.deadline, latest))
        result.append(ante)
    return result, ledger


def extend(ante: Ante, by: str, until: float, at: float) -> Ante:
    """A moderator sets (or moves) the deadline of an open ante."""
    _refuse_closed(ante)
    return _logged(ante, LogLine("extend", by, float(at), note=repr(float(until))), deadline=until)


def void(ante: Ante, by: str, reason: str, at: float) -> Ante:
    """A moderator voids an open ante (its pick breaks a rule): the right ends without a move."""
    _refuse_closed(ante)
    return _logged(ante, LogLine("void", by, float(at), ante.pick or "", reason), status=VOID)


def open_antes(antes: Iterable[Ante]) -> list[Ante]:
    """What a moderator's list shows: the antes still open, oldest first."""
    return sorted((a for a in antes if a.open), key=lambda a: a.ended_at)
