"""The Proofs button of a game with hidden information (Sealed Bids, ``tests/hidden_ruleset``):
it shows what is public at the moment of the click and nothing else: a withheld order's receipt
only until its reveal, never the secret seed before the end, never a seed not yet revealed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import dice as dicelib
from bot import registry
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import rules as bids


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


@pytest.fixture
def simcord_bot(registered: None, make_bot: Any) -> Any:
    """Built once Sealed Bids is registered, so that its commands load too."""
    return make_bot()


@pytest.fixture
def five(simcord_env: Any, sim_clock: Any) -> Any:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="Bid Club")
    channel = guild.create_text_channel("bids")
    members = [
        guild.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cy", "dee", "eve")
    ]
    return simcord_env, guild, channel, members


def posts(channel: Any) -> list[Any]:
    return [m for m in channel.history() if m.author.bot and m.embeds and m.attachments]


async def secrets_of(table: Any, game_id: str) -> tuple[str, dict[int, dict[str, Any]]]:
    async with table.repo.read() as tx:
        secret = next(s for s in await tx.streams(game_id, 0) if s.phase == dicelib.SECRET)
        orders: dict[int, dict[str, Any]] = {}
        for order in await tx.all_orders(game_id):
            orders.setdefault(order.turn, {})[order.seat] = order
        return secret.seed, orders


async def test_the_proofs_of_a_hidden_game_show_only_what_is_public(
    five: Any, make_bot: Any
) -> None:
    env, _guild, channel, members = five
    ann = members[0]
    await ann.slash(
        channel,
        "bids challenge",
        opponent1=members[1],
        opponent2=members[2],
        opponent3=members[3],
        opponent4=members[4],
    )
    invitation = channel.last_message
    for member in members[1:]:
        await member.click(invitation, label="Accept")
    table = env.bot.table
    (game,) = await table.games_here(channel.id)

    async def play_round() -> None:
        state = bids.from_json((await table.game(game.id)).state or {})
        for member in members:
            seat = game.seat_of(member.id)
            await member.send_dm(str(state.hands[seat][0]))
        await env.bot.outbox.idle()

    async def proofs(post: Any) -> str:
        answer = await ann.click(post, label="Proofs")
        assert answer.ephemeral
        return str(answer.response.content)

    await play_round()  # round 1: every card withheld until round 2 resolves
    seed, orders = await secrets_of(table, game.id)
    first = await proofs(posts(channel)[1])
    assert "step 1" in first
    for order in orders[1].values():
        assert order.withheld
        assert f"**{order.seat}**: sealed · receipt `{order.receipt}`" in first
        assert order.salt not in first
    assert seed not in first
    async with table.repo.read() as tx:
        opened = await tx.streams(game.id, 2)
    assert all(s.seed not in first and s.commitment in first for s in opened)

    await play_round()  # round 2 reveals round 1's cards and withholds its own
    seed, orders = await secrets_of(table, game.id)
    again = await proofs(posts(channel)[1])
    for order in orders[1].values():  # public now: the salt proves the receipt posted earlier
        assert not order.withheld
        assert f"`{order.text}` · salt `{order.salt}` · receipt `{order.receipt}`" in again
    second = await proofs(posts(channel)[2])
    for order in orders[2].values():
        assert order.withheld and order.salt not in second
    assert seed not in again and seed not in second

    # After a restart the buttons still answer, and still withhold what is private.
    await env.restart_bot(make_bot())
    await env.bot.outbox.idle()
    restarted = await proofs(posts(channel)[2])
    assert restarted == second
    assert "Secret stream" in restarted and seed not in restarted
