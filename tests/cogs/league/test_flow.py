"""A small league season in SimCord, through the real commands, DMs and menus.

Four players and a moderator: the league is created, everyone joins, the snake draft runs by DM
menus with one pick left to run out (the bot picks and says so), masters are submitted and
approved and revealed together, three league matches are played (each ended by a resignation),
an ante is declared, changed and locked when the winner's next match starts, another lapses,
a third is voided; every refusal answers with its reason; standings, ratings and each unit's
history are as expected. Then the restart cases: mid-draft and with an open ante.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import discord
import pytest
import simcord

from bot.i18n import t
from cogs.league import season
from cogs.league.draft import auto_pick
from cogs.league.ledger import ANTE_GAIN, ANTE_LOSS, DRAFT_PICK, MASTER_SET, MODERATOR_ADD
from cogs.league.rulesets import rosters
from tests.cogs.game.sim import dms

PICK_MINUTES = 5
ROUNDS = 2


@dataclass
class Season:
    env: Any
    guild: Any
    channel: Any
    mod: Any
    players: dict[str, Any]  # name -> MemberActor
    users: dict[str, Any]  # name -> UserHandle (acts in DMs)
    league_id: str = ""

    @property
    def bot(self) -> Any:
        return self.env.bot

    def uid(self, name: str) -> str:
        return str(self.players[name].id)

    async def league(self) -> Any:
        return await self.bot.leagues.league(self.league_id)

    def channel_texts(self) -> list[str]:
        return [m.content or "" for m in self.channel.history() if m.author.bot]

    async def settle(self) -> None:
        await self.bot.outbox.idle()


@pytest.fixture
def season_env(simcord_env, sim_clock) -> Season:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="League Club")
    channel = guild.create_text_channel("league")
    mod_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mod_role])
    users = {n: simcord_env.create_user(n) for n in ("alice", "bob", "carol", "dave")}
    players = {n: guild.add_member(u) for n, u in users.items()}
    return Season(simcord_env, guild, channel, mod, players, users)


def menu(message: discord.Message) -> tuple[str, list[str]]:
    """The custom id and the option values of the select menu under a DM."""
    for row in message.components:
        for child in row.children:
            if isinstance(child, discord.components.SelectMenu):
                return child.custom_id or "", [o.value for o in child.options]
    raise AssertionError(f"no menu under {message.content!r}")


def last_dm(s: Season, name: str) -> discord.Message:
    return dms(s.players[name])[-1]


async def choose(s: Season, name: str, message: discord.Message, value: str) -> Any:
    custom_id, _ = menu(message)
    return await s.users[name].select(message, [value], custom_id=custom_id)


async def refused(result: Any, contains: str) -> None:
    assert result.ephemeral, "a refusal is private"
    assert contains in result.response.content, result.response.content


async def create_league(s: Season, **options: Any) -> None:
    result = await s.mod.slash(
        s.channel,
        "league create",
        name="Autumn Cup",
        season_name="2026 Autumn",
        ruleset="tactics",
        pick_minutes=PICK_MINUTES,
        rounds=ROUNDS,
        **options,
    )
    assert "Autumn Cup" in result.response.content
    s.league_id = (await s.bot.leagues.in_guild(s.guild.id))[0].id
    for name in ("alice", "bob", "carol", "dave"):
        joined = await s.players[name].slash(s.channel, "league join")
        assert "joined" in joined.response.content


async def run_draft(s: Season) -> None:
    """Snake order alice, bob, carol, dave, dave, carol, bob, alice; bob's second pick (7)
    runs out and the bot takes the costliest unit left."""
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    wanted = {
        1: ("alice", "knight"),
        2: ("bob", "knight"),
        3: ("carol", "saint"),
        4: ("dave", "archer"),
        5: ("dave", "mage"),
        6: ("carol", "lancer"),
        8: ("alice", "cleric"),
    }
    for number in range(1, 2 * ROUNDS * 2 + 1):
        league = await s.league()
        if number == 7:
            assert league.draft.current == s.uid("bob")
            await s.env.advance_time(PICK_MINUTES * 60 + 1)
            await s.bot.leagues.tick()
            await s.settle()
            continue
        name, unit = wanted[number]
        prompt = last_dm(s, name)
        assert f"({number} of 8)" in prompt.content
        result = await choose(s, name, prompt, unit)
        assert "You picked" in result.response.content


@pytest.fixture
async def drafted(season_env: Season) -> Season:
    s = season_env
    await create_league(s, master_approval=True)
    await run_draft(s)
    return s


async def test_draft_by_dm_menus_with_one_automatic_pick(drafted: Season):
    s = drafted
    league = await s.league()
    assert league.draft.over
    picks = [(p.number, p.unit, p.auto) for p in league.draft.picks]
    assert picks[6][2] is True, "pick 7 was the bot's"
    # the costliest unit still available at pick 7, ties by pool order
    before = replace(league.draft, picks=league.draft.picks[:6])
    assert picks[6][1] == auto_pick(before)
    assert league.draft.costs[picks[6][1]] == max(league.draft.costs[u] for u in before.available())
    texts = "\n".join(s.channel_texts())
    assert "Snake order" in texts
    assert "Pick 1: <@" in texts and "takes **Knight**" in texts
    assert "Pick 7: time ran out, so the bot picked" in texts
    assert "the draft is over" in texts
    # the ledger has every pick, the automatic one by "draft"
    ledger = await s.bot.leagues.ledger(s.league_id)
    drafts = [e for e in ledger if e.kind == DRAFT_PICK]
    assert len(drafts) == 8
    assert [e.by for e in drafts if e.ref == "7"] == ["draft"]


async def test_a_late_pick_is_refused_and_taken_units_leave_the_menus(season_env: Season):
    s = season_env
    await create_league(s)
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    alice_menu = last_dm(s, "alice")
    await s.env.advance_time(PICK_MINUTES * 60 + 1)
    await s.bot.leagues.tick()
    await s.settle()
    late = await choose(s, "alice", alice_menu, "archer")
    assert "It is not your pick" in late.response.content
    league = await s.league()
    assert league.draft.number == 2 and league.draft.picks[0].auto

    bob_menu = last_dm(s, "bob")
    assert "knight" in menu(bob_menu)[1]
    await choose(s, "bob", bob_menu, "knight")
    carol_menu = last_dm(s, "carol")
    assert "knight" in menu(carol_menu)[1], "the second copy is still there"
    await choose(s, "carol", carol_menu, "knight")
    assert "knight" not in menu(last_dm(s, "dave"))[1], "both copies are taken"
    assert (await s.league()).draft.number == 4
    # With DMs closed, the same pick by command, privately.
    taken = await s.players["dave"].slash(s.channel, "league pick", unit="knight")
    await refused(taken, "has already been taken")
    by_command = await s.players["dave"].slash(s.channel, "league pick", unit="archer")
    assert by_command.ephemeral and "You picked **Archer**" in by_command.response.content
    assert (await s.league()).draft.picks[-1].unit == "archer"


async def submit_masters(s: Season) -> None:
    presets = {"alice": "warlord", "bob": "archmage", "carol": "oracle", "dave": "shadow"}
    for name, preset in presets.items():
        result = await s.players[name].slash(s.channel, "league master", preset=preset)
        assert "sent to the moderators" in result.response.content
    for name in presets:
        await s.mod.slash(s.channel, "league approve", player=s.players[name])
    await s.settle()


async def play(s: Season, a: str, b: str, loser: str) -> str:
    """A league match paired by the moderator, ended by the loser's resignation; recorded."""
    result = await s.mod.slash(s.channel, "league match", a=s.players[a], b=s.players[b])
    assert "has started" in result.response.content, result.response.content
    match_id = result.response.content.split()[2]
    await s.players[loser].slash(s.channel, "game resign", confirm=True, game=match_id)
    await s.bot.leagues.tick()
    await s.settle()
    return match_id


async def test_a_season_masters_matches_ante_standings_and_history(drafted: Season):
    s = drafted
    alice, bob, carol, dave = (s.players[n] for n in ("alice", "bob", "carol", "dave"))

    # Not before the masters: refused with the reason.
    early = await s.mod.slash(s.channel, "league match", a=alice, b=bob)
    await refused(early, "every master unit is fixed")
    # A non-moderator runs moderator commands: refused.
    for command, params in (
        ("league match", {"a": alice, "b": bob}),
        ("league approve", {"player": bob}),
        ("league antes", {}),
        ("league draft", {}),
    ):
        await refused(
            await carol.slash(s.channel, command, **params), "Only the league's moderators"
        )

    await submit_masters(s)
    texts = "\n".join(s.channel_texts())
    assert texts.count("has sent a master unit for approval") == 4
    assert "every master unit is fixed. Revealed together" in texts
    assert "**Warlord**" in texts and "**Shadow**" in texts
    late = await alice.slash(s.channel, "league master", preset="oracle")
    await refused(late, "have been revealed")

    # The moderator gives alice a second lancer: she holds two, bob none.
    await s.mod.slash(s.channel, "league roster-edit", player=alice, unit="lancer", action="add")
    await s.mod.slash(s.channel, "league roster-edit", player=alice, unit="lancer", action="add")
    third = await s.mod.slash(
        s.channel, "league roster-edit", player=alice, unit="lancer", action="add"
    )
    await refused(third, "at most 2 copies of Lancer")
    await s.mod.slash(s.channel, "league roster-edit", player=bob, unit="lancer", action="add")

    # Match 1: alice beats bob. The ante is offered to alice by DM.
    m1 = await play(s, "alice", "bob", loser="bob")
    offer = last_dm(s, "alice")
    assert f"you won {m1}" in offer.content
    _, candidates = menu(offer)
    league = await s.league()
    bob_units = season.roster(await s.bot.leagues.ledger(s.league_id), s.uid("bob")).distinct()
    assert "archmage" not in candidates, "a master unit is never offered"
    assert "lancer" in bob_units
    assert candidates == [u for u in bob_units if u != "lancer"], "alice holds two lancers"

    # Refusals: a non-winner, the loser's master, an unknown candidate.
    await refused(
        await bob.slash(s.channel, "league ante", unit=candidates[0], match=m1),
        "Only the winner of the match",
    )
    await refused(
        await alice.slash(s.channel, "league ante", unit="archmage", match=m1),
        "master units cannot be taken",
    )
    await refused(
        await alice.slash(s.channel, "league ante", unit="lancer", match=m1),
        "You already hold two copies of Lancer",
    )

    # Declared, then changed, with the DM menu.
    first, second = candidates[0], candidates[-1]
    declared = await choose(s, "alice", offer, first)
    assert "Ante pick for" in declared.response.content
    await choose(s, "alice", offer, second)
    await s.settle()
    texts = "\n".join(s.channel_texts())
    assert "has declared an ante pick" in texts and "has changed the ante pick" in texts

    # Match 2: carol beats dave; carol never picks.
    m2 = await play(s, "carol", "dave", loser="dave")
    assert f"you won {m2}" in last_dm(s, "carol").content

    # Match 3 starts: alice's ante locks (the unit moves), carol's lapses.
    m3 = await play(s, "alice", "carol", loser="carol")
    texts = "\n".join(s.channel_texts())
    assert f"Ante of {m1}" in texts and "moves from" in texts
    assert f"Ante of {m2}" in texts and "the right has lapsed" in texts
    after_lock = await alice.slash(s.channel, "league ante", unit=first, match=m1)
    await refused(after_lock, "has locked")
    ledger = await s.bot.leagues.ledger(s.league_id)
    moved = [(e.kind, e.player, e.unit) for e in ledger if e.kind in (ANTE_GAIN, ANTE_LOSS)]
    assert moved == [(ANTE_LOSS, s.uid("bob"), second), (ANTE_GAIN, s.uid("alice"), second)]

    # The ante of match 3 (alice over carol): declared, then voided by the moderator.
    offer3 = last_dm(s, "alice")
    assert f"you won {m3}" in offer3.content
    _, candidates3 = menu(offer3)
    assert "oracle" not in candidates3
    await choose(s, "alice", offer3, candidates3[0])
    listed = await s.mod.slash(s.channel, "league antes")
    assert listed.ephemeral and m3 in listed.response.embeds[0].fields[0].name
    await s.mod.slash(s.channel, "league ante-void", match=m3, reason="duplicate account")
    await s.settle()
    assert "voided the ante of" in "\n".join(s.channel_texts())
    await refused(
        await alice.slash(s.channel, "league ante", unit=candidates3[0], match=m3), "voided"
    )
    assert (await s.mod.slash(s.channel, "league antes")).response.embeds[0].description

    # Standings: alice 2 wins, carol 1-1, bob and dave a loss each; ratings follow.
    league = await s.league()
    rows = {r.player: r for r in league.standings()}
    assert (rows[s.uid("alice")].won, rows[s.uid("alice")].points) == (2, 6)
    assert (rows[s.uid("carol")].won, rows[s.uid("carol")].lost) == (1, 1)
    assert rows[s.uid("bob")].lost == rows[s.uid("dave")].lost == 1
    ranked = [r.player for r in league.standings()]
    assert ranked[0] == s.uid("alice") and ranked[1] == s.uid("carol")
    assert rows[s.uid("alice")].rating > rows[s.uid("carol")].rating > rows[s.uid("bob")].rating
    table = await dave.slash(s.channel, "league standings")
    assert table.ephemeral
    assert table.response.attachments[0].filename == "standings.png"
    assert "2W 0D 0L" in table.response.embeds[0].description

    # The ledger tells each unit's history: alice's roster now, with provenance.
    roster = await alice.slash(s.channel, "league roster")
    text = roster.response.embeds[0].description
    assert "warlord" in text.lower() and "(master)" in text
    assert "drafted (pick 1" in text and "won by ante (match " + m1 in text
    assert "added by moderator" in text
    bobs = await alice.slash(s.channel, "league roster", player=bob)
    assert "lost by ante" not in bobs.response.embeds[0].description, "only units held show"
    kinds = {e.kind for e in ledger}
    assert {DRAFT_PICK, MASTER_SET, MODERATOR_ADD, ANTE_GAIN, ANTE_LOSS} <= kinds


async def test_roster_as_of_a_date_and_a_bad_date(drafted: Season):
    s = drafted
    alice = s.players["alice"]
    bad = await alice.slash(s.channel, "league roster", date="yesterday")
    await refused(bad, "is not a date")
    old = await alice.slash(s.channel, "league roster", date="2000-01-01")
    assert old.response.embeds[0].description == "No units."


async def test_restart_mid_draft_catches_up_on_the_missed_picks(season_env: Season, make_bot):
    s = season_env
    await create_league(s)
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    await choose(s, "alice", last_dm(s, "alice"), "knight")
    # The bot goes down (its maintenance loop stops); two picks' worth of time passes.
    s.bot.maintenance.cancel()
    await s.env.advance_time(2 * PICK_MINUTES * 60 + 5)
    await s.env.restart_bot(make_bot())
    await s.env.advance_time(15)  # the new process's first maintenance tick catches up
    await s.settle()
    league = await s.league()
    assert (league.draft.picks[0].unit, league.draft.picks[0].auto) == ("knight", False)
    assert [p.auto for p in league.draft.picks[1:]] == [True, True]
    assert league.draft.current == s.uid("dave")
    # Each automatic pick was made at its own deadline, so dave's clock started at the second.
    assert league.draft.turn_started_at == league.draft.picks[2].at
    prompt = last_dm(s, "dave")
    assert "(4 of 8)" in prompt.content
    texts = "\n".join(s.channel_texts())
    assert texts.count("time ran out, so the bot picked") == 2
    # Nothing twice after a second restart.
    await s.env.restart_bot(make_bot())
    await s.bot.leagues.tick()
    await s.settle()
    assert "\n".join(s.channel_texts()).count("time ran out, so the bot picked") == 2
    result = await choose(s, "dave", prompt, "archer")
    assert "You picked" in result.response.content


async def test_restart_with_an_open_ante_keeps_it_and_its_deadline(drafted: Season, make_bot):
    s = drafted
    await submit_masters(s)
    m1 = await play(s, "alice", "bob", loser="bob")
    offer = last_dm(s, "alice")
    _, candidates = menu(offer)
    await choose(s, "alice", offer, candidates[0])
    await s.mod.slash(s.channel, "league ante-extend", match=m1, hours=2.0)

    await s.env.restart_bot(make_bot())
    await s.settle()
    league = await s.league()
    ante = league.ante_of(m1)
    assert ante.open and ante.pick == candidates[0] and ante.deadline is not None
    # The menu from before the restart still works (persistent ids).
    changed = await choose(s, "alice", offer, candidates[-1])
    assert "Ante pick for" in changed.response.content
    # The moderator's deadline passes while nobody acts: the pick locks and the unit moves.
    # (The loop would tick 720 times in two virtual hours; one explicit tick stands for them.)
    s.bot.maintenance.cancel()
    await s.env.advance_time(2 * 3600 + 5)
    await s.bot.leagues.tick()
    await s.settle()
    league = await s.league()
    assert league.ante_of(m1).status == "locked"
    ledger = await s.bot.leagues.ledger(s.league_id)
    assert [(e.kind, e.unit) for e in ledger if e.kind == ANTE_GAIN] == [
        (ANTE_GAIN, candidates[-1])
    ]
    assert "\n".join(s.channel_texts()).count("moves from") == 1


async def test_a_rejected_master_and_a_forfeit(drafted: Season):
    s = drafted
    alice, bob = s.players["alice"], s.players["bob"]
    await alice.slash(s.channel, "league master", preset="warlord")
    rejected = await s.mod.slash(
        s.channel, "league reject", player=alice, reason="use a design of your own"
    )
    assert rejected.ephemeral
    await s.settle()
    assert "was sent back: use a design of your own" in last_dm(s, "alice").content
    nothing = await s.mod.slash(s.channel, "league approve", player=alice)
    await refused(nothing, "has no master unit waiting for approval")
    bad = await alice.slash(
        s.channel, "league master", name_en="Titan", name_ja="巨人", hp=99, atk=9, defence=9, move=9
    )
    assert bad.ephemeral and "⚠️" in bad.response.content, "a design out of bounds says why"
    designed = await alice.slash(
        s.channel, "league master", name_en="Titan", name_ja="巨人", hp=14, atk=5, defence=2, move=3
    )
    assert "sent to the moderators" in designed.response.content
    # The league's builder has every field of /tactics master (one list): a stat-change ability.
    designed = await alice.slash(
        s.channel,
        "league master",
        name_en="Marshal",
        name_ja="元帥",
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
    assert "sent to the moderators" in designed.response.content
    ability = (await s.league()).masters[str(alice.id)].spec["ability"]
    assert (ability["effect"], ability["stat"], ability["turns"]) == ("stat", "atk", 2)
    await submit_masters(s)  # everyone (alice again, with a preset) approved: revealed

    result = await s.mod.slash(s.channel, "league match", a=alice, b=bob)
    match_id = result.response.content.split()[2]
    busy = await s.mod.slash(s.channel, "league match", a=bob, b=s.players["carol"])
    await refused(busy, f"is still playing league match {match_id}")
    await s.mod.slash(s.channel, "league forfeit", match=match_id, winner=bob)
    await s.bot.leagues.tick()
    await s.settle()
    game = await s.bot.table.game(match_id)
    assert game.status == "abandoned", "the game stops when the forfeit is recorded"
    league = await s.league()
    assert league.match(match_id).status == "forfeit" and league.match(match_id).winner == s.uid(
        "bob"
    )
    texts = "\n".join(s.channel_texts())
    assert texts.count(f"{match_id} (") == 1, "recorded once, not again when the game ended"
    assert "by forfeit" in texts
    assert f"you won {match_id}" in last_dm(s, "bob").content, "a forfeit win carries the ante"
    again = await s.mod.slash(s.channel, "league forfeit", match=match_id, winner=alice)
    await refused(again, "already recorded")


async def test_a_japanese_player_reads_the_league_in_japanese(season_env: Season, discord_locale):
    s = season_env
    discord_locale(s.players["alice"], "ja")
    discord_locale(s.users["alice"], "ja")
    await create_league(s)  # alice joins with a Japanese client: her DMs follow it
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    prompt = last_dm(s, "alice")
    assert prompt.content.startswith("📋 **Autumn Cup**：あなたの指名です（8指名中1番目）")
    _, values = menu(prompt)
    labels = [o.label for row in prompt.components for o in row.children[0].options]
    assert values[0] == "knight" and labels[0].startswith("剣士")
    picked = await choose(s, "alice", prompt, "knight")
    assert picked.response.content == "**剣士**を指名しました（Autumn Cup）。"
    refusal = await s.players["alice"].slash(s.channel, "league draft")
    assert refusal.response.content == "⚠️ " + t("ja", "league.moderators_only")
    # the channel follows the server's language (English here)
    assert any("takes **Knight**" in text for text in s.channel_texts())


# --- closed DMs -------------------------------------------------------------------------------


def close_dms(s: Season, name: str) -> None:
    """Discord refuses every DM to ``name`` as it does to a user whose DMs are closed."""
    s.env.inject_error(
        "POST",
        f"/channels/{s.players[name].user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def test_a_draft_pick_whose_dm_cannot_be_delivered_is_announced_once_per_turn(
    season_env: Season,
):
    s = season_env
    await create_league(s)
    close_dms(s, "alice")
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    alice = f"<@{s.uid('alice')}>"

    def notices() -> list[discord.Message]:
        return [
            m for m in s.channel.history() if m.author.bot and "your DMs are closed" in m.content
        ]

    (notice,) = notices()
    assert not dms(s.players["alice"]), "the menu never reached her"
    assert notice.content.startswith("📋 **Autumn Cup**: " + alice)
    assert "(1 of 8)" in notice.content and "`/league pick`" in notice.content
    assert "allow direct messages from this server's members" in notice.content
    assert [u.id for u in notice.mentions] == [s.players["alice"].id], "she is pinged"
    # No private fact: none of the units her menu would have offered is named.
    league = await s.league()
    rules = rosters(league)
    for unit in league.draft.costs:
        assert rules.unit_name(unit, "en") not in notice.content, unit

    # The same message failing again (a retry, a restart) posts nothing new: the pick's nonce.
    async with s.bot.repo.transaction() as tx:
        rows = [await tx.get_outbox(i) for i in range(1, 40)]
    (failed,) = [r for r in rows if r is not None and "undeliverable" in r.payload]
    assert failed.status == "failed" and failed.target_id == int(s.uid("alice"))
    await s.bot.outbox._undeliverable(failed.payload["undeliverable"])
    await s.settle()
    assert len(notices()) == 1

    # She picks by command; the draft goes on by DM for the others.
    picked = await s.players["alice"].slash(s.channel, "league pick", unit="knight")
    assert picked.ephemeral and "You picked **Knight**" in picked.response.content
    for number, (name, unit) in enumerate(
        [("bob", "knight"), ("carol", "saint"), ("dave", "archer"), ("dave", "mage")], start=2
    ):
        prompt = last_dm(s, name)
        assert f"({number} of 8)" in prompt.content
        await choose(s, name, prompt, unit)
    await s.settle()
    assert len(notices()) == 1, "one notice for her one turn so far"
    await choose(s, "carol", last_dm(s, "carol"), "lancer")
    await choose(s, "bob", last_dm(s, "bob"), "cleric")
    await s.settle()
    # Pick 8 is her second turn: told once more, with its own number.
    assert len(notices()) == 2 and "(8 of 8)" in notices()[-1].content
    assert not dms(s.players["alice"])
    assert len(notices()) == 2


# --- names, sizes and pings -------------------------------------------------------------------

STATS = {"hp": 14, "atk": 5, "defence": 2, "move": 3}


async def test_a_master_is_named_as_typed_and_never_after_a_pool_unit(drafted: Season):
    """A master named ``guardian`` once shared the pool Guardian's id, so the loser's Guardian
    counted as their master and was never offered as ante. Such names are refused now (any case,
    full-width, hidden characters), and a designed master keeps its name as typed."""
    s = drafted
    alice = s.players["alice"]
    for en, ja in (
        ("guardian", "守護者"),
        ("ＧＵＡＲＤＩＡＮ", "守護者"),
        ("Guar\u200bdian", "守護者"),
        ("Titan", "重装兵"),
        ("Warlord", "大将"),
    ):
        taken = await alice.slash(s.channel, "league master", name_en=en, name_ja=ja, **STATS)
        await refused(taken, "is already the name of a pool unit or a preset master")
    assert str(alice.id) not in (await s.league()).masters
    empty = await alice.slash(
        s.channel, "league master", name_en="\u202e\u200b", name_ja="巨人", **STATS
    )
    await refused(empty, "A master needs an English and a Japanese name")

    designed = await alice.slash(
        s.channel, "league master", name_en="\u202eTiTan\u200b", name_ja="巨\u2066人", **STATS
    )
    assert "Master **TiTan** sent to the moderators" in designed.response.content
    mine = (await s.league()).masters[str(alice.id)]
    assert (mine.spec["en"], mine.spec["ja"]) == ("TiTan", "巨人")
    assert mine.unit == "master:titan", "a designed master's id is never a pool unit's"
    presets = {"bob": "archmage", "carol": "oracle", "dave": "shadow"}
    for name, preset in presets.items():
        await s.players[name].slash(s.channel, "league master", preset=preset)
    for name in ("alice", *presets):
        await s.mod.slash(s.channel, "league approve", player=s.players[name])
    await s.settle()
    texts = "\n".join(s.channel_texts())
    assert f"<@{alice.id}>: **TiTan** ·" in texts and "**Archmage**" in texts
    assert "titan" not in texts
    roster = await alice.slash(s.channel, "league roster")
    assert "👑 TiTan (master)" in roster.response.embeds[0].description


async def test_create_with_everyone_or_a_role_in_its_name_pings_nobody(season_env: Season):
    s = season_env
    # Without the bot-wide default, so that the league's own replies are what is tested.
    s.bot.allowed_mentions = None
    role = s.guild.create_role("Raiders", mentionable=True)
    name = f"@everyone <@&{role.id}> @here"
    result = await s.mod.slash(
        s.channel, "league create", name=name, season_name="S1", ruleset="tactics"
    )
    assert name in result.response.content
    sent = s.env.backend.get_message(result.response.channel_id, result.response.id)
    assert sent.allowed_mentions.everyone is False
    assert sent.allowed_mentions.roles == frozenset() and sent.allowed_mentions.users == frozenset()
    assert not sent.mention_everyone and sent.ping_role_ids == [] and sent.ping_user_ids == []
    # Every other reply too: the league's name comes back in them.
    joined = await s.players["alice"].slash(s.channel, "league join")
    info = await s.players["alice"].slash(s.channel, "league info")
    for reply in (joined, info):
        message = s.env.backend.get_message(reply.response.channel_id, reply.response.id)
        assert message.allowed_mentions.everyone is False
        assert not message.mention_everyone and message.ping_role_ids == []
        assert message.ping_user_ids == []


async def test_long_names_are_refused_at_input_and_clipped_when_shown(season_env: Season):
    s = season_env
    for option in ("name", "season_name"):
        given = {"name": "Cup", "season_name": "S1", "ruleset": "tactics", option: "x" * 300}
        with pytest.raises(simcord.OptionError, match="at most 40 characters"):
            await s.mod.slash(s.channel, "league create", **given)
    assert await s.bot.leagues.in_guild(s.guild.id) == []

    # A league stored before the limits, with a 300-character season: still shown.
    await create_league(s)
    await s.bot.leagues._act(s.league_id, lambda lg, _: season.Step(replace(lg, season="S" * 300)))
    for command in ("league info", "league standings"):
        result = await s.players["alice"].slash(s.channel, command)
        title = result.response.embeds[0].title
        assert title.startswith("Autumn Cup · SSS") and len(title) <= 256 and title.endswith("…")


async def test_a_league_of_ninety_players_fits_discord(season_env: Season):
    """/league info, the snake order and /league standings of 90 players: every embed and post
    within Discord's limits, every player shown once."""
    s = season_env
    await create_league(s)  # alice, bob, carol and dave
    service = s.bot.leagues
    extra = [1_400_000_000_000_000_000 + i for i in range(86)]  # snowflake-sized ids
    for user_id in extra:
        await service.join(s.league_id, user_id, f"Player {user_id}")
    league = await s.league()
    assert len(league.players) == 90

    info = await s.players["alice"].slash(s.channel, "league info")
    embed = info.response.embeds[0]
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value) <= 1024 for f in embed.fields)
    shown = " ".join(f.value for f in embed.fields)
    assert all(shown.count(f"<@{p}>") == 1 for p in league.players)
    assert embed.fields[1].name == "Players (90)"

    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    posts = [m.content for m in s.channel.history() if m.author.bot]
    assert all(len(p) <= 2000 for p in posts)
    start = next(i for i, p in enumerate(posts) if "Snake order" in p)
    end = next(i for i in range(start, len(posts)) if "minutes per pick" in posts[i])
    order = posts[start : end + 1]
    assert len(order) >= 2, "the snake order of 90 players takes more than one post"
    joined = "\n".join(order)
    assert all(joined.count(f"<@{p}>") == 1 for p in league.players)

    table = await s.players["bob"].slash(s.channel, "league standings")
    standings = table.response.embeds[0]
    assert len(standings) <= 6000 and len(standings.description) <= 4096
    assert "more (the image shows everyone)" in standings.description


async def test_the_league_option_completes_with_the_leagues_one_may_name(season_env: Season):
    """Every command's ``league`` option offers the server's leagues (in DMs, the user's) whose
    names hold what was typed, beside a command's own completions (``/league pick``'s unit)."""
    s = season_env
    await create_league(s)  # Autumn Cup, in #league, which alice, bob, carol and dave join
    other = s.guild.create_text_channel("spring")
    await s.mod.slash(
        other, "league create", name="Spring Open", season_name="2027 Spring", ruleset="tactics"
    )
    both = [{"name": n, "value": n} for n in ("Autumn Cup", "Spring Open")]
    alice = s.players["alice"]
    for command in ("league info", "league join", "league standings", "league pick"):
        assert await alice.autocomplete(s.channel, command, "league", "") == both
    assert await alice.autocomplete(s.channel, "league info", "league", "SPRING") == both[1:]
    assert await alice.autocomplete(s.channel, "league roster", "league", "cup") == both[:1]
    assert await alice.autocomplete(s.channel, "league info", "league", "winter") == []
    # In DMs: the leagues the user plays in, wherever they are.
    assert await s.users["alice"].autocomplete("league standings", "league", "") == both[:1]
