"""Apeiron played by two users in SimCord: whole games by DM text and by the builder in English
and Japanese, deadlines on the deployment and on an activation, restarts in the middle of an
activation and of the item step, and no private fact in a place it does not belong."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.record import verify
from cogs.apeiron import ai, rules
from tests.cogs.game.sim import dms, last_dm, setup_duel, turn_posts

MAX_STEPS = 400
JA_WORDS = {
    "deck": "デッキ",
    "chest": "チェスト",
    "deploy": "配置",
    "attack": "攻撃",
    "ability": "能力",
    "treasure": "宝箱",
    "item": "アイテム",
    "chance": "チャンス",
    "stay": "待機",
    "N": "上",
    "E": "右",
    "S": "下",
    "W": "左",
    "keep": "そのまま",
    "none": "なし",
    "discard": "捨てる",
    "option": "選択",
    "cw": "右回り",
    "ccw": "左回り",
}
ITEMS_ONLY = "deck u01 u03 u05 u07 u09 u11 u14 u19 chest i01 i02 i03 i04 i05 i06"
# Decks of no preset: a preset's chest is public pack data, these chests are known to their owner
DECKS = {
    "A": "deck u01 u02 u03 u04 u05 u06 u07 u08 chest i07 i12 e01 e05 e09 i02",
    "B": "deck u09 u10 u11 u12 u13 u14 u15 u16 chest i08 i03 e10 e02 i11 e06",
}


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def japanese(text: str) -> str:
    """An order as a Japanese player types it (the same order: the parser reads both)."""
    text = text.replace("place own", "自分に置く").replace("place opponent", "相手に置く")
    text = text.replace(">", "→").replace(",", "、").replace(";", "；")
    return " ".join(JA_WORDS.get(word, word) for word in text.split(" "))


async def start(duel: Any, lang: str = "en", discord_locale: Any = None, **options: Any) -> Any:
    if lang == "ja":
        discord_locale(duel.alice, "ja")
        discord_locale(duel.bob, "ja")
        role = duel.guild.create_role(
            "Moderators", permissions=discord.Permissions(manage_guild=True)
        )
        mod = duel.guild.add_member(duel.env.create_user("mod"), roles=[role])
        await mod.slash(duel.channel, "config language", language="ja")
    await duel.alice.slash(duel.channel, "apeiron challenge", opponent=duel.bob, **options)
    await duel.bob.click(duel.channel.last_message, label="受ける" if lang == "ja" else "Accept")
    games = await duel.bot.table.games_here(duel.channel.id)
    duel.game_id = games[0].id
    return duel


async def state(duel: Any) -> rules.ApeironState:
    game = await duel.bot.table.game(duel.game_id)
    return rules.from_json(game.state)


def actor(duel: Any, seat: str) -> Any:
    return duel.alice if seat == "A" else duel.bob


def handle(duel: Any, seat: str) -> Any:
    return duel.alice_dm if seat == "A" else duel.bob_dm


def channel_text(duel: Any) -> str:
    parts = []
    for m in duel.channel.history():
        parts.append(m.content or "")
        for e in m.embeds:
            parts += [e.title or "", e.description or ""]
            parts += [f"{f.name} {f.value}" for f in e.fields]
    return "\n".join(parts)


def dm_text(member: Any) -> str:
    return "\n".join(m.content or "" for m in dms(member))


def own_row_line(s: rules.ApeironState, seat: str, lang: str = "en") -> str:
    """The line of a seat's own panels its deployment DM shows (the secret of that seat)."""
    from cogs.apeiron.present import panel_line

    panels = rules.view(s, seat)["you"]["row"]
    return ", ".join(panel_line(p, lang) for p in panels)


def chest_line(s: rules.ApeironState, seat: str, lang: str = "en") -> str:
    names = [
        s.pack.chest[c].name_ja if lang == "ja" else s.pack.chest[c].name_en
        for c in s.decks[seat]["chest"]
    ]
    return ("、" if lang == "ja" else ", ").join(names)


async def play_by_text(duel: Any, lang: str, rng: random.Random, until: Any = None) -> None:
    for _ in range(MAX_STEPS):
        s = await state(duel)
        if s.ended is not None or (until is not None and until(s)):
            return
        for seat in rules.awaiting(s):
            text = DECKS[seat] if s.step == rules.DECK else ai.choose(s, seat, rng)
            await actor(duel, seat).send_dm(japanese(text) if lang == "ja" else text)
        await duel.bot.outbox.idle()
    raise AssertionError("the game did not end")


# --- whole games by DM text --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_whole_game_by_dm_text(duel, discord_locale, lang):
    await start(duel, lang, discord_locale)
    first = turn_posts(duel)[0]
    assert ("デッキ選択" if lang == "ja" else "Deck choice") in first.embeds[0].title
    rng = random.Random(5)
    await play_by_text(duel, lang, rng, until=lambda s: s.step != rules.DECK)
    s = await state(duel)
    rows = {seat: own_row_line(s, seat, lang) for seat in "AB"}
    chests = {seat: chest_line(s, seat, lang) for seat in "AB"}
    # Each seat's deployment DM shows its own row of panels and its chest, with a private board.
    assert rows["A"] in last_dm(duel.alice).content and rows["B"] in last_dm(duel.bob).content
    assert last_dm(duel.alice).attachments, "the deployment DM carries the private board"
    assert rows["A"] not in dm_text(duel.bob) and rows["B"] not in dm_text(duel.alice)
    assert chests["A"] not in dm_text(duel.bob) and chests["B"] not in dm_text(duel.alice)
    await play_by_text(duel, lang, rng, until=lambda s: s.revealed)
    # Before the end: no own row, no chest list, no chest order in the channel or in an export.
    for seat in "AB":
        assert rows[seat] not in channel_text(duel)
        assert chests[seat] not in channel_text(duel)
    # /game export draws every step's board for its viewer (it defers first, as Discord
    # allows): on a busy machine that takes longer than SimCord's 5 s to settle.
    duel.env.settle_timeout = 60.0
    export = await duel.alice.slash(duel.channel, "game export", game=duel.game_id)
    data = (await export.response.attachments[0].read()).decode()
    s = await state(duel)
    for seat in "AB":
        assert " ".join(s.chest[seat]) not in data
        assert "chest " + " ".join(s.decks[seat]["chest"]) not in data
    await play_by_text(duel, lang, rng)
    s = await state(duel)
    assert s.ended is not None and s.winner in "AB"
    last = turn_posts(duel)[-1]
    assert last.attachments[0].filename == "board.png"
    # The record embeds the pack and replays.
    export = await duel.alice.slash(duel.channel, "game export", game=duel.game_id)
    record = json.loads(await export.response.attachments[0].read())
    assert record["options"]["pack"]["pack"]["id"] == "starter"
    failed = [c for c in verify(record) if not c.ok]
    assert failed == []


# --- whole games by the builder ----------------------------------------------------------------


def components(message: Any) -> list[dict[str, Any]]:
    found = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for c in children:
            found.append(c if isinstance(c, dict) else c.to_dict())
    return found


def select_of(message: Any) -> dict[str, Any]:
    (select,) = [c for c in components(message) if c.get("type") == 3]
    return select


async def pick(duel: Any, seat: str, message: Any, value: str | None = None) -> Any:
    select = select_of(message)
    values = [o["value"] for o in select["options"]]
    chosen = value if value is not None else values[0]
    assert chosen in values, (chosen, values)
    result = await handle(duel, seat).select(message, [chosen], custom_id=select["custom_id"])
    return result.response


async def open_builder(duel: Any, seat: str, lang: str) -> Any:
    prompt = last_dm(actor(duel, seat))
    label = "行動表を作る" if lang == "ja" else "Build my sheet"
    opened = await handle(duel, seat).click(prompt, label=label)
    assert opened.ephemeral
    return opened.response


async def seal(duel: Any, seat: str, message: Any, lang: str) -> Any:
    label = "この命令で確定" if lang == "ja" else "Seal this order"
    return (await handle(duel, seat).click(message, label=label)).response


async def build_activation(duel: Any, seat: str, lang: str, rng: random.Random) -> Any:
    builder = await open_builder(duel, seat, lang)
    s = await state(duel)
    if s.step in (rules.PLACE, rules.OPTION):
        builder = await pick(duel, seat, builder)
        return await seal(duel, seat, builder, lang)
    if ":col" in select_of(builder)["custom_id"]:
        builder = await pick(duel, seat, builder)
    dests = [o["value"] for o in select_of(builder)["options"]]
    builder = await pick(duel, seat, builder, rng.choice(dests))
    builder = await pick(duel, seat, builder)  # the facing: the first offered
    if ":act" in select_of(builder)["custom_id"]:
        options = select_of(builder)["options"]
        attacks = [o["value"] for o in options if "attack" in o.get("description", "")]
        builder = await pick(duel, seat, builder, attacks[0] if attacks else None)
    return await seal(duel, seat, builder, lang)


async def build_setup(duel: Any, seat: str, lang: str) -> None:
    builder = await open_builder(duel, seat, lang)
    builder = await pick(duel, seat, builder)  # the first preset
    assert "deck u01" in builder.content
    await seal(duel, seat, builder, lang)


async def build_deployment(duel: Any, seat: str, lang: str) -> Any:
    builder = await open_builder(duel, seat, lang)
    for _ in range(rules.DEPLOY):
        builder = await pick(duel, seat, builder)  # the next unit of the deck
        if ":row" in select_of(builder)["custom_id"]:
            builder = await pick(duel, seat, builder)
        builder = await pick(duel, seat, builder)  # the first free square
        builder = await pick(duel, seat, builder, "S" if seat == "A" else "N")
    return await seal(duel, seat, builder, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_whole_game_by_the_builder(duel, discord_locale, lang):
    # A turn limit bounds the game (the tie-break ends it): every click goes through SimCord, and
    # an unlucky long game otherwise took two minutes.
    await start(duel, lang, discord_locale, turn_limit=6)
    for seat in "AB":
        await build_setup(duel, seat, lang)
    assert (await state(duel)).step == rules.DEPLOY_STEP
    for seat in "AB":
        done = await build_deployment(duel, seat, lang)
    assert "u01" in done.content
    s = await state(duel)
    assert s.step == rules.PLAY and len(rules.living(s, "A")) == rules.DEPLOY
    rng = random.Random(11)
    for _ in range(MAX_STEPS):
        s = await state(duel)
        if s.ended is not None:
            break
        (seat,) = rules.awaiting(s)
        before = s.steps
        await build_activation(duel, seat, lang, rng)
        await duel.bot.outbox.idle()
        after = await state(duel)
        assert after.steps > before or after.ended is not None, "every sealed order is accepted"
    else:
        raise AssertionError("the game did not end")
    assert (await state(duel)).winner in "AB"


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_sealing_an_empty_draft_is_refused_and_the_builder_stays(duel, discord_locale, lang):
    await start(duel, lang, discord_locale)
    builder = await open_builder(duel, "A", lang)
    refused = await seal(duel, "A", builder, lang)
    assert t(lang, "apeiron.builder.nothing") in refused.content
    assert t(lang, f"apeiron.builder.help.{rules.DECK}") in refused.content
    # The same menus to pick from: the presets, then Seal / Undo / Clear.
    assert components(refused) == components(builder)
    assert await duel.bot.table.current_orders(duel.game_id) == {}  # nothing was sealed
    # The refused builder still builds the order.
    sealed = await seal(duel, "A", await pick(duel, "A", refused), lang)
    assert sealed.content.startswith("deck u01")
    assert set(await duel.bot.table.current_orders(duel.game_id)) == {"A"}


async def test_the_builder_offers_attacks_with_the_path_walked(duel):
    await start(duel)
    rng = random.Random(3)
    await play_by_text(duel, "en", rng, until=lambda s: s.step == rules.PLAY)
    s = await state(duel)
    (seat,) = rules.awaiting(s)
    builder = await open_builder(duel, seat, "en")
    options = select_of(builder)["options"]
    unit = rules.acting_unit(s)
    paths = rules.reachable(s, unit)
    assert len(options) == min(len(paths), 25) or ":col" in select_of(builder)["custom_id"]
    first = options[0]
    end = rules.fld.parse_square(first["value"])
    walked = [rules.label(unit.square), *(rules.label(q) for q in paths[end])]
    assert first["description"] == "→".join(walked)


# --- deadlines ---------------------------------------------------------------------------------


async def test_deadlines_on_the_deployment_and_on_an_activation(duel):
    await start(duel, minutes=10)
    for seat in "AB":
        await actor(duel, seat).send_dm(rules.DeckOrder(*_preset(1)).canonical())
    await duel.bot.outbox.idle()
    assert (await state(duel)).step == rules.DEPLOY_STEP
    await duel.alice.send_dm("deploy u01 A1 S, u03 B1 S, u05 C1 S, u07 D1 S, u09 E1 S")
    await duel.env.advance_time(10 * 60 + 30)
    await duel.bot.outbox.idle()
    s = await state(duel)
    assert s.step == rules.PLAY
    # Bob missed it: the default deployment, the deck's first five on the first free squares.
    default = rules.default_order(rules.from_json(rules.to_json(s)), "B")  # (play step now)
    bob = sorted((u.order, u.id) for u in s.units["B"])
    assert [uid for _, uid in bob] == list(s.decks["B"]["units"][:5])
    assert all(u.facing == "N" and u.square[1] >= 6 for u in s.units["B"])
    assert default is not None
    # An activation's deadline: one step to the first legal neighbour, no action.
    (seat,) = rules.awaiting(s)
    unit = rules.acting_unit(s)
    expected = rules.default_order(s, seat)
    await duel.env.advance_time(10 * 60 + 30)
    await duel.bot.outbox.idle()
    after = await state(duel)
    moved = next(u for u in after.units[seat] if u.order == unit.order)
    # A boxed-in unit's default stays where it is (an empty path), as the digest allows.
    assert moved.square == (expected.path[-1] if expected.path else unit.square)
    assert after.steps == s.steps + 1


def _preset(index: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    preset = rules.packlib.starter().presets[index - 1]
    return preset.units, preset.chest


# --- restarts ----------------------------------------------------------------------------------


async def test_a_restart_in_the_middle_of_an_activation(duel, make_bot):
    await start(duel)
    await play_by_text(duel, "en", random.Random(2), until=lambda s: s.step == rules.PLAY)
    s = await state(duel)
    (seat,) = rules.awaiting(s)
    builder = await open_builder(duel, seat, "en")
    builder = await pick(duel, seat, builder)
    if ":dest" in select_of(builder)["custom_id"]:
        builder = await pick(duel, seat, builder)
    await duel.env.restart_bot(make_bot())
    await duel.bot.outbox.idle()
    builder = await pick(duel, seat, builder)  # the facing, on the builder opened before
    builder = await pick(duel, seat, builder)  # no action
    done = await seal(duel, seat, builder, "en")
    assert "sealed" in done.content.lower() or "resolved" in done.content.lower(), done.content
    await duel.bot.outbox.idle()
    assert (await state(duel)).steps == s.steps + 1


async def test_a_restart_in_the_middle_of_the_item_step(duel, make_bot):
    await start(duel)
    await duel.alice.send_dm(ITEMS_ONLY)
    await duel.bob.send_dm(ITEMS_ONLY)
    await play_by_text(duel, "en", random.Random(4), until=lambda s: s.step == rules.PLAY)
    s = await state(duel)
    (seat,) = rules.awaiting(s)
    move = rules.choices(s, seat)[1].choices[0].token
    await actor(duel, seat).send_dm(f"{move} keep chance")  # every chest card is an item
    await duel.bot.outbox.idle()
    s = await state(duel)
    assert s.step == rules.PLACE and rules.awaiting(s) == [seat]
    card = s.pick["card"]
    prompt = last_dm(actor(duel, seat)).content
    assert s.pack.chest[card].name_en in prompt
    await duel.env.restart_bot(make_bot())
    await duel.bot.outbox.idle()
    await actor(duel, seat).send_dm("place own")
    await duel.bot.outbox.idle()
    after = await state(duel)
    assert after.side[seat] == {"card": card, "owner": seat}
    assert after.step == rules.PLAY and rules.awaiting(after) == [rules.other(seat)]
    post = turn_posts(duel)[-1]
    assert s.pack.chest[card].name_en in post.embeds[0].description


async def test_a_refused_order_names_its_reason_and_keeps_the_game_waiting(duel):
    await start(duel)
    await play_by_text(duel, "en", random.Random(6), until=lambda s: s.step == rules.PLAY)
    s = await state(duel)
    (seat,) = rules.awaiting(s)
    unit = rules.acting_unit(s)
    await actor(duel, seat).send_dm(f"stay S attack {rules.label(unit.square)}")
    reply = last_dm(actor(duel, seat)).content
    assert "⚠️" in reply and re.search(r"boxed in|not the unit|attack", reply)
    assert (await state(duel)).steps == s.steps


async def test_cards_and_rules_commands(duel, discord_locale):
    result = await duel.alice.slash(duel.channel, "apeiron cards")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert "Sentinel" in embed.fields[0].name and len(embed.fields) <= 8
    assert "1/" in embed.footer.text
    result = await duel.alice.slash(duel.channel, "apeiron cards", section="chest", page=2)
    assert "2/" in result.response.embeds[0].footer.text
    discord_locale(duel.bob, "ja")
    result = await duel.bob.slash(duel.channel, "apeiron rules")
    assert "アペイロン" in result.response.content
    assert isinstance(result.response.content, str) and len(result.response.content) < 2000
    assert discord  # (imported for the component types the helpers read)
