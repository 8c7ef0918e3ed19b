"""A tactics match by two users in SimCord: challenge, rosters and deployment by DM (text and the
builder), sheets by text and by the builder, the tally in the channel, a missed deadline."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.game.sim import field, last_dm, setup_duel, turn_posts


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def start_match(duel: Any, minutes: int = 10) -> Any:
    await duel.alice.slash(duel.channel, "tactics challenge", opponent=duel.bob, minutes=minutes)
    await duel.bob.click(duel.channel.last_message, label="Accept")
    games = await duel.bot.table.games_here(duel.channel.id)
    duel.game_id = games[0].id
    return duel


async def state(duel: Any) -> Any:
    from cogs.tactics import rules

    game = await duel.bot.table.game(duel.game_id)
    return rules.from_json(game.state)


def custom_ids(message: Any) -> list[str]:
    """Component ids of a DM (discord.Message) or an ephemeral reply (raw dicts)."""
    found = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for c in children:
            found.append(c["custom_id"] if isinstance(c, dict) else c.custom_id)
    return [c for c in found if c]


def custom_id(message: Any, part: str) -> str:
    """The custom_id of the builder component whose id contains ``:<part>``."""
    for cid in custom_ids(message):
        if f":{part}" in cid:
            return cid
    raise AssertionError(f"no component {part!r} in {custom_ids(message)}")


async def open_builder(duel: Any) -> Any:
    prompt = last_dm(duel.bob)
    opened = await duel.bob_dm.click(prompt, label="Build my sheet")
    assert opened.ephemeral
    return opened.response


async def pick(duel: Any, message: Any, part: str, values: list[str]) -> Any:
    result = await duel.bob_dm.select(message, values, custom_id=custom_id(message, part))
    return result.response


async def through_setup(duel: Any) -> None:
    """Rosters and deployment: Alice types, Bob builds with menus."""
    await duel.alice.send_dm("覇王 剣士 弓兵 僧侶 lancer")
    assert "Order sealed" in last_dm(duel.alice).content

    builder = await open_builder(duel)
    assert "Roster" in builder.content
    builder = await pick(duel, builder, "master", ["archmage"])
    builder = await pick(duel, builder, "pool", ["knight", "guardian", "cleric"])
    assert "roster archmage knight guardian cleric" in builder.content
    sealed = await duel.bob_dm.click(builder, label="Seal this sheet")
    assert "Every order is in" in sealed.response.content
    assert (await state(duel)).step == "deploy"

    await duel.alice.send_dm("warlord E9, 剣士 D9, archer F10")
    builder = await open_builder(duel)
    builder = await pick(duel, builder, "deploy", ["B1"])
    builder = await pick(duel, builder, "place", ["E2"])
    builder = await pick(duel, builder, "deploy", ["B2"])
    builder = await pick(duel, builder, "place", ["D2"])
    assert "B1 E2" in builder.content and "B2 D2" in builder.content
    await duel.bob_dm.click(builder, label="Seal this sheet")
    s = await state(duel)
    assert s.step == "play" and s.turn == 1
    assert s.units["B1"].square == (4, 1) and s.units["A2"].square == (3, 8)


async def test_a_match_from_challenge_to_turn_two(duel):
    await start_match(duel)
    posts = turn_posts(duel)
    assert len(posts) == 1 and "Roster" in posts[0].embeds[0].title
    assert "Choose your roster" in last_dm(duel.alice).content

    await through_setup(duel)
    post = turn_posts(duel)[-1]
    assert "Turn 1/10" in post.embeds[0].title
    assert post.attachments[0].filename == "board.png"
    log = post.embeds[0].description
    assert "deploys 3 units" in log and "plays first" in log

    # Turn 1: Alice by text, Bob with the builder (unit → destination → action).
    await duel.alice.send_dm("knight D9>D7\nwarlord E9>E8 wait")
    builder = await open_builder(duel)
    builder = await pick(duel, builder, "unit", ["B2"])
    builder = await pick(duel, builder, "dest", ["C4"])  # D4 is a rock: around it
    builder = await pick(duel, builder, "act", ["wait"])
    assert "B2 D2>C4" in builder.content
    done = await duel.bob_dm.click(builder, label="Seal this sheet")
    assert "Order sealed" in done.response.content and "Knight B-2" in done.response.content

    post = turn_posts(duel)[-1]
    assert "Turn 2/10" in post.embeds[0].title
    log = post.embeds[0].description
    assert "Knight A-2 moves D9→D8→D7." in log
    assert "Knight B-2 moves D2→" in log and "→C4." in log
    # The post opens with the turn's main event (nobody attacked: the moves); the sides' DP and
    # units did not change, so only the mana (one field for both) is shown.
    assert log.startswith("**No attack this turn: 3 moves.**")
    assert field(post, "A · alice") is None and field(post, "B · bob") is None
    mana = field(post, "Mana")
    assert mana is not None and mana.value == "A 1/1 · B 1/1"
    assert field(post, "Deadline") is not None
    # Each prompt opens with what changed since the seat's last one, then the question.
    prompt = last_dm(duel.bob).content
    assert "📣 After turn 1, DP unchanged: yours 0, A's 0." in prompt
    assert "👣 A's units: Warlord A-1 E9 → E8, Knight A-2 D9 → D7" in prompt
    assert "📝 Your sheet for this turn: 2 mana to spend." in prompt
    assert "How to answer" not in prompt  # the help came with the first prompt only


async def test_bad_sheets_are_refused_with_a_reason_and_keep_the_previous(duel):
    await start_match(duel)
    await through_setup(duel)
    await duel.alice.send_dm("knight D9>D7")
    for text, reason in (
        ("dragon D9>D7", "no unit called “dragon”"),
        ("knight D9>D7\nknight wait", "has two lines"),
        ("archmage wait", "not one of your units"),
        ("knight D9>D3", "cannot reach D3"),
        ("warlord ability E8", "Not enough mana"),
    ):
        await duel.alice.send_dm(text)
        assert reason in last_dm(duel.alice).content, (text, last_dm(duel.alice).content)
    orders = await duel.bot.table.current_orders(duel.game_id)
    assert orders["A"].text == "A2 >D7 wait"


async def test_builder_refuses_a_line_the_engine_refuses_and_keeps_the_draft(duel):
    await start_match(duel)
    await through_setup(duel)
    builder = await open_builder(duel)
    builder = await pick(duel, builder, "unit", ["B2"])
    builder = await pick(duel, builder, "dest", ["D3"])
    builder = await pick(duel, builder, "act", ["wait"])
    # Undo and clear only touch the draft; nothing is sealed until Seal.
    undone = (await duel.bob_dm.click(builder, label="Undo last line")).response
    assert "B2" not in undone.content.split("```text")[1]
    assert await duel.bot.table.current_orders(duel.game_id) == {}


async def test_a_missed_deadline_makes_the_missing_side_wait(duel):
    await start_match(duel, minutes=10)
    await through_setup(duel)
    await duel.alice.send_dm("knight D9>D7")
    before = len(duel.channel.history())
    await duel.env.advance_time(5 * 60 + 15)  # half time: a reminder that pings Bob only
    reminders = [m for m in duel.channel.history()[before:] if m.author.bot and not m.embeds]
    assert len(reminders) == 1
    assert duel.bob.mention in reminders[0].content
    assert duel.alice.mention not in reminders[0].content
    await duel.env.advance_time(5 * 60)
    await duel.bot.outbox.idle()
    post = turn_posts(duel)[-1]
    assert "Turn 2/10" in post.embeds[0].title
    orders = field(post, "Orders")
    assert orders is not None and "**B** sent no order" in orders.value
    s = await state(duel)
    assert s.units["A2"].square == (3, 6)  # Alice's knight moved; Bob's side waited
    assert s.units["B2"].square == (3, 1)


@pytest.mark.parametrize("blank", ["　", "   ", "　\n　"])
async def test_a_blank_sheet_is_refused_and_the_real_one_kept(duel, blank):
    await start_match(duel)
    await through_setup(duel)
    await duel.alice.send_dm("knight D9>D7")
    slash = await duel.alice.slash(duel.channel, "order", text=blank)
    assert slash.ephemeral
    assert slash.response.content == "⚠️ Your order is empty: nothing was changed."
    # Discord itself refuses a DM of spaces only; with a zero-width space in it, one gets through.
    await duel.alice.send_dm(blank + "\u200b")
    assert last_dm(duel.alice).content == "⚠️ Your order is empty: nothing was changed."
    orders = await duel.bot.table.current_orders(duel.game_id)
    assert orders["A"].text == "A2 >D7 wait" and orders["A"].revisions == 1


async def test_a_refusal_quotes_the_word_without_bidi_or_zero_width_characters(duel):
    await start_match(duel)
    await through_setup(duel)
    await duel.alice.send_dm("\u2067dra\u202egon\u200d\u2069 D9>D7")
    reply = last_dm(duel.alice).content
    assert "no unit called “dragon”" in reply
    for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f":
        assert ch not in reply
    for ch in "\u200b\u200c\u200d\u2060\ufeff":
        assert ch not in reply


async def test_the_preset_roster_is_one_click(duel):
    await start_match(duel)
    prompt = last_dm(duel.alice)
    labels = [c.label for row in prompt.components for c in row.children]
    assert "Preset roster: Warlord and 9 units" in labels  # named on its button
    done = await duel.alice_dm.click(prompt, label="Preset roster: Warlord and 9 units")
    assert "Order sealed" in done.response.content
    orders = await duel.bot.table.current_orders(duel.game_id)
    assert orders["A"].text.startswith("roster warlord ")


async def test_every_unit_waiting_is_one_click(duel):
    await start_match(duel)
    await through_setup(duel)
    # A turn's prompt offers every unit waiting, beside the builder, ❓ and 📋.
    prompt = last_dm(duel.bob)
    done = await duel.bob_dm.click(prompt, label="Every unit waits this turn")
    assert "Order sealed" in done.response.content
    orders = await duel.bot.table.current_orders(duel.game_id)
    assert orders["B"].text == "wait"
