"""A server's seasons per ruleset (``SeasonStore``) and the games a season's history is read from
(``GameStore.games_of_ruleset``), on both backends: seasons numbered 1, 2, … per (server,
ruleset), the highest the current one, racing starts numbered one after the other, a failed
start taking no number; the games of one ruleset in one server since a time, any status, oldest
first."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.storage import GameRow, Repository
from bot.storage.base import SeasonRow
from tests.storage.test_repository import game_row

GUILD = 1_152_921_504_606_846_977  # beyond 2**60: PostgreSQL's BIGINT
OTHER = GUILD + 1
MOD = 1_152_921_504_606_846_999
T0 = 1_900_000_000.25


async def test_seasons_count_up_and_the_highest_is_current(repo: Repository) -> None:
    async with repo.read() as tx:
        assert await tx.current_season(GUILD, "esper") is None
    async with repo.transaction() as tx:
        first = await tx.start_season(GUILD, "esper", MOD, T0)
    assert first == SeasonRow(GUILD, "esper", 1, T0, MOD)
    async with repo.read() as tx:
        assert await tx.current_season(GUILD, "esper") == first
    async with repo.transaction() as tx:
        second = await tx.start_season(GUILD, "esper", 7, T0 + 86_400.5)
        # Within the starting transaction the new season is already the current one.
        assert await tx.current_season(GUILD, "esper") == second
    assert second == SeasonRow(GUILD, "esper", 2, T0 + 86_400.5, 7)
    async with repo.read() as tx:
        assert await tx.current_season(GUILD, "esper") == second


async def test_each_server_and_ruleset_numbers_its_own_seasons(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.start_season(GUILD, "esper", MOD, T0)
        await tx.start_season(GUILD, "esper", MOD, T0 + 1)
        other_guild = await tx.start_season(OTHER, "esper", MOD, T0 + 2)
        other_ruleset = await tx.start_season(GUILD, "apeiron", MOD, T0 + 3)
        third = await tx.start_season(GUILD, "esper", MOD, T0 + 4)
    assert (other_guild.number, other_ruleset.number, third.number) == (1, 1, 3)
    async with repo.read() as tx:
        assert (await tx.current_season(OTHER, "esper")) == other_guild
        assert (await tx.current_season(GUILD, "apeiron")) == other_ruleset
        assert (await tx.current_season(GUILD, "esper")) == third
        assert await tx.current_season(OTHER, "apeiron") is None


async def test_racing_starts_open_consecutive_seasons(repo: Repository) -> None:
    """Two moderators starting a season at once (PostgreSQL: two writers) never take the same
    number; the second numbers after the first has committed."""

    async def start(by: int) -> int:
        async with repo.transaction() as tx:
            season = await tx.start_season(GUILD, "esper", by, T0 + by)
            await asyncio.sleep(0.02)  # the others start while this one has not committed
            return season.number

    numbers = await asyncio.gather(*(start(i) for i in range(4)))
    assert sorted(numbers) == [1, 2, 3, 4]
    async with repo.read() as tx:
        current = await tx.current_season(GUILD, "esper")
    assert current is not None and current.number == 4


async def test_a_failed_start_takes_no_number(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.start_season(GUILD, "esper", MOD, T0)
    with pytest.raises(RuntimeError):
        async with repo.transaction() as tx:
            await tx.start_season(GUILD, "esper", MOD, T0 + 1)
            raise RuntimeError("the announcement could not be queued")
    async with repo.transaction() as tx:
        again = await tx.start_season(GUILD, "esper", MOD, T0 + 2)
    assert (again.number, again.started_at) == (2, T0 + 2)


def game(
    number: int, *, ruleset: str = "esper", guild: int | None = GUILD, at: float, status: str
) -> GameRow:
    return dataclasses.replace(
        game_row(f"g-{number:04d}"),
        ruleset=ruleset,
        guild_id=guild,
        status=status,
        created_at=at,
        updated_at=at,
    )


async def test_games_of_a_ruleset_in_a_server_since_a_time_oldest_first(
    repo: Repository,
) -> None:
    games = [
        game(1, at=T0 - 10, status="finished"),  # before the season
        game(2, at=T0, status="finished"),  # the instant it started: in it
        game(3, at=T0 + 50, status="active"),
        game(4, at=T0 + 20, status="abandoned"),  # created out of number order
        game(5, ruleset="apeiron", at=T0 + 30, status="finished"),
        game(6, guild=OTHER, at=T0 + 30, status="finished"),
        game(7, guild=None, at=T0 + 30, status="finished"),  # a game by DM: no server
        game(8, at=T0 + 50, status="setup"),  # the same instant as g-0003
        game(10_000, at=T0 + 50, status="paused"),  # numbers past 9999 sort after 9999
        game(9_999, at=T0 + 50, status="active"),
    ]
    async with repo.transaction() as tx:
        for row in games:
            await tx.insert_game(row)
    async with repo.read() as tx:
        since = await tx.games_of_ruleset(GUILD, "esper", since=T0)
        every = await tx.games_of_ruleset(GUILD, "esper")
        other = await tx.games_of_ruleset(OTHER, "esper", T0)
        apeiron = await tx.games_of_ruleset(GUILD, "apeiron", T0)
        later = await tx.games_of_ruleset(GUILD, "esper", T0 + 51)
    assert [g.id for g in since] == ["g-0002", "g-0004", "g-0003", "g-0008", "g-9999", "g-10000"]
    assert [g.id for g in every] == ["g-0001", *(g.id for g in since)]
    assert [g.id for g in other] == ["g-0006"]
    assert [g.id for g in apeiron] == ["g-0005"]
    assert later == []
    # Whole games: the state each seat's character is read from, and the seats.
    first = since[0]
    assert first.state == {"turn": 1, "z": 0, "a": [1.5, None]}
    assert [s.user_id for s in first.seats] == [1000, 1_234_567_890_123_456_789]
    assert (first.status, first.created_at) == ("finished", T0)
