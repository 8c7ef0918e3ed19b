"""The storage tests run on both backends: ``backend`` and ``repo`` come from backends.py
(SQLite on a fresh file; PostgreSQL in a fresh schema, skipped where no server answers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import SqliteRepository
from tests.storage.backends import backend, repo

__all__ = ["backend", "repo", "sqlite_repo"]


@pytest.fixture
async def sqlite_repo(db_path: Path) -> AsyncIterator[SqliteRepository]:
    """For the tests of SQLite's own settings (WAL, pragmas, its read connections)."""
    repository = SqliteRepository(db_path)
    await repository.open()
    try:
        yield repository
    finally:
        await repository.close()
