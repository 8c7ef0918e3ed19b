"""``python -m bot migrate-db --from URL --to URL``: move a whole database to another backend.

Every table of the schema is copied, ids kept; the list of tables is the one the numbered SQLite
migrations build (the schema both backends share, number for number), and a table the source or
the target has that this list does not know stops the move before anything is written, so no data
is left behind unnoticed. Tables are copied parents first (foreign keys), in one transaction of
the target: a move that fails leaves the target as it was. Then the target's identity counters
(``outbox.id``, ``roster_ledger.seq``) continue after the source's highest id, or after the
source's own counter where rows were deleted.

Both databases are opened as the bot opens them, so each is first brought to the current schema
by its pending migrations (the source too: run this with the bot stopped). The source is read in
one snapshot.

The roster ledger is append-only (its triggers refuse UPDATE, DELETE and TRUNCATE); inserting is
allowed, so it is copied with its triggers in place.

A target that holds rows is refused: rows of two communities are never mixed. ``force=True``
(``--force``) *replaces* such a target: the schema's tables are dropped whole (the ledger with
them: dropping a table fires no row trigger) and rebuilt by the migrations, in the copy's own
transaction, so a replacement that fails half-way leaves the old rows in place.

Which database a URL names is decided by what it is, not how it is written (bot/storage/urls.py
reads every URL): an SQLite file by its real path and its inode (``/./``, ``//``, a symlink, a
hard link), PostgreSQL first by host, port, database and ``search_path`` with the defaults filled
in, then, once both are open and before anything is written, by the server's own identity
(``pg_control_system()``'s system identifier, the server's start time, the database and the
schema). The same database on both ends is refused, untouched. An SQLite URL with no file
(``sqlite:///``, ``:memory:``) is refused too: the copy would vanish when the command ends. A
target file the command created is removed again when the move fails.

What was copied is checked by reading it back from the target's tables before the commit (a
difference rolls the whole copy back): per table a row count and a checksum over a canonical
serialization of each row, the same on both backends (columns by name; a flag as 0/1, a
Discord id as an integer, a time as a float, text as text), combined independently of row order
(the sum of the rows' SHA-256 modulo 2**256): equal checksums mean equal rows. Both directions
work (SQLite → PostgreSQL, PostgreSQL → SQLite, and like to like).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage.base import DatabaseUnavailable, Repository, StorageError
from bot.storage.sql import numbered_migrations
from bot.storage.sqlite import SqliteRepository, apply_migrations, statements
from bot.storage.urls import DatabaseUrl, DatabaseUrlError, mask, parse

# Each side's own bookkeeping, not data: written by the side's own migrations.
NOT_COPIED = frozenset({"schema_migrations", "sqlite_sequence"})
BATCH = 1000
CREATE_FUNCTION = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)", re.IGNORECASE)
CHECKSUM_DIGITS = 16  # shown; the comparison uses the whole sum


class MigrateError(StorageError):
    """The move cannot go on; ``key`` and ``params`` name the reason in the catalogue."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}")
        self.key = key
        self.params = params
        self.report: Report | None = None  # what was compared, where the comparison failed

    def attach(self, report: Report) -> MigrateError:
        self.report = report
        return self


# --- the schema, as the migrations build it ------------------------------------------------------


@dataclass(frozen=True)
class TableSpec:
    name: str
    columns: tuple[str, ...]  # sorted by name: the canonical order
    parents: frozenset[str]  # tables its foreign keys reference
    identity: str | None  # the INTEGER PRIMARY KEY that numbers new rows (outbox.id)


def schema() -> list[TableSpec]:
    """The schema's tables, parents before children, built by running the SQLite migrations on
    an empty database in memory (so a new migration's table is known without listing it here)."""
    db = sqlite3.connect(":memory:")
    try:
        for _, script in numbered_migrations("migrations"):
            for statement in statements(script):
                db.execute(statement)
        names = [
            row[0]
            for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] not in NOT_COPIED
        ]
        specs: dict[str, TableSpec] = {}
        for name in names:
            info = db.execute(f"PRAGMA table_info({_quote(name)})").fetchall()
            keys = [row for row in info if row[5]]
            identity = (
                keys[0][1] if len(keys) == 1 and str(keys[0][2]).upper() == "INTEGER" else None
            )
            parents = {row[2] for row in db.execute(f"PRAGMA foreign_key_list({_quote(name)})")} - {
                name
            }
            specs[name] = TableSpec(
                name, tuple(sorted(row[1] for row in info)), frozenset(parents), identity
            )
    finally:
        db.close()
    ordered: list[TableSpec] = []
    placed: set[str] = set()
    while len(ordered) < len(specs):
        ready = sorted(n for n, s in specs.items() if n not in placed and s.parents <= placed)
        if not ready:  # pragma: no cover - the migrations have no foreign-key cycle
            raise StorageError("the schema's foreign keys form a cycle")
        for name in ready:
            ordered.append(specs[name])
            placed.add(name)
    return ordered


# --- canonical rows and checksums ----------------------------------------------------------------


def canonical(value: Any) -> Any:
    """One column's value as both backends give it: a flag (PostgreSQL's BOOLEAN, SQLite's
    0/1) as an integer; integers, floats, text and NULL as they are."""
    if isinstance(value, bool):
        return int(value)
    if value is None or isinstance(value, int | float | str):
        return value
    raise MigrateError("cli.migrate.odd_value", kind=type(value).__name__)


def row_digest(values: Sequence[Any]) -> int:
    text = json.dumps([canonical(v) for v in values], ensure_ascii=False, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


@dataclass
class TableSummary:
    rows: int = 0
    total: int = 0  # the sum of the rows' digests, modulo 2**256

    def add(self, values: Sequence[Any]) -> None:
        self.rows += 1
        self.total = (self.total + row_digest(values)) % (1 << 256)

    @property
    def checksum(self) -> str:
        return f"{self.total:064x}"[:CHECKSUM_DIGITS]


@dataclass(frozen=True)
class TableReport:
    table: str
    source: TableSummary
    target: TableSummary

    @property
    def ok(self) -> bool:
        return (self.source.rows, self.source.total) == (self.target.rows, self.target.total)


@dataclass
class Report:
    source: str  # the URLs, without a password
    target: str
    tables: list[TableReport] = field(default_factory=list)
    replaced: bool = False  # --force dropped a target that held rows

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.tables)

    @property
    def rows(self) -> int:
        return sum(t.source.rows for t in self.tables)


# --- one side of the move: a repository's own connection, raw SQL --------------------------------


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


class Side:
    """Raw access to an opened repository's database, for the tables of the schema."""

    kind = ""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def tables(self) -> set[str]:
        raise NotImplementedError

    async def columns(self, table: str) -> dict[str, str]:
        """Column name → declared type (lower case)."""
        raise NotImplementedError

    async def versions(self) -> set[int]:
        raise NotImplementedError

    async def count(self, table: str) -> int:
        raise NotImplementedError

    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple[Any, ...]]]:
        """The table's rows in batches, inside the snapshot opened by :meth:`snapshot`."""
        raise NotImplementedError

    async def high_water(self, table: str, column: str) -> int:
        """The highest id ever handed out (rows deleted since included where the side knows)."""
        raise NotImplementedError

    def snapshot(self) -> Any:
        raise NotImplementedError

    def writing(self) -> Any:
        raise NotImplementedError

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    async def continue_after(self, table: str, column: str, value: int) -> None:
        raise NotImplementedError

    async def rebuild_schema(self, tables: Sequence[str]) -> None:
        """Drop the schema's tables and build them again empty, inside :meth:`writing`."""
        raise NotImplementedError

    async def identity(self) -> tuple[Any, ...]:
        """Which database this connection reached, as the database itself says."""
        raise NotImplementedError

    @staticmethod
    def coercer(declared: str) -> Callable[[Any], Any]:
        """Turns a value read on the other side into what this column stores; a value that would
        change (1.5 into an integer column) stops the move instead of being rounded."""
        kind = declared.lower()

        def exact(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
            def coerce(value: Any) -> Any:
                if value is None:
                    return None
                converted = convert(value)
                if canonical(converted) != canonical(value):
                    raise MigrateError(
                        "cli.migrate.odd_value", kind=f"{type(value).__name__} {value!r}"
                    )
                return converted

            return coerce

        if kind == "boolean":
            return exact(bool)
        if "int" in kind:
            return exact(int)
        if kind in ("real", "double precision", "float", "numeric"):
            return exact(float)
        return exact(lambda v: v if isinstance(v, str) else str(v))


class SqliteSide(Side):
    kind = "sqlite"

    def __init__(self, repo: SqliteRepository) -> None:
        super().__init__(repo)
        self.sqlite = repo

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.sqlite.conn.execute_fetchall(sql, tuple(params)))

    async def tables(self) -> set[str]:
        rows = await self._all("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> dict[str, str]:
        return {row[1]: str(row[2]).lower() for row in await self._all(_pragma(table))}

    async def versions(self) -> set[int]:
        return {row[0] for row in await self._all("SELECT version FROM schema_migrations")}

    async def count(self, table: str) -> int:
        rows = await self._all(f"SELECT count(*) FROM {_quote(table)}")
        return int(rows[0][0])

    async def rows(
        self, table: str, columns: Sequence[str]
    ) -> AsyncIterator[list[tuple[Any, ...]]]:
        names = ", ".join(_quote(c) for c in columns)
        async with self.sqlite.conn.execute(f"SELECT {names} FROM {_quote(table)}") as cur:
            while batch := await cur.fetchmany(BATCH):
                yield [tuple(row) for row in batch]

    async def high_water(self, table: str, column: str) -> int:
        top = await self._all(f"SELECT max({_quote(column)}) FROM {_quote(table)}")
        counter = await self._all("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        return max([int(top[0][0] or 0), *(int(row[0]) for row in counter)])

    def snapshot(self) -> Any:
        return self._begin("BEGIN")

    def writing(self) -> Any:
        return self._begin("BEGIN IMMEDIATE")

    def _begin(self, begin: str) -> Any:
        side = self

        class Block:
            async def __aenter__(self) -> None:
                await side.sqlite.conn.execute(begin)

            async def __aexit__(self, kind: Any, *_: Any) -> None:
                await side.sqlite.conn.execute("ROLLBACK" if kind else "COMMIT")

        return Block()

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        names = ", ".join(_quote(c) for c in columns)
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {_quote(table)} ({names}) VALUES ({marks})"
        await self.sqlite.conn.executemany(sql, rows)

    async def continue_after(self, table: str, column: str, value: int) -> None:
        # Explicit ids already raised the counter to the highest copied; the source's own
        # counter may be higher (its newest rows deleted since).
        conn = self.sqlite.conn
        cur = await conn.execute(
            "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (value, table)
        )
        if cur.rowcount == 0 and value > 0:
            await conn.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, value)
            )

    async def rebuild_schema(self, tables: Sequence[str]) -> None:
        for table in [*reversed(tables), "schema_migrations"]:  # children first
            await self.sqlite.conn.execute(f"DROP TABLE IF EXISTS {_quote(table)}")
        await apply_migrations(self.sqlite.conn)

    async def identity(self) -> tuple[Any, ...]:
        # The main database's file as SQLite opened it: a hard link has the same inode.
        rows = await self._all("PRAGMA database_list")
        path = next((row[2] for row in rows if row[1] == "main"), "")
        if not path:  # in memory or temporary: a database of its own
            return ("sqlite", id(self.sqlite))
        info = os.stat(path)
        return ("sqlite", info.st_dev, info.st_ino)


def _pragma(table: str) -> str:
    return f"PRAGMA table_info({_quote(table)})"


class PostgresSide(Side):
    kind = "postgresql"

    def __init__(self, repo: Repository, pool: Any) -> None:
        super().__init__(repo)
        self.pool = pool
        self.conn: Any = None  # the connection of the open snapshot or write
        self._held: Any = None
        self._transaction: Any = None

    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        if self.conn is not None:
            return list(await self.conn.fetch(sql, *params))
        async with self.pool.acquire() as conn:
            return list(await conn.fetch(sql, *params))

    async def tables(self) -> set[str]:
        rows = await self._fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {row[0] for row in rows}

    async def columns(self, table: str) -> dict[str, str]:
        rows = await self._fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
        return {row[0]: str(row[1]).lower() for row in rows}

    async def versions(self) -> set[int]:
        return {row[0] for row in await self._fetch("SELECT version FROM schema_migrations")}

    async def count(self, table: str) -> int:
        rows = await self._fetch(f"SELECT count(*) FROM {_quote(table)}")
        return int(rows[0][0])

    async def rows(
        self, table: str, columns: Sequence[str]
    ) -> AsyncIterator[list[tuple[Any, ...]]]:
        assert self.conn is not None, "rows() reads inside snapshot()"
        names = ", ".join(_quote(c) for c in columns)
        cursor = await self.conn.cursor(f"SELECT {names} FROM {_quote(table)}")
        while batch := await cursor.fetch(BATCH):
            yield [tuple(row) for row in batch]

    async def high_water(self, table: str, column: str) -> int:
        rows = await self._fetch(
            f"SELECT max({_quote(column)}), "
            "pg_sequence_last_value(pg_get_serial_sequence($1, $2)::regclass) "
            f"FROM {_quote(table)}",
            _quote(table),
            column,
        )
        return max(int(rows[0][0] or 0), int(rows[0][1] or 0))

    def snapshot(self) -> Any:
        return self._block(isolation="repeatable_read", readonly=True)

    def writing(self) -> Any:
        return self._block()

    def _block(self, **options: Any) -> Any:
        side = self

        class Block:
            async def __aenter__(self) -> None:
                side._held = side.pool.acquire()
                side.conn = await side._held.__aenter__()
                side._transaction = side.conn.transaction(**options)
                await side._transaction.__aenter__()

            async def __aexit__(self, *exc: Any) -> None:
                try:
                    await side._transaction.__aexit__(*exc)
                finally:
                    side.conn = None
                    await side._held.__aexit__(*exc)

        return Block()

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        # COPY fires INSERT triggers only: the ledger's refusals (UPDATE, DELETE) stay armed.
        await self.conn.copy_records_to_table(table, records=rows, columns=list(columns))

    async def continue_after(self, table: str, column: str, value: int) -> None:
        # setval(…, false) when nothing was ever numbered: the next id is 1, as on a new database.
        await self.conn.execute(
            "SELECT setval(pg_get_serial_sequence($1, $2), "
            "GREATEST($3::bigint, 1), $3::bigint > 0)",
            _quote(table),
            column,
            value,
        )

    async def rebuild_schema(self, tables: Sequence[str]) -> None:
        # The migrations' functions too: rebuilding would otherwise find them there.
        functions = sorted(
            {
                name
                for _, script in numbered_migrations("migrations/postgresql")
                for name in CREATE_FUNCTION.findall(script)
            }
        )
        for table in [*reversed(tables), "schema_migrations"]:
            await self.conn.execute(f"DROP TABLE IF EXISTS {_quote(table)} CASCADE")
        for function in functions:
            await self.conn.execute(f"DROP FUNCTION IF EXISTS {_quote(function)} CASCADE")
        await self.repo.apply_migrations(self.conn)  # type: ignore[attr-defined]

    async def identity(self) -> tuple[Any, ...]:
        # The cluster (its system identifier; its start time tells a clone from its original),
        # then the database and the schema this connection's search_path settles on.
        row = (
            await self._fetch(
                "SELECT (SELECT system_identifier FROM pg_control_system()), "
                "pg_postmaster_start_time(), current_database(), current_schema()"
            )
        )[0]
        return ("postgresql", *tuple(row))


def side_of(repo: Repository) -> Side:
    if isinstance(repo, SqliteRepository):
        return SqliteSide(repo)
    from bot.storage.postgres import PostgresRepository

    if isinstance(repo, PostgresRepository):
        return PostgresSide(repo, repo.pool)
    raise StorageError(f"cannot move a {type(repo).__name__}")


# --- the move ------------------------------------------------------------------------------------


async def summarize(repo: Repository) -> dict[str, TableSummary]:
    """Row count and checksum of every table of the schema, in one snapshot."""
    side = side_of(repo)
    async with side.snapshot():
        return {spec.name: await _summary(side, spec) for spec in schema()}


async def _check(side: Side, which: str, specs: list[TableSpec]) -> None:
    known = {s.name for s in specs}
    unknown = sorted((await side.tables()) - known - NOT_COPIED)
    if unknown:
        raise MigrateError("cli.migrate.unknown_table", side=which, tables=", ".join(unknown))
    for spec in specs:
        have = set(await side.columns(spec.name))
        if have != set(spec.columns):
            differ = ", ".join(sorted(have ^ set(spec.columns)))
            raise MigrateError(
                "cli.migrate.columns_differ", side=which, table=spec.name, columns=differ
            )


async def migrate_repositories(
    source: Repository,
    target: Repository,
    *,
    force: bool = False,
    source_url: str = "",
    target_url: str = "",
) -> Report:
    """Copy every table of ``source`` into ``target`` (both opened). See the module's text."""
    specs = schema()
    src, dst = side_of(source), side_of(target)
    await _check(src, "--from", specs)
    await _check(dst, "--to", specs)
    source_versions, target_versions = await src.versions(), await dst.versions()
    if source_versions != target_versions:
        raise MigrateError(
            "cli.migrate.versions_differ",
            source=_span(source_versions),
            target=_span(target_versions),
        )
    if await src.identity() == await dst.identity():
        raise MigrateError("cli.migrate.same_database", where=mask(target_url))
    report = Report(mask(source_url), mask(target_url))
    copied: dict[str, TableSummary] = {}
    # One transaction on the target, from the count of what it holds to the read-back: a
    # refusal or a failure anywhere leaves it as it was (its old rows too, under --force).
    async with dst.writing():
        held = {s.name: n for s in specs if (n := await dst.count(s.name))}
        if held:
            if not force:
                rows = ", ".join(f"{name} {count}" for name, count in held.items())
                raise MigrateError("cli.migrate.target_not_empty", rows=rows)
            await dst.rebuild_schema([s.name for s in specs])
            report.replaced = True
        await _copy(src, dst, specs, copied)
        # Read back from the target's tables before the commit: a difference rolls it all back.
        written = {s.name: await _summary(dst, s) for s in specs}
        report.tables = [TableReport(s.name, copied[s.name], written[s.name]) for s in specs]
        if not report.ok:
            differ = ", ".join(t.table for t in report.tables if not t.ok)
            raise MigrateError("cli.migrate.mismatch", tables=differ).attach(report)
    return report


async def _copy(
    src: Side, dst: Side, specs: list[TableSpec], copied: dict[str, TableSummary]
) -> None:
    """Every table of ``src`` (one snapshot) into ``dst`` (inside its open write)."""
    async with src.snapshot():
        for spec in specs:
            types = await dst.columns(spec.name)
            coerce = [Side.coercer(types[c]) for c in spec.columns]
            copied[spec.name] = summary = TableSummary()
            async for batch in src.rows(spec.name, spec.columns):
                for values in batch:
                    summary.add(values)
                await dst.insert(
                    spec.name,
                    spec.columns,
                    [tuple(f(v) for f, v in zip(coerce, row, strict=True)) for row in batch],
                )
            if spec.identity is not None:
                mark = await src.high_water(spec.name, spec.identity)
                await dst.continue_after(spec.name, spec.identity, mark)


async def _summary(side: Side, spec: TableSpec) -> TableSummary:
    summary = TableSummary()
    async for batch in side.rows(spec.name, spec.columns):
        for values in batch:
            summary.add(values)
    return summary


def _span(versions: set[int]) -> str:
    return ", ".join(str(v) for v in sorted(versions)) or "-"


async def migrate(source_url: str, target_url: str, *, force: bool = False) -> Report:
    """Open both URLs (as ``DATABASE_URL`` takes them) and move ``source_url``'s data."""
    from bot.storage import open_repository

    source, target = _url(source_url, "--from"), _url(target_url, "--to")
    if _same(source, target):
        raise MigrateError("cli.migrate.same_database", where=target.masked)
    if source.kind == "sqlite" and not Path(source.path).is_file():
        # Opening it would create an empty database and copy nothing.
        raise MigrateError("cli.migrate.no_source", path=source.path)
    # A target file this command creates is removed again if the move fails: as it was.
    created = target.kind == "sqlite" and not os.path.lexists(target.path)
    repos: list[Repository] = []
    moved = False
    try:
        for url in (source, target):
            repo = open_repository(url.text)
            try:
                await repo.open()
            except DatabaseUnavailable as exc:
                raise MigrateError("cli.migrate.unavailable", reason=str(exc)) from exc
            except (ValueError, OSError) as exc:  # asyncpg's refusal of a malformed URL
                reason = " ".join(str(exc).split())
                raise MigrateError("cli.migrate.bad_url", url=url.masked, reason=reason) from None
            repos.append(repo)
        report = await migrate_repositories(
            repos[0], repos[1], force=force, source_url=source.text, target_url=target.text
        )
        moved = True
        return report
    finally:
        for repo in repos:
            await repo.close()
        if created and not moved:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(target.path + suffix)


def _url(text: str, side: str) -> DatabaseUrl:
    try:
        url = parse(text, what=side)
    except DatabaseUrlError as exc:
        raise MigrateError(exc.key, **exc.params) from None
    if url.memory:
        raise MigrateError("cli.migrate.no_path", side=side, url=url.masked)
    return url


def _same(source: DatabaseUrl, target: DatabaseUrl) -> bool:
    """The same database however it is written (the server's own word on PostgreSQL comes once
    both are open: ``localhost`` and ``127.0.0.1`` only differ in spelling)."""
    if source.identity() == target.identity():
        return True
    if source.kind == target.kind == "sqlite":
        with contextlib.suppress(OSError):  # a hard link: another name, the same file
            return os.path.samefile(source.path, target.path)
    return False
