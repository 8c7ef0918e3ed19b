"""The SQL of :class:`bot.storage.absences_store.AbsenceStore`, shared by both backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.absences_store import AbsenceRow, AbsenceStore, AwaySetting, MissRow
from bot.storage.sql import Row, SqlPrimitives

_ABSENCE = "user_id, seq, guild_id, starts_at, ends_at, reason, ended_at"
_MISS = "game_id, turn, seat, deadline_at, user_id, excused, absence_seq, waited_until, at"


class SqlAbsences(SqlPrimitives, AbsenceStore):
    """:class:`AbsenceStore` over the backend's primitives (``?`` placeholders)."""

    @staticmethod
    def _absence(r: Row) -> AbsenceRow:
        return AbsenceRow(
            user_id=r["user_id"],
            seq=r["seq"],
            guild_id=r["guild_id"],
            starts_at=r["starts_at"],
            ends_at=r["ends_at"],
            reason=r["reason"],
            ended_at=r["ended_at"],
        )

    @staticmethod
    def _miss(r: Row) -> MissRow:
        return MissRow(
            game_id=r["game_id"],
            step=r["turn"],
            seat=r["seat"],
            deadline_at=r["deadline_at"],
            user_id=r["user_id"],
            excused=bool(r["excused"]),
            absence_seq=r["absence_seq"],
            waited_until=r["waited_until"],
            at=r["at"],
        )

    async def add_absence(
        self, user_id: int, guild_id: int | None, starts_at: float, ends_at: float, reason: str
    ) -> AbsenceRow:
        # Two /away of one player at once must not take the same number.
        await self._serialize(f"absences.{user_id}")
        row = await self._one(
            "SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM absences WHERE user_id = ?", (user_id,)
        )
        assert row is not None
        absence = AbsenceRow(user_id, int(row["n"]), guild_id, starts_at, ends_at, reason)
        await self._exec(
            f"INSERT INTO absences ({_ABSENCE}) VALUES (?,?,?,?,?,?,?)",
            (user_id, absence.seq, guild_id, starts_at, ends_at, reason, None),
        )
        return absence

    async def end_absence(self, user_id: int, seq: int, now: float) -> bool:
        changed = await self._exec(
            "UPDATE absences SET ended_at = ? WHERE user_id = ? AND seq = ? "
            "AND ended_at IS NULL AND ends_at > ?",
            (now, user_id, seq, now),
        )
        return changed == 1

    async def absences_of(self, user_ids: Sequence[int], since: float) -> list[AbsenceRow]:
        if not user_ids:
            return []
        marks = ",".join("?" * len(user_ids))
        rows = await self._all(
            f"SELECT {_ABSENCE} FROM absences WHERE user_id IN ({marks}) "
            "AND COALESCE(ended_at, ends_at) >= ? ORDER BY user_id, seq",
            (*user_ids, since),
        )
        return [self._absence(r) for r in rows]

    async def absences_started(self, user_id: int, since: float) -> list[AbsenceRow]:
        rows = await self._all(
            f"SELECT {_ABSENCE} FROM absences WHERE user_id = ? AND starts_at >= ? ORDER BY seq",
            (user_id, since),
        )
        return [self._absence(r) for r in rows]

    async def away_setting(self, guild_id: int) -> AwaySetting | None:
        row = await self._one(
            "SELECT guild_id, max_days, mode FROM away_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else AwaySetting(row["guild_id"], row["max_days"], row["mode"])

    async def set_away_setting(self, setting: AwaySetting, now: float) -> None:
        await self._exec(
            "INSERT INTO away_settings (guild_id, max_days, mode, updated_at) VALUES (?,?,?,?) "
            "ON CONFLICT (guild_id) DO UPDATE SET max_days = excluded.max_days, "
            "mode = excluded.mode, updated_at = excluded.updated_at",
            (setting.guild_id, setting.max_days, setting.mode, now),
        )

    async def record_miss(self, miss: MissRow) -> bool:
        changed = await self._exec(
            f"INSERT INTO missed_deadlines ({_MISS}) VALUES (?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT (game_id, turn, seat, deadline_at) DO NOTHING",
            (
                miss.game_id, miss.step, miss.seat, miss.deadline_at, miss.user_id,
                miss.excused, miss.absence_seq, miss.waited_until, miss.at,
            ),
        )  # fmt: skip
        return changed == 1

    async def misses(self, game_id: str) -> list[MissRow]:
        rows = await self._all(
            f"SELECT {_MISS} FROM missed_deadlines WHERE game_id = ? "
            "ORDER BY deadline_at, turn, seat",
            (game_id,),
        )
        return [self._miss(r) for r in rows]

    async def unexcused_in_league(self, league_id: str) -> dict[int, int]:
        rows = await self._all(
            "SELECT m.user_id, COUNT(*) AS n FROM missed_deadlines m "
            "JOIN league_matches l ON l.game_id = m.game_id "
            "WHERE l.league_id = ? AND m.excused = ? GROUP BY m.user_id",
            (league_id, False),
        )
        return {int(r["user_id"]): int(r["n"]) for r in rows}

    async def waits_of_user(self, user_id: int, now: float) -> list[MissRow]:
        rows = await self._all(
            f"SELECT {', '.join('m.' + c.strip() for c in _MISS.split(','))} "
            "FROM missed_deadlines m JOIN games g ON g.id = m.game_id "
            "WHERE m.user_id = ? AND m.waited_until > ? AND g.turn = m.turn "
            "AND g.status IN ('active', 'paused') ORDER BY m.game_id",
            (user_id, now),
        )
        return [self._miss(r) for r in rows]
