"""A league's DM menus answer a forged id or value (issue 31, finding 8): a draft pick's number
that is no number (``abc``) raised ValueError; now it is answered privately "out of date", and
a unit no menu offered is refused with its reason. The draft is left as it was."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t
from tests.cogs.forge import forge_select
from tests.cogs.league import test_flow as flow

OUT_OF_DATE = "⚠️ " + t("en", "component.out_of_date")


@pytest.fixture
def season(simcord_env, sim_clock) -> flow.Season:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="League Club")
    channel = guild.create_text_channel("league")
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[role])
    users = {n: simcord_env.create_user(n) for n in ("alice", "bob", "carol", "dave")}
    players = {n: guild.add_member(u) for n, u in users.items()}
    return flow.Season(simcord_env, guild, channel, mod, players, users)


async def test_a_forged_draft_menu(season):
    s = season
    await flow.create_league(s)
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    menu = flow.last_dm(s, "alice")
    custom_id, units = flow.menu(menu)
    head = custom_id.rsplit(":", 1)[0]
    for ref in ("abc", "9" * 40, "1.5"):
        result = await forge_select(s.users["alice"], menu, f"{head}:{ref}", [units[0]])
        assert result.ephemeral and result.response.content == OUT_OF_DATE, ref
    forged = await forge_select(s.users["alice"], menu, custom_id, ["zzz"])
    assert forged.ephemeral and forged.response.content.startswith("⚠️"), forged.response
    assert (await s.league()).draft.number == 1, "nothing was picked"
    picked = await flow.choose(s, "alice", menu, units[0])
    assert "You picked" in picked.response.content
