"""Deadlines for play-by-post (issue 35): ``/config deadlines`` (Manage Server) sets what games
and leagues created without their time options take; Esper's objection prompt names who declared
and for which side; ``/game status`` in a DM finds the player's game or lists their games."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot import deadline_defaults
from bot.i18n import t
from cogs.esper import present as esper_present
from tests.cogs.game.sim import setup_duel, start_duel


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def moderator(duel: Any) -> Any:
    role = duel.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    return duel.guild.add_member(duel.env.create_user("mod"), roles=[role])


async def lobby_in(duel: Any, channel: Any) -> Any:
    (game,) = await duel.bot.table.games_here(channel.id, ("lobby",))
    return game


# --- /config deadlines ------------------------------------------------------------------------


async def test_without_a_setting_a_challenge_takes_play_by_post_hours(duel):
    await duel.alice.slash(duel.channel, "tactics challenge", opponent=duel.bob)
    game = await lobby_in(duel, duel.channel)
    assert game.turn_seconds == 24 * 3600, "play-by-post: 24 hours a step, not the seeds' 10 min"
    invite = duel.channel.last_message.content
    assert "⏰ 24 hours a step (this server's default: /config deadlines)" in invite


async def test_the_live_preset_keeps_each_rulesets_real_time_values(duel):
    mod = moderator(duel)
    result = await mod.slash(duel.channel, "config deadlines", pace="live")
    assert result.response.content == t("en", "config.deadlines_live")
    for name, command, seconds in (
        ("t", "tactics challenge", 10 * 60),
        ("a", "apeiron challenge", 10 * 60),
        ("r", "arena challenge", 24 * 3600),  # Arena's own default was always a day
    ):
        channel = duel.guild.create_text_channel(name)
        await duel.alice.slash(channel, command, opponent=duel.bob)
        assert (await lobby_in(duel, channel)).turn_seconds == seconds, command
    dungeon = duel.guild.create_text_channel("d")
    await duel.alice.slash(dungeon, "dungeon start", scenario="crypt", player2=duel.bob)
    assert (await lobby_in(duel, dungeon)).turn_seconds == 30 * 60
    assert "⏰ 30 minutes a step (this server's default" in dungeon.last_message.content


async def test_play_by_post_hours_and_a_given_option_wins(duel, discord_locale):
    mod = moderator(duel)
    discord_locale(mod, "ja")
    result = await mod.slash(duel.channel, "config deadlines", pace="play_by_post", hours=12)
    # the server's language (English here), as /config language answers
    assert result.response.content == t("en", "config.deadlines_pbp", time="12 hours")
    await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob)
    assert (await lobby_in(duel, duel.channel)).turn_seconds == 12 * 3600
    given = duel.guild.create_text_channel("given")
    await duel.alice.slash(given, "tactics challenge", opponent=duel.bob, minutes=25)
    assert (await lobby_in(duel, given)).turn_seconds == 25 * 60
    assert given.last_message.content.endswith("⏰ 25 minutes a step"), "the challenger's own"
    async with duel.bot.table.repo.read() as tx:
        assert await tx.guild_deadlines(duel.guild.id) == ("play_by_post", 12 * 60)


async def test_live_takes_no_hours(duel):
    mod = moderator(duel)
    refused = await mod.slash(duel.channel, "config deadlines", pace="live", hours=3)
    assert refused.ephemeral and "`hours` is for play-by-post" in refused.response.content
    assert not (await deadline_defaults.of_guild(duel.bot.table.repo, duel.guild.id)).chosen


async def test_config_deadlines_is_for_moderators_only(duel):
    with pytest.raises(SetupError, match="default-member-permissions"):
        await duel.alice.slash(duel.channel, "config deadlines", pace="live")
    command = duel.env.backend.find_command("config", None)
    duel.guild.set_command_permissions(int(command["id"]), {duel.alice: True})
    result = await duel.alice.slash(duel.channel, "config deadlines", pace="live")
    assert result.ephemeral
    assert result.response.content == "⚠️ Only moderators (Manage Server) can do that."
    assert not (await deadline_defaults.of_guild(duel.bot.table.repo, duel.guild.id)).live


async def test_a_league_created_without_minutes_takes_the_servers_setting(duel):
    mod = moderator(duel)
    await mod.slash(duel.channel, "config deadlines", pace="play_by_post", hours=6)
    await mod.slash(duel.channel, "league create", name="Pit", season_name="S1", ruleset="arena")
    await mod.slash(duel.channel, "config deadlines", pace="live")
    live = duel.guild.create_text_channel("live")
    await mod.slash(live, "league create", name="Fast", season_name="S1", ruleset="esper")
    given = duel.guild.create_text_channel("given")
    await mod.slash(given, "config deadlines", pace="play_by_post")
    await mod.slash(given, "league create", name="Slow", season_name="S1", ruleset="esper")
    leagues = {lg.name: lg.options for lg in await duel.bot.leagues.in_guild(duel.guild.id)}
    assert leagues["Pit"].turn_minutes == 6 * 60
    # live: the league's own 10 minutes, Esper's answers its ruleset's 3 (left to the option)
    assert leagues["Fast"].turn_minutes == 10 and "objection_minutes" not in leagues["Fast"].game
    # play-by-post: Esper's objections and reactions as long as a step
    assert leagues["Slow"].turn_minutes == 24 * 60
    assert leagues["Slow"].game["objection_minutes"] == 24 * 60
    assert leagues["Slow"].game["reaction_minutes"] == 24 * 60


# --- Esper's objection prompt ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_objection_prompt_names_the_declarer_and_the_side_it_claims(lang):
    view = {"step": "objection", "declaration": "C", "declared_for": "EVIL", "seats": {}}
    (asked,) = esper_present._asks(view, "A", lang)
    assert asked == t(
        lang, "deadlines.objection", seat="C", side=esper_present.alignment_word(lang, "EVIL")
    )
    assert "C" in asked and esper_present.alignment_word(lang, "EVIL") in asked
    solo = {**view, "declared_for": "solo"}
    assert esper_present._asks(solo, "A", lang) == [t(lang, "deadlines.objection_solo", seat="C")]


# --- /game status in a DM -----------------------------------------------------------------------


async def test_status_in_a_dm_finds_the_players_one_game(duel):
    await start_duel(duel)
    result = await duel.alice_dm.slash("game status")
    assert result.ephemeral
    assert result.response.embeds[0].title.startswith(f"Arena Duel · {duel.game_id}")


async def test_status_in_a_dm_lists_the_players_games_to_choose_from(duel, discord_locale):
    await start_duel(duel)
    other = duel.guild.create_text_channel("second")
    await duel.alice.slash(other, "arena challenge", opponent=duel.bob)
    await duel.bob.click(other.last_message, label="Accept")
    (second,) = await duel.bot.table.games_here(other.id)
    result = await duel.alice_dm.slash("game status")
    text = result.response.content
    assert "You play 2 running games" in text
    assert f"`{duel.game_id}` · Arena Duel · <#{duel.channel.id}>" in text
    assert f"`{second.id}` · Arena Duel · <#{other.id}>" in text
    chosen = await duel.alice_dm.slash("game status", game=second.id)
    assert chosen.response.embeds[0].title.startswith(f"Arena Duel · {second.id}")
    discord_locale(duel.alice, "ja")
    ja = (await duel.alice_dm.slash("game status")).response.content
    assert "進行中のゲームが2つあります" in ja and f"<#{other.id}>" in ja


async def test_esper_answers_are_a_step_play_by_post_and_the_seeds_3_minutes_live(duel):
    mod = moderator(duel)
    others = [duel.guild.add_member(duel.env.create_user(f"p{i}")) for i in range(3)]
    invited = {f"player{i}": m for i, m in enumerate([duel.bob, *others], 1)}
    await duel.alice.slash(duel.channel, "esper start", **invited)
    options = (await lobby_in(duel, duel.channel)).options
    assert options["minutes"] == options["objection_minutes"] == 24 * 60
    assert options["reaction_minutes"] == 24 * 60
    assert "objections 24 hours; combat reactions 24 hours" in duel.channel.last_message.content
    await mod.slash(duel.channel, "config deadlines", pace="live")
    live = duel.guild.create_text_channel("live")
    await duel.alice.slash(live, "esper start", **invited, minutes=20)
    options = (await lobby_in(duel, live)).options
    assert (options["minutes"], options["objection_minutes"], options["reaction_minutes"]) == (
        20,
        3,
        3,
    )
