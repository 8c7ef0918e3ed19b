"""What a part of the table that reads games and posts about them is built with.

The table (:mod:`bot.table`) keeps its transactional core and hands each further job to a part of
its own: :class:`bot.away.Absences` (absences and missed deadlines) and
:class:`bot.handovers.Substitutes` (seats handed to substitutes) are built alike, over the same
repository, state cache, languages and clock, and wake the outbox sender the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.languages import Languages
    from bot.loaded import StateCache
    from bot.storage.base import Repository


class TablePart:
    """A part of the table: ``repo`` and the table's ``states``, ``languages`` and ``clock``;
    ``notify`` wakes the outbox sender after a transaction that queued posts."""

    def __init__(
        self,
        repo: Repository,
        *,
        states: StateCache,
        languages: Languages,
        clock: Callable[[], float],
        notify: Callable[[], None],
    ) -> None:
        self.repo = repo
        self.states = states
        self.languages = languages
        self.clock = clock
        self.notify = notify
