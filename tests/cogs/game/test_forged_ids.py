"""Forged ids on the channel's buttons (issue 31, finding 8): a Proofs button whose turn is 2**63
once raised OverflowError in the SQLite driver and the click failed. Every number an id carries
is read by one function (bot.limits.id_number) and checked against the game's own range; what
does not parse back is answered privately "out of date", and nothing raises."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.cogs.forge import forge_click
from tests.cogs.game.sim import last_dm, setup_duel, start_duel, turn_posts

OUT_OF_DATE = "⚠️ " + t("en", "component.out_of_date")


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def test_forged_proofs_and_builder_buttons_are_out_of_date(duel, discord_locale):
    await start_duel(duel)
    post = turn_posts(duel)[0]
    game = duel.game_id
    for custom_id in [
        f"pbp:p:{game}:{2**63}",
        f"pbp:p:{game}:{2**64 + 5}",
        f"pbp:p:{game}:{'9' * 80}",
        f"pbp:p:{game}:7",  # a step the game has not reached
        f"pbp:p:{game}:1:2",  # since after turn: no post of ours
        f"pbp:p:{game}:1:{2**63}",
        f"pbp:b:{game}:{2**63}",
    ]:
        result = await forge_click(duel.alice, post, custom_id, like="pbp:p:")
        assert result.acknowledged, custom_id
        assert result.ephemeral and result.response.content == OUT_OF_DATE, custom_id
    discord_locale(duel.bob, "ja")
    result = await forge_click(duel.bob, post, f"pbp:p:{game}:{2**63}", like="pbp:p:")
    assert result.response.content == "⚠️ " + t("ja", "component.out_of_date")
    # The real button answers as before.
    real = await duel.alice.click(post, custom_id=f"pbp:p:{game}:0")
    assert real.ephemeral and real.response.content.startswith(f"🔎 **Proofs of {game}")


async def test_a_forged_order_button_turn_is_out_of_date(duel):
    await start_duel(duel)
    prompt = last_dm(duel.alice)
    game = duel.game_id
    for custom_id in (f"pbp:o:{game}:{2**63}:0", f"pbp:o:{game}:{'9' * 60}:"):
        result = await forge_click(duel.alice_dm, prompt, custom_id, like="pbp:o:")
        assert result.ephemeral and result.response.content == OUT_OF_DATE, custom_id
    async with duel.bot.table.repo.read() as tx:
        assert await tx.orders_for_turn(game, 1) == {}, "nothing was sealed"
