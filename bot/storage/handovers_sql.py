"""The SQL of :class:`bot.storage.handovers_store.HandoverStore`, shared by both backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.handovers_store import HandoverRow, HandoverStore, SeatOffer
from bot.storage.sql import Row, SqlPrimitives

_COLUMNS = "game_id, seq, turn, seat, from_user, from_name, to_user, to_name, by_user, digest, at"
_RUNNING = "('setup', 'active', 'paused')"


class SqlHandovers(SqlPrimitives, HandoverStore):
    """:class:`HandoverStore` over the backend's primitives (``?`` placeholders)."""

    @staticmethod
    def _handover(r: Row) -> HandoverRow:
        return HandoverRow(
            game_id=r["game_id"],
            seq=r["seq"],
            step=r["turn"],
            seat=r["seat"],
            from_user=r["from_user"],
            from_name=r["from_name"],
            to_user=r["to_user"],
            to_name=r["to_name"],
            by_user=r["by_user"],
            digest=r["digest"],
            at=r["at"],
        )

    async def hand_seat(
        self,
        *,
        game_id: str,
        step: int,
        seat: str,
        from_user: int,
        from_name: str,
        to_user: int,
        to_name: str,
        by_user: int | None,
        digest: str,
        now: float,
    ) -> HandoverRow:
        changed = await self._exec(
            "UPDATE seats SET user_id = ?, name = ?, dm_open = NULL "
            "WHERE game_id = ? AND seat = ? AND user_id = ?",
            (to_user, to_name, game_id, seat, from_user),
        )
        if changed != 1:
            raise LookupError(f"seat {seat} of {game_id} is not {from_user}'s")
        row = await self._one(
            "SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM handovers WHERE game_id = ?", (game_id,)
        )
        assert row is not None
        handover = HandoverRow(
            game_id, int(row["n"]), step, seat, from_user, from_name, to_user, to_name,
            by_user, digest, now,
        )  # fmt: skip
        await self._exec(
            f"INSERT INTO handovers ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                handover.game_id, handover.seq, handover.step, handover.seat,
                handover.from_user, handover.from_name, handover.to_user, handover.to_name,
                handover.by_user, handover.digest, handover.at,
            ),
        )  # fmt: skip
        await self._exec("DELETE FROM seat_offers WHERE game_id = ? AND seat = ?", (game_id, seat))
        return handover

    async def handovers(self, game_id: str) -> list[HandoverRow]:
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM handovers WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [self._handover(r) for r in rows]

    async def handovers_of_games(self, game_ids: Sequence[str]) -> list[HandoverRow]:
        if not game_ids:
            return []
        marks = ",".join("?" * len(game_ids))
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM handovers WHERE game_id IN ({marks}) ORDER BY game_id, seq",
            tuple(game_ids),
        )
        return [self._handover(r) for r in rows]

    async def handed_away(self, game_id: str, user_id: int) -> HandoverRow | None:
        row = await self._one(
            f"SELECT {_COLUMNS} FROM handovers WHERE game_id = ? AND from_user = ? "
            "ORDER BY seq DESC LIMIT 1",
            (game_id, user_id),
        )
        return None if row is None else self._handover(row)

    async def handed_away_running(self, user_id: int) -> list[HandoverRow]:
        rows = await self._all(
            f"SELECT {', '.join('h.' + c.strip() for c in _COLUMNS.split(','))} "
            "FROM handovers h JOIN games g ON g.id = h.game_id "
            f"WHERE h.from_user = ? AND g.status IN {_RUNNING} "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = h.game_id "
            "AND s.user_id = ?) ORDER BY h.game_id, h.seq",
            (user_id, user_id),
        )
        latest: dict[str, HandoverRow] = {}
        for r in rows:
            latest[r["game_id"]] = self._handover(r)
        return list(latest.values())

    async def supersede_dms(self, game_id: str, user_id: int) -> int:
        return await self._exec(
            "UPDATE outbox SET status = 'superseded' WHERE game_id = ? AND kind = 'dm' "
            "AND target_id = ? AND status = 'pending'",
            (game_id, user_id),
        )

    async def offer_seat(self, game_id: str, seat: str, user_id: int, now: float) -> bool:
        changed = await self._exec(
            "INSERT INTO seat_offers (game_id, seat, user_id, offered_at) VALUES (?,?,?,?) "
            "ON CONFLICT (game_id, seat) DO NOTHING",
            (game_id, seat, user_id, now),
        )
        return changed == 1

    async def withdraw_offer(self, game_id: str, seat: str) -> bool:
        changed = await self._exec(
            "DELETE FROM seat_offers WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return changed == 1

    async def seat_offers(self, game_id: str) -> list[SeatOffer]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, offered_at FROM seat_offers WHERE game_id = ? "
            "ORDER BY seat",
            (game_id,),
        )
        return [SeatOffer(r["game_id"], r["seat"], r["user_id"], r["offered_at"]) for r in rows]
