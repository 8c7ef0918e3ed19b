"""Deadlines under SimCord's virtual time: reminders, default orders, pause, resume and extend.

Nothing sleeps: ``env.advance_time`` moves the virtual clock, the bot's maintenance loop wakes on
it and the table reads the same clock (``SimClock``). The loop ticks every 30 virtual seconds here
instead of 10 (each tick costs real time to settle); every window the tests check is at least
one tick long, and the turns are 6 minutes, so the reminders at 3 minutes and at 36 seconds left
each fall in their own tick.
"""

from __future__ import annotations

import discord
import pytest

from tests.cogs.game.sim import dms, field, setup_duel, start_duel, turn_posts

TURN_HOURS = 0.1
TURN = 360  # seconds
TICK = 30.0


@pytest.fixture
def duel(simcord_env, sim_clock):
    duel = setup_duel(simcord_env, sim_clock)
    simcord_env.bot.maintenance.change_interval(seconds=TICK)
    return duel


def moderator(duel):
    role = duel.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    return duel.guild.add_member(duel.env.create_user("mod"), roles=[role])


class Clock:
    """Advance the virtual clock to an offset from the start of the turn."""

    def __init__(self, duel) -> None:
        self.env = duel.env
        self.start = duel.env.now().timestamp()

    @property
    def elapsed(self) -> float:
        return self.env.now().timestamp() - self.start

    async def to(self, offset: float) -> None:
        assert offset > self.elapsed
        await self.env.advance_time(offset - self.elapsed)


def reminders(duel) -> list[discord.Message]:
    return [m for m in duel.channel.history() if m.author.bot and m.content.startswith("⏰")]


def pinged(message: discord.Message) -> set[int]:
    """Who a message pings: named in its text and let through by its allowed mentions."""
    assert {u.id for u in message.mentions} == set(message.raw_mentions)
    return set(message.raw_mentions)


def reminder_text(duel, *users, deadline: float, turn: int = 1) -> str:
    names = " ".join(f"<@{u.id}>" for u in users)
    return (
        f"⏰ {names}: Turn {turn} of {duel.game_id} ends "
        f"<t:{int(deadline)}:f> (<t:{int(deadline)}:R>). "
        "Send your order by DM (or /order here)."
    )


async def test_reminders_at_half_time_and_a_tenth_left_ping_only_the_missing_seat(duel):
    await start_duel(duel, hours=TURN_HOURS)
    clock = Clock(duel)
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at
    assert deadline == pytest.approx(clock.start + TURN)
    await duel.alice.send_dm("stay none")
    alice_dms, bob_dms = len(dms(duel.alice)), len(dms(duel.bob))

    await clock.to(TURN * 0.5 - 5)
    assert reminders(duel) == []
    await clock.to(TURN * 0.5 + TICK)
    (first,) = reminders(duel)
    assert first.content == reminder_text(duel, duel.bob, deadline=deadline)
    assert pinged(first) == {duel.bob.id}

    await clock.to(TURN * 0.9 - 5)
    assert len(reminders(duel)) == 1
    await clock.to(TURN * 0.9 + TICK)
    first, second = reminders(duel)
    assert second.content == reminder_text(duel, duel.bob, deadline=deadline)
    assert pinged(second) == {duel.bob.id}

    # Reminders go to the channel, not to DMs; nothing else happens before the deadline.
    assert (len(dms(duel.alice)), len(dms(duel.bob))) == (alice_dms, bob_dms)
    assert len(turn_posts(duel)) == 1
    assert (await duel.bot.table.game(duel.game_id)).step == 1


async def test_when_time_runs_out_the_missing_seat_gets_the_default_and_the_turn_resolves_once(
    duel,
):
    await start_duel(duel, hours=TURN_HOURS)
    clock = Clock(duel)
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at

    await clock.to(TURN * 0.5 + TICK)
    (first,) = reminders(duel)  # nobody has ordered: both are pinged
    assert first.content == reminder_text(duel, duel.alice, duel.bob, deadline=deadline)
    assert pinged(first) == {duel.alice.id, duel.bob.id}

    await duel.bob.send_dm("forward none")
    await clock.to(TURN - 5)
    first, second = reminders(duel)
    assert second.content == reminder_text(duel, duel.alice, deadline=deadline)
    assert pinged(second) == {duel.alice.id}
    assert len(turn_posts(duel)) == 1

    await clock.to(TURN + TICK)
    posts = turn_posts(duel)
    assert len(posts) == 2
    result = posts[1].embeds[0]
    assert result.title == "Arena Duel · g-0001 · Turn 2"
    async with duel.bot.repo.transaction() as tx:
        turn_one = await tx.orders_for_turn(duel.game_id, 1)
    assert turn_one["A"].defaulted and turn_one["A"].user_id is None
    assert not turn_one["B"].defaulted and turn_one["B"].text == "forward none"
    # The post says who sent nothing and what was played for them; the orders sent are told by
    # the event lines, their texts and salts behind the Proofs button.
    revealed = field(posts[1], "Orders").value.splitlines()
    default = turn_one["A"].text
    assert revealed == [f"**A** sent no order: `{default}` was played for them"]
    game = await duel.bot.table.game(duel.game_id)
    assert (game.step, game.version, game.reminders_sent) == (2, 2, 0)
    assert deadline + TURN <= game.deadline_at <= deadline + TURN + TICK  # a fresh 6 minutes
    for player in (duel.alice, duel.bob):  # each prompted for turn 2 (what changed first)
        assert "**Arena Duel · g-0001 · Turn 2**" in dms(player)[-1].content

    # Once: the next tick finds the turn resolved, and turn 2's clock has just started.
    await clock.to(TURN + 3 * TICK)
    assert len(turn_posts(duel)) == 2 and len(reminders(duel)) == 2
    record = await duel.bot.table.export(duel.game_id)
    assert [t["defaulted"] for t in record["turns"]] == [["A"]]


async def test_pause_stops_the_deadline_and_resume_restarts_it(duel):
    await start_duel(duel, hours=TURN_HOURS)
    mod = moderator(duel)
    clock = Clock(duel)
    await clock.to(60)
    await mod.slash(duel.channel, "game pause")

    await clock.to(TURN + 2 * TICK)  # well past the deadline, and past both reminder times
    game = await duel.bot.table.game(duel.game_id)
    assert (game.status, game.step, game.deadline_at) == ("paused", 1, None)
    assert len(turn_posts(duel)) == 1 and reminders(duel) == []
    assert await duel.bot.table.current_orders(duel.game_id) == {}  # no default filled in

    resumed_at = clock.elapsed
    await mod.slash(duel.channel, "game resume")
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at
    assert deadline == pytest.approx(clock.start + resumed_at + TURN - 60)  # the 5 minutes left

    await clock.to(resumed_at + TURN - 60 - 5)
    assert len(turn_posts(duel)) == 1
    # The reminders follow the new deadline.
    texts = [m.content for m in reminders(duel)]
    assert texts == [reminder_text(duel, duel.alice, duel.bob, deadline=deadline)] * 2

    await clock.to(resumed_at + TURN - 60 + TICK)
    posts = turn_posts(duel)
    assert len(posts) == 2 and posts[1].embeds[0].title == "Arena Duel · g-0001 · Turn 2"
    assert (await duel.bot.table.game(duel.game_id)).step == 2


async def test_extend_moves_the_deadline(duel):
    await start_duel(duel, hours=TURN_HOURS)
    mod = moderator(duel)
    clock = Clock(duel)
    old = (await duel.bot.table.game(duel.game_id)).deadline_at
    await clock.to(60)
    reply = await mod.slash(duel.channel, "game extend", hours=0.05)  # three more minutes
    assert reply.ephemeral and reply.response.content == "Game g-0001 extended."
    new = (await duel.bot.table.game(duel.game_id)).deadline_at
    assert new == old + 180
    (notice,) = [m for m in duel.channel.history() if m.content.startswith("⏳")]
    assert notice.content.endswith(f"it now ends <t:{int(new)}:f> (<t:{int(new)}:R>).")

    # The half-time reminder moves with the deadline: not at 3 minutes, but at 6.
    await clock.to(TURN * 0.5 + TICK)
    assert reminders(duel) == []
    await clock.to(TURN + TICK)  # past the old deadline
    assert len(turn_posts(duel)) == 1
    assert (await duel.bot.table.game(duel.game_id)).step == 1
    (half,) = reminders(duel)
    assert half.content == reminder_text(duel, duel.alice, duel.bob, deadline=new)

    await clock.to(TURN + 180 - 5)
    assert len(turn_posts(duel)) == 1
    await clock.to(TURN + 180 + TICK)
    assert len(turn_posts(duel)) == 2
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 2
    await clock.to(TURN + 180 + 3 * TICK)
    assert len(turn_posts(duel)) == 2


async def test_after_a_stall_only_the_latest_due_reminder_is_sent(duel, monkeypatch):
    """Both reminder times passed while the deadline worker could not run (the bot was down or
    stuck): one reminder, the one with a tenth of the time left, not two pings a tick apart."""
    await start_duel(duel, hours=TURN_HOURS)
    clock = Clock(duel)
    deadline = (await duel.bot.table.game(duel.game_id)).deadline_at

    async def stalled() -> int:
        return 0

    with monkeypatch.context() as stall:
        stall.setattr(duel.bot.table, "tick", stalled)
        await clock.to(TURN * 0.9 + 5)
    assert reminders(duel) == []
    duel.bot.maintenance.change_interval(seconds=10)  # the bot's own cadence: a tick to spare
    await clock.to(TURN - 5)
    (only,) = reminders(duel)
    assert only.content == reminder_text(duel, duel.alice, duel.bob, deadline=deadline)
    # One round of reminders handled (both of its times marked sent at once: issue 34).
    assert (await duel.bot.table.game(duel.game_id)).reminders_sent == 1
    await clock.to(TURN + TICK)
    assert len(reminders(duel)) == 1 and len(turn_posts(duel)) == 2
