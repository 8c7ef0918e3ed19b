"""The whole Arena flow by two users in SimCord: challenge, accept, DMs, orders, resolution."""

from __future__ import annotations

import asyncio

import pytest

from tests.cogs.game.sim import dms, field, last_dm, setup_duel, start_duel, turn_posts


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def test_challenge_accept_dice_by_dm_and_board_in_channel(duel):
    await start_duel(duel)
    posts = turn_posts(duel)
    assert len(posts) == 1
    prompt = posts[0]
    assert "Turn 1" in prompt.embeds[0].title
    assert prompt.attachments[0].filename == "board.png"
    assert field(prompt, "Orders in: 0/2") is not None
    # the dice proofs are behind the Proofs button; the footer keeps the commitments, short
    assert "dice committed:" in prompt.embeds[0].footer.text
    for player in (duel.alice, duel.bob):
        dm = last_dm(player)
        # the dice, with what each decides, and where the opponent stands from this seat
        assert "Your dice" in dm.content and "die 2 decides a passing" in dm.content
        assert "4 hexes away, in front of you" in dm.content
        labels = [c.label for row in dm.components for c in row.children]
        assert "Forward" in labels and "Stay" in labels


async def test_orders_by_text_and_button_resolve_once(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    ack = last_dm(duel.alice)
    assert "Order sealed" in ack.content and "1/2" in ack.content
    assert field(turn_posts(duel)[0], "Orders in: 1/2") is not None

    # replacing is allowed until both are in
    await duel.alice.send_dm("前進 右を向く")
    assert "Order replaced" in last_dm(duel.alice).content

    prompt = last_dm(duel.bob)
    first = await duel.bob_dm.click(prompt, label="Forward")
    assert first.ephemeral
    second = await duel.bob_dm.click(first.response, label="Keep facing")
    assert "Every order is in" in second.response.content

    posts = turn_posts(duel)
    assert len(posts) == 2
    result = posts[1]
    assert "Turn 2" in result.embeds[0].title
    log = result.embeds[0].description
    assert "A ordered: Forward, Turn right." in log
    assert "B ordered: Forward, Keep facing." in log
    # The dice show where they decide something: the charge check (and a fight).
    assert "Charge check (A " in log and "A's dice" not in log
    # the post opens with where both went
    assert log.startswith("**A moves 0,2 → 0,1 · B moves 0,-2 → 0,-1**")
    game = await duel.bot.table.game(duel.game_id)
    assert game.step == 2 and game.version == 2


async def test_simultaneous_orders_resolve_exactly_once(duel):
    await start_duel(duel)
    table = duel.bot.table
    # SimCord runs one user action at a time, so the two orders go straight to the table,
    # concurrently, as two gateway events handled at the same moment would.
    results = await asyncio.gather(
        table.submit(duel.game_id, duel.alice.id, "stay none"),
        table.submit(duel.game_id, duel.bob.id, "stay none"),
    )
    assert sorted(r.resolved for r in results) == [False, True]
    await duel.bot.outbox.idle()
    await duel.env.settle()
    game = await table.game(duel.game_id)
    assert game.step == 2 and game.version == 2
    assert len(turn_posts(duel)) == 2


async def test_third_user_cannot_order(duel):
    await start_duel(duel)
    carol = duel.guild.add_member(duel.env.create_user("carol"))
    await carol.send_dm("forward none")
    assert "no game waiting" in last_dm(carol).content
    result = await carol.slash(duel.channel, "order", text="forward none")
    assert result.ephemeral and "No game of yours" in result.response.content
    result = await carol.slash(duel.channel, "order", text="forward none", game=duel.game_id)
    assert "not playing in game" in result.response.content
    assert await duel.bot.table.current_orders(duel.game_id) == {}


async def test_bad_input_gets_a_reason_and_keeps_the_previous_order(duel):
    await start_duel(duel)
    await duel.alice.send_dm("forward none")
    before = await duel.bot.table.current_orders(duel.game_id)
    for text, reason in [
        ("fly away", "Unknown word"),
        ("x" * 1999, "too long"),  # a user message is at most 2,000 characters
        ("forward 左を向く", "one language"),
        ("back none", "wall or an obstacle"),
        ("charge none", "may not charge"),
    ]:
        await duel.alice.send_dm(text)
        assert reason in last_dm(duel.alice).content, text
    assert await duel.bot.table.current_orders(duel.game_id) == before


async def test_closed_dms_are_announced_and_order_works(duel):
    env = duel.env
    env.inject_error(
        "POST",
        f"/channels/{duel.bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await start_duel(duel)
    notices = [m for m in duel.channel.history() if "cannot send you direct messages" in m.content]
    assert len(notices) == 1 and f"<@{duel.bob.id}>" in notices[0].content
    result = await duel.bob.slash(duel.channel, "order", text="stay none")
    assert result.ephemeral and "Order sealed" in result.response.content
    await duel.alice.send_dm("stay left")
    assert len(turn_posts(duel)) == 2
    assert not dms(duel.bob)


async def test_challenge_with_obstacles_blocks_those_hexes(duel):
    await duel.alice.slash(
        duel.channel, "arena challenge", opponent=duel.bob, hours=0, obstacles="0,1 ０，－１"
    )
    await duel.bob.click(duel.channel.last_message, label="Accept")
    (game,) = await duel.bot.table.games_here(duel.channel.id)
    assert sorted(map(tuple, game.options["obstacles"])) == [(0, -1), (0, 1)]
    # A stands at (0, 2) facing N: forward is the obstacle at (0, 1).
    await duel.alice.send_dm("forward none")
    assert "wall or an obstacle" in last_dm(duel.alice).content
    assert await duel.bot.table.current_orders(game.id) == {}


@pytest.mark.parametrize(
    ("obstacles", "reason"),
    [("0,0 fish", "is not a hex"), ("3,0", "outside the arena"), ("0,2", "starting hex")],
)
async def test_a_bad_obstacle_refuses_the_challenge(duel, obstacles, reason):
    result = await duel.alice.slash(
        duel.channel, "arena challenge", opponent=duel.bob, obstacles=obstacles
    )
    assert result.ephemeral and reason in result.response.content
    assert await duel.bot.table.games_here(duel.channel.id) == []
