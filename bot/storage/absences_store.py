"""Players' absences (``/away``) and every deadline a seat let pass, excused by an absence or not
(issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``absences_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class AbsenceRow:
    """A player's ``seq``-th absence: from ``starts_at`` until ``ends_at``, or ``ended_at`` when
    ended early. ``reason`` is private to the player."""

    user_id: int
    seq: int
    guild_id: int | None
    starts_at: float
    ends_at: float
    reason: str = ""
    ended_at: float | None = None

    @property
    def end(self) -> float:
        """When the absence ends (or ended)."""
        return self.ends_at if self.ended_at is None else min(self.ends_at, self.ended_at)


@dataclass(frozen=True)
class AwaySetting:
    """A server's bound on one absence outside a league, and what its games do (``wait`` or
    ``defaults``) when a deadline falls inside one."""

    guild_id: int
    max_days: int
    mode: str


@dataclass(frozen=True)
class MissRow:
    """A deadline ``seat`` of a game let pass in step ``step``: its default played
    (``waited_until`` None) or the step waited for its player's absence until ``waited_until``.
    ``excused``: the player (``user_id``) was away at the deadline (absence ``absence_seq``)."""

    game_id: str
    step: int
    seat: str
    deadline_at: float
    user_id: int
    excused: bool
    absence_seq: int | None = None
    waited_until: float | None = None
    at: float = 0.0


class AbsenceStore(ABC):
    """Players' absences (``/away``) and every deadline a seat let pass, excused by an absence or
    not (issue 34)."""

    @abstractmethod
    async def add_absence(
        self, user_id: int, guild_id: int | None, starts_at: float, ends_at: float, reason: str
    ) -> AbsenceRow:
        """Store the player's next absence (numbered after their last)."""

    @abstractmethod
    async def end_absence(self, user_id: int, seq: int, now: float) -> bool:
        """End an absence early at ``now``; False when it had already ended."""

    @abstractmethod
    async def absences_of(self, user_ids: Sequence[int], since: float) -> list[AbsenceRow]:
        """The absences of the players that end at or after ``since``, by player then order."""

    @abstractmethod
    async def absences_started(self, user_id: int, since: float) -> list[AbsenceRow]:
        """The player's absences that started at or after ``since`` (a league season's)."""

    @abstractmethod
    async def away_setting(self, guild_id: int) -> AwaySetting | None:
        """The server's absence setting (None: it set none)."""

    @abstractmethod
    async def set_away_setting(self, setting: AwaySetting, now: float) -> None: ...

    @abstractmethod
    async def record_miss(self, miss: MissRow) -> bool:
        """Store a missed deadline; False when it was stored already (the same deadline of the
        same seat of the same step: a second resolver, a restart)."""

    @abstractmethod
    async def misses(self, game_id: str) -> list[MissRow]:
        """A game's missed deadlines, in the order they passed."""

    @abstractmethod
    async def unexcused_in_league(self, league_id: str) -> dict[int, int]:
        """Each player's unexcused misses in the league's matches (players with none left out)."""

    @abstractmethod
    async def waits_of_user(self, user_id: int, now: float) -> list[MissRow]:
        """The player's waits still running (``waited_until`` after ``now``) in games still on
        the step that waited (an early ``/away end`` gives them their deadline back)."""
