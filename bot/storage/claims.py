"""The SQL of :class:`bot.storage.base.ClaimStore`, shared by both backends.

A claim is an ``UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING`` on
PostgreSQL: a process never waits for the rows another one is claiming, it takes the next ones.
SQLite runs the same statements without the locking clause (its one writer claims alone). A
claim records who holds the row and until when (``claimed_by``, ``lease_until``); a holder that
dies leaves its rows to whoever claims after the lease lapses, and the Discord nonce of each
message makes a post that was already accepted come back as the same message.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import ClaimStore, GameRow, OutboxRow
from bot.storage.sql import SqlGames, SqlOutbox

# A game is due when its deadline has passed or its next reminder is due (``reminder_plans``:
# each player's own reminders, bot/reminders.py); a game whose open step has no plan yet is due
# from the step's start, so the first tick after a step opens plans it (the plan of an earlier
# step, one dropped by a player's new settings, or one made before a seat was handed to a
# substitute, who has settings of their own, counts as none).
DUE = (
    "status = 'active' AND deadline_at IS NOT NULL AND step_seconds IS NOT NULL "
    "AND (deadline_at <= ? OR COALESCE((SELECT p.next_at FROM reminder_plans p "
    "WHERE p.game_id = games.id AND p.turn = games.turn AND NOT EXISTS (SELECT 1 FROM handovers h "
    "WHERE h.game_id = p.game_id AND h.at >= p.planned_at)), deadline_at - step_seconds) <= ?)"
)


class SqlClaims(SqlGames, SqlOutbox, ClaimStore):
    async def claim_outbox(
        self, holder: str, now: float, lease_until: float, limit: int = 20
    ) -> list[OutboxRow]:
        # One claimer at a time across processes (a short statement): otherwise two claimers
        # could each miss the other's uncommitted claim of an earlier row of the same game and
        # post a game's messages out of order. SKIP LOCKED still passes over rows that a sender
        # is marking sent right now instead of waiting for it.
        await self._serialize("outbox.claim")
        rows = await self._all(
            "UPDATE outbox SET claimed_by = ?, lease_until = ? WHERE id IN ("
            "SELECT o.id FROM outbox o WHERE o.status = 'pending' AND o.not_before <= ? "
            "AND (o.lease_until IS NULL OR o.lease_until <= ? OR o.claimed_by = ?) "
            # An earlier row another live holder is posting: a superseded edit too (it was
            # superseded while in flight, and must not land after the newer edit).
            "AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.game_id = o.game_id "
            "AND e.status IN ('pending', 'superseded') AND e.id < o.id AND e.claimed_by <> ? "
            "AND e.lease_until > ?) "
            f"ORDER BY o.id LIMIT ?{self._skip_locked()}) RETURNING *",
            (holder, lease_until, now, now, holder, holder, now, limit),
        )
        return sorted((self._outbox(r) for r in rows), key=lambda row: row.id)

    async def claim_outbox_row(
        self, holder: str, outbox_id: int, now: float, lease_until: float
    ) -> OutboxRow | None:
        row = await self._one(
            "UPDATE outbox SET claimed_by = ?, lease_until = ? WHERE id = ? "
            "AND status = 'pending' AND not_before <= ? "
            "AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) RETURNING *",
            (holder, lease_until, outbox_id, now, now, holder),
        )
        return None if row is None else self._outbox(row)

    async def renew_outbox(self, holder: str, ids: Sequence[int], lease_until: float) -> set[int]:
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            # A held edit superseded meanwhile stays held: it is posted, then the newer one
            # (which waits behind it), never the other way round.
            f"UPDATE outbox SET lease_until = ? WHERE id IN ({marks}) AND claimed_by = ? "
            "AND status IN ('pending', 'superseded') RETURNING id",
            (lease_until, *ids, holder),
        )
        return {int(r["id"]) for r in rows}

    async def claim_due_games(
        self, holder: str, now: float, lease_until: float, limit: int = 100
    ) -> list[GameRow]:
        rows = await self._all(
            "UPDATE games SET claimed_by = ?, lease_until = ? WHERE id IN ("
            f"SELECT id FROM games WHERE {DUE} "
            "AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) "
            f"ORDER BY deadline_at LIMIT ?{self._skip_locked()}) RETURNING id",
            (holder, lease_until, now, now, now, holder, limit),
        )
        ids = [r["id"] for r in rows]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return await self._games(f"id IN ({marks})", tuple(ids), " ORDER BY deadline_at")

    async def release_games(self, holder: str, game_ids: Sequence[str]) -> None:
        if not game_ids:
            return
        marks = ",".join("?" * len(game_ids))
        await self._exec(
            f"UPDATE games SET lease_until = NULL WHERE id IN ({marks}) AND claimed_by = ?",
            (*game_ids, holder),
        )

    async def take_lease(self, name: str, holder: str, now: float, lease_until: float) -> bool:
        row = await self._one(
            "INSERT INTO leases (name, claimed_by, lease_until) VALUES (?,?,?) "
            "ON CONFLICT (name) DO UPDATE SET claimed_by = excluded.claimed_by, "
            "lease_until = excluded.lease_until "
            "WHERE leases.lease_until <= ? OR leases.claimed_by = excluded.claimed_by "
            "RETURNING name",
            (name, holder, lease_until, now),
        )
        return row is not None

    async def release_all_claims(self) -> None:
        await self._exec(
            "UPDATE outbox SET lease_until = NULL WHERE lease_until IS NOT NULL "
            "AND status = 'pending'"
        )
        await self._exec("UPDATE games SET lease_until = NULL WHERE lease_until IS NOT NULL")
        await self._exec("DELETE FROM leases")
