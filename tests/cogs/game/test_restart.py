"""Restart safety: a bot stopped at the worst moments loses nothing and posts every result once.

A "crash" is simulated by cutting the bot off right after a transaction committed (no resolution,
or no outbox drain), then attaching a fresh bot process on the same database, exactly what a
restart after SIGKILL sees. Every test runs on SQLite (one file) and on PostgreSQL (one schema):
``tests/storage/backends.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from tests.cogs.game.sim import dms, field, setup_duel, start_duel, turn_posts
from tests.conftest import SimClock, make_config
from tests.storage.backends import Backend, backend

__all__ = ["backend"]


@pytest.fixture
async def make_bot(backend: Backend, sim_clock: SimClock) -> AsyncIterator[Callable[..., Any]]:
    """As tests/conftest.py's ``make_bot``, on the test's backend: every bot (the first and
    each restarted one) opens its own repository on the same database."""
    from bot.client import RefereeBot

    bots: list[RefereeBot] = []

    def factory(**kwargs: object) -> RefereeBot:
        bot = RefereeBot(make_config(), repo=backend.make(), clock=sim_clock, **kwargs)
        bots.append(bot)
        return bot

    yield factory
    for bot in bots:
        await bot.outbox.stop()
        bot.outbox.renderer.close()
        await bot.repo.close()


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def cut_off_outbox(bot: Any) -> None:
    """Nothing stored from now on reaches Discord from this bot (it "dies" before posting)."""
    bot.table._on_outbox = lambda: None
    # On PostgreSQL another process's commit also wakes the sender (LISTEN/NOTIFY): the restarted
    # bot's rows must not wake the "dead" one, still attached to the database in this process.
    bot.outbox.wake = lambda: None
    bot.maintenance.cancel()


def cut_off_resolution(bot: Any) -> None:
    """The bot "dies" after storing an order, before resolving the turn it completed."""

    async def crashed(game_id: str, *, fill_defaults: bool = False) -> bool:
        return False

    bot.table.resolve_if_ready = crashed
    cut_off_outbox(bot)


async def restart(duel: Any, make_bot: Any) -> Any:
    await duel.env.restart_bot(make_bot())
    await duel.bot.outbox.idle()
    return duel.bot


async def test_both_orders_stored_nothing_posted_result_posted_once(duel, make_bot):
    await start_duel(duel)
    await duel.alice.send_dm("forward none")
    cut_off_resolution(duel.bot)
    # By /order: acknowledged first, resolved after (an order by DM that completes the turn
    # resolves it in the order's own transaction, leaving no such moment).
    await duel.bob.slash(duel.channel, "order", text="stay left")
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 1, "the crash came before resolution"
    assert len(turn_posts(duel)) == 1

    await restart(duel, make_bot)

    posts = turn_posts(duel)
    assert len(posts) == 2
    assert "Turn 2" in posts[1].embeds[0].title
    log = posts[1].embeds[0].description
    assert "A ordered: Forward, Keep facing." in log
    assert "B ordered: Stay, Turn left." in log
    assert (await duel.bot.table.game(duel.game_id)).step == 2

    # A second restart finds nothing left to do: still exactly one result.
    await restart(duel, make_bot)
    assert len(turn_posts(duel)) == 2


async def test_resolved_but_unposted_turn_is_posted_once_after_restart(duel, make_bot):
    await start_duel(duel)
    cut_off_outbox(duel.bot)
    await duel.alice.send_dm("forward none")
    await duel.bob.send_dm("forward none")
    assert (await duel.bot.table.game(duel.game_id)).step == 2, "resolution committed"
    assert len(turn_posts(duel)) == 1, "but nothing of it went out"

    await restart(duel, make_bot)
    posts = turn_posts(duel)
    assert len(posts) == 2
    assert "Turn 2" in posts[1].embeds[0].title
    # As if nothing had happened: the turn-2 post superseded the turn-1 prompt's order progress
    # (that step resolved before it went out), and Bob's acknowledgement rode on his prompt once.
    assert field(posts[0], "Orders in: 1/2") is None
    assert field(posts[0], "Orders in: 2/2") is None
    carried = [m for m in dms(duel.bob) if m.content.startswith("🔒 Order sealed")]
    assert len(carried) == 1 and "**Arena Duel · g-0001 · Turn 2**" in carried[0].content

    await restart(duel, make_bot)
    assert len(turn_posts(duel)) == 2


async def test_one_stored_order_survives_a_restart(duel, make_bot):
    await start_duel(duel)
    await duel.alice.send_dm("forward right")
    cut_off_outbox(duel.bot)

    await restart(duel, make_bot)
    orders = await duel.bot.table.current_orders(duel.game_id)
    assert set(orders) == {"A"}
    assert orders["A"].text == "forward right"
    assert len(turn_posts(duel)) == 1

    await duel.bob.send_dm("stay none")
    posts = turn_posts(duel)
    assert len(posts) == 2
    assert "A ordered: Forward, Turn right." in posts[1].embeds[0].description


async def test_a_deadline_that_passed_while_down_fires_after_the_restart(duel, make_bot):
    await start_duel(duel, hours=1)
    await duel.alice.send_dm("forward none")
    cut_off_outbox(duel.bot)
    await duel.env.advance_time(2 * 3600)  # the deadline passes while the bot is "down"
    assert (await duel.bot.table.game(duel.game_id)).step == 1

    await restart(duel, make_bot)
    await duel.env.advance_time(120)  # the new process's first maintenance tick
    await duel.bot.outbox.idle()
    posts = turn_posts(duel)
    assert len(posts) == 2
    log = posts[1].embeds[0].description
    assert "A ordered: Forward, Keep facing." in log
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 2
    first_turn = (await duel.bot.table.export(duel.game_id))["turns"][0]
    assert first_turn["inputs"] == {"A": "forward none"}
    assert first_turn["defaulted"] == ["B"]


async def test_a_failed_post_is_retried_and_posted_once(duel, backend):
    await start_duel(duel)
    # Discord answers 500 to every message post for a while: discord.py's own retries give up,
    # the outbox keeps the row and tries again on a later tick.
    duel.env.inject_error("POST", "/channels/*/messages", status=500, times=10)
    await duel.alice.send_dm("forward none")
    await duel.bob.send_dm("forward none")
    await duel.bot.outbox.idle()
    for _ in range(20):
        if len(turn_posts(duel)) == 2:
            break
        await duel.env.advance_time(60)
        await duel.bot.outbox.idle()
    posts = turn_posts(duel)
    assert len(posts) == 2
    assert "Turn 2" in posts[1].embeds[0].title
    [(retried,)] = await backend.execute(
        "SELECT count(*) FROM outbox WHERE attempts > 1 AND status = 'sent'"
    )
    [(unsent,)] = await backend.execute(
        "SELECT count(*) FROM outbox WHERE status IN ('pending', 'failed')"
    )
    assert retried >= 1, "the outbox itself retried (beyond discord.py's own retries)"
    assert unsent == 0
