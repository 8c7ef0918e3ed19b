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
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.absences_sql import SqlAbsences
from bot.storage.base import DatabaseUnavailable, Repository, StorageError, Transaction
from bot.storage.claims import SqlClaims
from bot.storage.figures_sql import SqlFigures
from bot.storage.handovers_sql import SqlHandovers
from bot.storage.leagues import SqlLeagues
from bot.storage.privacy_sql import SqlPrivacy
from bot.storage.reminders_sql import SqlReminders
from bot.storage.sql import (
    Row,
    SqlDice,
    SqlGames,
    SqlOrders,
    SqlOutbox,
    SqlPacks,
    SqlPreferences,
    SqlSeasons,
    numbered_migrations,
)


def statements(script: str) -> list[str]:
    """A migration script's statements (a trigger's ``BEGIN … END`` stays one statement)."""
    found, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                found.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in buffer.splitlines()
    ):
        found.append(buffer.strip())  # a last statement without its semicolon
    return found


def migrations() -> list[tuple[int, str]]:
    """Numbered SQL files, in order: ``001_initial.sql`` → (1, sql)."""
    return numbered_migrations("migrations")


async def apply_migrations(conn: aiosqlite.Connection) -> None:
    """The pending migrations, inside the caller's open transaction (the bot's start, and
    migrate-db rebuilding a replaced schema in the copy's own transaction)."""
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
        # Statement by statement (executescript would commit the open transaction).
        for statement in statements(sql):
            async with conn.execute(statement):
                pass
        async with conn.execute("INSERT INTO schema_migrations (version) VALUES (?)", (number,)):
            pass


class SqliteTransaction(
    SqlClaims,
    SqlReminders,
    SqlAbsences,
    SqlHandovers,
    SqlPrivacy,
    SqlFigures,
    SqlGames,
    SqlOrders,
    SqlDice,
    SqlOutbox,
    SqlLeagues,
    SqlPacks,
    SqlSeasons,
    SqlPreferences,
    Transaction,
):
    """The shared SQL on one aiosqlite connection. SQLite has one writer at a time (the
    repository's lock and ``BEGIN IMMEDIATE``), so it needs no row or named locks."""

    # The seats of a game in the same statement as the game: one hop, not two.
    SEATS_JSON = (
        "(SELECT json_group_array(json_array(s.seat, s.position, s.user_id, s.name, s.dm_open, "
        "s.accepted, s.left_turn)) FROM seats s WHERE s.game_id = games.id)"
    )

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        # One hop to the connection's thread (execute, fetch and close there), not three.
        return list(await self.conn.execute_fetchall(sql, params))

    async def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        cur = await self.conn.execute(sql, params)  # one hop; no rows to fetch
        return cur.rowcount

    async def _many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        await self.conn.executemany(sql, rows)

    def _for_update(self) -> str:
        return ""

    # No SKIP LOCKED, no NOTIFY: one process, one writer (the defaults of SqlPrimitives).

    async def _serialize(self, name: str) -> None:
        return None


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
        try:
            for pragma in pragmas:
                await SqliteRepository._pragma(conn, pragma)
        except BaseException:
            await conn.close()  # no worker thread left behind to outlive the event loop
            raise
        return conn

    @staticmethod
    async def _pragma(conn: aiosqlite.Connection, pragma: str) -> None:
        # Switching a new file to WAL while other processes open it can answer "database is
        # locked" at once (SQLite skips the busy handler where waiting could deadlock): retry.
        for attempt in range(50):
            try:
                async with conn.execute(pragma) as cur:
                    await cur.fetchall()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                await asyncio.sleep(0.1)

    async def open(self) -> None:
        memory = self.path == ":memory:"
        try:
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
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnavailable(f"SQLite file {self.path}: {exc}") from exc
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
        # BEGIN IMMEDIATE before reading what is applied: a second process (or repository)
        # opening the same file at once waits here, then finds everything applied.
        await self._run(conn, "BEGIN IMMEDIATE")
        try:
            await apply_migrations(conn)
        except BaseException:
            await self._run(conn, "ROLLBACK")
            raise
        await self._run(conn, "COMMIT")

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
