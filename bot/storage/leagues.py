"""League storage, shared by both backends: league documents, league matches and the
append-only roster ledger (the league part of the transaction interface; ``sql.py`` holds the
others).

Kept apart so the game tables and the league tables each have one obvious place. The ledger's
append-only rule is the database's own (a trigger in each backend's migrations), not this code's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.base import LeagueRow, LeagueStore, VersionConflict
from bot.storage.sql import Row, SqlPrimitives


class SqlLeagues(SqlPrimitives, LeagueStore):
    """League documents, league matches and the append-only roster ledger. The documents are
    plain JSON: storage knows nothing of what a league holds."""

    @staticmethod
    def _league(r: Row) -> LeagueRow:
        return LeagueRow(
            id=r["id"],
            guild_id=r["guild_id"],
            name=r["name"],
            status=r["status"],
            version=r["version"],
            data=json.loads(r["data"]),
            next_due=r["next_due"],
        )

    async def next_league_number(self) -> int:
        await self._serialize("leagues.number")
        row = await self._one("SELECT COUNT(*) AS n FROM leagues")
        assert row is not None
        return int(row["n"]) + 1

    async def insert_league(self, league: LeagueRow, now: float) -> None:
        # DO NOTHING rather than catching the error: on PostgreSQL a failed statement spoils the
        # whole transaction, and the caller answers "name taken" from inside it.
        row = await self._one(
            "INSERT INTO leagues (id, guild_id, name, status, version, data, next_due, "
            "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT (guild_id, name) DO NOTHING RETURNING id",
            (
                league.id,
                league.guild_id,
                league.name,
                league.status,
                league.version,
                json.dumps(league.data, ensure_ascii=False),
                league.next_due,
                now,
                now,
            ),
        )
        if row is None:
            raise VersionConflict(f"league {league.name!r} exists in this server")

    async def get_league(self, league_id: str) -> LeagueRow | None:
        row = await self._one(
            f"SELECT * FROM leagues WHERE id = ?{self._for_update()}", (league_id,)
        )
        return self._league(row) if row else None

    async def leagues_in_guild(self, guild_id: int) -> list[LeagueRow]:
        rows = await self._all(
            "SELECT * FROM leagues WHERE guild_id = ? AND status = 'active' ORDER BY id",
            (guild_id,),
        )
        return [self._league(r) for r in rows]

    async def active_leagues(self) -> list[LeagueRow]:
        rows = await self._all("SELECT * FROM leagues WHERE status = 'active' ORDER BY id")
        return [self._league(r) for r in rows]

    async def due_leagues(self, now: float) -> list[LeagueRow]:
        rows = await self._all(
            "SELECT * FROM leagues WHERE status = 'active' AND next_due <= ? ORDER BY next_due",
            (now,),
        )
        return [self._league(r) for r in rows]

    async def update_league(self, league: LeagueRow, *, expect_version: int, now: float) -> None:
        changed = await self._exec(
            "UPDATE leagues SET status = ?, version = ?, data = ?, next_due = ?, updated_at = ? "
            "WHERE id = ? AND version = ?",
            (
                league.status,
                league.version,
                json.dumps(league.data, ensure_ascii=False),
                league.next_due,
                now,
                league.id,
                expect_version,
            ),
        )
        if changed != 1:
            raise VersionConflict(f"league {league.id} moved past version {expect_version}")

    async def add_league_match(self, league_id: str, game_id: str) -> None:
        await self._exec(
            "INSERT INTO league_matches (game_id, league_id) VALUES (?, ?)", (game_id, league_id)
        )

    async def unrecorded_league_games(self) -> list[tuple[str, str]]:
        """(league id, game id) of league matches whose game has ended but not been recorded."""
        rows = await self._all(
            "SELECT m.league_id, m.game_id FROM league_matches m JOIN games g ON g.id = m.game_id "
            "WHERE m.recorded = FALSE AND g.status IN ('finished', 'abandoned') "
            "ORDER BY m.game_id"
        )
        return [(r["league_id"], r["game_id"]) for r in rows]

    async def mark_league_match_recorded(self, game_id: str) -> None:
        await self._exec("UPDATE league_matches SET recorded = TRUE WHERE game_id = ?", (game_id,))

    async def append_ledger(self, league_id: str, entries: Sequence[dict[str, Any]]) -> None:
        await self._many(
            "INSERT INTO roster_ledger (league_id, player, unit, kind, at, by, ref, note) "
            "VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    league_id,
                    e["player"],
                    e["unit"],
                    e["kind"],
                    e["at"],
                    e["by"],
                    e.get("ref", ""),
                    e.get("note", ""),
                )
                for e in entries
            ],
        )

    async def ledger(self, league_id: str) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT * FROM roster_ledger WHERE league_id = ? ORDER BY seq", (league_id,)
        )
        return [
            {
                "league": r["league_id"],
                "player": r["player"],
                "unit": r["unit"],
                "kind": r["kind"],
                "at": r["at"],
                "by": r["by"],
                "ref": r["ref"],
                "note": r["note"],
            }
            for r in rows
        ]

    async def ratings(self, guild_id: int, ruleset: str) -> dict[str, dict[str, Any]]:
        rows = await self._all(
            "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND ruleset = ? "
            "ORDER BY player",
            (guild_id, ruleset),
        )
        return {
            str(r["player"]): {
                "mu": float(r["mu"]),
                "sigma": float(r["sigma"]),
                "games": int(r["games"]),
            }
            for r in rows
        }

    async def put_ratings(
        self, guild_id: int, ruleset: str, rows: Mapping[str, Mapping[str, Any]], now: float
    ) -> None:
        await self._many(
            "INSERT INTO ratings (guild_id, ruleset, player, mu, sigma, games, updated_at) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT (guild_id, ruleset, player) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "updated_at = excluded.updated_at",
            [
                (
                    guild_id,
                    ruleset,
                    player,
                    float(r["mu"]),
                    float(r["sigma"]),
                    int(r["games"]),
                    now,
                )
                for player, r in sorted(rows.items())
            ],
        )
