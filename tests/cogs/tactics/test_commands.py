"""/tactics rules, units, maps and master in SimCord: ephemeral, complete, refusals explained."""

from __future__ import annotations

import pytest

from cogs.tactics import maps, units
from tests.cogs.game.sim import setup_duel


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def test_rules_explain_sheets(duel):
    result = await duel.alice.slash(duel.channel, "tactics rules")
    assert result.ephemeral
    text = result.response.content
    assert "knight C4>C6 attack D6" in text and "剣士 C4→C6 攻撃 D6" in text
    assert "min(turn, 10)" in text and "turns 3 and 7" in text


async def test_units_lists_the_whole_pool(duel):
    result = await duel.alice.slash(duel.channel, "tactics units")
    assert result.ephemeral
    shown = "\n".join(f.value for f in result.response.embeds[0].fields)
    for unit in units.pool():
        assert f"**{unit.name['en']}** `{unit.id}` · cost {unit.cost}" in shown


async def test_maps_lists_every_map(duel):
    result = await duel.alice.slash(duel.channel, "tactics maps")
    for name in maps.names():
        assert f"`{name}`" in result.response.content


async def test_master_shows_cost_and_mana(duel):
    result = await duel.alice.slash(
        duel.channel,
        "tactics master",
        name_en="Warlord",
        name_ja="覇王",
        hp=18,
        atk=6,
        defence=3,
        move=2,
        effect="stat",
        power=2,
        reach="0-2",
        target="ally",
        stat="atk",
        turns=2,
    )
    embed = result.response.embeds[0]
    assert embed.title == "Master unit: Warlord"
    assert (
        "cost 10" in embed.description and "(3 mana)" in embed.description
    )  # 1 + 0.5·2 + (2−1)/2 = 2.5 → 3


async def test_master_outside_the_bounds_is_refused_with_the_reason(duel):
    result = await duel.alice.slash(
        duel.channel,
        "tactics master",
        name_en="Titan",
        name_ja="巨人",
        hp=30,
        atk=10,
        defence=6,
        move=5,
    )
    assert result.ephemeral
    assert "costs" in result.response.content and "at most 10" in result.response.content
    result = await duel.alice.slash(
        duel.channel,
        "tactics master",
        name_en="Ghost",
        name_ja="幽霊",
        hp=2,
        atk=1,
        defence=0,
        move=1,
    )
    assert "hp = 2 is outside the allowed 5–30" in result.response.content


async def test_challenge_with_an_unknown_map_is_refused(duel):
    result = await duel.alice.slash(
        duel.channel, "tactics challenge", opponent=duel.bob, map="moon"
    )
    assert "There is no map “moon”" in result.response.content
    assert await duel.bot.table.games_here(duel.channel.id) == []
