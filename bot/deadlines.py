"""The deadline worker: reminders before a step's deadline, default orders after it.

A step with a deadline (``GameRow.deadline_at``; ``step_seconds`` long) reminds each player who
has not ordered at their own times (``/reminders``; by default when half and when a tenth of its
time is left: ``bot.reminding``), and resolves with their default orders when it is up.
:meth:`Deadlines.tick` runs from the bot's maintenance loop and claims the due games first
(``bot.storage.claims``), so that of several processes one handles each game; a resolution itself
is the table's (:meth:`bot.table.Table.resolve_if_ready`), exactly once whoever calls it.
:meth:`Deadlines.recover` catches up after a start on the steps whose orders were all stored
before a crash.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from bot.reminding import ReminderWorker

if TYPE_CHECKING:
    from bot.away import Absences
    from bot.loaded import StateCache
    from bot.posting import Posting
    from bot.storage.base import Repository

# How long a process's claim on due games lasts if it dies mid-tick (another process takes them
# over after it); a live holder releases them at the end of its tick.
DEADLINE_LEASE_SECONDS = 60.0
DUE_GAMES_PER_TICK = 1000


def worker_name() -> str:
    """Who claims background work: this host and process, and a random part (a restarted
    process with the same pid is someone else: the dead one's leases must lapse, not be
    inherited)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Resolver(Protocol):
    """What resolves a step (the table): called again, it finds the step resolved."""

    async def resolve_if_ready(self, game_id: str, *, fill_defaults: bool = False) -> bool: ...


class Deadlines:
    """Reminders and expired steps, over ``repo``; ``worker`` names this process's claims."""

    def __init__(
        self,
        repo: Repository,
        *,
        resolver: Resolver,
        states: StateCache,
        posting: Posting,
        clock: Callable[[], float],
        worker: str,
        notify: Callable[[], None],
        absences: Absences | None = None,
    ) -> None:
        self.repo = repo
        self.absences = absences  # a step whose seat's player is away may wait (issue 34)
        self.resolver = resolver
        self.states = states
        self.posting = posting
        self.clock = clock
        self.worker = worker
        self.notify = notify
        self.reminders = ReminderWorker(repo, states=states, posting=posting, notify=notify)

    async def tick(self) -> int:
        """Send due reminders and resolve expired turns with default orders. Returns work done."""
        now = self.clock()
        # Claimed, so that of several processes one handles each game (the compare-and-set
        # would stop a second resolution anyway; the claim saves it the work). A holder that
        # dies mid-tick leaves its games to the others when the lease lapses.
        async with self.repo.transaction() as tx:
            due = await tx.claim_due_games(
                self.worker, now, now + DEADLINE_LEASE_SECONDS, DUE_GAMES_PER_TICK
            )
        done = 0
        try:
            for game in due:
                assert game.deadline_at is not None and game.step_seconds is not None
                if now >= game.deadline_at:
                    if (
                        self.absences is not None and await self.absences.wait_if_away(game.id)
                    ) or await self.resolver.resolve_if_ready(game.id, fill_defaults=True):
                        done += 1
                    continue
                # Each player's reminders that are due (the latest of each: after a stall, one
                # reminder, not one a tick), and when the game's next one comes.
                if await self.reminders.game(game, now):
                    done += 1
        finally:
            if due:
                async with self.repo.transaction() as tx:
                    await tx.release_games(self.worker, [g.id for g in due])
        # The daily digests are per player, not per game: compare-and-set, not claimed.
        done += await self.reminders.digests(now)
        return done

    async def next_wakeup(self) -> float | None:
        """When the deadline worker next has something to do (None: nothing scheduled)."""
        async with self.repo.read() as tx:
            games = await tx.games_with_status(("active",))
        times = [g.deadline_at for g in games if g.deadline_at is not None]
        times.extend(await self.reminders.wakeups(games))  # each player's, and the digests
        return min(times) if times else None

    async def recover(self) -> int:
        """After a start: resolve every turn whose orders were all stored before a crash."""
        async with self.repo.read() as tx:
            games = await tx.games_with_status(("active",))
        resolved = 0
        for game in games:
            if await self.resolver.resolve_if_ready(game.id):
                resolved += 1
        return resolved
