"""SimCord: an absence spanning a deadline, in both modes (issue 34).

``wait`` (the default): Bob is away when the turn's deadline passes, so the turn waits until his
absence ends; the channel says so once (the seat and the date, not his reason), ``/game status``
shows the pause, and ``/away end`` gives the turn its usual length back from then. ``defaults``
(the server's ``/away limit``): his default plays at the deadline as for anyone, and the miss is
stored excused. Both under SimCord's virtual clock (nothing sleeps).
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import pytest

from tests.cogs.game.sim import setup_duel, start_duel, turn_posts

TURN_HOURS = 0.1
TURN = 360  # seconds
TICK = 30.0
REASON = "a secret trip to Kyoto"


@pytest.fixture
def duel(simcord_env, sim_clock):
    duel = setup_duel(simcord_env, sim_clock)
    simcord_env.bot.maintenance.change_interval(seconds=TICK)
    return duel


def texts(duel) -> list[str]:
    return [m.content for m in duel.channel.history() if m.author.bot and m.content]


def stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M")


async def advance(duel, seconds: float) -> None:
    await duel.env.advance_time(seconds)


async def go_away(duel, hours: float) -> float:
    """Bob goes away for ``hours`` (the date typed to the minute, read in UTC: he set no zone)."""
    now = duel.env.now().timestamp()
    until = (now + hours * 3600) // 60 * 60
    result = await duel.bob.slash(duel.channel, "away until", date=stamp(until), reason=REASON)
    assert result.ephemeral and f"<t:{int(until)}:f>" in str(result.response.content)
    assert "UTC" in str(result.response.content)
    return until


async def test_a_turn_waits_for_an_absent_player_and_the_channel_says_so_once(duel):
    await start_duel(duel, hours=TURN_HOURS)
    until = await go_away(duel, 2)
    shown = await duel.bob.slash(duel.channel, "away show")
    assert REASON in str(shown.response.content), "the player sees his own note"
    await duel.alice.send_dm("stay none")

    await advance(duel, TURN + 2 * TICK)
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 1 and len(turn_posts(duel)) == 1, "the turn waits"
    assert game.deadline_at == until
    paused = [m for m in texts(duel) if m.startswith("⏸️")]
    assert paused == [f"⏸️ {duel.game_id} is paused for seat B until <t:{int(until)}:f>."]
    assert not any(REASON in m for m in texts(duel)), "the reason is never posted"

    status = await duel.alice.slash(duel.channel, "game status")
    fields = {f.name: f.value for f in status.response.embeds[0].fields}
    assert fields["Paused"] == f"paused for B until <t:{int(until)}:f>"
    assert fields["Missed deadlines"] == "B: 1 (0 unexcused)"

    await advance(duel, 10 * TICK)  # more ticks: still waiting, still said once
    assert len([m for m in texts(duel) if m.startswith("⏸️")]) == 1
    assert (await duel.bot.table.game(duel.game_id)).step == 1

    ended = await duel.bob.slash(duel.channel, "away end")
    assert ended.ephemeral
    now = duel.env.now().timestamp()
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 1 and game.deadline_at == pytest.approx(now + TURN)
    assert [m for m in texts(duel) if m.startswith("▶️")], "the channel hears he is back"
    await duel.bob.send_dm("forward none")
    await advance(duel, TICK)
    assert (await duel.bot.table.game(duel.game_id)).step == 2, "his order resolves the turn"
    async with duel.bot.repo.read() as tx:
        misses = await tx.misses(duel.game_id)
    assert [(m.seat, m.excused, m.waited_until) for m in misses] == [("B", True, until)]


async def test_where_the_server_says_defaults_the_default_plays_and_the_miss_is_excused(duel):
    role = duel.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    mod = duel.guild.add_member(duel.env.create_user("mod"), roles=[role])
    refused = await duel.alice.slash(duel.channel, "away limit", mode="defaults")
    assert "Only moderators" in str(refused.response.content)
    done = await mod.slash(duel.channel, "away limit", days=3, mode="defaults")
    assert "at most 3 days" in str(done.response.content)
    too_long = await duel.bob.slash(duel.channel, "away until", date="2099-01-01")
    assert "at most 3 days" in str(too_long.response.content)
    past = await duel.bob.slash(duel.channel, "away until", date="2000-01-01")
    assert "has passed" in str(past.response.content)

    await start_duel(duel, hours=TURN_HOURS)
    await go_away(duel, 2)
    await duel.alice.send_dm("stay none")
    await advance(duel, TURN + 2 * TICK)
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 2 and len(turn_posts(duel)) == 2, "the default played at the deadline"
    assert not [m for m in texts(duel) if m.startswith("⏸️")]
    async with duel.bot.repo.read() as tx:
        misses = await tx.misses(duel.game_id)
        turn_one = await tx.orders_for_turn(duel.game_id, 1)
    assert turn_one["B"].defaulted
    assert [(m.seat, m.step, m.excused, m.waited_until) for m in misses] == [("B", 1, True, None)]
    status = await duel.alice.slash(duel.channel, "game status")
    fields = {f.name: f.value for f in status.response.embeds[0].fields}
    assert fields["Missed deadlines"] == "B: 1 (0 unexcused)" and "Paused" not in fields
