"""Requests per turn at the floor (issue 37), as a player sees them: the order that completes a
step is acknowledged on the player's next prompt (their language, the acknowledgement first, as a
reply to their DM), exactly once across a restart; a button's order is answered by the
interaction response, never by a DM of its own."""

from __future__ import annotations

from typing import Any

import pytest

from bot.table import CARRIED_HOLD_SECONDS
from tests.cogs.game.sim import dms, field, last_dm, setup_duel, start_duel, turn_posts
from tests.cogs.game.test_restart import cut_off_outbox, make_bot, restart
from tests.storage.backends import backend

__all__ = ["backend", "make_bot"]


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def carried(actor: Any) -> list[Any]:
    return [m for m in dms(actor) if m.content.startswith(("🔒", "🔁")) and "\n\n" in m.content]


async def test_the_completing_order_is_acknowledged_on_the_next_prompt(duel, discord_locale):
    discord_locale(duel.bob, "ja")
    await start_duel(duel)
    await duel.alice.send_dm("forward none")
    own = last_dm(duel.alice)
    assert own.content.startswith("🔒 Order sealed for g-0001, turn 1") and "1/2" in own.content
    before = len(dms(duel.bob))
    await duel.bob.send_dm("stay left")
    # One DM, not two: the acknowledgement in Bob's language, then his turn-2 prompt.
    (message,) = dms(duel.bob)[before:]
    ack, prompt = message.content.split("\n\n", 1)
    assert ack.startswith("🔒 g-0001・ステップ1の命令を封印しました")
    assert "受領証" in ack and "全員の命令がそろいました" in ack
    assert "**アリーナデュエル・g-0001・第2ターン**" in prompt  # after what changed
    assert message.reference is not None  # a reply to Bob's order
    # The step resolved at once: turn 1's post shows no progress edit for Bob's order.
    posts = turn_posts(duel)
    assert len(posts) == 2 and field(posts[0], "Orders in: 2/2") is None


async def test_a_carried_acknowledgement_goes_out_once_across_restarts(duel, make_bot):
    await start_duel(duel)
    await duel.alice.send_dm("forward none")
    # The bot "dies" once Bob's order and the turn it completed are committed, before any of it
    # (his acknowledgement on his prompt among it) is posted.
    cut_off_outbox(duel.bot)

    async def died(_outbox_id: int) -> bool:
        return False

    duel.bot.outbox.send_now = died
    await duel.bob.send_dm("stay left")
    assert carried(duel.bob) == []
    assert (await duel.bot.table.game(duel.game_id)).step == 2

    await restart(duel, make_bot)
    # The dead process held that DM for its own caller: a process sharing the database (the
    # PostgreSQL case) posts it once the hold lapses; one alone on its SQLite file at once.
    await duel.env.advance_time(CARRIED_HOLD_SECONDS + 1)
    duel.bot.outbox.wake()  # what the maintenance loop's next tick does
    await duel.bot.outbox.idle()
    (message,) = carried(duel.bob)
    assert message.content.startswith("🔒 Order sealed for g-0001, turn 1")
    assert "**Arena Duel · g-0001 · Turn 2**" in message.content
    await restart(duel, make_bot)
    assert len(carried(duel.bob)) == 1
    assert len(turn_posts(duel)) == 2


async def test_a_button_order_is_answered_by_the_interaction_response(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward none")
    prompt = last_dm(duel.bob)
    before = len(dms(duel.bob))
    first = await duel.bob_dm.click(prompt, label="Forward")
    second = await duel.bob_dm.click(first.response, label="Keep facing")
    # The acknowledgement is the click's answer (outside Discord's global limit)…
    assert "Order sealed for g-0001, turn 1" in second.response.content
    assert "Every order is in" in second.response.content
    # …and the only DM Bob gets is his next prompt, with no acknowledgement on it.
    (next_prompt,) = dms(duel.bob)[before:]
    assert "**Arena Duel · g-0001 · Turn 2**" in next_prompt.content
    assert len(turn_posts(duel)) == 2
