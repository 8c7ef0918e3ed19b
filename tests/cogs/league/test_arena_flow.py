"""An Arena Duel league in SimCord, through the real commands: created with the ruleset's title
among the choices, joined, a match paired at once and ended by a resignation, the result in the
standings without DP; every roster command refused with the reason, in the reader's language."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import t
from tests.cogs.league import test_flow as flow
from tests.cogs.league.test_flow import Season, season_env

__all__ = ["season_env"]

NO_ROSTERS_EN = t("en", "league.no_rosters", league="Sand Pit", ruleset="Arena Duel")
NO_ROSTERS_JA = t("ja", "league.no_rosters", league="Sand Pit", ruleset="アリーナデュエル")


async def create_arena_league(s: Season) -> None:
    created = await s.mod.slash(
        s.channel, "league create", name="Sand Pit", season_name="S1", ruleset="arena"
    )
    assert "Sand Pit" in created.response.content
    info = "\n".join(f.value for f in created.response.embeds[0].fields)
    # minutes left out: the server's play-by-post default (/config deadlines; none set: 24 h)
    assert "Minutes per turn: 1440" in info
    assert "cost cap" not in info and "Draft" not in info, "no options it does not have"
    s.league_id = (await s.bot.leagues.in_guild(s.guild.id))[0].id
    for name in ("alice", "bob", "carol"):
        joined = await s.players[name].slash(s.channel, "league join")
        assert "joined" in joined.response.content


async def test_an_arena_league_from_creation_to_the_standings(season_env: Season):
    s = season_env
    await create_arena_league(s)
    alice, bob = s.players["alice"], s.players["bob"]

    result = await s.mod.slash(s.channel, "league match", a=alice, b=bob)
    match_id = result.response.content.split()[2]
    game = await s.bot.table.game(match_id)
    assert game.ruleset == "arena" and game.status == "active"
    await alice.slash(s.channel, "game resign", confirm=True, game=match_id)
    await s.bot.leagues.tick()
    await s.settle()

    league = await s.league()
    assert league.match(match_id).winner == s.uid("bob") and league.antes == ()
    texts = "\n".join(s.channel_texts())
    assert f"{match_id} (<@{s.uid('alice')}> vs <@{s.uid('bob')}>) won by <@{s.uid('bob')}>." in (
        texts
    )
    assert "DP" not in texts and "ante" not in texts.casefold()
    standings = await s.players["carol"].slash(s.channel, "league standings")
    lines = standings.response.embeds[0].description.splitlines()
    assert lines[0].startswith(f"1. <@{s.uid('bob')}> · 1 played, 1W 0D 0L · 3 pts · rating")
    assert not any("DP" in line for line in lines)
    alt = standings.response.attachments[0].description or ""  # the image's rows as text
    assert "\n1. bob: 3 points from 1 games" in alt and len(alt) <= 1024


async def test_roster_commands_are_refused_with_the_reason(season_env: Season, discord_locale):
    s = season_env
    await create_arena_league(s)
    alice = s.players["alice"]
    for command, options in (
        ("league draft", {}),
        ("league antes", {}),
    ):
        refusal = await s.mod.slash(s.channel, command, **options)
        await flow.refused(refusal, NO_ROSTERS_EN)
    for command, options in (
        ("league master", {"preset": "warlord"}),
        ("league roster", {}),
        ("league ante", {"unit": "knight"}),
        ("league pick", {"unit": "knight"}),
    ):
        refusal = await alice.slash(s.channel, command, **options)
        await flow.refused(refusal, NO_ROSTERS_EN)
    discord_locale(alice, "ja")
    refusal = await alice.slash(s.channel, "league roster")
    await flow.refused(refusal, NO_ROSTERS_JA)
    assert (await s.league()).draft is None


async def test_an_option_arena_does_not_take_is_refused_at_creation(season_env: Season):
    s = season_env
    refusal = await s.mod.slash(
        s.channel, "league create", name="Pit", season_name="S1", ruleset="arena", cost_cap=30
    )
    await flow.refused(refusal, t("en", "league.option.not_in_ruleset", option="cost_cap"))
    with pytest.raises(simcord.OptionError):  # a ruleset that declares no league is no choice
        await s.mod.slash(
            s.channel, "league create", name="Pit", season_name="S1", ruleset="dungeon"
        )
    assert await s.bot.leagues.in_guild(s.guild.id) == []
