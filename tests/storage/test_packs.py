"""A server's own data pack per ruleset (``PackStore``), on both backends: one current pack per
(server, ruleset), replaced outright, cleared back to none; other servers and rulesets untouched;
a failed transaction leaves the old pack in place."""

from __future__ import annotations

import pytest

from bot.storage import Repository
from bot.storage.base import PackRow

GUILD = 1_152_921_504_606_846_977  # beyond 2**60: PostgreSQL's BIGINT
OTHER = GUILD + 1
MOD = 1_152_921_504_606_846_999


def row(pack: str, hash_: str, *, guild: int = GUILD, ruleset: str = "apeiron") -> PackRow:
    return PackRow(guild, ruleset, pack, hash_, MOD, 1_900_000_000.5)


async def test_set_replace_and_clear_a_server_pack(repo: Repository) -> None:
    async with repo.read() as tx:
        assert await tx.server_pack(GUILD, "apeiron") is None
    async with repo.transaction() as tx:
        await tx.set_server_pack(row('{"pack":{"id":"one"}}', "h1"))
        await tx.set_server_pack(row('{"pack":{"id":"x"}}', "hx", guild=OTHER))
        await tx.set_server_pack(row('{"pack":{"id":"y"}}', "hy", ruleset="other"))
    async with repo.read() as tx:
        stored = await tx.server_pack(GUILD, "apeiron")
    assert stored == row('{"pack":{"id":"one"}}', "h1")
    # A new pack replaces the old one whole (who and when too).
    newer = PackRow(GUILD, "apeiron", '{"pack":{"id":"two","name_ja":"二"}}', "h2", 7, 2.0e9)
    async with repo.transaction() as tx:
        await tx.set_server_pack(newer)
    async with repo.read() as tx:
        assert await tx.server_pack(GUILD, "apeiron") == newer
        assert (await tx.server_pack(OTHER, "apeiron")).hash == "hx"  # type: ignore[union-attr]
        assert (await tx.server_pack(GUILD, "other")).hash == "hy"  # type: ignore[union-attr]
    async with repo.transaction() as tx:
        assert await tx.clear_server_pack(GUILD, "apeiron") is True
        assert await tx.clear_server_pack(GUILD, "apeiron") is False
    async with repo.read() as tx:
        assert await tx.server_pack(GUILD, "apeiron") is None
        assert await tx.server_pack(OTHER, "apeiron") is not None
        assert await tx.server_pack(GUILD, "other") is not None


async def test_a_failed_transaction_keeps_the_old_pack(repo: Repository) -> None:
    async with repo.transaction() as tx:
        await tx.set_server_pack(row("{}", "old"))
    with pytest.raises(RuntimeError):
        async with repo.transaction() as tx:
            await tx.set_server_pack(row('{"half":"loaded"}', "new"))
            raise RuntimeError("the upload failed after the write")
    async with repo.read() as tx:
        stored = await tx.server_pack(GUILD, "apeiron")
    assert stored is not None and (stored.pack, stored.hash) == ("{}", "old")
