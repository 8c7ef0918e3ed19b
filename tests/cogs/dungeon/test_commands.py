"""/dungeon rules, scenarios and classes in SimCord, and the /dungeon commands' Japanese names and
descriptions (Discord's rules for them, as tests/test_i18n.py checks the shared commands)."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n.translator import CatalogueTranslator
from cogs.dungeon import content
from tests.cogs.game.sim import setup_duel


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def test_rules_explain_a_round_in_the_readers_language(duel, discord_locale):
    result = await duel.alice.slash(duel.channel, "dungeon rules")
    assert result.ephemeral
    text = result.response.content
    assert "move C4 attack D5" in text and "initiative" in text and "votes" in text
    discord_locale(duel.bob, "ja")
    result = await duel.bob.slash(duel.channel, "dungeon rules")
    assert "移動 C4 攻撃 D5" in result.response.content


async def test_scenarios_lists_every_scenario(duel):
    result = await duel.alice.slash(duel.channel, "dungeon scenarios")
    for sid in content.scenario_ids():
        assert f"(`{sid}`)" in result.response.content
    assert "The Sunken Crypt" in result.response.content


async def test_classes_show_every_card(duel):
    result = await duel.alice.slash(duel.channel, "dungeon classes")
    fields = result.response.embeds[0].fields
    assert [f.name.split(" (")[0] for f in fields] == ["Brute", "Scout", "Mender", "Rogue"]
    assert "**Trample** (72): move 3 (jump) · attack 3" in fields[0].value


async def test_an_unknown_scenario_is_refused(duel):
    result = await duel.alice.slash(duel.channel, "dungeon start", scenario="atlantis")
    assert result.ephemeral and "No scenario called atlantis" in result.response.content
    assert await duel.bot.table.games_here(duel.channel.id, ("lobby", "active")) == []


async def test_a_party_of_five_is_refused(duel):
    from bot.table import Player, TableError

    five = [Player(100 + i, f"p{i}") for i in range(5)]
    with pytest.raises(TableError) as refused:
        await duel.bot.table.challenge(
            "dungeon", guild_id=None, channel_id=duel.channel.id, players=five
        )
    assert refused.value.key == "table.wrong_player_count"
    game = await duel.bot.table.challenge(
        "dungeon", guild_id=None, channel_id=duel.channel.id, players=five[:4]
    )
    assert [s.seat for s in game.seats] == ["A", "B", "C", "D"]


def _walk(payload: dict[str, Any]):
    yield payload
    for option in payload.get("options", []):
        yield from _walk(option)


async def test_dungeon_commands_have_japanese_names_and_descriptions() -> None:
    from cogs.dungeon.cog import DungeonCog

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    cog = DungeonCog.__new__(DungeonCog)
    payloads = [
        await cmd.get_translated_payload(tree, translator) for cmd in cog.__cog_app_commands__
    ]
    await client.close()
    seen = 0
    for payload in payloads:
        for item in _walk(payload):
            name = item.get("name_localizations", {}).get("ja")
            assert name and 1 <= len(name) <= 32 and name == name.lower(), item["name"]
            assert re.fullmatch(r"[-_\w]+", name), name
            assert 1 <= len(item.get("description_localizations", {}).get("ja", "")) <= 100
            seen += 1
    assert seen >= 10  # the group, 4 subcommands, start's 5 options
