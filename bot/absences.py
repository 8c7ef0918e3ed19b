"""Absences (``/away``) and missed deadlines, pure: when an absence may be set, whether a step whose
deadline has passed waits for an absent player and until when, and whether a miss is excused.

No discord, no storage, no clock: times are floats (Unix seconds) passed in. The table's part
(:mod:`bot.away`) reads the rows and the bounds and asks here.

Rules (issue 34):

- An absence starts when it is set and ends at the date given (or earlier, by ``/away end``). A
  date in the past, or further than the bound allows, is refused (:class:`AbsenceRefused`).
- Bounds: at most ``max_days`` per absence and, in a league, ``season_days`` in all over the
  league's season (the absences set since the league was created, each counted for as long as it
  lasted or will last). Outside a league a server sets ``max_days``; it has no season bound.
- A deadline that falls inside an absence of one of the seats the step still awaits: in the mode
  ``wait`` the step's deadline moves to the end of the absence (capped by the per-absence bound
  counted from the absence's start); in the mode ``defaults`` the seat's default plays as for
  anyone. Either way the seat's miss is stored, excused.
- A miss is excused when the seat's player was away at the deadline that passed (its end
  included: a step that waited until the player's return and then defaulted is still excused).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any

from bot.ruleset import RuleError

DAY = 86_400.0
WAIT, DEFAULTS = "wait", "defaults"
MODES = (WAIT, DEFAULTS)
# Defaults of a league's options and of a server that set nothing.
DEFAULT_MAX_DAYS = 14
DEFAULT_SEASON_DAYS = 30
MAX_DAYS_BOUND = 365  # what a moderator may set at most (a year)
MISS_LIMIT_BOUND = 1000
REASON_MAX = 200  # the reason is the player's private note: only they see it


class AbsenceRefused(RuleError):
    """An absence or a setting refused (``away.*``): the key and its parameters."""


@dataclass(frozen=True)
class Span:
    """An absence as the rules read it: from ``start`` until ``end`` (ended early or not)."""

    start: float
    end: float

    def covers(self, t: float) -> bool:
        """Whether ``t`` falls inside the absence (its end included)."""
        return self.start <= t <= self.end

    @property
    def days(self) -> float:
        return max(0.0, self.end - self.start) / DAY


@dataclass(frozen=True)
class Policy:
    """How a game treats absences and misses: its league's options, or its server's setting.

    ``max_days``: the most days one absence may last (a step never waits longer than that past
    the absence's start); ``season_days``: the most days of absence over a league's season (None
    outside a league); ``mode``: ``wait`` or ``defaults``; ``miss_limit``: unexcused misses after
    which the league's moderators are told (0: no limit; leagues only)."""

    max_days: int = DEFAULT_MAX_DAYS
    mode: str = WAIT
    season_days: int | None = None
    miss_limit: int = 0

    def __post_init__(self) -> None:
        check_days(self.max_days)
        check_mode(self.mode)
        if self.season_days is not None:
            check_days(self.season_days)
        check_miss_limit(self.miss_limit)


# The keys of a league's options (cogs/league/season.py ``Options``) a league's policy is read
# from: the league cog stores them; the table reads them here, naming no league module.
LEAGUE_KEYS = ("absences", "away_days", "away_season_days", "miss_limit")


def league_policy(options: Mapping[str, Any]) -> Policy:
    """A league's policy from its stored options (the defaults where it has none)."""
    return Policy(
        max_days=int(options.get("away_days", DEFAULT_MAX_DAYS)),
        mode=str(options.get("absences", WAIT)),
        season_days=int(options.get("away_season_days", DEFAULT_SEASON_DAYS)),
        miss_limit=int(options.get("miss_limit", 0)),
    )


def check_days(days: int) -> int:
    if not 1 <= days <= MAX_DAYS_BOUND:
        raise AbsenceRefused("away.refused.days_bound", value=days, max=MAX_DAYS_BOUND)
    return days


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise AbsenceRefused("away.refused.mode", value=mode)
    return mode


def check_miss_limit(limit: int) -> int:
    if not 0 <= limit <= MISS_LIMIT_BOUND:
        raise AbsenceRefused("away.refused.miss_limit", value=limit, max=MISS_LIMIT_BOUND)
    return limit


# --- the date a player types ---------------------------------------------------------------------

_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2}))?\s*$")


def parse_until(text: str, zone: tzinfo) -> float:
    """``YYYY-MM-DD`` (until that day is over: the next one's midnight) or ``YYYY-MM-DD HH:MM``,
    read in ``zone``."""
    found = _DATE.match(text)
    if found is None:
        raise AbsenceRefused("away.refused.date", text=text[:40])
    year, month, day, hour, minute = found.groups()
    try:
        date = datetime(int(year), int(month), int(day), tzinfo=zone)
        if hour is None:  # the whole day: away until the next one begins
            return (date + timedelta(days=1)).timestamp()
        return date.replace(hour=int(hour), minute=int(minute)).timestamp()
    except (ValueError, OverflowError):
        raise AbsenceRefused("away.refused.date", text=text[:40]) from None


# --- setting an absence --------------------------------------------------------------------------


@dataclass(frozen=True)
class Bound:
    """One bound an absence set now must keep: ``max_days`` per absence and, for a league,
    ``season_days`` left of its season (``used_days`` already spent). ``where`` names it in a
    refusal (a league's name, or empty for the server's setting)."""

    max_days: int
    season_days: int | None = None
    used_days: float = 0.0
    where: str = ""


def check_absence(now: float, until: float, bounds: Iterable[Bound]) -> None:
    """Refuse an absence from ``now`` until ``until`` that is not in the future or breaks a
    bound (the first it breaks names the refusal)."""
    if until <= now:
        raise AbsenceRefused("away.refused.past")
    days = (until - now) / DAY
    for bound in bounds:
        if days > bound.max_days:
            key = "away.refused.too_long_league" if bound.where else "away.refused.too_long"
            raise AbsenceRefused(key, max=bound.max_days, league=bound.where)
        if bound.season_days is not None and bound.used_days + days > bound.season_days:
            left = max(0, int(bound.season_days - bound.used_days))
            raise AbsenceRefused(
                "away.refused.season",
                max=bound.season_days,
                left=left,
                league=bound.where,
            )


def used_days(spans: Iterable[Span], since: float) -> float:
    """Days of absence in ``spans`` that started at or after ``since`` (a league's creation)."""
    return sum(s.days for s in spans if s.start >= since)


# --- a deadline that passed ----------------------------------------------------------------------


def away_at(spans: Iterable[Span], t: float) -> Span | None:
    """The absence covering ``t`` that lasts longest (None: the player was not away then)."""
    covering = [s for s in spans if s.covers(t)]
    return max(covering, key=lambda s: s.end) if covering else None


def wait_until(span: Span, policy: Policy) -> float:
    """How long a step waits for an absence: its end, never past ``max_days`` from its start."""
    return min(span.end, span.start + policy.max_days * DAY)


@dataclass(frozen=True)
class Decision:
    """What a passed deadline does to one awaited seat that has not ordered: ``until`` is when the
    step waits until (None: the default plays now); ``excused``: its player was away."""

    seat: str
    excused: bool
    until: float | None = None


def decide(
    deadline: float,
    now: float,
    missing: Sequence[str],
    spans: Mapping[str, Sequence[Span]],
    policy: Policy,
) -> list[Decision]:
    """For each missing seat (``spans``: its player's absences): wait or play the default.

    A seat waits only in the ``wait`` mode, when its player was away at the deadline and the wait
    would end after ``now`` (a worker catching up long after the absence ended plays the default,
    excused).
    """
    out = []
    for seat in missing:
        span = away_at(spans.get(seat, ()), deadline)
        if span is None:
            out.append(Decision(seat, False))
            continue
        until = wait_until(span, policy)
        waits = policy.mode == WAIT and until > max(now, deadline)
        out.append(Decision(seat, True, until if waits else None))
    return out


def step_waits(decisions: Sequence[Decision]) -> float | None:
    """When the step's deadline moves to (the latest wait of its seats); None: it resolves now."""
    waits = [d.until for d in decisions if d.until is not None]
    return max(waits) if waits else None


def resumed_deadline(now: float, waited_until: float, step_seconds: float | None) -> float:
    """A step that waited for an absence ended early (``/away end``): it gets its usual length
    back from now, never more than it would have waited."""
    return min(waited_until, now + (step_seconds or 0.0)) if step_seconds else waited_until


def over_limit(unexcused: int, policy: Policy) -> bool:
    """Whether a player's unexcused misses in a league reached its limit (0: no limit)."""
    return policy.miss_limit > 0 and unexcused >= policy.miss_limit
