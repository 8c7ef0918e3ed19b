"""An Esper league in SimCord, through the real commands (issue 33): created with its fixed
options, the grading said in /league info in both languages, five players seated by
/league match, the deal kept by DM, the game ended by a moderator's ruling; the grades reach the
standings (each player's own points) and the server's ratings (the full ranking), and the next
league match reads the league's season for the refusal rule (拒否), not the server's.

The server's own Esper season shows every player with every character of the pack (a finished
game each), so a game reading it would let everyone refuse whatever the deal gives; the league's
season holds only its first match, so in the second match a seat may refuse exactly when the deal
gives it back the character its player played there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.storage.base import GameRow, SeatRow
from cogs.esper import pack as packlib
from cogs.esper import rules
from tests.cogs.game.sim import last_dm

NAMES = ("alice", "bob", "carol", "dave", "erin")
PACK = packlib.sample()


@dataclass
class Club:
    env: Any
    guild: Any
    channel: Any
    mod: Any
    members: dict[str, Any]

    @property
    def bot(self) -> Any:
        return self.env.bot

    def ids(self) -> list[int]:
        return [self.members[n].id for n in NAMES]

    async def settle(self) -> None:
        await self.bot.outbox.idle()


@pytest.fixture
def club(simcord_env: Any, sim_clock: Any) -> Club:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="Esper League Club")
    channel = guild.create_text_channel("esper-league")
    role = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[role])
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in NAMES}
    return Club(simcord_env, guild, channel, mod, members)


def server_game(club: Club, number: int, user: int, sheet: str, when: float) -> GameRow:
    """A finished esper game of this server, outside any league, in which ``user`` played
    ``sheet``."""
    return GameRow(
        id=f"h-{number:03d}",
        ruleset="esper",
        guild_id=club.guild.id,
        channel_id=club.channel.id + 1000,
        status="finished",
        options={},
        seats=[SeatRow("A", user, "player", 0, accepted=True)],
        state={"seats": {"A": {"sheet": sheet, "alive": True}}},
        created_at=when,
        updated_at=when + 1,
    )


def buttons(message: discord.Message) -> dict[str, bool]:
    """The message's buttons: label -> disabled."""
    found: dict[str, bool] = {}
    for row in message.components:
        for item in row.children if isinstance(row, discord.ActionRow) else ():
            if isinstance(item, discord.Button) and item.label:
                found[item.label] = item.disabled
    return found


def refuse_disabled(club: Club, name: str) -> bool:
    """Whether the refuse button under ``name``'s last DM (the deal's prompt) is disabled."""
    label = t("ja" if name == "carol" else "en", "esper.choice.refuse")
    return buttons(last_dm(club.members[name]))[label]


async def state_of(club: Club, game_id: str) -> rules.EsperState:
    return rules.from_json((await club.bot.table.game(game_id)).state)


async def league_match(club: Club) -> str:
    alice, bob, carol, dave, erin = (club.members[n] for n in NAMES)
    result = await club.mod.slash(
        club.channel, "league match", a=alice, b=bob, c=carol, d=dave, e=erin
    )
    assert not result.ephemeral or "started" in result.response.content, result.response.content
    game_id = result.response.content.split()[2]
    game = await club.bot.table.game(game_id)
    assert game.ruleset == "esper" and game.status == "active"
    assert [s.user_id for s in sorted(game.seats, key=lambda s: s.position)] == club.ids()
    await club.settle()
    return game_id


async def test_an_esper_league_grades_rates_and_feeds_its_seasons_refusals(
    club: Club, discord_locale: Any
) -> None:
    # The server's season: every player has played every character (outside the league).
    await club.mod.slash(club.channel, "esper season start")
    now = club.bot.table.clock()
    async with club.bot.table.repo.transaction() as tx:
        for n, user in enumerate(club.ids()):
            for m, sheet in enumerate(PACK.sheets):
                await tx.insert_game(server_game(club, n * 100 + m, user, sheet, now + m))
    await club.env.advance_time(60)

    created = await club.mod.slash(
        club.channel,
        "league create",
        name="Espers",
        season_name="S1",
        ruleset="esper",
        minutes=30,
        objection_minutes=20,
    )
    fields = {f.name: f.value for f in created.response.embeds[0].fields}
    assert "Objection window: 20 min" in fields["Options"]
    # left out on a play-by-post server (/config deadlines: none set): as long as a step
    assert "Combat reactions: 30 min" in fields["Options"]
    assert fields["Points"] == t("en", "esper.league.points")
    assert "waits for them; at most 14 days an absence" in fields["Absences and missed deadlines"]
    refused = await club.mod.slash(
        club.channel, "league create", name="Swiss", season_name="S1", ruleset="esper",
        format="swiss", swiss_rounds=3,
    )  # fmt: skip
    assert refused.ephemeral and "round robin" in refused.response.content
    for name in NAMES:
        await club.members[name].slash(club.channel, "league join")
    discord_locale(club.members["carol"], "ja")
    info = await club.members["carol"].slash(club.channel, "league info")
    ja_fields = {f.name: f.value for f in info.response.embeds[0].fields}
    assert ja_fields["ポイント"] == t("ja", "esper.league.points")
    assert "A（勝利・生存）3" in ja_fields["ポイント"]

    # --- the first league match: the league's season is empty -------------------------------
    first = await league_match(club)
    game = await club.bot.table.game(first)
    assert game.options["league"] and game.options["minutes"] == 30
    assert game.options["objection_minutes"] == 20 and game.turn_seconds == 30 * 60
    s = await state_of(club, first)
    for seat, name in zip(rules.SEATS, NAMES, strict=False):
        season, previous = rules.history(s, seat)
        assert season == [], "the league's season has no game yet (the server's is ignored)"
        assert previous is not None, "the previous game is the player's last, league or not"
        assert refuse_disabled(club, name), "nothing to refuse in the league's season"
    for name in NAMES:
        await club.members[name].send_dm("確定" if name == "carol" else "keep")
    await club.settle()
    s = await state_of(club, first)
    assert s.step != rules.DEAL, "everyone kept: the deal is fixed"
    played = {
        user: s.seats[seat].sheet for seat, user in zip(rules.SEATS, club.ids(), strict=False)
    }
    ruling = await club.mod.slash(club.channel, "game adjudicate", game=first)
    assert ruling.ephemeral
    await club.bot.leagues.record_finished()
    await club.settle()

    league = (await club.bot.leagues.in_guild(club.guild.id))[0]
    match = league.match(first)
    grades = (await club.bot.table.game(first)).result["grades"]
    points = {"A": 3, "B": 2, "C": 1, "D": 0}
    seated = dict(zip("ABCDE", club.ids(), strict=True))
    assert match.points == {str(u): points[grades[seat]] for seat, u in seated.items()}
    posted = [m.content for m in club.channel.history() if m.author.bot]
    assert any(f"{first} is over. Points:" in text for text in posted)
    rows = {r.player: r for r in league.standings()}
    for seat, user in zip("ABCDE", club.ids(), strict=True):
        assert rows[str(user)].points == points[grades[seat]]
        assert rows[str(user)].won == (grades[seat] in "AB")
    ratings = await club.bot.leagues.ratings(club.guild.id, "esper")
    assert {int(p) for p in ratings} == set(club.ids())
    assert all(r.games == 1 for r in ratings.values())
    best = max(ratings, key=lambda p: ratings[p].mu)
    assert grades["ABCDE"[club.ids().index(int(best))]] == min(grades.values()), "A ranks first"
    standings = await club.members["alice"].slash(club.channel, "league standings")
    assert standings.response.embeds or standings.response.attachments

    # --- the second: its season is the first match, so refusing follows the deal ------------
    second = await league_match(club)
    s = await state_of(club, second)
    for seat, (name, user) in zip(rules.SEATS, zip(NAMES, club.ids(), strict=True), strict=False):
        season, previous = rules.history(s, seat)
        assert season == [played[user]] and previous == played[user]
        dealt_again = s.seats[seat].sheet == played[user]
        assert refuse_disabled(club, name) is not dealt_again, (name, played[user])
