"""The deadline worker: reminders before a step's deadline, default orders after it.

A step with a deadline (``GameRow.deadline_at``; ``step_seconds`` long) reminds the seats that
have not ordered when half and when a tenth of its time is left, and resolves with their default
orders when it is up. :meth:`Deadlines.tick` runs from the bot's maintenance loop and claims the
due games first (``bot.storage.claims``), so that of several processes one handles each game; a
resolution itself is the table's (:meth:`bot.table.Table.resolve_if_ready`), exactly once
whoever calls it. :meth:`Deadlines.recover` catches up after a start on the steps whose orders
were all stored before a crash.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.away import Absences
    from bot.loaded import StateCache
    from bot.posting import Posting
    from bot.storage.base import Repository

# How long a process's claim on due games lasts if it dies mid-tick (another process takes them
# over after it); a live holder releases them at the end of its tick.
DEADLINE_LEASE_SECONDS = 60.0
DUE_GAMES_PER_TICK = 1000
REMINDER_FRACTIONS = (0.5, 0.1)  # reminders when half and when a tenth of the time is left


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
                step = game.reminders_sent
                # Only the latest reminder that is due: after a stall, one ping, not one a tick.
                due_steps = [
                    i
                    for i in range(step, len(REMINDER_FRACTIONS))
                    if now >= game.deadline_at - game.step_seconds * REMINDER_FRACTIONS[i]
                ]
                if due_steps and await self._remind(game.id, game.version, step, due_steps[-1]):
                    done += 1
        finally:
            if due:
                async with self.repo.transaction() as tx:
                    await tx.release_games(self.worker, [g.id for g in due])
        return done

    async def _remind(self, game_id: str, version: int, step: int, last: int) -> bool:
        async with self.repo.transaction() as tx:
            game = await tx.get_game(game_id)
            if game is None or game.version != version or game.reminders_sent != step:
                return False
            loaded = self.states.load(game)
            orders = await tx.orders_for_turn(game.id, game.step)
            missing = [s for s in loaded.awaiting() if s not in orders]
            # Skip reminders that are no longer due (a later one may already be due).
            game.reminders_sent = last + 1
            await tx.update_game(game, expect_version=version)
            if missing and game.deadline_at is not None:
                await self.posting.reminder(tx, loaded, missing, last)
        self.notify()
        return True

    async def next_wakeup(self) -> float | None:
        """When the deadline worker next has something to do (None: nothing scheduled)."""
        async with self.repo.read() as tx:
            games = await tx.games_with_status(("active",))
        times: list[float] = []
        for g in games:
            if g.deadline_at is None or g.step_seconds is None:
                continue
            fractions = REMINDER_FRACTIONS[g.reminders_sent :]
            times.extend(g.deadline_at - g.step_seconds * f for f in fractions)
            times.append(g.deadline_at)
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
