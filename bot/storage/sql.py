"""The SQL both backends share, one mixin per part of :class:`bot.storage.base.Transaction`
(the league part is in ``leagues.py``); each backend composes them with its primitives.

A backend (``sqlite.py``, ``postgres.py``) supplies the primitives of :class:`SqlPrimitives`:
statements written with ``?`` placeholders (PostgreSQL numbers them), booleans passed as Python
``bool`` (SQLite stores 0/1, PostgreSQL ``boolean``), the one expression that differs (the seats
of a game as a JSON array), and the locks that stand in for SQLite's single writer on a server
with many (``FOR UPDATE`` on the game or league a write transaction reads, and a named lock
around a read-then-write that has no row to lock yet).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any, Protocol

from bot.storage.base import (
    DiceStore,
    GameRow,
    GameStore,
    OrderRow,
    OrderStore,
    OutboxRow,
    OutboxStore,
    PackRow,
    PackStore,
    PreferenceStore,
    SeasonRow,
    SeasonStore,
    SeatRow,
    StorageError,
    StreamRow,
    VersionConflict,
)

GAME_COLUMNS = (
    "id, ruleset, guild_id, channel_id, status, options, state, version, turn, outcome, "
    "end_reason, result, turn_seconds, step_seconds, deadline_at, reminders_sent, "
    "paused_remaining, prompt_outbox_id, created_by, created_at, updated_at"
)
MUTABLE = (
    "status",
    "options",
    "state",
    "version",
    "turn",
    "outcome",
    "end_reason",
    "result",
    "turn_seconds",
    "step_seconds",
    "deadline_at",
    "reminders_sent",
    "paused_remaining",
    "prompt_outbox_id",
    "updated_at",
)


class Row(Protocol):
    """A result row by column name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str, /) -> Any: ...


def numbered_migrations(folder: str) -> list[tuple[int, str]]:
    """The numbered SQL files of a folder of ``bot.storage``, in order: ``001_x.sql`` → (1, sql).

    ``migrations`` holds SQLite's, ``migrations/postgresql`` PostgreSQL's: the same numbers
    for the same changes, so a database of either records the same schema versions.
    """
    found = []
    for entry in (resources.files("bot.storage") / folder).iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text("utf-8")))
    return sorted(found)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class SqlPrimitives(ABC):
    """What each backend provides to the shared SQL."""

    #: The seats of ``games`` (the outer row) as a JSON array of
    #: ``[seat, position, user_id, name, dm_open, accepted, left_turn]``; '[]' when none.
    SEATS_JSON: str

    @abstractmethod
    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None: ...
    @abstractmethod
    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]: ...
    @abstractmethod
    async def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def _many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None: ...

    @abstractmethod
    def _for_update(self) -> str:
        """The clause that locks the rows a write transaction reads until it ends ('' where the
        backend has one writer at a time)."""

    def _skip_locked(self) -> str:
        """The clause of a claim's inner SELECT: rows another process is claiming are passed
        over, not waited for ('' where the backend has one writer at a time)."""
        return ""

    async def _notify(self, channel: str) -> None:
        """Wake the other processes' workers of ``channel`` when this transaction commits
        (nothing where one process uses the database)."""
        return None

    @abstractmethod
    async def _serialize(self, name: str) -> None:
        """Hold a lock called ``name`` until the transaction ends (nothing where the backend has
        one writer at a time): for a read-then-write with no row to lock yet."""


# --- games, seats, states, events ------------------------------------------------------------


class SqlGames(SqlPrimitives, GameStore):
    async def _games(self, where: str, params: tuple[Any, ...], tail: str = "") -> list[GameRow]:
        # The seats come along as a JSON array in the same statement: one hop, not two.
        rows = await self._all(
            f"SELECT {GAME_COLUMNS}, {self.SEATS_JSON} AS seats_json FROM games "
            f"WHERE {where}{tail}",
            params,
        )
        return [self._game(r) for r in rows]

    @staticmethod
    def _game(r: Row) -> GameRow:
        return GameRow(
            id=r["id"],
            ruleset=r["ruleset"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            status=r["status"],
            options=json.loads(r["options"]),
            seats=sorted(
                (
                    SeatRow(
                        seat,
                        user_id,
                        name,
                        position,
                        None if dm is None else bool(dm),
                        bool(accepted),
                        left,
                    )
                    for seat, position, user_id, name, dm, accepted, left in json.loads(
                        r["seats_json"]
                    )
                ),
                key=lambda seat: seat.position,
            ),
            state=json.loads(r["state"]) if r["state"] else None,
            version=r["version"],
            step=r["turn"],
            outcome=r["outcome"],
            end_reason=r["end_reason"],
            result=json.loads(r["result"]) if r["result"] else None,
            turn_seconds=r["turn_seconds"],
            step_seconds=r["step_seconds"],
            deadline_at=r["deadline_at"],
            reminders_sent=r["reminders_sent"],
            paused_remaining=r["paused_remaining"],
            prompt_outbox_id=r["prompt_outbox_id"],
            created_by=r["created_by"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )

    async def insert_game(self, game: GameRow) -> None:
        await self._exec(
            f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({','.join('?' * 21)})",
            (
                game.id,
                game.ruleset,
                game.guild_id,
                game.channel_id,
                game.status,
                dumps(game.options),
                dumps(game.state) if game.state is not None else None,
                game.version,
                game.step,
                game.outcome,
                game.end_reason,
                dumps(game.result) if game.result is not None else None,
                game.turn_seconds,
                game.step_seconds,
                game.deadline_at,
                game.reminders_sent,
                game.paused_remaining,
                game.prompt_outbox_id,
                game.created_by,
                game.created_at,
                game.updated_at,
            ),
        )
        await self._many(
            "INSERT INTO seats (game_id, seat, position, user_id, name, dm_open, accepted) "
            "VALUES (?,?,?,?,?,?,?)",
            [
                (game.id, s.seat, s.position, s.user_id, s.name, s.dm_open, bool(s.accepted))
                for s in game.seats
            ],
        )

    async def get_game(self, game_id: str) -> GameRow | None:
        games = await self._games("id = ?", (game_id,), self._for_update())
        return games[0] if games else None

    async def update_game(self, game: GameRow, *, expect_version: int | None = None) -> None:
        values = {
            "status": game.status,
            "options": dumps(game.options),
            "state": dumps(game.state) if game.state is not None else None,
            "version": game.version,
            "turn": game.step,
            "outcome": game.outcome,
            "end_reason": game.end_reason,
            "result": dumps(game.result) if game.result is not None else None,
            "turn_seconds": game.turn_seconds,
            "step_seconds": game.step_seconds,
            "deadline_at": game.deadline_at,
            "reminders_sent": game.reminders_sent,
            "paused_remaining": game.paused_remaining,
            "prompt_outbox_id": game.prompt_outbox_id,
            "updated_at": game.updated_at,
        }
        assignments = ", ".join(f"{col} = ?" for col in MUTABLE)
        params = [values[col] for col in MUTABLE] + [game.id]
        sql = f"UPDATE games SET {assignments} WHERE id = ?"
        if expect_version is not None:
            # The compare-and-set. On PostgreSQL (read committed) a writer that committed first
            # makes this UPDATE re-check the new row, whose version no longer matches: 0 rows.
            sql += " AND version = ?"
            params.append(expect_version)
        if await self._exec(sql, tuple(params)) != 1:
            if expect_version is not None:
                raise VersionConflict(f"game {game.id} is no longer at version {expect_version}")
            raise StorageError(f"game {game.id} not found")

    async def games_for_user(self, user_id: int, statuses: tuple[str, ...]) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        return await self._games(
            f"status IN ({marks}) AND id IN (SELECT game_id FROM seats WHERE user_id = ?) "
            "ORDER BY created_at",
            (*statuses, user_id),
        )

    async def games_in_channel(self, channel_id: int, statuses: tuple[str, ...]) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        return await self._games(
            f"channel_id = ? AND status IN ({marks}) ORDER BY created_at", (channel_id, *statuses)
        )

    async def games_with_status(self, statuses: tuple[str, ...]) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        return await self._games(f"status IN ({marks}) ORDER BY created_at", statuses)

    async def games_of_ruleset(
        self, guild_id: int, ruleset: str, since: float = 0.0
    ) -> list[GameRow]:
        # Games created in the same instant keep the order of their numbers (g-9999 before
        # g-10000: by length, then by text).
        return await self._games(
            "guild_id = ? AND ruleset = ? AND created_at >= ? ORDER BY created_at, length(id), id",
            (guild_id, ruleset, since),
        )

    async def due_games(self, now: float) -> list[GameRow]:
        # Reminders fall at half time and at 10 % left, so any game within its last half is a
        # candidate; the table decides what (if anything) is due.
        return await self._games(
            "status = 'active' AND deadline_at IS NOT NULL AND step_seconds IS NOT NULL "
            "AND deadline_at - step_seconds * 0.5 <= ? ORDER BY deadline_at",
            (now,),
        )

    async def set_accepted(self, game_id: str, seat: str) -> None:
        await self._exec(
            "UPDATE seats SET accepted = TRUE WHERE game_id = ? AND seat = ?", (game_id, seat)
        )

    async def set_left(self, game_id: str, seat: str, turn: int) -> None:
        await self._exec(
            "UPDATE seats SET left_turn = ? WHERE game_id = ? AND seat = ?", (turn, game_id, seat)
        )

    async def set_dm_open(self, game_id: str, seat: str, is_open: bool) -> None:
        await self._exec(
            "UPDATE seats SET dm_open = ? WHERE game_id = ? AND seat = ?",
            (bool(is_open), game_id, seat),
        )

    async def seat_memos(self, game_id: str) -> dict[str, Any]:
        rows = await self._all(
            "SELECT seat, prompt_memo FROM seats WHERE game_id = ? AND prompt_memo IS NOT NULL",
            (game_id,),
        )
        return {r["seat"]: json.loads(r["prompt_memo"]) for r in rows}

    async def set_seat_memo(self, game_id: str, seat: str, memo: Any) -> None:
        await self._exec(
            "UPDATE seats SET prompt_memo = ? WHERE game_id = ? AND seat = ?",
            (dumps(memo), game_id, seat),
        )

    async def next_game_number(self) -> int:
        # Two creators counting at once would both take the same id: the second counts after the
        # first has committed (its own statement, so it reads past the wait).
        await self._serialize("games.number")
        row = await self._one("SELECT COUNT(*) AS n FROM games")
        assert row is not None
        return int(row["n"]) + 1

    async def put_state(self, game_id: str, version: int, turn: int, state: dict[str, Any]) -> None:
        await self._exec(
            "INSERT INTO states (game_id, version, turn, state) VALUES (?,?,?,?)",
            (game_id, version, turn, dumps(state)),
        )

    async def get_state(self, game_id: str, version: int) -> dict[str, Any] | None:
        row = await self._one(
            "SELECT state FROM states WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return json.loads(row["state"]) if row else None

    async def add_events(self, game_id: str, turn: int, events: list[dict[str, Any]]) -> None:
        # MAX + 1 is safe: events are written by the transaction that holds the game.
        row = await self._one(
            "SELECT COALESCE(MAX(seq), -1) AS m FROM events WHERE game_id = ? AND turn = ?",
            (game_id, turn),
        )
        start = (row["m"] if row else -1) + 1
        await self._many(
            "INSERT INTO events (game_id, turn, seq, data) VALUES (?,?,?,?)",
            [(game_id, turn, start + i, dumps(e)) for i, e in enumerate(events)],
        )

    async def events(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._all(
            "SELECT turn, data FROM events WHERE game_id = ? ORDER BY turn, seq", (game_id,)
        )
        return [(r["turn"], json.loads(r["data"])) for r in rows]


# --- orders ----------------------------------------------------------------------------------


class SqlOrders(SqlPrimitives, OrderStore):
    @staticmethod
    def _order(r: Row) -> OrderRow:
        return OrderRow(
            r["game_id"],
            r["turn"],
            r["seat"],
            r["text"],
            r["salt"],
            r["receipt"],
            r["user_id"],
            bool(r["defaulted"]),
            r["revisions"],
            r["submitted_at"],
            bool(r["withheld"]),
        )

    async def put_order(self, order: OrderRow) -> OrderRow:
        # One statement (an upsert is atomic on both backends): two submissions for one seat
        # count two revisions, never lose one.
        row = await self._one(
            "INSERT INTO orders (game_id, turn, seat, text, salt, receipt, user_id, defaulted, "
            "revisions, submitted_at, withheld) VALUES (?,?,?,?,?,?,?,?,1,?,?) "
            "ON CONFLICT (game_id, turn, seat) DO UPDATE SET text = excluded.text, "
            "salt = excluded.salt, receipt = excluded.receipt, user_id = excluded.user_id, "
            "defaulted = excluded.defaulted, revisions = orders.revisions + 1, "
            "submitted_at = excluded.submitted_at, withheld = excluded.withheld RETURNING *",
            (
                order.game_id,
                order.turn,
                order.seat,
                order.text,
                order.salt,
                order.receipt,
                order.user_id,
                bool(order.defaulted),
                order.submitted_at,
                bool(order.withheld),
            ),
        )
        assert row is not None
        return self._order(row)

    async def set_withheld(
        self, game_id: str, turn: int, seats: Iterable[str] | None, withheld: bool
    ) -> None:
        if seats is None:
            await self._exec(
                "UPDATE orders SET withheld = ? WHERE game_id = ? AND turn = ?",
                (bool(withheld), game_id, turn),
            )
            return
        await self._many(
            "UPDATE orders SET withheld = ? WHERE game_id = ? AND turn = ? AND seat = ?",
            [(bool(withheld), game_id, turn, seat) for seat in seats],
        )

    async def orders_for_turn(self, game_id: str, turn: int) -> dict[str, OrderRow]:
        rows = await self._all(
            "SELECT * FROM orders WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return {r["seat"]: self._order(r) for r in rows}

    async def all_orders(self, game_id: str) -> list[OrderRow]:
        rows = await self._all(
            "SELECT * FROM orders WHERE game_id = ? ORDER BY turn, seat", (game_id,)
        )
        return [self._order(r) for r in rows]


# --- dice streams and /roll seed chains ------------------------------------------------------


class SqlDice(SqlPrimitives, DiceStore):
    async def put_stream(self, stream: StreamRow) -> None:
        await self._exec(
            "INSERT INTO dice_streams (game_id, turn, phase, seed, commitment, orders_digest, "
            "drawn, revealed, blocks, step) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                stream.game_id,
                stream.turn,
                stream.phase,
                stream.seed,
                stream.commitment,
                stream.orders_digest,
                dumps(stream.drawn),
                bool(stream.revealed),
                stream.blocks,
                stream.step,
            ),
        )

    async def streams(self, game_id: str, turn: int | None = None) -> list[StreamRow]:
        sql = "SELECT * FROM dice_streams WHERE game_id = ?"
        params: tuple[Any, ...] = (game_id,)
        if turn is not None:
            sql += " AND turn = ?"
            params = (game_id, turn)
        rows = await self._all(sql + " ORDER BY turn, phase", params)
        return [
            StreamRow(
                r["game_id"],
                r["turn"],
                r["phase"],
                r["seed"],
                r["commitment"],
                r["orders_digest"],
                json.loads(r["drawn"]),
                bool(r["revealed"]),
                r["blocks"],
                r["step"],
            )
            for r in rows
        ]

    async def update_stream(self, stream: StreamRow) -> None:
        await self._exec(
            "UPDATE dice_streams SET orders_digest = ?, drawn = ?, revealed = ?, blocks = ?, "
            "step = ? WHERE game_id = ? AND turn = ? AND phase = ?",
            (
                stream.orders_digest,
                dumps(stream.drawn),
                bool(stream.revealed),
                stream.blocks,
                stream.step,
                stream.game_id,
                stream.turn,
                stream.phase,
            ),
        )

    async def roll_stream(self, scope_id: int) -> tuple[int, str] | None:
        # Two rolls in one channel at once must not both take the committed seed (nor both
        # start a chain): the scope is held until this roll's transaction ends.
        await self._serialize(f"roll:{scope_id}")
        row = await self._one(
            "SELECT next_number, seed FROM roll_streams WHERE scope_id = ?", (scope_id,)
        )
        return (row["next_number"], row["seed"]) if row else None

    async def set_roll_stream(self, scope_id: int, number: int, seed: str, commitment: str) -> None:
        await self._exec(
            "INSERT INTO roll_streams (scope_id, next_number, seed, commitment) VALUES (?,?,?,?) "
            "ON CONFLICT (scope_id) DO UPDATE SET next_number = excluded.next_number, "
            "seed = excluded.seed, commitment = excluded.commitment",
            (scope_id, number, seed, commitment),
        )


# --- outbox ----------------------------------------------------------------------------------


class SqlOutbox(SqlPrimitives, OutboxStore):
    @staticmethod
    def _outbox(r: Row) -> OutboxRow:
        return OutboxRow(
            id=r["id"],
            game_id=r["game_id"],
            kind=r["kind"],
            target_id=r["target_id"],
            ref_id=r["ref_id"],
            payload=json.loads(r["payload"]),
            nonce=r["nonce"],
            status=r["status"],
            message_id=r["message_id"],
            channel_id=r["channel_id"],
            attempts=r["attempts"],
            not_before=r["not_before"],
            created_at=r["created_at"],
            parts_sent=r["parts_sent"],
        )

    async def enqueue(
        self,
        *,
        game_id: str | None,
        kind: str,
        target_id: int | None,
        payload: dict[str, Any],
        nonce: str,
        ref_id: int | None = None,
        now: float,
    ) -> int:
        row = await self._one(
            "INSERT INTO outbox (game_id, kind, target_id, ref_id, payload, nonce, created_at) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT (nonce) DO NOTHING RETURNING id",
            (game_id, kind, target_id, ref_id, dumps(payload), nonce, now),
        )
        if row is None:  # enqueued before (a retried transaction): the stored row's id
            row = await self._one("SELECT id FROM outbox WHERE nonce = ?", (nonce,))
        else:
            await self._notify("outbox")
        assert row is not None
        return int(row["id"])

    async def pending_outbox(
        self, now: float, limit: int = 50, *, after_id: int = 0
    ) -> list[OutboxRow]:
        rows = await self._all(
            "SELECT * FROM outbox WHERE status = 'pending' AND not_before <= ? AND id > ? "
            "ORDER BY id LIMIT ?",
            (now, after_id, limit),
        )
        return [self._outbox(r) for r in rows]

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        row = await self._one("SELECT * FROM outbox WHERE id = ?", (outbox_id,))
        return self._outbox(row) if row else None

    async def mark_sent(
        self, outbox_id: int, message_id: int | None, channel_id: int | None, now: float
    ) -> None:
        # The claim ends with the post (``claimed_by`` stays: who posted it).
        await self._exec(
            "UPDATE outbox SET status = 'sent', message_id = ?, channel_id = ?, sent_at = ?, "
            "attempts = attempts + 1, lease_until = NULL WHERE id = ?",
            (message_id, channel_id, now, outbox_id),
        )

    async def mark_failed(self, outbox_id: int, error: str, *, retry_at: float | None) -> None:
        if retry_at is None:
            await self._exec(
                "UPDATE outbox SET status = 'failed', last_error = ?, attempts = attempts + 1 "
                "WHERE id = ?",
                (error, outbox_id),
            )
        else:
            # The claim ends with the attempt: whoever is free when the retry falls due takes it.
            await self._exec(
                "UPDATE outbox SET last_error = ?, attempts = attempts + 1, not_before = ?, "
                "lease_until = NULL WHERE id = ?",
                (error, retry_at, outbox_id),
            )

    async def mark_parts_sent(self, outbox_id: int, parts_sent: int) -> None:
        # Only forward: a slower sender that posted fewer parts never moves the count back.
        await self._exec(
            "UPDATE outbox SET parts_sent = ? WHERE id = ? AND parts_sent < ?",
            (parts_sent, outbox_id, parts_sent),
        )

    async def update_outbox_payload(self, outbox_id: int, payload: dict[str, Any]) -> None:
        await self._exec("UPDATE outbox SET payload = ? WHERE id = ?", (dumps(payload), outbox_id))

    async def supersede_edits(self, ref_id: int, below_id: int) -> None:
        await self._exec(
            "UPDATE outbox SET status = 'superseded' WHERE kind = 'edit' AND ref_id = ? "
            "AND id < ? AND status = 'pending'",
            (ref_id, below_id),
        )

    async def outbox_for_game(self, game_id: str, after_id: int = 0) -> list[OutboxRow]:
        rows = await self._all(
            "SELECT * FROM outbox WHERE game_id = ? AND id > ? ORDER BY id", (game_id, after_id)
        )
        return [self._outbox(r) for r in rows]

    async def dm_channel(self, user_id: int) -> int | None:
        row = await self._one(
            "SELECT channel_id FROM outbox WHERE target_id = ? AND kind = 'dm' "
            "AND status = 'sent' AND channel_id IS NOT NULL ORDER BY id DESC LIMIT 1",
            (user_id,),
        )
        return None if row is None else int(row["channel_id"])


# --- a server's own data packs ---------------------------------------------------------------


class SqlPacks(SqlPrimitives, PackStore):
    async def server_pack(self, guild_id: int, ruleset: str) -> PackRow | None:
        row = await self._one(
            "SELECT guild_id, ruleset, pack, hash, set_by, set_at FROM rule_packs "
            "WHERE guild_id = ? AND ruleset = ?",
            (guild_id, ruleset),
        )
        if row is None:
            return None
        return PackRow(
            row["guild_id"], row["ruleset"], row["pack"], row["hash"], row["set_by"], row["set_at"]
        )

    async def set_server_pack(self, row: PackRow) -> None:
        await self._exec(
            "INSERT INTO rule_packs (guild_id, ruleset, pack, hash, set_by, set_at) "
            "VALUES (?,?,?,?,?,?) ON CONFLICT (guild_id, ruleset) DO UPDATE SET "
            "pack = excluded.pack, hash = excluded.hash, set_by = excluded.set_by, "
            "set_at = excluded.set_at",
            (row.guild_id, row.ruleset, row.pack, row.hash, row.set_by, row.set_at),
        )

    async def clear_server_pack(self, guild_id: int, ruleset: str) -> bool:
        done = await self._exec(
            "DELETE FROM rule_packs WHERE guild_id = ? AND ruleset = ?", (guild_id, ruleset)
        )
        return done > 0


# --- seasons ---------------------------------------------------------------------------------


class SqlSeasons(SqlPrimitives, SeasonStore):
    @staticmethod
    def _season(r: Row) -> SeasonRow:
        return SeasonRow(r["guild_id"], r["ruleset"], r["number"], r["started_at"], r["started_by"])

    async def current_season(self, guild_id: int, ruleset: str) -> SeasonRow | None:
        row = await self._one(
            "SELECT guild_id, ruleset, number, started_at, started_by FROM seasons "
            "WHERE guild_id = ? AND ruleset = ? ORDER BY number DESC LIMIT 1",
            (guild_id, ruleset),
        )
        return self._season(row) if row else None

    async def start_season(
        self, guild_id: int, ruleset: str, started_by: int, now: float
    ) -> SeasonRow:
        # Two starts at once would both read the same highest number: the second waits for the
        # first to commit (PostgreSQL; SQLite has one writer), then numbers after it. The
        # statement reads past that wait, so it sees the first's season.
        await self._serialize(f"season:{guild_id}:{ruleset}")
        row = await self._one(
            "INSERT INTO seasons (guild_id, ruleset, number, started_at, started_by) "
            "SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ? FROM seasons "
            "WHERE guild_id = ? AND ruleset = ? "
            "RETURNING guild_id, ruleset, number, started_at, started_by",
            (guild_id, ruleset, now, started_by, guild_id, ruleset),
        )
        assert row is not None
        return self._season(row)


# --- preferences -----------------------------------------------------------------------------


class SqlPreferences(SqlPrimitives, PreferenceStore):
    async def guild_language(self, guild_id: int) -> str | None:
        row = await self._one("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row["language"] if row else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        await self._exec(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )

    async def guild_deadlines(self, guild_id: int) -> tuple[str, int] | None:
        row = await self._one(
            "SELECT preset, step_minutes FROM deadline_settings WHERE guild_id = ?", (guild_id,)
        )
        return (row["preset"], int(row["step_minutes"])) if row else None

    async def set_guild_deadlines(
        self, guild_id: int, preset: str, step_minutes: int, now: float
    ) -> None:
        await self._exec(
            "INSERT INTO deadline_settings (guild_id, preset, step_minutes, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET preset = excluded.preset, "
            "step_minutes = excluded.step_minutes, updated_at = excluded.updated_at",
            (guild_id, preset, step_minutes, now),
        )

    async def user_locale(self, user_id: int) -> str | None:
        row = await self._one("SELECT locale FROM user_settings WHERE user_id = ?", (user_id,))
        return row["locale"] if row else None

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self._exec(
            "INSERT INTO user_settings (user_id, locale) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale),
        )
