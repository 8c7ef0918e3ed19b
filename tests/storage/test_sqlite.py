"""SQLite's own settings: WAL and foreign keys on a real file, busy timeout, and the migration
scripts split into statements (so a migration runs inside one ``BEGIN IMMEDIATE``). The
repository's semantics are tested on both backends in test_repository.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import SqliteRepository
from bot.storage.sqlite import migrations, statements
from tests.storage.test_repository import game_row


async def pragma(repo: SqliteRepository, name: str) -> object:
    async with repo.conn.execute(f"PRAGMA {name}") as cur:
        row = await cur.fetchone()
    assert row is not None
    return row[0]


async def test_file_database_uses_wal_and_foreign_keys(
    sqlite_repo: SqliteRepository, db_path: Path
) -> None:
    repo = sqlite_repo
    assert db_path.is_file()
    assert str(await pragma(repo, "journal_mode")).lower() == "wal"
    assert await pragma(repo, "foreign_keys") == 1
    assert await pragma(repo, "busy_timeout") == 5000
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
    # WAL is a property of the file: another connection sees it too
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
    assert db_path.with_name(db_path.name + "-wal").exists()


def test_migration_scripts_split_into_whole_statements() -> None:
    ledger = dict(migrations())[3]
    parts = statements(ledger)
    # a trigger's body (BEGIN … END with its own semicolons) stays one statement
    triggers = [p for p in parts if "CREATE TRIGGER" in p]
    assert len(triggers) == 2 and all(p.rstrip().endswith("END;") for p in triggers)
    assert all(sqlite3.complete_statement(p) for p in parts)
    assert statements("CREATE TABLE t (x INTEGER);\n-- trailing comment\n") == [
        "CREATE TABLE t (x INTEGER);"
    ]
    assert statements("SELECT 1;\nSELECT 2") == ["SELECT 1;", "SELECT 2"]
