"""The SQL of :class:`bot.storage.privacy_store.PrivacyStore`, shared by both backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.privacy_store import ForgottenRow, PersonalOrder, PrivacyStore, RatingLine
from bot.storage.sql import SqlPrimitives

# Where a user id is kept for others' sake, replaced by the forgotten user's pseudonym: (table,
# column). Seats, orders and handovers keep games and their records whole; missed deadlines
# count in a league's table; games and seasons say who created them.
_PSEUDONYMISED = (
    ("seats", "user_id"),
    ("orders", "user_id"),
    ("handovers", "from_user"),
    ("handovers", "to_user"),
    ("handovers", "by_user"),
    ("missed_deadlines", "user_id"),
    ("games", "created_by"),
    ("seasons", "started_by"),
)
# The roster ledger keeps players as text (the user id's digits).
_LEDGER = (("roster_ledger", "player"), ("roster_ledger", "by"))


class SqlPrivacy(SqlPrimitives, PrivacyStore):
    """:class:`PrivacyStore` over the backend's primitives (``?`` placeholders)."""

    async def orders_of_user(self, user_id: int) -> list[PersonalOrder]:
        rows = await self._all(
            "SELECT game_id, turn, seat, text, receipt, defaulted, withheld, revisions, "
            "submitted_at FROM orders WHERE user_id = ? ORDER BY game_id, turn, seat",
            (user_id,),
        )
        return [
            PersonalOrder(
                r["game_id"], r["turn"], r["seat"], r["text"], r["receipt"], bool(r["defaulted"]),
                bool(r["withheld"]), r["revisions"], r["submitted_at"],
            )
            for r in rows
        ]  # fmt: skip

    async def seasons_started_by(self, user_id: int) -> list[tuple[int, str, int, float]]:
        rows = await self._all(
            "SELECT guild_id, ruleset, number, started_at FROM seasons WHERE started_by = ? "
            "ORDER BY started_at, guild_id, ruleset",
            (user_id,),
        )
        return [(r["guild_id"], r["ruleset"], r["number"], r["started_at"]) for r in rows]

    async def leagues_naming(self, user_id: int) -> list[tuple[str, int, dict[str, Any]]]:
        # Players are stored as strings of the id's digits: a quoted match is a player, never a
        # longer id that merely contains these digits.
        rows = await self._all(
            "SELECT id, version, data FROM leagues WHERE data LIKE ? ORDER BY id",
            (f'%"{int(user_id)}"%',),
        )
        return [(r["id"], r["version"], json.loads(r["data"])) for r in rows]

    async def ledger_lines_of(self, user_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT seq, league_id, player, unit, kind, at, by, ref, note FROM roster_ledger "
            "WHERE player = ? OR by = ? ORDER BY seq",
            (str(user_id), str(user_id)),
        )
        return [
            {
                "league": r["league_id"], "player": r["player"], "unit": r["unit"],
                "kind": r["kind"], "at": r["at"], "by": r["by"], "ref": r["ref"],
                "note": r["note"],
            }
            for r in rows
        ]  # fmt: skip

    async def ratings_of(self, user_id: int) -> list[RatingLine]:
        rows = await self._all(
            "SELECT guild_id, ruleset, mu, sigma, games, updated_at FROM ratings "
            "WHERE player = ? ORDER BY guild_id, ruleset",
            (str(user_id),),
        )
        return [
            RatingLine(
                r["guild_id"], r["ruleset"], float(r["mu"]), float(r["sigma"]), int(r["games"]),
                float(r["updated_at"]),
            )
            for r in rows
        ]  # fmt: skip

    async def misses_of_user(self, user_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT game_id, turn, seat, deadline_at, excused, waited_until FROM "
            "missed_deadlines WHERE user_id = ? ORDER BY deadline_at, game_id",
            (user_id,),
        )
        return [
            {
                "game": r["game_id"], "step": r["turn"], "seat": r["seat"],
                "deadline_at": r["deadline_at"], "excused": bool(r["excused"]),
                "waited_until": r["waited_until"],
            }
            for r in rows
        ]  # fmt: skip

    async def handovers_naming(self, user_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT game_id, seq, turn, seat, from_user, from_name, to_user, to_name, by_user, "
            "at FROM handovers WHERE from_user = ? OR to_user = ? OR by_user = ? "
            "ORDER BY at, game_id, seq",
            (user_id, user_id, user_id),
        )
        return [
            {
                "game": r["game_id"], "number": r["seq"], "step": r["turn"], "seat": r["seat"],
                "from": r["from_name"] if r["from_user"] == user_id else None,
                "to": r["to_name"] if r["to_user"] == user_id else None,
                "role": (
                    "gave" if r["from_user"] == user_id
                    else "took" if r["to_user"] == user_id
                    else "moderated"
                ),
                "at": r["at"],
            }
            for r in rows
        ]  # fmt: skip

    async def offers_of_user(self, user_id: int) -> list[tuple[str, str, float]]:
        rows = await self._all(
            "SELECT game_id, seat, offered_at FROM seat_offers WHERE user_id = ? ORDER BY game_id",
            (user_id,),
        )
        return [(r["game_id"], r["seat"], r["offered_at"]) for r in rows]

    async def forgotten_players(self, game_id: str) -> list[ForgottenRow]:
        rows = await self._all(
            "SELECT game_id, label, players_digest, at FROM forgotten_players WHERE game_id = ? "
            "ORDER BY at, label",
            (game_id,),
        )
        return [ForgottenRow(r["game_id"], r["label"], r["players_digest"], r["at"]) for r in rows]

    async def add_forgotten(self, row: ForgottenRow) -> None:
        await self._exec(
            "INSERT INTO forgotten_players (game_id, label, players_digest, at) VALUES (?,?,?,?) "
            "ON CONFLICT (game_id, label) DO NOTHING",
            (row.game_id, row.label, row.players_digest, row.at),
        )

    async def rename_seats(self, game_id: str, user_id: int, name: str) -> int:
        return await self._exec(
            "UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?",
            (name, game_id, user_id),
        )

    async def rename_in_handovers(self, game_id: str, user_id: int, name: str) -> int:
        gave = await self._exec(
            "UPDATE handovers SET from_name = ? WHERE game_id = ? AND from_user = ?",
            (name, game_id, user_id),
        )
        took = await self._exec(
            "UPDATE handovers SET to_name = ? WHERE game_id = ? AND to_user = ?",
            (name, game_id, user_id),
        )
        return gave + took

    async def pseudonymise(self, user_id: int, pseudonym: int) -> dict[str, int]:
        changed: dict[str, int] = {}
        for table, column in _PSEUDONYMISED:
            n = await self._exec(
                f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (pseudonym, user_id)
            )
            changed[table] = changed.get(table, 0) + n
        for table, column in _LEDGER:  # the migration's trigger allows exactly this change
            n = await self._exec(
                f"UPDATE {table} SET {column} = ? WHERE {column} = ?",
                (str(pseudonym), str(user_id)),
            )
            changed[table] = changed.get(table, 0) + n
        return changed

    async def erase_personal(self, user_id: int, dm_channels: Sequence[int]) -> dict[str, int]:
        erased: dict[str, int] = {}
        for table, column in (
            ("user_settings", "user_id"),
            ("reminder_settings", "user_id"),
            ("reminder_marks", "user_id"),
            ("absences", "user_id"),
            ("seat_offers", "user_id"),
        ):
            erased[table] = await self._exec(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
        erased["ratings"] = await self._exec(
            "DELETE FROM ratings WHERE player = ?", (str(user_id),)
        )
        # An edit of a DM that is going away has nothing left to edit.
        await self._exec(
            "UPDATE outbox SET status = 'superseded' WHERE kind = 'edit' AND status = 'pending' "
            "AND ref_id IN (SELECT id FROM outbox WHERE kind = 'dm' AND target_id = ?)",
            (user_id,),
        )
        erased["outbox"] = await self._exec(
            "DELETE FROM outbox WHERE kind = 'dm' AND target_id = ?", (user_id,)
        )
        scopes = sorted({user_id, *dm_channels})
        marks = ",".join("?" * len(scopes))
        erased["roll_streams"] = await self._exec(
            f"DELETE FROM roll_streams WHERE scope_id IN ({marks})", tuple(scopes)
        )
        return erased
