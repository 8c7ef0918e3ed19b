"""Each player's reminder settings (when, how, quiet hours, a daily digest) and the reminders the
deadline worker has scheduled and sent (issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``reminders_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.

Three tables (``migrations/014_reminders.sql``): ``reminder_settings`` (a row per player who
changed anything; no row: the defaults), ``reminder_marks`` (each reminder sent: game, step,
player, slot; stored in the transaction that enqueues it, so it is sent once across restarts
and processes) and ``reminder_plans`` (per game, the step planned and when its next reminder
is due: what the deadline worker's claim reads, ``bot/storage/claims.py``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class ReminderSettingsRow:
    """A player's settings as stored (``bot.reminders.Settings`` reads them): ``leads`` as the
    player writes them (``"50% 10%"``, ``"24h 1h"``), ``via`` ``channel`` or ``dm``, ``zone`` an
    IANA name or None (UTC), ``quiet_start``/``quiet_end`` local minutes after midnight (both
    None: no quiet hours), ``digest_next`` when the next digest is due (None: no digest)."""

    user_id: int
    leads: str
    via: str
    digest: bool
    digest_hour: int
    zone: str | None
    quiet_start: int | None
    quiet_end: int | None
    digest_next: float | None
    updated_at: float


class ReminderStore(ABC):
    """Each player's reminder settings (when, how, quiet hours, a daily digest) and the reminders
    the deadline worker has scheduled and sent (issue 34)."""

    @abstractmethod
    async def reminder_settings(self, user_ids: Sequence[int]) -> dict[int, ReminderSettingsRow]:
        """The settings of those of ``user_ids`` who have any (the others keep the defaults)."""

    @abstractmethod
    async def save_reminder_settings(self, row: ReminderSettingsRow) -> None:
        """Store a player's settings, and forget the plans of the running games they sit in, so
        that the deadline worker plans those games' reminders again with the new settings."""

    @abstractmethod
    async def reminder_marks(self, game_id: str, step: int) -> dict[int, set[str]]:
        """The reminders sent in ``step`` of the game: the slots per player."""

    @abstractmethod
    async def mark_reminders(
        self, game_id: str, step: int, user_id: int, slots: Sequence[str], now: float
    ) -> set[str]:
        """Mark reminders sent; returns the slots this call marked (not those already marked,
        by an earlier tick or another process: those are not sent again)."""

    @abstractmethod
    async def forget_reminders(self, game_id: str, step: int) -> None:
        """Forget the reminders sent in ``step`` (its deadline moved: they start again)."""

    @abstractmethod
    async def plan_reminders(self, game_id: str, step: int, next_at: float, now: float) -> None:
        """Store when ``step``'s next reminder of the game is due (its deadline when none is
        left), planned at ``now``, and forget the marks of its earlier steps."""

    @abstractmethod
    async def reminder_plans(self) -> dict[str, tuple[int, float]]:
        """Each planned game's step and next reminder time (the worker's wake-up reads it)."""

    @abstractmethod
    async def digests_due(self, now: float, limit: int = 100) -> list[ReminderSettingsRow]:
        """The players whose daily digest is due, earliest first."""

    @abstractmethod
    async def advance_digest(self, user_id: int, expected: float, next_at: float) -> bool:
        """Move a player's next digest from ``expected`` to ``next_at`` (compare-and-set): False
        when another process moved it first (it sends that digest, this one does not)."""

    @abstractmethod
    async def next_digest_at(self) -> float | None:
        """When the next digest of any player is due."""
