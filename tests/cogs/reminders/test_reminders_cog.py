"""``/reminders`` under SimCord (issue 34): a player's own reminder times, by DM or by a ping in
the game's channel, quiet hours in their time zone obeyed across a restart of the bot, and the
daily digest DM. Virtual time starts at 2026-01-01 00:00 UTC (09:00 in Tokyo); the maintenance
loop ticks every 30 virtual seconds, as in tests/cogs/game/test_deadlines.py.
"""

from __future__ import annotations

import discord
import pytest

from tests.cogs.game.sim import dms, setup_duel, start_duel, turn_posts

TURN_HOURS = 0.1
TURN = 360  # seconds
TICK = 30.0


@pytest.fixture
def duel(simcord_env, sim_clock):
    duel = setup_duel(simcord_env, sim_clock)
    simcord_env.bot.maintenance.change_interval(seconds=TICK)
    return duel


class Clock:
    def __init__(self, duel) -> None:
        self.env = duel.env
        self.start = duel.env.now().timestamp()

    async def to(self, offset: float) -> None:
        elapsed = self.env.now().timestamp() - self.start
        assert offset > elapsed
        # In steps of 10 virtual minutes: each advance must settle within SimCord's real timeout.
        while offset - elapsed > 600:
            await self.env.advance_time(600)
            elapsed += 600
        await self.env.advance_time(offset - elapsed)


def reminders(duel) -> list[discord.Message]:
    return [m for m in duel.channel.history() if m.author.bot and m.content.startswith("⏰")]


def reminder_dms(actor) -> list[discord.Message]:
    return [m for m in dms(actor) if m.content.startswith("⏰")]


def when(at: float) -> str:
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


async def test_reminders_shows_the_defaults_and_saves_changes_privately_in_dms_and_servers(
    duel, discord_locale
):
    shown = await duel.alice_dm.slash("reminders")
    assert shown.ephemeral
    text = shown.response.content
    assert "at half time and with 10 % of the time left (the default)" in text
    assert "How: a ping in the game's channel" in text and "Quiet hours: none" in text
    saved = await duel.alice.slash(
        duel.channel, "reminders", times="24h 1h 10m", via="dm", timezone="asia/tokyo"
    )
    assert saved.ephemeral
    assert saved.response.content.startswith("✅ Saved.")
    assert "When: 24h 1h 10m" in saved.response.content
    assert "Time zone: Asia/Tokyo" in saved.response.content
    again = await duel.alice_dm.slash("reminders")
    assert "When: 24h 1h 10m" in again.response.content and "How: a DM" in again.response.content

    # A wrong zone or time is refused with the reason, in the reader's language; nothing saved.
    discord_locale(duel.alice_dm, "ja")
    refused = await duel.alice_dm.slash("reminders", timezone="Tokyo", times="10m")
    assert refused.ephemeral
    assert refused.response.content.startswith("⚠️ 「Tokyo」はタイムゾーンではありません。")
    assert "Asia/Tokyo" in refused.response.content
    discord_locale(duel.alice_dm, "en-US")
    refused = await duel.alice_dm.slash("reminders", quiet="night")
    assert refused.response.content.startswith("⚠️ “night” is not quiet hours.")
    kept = await duel.alice_dm.slash("reminders")
    assert "When: 24h 1h 10m" in kept.response.content
    assert [c["value"] for c in await duel.alice.autocomplete(
        duel.channel, "reminders", "timezone", "tokyo"
    )] == ["Asia/Tokyo"]  # fmt: skip


async def test_a_dm_reminder_and_a_channel_ping_each_at_the_players_own_time(duel):
    # Bob: a DM 1 minute before the deadline. Alice: a ping 2 minutes before, in the channel.
    await duel.bob.slash(duel.channel, "reminders", times="1m", via="dm")
    await duel.alice.slash(duel.channel, "reminders", times="2m")
    await start_duel(duel, hours=TURN_HOURS)
    clock = Clock(duel)
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at
    assert deadline is not None

    await clock.to(TURN * 0.5 + TICK)
    assert reminders(duel) == [] and reminder_dms(duel.bob) == [], "not at half time"
    await clock.to(TURN - 120 + TICK)
    (ping,) = reminders(duel)
    assert ping.content == (
        f"⏰ <@{duel.alice.id}>: Turn 1 of {duel.game_id} ends {when(deadline)}. "
        "Send your order by DM (or /order here)."
    )
    assert {u.id for u in ping.mentions} == {duel.alice.id}
    assert reminder_dms(duel.bob) == []
    await clock.to(TURN - 60 + TICK - 5)
    (dm,) = reminder_dms(duel.bob)
    assert dm.content == (
        f"⏰ **Last reminder · Arena Duel · {duel.game_id}** (<#{duel.channel.id}>): Turn 1 ends "
        f"{when(deadline)}. Send your order here (or /order in the game's channel)."
    )
    assert len(reminders(duel)) == 1, "Bob's reminder is no channel post"
    assert reminder_dms(duel.alice) == []
    await clock.to(TURN + TICK)
    assert len(turn_posts(duel)) == 2 and len(reminder_dms(duel.bob)) == 1


async def test_quiet_hours_in_the_players_zone_hold_across_a_restart(duel, make_bot):
    # 00:00 UTC is 09:00 in Tokyo: Bob's quiet hours (08:00-10:00 there) cover the whole turn,
    # so of his three reminders only the last (1 minute before) comes, by DM.
    set_ = await duel.bob_dm.slash(
        "reminders", times="5m 3m 1m", via="dm", timezone="Asia/Tokyo", quiet="8-10"
    )
    assert "Quiet hours: 08:00–10:00 (Asia/Tokyo)" in set_.response.content
    # Alice: 4 and 2 minutes before, quiet hours elsewhere in her day (New York's evening).
    await duel.alice.slash(
        duel.channel, "reminders", times="4m 2m", timezone="America/New_York", quiet="12-13"
    )
    await start_duel(duel, hours=TURN_HOURS)
    clock = Clock(duel)
    await clock.to(TURN - 240 + TICK)
    assert len(reminders(duel)) == 1  # Alice's 4 minutes

    restarted = make_bot()  # the same database, a new process
    restarted.maintenance.change_interval(seconds=TICK)
    await duel.env.restart_bot(restarted)
    await duel.bot.outbox.idle()
    await clock.to(TURN - 180 + TICK)
    assert reminder_dms(duel.bob) == [], "Bob's 5 and 3 minutes fall in his quiet hours"
    await clock.to(TURN - 120 + TICK)
    _, second = reminders(duel)  # Alice's 2 minutes, once across the restart
    assert {u.id for u in second.mentions} == {duel.alice.id}
    await clock.to(TURN - 60 + TICK - 5)
    (final,) = reminder_dms(duel.bob)
    assert "Last reminder" in final.content
    assert len(reminders(duel)) == 2


async def test_the_daily_digest_lists_the_games_awaiting_the_player(duel):
    # Bob takes a digest at 01:00 UTC; his game's turns last 2 hours. At 01:00 his move is
    # awaited: one DM lists the game with its channel and deadline. The per-game reminders but
    # the last are replaced: no ping at half time for him (Alice, who ordered, gets none either).
    await duel.bob_dm.slash("reminders", digest=True, digest_hour=1, timezone="UTC")
    await start_duel(duel, hours=2)
    await duel.alice.send_dm("stay none")
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at
    assert deadline is not None
    clock = Clock(duel)
    await clock.to(3600 - 60)
    assert [m for m in dms(duel.bob) if m.content.startswith("☀️")] == []
    await clock.to(3600 + TICK)
    (digest,) = [m for m in dms(duel.bob) if m.content.startswith("☀️")]
    assert digest.content == (
        "☀️ **Your move in 1 game(s):**\n"
        f"• **Arena Duel · {duel.game_id}** <#{duel.channel.id}>: Turn 1, ends {when(deadline)}"
    )
    assert reminders(duel) == [], "no half-time ping: the digest replaces it"
    assert [m for m in dms(duel.alice) if m.content.startswith("☀️")] == []
