"""PostgreSQL implementation of the repository (asyncpg), for several bot processes on one database.

The SQL is the one SQLite runs (``sql.py``, ``leagues.py``); what SQLite gets from its single
writer, PostgreSQL gets from locks held until the transaction ends:

- a write transaction reads a game or a league ``FOR UPDATE``: two writers of one game (an order
  and the deadline's resolution, two shards' orders) take turns instead of the later one
  storing an order into a turn the other has just resolved. The compare-and-set on ``version``
  still guards every update (a writer that read before another committed gets 0 rows: in read
  committed an UPDATE re-checks its WHERE on the row the other committed).
- a read-then-write with no row to lock yet (the next game or league number, a ``/roll`` chain)
  takes a transaction-scoped advisory lock named after what it reads.

Transactions are read committed; ``read()`` is ``REPEATABLE READ READ ONLY``: one snapshot for the
whole block, no locks, never waiting for a writer. Migrations (``migrations/postgresql``, numbered
as SQLite's) are applied at ``open()`` under a session advisory lock, so processes that start at
once apply each migration once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type information

from bot.ratebudget import SLOT_SECONDS, LocalSlots
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
from bot.storage.urls import DatabaseUrlError, mask, parse

log = logging.getLogger(__name__)

SCHEMES = ("postgresql://", "postgres://")
# A NOTIFY channel per schema (two bots' schemas in one database never wake each other), short
# enough for any schema name (channel names are identifiers: 63 bytes at most).
CHANNEL_SQL = "'pbp:' || left(md5(current_schema()), 12) || ':' || $1"
LISTEN_RETRY_SECONDS = (0.5, 1, 2, 5)


def migrations() -> list[tuple[int, str]]:
    """PostgreSQL's numbered SQL files, in order (the same numbers as SQLite's)."""
    return numbered_migrations("migrations/postgresql")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders → ``$1, $2, …`` (the shared SQL has no ``?`` inside literals)."""
    parts = sql.split("?")
    out = [parts[0]]
    for index, part in enumerate(parts[1:], start=1):
        out.append(f"${index}{part}")
    return "".join(out)


class PostgresTransaction(
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
    """The shared SQL on one pooled connection inside an open transaction."""

    SEATS_JSON = (
        "(SELECT COALESCE(json_agg(json_build_array(s.seat, s.position, s.user_id, s.name, "
        "s.dm_open, s.accepted, s.left_turn)), '[]'::json) FROM seats s "
        "WHERE s.game_id = games.id)"
    )

    def __init__(self, conn: Any, *, write: bool) -> None:
        self.conn = conn
        self.write = write
        self._notified: set[str] = set()

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None:
        row: Row | None = await self.conn.fetchrow(numbered(sql), *params)
        return row

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        status: str = await self.conn.execute(numbered(sql), *params)
        # "UPDATE 1", "INSERT 0 1", "DELETE 0": the last word is the row count.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def _many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        if rows:
            await self.conn.executemany(numbered(sql), rows)

    def _for_update(self) -> str:
        return " FOR UPDATE" if self.write else ""

    def _skip_locked(self) -> str:
        return " FOR UPDATE SKIP LOCKED" if self.write else ""

    async def _notify(self, channel: str) -> None:
        # Delivered when (and only if) the transaction commits; once per transaction is enough.
        if channel not in self._notified:
            self._notified.add(channel)
            await self.conn.execute(f"SELECT pg_notify({CHANNEL_SQL}, '')", channel)

    async def _serialize(self, name: str) -> None:
        if self.write:
            # Per schema: two databases in one server (tests, staging) never wait for each other.
            await self.conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || $1, 0))",
                name,
            )


def _where(url: str) -> str:
    """Host, port and database of ``url``, without the user or password."""
    try:
        return parse(url).where
    except DatabaseUrlError:
        return mask(url)


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class PostgresRepository(Repository):
    """A pool of connections to one database (and, with ``schema``, one schema in it)."""

    shared = True

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = 10.0,
    ) -> None:
        if not url.startswith(SCHEMES):
            raise StorageError(f"not a PostgreSQL URL: {url.split(':', 1)[0]!r}")
        self.url = url
        self.schema = schema
        self.min_size = min_size
        self.max_size = max_size
        self.connect_timeout = connect_timeout
        self._pool: Any = None
        # LISTEN: one connection of its own (a pooled one would be handed to a transaction),
        # re-opened after the server restarts, with every channel listened to again.
        self._listeners: list[tuple[str, Callable[[], None]]] = []
        self._listen_conn: Any = None
        self._listen_task: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise StorageError("repository is not open")
        return self._pool

    async def open(self) -> None:
        self._closing = False
        settings = self._settings()
        try:
            if self.schema:
                await self._create_schema()
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=self.connect_timeout,
                server_settings=settings,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseUnavailable(f"PostgreSQL at {_where(self.url)}: {_reason(exc)}") from exc
        try:
            async with self._pool.acquire() as conn:
                await self._migrate(conn)
        except BaseException:
            await self.close()
            raise

    async def _create_schema(self) -> None:
        assert self.schema is not None
        conn = await asyncpg.connect(self.url, timeout=self.connect_timeout)
        try:
            # Two processes creating it at once: one waits for the other (IF NOT EXISTS alone
            # can still collide in the catalogue).
            await conn.execute(
                "SELECT pg_advisory_lock(hashtextextended('pbp:schema:' || $1, 0))", self.schema
            )
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {_quote(self.schema)}")
        finally:
            await conn.close()  # the session lock ends with the session

    async def apply_migrations(self, conn: Any) -> None:
        """The pending migrations on ``conn``, inside its open transaction if it has one (each
        migration is then a savepoint): migrate-db rebuilds a replaced schema in the copy's own
        transaction."""
        await self._migrate(conn)

    async def _migrate(self, conn: Any) -> None:
        lock = "hashtextextended('pbp:migrations:' || COALESCE(current_schema(), ''), 0)"
        await conn.execute(f"SELECT pg_advisory_lock({lock})")
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            rows = await conn.fetch("SELECT version FROM schema_migrations")
            applied = {r["version"] for r in rows}
            for number, sql in migrations():
                if number in applied:
                    continue
                async with conn.transaction():
                    await conn.execute(sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version) VALUES ($1)", number
                    )
        finally:
            await conn.execute(f"SELECT pg_advisory_unlock({lock})")

    async def listen(self, channel: str, callback: Callable[[], None]) -> None:
        self._listeners.append((channel, callback))
        if self._listen_conn is None:
            await self._connect_listener()
        else:
            await self._add_listener(self._listen_conn, channel, callback)

    def _settings(self) -> dict[str, str] | None:
        return {"search_path": _quote(self.schema)} if self.schema else None

    async def _connect_listener(self) -> None:
        conn = await asyncpg.connect(
            self.url, timeout=self.connect_timeout, server_settings=self._settings()
        )
        conn.add_termination_listener(self._listener_lost)
        for channel, callback in self._listeners:
            await self._add_listener(conn, channel, callback)
        self._listen_conn = conn

    @staticmethod
    async def _add_listener(conn: Any, channel: str, callback: Callable[[], None]) -> None:
        name = await conn.fetchval(f"SELECT {CHANNEL_SQL}", channel)
        await conn.add_listener(name, lambda *_args: callback())

    def _listener_lost(self, _conn: Any) -> None:
        self._listen_conn = None
        if self._closing or self._listen_task is not None:
            return
        self._listen_task = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        """Listen again once the server answers; wake every listener then (a notification
        sent while nobody listened is lost: the workers look for themselves)."""
        attempt = 0
        try:
            while not self._closing:
                try:
                    await self._connect_listener()
                except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    delay = LISTEN_RETRY_SECONDS[min(attempt, len(LISTEN_RETRY_SECONDS) - 1)]
                    attempt += 1
                    await asyncio.sleep(delay)
                    continue
                for _channel, callback in self._listeners:
                    callback()
                return
        finally:
            self._listen_task = None

    async def close(self) -> None:
        self._closing = True
        if self._listen_task is not None:
            self._listen_task.cancel()
            self._listen_task = None
        if self._listen_conn is not None:
            conn, self._listen_conn = self._listen_conn, None
            with contextlib.suppress(Exception):
                await conn.close()
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        await pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresTransaction(conn, write=True)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(conn, write=False)


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


# --- Discord's global limit, shared by the processes of one token (bot/ratebudget.py) ----------

RATE_RING = 64  # rows per token: 3.2 s of 0.05 s slots, far more than the few in use at a time
FALLBACK_SLOT_SECONDS = 0.1  # alone, one grant per 0.1 s: three processes stay under 50 a second
# One statement, so two processes never both take the last grant of a slot: the row of the
# current slot (numbered by the database's clock, the one clock every process shares) is
# counted up by at most what is left under the class's cap, and says how much it gave
# (``granted``: RETURNING sees only the new row). A row of an older slot in the same ring
# position starts again at 0. A slot earlier than the row's (the server's clock stepped back)
# grants nothing. The caps (bot/ratebudget.py): acknowledgements ($7) may take the whole slot
# ($6); background requests their cap ($4) in odd slots and the whole slot in even ones, less
# the grants booked for acknowledgements in either. A foreground take uses bookings up and books
# what it still lacks (all its waiters, so a repeated take does not book twice) on the next
# slot's row (RATE_RING >= 2: never the row just counted), up to the whole slot.
_RATE_TAKE = """
WITH now AS (
    SELECT s.slot, s.at,
        CASE WHEN $7 OR s.slot % 2 = 0 THEN $6::int ELSE $4::int END AS cap
    FROM (SELECT floor(extract(epoch FROM clock_timestamp())::float8 / $5::float8)::bigint AS slot,
            extract(epoch FROM clock_timestamp())::float8 AS at) s
), took AS (
    INSERT INTO rate_budget AS b (token, ring, slot, used, granted, booked)
    SELECT $1::text, (n.slot % $2::int)::int, n.slot, LEAST($3::int, n.cap),
        LEAST($3::int, n.cap), 0
    FROM now n
    ON CONFLICT (token, ring) DO UPDATE SET
        slot = excluded.slot,
        granted = GREATEST(0, LEAST($3,
            (SELECT cap FROM now)
            - (CASE WHEN b.slot = excluded.slot AND NOT $7 THEN b.booked ELSE 0 END)
            - (CASE WHEN b.slot = excluded.slot THEN b.used ELSE 0 END))),
        used = (CASE WHEN b.slot = excluded.slot THEN b.used ELSE 0 END)
            + GREATEST(0, LEAST($3,
            (SELECT cap FROM now)
            - (CASE WHEN b.slot = excluded.slot AND NOT $7 THEN b.booked ELSE 0 END)
            - (CASE WHEN b.slot = excluded.slot THEN b.used ELSE 0 END))),
        booked = CASE WHEN b.slot <> excluded.slot THEN 0
            WHEN $7 THEN GREATEST(0, b.booked - GREATEST(0, LEAST($3, $6 - b.used)))
            ELSE b.booked END
    WHERE b.slot <= excluded.slot
    RETURNING b.granted, b.slot
), booking AS (
    INSERT INTO rate_budget AS b (token, ring, slot, used, granted, booked)
    SELECT $1::text, ((t.slot + 1) % $2::int)::int, t.slot + 1, 0, 0,
        LEAST($6::int, $3 - t.granted)
    FROM took t
    WHERE $7 AND t.granted < $3
    ON CONFLICT (token, ring) DO UPDATE SET
        booked = CASE WHEN b.slot = excluded.slot THEN GREATEST(b.booked, excluded.booked)
            ELSE excluded.booked END,
        used = CASE WHEN b.slot = excluded.slot THEN b.used ELSE 0 END,
        granted = CASE WHEN b.slot = excluded.slot THEN b.granted ELSE 0 END,
        slot = excluded.slot
    WHERE b.slot <= excluded.slot
)
SELECT t.granted, t.slot, n.at AS now FROM took t, now n
"""
RATE_RETRY_SECONDS = 5.0


def token_key(token: str) -> str:
    """What the rows of a token are named by (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()[:24]


class PostgresRateSlots:
    """The slots of :mod:`bot.ratebudget` in the shared database, on a connection of their own
    (a grant must not wait for a pooled connection that a slow transaction holds).

    Without the database (it restarts, say) the process falls back to slots of its own with one
    grant each (10 requests a second): the processes of the token then pace themselves apart
    (three of them stay under the limit together) until the database answers again, which it
    is asked every ``RATE_RETRY_SECONDS``.
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        schema: str | None = None,
        slot: float = SLOT_SECONDS,
        connect_timeout: float = 5.0,
    ) -> None:
        self.url = url
        self.key = token_key(token)
        self.schema = schema
        self.slot = slot
        self.connect_timeout = connect_timeout
        self._conn: Any = None
        self._retry_at = 0.0
        self._fallback = LocalSlots(FALLBACK_SLOT_SECONDS)

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            settings = {"search_path": _quote(self.schema)} if self.schema else None
            self._conn = await asyncpg.connect(
                self.url, timeout=self.connect_timeout, server_settings=settings
            )
        return self._conn

    async def take(self, count: int, cap: int, *, full: int, foreground: bool) -> tuple[int, float]:
        if time.monotonic() >= self._retry_at:
            try:
                conn = await self._connection()
                row = await conn.fetchrow(
                    _RATE_TAKE, self.key, RATE_RING, count, cap, self.slot, full, foreground
                )
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("rate budget: the database is unavailable (%s)", _reason(exc))
                self._retry_at = time.monotonic() + RATE_RETRY_SECONDS
                await self._drop()
            else:
                if row is None:
                    return 0, self.slot
                wait = (int(row["slot"]) + 1) * self.slot - float(row["now"])
                return int(row["granted"]), max(0.0, wait)
        return await self._fallback.take(count, 1, full=1, foreground=foreground)

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.terminate()

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
