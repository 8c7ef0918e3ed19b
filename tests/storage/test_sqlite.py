"""The SQLite repository on a real file: WAL and foreign keys, migrations, compare-and-set on the
game version, the outbox, and transactions that roll back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    GameRow,
    SeatRow,
    SqliteRepository,
    StorageError,
    VersionConflict,
    open_repository,
)
from bot.storage.sqlite import migrations


def game_row(game_id: str = "g-0001", version: int = 0) -> GameRow:
    return GameRow(
        id=game_id,
        ruleset="arena",
        guild_id=10,
        channel_id=20,
        status="active",
        options={"obstacles": [[0, 0]]},
        seats=[SeatRow("A", 1000, "Aurora", 0), SeatRow("B", 1001, "ボレアリス", 1)],
        state={"turn": 1},
        version=version,
        turn=1,
        created_at=1.0,
        updated_at=1.0,
    )


async def pragma(repo: SqliteRepository, name: str) -> object:
    async with repo.conn.execute(f"PRAGMA {name}") as cur:
        row = await cur.fetchone()
    assert row is not None
    return row[0]


# --- connection settings -----------------------------------------------------------------------


async def test_file_database_uses_wal_and_foreign_keys(repo: SqliteRepository, db_path) -> None:
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


async def test_foreign_keys_are_enforced(repo: SqliteRepository) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        async with repo.transaction() as tx:
            await tx.put_state("g-missing", 1, 1, {"x": 1})
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        await tx.put_state("g-0001", 1, 1, {"x": 1})
    # ON DELETE CASCADE takes the seats and states along
    async with repo.transaction() as tx:
        await repo.conn.execute("DELETE FROM games WHERE id = 'g-0001'")
    async with repo.conn.execute("SELECT COUNT(*) FROM seats") as cur:
        assert (await cur.fetchone())[0] == 0
    async with repo.conn.execute("SELECT COUNT(*) FROM states") as cur:
        assert (await cur.fetchone())[0] == 0


def test_database_urls() -> None:
    assert isinstance(open_repository("sqlite:///data/x.sqlite3"), SqliteRepository)
    assert open_repository("sqlite:///data/x.sqlite3").path == "data/x.sqlite3"
    assert open_repository("sqlite://:memory:").path == ":memory:"
    with pytest.raises(StorageError):
        open_repository("postgres://localhost/db")


# --- migrations --------------------------------------------------------------------------------


def applied(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as raw:
        return raw.execute(
            "SELECT version, applied_at FROM schema_migrations ORDER BY version"
        ).fetchall()


def tables(db_path: Path) -> set[str]:
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


async def test_migrations_applied_once_and_reopen_is_idempotent(db_path: Path) -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == sorted(set(numbers)) and numbers[:2] == [1, 2]
    first = SqliteRepository(db_path)
    await first.open()
    async with first.transaction() as tx:
        await tx.insert_game(game_row())
    await first.close()
    before = applied(db_path)
    assert [v for v, _ in before] == numbers
    assert {"games", "seats", "orders", "outbox", "roll_streams"} <= tables(db_path)

    for _ in range(2):
        again = SqliteRepository(db_path)
        await again.open()  # must not re-run 001 (CREATE TABLE games would fail)
        async with again.transaction() as tx:
            assert (await tx.get_game("g-0001")) is not None
        await again.close()
    assert applied(db_path) == before


async def test_a_pending_migration_is_applied_on_open(db_path: Path) -> None:
    repo = SqliteRepository(db_path)
    await repo.open()
    await repo.close()
    # an older database: migration 2 not yet applied
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TABLE roll_streams")
        raw.execute("DELETE FROM schema_migrations WHERE version = 2")
    assert "roll_streams" not in tables(db_path)
    repo = SqliteRepository(db_path)
    await repo.open()
    async with repo.transaction() as tx:
        await tx.set_roll_stream(5, 1, "00" * 32, "ff" * 32)
        assert await tx.roll_stream(5) == (1, "00" * 32)
    await repo.close()
    assert [v for v, _ in applied(db_path)] == [n for n, _ in migrations()]


# --- games and the version compare-and-set -----------------------------------------------------


async def test_game_round_trip(repo: SqliteRepository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
    async with repo.transaction() as tx:
        game = await tx.get_game("g-0001")
    assert game is not None
    assert game.options == {"obstacles": [[0, 0]]} and game.state == {"turn": 1}
    assert game.seat_order == ["A", "B"] and game.names["B"] == "ボレアリス"
    assert game.user_of("B") == 1001 and game.seat_of(1000) == "A"


async def test_stale_version_raises_version_conflict(repo: SqliteRepository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row(version=3))
    # two resolvers read version 3; the first one wins
    async with repo.transaction() as tx:
        mine = await tx.get_game("g-0001")
    async with repo.transaction() as tx:
        theirs = await tx.get_game("g-0001")
    assert mine is not None and theirs is not None
    theirs.version, theirs.turn, theirs.state = 4, 2, {"turn": 2}
    async with repo.transaction() as tx:
        await tx.update_game(theirs, expect_version=3)
    mine.version, mine.state, mine.status = 4, {"turn": "stale"}, "finished"
    with pytest.raises(VersionConflict):
        async with repo.transaction() as tx:
            await tx.update_game(mine, expect_version=3)
    async with repo.transaction() as tx:
        stored = await tx.get_game("g-0001")
    assert stored is not None
    assert (stored.version, stored.state, stored.status) == (4, {"turn": 2}, "active")
    # with the current version the same write goes through
    async with repo.transaction() as tx:
        mine.version = 5
        await tx.update_game(mine, expect_version=4)
        assert (await tx.get_game("g-0001")).status == "finished"


async def test_update_of_a_missing_game(repo: SqliteRepository) -> None:
    with pytest.raises(StorageError) as info:
        async with repo.transaction() as tx:
            await tx.update_game(game_row("g-nope"))
    assert not isinstance(info.value, VersionConflict)


async def test_a_failed_transaction_rolls_back(repo: SqliteRepository) -> None:
    with pytest.raises(RuntimeError):
        async with repo.transaction() as tx:
            await tx.insert_game(game_row())
            await tx.enqueue(
                game_id="g-0001", kind="channel", target_id=20, payload={}, nonce="n1", now=1.0
            )
            raise RuntimeError("boom")
    async with repo.transaction() as tx:
        assert await tx.get_game("g-0001") is None
        assert await tx.pending_outbox(10.0) == []
        # and the connection is usable again (no transaction left open)
        await tx.insert_game(game_row())


# --- outbox ------------------------------------------------------------------------------------


async def test_outbox_rows_pending_until_sent(repo: SqliteRepository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        first = await tx.enqueue(
            game_id="g-0001",
            kind="channel",
            target_id=20,
            payload={"text": "一"},
            nonce="g-0001:1:post",
            now=5.0,
        )
        second = await tx.enqueue(
            game_id="g-0001", kind="dm", target_id=1000, payload={}, nonce="g-0001:1:dm", now=5.0
        )
        # the same nonce is the same message: enqueued once
        again = await tx.enqueue(
            game_id="g-0001",
            kind="channel",
            target_id=20,
            payload={"text": "二"},
            nonce="g-0001:1:post",
            now=6.0,
        )
    assert again == first and second > first
    async with repo.transaction() as tx:
        pending = await tx.pending_outbox(10.0)
    assert [row.id for row in pending] == [first, second]
    assert pending[0].payload == {"text": "一"} and pending[0].status == "pending"

    async with repo.transaction() as tx:
        await tx.mark_sent(first, message_id=777, channel_id=20, now=11.0)
    async with repo.transaction() as tx:
        assert [row.id for row in await tx.pending_outbox(12.0)] == [second]
        sent = await tx.get_outbox(first)
    assert sent is not None
    assert (sent.status, sent.message_id, sent.attempts) == ("sent", 777, 1)

    async with repo.transaction() as tx:
        await tx.mark_sent(second, message_id=None, channel_id=None, now=13.0)
    async with repo.transaction() as tx:
        assert await tx.pending_outbox(float("inf")) == []
        assert [row.status for row in await tx.outbox_for_game("g-0001")] == ["sent", "sent"]


async def test_outbox_retry_and_failure(repo: SqliteRepository) -> None:
    async with repo.transaction() as tx:
        retry = await tx.enqueue(game_id=None, kind="dm", target_id=1, payload={}, nonce="a", now=0)
        give_up = await tx.enqueue(
            game_id=None, kind="dm", target_id=2, payload={}, nonce="b", now=0
        )
        await tx.mark_failed(retry, "429", retry_at=100.0)
        await tx.mark_failed(give_up, "403 cannot DM", retry_at=None)
    async with repo.transaction() as tx:
        assert await tx.pending_outbox(99.0) == []  # not before its retry time
        due = await tx.pending_outbox(100.0)
        failed = await tx.get_outbox(give_up)
    assert [row.id for row in due] == [retry] and due[0].attempts == 1
    assert failed is not None and failed.status == "failed"


async def test_superseded_edits_are_not_sent(repo: SqliteRepository) -> None:
    async with repo.transaction() as tx:
        post = await tx.enqueue(
            game_id=None, kind="channel", target_id=1, payload={}, nonce="p", now=0
        )
        old = await tx.enqueue(
            game_id=None, kind="edit", target_id=1, payload={}, nonce="e1", ref_id=post, now=0
        )
        new = await tx.enqueue(
            game_id=None, kind="edit", target_id=1, payload={}, nonce="e2", ref_id=post, now=0
        )
        await tx.supersede_edits(post, new)
    async with repo.transaction() as tx:
        assert [row.id for row in await tx.pending_outbox(1.0)] == [post, new]
        assert (await tx.get_outbox(old)).status == "superseded"
