"""The Esper cog: the players' history a new game carries (pure, from game rows), then
``/esper start|rules|characters`` and ``/esper season start|show`` in SimCord, their refusals
(player count, moderators only, seasons in DMs), and the commands' Japanese names."""

from __future__ import annotations

import copy
import gc
import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import packs
from bot.i18n import t
from bot.i18n.translator import CatalogueTranslator
from bot.ruleset import RuleError
from bot.storage.base import GameRow, SeasonRow, SeatRow
from cogs.esper import RULESET, cog, rules
from cogs.esper import pack as packlib
from tests.cogs.game.sim import setup_duel

PACK = packlib.sample()
GUILD = 1


def game(
    gid: str,
    players: dict[int, str],
    *,
    status: str = "finished",
    created: float = 0.0,
    ended: float | None = None,
    guild_id: int = GUILD,
    channel_id: int = 5,
    options: dict[str, Any] | None = None,
) -> GameRow:
    """An esper game whose seats A, B, … are ``players`` (user id -> sheet id), as stored."""
    seats = [
        SeatRow(seat, user, f"user{user}", i, accepted=True)
        for i, (seat, user) in enumerate(zip(rules.SEATS, players, strict=False))
    ]
    state = {"seats": {s.seat: {"sheet": players[s.user_id], "alive": True} for s in seats}}
    return GameRow(
        id=gid,
        ruleset="esper",
        guild_id=guild_id,
        channel_id=channel_id,
        status=status,
        options=options or {},
        seats=seats,
        state=state,
        created_at=created,
        updated_at=created + 10 if ended is None else ended,
    )


# --- the history builder (pure) -------------------------------------------------------------------


def test_history_counts_finished_games_of_the_season_only():
    rows = [
        game("h1", {1: "c01", 2: "c02"}, created=50),  # before the season: previous only
        game("h2", {1: "c03", 3: "c04"}, created=100),
        game("h3", {1: "c05", 2: "c06"}, created=110, status="active"),  # running: secret
        game("h4", {1: "c07"}, created=120, status="abandoned"),  # not played out
        game("h5", {2: "c08"}, created=130),
        game("h6", {1: "c03"}, created=140),  # the same character again: listed once
    ]
    history = cog.build_history([1, 2, 3, 4], rows, season_start=100)
    assert history == {
        "A": {"season": ["c03"], "previous": "c03"},
        "B": {"season": ["c08"], "previous": "c08"},
        "C": {"season": ["c04"], "previous": "c04"},
        "D": {"season": [], "previous": None},
    }
    # The running game's sheets never show, whatever its age.
    assert "c05" not in str(history) and "c06" not in str(history)


def test_without_a_season_only_the_previous_game_counts():
    rows = [game("h1", {1: "c01"}, created=10), game("h2", {1: "c02"}, created=20)]
    assert cog.build_history([1], rows, season_start=None) == {
        "A": {"season": [], "previous": "c02"}
    }


def test_the_previous_game_is_the_one_that_ended_last():
    # h1 began first but ended after h2: the player's most recent game is h1.
    rows = [
        game("h1", {1: "c01"}, created=10, ended=500),
        game("h2", {1: "c02"}, created=20, ended=300),
    ]
    history = cog.build_history([1], rows, season_start=0)
    assert history["A"] == {"season": ["c02", "c01"], "previous": "c01"}


def test_seats_follow_the_callers_order_and_odd_states_are_skipped():
    odd = game("h2", {2: "c05"}, created=20)
    odd.state = None  # ended before anything was stored
    blank = game("h3", {2: "c06"}, created=30)
    assert blank.state is not None
    blank.state["seats"]["A"]["sheet"] = ""  # ended before the deal was kept
    rows = [game("h1", {1: "c01", 2: "c02"}, created=10), odd, blank]
    history = cog.build_history([2, 1], rows, season_start=0)
    assert history["A"] == {"season": ["c02"], "previous": "c02"}
    assert history["B"] == {"season": ["c01"], "previous": "c01"}


def test_start_options_embed_the_pack_and_pass_the_engines_check():
    history = cog.build_history([1, 2, 3, 4, 5], [], season_start=None)
    options = cog.start_options(PACK, 12, 4, history, 3, players=5)
    assert options["pack_hash"] == PACK.hash and options["pack"] == dict(PACK.source)
    assert options["minutes"] == 12 and options["objection_minutes"] == 4
    assert options["season"] == 3 and set(options["history"]) == set("ABCDE")
    assert "season" not in cog.start_options(PACK, 10, 3, history, None, players=5)
    with pytest.raises(RuleError):
        # objection: 1 minute to a week (play-by-post servers count in hours)
        cog.start_options(PACK, 10, rules.MAX_MINUTES + 1, history, None, players=5)


# --- what the commands show (pure) ---------------------------------------------------------------


def test_season_text_names_finished_games_characters_never_a_running_games():
    season = SeasonRow(GUILD, "esper", 2, started_at=100.0, started_by=77)
    rows = [
        game("h1", {1: "c01", 2: "c02"}, created=100),
        game("h2", {1: "c01", 3: "c03"}, created=110),
        game("h3", {1: "c04", 4: "c05"}, created=120, status="active"),
        game("h4", {5: "c06"}, created=130, status="lobby"),
    ]
    names = {s.id: s for s in PACK.sheets.values()}
    text = cog.season_text(season, rows, "en")
    assert "Esper season 2" in text and "<@77>" in text and "finished games: 2" in text
    assert f"<@1>: {names['c01'].name_en} ×2" in text
    assert f"<@2>: {names['c02'].name_en}" in text and f"<@3>: {names['c03'].name_en}" in text
    assert "Games still running: 1." in text
    for secret in ("c04", "c05"):
        assert names[secret].name_en not in text and names[secret].name_ja not in text
    assert "<@4>" not in text
    ja = cog.season_text(season, rows, "ja")
    assert names["c02"].name_ja in ja and names["c02"].name_en not in ja
    assert "シーズン2" in ja
    assert cog.season_text(None, [], "en") == t("en", "esper.cog.season.none")


def live_packs() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, packlib.Pack))


def test_a_season_of_forty_packs_keeps_few_in_memory():
    """``/esper season show`` opens every finished game's pack: each one parsed was kept until a
    restart (0.5-0.8 MB each)."""
    season = SeasonRow(GUILD, "esper", 1, started_at=0.0, started_by=77)
    rows = []
    for n in range(40):
        source = copy.deepcopy(dict(PACK.source))
        source["pack"]["name_en"] = f"Cup {n}"
        options = {"pack": source, "pack_hash": packlib.pack_hash(source)}
        rows.append(game(f"h{n}", {1: "c01"}, created=float(n), options=options))
    before = live_packs()
    assert "finished games: 40" in cog.season_text(season, rows, "en")
    assert live_packs() - before <= packs.CACHE_SIZE


def test_characters_pages_list_every_character():
    sheets = list(PACK.sheets.values())
    pages = -(-len(sheets) // cog.PER_PAGE)
    seen: list[str] = []
    for page in range(1, pages + 1):
        embed = cog.characters_embed(PACK, page, "en")
        assert embed.footer.text == f"Page {page}/{pages} · /esper characters page"
        seen += [f.name or "" for f in embed.fields]
    assert len(seen) == len(sheets)
    first = sheets[0]
    assert seen[0].startswith(f"`{first.id}` {first.name_en}")
    assert sum(name.endswith("(L)") for name in seen) == sum(s.lock for s in sheets)
    # A page past the end shows the last one.
    assert (
        cog.characters_embed(PACK, 99, "en").footer.text
        == f"Page {pages}/{pages} · /esper characters page"
    )
    ja = cog.characters_embed(PACK, 1, "ja").fields[0]
    assert first.name_ja in (ja.name or "") and "耐久力" in (ja.value or "")
    assert first.abilities[0].name_ja in (ja.value or "")


# --- the commands in SimCord ---------------------------------------------------------------------


@pytest.fixture
def club(simcord_env, sim_clock):
    duel = setup_duel(simcord_env, sim_clock)
    duel.others = [
        duel.guild.add_member(simcord_env.create_user(name))
        for name in ("carol", "dave", "erin", "frank")
    ]
    return duel


def moderator(club: Any) -> Any:
    role = club.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return club.guild.add_member(club.env.create_user("mod"), roles=[role])


def said(result: Any) -> str:
    """Everything an interaction answered: contents and embeds' descriptions."""
    messages = [m for m in [result.response, *result.followups] if m is not None]
    parts = [m.content or "" for m in messages]
    parts += [e.description or "" for m in messages for e in m.embeds]
    return "\n".join(parts)


async def insert(club: Any, *rows: GameRow) -> None:
    async with club.bot.table.repo.transaction() as tx:
        for row in rows:
            await tx.insert_game(row)


async def esper_games(club: Any) -> list[GameRow]:
    async with club.bot.table.repo.read() as tx:
        return await tx.games_of_ruleset(club.guild.id, "esper")


def players(club: Any, count: int) -> dict[str, Any]:
    members = [club.bob, *club.others][:count]
    return {f"player{i}": m for i, m in enumerate(members, 1)}


async def test_start_opens_a_lobby_with_the_seasons_history(club):
    mod = moderator(club)
    now = club.bot.table.clock()
    alice, bob = club.alice.id, club.bob.id
    await insert(
        club, game("h-1", {alice: "c01", bob: "c02"}, created=now - 500, guild_id=club.guild.id)
    )
    started = await mod.slash(club.channel, "esper season start")
    assert not started.ephemeral and "Esper season 1 starts now" in said(started)
    later = club.bot.table.clock()
    await insert(
        club,
        game("h-2", {alice: "c03"}, created=later, guild_id=club.guild.id),
        game("h-3", {bob: "c04"}, created=later, status="active", guild_id=club.guild.id),
    )

    result = await club.alice.slash(club.channel, "esper start", **players(club, 4), minutes=15)
    assert not result.ephemeral
    lobby = [g for g in await esper_games(club) if g.status == "lobby"]
    assert len(lobby) == 1
    options = lobby[0].options
    assert [s.user_id for s in sorted(lobby[0].seats, key=lambda s: s.position)] == [
        alice,
        bob,
        *(m.id for m in club.others[:3]),
    ]
    assert options["season"] == 1 and options["minutes"] == 15
    # Left out on a play-by-post server (none set: the default): as long as a step.
    assert options["objection_minutes"] == 15 and options["reaction_minutes"] == 15
    assert options["pack_hash"] == PACK.hash
    assert options["history"]["A"] == {"season": ["c03"], "previous": "c03"}
    # Bob's only game this season is still running: it tells nothing.
    assert options["history"]["B"] == {"season": [], "previous": "c02"}
    assert options["history"]["C"] == {"season": [], "previous": None}
    assert lobby[0].turn_seconds == 15 * 60

    invitation = club.channel.last_message
    assert "Esper war" in (invitation.content or "")
    assert f"<@{bob}>" in (invitation.content or "")
    for member in [club.bob, *club.others[:3]]:
        await member.click(invitation, label="Accept")
    running = await club.bot.table.game(lobby[0].id)
    assert running.status == "active" and running.state is not None
    # The engine reads the history the lobby froze: what the deal's refusals are checked against.
    state = rules.from_json(running.state)
    assert rules.history(state, "A") == (["c03"], "c03")
    assert rules.history(state, "B") == ([], "c02")


async def test_too_few_players_are_refused(club, discord_locale):
    result = await club.alice.slash(club.channel, "esper start", **players(club, 3))
    assert result.ephemeral
    assert "you and 4 to 10 other players (you named 3)" in said(result)
    discord_locale(club.bob, "ja")
    result = await club.bob.slash(club.channel, "esper start", player1=club.alice)
    assert "4〜10人" in said(result) and "指定は1人" in said(result)
    assert await esper_games(club) == []


async def test_a_player_outside_the_server_is_refused(club):
    stranger = club.env.create_user("stranger")  # not a member of the club
    chosen = {**players(club, 4), "player5": stranger}
    result = await club.alice.slash(club.channel, "esper start", **chosen)
    assert result.ephemeral and "stranger is not a member of this server" in said(result)
    assert await esper_games(club) == []


async def test_ten_invited_is_the_most(club):
    extra = [club.guild.add_member(club.env.create_user(f"p{i}")) for i in range(5)]
    members = [club.bob, *club.others, *extra]
    chosen = {f"player{i}": m for i, m in enumerate(members, 1)}
    assert len(chosen) == cog.MAX_INVITED == 10  # the command has no eleventh player option
    ok = await club.alice.slash(club.channel, "esper start", **chosen)
    assert not ok.ephemeral
    (lobby,) = await esper_games(club)
    assert len(lobby.seats) == 11 and set(lobby.options["history"]) == set(rules.SEATS)


async def test_rules_are_the_presenters_how_to_play(club, discord_locale):
    result = await club.alice.slash(club.channel, "esper rules")
    assert result.ephemeral
    presenter = RULESET.presenter
    assert said(result).replace("\n", "") == presenter.how_to_play("en").replace("\n", "")
    discord_locale(club.bob, "ja")
    result = await club.bob.slash(club.channel, "esper rules")
    assert said(result).replace("\n", "") == presenter.how_to_play("ja").replace("\n", "")


async def test_characters_page_by_page_in_the_readers_language(club, discord_locale):
    sheets = list(PACK.sheets.values())
    result = await club.alice.slash(club.channel, "esper characters")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert PACK.name_en in (embed.title or "")
    assert len(embed.fields) == min(cog.PER_PAGE, len(sheets))
    assert sheets[0].name_en in (embed.fields[0].name or "")
    second = await club.alice.slash(club.channel, "esper characters", page=2)
    assert sheets[cog.PER_PAGE].name_en in (second.response.embeds[0].fields[0].name or "")
    discord_locale(club.bob, "ja")
    ja = await club.bob.slash(club.channel, "esper characters")
    assert sheets[0].name_ja in (ja.response.embeds[0].fields[0].name or "")
    in_dm = await club.alice_dm.slash("esper characters")  # no server needed
    assert sheets[0].name_en in (in_dm.response.embeds[0].fields[0].name or "")


async def test_only_moderators_start_or_show_a_season(club, discord_locale):
    refused = await club.alice.slash(club.channel, "esper season start")
    assert refused.ephemeral and "Only moderators" in said(refused)
    discord_locale(club.bob, "ja")
    refused = await club.bob.slash(club.channel, "esper season show")
    assert "モデレーター" in said(refused)
    async with club.bot.table.repo.read() as tx:
        assert await tx.current_season(club.guild.id, "esper") is None

    mod = moderator(club)
    shown = await mod.slash(club.channel, "esper season show")
    assert shown.ephemeral and "no esper season yet" in said(shown)
    first = await mod.slash(club.channel, "esper season start")
    second = await mod.slash(club.channel, "esper season start")
    assert "season 1 " in said(first) and "season 2 " in said(second)
    assert f"<@{mod.id}>" in said(second)
    async with club.bot.table.repo.read() as tx:
        current = await tx.current_season(club.guild.id, "esper")
    assert current is not None and current.number == 2 and current.started_by == mod.id


async def test_seasons_and_games_need_a_server(club, discord_locale):
    for command in ("esper season start", "esper season show"):
        result = await club.alice_dm.slash(command)
        assert result.ephemeral and "belong to a server" in said(result)
    result = await club.alice_dm.slash("esper start", player1=club.bob_dm)
    assert result.ephemeral and "belong to a server" in said(result)
    discord_locale(club.bob, "ja")
    result = await club.bob_dm.slash("esper season start")
    assert "サーバー" in said(result)
    async with club.bot.table.repo.read() as tx:
        assert await tx.current_season(club.guild.id, "esper") is None
    assert await esper_games(club) == []


async def test_season_show_never_names_a_running_games_characters(club, discord_locale):
    mod = moderator(club)
    await mod.slash(club.channel, "esper season start")
    now = club.bot.table.clock()
    alice, bob, carol = club.alice.id, club.bob.id, club.others[0].id
    sheets = PACK.sheets
    await insert(
        club,
        game("h-1", {alice: "c01", bob: "c02"}, created=now, guild_id=club.guild.id),
        game(
            "h-2",
            {carol: "c03", alice: "c04"},
            created=now,
            status="active",
            guild_id=club.guild.id,
        ),
        game("h-3", {bob: "c05"}, created=now, status="paused", guild_id=club.guild.id),
        game("h-4", {carol: "c06"}, created=now - 1000, guild_id=club.guild.id),  # last season
    )
    shown = await mod.slash(club.channel, "esper season show")
    text = said(shown)
    assert shown.ephemeral
    assert f"<@{alice}>: {sheets['c01'].name_en}" in text
    assert f"<@{bob}>: {sheets['c02'].name_en}" in text
    assert "Games still running: 2." in text
    for hidden in ("c03", "c04", "c05", "c06"):
        assert sheets[hidden].name_en not in text, hidden
    assert f"<@{carol}>" not in text
    discord_locale(mod, "ja")
    ja = said(await mod.slash(club.channel, "esper season show"))
    assert sheets["c01"].name_ja in ja and sheets["c03"].name_ja not in ja


# --- the commands' Japanese names ---------------------------------------------------------------


def _walk(payload: dict[str, Any]):
    yield payload
    for option in payload.get("options", []):
        yield from _walk(option)


async def test_esper_commands_have_japanese_names_and_descriptions() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    esper = cog.EsperCog.__new__(cog.EsperCog)
    payloads = [
        await cmd.get_translated_payload(tree, translator) for cmd in esper.__cog_app_commands__
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
        for parent in _walk(payload):  # siblings need distinct Japanese names
            names = [o["name_localizations"]["ja"] for o in parent.get("options", [])]
            assert len(names) == len(set(names)), names
    # the group, 4 subcommands and a subgroup of 2, start's 12 options, characters' page
    assert seen >= 20
