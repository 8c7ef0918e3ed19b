"""The shared commands (/game …, /order, /config, /arena rules, the challenge) by real users.

Everything goes through SimCord: slash commands and clicks by members, DMs by users. A refusal is
an ephemeral reason, never an error; the assertions read what each user actually sees.
"""

from __future__ import annotations

import json

import discord
import pytest
from simcord.backend.errors import SetupError

from bot import registry
from bot.__main__ import main as cli
from bot.i18n import t
from bot.record import replay, verify
from tests.cogs.game.sim import dms, field, last_dm, setup_duel, start_duel, turn_posts

MODERATOR_PERMISSIONS = [
    pytest.param(discord.Permissions(manage_guild=True), id="manage-server"),
    pytest.param(discord.Permissions(administrator=True), id="administrator"),
]


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def moderator(duel, name="mod", permissions=None, guild=None):
    guild = guild or duel.guild
    role = guild.create_role(
        "Moderators", permissions=permissions or discord.Permissions(manage_guild=True)
    )
    return guild.add_member(duel.env.create_user(name), roles=[role])


def bot_posts(channel) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.bot]


def notices(duel, start: str) -> list[discord.Message]:
    return [m for m in bot_posts(duel.channel) if m.content.startswith(start)]


def buttons(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def play_turn(duel, alice="stay none", bob="stay none"):
    await duel.alice.send_dm(alice)
    await duel.bob.send_dm(bob)


# --- /game status -------------------------------------------------------------------------------


async def test_status_shows_the_turn_the_players_and_who_has_ordered(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    carol = duel.guild.add_member(duel.env.create_user("carol"))  # a spectator may look too
    result = await carol.slash(duel.channel, "game status")
    assert result.ephemeral
    reply = result.response
    embed = reply.embeds[0]
    assert embed.title == "Arena Duel · g-0001 · Turn 1"
    assert embed.description == "Running."
    assert field(reply, "A").value == f"<@{duel.alice.id}>"
    assert field(reply, "B").value == f"<@{duel.bob.id}>"
    progress = field(reply, "Orders in: 1/2")
    assert progress is not None and progress.value == "✅ A · ⌛ B"
    game = await duel.bot.table.game(duel.game_id)
    at = int(game.deadline_at)
    assert field(reply, "Deadline").value == f"<t:{at}:f> (<t:{at}:R>)", "each reader's own time"
    assert [a.filename for a in reply.attachments] == ["board.png"]
    # Nothing of the sealed order leaks: not its text, not its receipt.
    sealed = (await duel.bot.table.current_orders(duel.game_id))["A"]
    shown = " ".join(f"{f.name} {f.value}" for f in embed.fields) + (embed.description or "")
    assert sealed.text not in shown and sealed.receipt[:12] not in shown


async def test_status_without_a_game_here_gets_a_reason(duel):
    result = await duel.alice.slash(duel.channel, "game status")
    assert result.ephemeral
    assert "No game of yours was found here" in result.response.content


# --- /game orders -------------------------------------------------------------------------------


async def test_orders_shows_your_sealed_order_and_receipt_and_nothing_of_the_opponent(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    sealed = (await duel.bot.table.current_orders(duel.game_id))["A"]

    mine = await duel.alice.slash(duel.channel, "game orders")
    assert mine.ephemeral
    assert mine.response.content == (
        f"g-0001 (turn 1, seat A): `{sealed.text}` · receipt `{sealed.receipt}`"
    )

    theirs = await duel.bob.slash(duel.channel, "game orders")
    assert theirs.ephemeral
    assert theirs.response.content == "g-0001 (turn 1, seat B): no order yet."

    await duel.bob.send_dm("stay none")  # now both are in: the turn resolves
    assert (await duel.bot.table.game(duel.game_id)).step == 2
    await duel.bob.send_dm("stay right")
    bob_order = (await duel.bot.table.current_orders(duel.game_id))["B"]
    mine = (await duel.alice.slash(duel.channel, "game orders")).response.content
    assert mine == "g-0001 (turn 2, seat A): no order yet."
    assert bob_order.receipt not in mine and bob_order.text not in mine


async def test_orders_for_someone_without_a_game(duel):
    await start_duel(duel)
    carol = duel.guild.add_member(duel.env.create_user("carol"))
    result = await carol.slash(duel.channel, "game orders")
    assert result.ephemeral and result.response.content == "You are not playing any running game."


# --- /game resign -------------------------------------------------------------------------------


async def test_resign_finishes_the_game_for_the_opponent_and_posts_the_result_once(duel):
    await start_duel(duel)
    unconfirmed = await duel.alice.slash(duel.channel, "game resign", confirm=False)
    assert unconfirmed.ephemeral and "set confirm to true" in unconfirmed.response.content
    assert (await duel.bot.table.game(duel.game_id)).status == "active"

    carol = duel.guild.add_member(duel.env.create_user("carol"))
    stranger = await carol.slash(duel.channel, "game resign", confirm=True, game=duel.game_id)
    assert "You are not playing in game g-0001" in stranger.response.content

    result = await duel.alice.slash(duel.channel, "game resign", confirm=True)
    assert result.ephemeral and result.response.content == "You resigned game g-0001."
    game = await duel.bot.table.game(duel.game_id)
    assert (game.status, game.outcome, game.end_reason) == ("finished", "B", "resign")
    assert game.deadline_at is None

    posts = turn_posts(duel)
    assert len(posts) == 2
    final = posts[1].embeds[0]
    assert final.title == "Arena Duel · g-0001 · Final"
    verdict = f"🏳️ The opponent resigned: B (<@{duel.bob.id}>) wins."
    assert verdict in final.description
    everything = [m.content for m in duel.channel.history()] + [
        m.embeds[0].description or "" for m in duel.channel.history() if m.embeds
    ]
    assert sum(verdict in text for text in everything) == 1
    for player in (duel.alice, duel.bob):
        assert last_dm(player).content.startswith("Game g-0001 is over")
        assert verdict in last_dm(player).content

    again = await duel.alice.slash(duel.channel, "game resign", confirm=True, game=duel.game_id)
    assert again.ephemeral and "Game g-0001 is over" in again.response.content
    assert len(turn_posts(duel)) == 2


# --- /game export -------------------------------------------------------------------------------


async def test_export_attaches_a_record_that_replays_the_game(duel, tmp_path, capsys):
    await start_duel(duel)
    await play_turn(duel, "forward none", "forward none")
    await play_turn(duel, "stay left", "fr right")
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 3

    result = await duel.bob.slash(duel.channel, "game export")
    assert result.ephemeral
    assert result.response.content.startswith("Match record of g-0001 (resolved turns: 2).")
    # the record, and the match viewer beside it (bot/viewer)
    attachment, viewer = result.response.attachments
    assert attachment.filename == "g-0001.json" and viewer.filename == "g-0001.html"
    assert (await viewer.read()).startswith(b"<!DOCTYPE html>")
    data = await attachment.read()
    record = json.loads(data)
    assert record["game_id"] == "g-0001" and len(record["turns"]) == 2
    assert record["players"] == {"A": "alice", "B": "bob"}
    # The running turn's secrets stay out: no seed of turn 3 anywhere in the file.
    async with duel.bot.repo.transaction() as tx:
        running = [s.seed for s in await tx.streams(duel.game_id, 3)]
        stored_events = await tx.events(duel.game_id)
    assert running and not any(seed in data.decode() for seed in running)

    replayed = replay(record)
    rules = registry.get("arena").engine
    assert replayed.turns_resolved == 2
    # The stored state has turn 3 started (its dice rolled); the replay stops after turn 2.
    stored = await duel.bot.table.reads.state_at(duel.game_id, 3)
    again = rules.to_json(replayed.state)
    assert again["turn"] == 2 and stored["turn"] == 3
    for key in ("fighters", "last_turn", "obstacles", "winner"):
        assert again[key] == stored[key], key
    assert [(turn, e.to_json()) for turn, e in replayed.events] == [
        (turn, e) for turn, e in stored_events if turn <= 2
    ]
    assert all(check.ok for check in verify(record))
    # The first post bound the players to their seats: the export's digest is the one posted.
    # (shown short in its footer: the full digest is behind the post's Proofs button)
    footer = turn_posts(duel)[0].embeds[0].footer.text
    assert f"players {record['players_digest'][:12]}…" in footer

    # The same file through the command line.
    path = tmp_path / attachment.filename
    path.write_bytes(data)
    capsys.readouterr()
    assert cli(["replay", str(path), "--events"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(replayed.events) + 1
    assert json.loads(lines[-1])["turns_resolved"] == 2
    assert cli(["verify", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith(" passed, 0 failed")


# --- /order -------------------------------------------------------------------------------------


async def test_order_for_a_wrong_or_finished_game_is_refused(duel):
    await start_duel(duel)
    other = duel.guild.create_text_channel("other-duels")
    carol = duel.guild.add_member(duel.env.create_user("carol"))
    dave = duel.guild.add_member(duel.env.create_user("dave"))
    await carol.slash(other, "arena challenge", opponent=dave)
    await dave.click(other.last_message, label="Accept")

    wrong = await duel.alice.slash(duel.channel, "order", text="stay none", game="g-0002")
    assert wrong.ephemeral and "You are not playing in game g-0002" in wrong.response.content
    missing = await duel.alice.slash(duel.channel, "order", text="stay none", game="g-0999")
    assert missing.ephemeral and "There is no game g-0999" in missing.response.content
    elsewhere = await duel.alice.slash(other, "order", text="stay none")
    assert elsewhere.ephemeral and "No game of yours was found here" in elsewhere.response.content
    assert await duel.bot.table.current_orders("g-0001") == {}
    assert await duel.bot.table.current_orders("g-0002") == {}

    await duel.bob.slash(duel.channel, "game resign", confirm=True)
    over = await duel.alice.slash(duel.channel, "order", text="stay none", game="g-0001")
    assert over.ephemeral
    assert "Game g-0001 is over: it takes no more orders." in over.response.content
    here = await duel.alice.slash(duel.channel, "order", text="stay none")
    assert "No game of yours was found here" in here.response.content
    await duel.alice.send_dm("stay none")
    reply = last_dm(duel.alice).content
    assert "no game waiting" in reply
    assert "Arena Duel" in reply and "Hex Dungeon" in reply  # the games found, by their titles


# --- moderation ---------------------------------------------------------------------------------


async def test_moderator_commands_are_refused_for_players(duel):
    await start_duel(duel)
    before = await duel.bot.table.game(duel.game_id)
    for command, options in [
        ("game pause", {}),
        ("game resume", {}),
        ("game extend", {"hours": 5}),
        ("game abandon", {}),
        ("game adjudicate", {}),
    ]:
        result = await duel.alice.slash(duel.channel, command, **options)
        assert result.ephemeral, command
        assert result.response.content == "⚠️ Only moderators (Manage Server) can do that.", command
    after = await duel.bot.table.game(duel.game_id)
    assert (after.status, after.deadline_at, after.version) == (
        "active",
        before.deadline_at,
        before.version,
    )
    assert not notices(duel, "⏸️") and not notices(duel, "⏳") and not notices(duel, "🛑")


@pytest.mark.parametrize("permissions", MODERATOR_PERMISSIONS)
async def test_moderator_pauses_extends_resumes(duel, permissions):
    await start_duel(duel, hours=2)
    mod = moderator(duel, permissions=permissions)
    env, table = duel.env, duel.bot.table
    started = await table.game(duel.game_id)
    await env.advance_time(20)

    paused = await mod.slash(duel.channel, "game pause")
    assert paused.ephemeral and paused.response.content == "Game g-0001 paused."
    game = await table.game(duel.game_id)
    assert game.status == "paused" and game.deadline_at is None
    assert game.paused_remaining == pytest.approx(7200 - 20, abs=1)
    assert len(notices(duel, "⏸️ Game g-0001 is paused by a moderator")) == 1
    status = (await duel.bob.slash(duel.channel, "game status")).response.embeds[0]
    assert status.description == "Paused by a moderator."
    again = await mod.slash(duel.channel, "game pause")
    assert "Game g-0001 is not running." in again.response.content

    extended = await mod.slash(duel.channel, "game extend", hours=0.5)
    assert extended.ephemeral and extended.response.content == "Game g-0001 extended."
    assert (await table.game(duel.game_id)).paused_remaining == pytest.approx(7180 + 1800, abs=1)
    (notice,) = notices(duel, "⏳")
    assert notice.content == (
        "⏳ A moderator extended the current turn of g-0001: "
        "150 min will be left when the game resumes."
    )

    await env.advance_time(30)  # the clock is stopped: this costs the players nothing
    resumed = await mod.slash(duel.channel, "game resume")
    assert resumed.ephemeral and resumed.response.content == "Game g-0001 resumed."
    game = await table.game(duel.game_id)
    now = env.now().timestamp()
    assert game.status == "active" and game.deadline_at == pytest.approx(now + 8980, abs=1)
    assert len(notices(duel, "▶️ Game g-0001 is running again.")) == 1
    again = await mod.slash(duel.channel, "game resume")
    assert "Game g-0001 is not paused." in again.response.content

    await mod.slash(duel.channel, "game extend", hours=1.5)
    game = await table.game(duel.game_id)
    assert game.deadline_at == pytest.approx(now + 8980 + 5400, abs=1)
    notice = notices(duel, "⏳")[-1]
    deadline = int(game.deadline_at)
    assert notice.content.endswith(f"it now ends <t:{deadline}:f> (<t:{deadline}:R>).")
    assert game.step == started.step and len(turn_posts(duel)) == 1


async def test_adjudicate_is_refused_for_a_ruleset_without_a_tie_break(duel):
    await start_duel(duel)
    before = await duel.bot.table.game(duel.game_id)
    result = await moderator(duel).slash(duel.channel, "game adjudicate")
    assert result.ephemeral
    assert "cannot be adjudicated: its rules have no tie-break" in result.response.content
    after = await duel.bot.table.game(duel.game_id)
    assert (after.status, after.version) == ("active", before.version)


async def test_moderator_abandons_the_game_without_a_winner(duel):
    await start_duel(duel)
    mod = moderator(duel)
    await duel.alice.send_dm("stay none")
    result = await mod.slash(duel.channel, "game abandon")
    assert result.ephemeral and result.response.content == "Game g-0001 abandoned."
    game = await duel.bot.table.game(duel.game_id)
    assert (game.status, game.outcome, game.end_reason) == ("abandoned", None, "abandon")
    assert game.deadline_at is None
    assert len(notices(duel, "🛑 Game g-0001 was abandoned by a moderator")) == 1
    assert len(turn_posts(duel)) == 1  # no result, no winner posted

    await duel.bob.send_dm("stay none")
    assert "no game waiting" in last_dm(duel.bob).content
    late = await duel.bob_dm.click(dms(duel.bob)[0], label="Stay")
    assert late.ephemeral and "Game g-0001 is over" in late.response.content
    again = await mod.slash(duel.channel, "game abandon", game=duel.game_id)
    assert "Game g-0001 is over" in again.response.content
    # The channel is free for a new duel.
    await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob)
    assert "(g-0002)" in duel.channel.last_message.content


async def test_a_moderator_of_another_server_cannot_touch_the_game(duel):
    await start_duel(duel)
    elsewhere = duel.env.create_guild(name="Other Club")
    lobby = elsewhere.create_text_channel("lobby")
    mod = moderator(duel, guild=elsewhere)
    result = await mod.slash(lobby, "game pause", game=duel.game_id)
    # Refused as an unknown id is: another server does not learn that the game exists.
    assert result.ephemeral and result.response.content == "⚠️ There is no game g-0001."
    assert (await duel.bot.table.game(duel.game_id)).status == "active"


async def test_orders_sent_while_paused_resolve_on_resume(duel):
    await start_duel(duel)
    mod = moderator(duel)
    await mod.slash(duel.channel, "game pause")
    await play_turn(duel)
    assert "Orders in: 2/2" in last_dm(duel.bob).content
    assert len(turn_posts(duel)) == 1
    assert (await duel.bot.table.game(duel.game_id)).step == 1
    await mod.slash(duel.channel, "game resume")
    posts = turn_posts(duel)
    assert len(posts) == 2 and posts[1].embeds[0].title == "Arena Duel · g-0001 · Turn 2"


# --- /config language and locales ---------------------------------------------------------------


async def test_config_language_switches_channel_posts_to_japanese(duel):
    mod = moderator(duel)
    result = await mod.slash(duel.channel, "config language", language="ja")
    assert not result.ephemeral
    assert result.response.content == "このサーバーでは今後、日本語で投稿する。"

    await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob)
    invite = duel.channel.last_message
    # (the spacing around particles is the arena catalogue's business: compared without it)
    invited = invite.content.replace(" ", "")
    assert invited.startswith(f"⚔️<@{duel.alice.id}>が<@{duel.bob.id}>にアリーナ")
    assert buttons(invite) == ["受ける", "断る"]
    await duel.bob.click(invite, label="受ける")
    (answered,) = [m for m in duel.channel.history() if m.id == invite.id]
    assert answered.content.replace(" ", "").startswith(f"✅<@{duel.bob.id}>が受けた")
    (post,) = turn_posts(duel)
    assert post.embeds[0].title == "アリーナデュエル・g-0001・第1ターン"
    assert field(post, "提出済み：0/2") is not None
    mod_pause = await mod.slash(duel.channel, "game pause")
    assert mod_pause.response.content == "Game g-0001 paused."  # the moderator's own locale
    assert notices(duel, "⏸️ ゲームg-0001はモデレーターが一時停止した")

    back = await mod.slash(duel.channel, "config language", language="en")
    assert back.response.content == "From now on I post in English in this server."
    await mod.slash(duel.channel, "game resume")
    assert notices(duel, "▶️ Game g-0001 is running again.")


async def test_config_language_is_refused_for_non_moderators(duel):
    # Discord hides the command from members without Manage Server (its default permission) …
    with pytest.raises(SetupError, match="default-member-permissions"):
        await duel.alice.slash(duel.channel, "config language", language="ja")
    # … and if a server opens it to them anyway, the bot still refuses.
    command = duel.env.backend.find_command("config", None)
    duel.guild.set_command_permissions(int(command["id"]), {duel.alice: True})
    result = await duel.alice.slash(duel.channel, "config language", language="ja")
    assert result.ephemeral
    assert result.response.content == "⚠️ Only moderators (Manage Server) can do that."
    assert await duel.bot.table.language(duel.guild.id) == "en"


async def test_a_japanese_client_gets_japanese_replies_and_dms(duel, discord_locale):
    discord_locale(duel.bob, "ja")
    await start_duel(duel)  # bob accepts with a Japanese client
    bob_prompt, alice_prompt = last_dm(duel.bob), last_dm(duel.alice)
    assert bob_prompt.content.startswith("**アリーナデュエル・g-0001・第1ターン** — あなたは **B**")
    assert "あなたのサイの目" in bob_prompt.content
    assert alice_prompt.content.startswith("**Arena Duel · g-0001 · Turn 1** — you are **A**")
    assert turn_posts(duel)[0].embeds[0].title == "Arena Duel · g-0001 · Turn 1"  # channel: en

    orders = await duel.bob.slash(duel.channel, "game orders")
    assert orders.ephemeral and orders.response.content == (
        "g-0001（ステップ1、席B）：まだ命令がありません。"
    )
    refused = await duel.bob.slash(duel.channel, "game pause")
    assert refused.response.content == "⚠️ " + t("ja", "table.moderators_only")
    await duel.bob.send_dm("stay none")
    assert last_dm(duel.bob).content.startswith("🔒 g-0001・ステップ1の命令を封印しました")
    await duel.alice.send_dm("stay none")
    # Alice's order completed the turn: its acknowledgement (English) leads her next prompt.
    carried = last_dm(duel.alice).content
    assert carried.startswith("🔒 Order sealed for g-0001, turn 1")
    assert "**Arena Duel · g-0001 · Turn 2**" in carried
    assert "**アリーナデュエル・g-0001・第2ターン**" in last_dm(duel.bob).content


@pytest.mark.parametrize(
    ("locale", "start", "moves"),
    [("en-US", "**Arena Duel** — ", "**Moves**:"), ("ja", "**アリーナデュエル** — ", "**移動**：")],
)
async def test_arena_rules_in_the_reader_language(duel, discord_locale, locale, start, moves):
    discord_locale(duel.alice, locale)
    result = await duel.alice.slash(duel.channel, "arena rules")
    assert result.ephemeral
    text = result.response.content
    assert text.startswith(start) and moves in text
    assert text == t(locale, "arena.how_to_play")
    assert not bot_posts(duel.channel)


# --- the challenge ------------------------------------------------------------------------------


async def test_decline_ends_the_challenge_before_it_starts(duel):
    await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob)
    invite = duel.channel.last_message
    own = await duel.alice.click(invite, label="Accept")
    assert own.ephemeral and "Only the challenged player" in own.response.content
    carol = duel.guild.add_member(duel.env.create_user("carol"))
    stranger = await carol.click(invite, label="Decline")
    assert stranger.ephemeral and "You are not playing in game g-0001" in stranger.response.content
    assert (await duel.bot.table.game("g-0001")).status == "lobby"

    await duel.bob.click(invite, label="Decline")
    answered = duel.channel.last_message
    assert answered.id == invite.id
    assert answered.content == f"<@{duel.bob.id}> declined the challenge (g-0001)."
    assert buttons(answered) == []
    game = await duel.bot.table.game("g-0001")
    assert (game.status, game.end_reason) == ("abandoned", "declined")
    assert not turn_posts(duel) and not dms(duel.alice) and not dms(duel.bob)
    # Both are free to play again here.
    await duel.bob.slash(duel.channel, "arena challenge", opponent=duel.alice)
    assert "(g-0002)" in duel.channel.last_message.content


async def test_challenging_yourself_or_a_bot_is_refused(duel):
    mine = await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.alice)
    assert mine.ephemeral and mine.response.content == "⚠️ You cannot play against yourself."
    robot = duel.guild.add_member(duel.env.create_user("robot", bot=True))
    bots = await duel.alice.slash(duel.channel, "arena challenge", opponent=robot)
    assert bots.ephemeral and bots.response.content == "⚠️ Bots cannot play. Challenge a person."
    assert await duel.bot.table.games_here(duel.channel.id, ("lobby", "active")) == []
    assert not bot_posts(duel.channel)
