"""The SQL of :class:`bot.storage.reminders_store.ReminderStore`, shared by both backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.reminders_store import ReminderSettingsRow, ReminderStore
from bot.storage.sql import Row, SqlPrimitives

_COLUMNS = (
    "user_id, leads, via, digest, digest_hour, zone, quiet_start, quiet_end, digest_next, "
    "updated_at"
)


class SqlReminders(SqlPrimitives, ReminderStore):
    """:class:`ReminderStore` over the backend's primitives (``?`` placeholders)."""

    @staticmethod
    def _settings(r: Row) -> ReminderSettingsRow:
        return ReminderSettingsRow(
            user_id=int(r["user_id"]),
            leads=r["leads"],
            via=r["via"],
            digest=bool(r["digest"]),
            digest_hour=int(r["digest_hour"]),
            zone=r["zone"],
            quiet_start=r["quiet_start"],
            quiet_end=r["quiet_end"],
            digest_next=r["digest_next"],
            updated_at=r["updated_at"],
        )

    async def reminder_settings(self, user_ids: Sequence[int]) -> dict[int, ReminderSettingsRow]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM reminder_settings WHERE user_id IN ({marks})",
            tuple(user_ids),
        )
        return {int(r["user_id"]): self._settings(r) for r in rows}

    async def save_reminder_settings(self, row: ReminderSettingsRow) -> None:
        await self._exec(
            f"INSERT INTO reminder_settings ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT (user_id) DO UPDATE SET leads = excluded.leads, via = excluded.via, "
            "digest = excluded.digest, digest_hour = excluded.digest_hour, "
            "zone = excluded.zone, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, digest_next = excluded.digest_next, "
            "updated_at = excluded.updated_at",
            (
                row.user_id, row.leads, row.via, int(row.digest), row.digest_hour, row.zone,
                row.quiet_start, row.quiet_end, row.digest_next, row.updated_at,
            ),
        )  # fmt: skip
        await self._exec(
            "DELETE FROM reminder_plans WHERE game_id IN "
            "(SELECT game_id FROM seats WHERE user_id = ?)",
            (row.user_id,),
        )

    async def reminder_marks(self, game_id: str, step: int) -> dict[int, set[str]]:
        rows = await self._all(
            "SELECT user_id, slot FROM reminder_marks WHERE game_id = ? AND turn = ?",
            (game_id, step),
        )
        marks: dict[int, set[str]] = {}
        for r in rows:
            marks.setdefault(int(r["user_id"]), set()).add(r["slot"])
        return marks

    async def mark_reminders(
        self, game_id: str, step: int, user_id: int, slots: Sequence[str], now: float
    ) -> set[str]:
        marked: set[str] = set()
        for slot in slots:
            # ON CONFLICT DO NOTHING: on PostgreSQL a second process inserting the same mark
            # waits for the first one's transaction and, once it commits, marks nothing.
            row = await self._one(
                "INSERT INTO reminder_marks (game_id, turn, user_id, slot, sent_at) "
                "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING RETURNING slot",
                (game_id, step, user_id, slot, now),
            )
            if row is not None:
                marked.add(slot)
        return marked

    async def forget_reminders(self, game_id: str, step: int) -> None:
        await self._exec(
            "DELETE FROM reminder_marks WHERE game_id = ? AND turn = ?", (game_id, step)
        )

    async def plan_reminders(self, game_id: str, step: int, next_at: float, now: float) -> None:
        await self._exec(
            "INSERT INTO reminder_plans (game_id, turn, next_at, planned_at) VALUES (?,?,?,?) "
            "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, "
            "next_at = excluded.next_at, planned_at = excluded.planned_at",
            (game_id, step, next_at, now),
        )
        await self._exec(
            "DELETE FROM reminder_marks WHERE game_id = ? AND turn < ?", (game_id, step)
        )

    async def reminder_plans(self) -> dict[str, tuple[int, float]]:
        rows = await self._all(
            "SELECT p.game_id, p.turn, p.next_at FROM reminder_plans p "
            "JOIN games g ON g.id = p.game_id WHERE g.status = 'active'"
        )
        return {r["game_id"]: (int(r["turn"]), float(r["next_at"])) for r in rows}

    async def digests_due(self, now: float, limit: int = 100) -> list[ReminderSettingsRow]:
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM reminder_settings WHERE digest_next IS NOT NULL "
            "AND digest_next <= ? ORDER BY digest_next LIMIT ?",
            (now, limit),
        )
        return [self._settings(r) for r in rows]

    async def advance_digest(self, user_id: int, expected: float, next_at: float) -> bool:
        # The compare-and-set: on PostgreSQL a second process's UPDATE waits for the first and
        # then finds digest_next moved (read committed re-checks the row): 0 rows.
        changed = await self._exec(
            "UPDATE reminder_settings SET digest_next = ? WHERE user_id = ? AND digest_next = ?",
            (next_at, user_id, expected),
        )
        return changed == 1

    async def next_digest_at(self) -> float | None:
        row = await self._one("SELECT MIN(digest_next) AS at FROM reminder_settings")
        return None if row is None or row["at"] is None else float(row["at"])
