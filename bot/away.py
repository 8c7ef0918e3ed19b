"""The table's part of absences (``/away``) and missed deadlines (issue 34); the rules are pure in
:mod:`bot.absences`.

- :meth:`Absences.wait_if_away`: the deadline worker, finding a step's deadline passed, asks
  here first. When a seat the step still awaits belongs to a player away at the deadline and the
  game waits for absences (its league's ``absences`` option, else its server's ``/away limit``
  mode), the step's deadline moves to the absence's end (stored on the game: a restart finds it),
  the seat's miss is stored (excused, with where the deadline went), and the channel is told once
  per game and absence: "paused for <seat> until <t:…:f>". Never the reason, nothing else.
- :meth:`Absences.missed`: the table's resolution calls it, in its own transaction, for the seats
  whose defaults it is about to play: each miss is stored once (excused when the player was away
  at the deadline), and a league whose ``miss_limit`` a player has now reached has its moderators
  told once in the league's channel (its moderator role pinged, else its creator).
- ``/away``'s own work: set an absence within every bound that applies (the server's, and each
  league the player has a running match in), end it early (a step waiting for it gets its usual
  length back from now), show it, and a server's setting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import absences as rules
from bot.i18n import t
from bot.posting import outbox_nonce
from bot.storage import ACTIVE_STATUSES
from bot.storage.absences_store import AbsenceRow, AwaySetting, MissRow
from bot.tablepart import TablePart

if TYPE_CHECKING:
    from bot.storage.base import GameRow, LeagueRow, Transaction


def server_policy(setting: AwaySetting | None) -> rules.Policy:
    """A server's policy for its games outside a league (the defaults where it set none)."""
    if setting is None:
        return rules.Policy()
    return rules.Policy(max_days=setting.max_days, mode=setting.mode)


def spans(rows: Sequence[AbsenceRow]) -> list[rules.Span]:
    return [rules.Span(a.starts_at, a.end) for a in rows]


@dataclass(frozen=True)
class GameAbsences:
    """What ``/game status`` shows of a game: the seats its open step waits for (seat, until),
    and each seat's misses in the game (seat -> (all, unexcused))."""

    waiting: list[tuple[str, float]]
    misses: dict[str, tuple[int, int]]


class Absences(TablePart):
    """The table's absences and missed deadlines (``Table.absences``)."""

    # --- policies ---------------------------------------------------------------------------

    @staticmethod
    async def league_of(tx: Transaction, game: GameRow) -> LeagueRow | None:
        league_id = game.options.get("league")
        return None if not league_id else await tx.get_league(str(league_id))

    async def policy(self, tx: Transaction, game: GameRow) -> rules.Policy:
        """The game's policy: its league's options, else its server's setting."""
        league = await self.league_of(tx, game)
        if league is not None:
            return rules.league_policy(league.data.get("options", {}))
        setting = None if game.guild_id is None else await tx.away_setting(game.guild_id)
        return server_policy(setting)

    # --- the deadline worker ----------------------------------------------------------------

    async def wait_if_away(self, game_id: str) -> bool:
        """The step's deadline has passed: wait for an absent seat (True) or leave the step to
        the table's defaults (False)."""
        now = self.clock()
        # Almost always nobody in the game is away: a read says so without taking the writer's
        # lock (the deadline worker meets every expired step here first).
        async with self.repo.read() as tx:
            game = await tx.get_game(game_id)
            if game is None or game.deadline_at is None:
                return False
            seated = sorted({seat.user_id for seat in game.seats})
            if not await tx.absences_of(seated, game.deadline_at):
                return False
        async with self.repo.transaction() as tx:
            game = await tx.get_game(game_id)
            if game is None or game.status != "active" or game.state is None:
                return False
            deadline = game.deadline_at
            if deadline is None or now < deadline:
                return False
            loaded = self.states.load(game)
            orders = await tx.orders_for_turn(game.id, game.step)
            missing = [s for s in loaded.awaiting() if s not in orders]
            if not missing:
                return False
            users = {seat: game.user_of(seat) for seat in missing}
            away = await tx.absences_of(sorted(set(users.values())), deadline)
            if not away:
                return False
            policy = await self.policy(tx, game)
            by_seat = {s: spans([a for a in away if a.user_id == u]) for s, u in users.items()}
            decisions = rules.decide(deadline, now, missing, by_seat, policy)
            until = rules.step_waits(decisions)
            if until is None:
                return False
            for d in decisions:
                if d.until is None:
                    continue
                absence = self._covering(away, users[d.seat], deadline)
                await tx.record_miss(
                    MissRow(
                        game.id, game.step, d.seat, deadline, users[d.seat], True,
                        absence.seq, d.until, now,
                    )
                )  # fmt: skip
                await self._announce(tx, game, d.seat, absence, d.until)
            game.deadline_at = until
            # The reminders start again for the moved deadline (the player back from an absence
            # is reminded before it passes).
            game.reminders_sent = 0
            game.updated_at = now
            await tx.update_game(game, expect_version=game.version)
        self.notify()
        return True

    @staticmethod
    def _covering(away: Sequence[AbsenceRow], user_id: int, at: float) -> AbsenceRow:
        mine = [a for a in away if a.user_id == user_id and a.starts_at <= at <= a.end]
        return max(mine, key=lambda a: a.end)

    async def _announce(
        self, tx: Transaction, game: GameRow, seat: str, absence: AbsenceRow, until: float
    ) -> None:
        """Once per game and absence: the seat the game waits for and until when (no reason)."""
        nonce = outbox_nonce(game.id, "away", absence.user_id, absence.seq)
        await self._post(tx, game, nonce, "away.notice.paused", seat=seat, until=int(until))

    async def _post(
        self, tx: Transaction, game: GameRow, nonce: str, key: str, **params: Any
    ) -> None:
        """A line in the game's channel, in the server's language."""
        lang = await self.languages.of_guild(tx, game.guild_id)
        await tx.enqueue(
            game_id=game.id,
            kind="channel",
            target_id=game.channel_id,
            payload={"lang": lang, "content": t(lang, key, game=game.id, **params)},
            nonce=nonce,
            now=self.clock(),
        )

    # --- the table's resolution -------------------------------------------------------------

    async def missed(self, tx: Transaction, game: GameRow, missing: Sequence[str]) -> None:
        """In the resolution's transaction, before the step moves on: the ``missing`` seats'
        defaults are being played. Store each miss once; tell a league's moderators once when a
        player reaches its miss limit."""
        if not missing:
            return
        now = self.clock()
        deadline = game.deadline_at if game.deadline_at is not None else now
        users = {seat: game.user_of(seat) for seat in missing}
        away = await tx.absences_of(sorted(set(users.values())), deadline)
        unexcused: list[int] = []
        for seat, user in users.items():
            mine = [a for a in away if a.user_id == user and a.starts_at <= deadline <= a.end]
            absence = max(mine, key=lambda a: a.end) if mine else None
            miss = MissRow(
                game.id, game.step, seat, deadline, user, absence is not None,
                None if absence is None else absence.seq, None, now,
            )  # fmt: skip
            if await tx.record_miss(miss) and absence is None:
                unexcused.append(user)
        if unexcused:
            await self._over_limit(tx, game, unexcused)

    async def _over_limit(self, tx: Transaction, game: GameRow, users: Sequence[int]) -> None:
        league = await self.league_of(tx, game)
        if league is None:
            return
        policy = rules.league_policy(league.data.get("options", {}))
        if policy.miss_limit <= 0:
            return
        counts = await tx.unexcused_in_league(league.id)
        lang = await self.languages.of_guild(tx, league.guild_id)
        role = league.data.get("moderator_role")
        creator = league.data.get("created_by")
        for user in dict.fromkeys(users):
            if not rules.over_limit(counts.get(user, 0), policy):
                continue
            if role is not None:
                mods, payload = f"<@&{int(role)}>", {"mention_roles": [int(role)]}
            else:  # no role: the league's creator (who had Manage Server to create it)
                mods = f"<@{int(creator)}>" if creator else ""
                payload = {"mentions": [int(creator)]} if creator else {}
            text = t(
                lang,
                "away.notice.miss_limit",
                mods=mods,
                player=f"<@{user}>",
                count=counts[user],
                limit=policy.miss_limit,
                league=league.name,
                game=game.id,
            )
            await tx.enqueue(
                game_id=None,
                kind="channel",
                target_id=league.data.get("channel_id"),
                payload={"lang": lang, "content": text, **payload},
                # Once per league and player, however many misses follow.
                nonce=outbox_nonce("league", league.id, "miss-limit", user),
                now=self.clock(),
            )

    # --- /away --------------------------------------------------------------------------------

    async def current(self, user_id: int) -> AbsenceRow | None:
        """The player's absence now (None: not away)."""
        now = self.clock()
        async with self.repo.read() as tx:
            rows = await tx.absences_of([user_id], now)
        return next((a for a in reversed(rows) if a.starts_at <= now < a.end), None)

    async def zone_name(self, user_id: int) -> str | None:
        """The player's time zone (an IANA name) as ``/reminders`` stored it; None: none."""
        async with self.repo.read() as tx:
            row = (await tx.reminder_settings([user_id])).get(user_id)
        return row.zone if row is not None and row.zone else None

    async def bounds(self, tx: Transaction, user_id: int, guild_id: int | None) -> list[Any]:
        """Every bound an absence set now must keep: the server's (where it is set), and each
        league the player has a running match in (per absence, and what its season has left)."""
        setting = None if guild_id is None else await tx.away_setting(guild_id)
        found = [rules.Bound(server_policy(setting).max_days)]
        seen: set[str] = set()
        for game in await tx.games_for_user(user_id, ACTIVE_STATUSES):
            league = await self.league_of(tx, game)
            if league is None or league.id in seen:
                continue
            seen.add(league.id)
            policy = rules.league_policy(league.data.get("options", {}))
            since = float(league.data.get("created_at", 0.0))
            used = rules.used_days(spans(await tx.absences_started(user_id, since)), since)
            found.append(rules.Bound(policy.max_days, policy.season_days, used, league.name))
        return found

    async def set_away(
        self, user_id: int, guild_id: int | None, until: float, reason: str
    ) -> AbsenceRow:
        """Store an absence from now until ``until``, within every bound (refused otherwise:
        :class:`bot.absences.AbsenceRefused`)."""
        now = self.clock()
        reason = reason.strip()[: rules.REASON_MAX]
        async with self.repo.transaction() as tx:
            rows = await tx.absences_of([user_id], now)
            running = next((a for a in rows if a.starts_at <= now < a.end), None)
            if running is not None:
                raise rules.AbsenceRefused("away.refused.already", until=int(running.end))
            rules.check_absence(now, until, await self.bounds(tx, user_id, guild_id))
            return await tx.add_absence(user_id, guild_id, now, until, reason)

    async def end_away(self, user_id: int) -> AbsenceRow:
        """End the player's absence now. A step that waits for it gets its usual length back
        from now (never beyond where it waited, nor before another absent seat's wait ends)."""
        now = self.clock()
        async with self.repo.transaction() as tx:
            rows = await tx.absences_of([user_id], now)
            running = next((a for a in rows if a.starts_at <= now < a.end), None)
            if running is None or not await tx.end_absence(user_id, running.seq, now):
                raise rules.AbsenceRefused("away.refused.none")
            for wait in await tx.waits_of_user(user_id, now):
                await self._resume(tx, wait, now)
        self.notify()
        return AbsenceRow(
            running.user_id, running.seq, running.guild_id, running.starts_at,
            running.ends_at, running.reason, now,
        )  # fmt: skip

    async def _resume(self, tx: Transaction, wait: MissRow, now: float) -> None:
        game = await tx.get_game(wait.game_id)
        if game is None or game.status != "active" or game.deadline_at is None:
            return
        others = [
            m.waited_until
            for m in await tx.misses(game.id)
            if m.step == game.step
            and m.user_id != wait.user_id
            and m.waited_until is not None
            and m.waited_until > now
        ]
        back = rules.resumed_deadline(now, game.deadline_at, game.step_seconds)
        deadline = min(game.deadline_at, max([back, *others]))
        if deadline >= game.deadline_at:
            return
        game.deadline_at, game.updated_at = deadline, now
        await tx.update_game(game, expect_version=game.version)
        nonce = outbox_nonce(game.id, "away-back", wait.user_id, wait.absence_seq)
        await self._post(
            tx, game, nonce, "away.notice.back", seat=wait.seat, deadline=int(deadline)
        )

    async def setting(self, guild_id: int) -> AwaySetting:
        async with self.repo.read() as tx:
            found = await tx.away_setting(guild_id)
        policy = server_policy(found)
        return AwaySetting(guild_id, policy.max_days, policy.mode)

    async def set_setting(self, guild_id: int, max_days: int, mode: str) -> AwaySetting:
        setting = AwaySetting(guild_id, rules.check_days(max_days), rules.check_mode(mode))
        async with self.repo.transaction() as tx:
            await tx.set_away_setting(setting, self.clock())
        return setting

    async def league_misses(self, league_id: str) -> dict[int, int]:
        """Each player's unexcused missed deadlines in a league's matches (its standings)."""
        async with self.repo.read() as tx:
            return await tx.unexcused_in_league(league_id)

    # --- /game status -------------------------------------------------------------------------

    async def of_game(self, game: GameRow) -> GameAbsences:
        """The seats the game's open step waits for, and each seat's misses in the game."""
        now = self.clock()
        async with self.repo.read() as tx:
            rows = await tx.misses(game.id)
        waiting = [
            (m.seat, m.waited_until)
            for m in rows
            if m.step == game.step and m.waited_until is not None and m.waited_until > now
        ]
        misses: dict[str, tuple[int, int]] = {}
        for m in rows:
            total, unexcused = misses.get(m.seat, (0, 0))
            misses[m.seat] = (total + 1, unexcused + (not m.excused))
        return GameAbsences(sorted(dict(waiting).items()), misses)
