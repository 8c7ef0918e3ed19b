"""Concurrency, on both backends: reads beside an open write, and writers racing on one game,
one league, one counter or one ``/roll`` chain.

SQLite has one writer at a time; PostgreSQL has many, and gets the same outcomes from the row
locks and advisory locks of ``bot/storage/postgres.py`` plus the compare-and-set on versions.
Each race below would lose an order, raise a conflict or reuse an id or a seed without them.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import LeagueRow, Repository, SqliteRepository, VersionConflict
from tests.storage.backends import Backend
from tests.storage.test_repository import game_row, order_row

pg_only = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


# --- reads -------------------------------------------------------------------------------------


async def test_read_runs_beside_an_open_write_and_sees_committed_rows_only(
    repo: Repository,
) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row("g-0001"))
    async with repo.transaction() as tx:
        await tx.insert_game(game_row("g-0002"))
        # The write is open here: a read that waited for it would never finish.
        async with asyncio.timeout(30):
            async with repo.read() as reader:
                first = await reader.get_game("g-0001")
                second = await reader.get_game("g-0002")
    assert first is not None and first.seats[1].name == "ボレアリス"
    assert second is None  # not committed when the read ran
    async with repo.read() as reader:
        assert await reader.get_game("g-0002") is not None


async def test_a_read_does_not_wait_for_a_writer_holding_the_game(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
    async with repo.transaction() as tx:
        assert await tx.get_game("g-0001") is not None  # held (PostgreSQL: FOR UPDATE)
        async with asyncio.timeout(30), repo.read() as reader:
            assert await reader.get_game("g-0001") is not None


async def test_read_connections_refuse_writes(backend: Backend, repo: Repository) -> None:
    with pytest.raises(backend.read_only_error, match=r"(?i)read-?only"):
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


# --- writers racing ----------------------------------------------------------------------------


async def test_racing_resolvers_resolve_a_turn_exactly_once(repo: Repository) -> None:
    """Each resolver reads the game in its write transaction and moves it on only if it is
    still at the version it read: one moves it, the others find it moved (no conflict raised:
    they read after the winner committed)."""
    async with repo.transaction() as tx:
        await tx.insert_game(game_row(version=3))

    async def resolve() -> bool:
        async with repo.transaction() as tx:
            game = await tx.get_game("g-0001")
            assert game is not None
            if game.version != 3:
                return False
            await asyncio.sleep(0.05)  # the others arrive while this one holds the game
            game.version, game.step = 4, 2
            await tx.update_game(game, expect_version=3)
            await tx.add_events("g-0001", 1, [{"resolved": True}])
            return True

    results = await asyncio.gather(*(resolve() for _ in range(5)))
    assert sorted(results) == [False] * 4 + [True]
    async with repo.read() as tx:
        assert await tx.events("g-0001") == [(1, {"resolved": True})]


async def test_an_order_racing_the_resolution_lands_in_a_turn_that_sees_it(
    repo: Repository,
) -> None:
    """The lost order: a submit that read turn 1 before the resolution committed must not store
    its order into turn 1 after the resolver read turn 1's orders."""
    async with repo.transaction() as tx:
        await tx.insert_game(game_row())
    resolver_holds = asyncio.Event()
    seen_by_resolver: list[str] = []

    async def resolve() -> None:
        async with repo.transaction() as tx:
            game = await tx.get_game("g-0001")
            assert game is not None
            seen_by_resolver.extend(await tx.orders_for_turn("g-0001", game.step))
            resolver_holds.set()
            await asyncio.sleep(0.2)  # the order arrives now
            expect = game.version
            game.version, game.step = expect + 1, game.step + 1
            await tx.update_game(game, expect_version=expect)

    async def submit() -> int:
        await resolver_holds.wait()
        async with repo.transaction() as tx:
            game = await tx.get_game("g-0001")
            assert game is not None
            await tx.put_order(order_row("B", "late", turn=game.step))
            return game.step

    _, turn = await asyncio.gather(resolve(), submit())
    assert "B" not in seen_by_resolver
    assert turn == 2  # it waited for the resolution and went to the next turn
    async with repo.read() as tx:
        assert await tx.orders_for_turn("g-0001", 1) == {}
        assert list(await tx.orders_for_turn("g-0001", 2)) == ["B"]


@pg_only
async def test_compare_and_set_between_two_open_transactions(repo: Repository) -> None:
    """Two writers that both read version 3 (outside their transactions) update at once: the
    second UPDATE waits for the first writer's row lock, then re-checks ``version = 3`` on the
    committed row and changes nothing. Exactly one wins."""
    async with repo.transaction() as tx:
        await tx.insert_game(game_row(version=3))
    async with repo.read() as tx:
        read = await tx.get_game("g-0001")
    assert read is not None
    first_updated = asyncio.Event()
    release_first = asyncio.Event()

    async def first() -> str:
        async with repo.transaction() as tx:
            read.version, read.state = 4, {"by": "first"}
            await tx.update_game(read, expect_version=3)
            first_updated.set()
            await release_first.wait()
        return "won"

    async def second() -> str:
        await first_updated.wait()
        mine = game_row(version=4)
        mine.state = {"by": "second"}
        try:
            async with repo.transaction() as tx:
                waiting = asyncio.ensure_future(tx.update_game(mine, expect_version=3))
                await asyncio.sleep(0.2)
                assert not waiting.done()  # blocked on the first writer's row lock
                release_first.set()
                await waiting
        except VersionConflict:
            return "lost"
        return "won"

    assert sorted(await asyncio.gather(first(), second())) == ["lost", "won"]
    async with repo.read() as tx:
        stored = await tx.get_game("g-0001")
    assert stored is not None and (stored.version, stored.state) == (4, {"by": "first"})


async def test_racing_creators_take_distinct_game_numbers(repo: Repository) -> None:
    async def create() -> str:
        async with repo.transaction() as tx:
            game_id = f"g-{await tx.next_game_number():04d}"
            await asyncio.sleep(0.02)  # the others count while this one has not inserted yet
            await tx.insert_game(game_row(game_id))
            return game_id

    ids = await asyncio.gather(*(create() for _ in range(4)))
    assert sorted(ids) == ["g-0001", "g-0002", "g-0003", "g-0004"]


async def test_racing_rolls_never_share_a_seed(repo: Repository) -> None:
    """Each /roll takes the committed seed and commits the next: racing rolls in one channel
    (the chain not even started yet) get consecutive numbers, each seed used once."""
    scope = 1_100_000_000_000_000_001

    async def roll(me: int) -> tuple[int, str]:
        async with repo.transaction() as tx:
            stored = await tx.roll_stream(scope)
            number, seed = stored if stored is not None else (1, f"first-{me}")
            await asyncio.sleep(0.02)
            await tx.set_roll_stream(scope, number + 1, f"seed-{number + 1}", "c")
            return number, seed

    rolls = await asyncio.gather(*(roll(i) for i in range(5)))
    assert sorted(n for n, _ in rolls) == [1, 2, 3, 4, 5]
    assert len({seed for _, seed in rolls}) == 5


async def test_racing_league_actions_all_apply(repo: Repository) -> None:
    """League actions read the document, change it and compare-and-set it (without retrying):
    racing actions take turns on the league instead of failing with a conflict."""
    async with repo.transaction() as tx:
        await tx.insert_league(LeagueRow("L1", 10, "Spring", {"joined": []}), now=0.0)

    async def join(player: int) -> None:
        async with repo.transaction() as tx:
            league = await tx.get_league("L1")
            assert league is not None
            version = league.version
            await asyncio.sleep(0.02)
            league.data = {"joined": [*league.data["joined"], player]}
            league.version = version + 1
            await tx.update_league(league, expect_version=version, now=1.0)

    await asyncio.gather(*(join(p) for p in range(4)))
    async with repo.read() as tx:
        league = await tx.get_league("L1")
    assert league is not None and league.version == 5
    assert sorted(league.data["joined"]) == [0, 1, 2, 3]


@pg_only
async def test_two_processes_race_like_one(backend: Backend) -> None:
    """The same races between two repositories (two processes' pools) on one database."""
    one, two = await backend.open(), await backend.open()
    async with one.transaction() as tx:
        await tx.insert_game(game_row(version=3))

    async def resolve(repo: Repository) -> bool:
        async with repo.transaction() as tx:
            game = await tx.get_game("g-0001")
            assert game is not None
            if game.version != 3:
                return False
            await asyncio.sleep(0.05)
            game.version = 4
            await tx.update_game(game, expect_version=3)
            return True

    results = await asyncio.gather(*(resolve(r) for r in (one, two, one, two)))
    assert sorted(results) == [False, False, False, True]
