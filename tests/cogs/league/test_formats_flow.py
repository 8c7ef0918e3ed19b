"""Swiss and cup leagues in SimCord, through the real commands (issue 33): created with a format,
``/league round`` by a moderator opening the round's matches with one channel post (a repeat
refused with the reason), ``/league ratings`` and ``/league bracket`` as images, refusals in the
reader's language."""

from __future__ import annotations

import json

from bot.i18n import t
from tests.cogs.league import test_flow as flow
from tests.cogs.league.test_flow import Season, season_env

__all__ = ["season_env"]


async def create(s: Season, name: str, **options: object) -> None:
    created = await s.mod.slash(
        s.channel, "league create", name=name, season_name="S1", ruleset="arena", **options
    )
    assert name in created.response.content
    s.league_id = (await s.bot.leagues.in_guild(s.guild.id))[0].id


def round_posts(s: Season) -> list[str]:
    return [text for text in s.channel_texts() if "📣" in text]


async def test_a_swiss_league_is_paired_round_by_round(season_env: Season, discord_locale):
    s = season_env
    await create(s, "Swiss Night", format="swiss", swiss_rounds=2)
    for name in ("alice", "bob", "carol", "dave"):
        await s.players[name].slash(s.channel, "league join")
    alice = s.players["alice"]

    refusal = await alice.slash(s.channel, "league round")
    await flow.refused(refusal, t("en", "league.moderators_only"))
    refusal = await s.mod.slash(s.channel, "league match", a=alice, b=s.players["bob"])
    await flow.refused(refusal, t("en", "league.pair.by_round", league="Swiss Night"))

    opened = await s.mod.slash(s.channel, "league round")
    assert opened.ephemeral and opened.response.content == t("en", "league.round.ack", count=2)
    await s.settle()
    (post,) = round_posts(s)
    assert "round 1" in post
    assert all(f"<@{s.uid(n)}>" in post for n in ("alice", "bob", "carol", "dave"))
    again = await s.mod.slash(s.channel, "league round")
    await flow.refused(again, t("en", "league.round.playing", league="Swiss Night"))
    discord_locale(s.mod, "ja")
    again = await s.mod.slash(s.channel, "league round")
    await flow.refused(again, t("ja", "league.round.playing", league="Swiss Night"))
    await s.settle()
    assert len(round_posts(s)) == 1, "nothing opened twice"

    league = await s.league()
    for match in league.playing():  # the second player of each resigns
        member = next(m for m in s.players.values() if str(m.id) == match.b)
        await member.slash(s.channel, "game resign", confirm=True, game=match.id)
    await s.bot.leagues.tick()
    opened = await s.mod.slash(s.channel, "league round")
    await s.settle()
    posts = round_posts(s)
    assert len(posts) == 2 and "round 2" in posts[-1], "posted in the server's language"
    second = (await s.league()).swiss.rounds[1]
    assert all(f"<@{g.first}> – <@{g.second}>" in posts[-1] for g in second)
    info = await alice.slash(s.channel, "league info")
    fields = {f.name: f.value for f in info.response.embeds[0].fields}
    assert fields["Format"] == t("en", "league.format.swiss", rounds=2, played=2)

    rated = await alice.slash(s.channel, "league ratings")
    assert rated.ephemeral
    assert rated.response.attachments[0].filename == "ratings.png"
    alt = rated.response.attachments[0].description or ""  # the image's rows, for every eye
    assert alt.startswith(t("en", "league.ratings.title", ruleset="Arena Duel") + "\n1. ")
    assert "rating" in alt and len(alt) <= 1024
    assert rated.response.embeds[0].title == t("en", "league.ratings.title", ruleset="Arena Duel")
    winners = {m.a for m in (await s.league()).matches if m.winner == m.a}
    ratings = await s.bot.leagues.ratings(s.guild.id, "arena")
    assert {p for p, r in ratings.items() if r.games == 1} == {
        p for m in (await s.league()).matches if m.winner for p in (m.a, m.b)
    }
    assert all(ratings[p].mu > 25 for p in winners)
    discord_locale(alice, "ja")
    rated = await alice.slash(s.channel, "league ratings", ruleset="arena")
    assert rated.response.embeds[0].title == t(
        "ja", "league.ratings.title", ruleset=t("ja", "arena.title")
    )
    bracket = await alice.slash(s.channel, "league bracket")
    await flow.refused(bracket, t("ja", "league.cup.not_a_cup", league="Swiss Night"))


async def test_a_cup_league_opens_its_ties_and_shows_its_bracket(season_env: Season):
    s = season_env
    await create(s, "Sand Cup", format="cup")
    for name in ("alice", "bob", "carol"):
        await s.players[name].slash(s.channel, "league join")
    carol = s.players["carol"]
    early = await carol.slash(s.channel, "league bracket")
    await flow.refused(early, t("en", "league.cup.not_started", league="Sand Cup"))

    opened = await s.mod.slash(s.channel, "league round")
    assert opened.response.content == t("en", "league.round.ack", count=1)
    await s.settle()
    (post,) = round_posts(s)
    league = await s.league()
    (bye,) = [tie.winner for tie in league.cup.rounds[0] if tie.how == "bye"]
    assert f"Bye: <@{bye}>" in post
    (match,) = league.playing()
    assert bye not in match.players()

    shown = await carol.slash(s.channel, "league bracket")
    assert shown.ephemeral and shown.response.attachments[0].filename == "bracket.png"
    alt = shown.response.attachments[0].description or ""
    assert "Round 1:" in alt and "to be played" in alt and len(alt) <= 1024
    assert shown.response.embeds[0].title == t(
        "en", "league.cup.title", league="Sand Cup", season="S1"
    )
    info = await carol.slash(s.channel, "league info")
    fields = {f.name: f.value for f in info.response.embeds[0].fields}
    assert fields["Format"] == t("en", "league.format.cup")

    # A forfeit advances the bracket by a walkover; the final opens with the next round.
    winner = next(m for m in s.players.values() if str(m.id) == match.a)
    await s.mod.slash(s.channel, "league forfeit", match=match.id, winner=winner)
    opened = await s.mod.slash(s.channel, "league round")
    assert opened.response.content == t("en", "league.round.ack", count=1)
    league = await s.league()
    assert [tie.how for tie in league.cup.rounds[0]] == ["bye", "walkover"]
    (final,) = league.playing()
    assert set(final.players()) == {bye, match.a}

    # The league's history as one file: the walkover, the bye and the final under way.
    exported = await carol.slash(s.channel, "league export")
    assert exported.ephemeral
    assert exported.response.content == t("en", "league.export.ready", league="Sand Cup")
    attached = exported.response.attachments[0]
    assert attached.filename == f"league-{league.id}.json"
    data = json.loads(await attached.read())
    assert data["league"]["name"] == "Sand Cup" and data["league_format"] == "cup"
    by_game = {m["game_id"]: m for m in data["matches"]}
    assert by_game[match.id]["status"] == "forfeit" and by_game[match.id]["winner"] == match.a
    assert by_game[final.id]["status"] == "playing"
    assert data["champion"] is None
