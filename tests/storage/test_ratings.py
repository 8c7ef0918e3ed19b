"""Players' ratings per ruleset per server (``LeagueStore.ratings``/``put_ratings``), on both
backends: written and read back exactly, replaced on a second write, kept apart per server and per
ruleset, a failed transaction writing nothing, and a reopened repository reading the same."""

from __future__ import annotations

import pytest

from bot.storage import Repository

GUILD = 1_152_921_504_606_846_977  # beyond 2**60: PostgreSQL's BIGINT
OTHER = GUILD + 1
T0 = 1_900_000_000.25


async def test_ratings_are_written_replaced_and_kept_apart(repo: Repository) -> None:
    async with repo.read() as tx:
        assert await tx.ratings(GUILD, "arena") == {}
    first = {
        "101": {"mu": 27.635231, "sigma": 8.0658, "games": 1},
        "102": {"mu": 22.364769, "sigma": 8.0658, "games": 1},
    }
    async with repo.transaction() as tx:
        await tx.put_ratings(GUILD, "arena", first, T0)
        assert await tx.ratings(GUILD, "arena") == first, "read inside the writing transaction"
    async with repo.transaction() as tx:
        await tx.put_ratings(GUILD, "arena", {"101": {"mu": 29.5, "sigma": 7.25, "games": 2}}, T0)
        await tx.put_ratings(OTHER, "arena", {"101": {"mu": 1.5, "sigma": 2.5, "games": 9}}, T0)
        await tx.put_ratings(GUILD, "tactics", {"103": {"mu": 3.5, "sigma": 4.5, "games": 1}}, T0)
    async with repo.read() as tx:
        assert await tx.ratings(GUILD, "arena") == {
            "101": {"mu": 29.5, "sigma": 7.25, "games": 2},
            "102": first["102"],
        }
        assert await tx.ratings(OTHER, "arena") == {"101": {"mu": 1.5, "sigma": 2.5, "games": 9}}
        assert list(await tx.ratings(GUILD, "tactics")) == ["103"]

    with pytest.raises(RuntimeError):
        async with repo.transaction() as tx:
            await tx.put_ratings(GUILD, "arena", {"104": {"mu": 1, "sigma": 1, "games": 1}}, T0)
            raise RuntimeError("rolled back")
    async with repo.read() as tx:
        assert "104" not in await tx.ratings(GUILD, "arena")
