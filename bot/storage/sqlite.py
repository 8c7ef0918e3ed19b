"""SQLite implementation of the repository (aiosqlite, WAL, foreign keys on).

Writes: one write connection per process. An asyncio lock makes each ``transaction()`` exclusive
within the process (``BEGIN IMMEDIATE`` does the same across processes), so a coroutine never
reads another's uncommitted writes on the shared connection. (Group commit was tried and dropped:
a body that waits for the bodies queued behind it to share its COMMIT waits longer than the
COMMIT itself costs in WAL with ``synchronous = NORMAL``.)

Reads that need no write (``read()``) use a small pool of read-only connections: WAL lets them
read the last committed state while a write is open, so a lookup never queues behind a
resolution or the outbox's bookkeeping.

Every statement is one hop to aiosqlite's thread (``execute_fetchall``, ``RETURNING``): under
load each hop waits a turn of the busy event loop, and the write lock is held across all of them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import (
    GameRow,
    OrderRow,
    OutboxRow,
    Repository,
    SeatRow,
    StorageError,
    StreamRow,
    Transaction,
    VersionConflict,
)
from bot.storage.leagues import SqliteLeagueStore

_GAME_COLUMNS = (
    "id, ruleset, guild_id, channel_id, status, options, state, version, turn, outcome, "
    "end_reason, result, turn_seconds, step_seconds, deadline_at, reminders_sent, "
    "paused_remaining, prompt_outbox_id, created_by, created_at, updated_at"
)
_MUTABLE = (
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


def migrations() -> list[tuple[int, str]]:
    """Numbered SQL files, in order: ``001_initial.sql`` → (1, sql)."""
    folder = resources.files("bot.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text("utf-8")))
    return sorted(found)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class SqliteTransaction(SqliteLeagueStore, Transaction):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        # One hop to the connection's thread (execute, fetch and close there), not three.
        return list(await self.conn.execute_fetchall(sql, params))

    # --- games ---------------------------------------------------------------------------------

    async def _games(self, where: str, params: tuple[Any, ...]) -> list[GameRow]:
        # The seats come along as a JSON array in the same statement: one hop, not two.
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS}, (SELECT json_group_array(json_array(s.seat, "
            "s.position, s.user_id, s.name, s.dm_open, s.accepted, s.left_turn)) FROM seats s "
            f"WHERE s.game_id = games.id) AS seats_json FROM games WHERE {where}",
            params,
        )
        return [
            GameRow(
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
                turn=r["turn"],
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
            for r in rows
        ]

    async def insert_game(self, game: GameRow) -> None:
        await self.conn.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({','.join('?' * 21)})",
            (
                game.id,
                game.ruleset,
                game.guild_id,
                game.channel_id,
                game.status,
                _dumps(game.options),
                _dumps(game.state) if game.state is not None else None,
                game.version,
                game.turn,
                game.outcome,
                game.end_reason,
                _dumps(game.result) if game.result is not None else None,
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
        await self.conn.executemany(
            "INSERT INTO seats (game_id, seat, position, user_id, name, dm_open, accepted) "
            "VALUES (?,?,?,?,?,?,?)",
            [
                (game.id, s.seat, s.position, s.user_id, s.name, s.dm_open, int(s.accepted))
                for s in game.seats
            ],
        )

    async def get_game(self, game_id: str) -> GameRow | None:
        games = await self._games("id = ?", (game_id,))
        return games[0] if games else None

    async def update_game(self, game: GameRow, *, expect_version: int | None = None) -> None:
        values = {
            "status": game.status,
            "options": _dumps(game.options),
            "state": _dumps(game.state) if game.state is not None else None,
            "version": game.version,
            "turn": game.turn,
            "outcome": game.outcome,
            "end_reason": game.end_reason,
            "result": _dumps(game.result) if game.result is not None else None,
            "turn_seconds": game.turn_seconds,
            "step_seconds": game.step_seconds,
            "deadline_at": game.deadline_at,
            "reminders_sent": game.reminders_sent,
            "paused_remaining": game.paused_remaining,
            "prompt_outbox_id": game.prompt_outbox_id,
            "updated_at": game.updated_at,
        }
        assignments = ", ".join(f"{col} = ?" for col in _MUTABLE)
        params = [values[col] for col in _MUTABLE] + [game.id]
        sql = f"UPDATE games SET {assignments} WHERE id = ?"
        if expect_version is not None:
            sql += " AND version = ?"
            params.append(expect_version)
        cur = await self.conn.execute(sql, tuple(params))
        if cur.rowcount != 1:
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

    async def due_games(self, now: float) -> list[GameRow]:
        # Reminders fall at half time and at 10 % left, so any game within its last half is a
        # candidate; the table decides what (if anything) is due.
        return await self._games(
            "status = 'active' AND deadline_at IS NOT NULL AND step_seconds IS NOT NULL "
            "AND deadline_at - step_seconds * 0.5 <= ? ORDER BY deadline_at",
            (now,),
        )

    async def set_accepted(self, game_id: str, seat: str) -> None:
        await self.conn.execute(
            "UPDATE seats SET accepted = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
        )

    async def set_left(self, game_id: str, seat: str, turn: int) -> None:
        await self.conn.execute(
            "UPDATE seats SET left_turn = ? WHERE game_id = ? AND seat = ?", (turn, game_id, seat)
        )

    async def set_dm_open(self, game_id: str, seat: str, is_open: bool) -> None:
        await self.conn.execute(
            "UPDATE seats SET dm_open = ? WHERE game_id = ? AND seat = ?",
            (int(is_open), game_id, seat),
        )

    async def next_game_number(self) -> int:
        row = await self._one("SELECT COUNT(*) AS n FROM games")
        assert row is not None
        return int(row["n"]) + 1

    # --- states --------------------------------------------------------------------------------

    async def put_state(self, game_id: str, version: int, turn: int, state: dict[str, Any]) -> None:
        await self.conn.execute(
            "INSERT INTO states (game_id, version, turn, state) VALUES (?,?,?,?)",
            (game_id, version, turn, _dumps(state)),
        )

    async def get_state(self, game_id: str, version: int) -> dict[str, Any] | None:
        row = await self._one(
            "SELECT state FROM states WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return json.loads(row["state"]) if row else None

    # --- orders --------------------------------------------------------------------------------

    @staticmethod
    def _order(r: aiosqlite.Row) -> OrderRow:
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
                int(order.defaulted),
                order.submitted_at,
                int(order.withheld),
            ),
        )
        assert row is not None
        return self._order(row)

    async def set_withheld(
        self, game_id: str, turn: int, seats: Iterable[str] | None, withheld: bool
    ) -> None:
        if seats is None:
            await self.conn.execute(
                "UPDATE orders SET withheld = ? WHERE game_id = ? AND turn = ?",
                (int(withheld), game_id, turn),
            )
            return
        await self.conn.executemany(
            "UPDATE orders SET withheld = ? WHERE game_id = ? AND turn = ? AND seat = ?",
            [(int(withheld), game_id, turn, seat) for seat in seats],
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

    # --- dice ----------------------------------------------------------------------------------

    async def put_stream(self, stream: StreamRow) -> None:
        await self.conn.execute(
            "INSERT INTO dice_streams (game_id, turn, phase, seed, commitment, orders_digest, "
            "drawn, revealed, blocks, step) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                stream.game_id,
                stream.turn,
                stream.phase,
                stream.seed,
                stream.commitment,
                stream.orders_digest,
                _dumps(stream.drawn),
                int(stream.revealed),
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
        await self.conn.execute(
            "UPDATE dice_streams SET orders_digest = ?, drawn = ?, revealed = ?, blocks = ?, "
            "step = ? WHERE game_id = ? AND turn = ? AND phase = ?",
            (
                stream.orders_digest,
                _dumps(stream.drawn),
                int(stream.revealed),
                stream.blocks,
                stream.step,
                stream.game_id,
                stream.turn,
                stream.phase,
            ),
        )

    # --- events --------------------------------------------------------------------------------

    async def add_events(self, game_id: str, turn: int, events: list[dict[str, Any]]) -> None:
        row = await self._one(
            "SELECT COALESCE(MAX(seq), -1) AS m FROM events WHERE game_id = ? AND turn = ?",
            (game_id, turn),
        )
        start = (row["m"] if row else -1) + 1
        await self.conn.executemany(
            "INSERT INTO events (game_id, turn, seq, data) VALUES (?,?,?,?)",
            [(game_id, turn, start + i, _dumps(e)) for i, e in enumerate(events)],
        )

    async def events(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._all(
            "SELECT turn, data FROM events WHERE game_id = ? ORDER BY turn, seq", (game_id,)
        )
        return [(r["turn"], json.loads(r["data"])) for r in rows]

    # --- outbox --------------------------------------------------------------------------------

    @staticmethod
    def _outbox(r: aiosqlite.Row) -> OutboxRow:
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
            (game_id, kind, target_id, ref_id, _dumps(payload), nonce, now),
        )
        if row is None:  # enqueued before (a retried transaction): the stored row's id
            row = await self._one("SELECT id FROM outbox WHERE nonce = ?", (nonce,))
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
        await self.conn.execute(
            "UPDATE outbox SET status = 'sent', message_id = ?, channel_id = ?, sent_at = ?, "
            "attempts = attempts + 1 WHERE id = ?",
            (message_id, channel_id, now, outbox_id),
        )

    async def mark_failed(self, outbox_id: int, error: str, *, retry_at: float | None) -> None:
        if retry_at is None:
            await self.conn.execute(
                "UPDATE outbox SET status = 'failed', last_error = ?, attempts = attempts + 1 "
                "WHERE id = ?",
                (error, outbox_id),
            )
        else:
            await self.conn.execute(
                "UPDATE outbox SET last_error = ?, attempts = attempts + 1, not_before = ? "
                "WHERE id = ?",
                (error, retry_at, outbox_id),
            )

    async def mark_parts_sent(self, outbox_id: int, parts_sent: int) -> None:
        await self.conn.execute(
            "UPDATE outbox SET parts_sent = ? WHERE id = ? AND parts_sent < ?",
            (parts_sent, outbox_id, parts_sent),
        )

    async def supersede_edits(self, ref_id: int, below_id: int) -> None:
        await self.conn.execute(
            "UPDATE outbox SET status = 'superseded' WHERE kind = 'edit' AND ref_id = ? "
            "AND id < ? AND status = 'pending'",
            (ref_id, below_id),
        )

    async def outbox_for_game(self, game_id: str) -> list[OutboxRow]:
        rows = await self._all("SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [self._outbox(r) for r in rows]

    # --- /roll seed chains ---------------------------------------------------------------------

    async def roll_stream(self, scope_id: int) -> tuple[int, str] | None:
        row = await self._one(
            "SELECT next_number, seed FROM roll_streams WHERE scope_id = ?", (scope_id,)
        )
        return (row["next_number"], row["seed"]) if row else None

    async def set_roll_stream(self, scope_id: int, number: int, seed: str, commitment: str) -> None:
        await self.conn.execute(
            "INSERT INTO roll_streams (scope_id, next_number, seed, commitment) VALUES (?,?,?,?) "
            "ON CONFLICT (scope_id) DO UPDATE SET next_number = excluded.next_number, "
            "seed = excluded.seed, commitment = excluded.commitment",
            (scope_id, number, seed, commitment),
        )

    # --- settings ------------------------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        row = await self._one("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row["language"] if row else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )

    async def user_locale(self, user_id: int) -> str | None:
        row = await self._one("SELECT locale FROM user_settings WHERE user_id = ?", (user_id,))
        return row["locale"] if row else None

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self.conn.execute(
            "INSERT INTO user_settings (user_id, locale) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale),
        )


class SqliteRepository(Repository):
    READERS = 2

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._conn: aiosqlite.Connection | None = None
        self._readers: list[aiosqlite.Connection] = []
        self._idle_readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._lock = asyncio.Lock()

    @staticmethod
    async def _connect(path: str, pragmas: tuple[str, ...]) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        # Each PRAGMA cursor is closed at once: an unfinished statement (journal_mode returns a
        # row) would make the migration's COMMIT fail with "SQL statements in progress".
        for pragma in pragmas:
            async with conn.execute(pragma) as cur:
                await cur.fetchall()
        return conn

    async def open(self) -> None:
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = await self._connect(
            self.path,
            (
                "PRAGMA journal_mode = WAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA busy_timeout = 5000",
            ),
        )
        await self._migrate()
        if not memory:  # a second connection to :memory: would open another, empty database
            for _ in range(self.READERS):
                reader = await self._connect(
                    self.path, ("PRAGMA query_only = ON", "PRAGMA busy_timeout = 5000")
                )
                self._readers.append(reader)
                self._idle_readers.put_nowait(reader)

    async def _migrate(self) -> None:
        conn = self.conn
        async with conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
        ):
            pass
        async with conn.execute("SELECT version FROM schema_migrations") as cur:
            applied = {row[0] for row in await cur.fetchall()}
        for number, sql in migrations():
            if number in applied:
                continue
            # executescript commits implicitly, so the migration and its bookkeeping are wrapped
            # in one explicit transaction inside the script itself.
            await conn.executescript(
                f"BEGIN;\n{sql}\n"
                f"INSERT INTO schema_migrations (version) VALUES ({number});\nCOMMIT;"
            )

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError("repository is not open")
        return self._conn

    async def close(self) -> None:
        if self._conn is None:
            return
        for reader in self._readers:
            await reader.close()
        self._readers.clear()
        self._idle_readers = asyncio.Queue()
        await self._conn.close()
        self._conn = None

    # --- writes: one transaction at a time ---------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            conn = self.conn
            await self._run(conn, "BEGIN IMMEDIATE")
            try:
                yield SqliteTransaction(conn)
            except BaseException:
                await self._run(conn, "ROLLBACK")
                raise
            else:
                await self._run(conn, "COMMIT")

    @staticmethod
    async def _run(conn: aiosqlite.Connection, sql: str) -> None:
        await conn.execute(sql)  # one hop; the statement returns no rows

    # --- reads: committed data only, beside the writer ------------------------------------------

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        if not self._readers:
            async with self.transaction() as tx:
                yield tx
            return
        conn = await self._idle_readers.get()
        try:
            # One snapshot for the whole block (a deferred BEGIN: it starts at the first read).
            await self._run(conn, "BEGIN")
            try:
                yield SqliteTransaction(conn)
            finally:
                await self._run(conn, "ROLLBACK")  # read-only (query_only): nothing to keep
        finally:
            self._idle_readers.put_nowait(conn)


def open_repository(database_url: str) -> Repository:
    """``sqlite:///path/to/file.sqlite3`` (default) → a repository (not yet opened)."""
    if database_url.startswith("sqlite:///"):
        return SqliteRepository(database_url.removeprefix("sqlite:///"))
    if database_url.startswith("sqlite://"):
        return SqliteRepository(database_url.removeprefix("sqlite://") or ":memory:")
    raise StorageError(
        f"unsupported DATABASE_URL {database_url.split(':', 1)[0]!r}: use sqlite:///path.sqlite3"
    )
