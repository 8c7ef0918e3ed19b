"""The repository's semantics, on both backends (SQLite and PostgreSQL, see backends.py):
migrations, games and the version compare-and-set, rollback, the outbox, leagues and the
append-only roster ledger, preferences."""

from __future__ import annotations

import pytest

from bot.storage import (
    GameRow,
    LeagueRow,
    OrderRow,
    Repository,
    SeatRow,
    SqliteRepository,
    StorageError,
    StreamRow,
    VersionConflict,
    open_repository,
)
from bot.storage.postgres import PostgresRepository
from bot.storage.postgres import migrations as pg_migrations
from bot.storage.sqlite import migrations as sqlite_migrations
from tests.storage.backends import Backend


def game_row(game_id: str = "g-0001", version: int = 0) -> GameRow:
    return GameRow(
        id=game_id,
        ruleset="arena",
        guild_id=10,
        channel_id=20,
        status="active",
        options={"obstacles": [[0, 0]]},
        # Discord ids are 64-bit: PostgreSQL must keep them (BIGINT), not only SQLite.
        seats=[
            SeatRow("A", 1000, "Aurora", 0),
            SeatRow("B", 1_234_567_890_123_456_789, "ボレアリス", 1, dm_open=False),
        ],
        state={"turn": 1, "z": 0, "a": [1.5, None]},
        version=version,
        step=1,
        created_at=1.0,
        updated_at=1.0,
    )


def order_row(seat: str = "A", text: str = "move", turn: int = 1) -> OrderRow:
    return OrderRow("g-0001", turn, seat, text, "00", "ab" * 32, 1000, False, 1, 2.0)


# --- URLs --------------------------------------------------------------------------------------


def test_database_urls_choose_the_backend() -> None:
    sqlite = open_repository("sqlite:///data/x.sqlite3")
    assert isinstance(sqlite, SqliteRepository) and sqlite.path == "data/x.sqlite3"
    memory = open_repository("sqlite://:memory:")
    assert isinstance(memory, SqliteRepository) and memory.path == ":memory:"
    for url in ("postgresql://bot@db:5432/pbp", "postgres://bot@db/pbp?sslmode=require"):
        repo = open_repository(url)
        assert isinstance(repo, PostgresRepository) and repo.url == url
    with pytest.raises(StorageError, match="postgresql://"):
        open_repository("mysql://localhost/db")


# --- migrations --------------------------------------------------------------------------------


def test_both_backends_number_their_migrations_alike() -> None:
    sqlite = [n for n, _ in sqlite_migrations()]
    assert sqlite == sorted(set(sqlite)) and sqlite[:2] == [1, 2]
    assert [n for n, _ in pg_migrations()] == sqlite


async def applied(backend: Backend) -> list[int]:
    rows = await backend.execute("SELECT version FROM schema_migrations ORDER BY version")
    return [v for (v,) in rows]


async def test_migrations_applied_once_and_reopen_is_idempotent(backend: Backend) -> None:
    first = await backend.open()
    async with first.transaction() as tx:
        await tx.insert_game(game_row())
    await first.close()
    numbers = [n for n, _ in sqlite_migrations()]
    assert await applied(backend) == numbers
    tables = await backend.tables()
    assert {"games", "seats", "orders", "outbox", "roll_streams", "roster_ledger"} <= tables
    for _ in range(2):
        again = await backend.open()  # must not re-run 001 (CREATE TABLE games would fail)
        async with again.read() as tx:
            assert (await tx.get_game("g-0001")) is not None
        await again.close()
    assert await applied(backend) == numbers


async def test_migrations_applied_by_several_processes_at_once(backend: Backend) -> None:
    import asyncio

    repos = [backend.make() for _ in range(3)]
    await asyncio.gather(*(r.open() for r in repos))
    assert await applied(backend) == [n for n, _ in sqlite_migrations()]
    async with repos[1].transaction() as tx:
        await tx.insert_game(game_row())
    async with repos[2].read() as tx:
        assert await tx.get_game("g-0001") is not None


async def test_a_pending_migration_is_applied_on_open(backend: Backend) -> None:
    await (await backend.open()).close()
    # an older database: migration 2 not yet applied
    await backend.execute("DROP TABLE roll_streams")
    await backend.execute("DELETE FROM schema_migrations WHERE version = 2")
    assert "roll_streams" not in await backend.tables()
    repo = await backend.open()
    async with repo.transaction() as tx:
        await tx.set_roll_stream(5, 1, "00" * 32, "ff" * 32)
        assert await tx.roll_stream(5) == (1, "00" * 32)
    assert await applied(backend) == [n for n, _ in sqlite_migrations()]


# --- games and the version compare-and-set -----------------------------------------------------


async def test_game_round_trip(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        await tx.set_accepted("g-0001", "B")
        await tx.set_left("g-0001", "B", 3)
        await tx.put_state("g-0001", 1, 1, {"x": "一"})
    async with repo.read() as tx:
        game = await tx.get_game("g-0001")
        assert await tx.get_state("g-0001", 1) == {"x": "一"}
        assert await tx.get_state("g-0001", 2) is None
        assert [g.id for g in await tx.games_for_user(1000, ("active",))] == ["g-0001"]
        assert await tx.games_for_user(1000, ("finished",)) == []
        assert [g.id for g in await tx.games_in_channel(20, ("active", "paused"))] == ["g-0001"]
        assert [g.id for g in await tx.games_with_status(("active",))] == ["g-0001"]
        assert await tx.next_game_number() == 2
    assert game is not None
    assert game.options == {"obstacles": [[0, 0]]} and game.state == {
        "turn": 1,
        "z": 0,
        "a": [1.5, None],
    }
    assert list(game.state) == ["turn", "z", "a"]  # the JSON text comes back as written
    assert game.seat_order == ["A", "B"] and game.names["B"] == "ボレアリス"
    assert game.user_of("B") == 1_234_567_890_123_456_789 and game.seat_of(1000) == "A"
    a, b = game.seats
    assert (a.dm_open, a.accepted, a.left_turn) == (None, False, None)
    assert (b.dm_open, b.accepted, b.left_turn) == (False, True, 3)


async def test_due_games(repo: Repository) -> None:
    game = game_row()
    game.deadline_at, game.step_seconds = 100.0, 60
    async with repo.transaction() as tx:
        await tx.insert_game(game)
        await tx.insert_game(game_row("g-0002"))  # no deadline
    async with repo.read() as tx:
        assert await tx.due_games(69.0) == []
        assert [g.id for g in await tx.due_games(70.0)] == ["g-0001"]  # half time


async def test_stale_version_raises_version_conflict(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row(version=3))
    # two resolvers read version 3; the first one wins
    async with repo.read() as tx:
        mine = await tx.get_game("g-0001")
    async with repo.read() as tx:
        theirs = await tx.get_game("g-0001")
    assert mine is not None and theirs is not None
    theirs.version, theirs.turn, theirs.state = 4, 2, {"turn": 2}
    async with repo.transaction() as tx:
        await tx.update_game(theirs, expect_version=3)
    mine.version, mine.state, mine.status = 4, {"turn": "stale"}, "finished"
    with pytest.raises(VersionConflict):
        async with repo.transaction() as tx:
            await tx.update_game(mine, expect_version=3)
    async with repo.read() as tx:
        stored = await tx.get_game("g-0001")
    assert stored is not None
    assert (stored.version, stored.state, stored.status) == (4, {"turn": 2}, "active")
    # with the current version the same write goes through
    async with repo.transaction() as tx:
        mine.version = 5
        await tx.update_game(mine, expect_version=4)
        stored = await tx.get_game("g-0001")
        assert stored is not None and stored.status == "finished"


async def test_update_of_a_missing_game(repo: Repository) -> None:
    with pytest.raises(StorageError) as info:
        async with repo.transaction() as tx:
            await tx.update_game(game_row("g-nope"))
    assert not isinstance(info.value, VersionConflict)


async def test_a_failed_transaction_rolls_back(repo: Repository) -> None:
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


async def test_foreign_keys_are_enforced(backend: Backend, repo: Repository) -> None:
    with pytest.raises(backend.integrity_error):
        async with repo.transaction() as tx:
            await tx.put_state("g-missing", 1, 1, {"x": 1})
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        await tx.put_state("g-0001", 1, 1, {"x": 1})
    # ON DELETE CASCADE takes the seats and states along
    if backend.name == "sqlite":  # foreign keys are a connection setting there: use the repo's
        assert isinstance(repo, SqliteRepository)
        async with repo.transaction():
            await repo.conn.execute("DELETE FROM games WHERE id = 'g-0001'")
    else:
        await backend.execute("DELETE FROM games WHERE id = 'g-0001'")
    assert await backend.execute("SELECT COUNT(*) FROM seats") == [(0,)]
    assert await backend.execute("SELECT COUNT(*) FROM states") == [(0,)]


# --- orders, dice, events ----------------------------------------------------------------------


async def test_orders_are_replaced_with_a_revision_count(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        first = await tx.put_order(order_row("B", "hold"))
        second = await tx.put_order(order_row("B", "attack"))
        await tx.put_order(order_row("A", "move"))
        await tx.put_order(order_row("A", "later", turn=2))
        await tx.set_withheld("g-0001", 1, ["B"], True)
    assert (first.revisions, second.revisions, second.text) == (1, 2, "attack")
    async with repo.read() as tx:
        orders = await tx.orders_for_turn("g-0001", 1)
        every = await tx.all_orders("g-0001")
    assert sorted(orders) == ["A", "B"] and orders["B"].withheld and not orders["A"].withheld
    assert [(o.turn, o.seat) for o in every] == [(1, "A"), (1, "B"), (2, "A")]
    assert orders["A"].defaulted is False and orders["A"].user_id == 1000
    async with repo.transaction() as tx:
        await tx.set_withheld("g-0001", 1, None, False)
        assert not any(o.withheld for o in (await tx.orders_for_turn("g-0001", 1)).values())


async def test_streams_and_events(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
        await tx.put_stream(StreamRow("g-0001", 1, "resolve", "aa", "bb"))
        await tx.put_stream(StreamRow("g-0001", 1, "pre", "cc", "dd", step="turn 1"))
        await tx.put_stream(StreamRow("g-0001", 0, "secret", "ee", "ff"))
        await tx.add_events("g-0001", 1, [{"type": "a"}, {"type": "b"}])
        await tx.add_events("g-0001", 1, [{"type": "c"}])
        await tx.add_events("g-0001", 0, [{"type": "start"}])
    async with repo.transaction() as tx:
        streams = await tx.streams("g-0001")
        assert [(s.turn, s.phase) for s in streams] == [(0, "secret"), (1, "pre"), (1, "resolve")]
        pre = streams[1]
        pre.drawn, pre.revealed, pre.blocks, pre.orders_digest = [3, 4], True, 2, "dg"
        await tx.update_stream(pre)
    async with repo.read() as tx:
        (stored_pre, _) = await tx.streams("g-0001", 1)
        events = await tx.events("g-0001")
    assert (stored_pre.drawn, stored_pre.revealed, stored_pre.blocks) == ([3, 4], True, 2)
    assert (stored_pre.orders_digest, stored_pre.step) == ("dg", "turn 1")
    assert events == [
        (0, {"type": "start"}),
        (1, {"type": "a"}),
        (1, {"type": "b"}),
        (1, {"type": "c"}),
    ]


async def test_roll_streams_and_preferences(repo: Repository) -> None:
    scope = 987_654_321_987_654_321
    async with repo.transaction() as tx:
        assert await tx.roll_stream(scope) is None
        await tx.set_roll_stream(scope, 2, "aa", "bb")
        await tx.set_roll_stream(scope, 3, "cc", "dd")
        await tx.set_guild_language(scope, "ja")
        await tx.set_user_locale(scope, "en-GB")
        await tx.set_user_locale(scope, "ja")
    async with repo.read() as tx:
        assert await tx.roll_stream(scope) == (3, "cc")
        assert await tx.guild_language(scope) == "ja" and await tx.guild_language(1) is None
        assert await tx.user_locale(scope) == "ja" and await tx.user_locale(1) is None


# --- outbox ------------------------------------------------------------------------------------


async def test_outbox_rows_pending_until_sent(repo: Repository) -> None:
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
        assert [row.id for row in await tx.pending_outbox(10.0, after_id=first)] == [second]
        assert [row.id for row in await tx.pending_outbox(10.0, limit=1)] == [first]
    assert [row.id for row in pending] == [first, second]
    assert pending[0].payload == {"text": "一"} and pending[0].status == "pending"

    async with repo.transaction() as tx:
        await tx.mark_sent(first, message_id=1_300_000_000_000_000_777, channel_id=20, now=11.0)
    async with repo.transaction() as tx:
        assert [row.id for row in await tx.pending_outbox(12.0)] == [second]
        sent = await tx.get_outbox(first)
    assert sent is not None
    assert (sent.status, sent.message_id, sent.attempts) == ("sent", 1_300_000_000_000_000_777, 1)

    async with repo.transaction() as tx:
        await tx.mark_sent(second, message_id=None, channel_id=None, now=13.0)
    async with repo.transaction() as tx:
        assert await tx.pending_outbox(float("inf")) == []
        assert [row.status for row in await tx.outbox_for_game("g-0001")] == ["sent", "sent"]


async def test_a_users_dm_channel_is_where_the_last_dm_to_them_went(repo: Repository) -> None:
    async with repo.transaction() as tx:
        ids = [
            await tx.enqueue(game_id=None, kind=kind, target_id=target, payload={}, nonce=n, now=0)
            for kind, target, n in (("dm", 7, "a"), ("dm", 7, "b"), ("channel", 7, "c"))
        ]
        assert await tx.dm_channel(7) is None  # nothing sent yet
        await tx.mark_sent(ids[0], 100, 555, 1.0)
        await tx.mark_sent(ids[2], 101, 999, 1.0)  # a channel whose id equals the user's: no DM
    async with repo.transaction() as tx:
        await tx.mark_failed(ids[1], "403", retry_at=None)
    async with repo.read() as tx:
        assert await tx.dm_channel(7) == 555  # a failed DM found no channel
        assert await tx.dm_channel(8) is None


async def test_outbox_retry_and_failure(repo: Repository) -> None:
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


async def test_parts_sent_only_moves_forward(repo: Repository) -> None:
    async with repo.transaction() as tx:
        row = await tx.enqueue(game_id=None, kind="dm", target_id=1, payload={}, nonce="a", now=0)
        await tx.mark_parts_sent(row, 2)
        await tx.mark_parts_sent(row, 1)  # a slower sender's report: ignored
    async with repo.read() as tx:
        stored = await tx.get_outbox(row)
    assert stored is not None and (stored.parts_sent, stored.status) == (2, "pending")


async def test_superseded_edits_are_not_sent(repo: Repository) -> None:
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
        superseded = await tx.get_outbox(old)
        assert superseded is not None and superseded.status == "superseded"


# --- leagues and the roster ledger -------------------------------------------------------------


def league_row(league_id: str = "L1", name: str = "Spring") -> LeagueRow:
    return LeagueRow(league_id, 10, name, {"players": ["一"], "n": 1}, next_due=50.0)


def entry(unit: str, kind: str = "draft") -> dict[str, object]:
    return {"player": "1000", "unit": unit, "kind": kind, "at": 3.0, "by": "1000"}


async def test_leagues_compare_and_set_and_names(repo: Repository) -> None:
    async with repo.transaction() as tx:
        assert await tx.next_league_number() == 1
        await tx.insert_league(league_row(), now=1.0)
        with pytest.raises(VersionConflict):  # the same name in the same server
            await tx.insert_league(league_row("L2"), now=1.0)
        # the transaction is still usable after the refusal (PostgreSQL: nothing aborted)
        await tx.insert_league(league_row("L3", "Autumn"), now=1.0)
    async with repo.transaction() as tx:
        league = await tx.get_league("L1")
        assert league is not None and league.data == {"players": ["一"], "n": 1}
        league.version, league.data = 2, {"n": 2}
        await tx.update_league(league, expect_version=1, now=2.0)
        with pytest.raises(VersionConflict):
            await tx.update_league(league, expect_version=1, now=2.0)
    async with repo.read() as tx:
        assert [lg.id for lg in await tx.leagues_in_guild(10)] == ["L1", "L3"]
        assert [lg.id for lg in await tx.active_leagues()] == ["L1", "L3"]
        assert [lg.id for lg in await tx.due_leagues(50.0)] == ["L1", "L3"]
        assert await tx.due_leagues(49.0) == []
        stored = await tx.get_league("L1")
    assert stored is not None and (stored.version, stored.data) == (2, {"n": 2})


async def test_league_matches_are_recorded_once(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_league(league_row(), now=1.0)
        await tx.insert_game(game_row())
        await tx.add_league_match("L1", "g-0001")
        assert await tx.unrecorded_league_games() == []  # still running
        game = await tx.get_game("g-0001")
        assert game is not None
        game.status = "finished"
        await tx.update_game(game)
        assert await tx.unrecorded_league_games() == [("L1", "g-0001")]
        await tx.mark_league_match_recorded("g-0001")
        assert await tx.unrecorded_league_games() == []


async def test_the_roster_ledger_is_append_only_in_the_database(
    backend: Backend, repo: Repository
) -> None:
    async with repo.transaction() as tx:
        await tx.insert_league(league_row(), now=1.0)
        await tx.append_ledger(
            "L1", [entry("knight"), {**entry("mage"), "ref": "g-1", "note": "n"}]
        )
        await tx.append_ledger("L1", [entry("knight", "release")])
    # Not this code's promise: the database refuses, whoever connects to it.
    for statement in (
        "UPDATE roster_ledger SET unit = 'dragon'",
        "DELETE FROM roster_ledger WHERE unit = 'knight'",
    ):
        with pytest.raises(backend.integrity_error, match="append-only"):
            await backend.execute(statement)
    if backend.name == "postgres":  # TRUNCATE fires no row trigger: refused on its own
        with pytest.raises(backend.integrity_error, match="append-only"):
            await backend.execute("TRUNCATE roster_ledger CASCADE")
    # and from inside a transaction of the repository's own, which then rolls back whole
    with pytest.raises(backend.integrity_error):
        async with repo.transaction() as tx:
            await tx.append_ledger("L1", [entry("rogue")])
            # raw SQL on the transaction's own connection (both drivers: conn.execute(sql))
            await tx.conn.execute("DELETE FROM roster_ledger")  # type: ignore[attr-defined]
    async with repo.read() as tx:
        ledger = await tx.ledger("L1")
    assert [(e["unit"], e["kind"]) for e in ledger] == [
        ("knight", "draft"),
        ("mage", "draft"),
        ("knight", "release"),
    ]
    assert ledger[1] == {
        "league": "L1",
        "player": "1000",
        "unit": "mage",
        "kind": "draft",
        "at": 3.0,
        "by": "1000",
        "ref": "g-1",
        "note": "n",
    }
