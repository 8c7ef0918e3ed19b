"""Refusals that protect the games: who may read a game by its id, blank and stale orders, the
acknowledgement of a paused game's last order, and user text quoted back without bidi tricks."""

from __future__ import annotations

import pytest

from bot.ruleset import RuleError
from tests.cogs.game.sim import last_dm, setup_duel, start_duel
from tests.cogs.game.test_commands import moderator


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def _other_server(duel):
    guild = duel.env.create_guild(name="Other Club")
    return guild, guild.create_text_channel("lobby")


# --- 1. a game is read in its own server, or in a DM by its players -----------------------------


async def test_a_member_of_another_server_cannot_read_a_game_by_its_id(duel):
    await start_duel(duel)
    guild, lobby = _other_server(duel)
    eve = guild.add_member(duel.env.create_user("eve"))
    missing = (await eve.slash(lobby, "game status", game="g-0999")).response.content
    assert "There is no game g-0999" in missing
    for command in ("game status", "game export"):
        result = await eve.slash(lobby, command, game=duel.game_id)
        assert result.ephemeral, command
        # The same answer as an id that does not exist: nothing confirms the game is there.
        assert result.response.content == missing.replace("g-0999", duel.game_id), command
        assert not result.response.embeds and not result.response.attachments, command


async def test_a_stranger_in_dm_cannot_read_a_game_by_its_id(duel):
    await start_duel(duel)
    guild, _lobby = _other_server(duel)
    eve = duel.env.create_user("eve")
    guild.add_member(eve)  # shares a server with the bot, not with the game
    for command in ("game status", "game export"):
        result = await eve.slash(command, game=duel.game_id)
        assert result.ephemeral, command
        assert result.response.content == f"⚠️ There is no game {duel.game_id}.", command
        assert not result.response.embeds and not result.response.attachments, command


async def test_a_seated_player_reads_their_game_in_dm(duel):
    await start_duel(duel)
    status = await duel.alice_dm.slash("game status", game=duel.game_id)
    assert status.ephemeral
    assert status.response.embeds[0].title == "Arena Duel · g-0001 · Turn 1"
    export = await duel.alice_dm.slash("game export", game=duel.game_id)
    assert export.ephemeral and export.response.attachments[0].filename == "g-0001.json"


async def test_autocomplete_lists_no_game_of_another_server(duel):
    await start_duel(duel)
    guild, lobby = _other_server(duel)
    alice_there = guild.add_member(duel.alice_dm)  # a player of g-0001, in another server
    assert await alice_there.autocomplete(lobby, "game status", "game", "") == []
    refused = await alice_there.slash(lobby, "game status", game=duel.game_id)
    assert refused.response.content == f"⚠️ There is no game {duel.game_id}."
    # At home, and in a DM, the player's game is offered.
    here = await duel.alice.autocomplete(duel.channel, "game status", "game", "")
    assert [c["value"] for c in here] == [duel.game_id]
    in_dm = await duel.alice_dm.autocomplete("game status", "game", "")
    assert [c["value"] for c in in_dm] == [duel.game_id]


# --- 3. a blank order is refused and the earlier one kept -----------------------------------------


BLANKS = ["　", "   ", "\u3000 \u200b"]


@pytest.mark.parametrize("blank", BLANKS)
async def test_a_blank_arena_order_is_refused_and_the_earlier_one_kept(duel, blank):
    await start_duel(duel)
    await duel.alice.send_dm("forward left")
    kept = (await duel.bot.table.current_orders(duel.game_id))["A"]
    slash = await duel.alice.slash(duel.channel, "order", text=blank)
    assert slash.ephemeral
    assert slash.response.content == "⚠️ Your order is empty: nothing was changed."
    # Discord itself refuses a DM of spaces only; with a zero-width space in it, one gets through.
    await duel.alice.send_dm(blank + "\u200b")
    assert last_dm(duel.alice).content == "⚠️ Your order is empty: nothing was changed."
    now = (await duel.bot.table.current_orders(duel.game_id))["A"]
    assert (now.text, now.receipt, now.revisions) == (kept.text, kept.receipt, kept.revisions)


# --- 4. a button checked for one turn is never sealed into the next -------------------------------


async def test_submit_for_a_turn_that_has_resolved_is_refused(duel):
    await start_duel(duel)
    table = duel.bot.table
    await duel.alice.send_dm("stay none")
    await duel.bob.send_dm("stay none")
    assert (await table.game(duel.game_id)).step == 2
    with pytest.raises(RuleError) as info:
        await table.submit(duel.game_id, duel.alice.id, "stay none", source="button", turn=1)
    assert info.value.key == "order.stale_buttons"
    assert info.value.params == {"turn": 1, "current": 2}
    assert await table.current_orders(duel.game_id) == {}
    # The right turn goes through.
    result = await table.submit(duel.game_id, duel.alice.id, "stay none", turn=2, resolve=False)
    assert result.game.step == 2


# --- 5. the last order of a paused game says the turn waits for the resume ------------------------


async def test_the_last_order_of_a_paused_game_says_it_waits(duel, discord_locale):
    await start_duel(duel)
    mod = moderator(duel)
    await mod.slash(duel.channel, "game pause")
    await duel.alice.send_dm("stay none")
    assert "paused" not in last_dm(duel.alice).content
    await duel.bob.send_dm("stay none")
    ack = last_dm(duel.bob).content
    assert "Orders in: 2/2" in ack
    assert "The game is paused: the turn resolves when a moderator resumes it." in ack
    assert "the turn is being resolved" not in ack
    discord_locale(duel.alice, "ja")
    again = await duel.alice.slash(duel.channel, "order", text="stay left")
    assert "ゲームは一時停止中です" in again.response.content
    await mod.slash(duel.channel, "game resume")
    assert (await duel.bot.table.game(duel.game_id)).step == 2


# --- 6. bidi controls and zero-width characters are not quoted back -------------------------------


async def test_refusals_do_not_quote_back_bidi_or_zero_width_characters(duel):
    from bot.i18n import INVISIBLE

    refused = await duel.alice.slash(duel.channel, "roll", expression="2d6+\u202ex\u200b7")
    assert refused.ephemeral
    assert refused.response.content == (
        "⚠️ I could not read the expression at “x7”. Examples: 2d6+1, 3d6, 4d6kh3."
    )
    assert not INVISIBLE & set(refused.response.content)


def test_quoted_parameters_lose_bidi_controls_and_zero_width_characters():
    from bot.i18n import INVISIBLE, t

    sneaky = "dra\u202egon" + "".join(sorted(INVISIBLE))
    for lang in ("en", "ja"):
        text = t(lang, "roll.unexpected", at=sneaky)
        assert "dragon" in text and not INVISIBLE & set(text)
    assert t("en", "table.no_such_game", game=7) == "There is no game 7."  # not only strings
