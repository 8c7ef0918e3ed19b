"""The storage tests' repository: a real SQLite file (WAL), opened and migrated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import SqliteRepository


@pytest.fixture
async def repo(db_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(db_path)
    await repository.open()
    try:
        yield repository
    finally:
        await repository.close()
