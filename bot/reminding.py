"""Each player's reminders at their own times (issue 34): the deadline worker's part, and the
settings ``/reminders`` reads and writes.

The schedule itself is pure (:mod:`bot.reminders`); this module reads the settings and the marks
of reminders already sent, and sends what is due. A game's reminders are planned per step: the
first tick after a step opens claims the game (``bot/storage/claims.py``), and each tick that
handles it stores when its next reminder comes (``reminder_plans``), so the claim finds the game
again then and not before. A reminder is marked sent in the transaction that enqueues it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot import reminders as plan
from bot.reminders import Reminder, Settings

if TYPE_CHECKING:
    from bot.loaded import LoadedGame, StateCache
    from bot.posting import Posting
    from bot.storage.base import GameRow, Repository, Transaction
    from bot.storage.reminders_store import ReminderSettingsRow


def settings_of(row: ReminderSettingsRow | None) -> Settings:
    """A player's settings from their stored row (None: the defaults)."""
    if row is None:
        return Settings()
    quiet = None
    if row.quiet_start is not None and row.quiet_end is not None:
        quiet = (row.quiet_start, row.quiet_end)
    try:
        leads = plan.parse_leads(row.leads)
        return Settings(leads, row.via, row.digest, row.digest_hour, row.zone, quiet)
    except plan.ReminderError:
        # A zone the machine's database no longer knows (tzdata changed): UTC rather than none.
        leads = plan.parse_leads(row.leads)
        return Settings(leads, row.via, row.digest, row.digest_hour, None, quiet)


@dataclass(frozen=True)
class Changes:
    """What ``/reminders`` asks to change (None: keep). ``quiet``: text (``"off"`` clears)."""

    times: str | None = None
    via: str | None = None
    digest: bool | None = None
    digest_hour: int | None = None
    zone: str | None = None
    quiet: str | None = None

    def empty(self) -> bool:
        return self == Changes()


async def load_settings(repo: Repository, user_id: int) -> Settings:
    async with repo.read() as tx:
        rows = await tx.reminder_settings([user_id])
    return settings_of(rows.get(user_id))


async def change_settings(repo: Repository, user_id: int, changes: Changes, now: float) -> Settings:
    """Apply ``changes`` to a player's settings and store them; refused as a whole
    (:class:`bot.reminders.ReminderError`) when any part is wrong."""
    from bot.storage.reminders_store import ReminderSettingsRow

    async with repo.transaction() as tx:
        rows = await tx.reminder_settings([user_id])
        settings = settings_of(rows.get(user_id))
        if changes.times is not None:
            settings = replace(settings, leads=plan.parse_leads(changes.times))
        if changes.via is not None:
            if changes.via not in plan.VIA:
                raise plan.ReminderError("reminders.bad_via")
            settings = replace(settings, via=changes.via)
        if changes.digest is not None:
            settings = replace(settings, digest=changes.digest)
        if changes.digest_hour is not None:
            if not 0 <= changes.digest_hour <= 23:
                raise plan.ReminderError("reminders.bad_hour")
            settings = replace(settings, digest_hour=changes.digest_hour)
        if changes.zone is not None:
            settings = replace(settings, zone=plan.check_zone(changes.zone))
        if changes.quiet is not None:
            settings = replace(settings, quiet=plan.parse_quiet(changes.quiet))
        quiet_start, quiet_end = settings.quiet or (None, None)
        await tx.save_reminder_settings(
            ReminderSettingsRow(
                user_id=user_id,
                leads=plan.format_leads(settings.leads),
                via=settings.via,
                digest=settings.digest,
                digest_hour=settings.digest_hour,
                zone=settings.zone,
                quiet_start=quiet_start,
                quiet_end=quiet_end,
                digest_next=plan.next_digest(settings, now) if settings.digest else None,
                updated_at=now,
            )
        )
    return settings


class ReminderWorker:
    """The deadline worker's reminders: per player, at their own times, and daily digests."""

    def __init__(
        self,
        repo: Repository,
        *,
        states: StateCache,
        posting: Posting,
        notify: Callable[[], None],
    ) -> None:
        self.repo = repo
        self.states = states
        self.posting = posting
        self.notify = notify

    async def game(self, claimed: GameRow, now: float) -> bool:
        """Send the claimed game's reminders that are due (each player's latest one, to those
        awaited who have not ordered) and plan its next; True when one went out."""
        sent = False
        async with self.repo.transaction() as tx:
            game = await tx.get_game(claimed.id)  # first: the game's row is what writers lock
            if game is None or game.status != "active" or game.step != claimed.step:
                return False
            deadline, length = game.deadline_at, game.step_seconds
            if deadline is None or length is None or now >= deadline:
                return False
            users = list(dict.fromkeys(s.user_id for s in game.seats if s.left_turn is None))
            rows = await tx.reminder_settings(users)
            settings = {u: settings_of(rows.get(u)) for u in users}
            marks = await tx.reminder_marks(game.id, game.step)
            if marks and game.reminders_sent == 0:
                # The step's count was reset (bot/away.py moved the deadline past an absence):
                # its reminders start again, for the player back from it.
                await tx.forget_reminders(game.id, game.step)
                marks = {}
            schedules = {u: plan.schedule(settings[u], deadline, length) for u in users}
            due = {u: plan.due(schedules[u], marks.get(u, set()), now) for u in users}
            due = {u: d for u, d in due.items() if d}
            if due:
                sent = await self._send(tx, game, settings, due, now)
                game.reminders_sent += 1  # rounds of reminders this step (0: none, or restart)
                await tx.update_game(game, expect_version=game.version)
                for u, reminders in due.items():
                    marks.setdefault(u, set()).update(r.slot for r in reminders)
            upcoming = [plan.next_at(schedules[u], marks.get(u, set()), now) for u in users]
            next_at = min((at for at in upcoming if at is not None), default=deadline)
            await tx.plan_reminders(game.id, game.step, next_at, now)
        if sent:
            self.notify()
        return sent

    async def _send(
        self,
        tx: Transaction,
        game: GameRow,
        settings: dict[int, Settings],
        due: dict[int, list[Reminder]],
        now: float,
    ) -> bool:
        loaded = self.states.load(game)
        orders = await tx.orders_for_turn(game.id, game.step)
        missing = [s for s in loaded.awaiting() if s not in orders]
        pinged: list[str] = []
        tags: list[str] = []
        sent = False
        for user_id, reminders in due.items():
            # Every due reminder is marked (the player who has ordered too: theirs are moot);
            # only the latest goes out: after a stall, one reminder and not a burst.
            fresh = await tx.mark_reminders(
                game.id, game.step, user_id, [r.slot for r in reminders], now
            )
            last = reminders[-1]
            seats = [s for s in missing if game.user_of(s) == user_id]
            if not seats or last.slot not in fresh:
                continue  # nothing awaited of them, or another process sent it
            # A player whose DMs are known closed is pinged in the channel instead.
            closed = any(s.dm_open is False for s in game.seats if s.user_id == user_id)
            if settings[user_id].via == "dm" and not closed:
                await self.posting.reminder_dm(tx, loaded, user_id, last.slot, final=last.final)
            else:
                pinged.extend(seats)
                tags.append(f"{user_id}:{last.slot}")
            sent = True
        if pinged:
            # Those pinged at one tick share one post, in seat order (as before issue 34).
            order = {s: i for i, s in enumerate(game.seat_order)}
            pinged.sort(key=lambda s: order.get(s, len(order)))
            await self.posting.reminder(tx, loaded, pinged, ",".join(sorted(tags)))
        return sent

    async def digests(self, now: float) -> int:
        """Send the daily digests that are due; each player's once (compare-and-set on its
        time, in the transaction that enqueues it)."""
        async with self.repo.read() as tx:
            due = await tx.digests_due(now)
        sent = 0
        for row in due:
            assert row.digest_next is not None
            settings = settings_of(row)
            async with self.repo.transaction() as tx:
                following = plan.next_digest(settings, now)
                if not await tx.advance_digest(row.user_id, row.digest_next, following):
                    continue  # another process sent this one
                games = await self._awaiting(tx, row.user_id)
                if games:
                    await self.posting.digest(tx, row.user_id, games, row.digest_next)
                    sent += 1
        if sent:
            self.notify()
        return sent

    async def _awaiting(self, tx: Transaction, user_id: int) -> list[LoadedGame]:
        """The running games with a deadline that await an order of the player."""
        found = []
        for game in await tx.games_for_user(user_id, ("active",)):
            if game.deadline_at is None:
                continue
            loaded = self.states.load(game)
            orders = await tx.orders_for_turn(game.id, game.step)
            if any(game.user_of(s) == user_id and s not in orders for s in loaded.awaiting()):
                found.append(loaded)
        return found

    async def wakeups(self, games: list[GameRow]) -> list[float]:
        """When the reminders of ``games`` (the active ones) and the digests next need a tick:
        each game's planned next reminder, or at once for a step not planned yet."""
        async with self.repo.read() as tx:
            plans = await tx.reminder_plans()
            digest = await tx.next_digest_at()
        times = [] if digest is None else [digest]
        for g in games:
            if g.deadline_at is None or g.step_seconds is None:
                continue
            planned = plans.get(g.id)
            if planned is not None and planned[0] == g.step:
                times.append(planned[1])
            else:
                times.append(g.deadline_at - g.step_seconds)
        return times
