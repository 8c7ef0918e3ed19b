"""Read connections of the SQLite repository.

``read()`` runs beside an open write transaction (it never queues behind the write lock) and sees
committed data only; it cannot write.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import SqliteRepository
from tests.storage.test_sqlite import game_row


def committed_games(db_path: Path) -> set[str]:
    """What another process would see: only committed rows."""
    conn = sqlite3.connect(db_path)
    try:
        return {row[0] for row in conn.execute("SELECT id FROM games")}
    finally:
        conn.close()


async def test_read_runs_beside_an_open_write_and_sees_committed_rows_only(repo) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row("g-0001"))
    async with repo.transaction() as tx:
        await tx.insert_game(game_row("g-0002"))
        # The write lock is held here: a read that needed it would never finish.
        async with asyncio.timeout(30):
            async with repo.read() as reader:
                first = await reader.get_game("g-0001")
                second = await reader.get_game("g-0002")
    assert first is not None and first.seats[1].name == "ボレアリス"
    assert second is None  # not committed when the read ran
    async with repo.read() as reader:
        assert await reader.get_game("g-0002") is not None


async def test_read_connections_refuse_writes(repo) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        async with repo.read() as reader:
            await reader.insert_game(game_row("g-0001"))
    async with repo.read() as reader:
        assert await reader.get_game("g-0001") is None


async def test_an_in_memory_database_reads_through_its_only_connection() -> None:
    repo = SqliteRepository(":memory:")
    await repo.open()
    try:
        async with repo.transaction() as tx:
            await tx.insert_game(game_row("g-0001"))
        async with repo.read() as reader:
            assert await reader.get_game("g-0001") is not None
    finally:
        await repo.close()
