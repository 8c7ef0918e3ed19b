"""A server's deadline defaults (``/config deadlines``, issue 35) on both backends: none until
set, replaced whole, other servers untouched; read back as :class:`ServerDeadlines`."""

from __future__ import annotations

from bot import deadline_defaults
from bot.storage import Repository

GUILD = 1_152_921_504_606_846_977  # beyond 2**60: PostgreSQL's BIGINT
OTHER = GUILD + 1


async def test_set_and_replace_a_servers_deadline_defaults(repo: Repository) -> None:
    async with repo.read() as tx:
        assert await tx.guild_deadlines(GUILD) is None
    unset = await deadline_defaults.of_guild(repo, GUILD)
    assert (unset.preset, unset.step_minutes, unset.chosen) == ("play_by_post", 1440, False)
    await deadline_defaults.set_guild(repo, GUILD, "play_by_post", 360, 1.0)
    await deadline_defaults.set_guild(repo, OTHER, "live", 1440, 2.0)
    async with repo.read() as tx:
        assert await tx.guild_deadlines(GUILD) == ("play_by_post", 360)
    await deadline_defaults.set_guild(repo, GUILD, "live", 1440, 3.0)
    live = await deadline_defaults.of_guild(repo, GUILD)
    assert live.live and live.chosen and live.step(10) == 10 and live.answer(3, 10) == 3
    async with repo.read() as tx:
        assert await tx.guild_deadlines(OTHER) == ("live", 1440)
    pbp = await deadline_defaults.of_guild(repo, None)  # a DM: the defaults
    assert pbp.step(10) == 1440 and pbp.answer(3, 1440) == 1440
