"""Both storage backends for tests: SQLite on a fresh file, PostgreSQL in a fresh schema.

The ``backend`` fixture is parametrized over ``sqlite`` and ``postgres``; ``repo`` is the opened
repository of that backend. PostgreSQL is found by ``TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); each test gets its own schema (dropped after it),
so tests run in any order and never see each other's rows. Where no server answers, the
PostgreSQL case is skipped with the reason; ``PBP_REQUIRE_POSTGRES=1`` (CI) makes it a failure.

Adopting it elsewhere (the table, league and restart tests): import the fixtures into that
folder's ``conftest.py``::

    from tests.storage.backends import backend, repo  # noqa: F401  (pytest fixtures)

and build the bot on ``backend.make()`` instead of ``SqliteRepository(db_path)``: every test
that takes ``backend`` (or ``repo``) then runs once per backend. A test for one backend only
narrows it: ``@pytest.mark.parametrize("backend", ["postgres"], indirect=True)``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Repository, SqliteRepository

DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgres")


def postgres_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_TEST_DATABASE_URL


def postgres_required() -> bool:
    return os.environ.get("PBP_REQUIRE_POSTGRES", "").strip() not in ("", "0")


_server: dict[str, str | None] = {}  # url -> None (answers) or why not; asked once per run


async def postgres_unavailable(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used (None: it answers)."""
    if url not in _server:
        try:
            import asyncpg
        except ImportError:  # pragma: no cover - asyncpg is a dependency
            _server[url] = "asyncpg is not installed"
            return _server[url]
        try:
            conn = await asyncpg.connect(url, timeout=3)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            _server[url] = f"no PostgreSQL at {url} ({type(exc).__name__}: {exc})"
        else:
            await conn.close()
            _server[url] = None
    return _server[url]


@dataclass
class Backend:
    """One database of one backend, and everything a test needs to reach it directly."""

    name: str
    path: Path | None = None  # sqlite: the file
    url: str | None = None  # postgres: the server
    schema: str | None = None  # postgres: this test's schema
    opened: list[Repository] = field(default_factory=list)

    def make(self, **kwargs: Any) -> Repository:
        """A new (unopened) repository on this test's database; closed after the test."""
        repo: Repository
        if self.name == "sqlite":
            assert self.path is not None
            repo = SqliteRepository(self.path)
        else:
            from bot.storage.postgres import PostgresRepository

            assert self.url is not None
            repo = PostgresRepository(self.url, schema=self.schema, **kwargs)
        self.opened.append(repo)
        return repo

    async def open(self, **kwargs: Any) -> Repository:
        repo = self.make(**kwargs)
        await repo.open()
        return repo

    @property
    def integrity_error(self) -> type[Exception]:
        """What a constraint or trigger refusal raises (the driver's own error)."""
        if self.name == "sqlite":
            import sqlite3

            return sqlite3.IntegrityError
        import asyncpg

        return asyncpg.IntegrityConstraintViolationError  # type: ignore[no-any-return]

    @property
    def read_only_error(self) -> type[Exception]:
        if self.name == "sqlite":
            import sqlite3

            return sqlite3.OperationalError
        import asyncpg

        return asyncpg.ReadOnlySQLTransactionError  # type: ignore[no-any-return]

    async def execute(self, sql: str) -> list[tuple[Any, ...]]:
        """Run raw SQL on a connection of its own (as another process would), committed."""
        if self.name == "sqlite":
            import sqlite3

            with sqlite3.connect(self.path) as raw:  # type: ignore[arg-type]
                rows = raw.execute(sql).fetchall()
            raw.close()
            return [tuple(r) for r in rows]
        import asyncpg

        conn = await asyncpg.connect(self.url, server_settings={"search_path": self.schema})
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()

    async def tables(self) -> set[str]:
        if self.name == "sqlite":
            rows = await self.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await self.execute(
                "SELECT table_name FROM information_schema.tables "
                f"WHERE table_schema = '{self.schema}'"
            )
        return {name for (name,) in rows}


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        found = Backend("sqlite", path=tmp_path / "bot.sqlite3")
        yield found
        for repo in found.opened:
            await repo.close()
        return
    url = postgres_url()
    reason = await postgres_unavailable(url)
    if reason is not None:
        if postgres_required():
            pytest.fail(f"PBP_REQUIRE_POSTGRES is set but {reason}")
        pytest.skip(reason)
    import asyncpg

    schema = f"pbp_test_{uuid.uuid4().hex[:16]}"
    found = Backend("postgres", url=url, schema=schema)
    try:
        yield found
    finally:
        for repo in found.opened:
            await repo.close()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()


@pytest.fixture
async def repo(backend: Backend) -> Repository:
    """The opened (migrated) repository of the test's backend."""
    return await backend.open()
