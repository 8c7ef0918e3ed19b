"""Hostile Apeiron packs in SimCord (issue 31): a pack's ids and names live in their own
namespace in the orders (a unit id shaped like a square or an order word is refused at upload
with a localized reason, where it made ``A1 keep`` a move of the wrong unit and a DM-button order
lost at resolution), and whatever a pack's ids, its DM prompts and buttons stay within Discord's
limits (32-character ids made the deck prompt unsendable). Games are driven through the order
buttons of the DM prompts, as a player clicks them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot import packs
from cogs.apeiron import pack as packlib
from cogs.apeiron import rules
from tests.cogs.apeiron.test_flow import (
    actor,
    build_deployment,
    components,
    handle,
    open_builder,
    pick,
    seal,
    start,
    state,
)
from tests.cogs.apeiron.test_server_pack import (
    COMMUNITY,
    moderator,
    refusal_lines,
    said,
    stored,
    upload,
)
from tests.cogs.game.sim import dms, setup_duel

UNIT_IDS = [f"u{n:02d}" for n in range(1, 31)]
CHEST_IDS = [f"i{n:02d}" for n in range(1, 13)] + [f"e{n:02d}" for n in range(1, 11)]


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def renamed(ids: dict[str, str], text: str = COMMUNITY) -> str:
    """The community pack with cards' ids changed everywhere they are written (their tables,
    the presets' lists), all at once (a new id may be an old one's)."""
    for old in ids:
        assert f'"{old}"' in text, old
    pattern = re.compile('"(' + "|".join(map(re.escape, ids)) + ')"')
    return pattern.sub(lambda m: f'"{ids[m[1]]}"', text)


def named(field: str, old: str, new: str, text: str = COMMUNITY) -> str:
    line = f'{field} = "{old}"'
    assert line in text, line
    return text.replace(line, f'{field} = "{new}"', 1)


# --- ids and names an order would read otherwise ----------------------------------------------

SHAPES = [
    # (the pack, where the refusal points, en, ja)
    (renamed({"u01": "a1"}), "unit a1", "reads as a square", "マスやパネル"),
    (renamed({"u01": "c4"}), "unit c4", "reads as a square", "マスやパネル"),
    (renamed({"u01": "p4"}), "unit p4", "reads as a square", "マスやパネル"),
    (renamed({"u01": "keep"}), "unit keep", "reads as an order word", "命令の言葉"),
    (renamed({"u01": "attack"}), "unit attack", "reads as an order word", "命令の言葉"),
    (renamed({"u01": "chest"}), "unit chest", "reads as an order word", "命令の言葉"),
    (renamed({"u01": "7"}), "unit 7", "reads as a number", "数として"),
    (renamed({"u01": "b"}), "unit b", "reads as a seat", "席（A、B）"),
    (named("name_en", "Lancer", "Stay"), "unit u02", "Stay reads as an order", "命令の言葉"),
    (named("name_en", "Lancer", "C4>C5"), "unit u02", "reads as a square", "マスやパネル"),
    (named("name_ja", "槍騎兵", "そのまま"), "unit u02", "reads as an order word", "命令の言葉"),
    (named("name_ja", "槍騎兵", "上"), "unit u02", "reads as an order word", "命令の言葉"),
    (named("name_ja", "槍騎兵", "Ｓ"), "unit u02", "reads as an order word", "命令の言葉"),
    (named("name_ja", "槍騎兵", "森"), "unit u02", "reads as an order word", "命令の言葉"),
]


@pytest.mark.parametrize(("text", "where", "en", "ja"), SHAPES)
async def test_an_id_or_name_orders_would_read_otherwise_is_refused(
    duel, discord_locale, text, where, en, ja
):
    """Orders name a unit by its id or either name: one that reads as a square, an order word,
    a number or a seat letter is refused at upload, in one line in either language."""
    mod = moderator(duel)
    for lang, expected in (("en", en), ("ja", ja)):
        discord_locale(mod, lang)
        lines = refusal_lines(await upload(mod, duel, text))
        (line,) = [line for line in lines if line.startswith("• ")]
        assert line.startswith(f"• {where}") and expected in line, line
    assert await stored(duel) is None


def test_the_sample_pack_and_its_chest_ids_pass():
    """Only what orders name as a unit is held to it: the chest's ``i01`` (I1 as a square) and
    ``e05`` are named only after ``chest`` in a deck order, where no square is read."""
    pack = packlib.loads(packlib.STARTER.read_text("utf-8"))
    assert "i01" in pack.chest and "e05" in pack.chest
    assert rules.reads_as("i01") == "place" and rules.reads_as("u01") is None


# --- playing by the DM buttons -------------------------------------------------------------------

ORDER_IDS = ("pbp:o:", "pbp:s:")


def order_components(message: Any) -> list[dict[str, Any]]:
    return [c for c in components(message) if str(c.get("custom_id", "")).startswith(ORDER_IDS)]


def prompt_of(duel: Any, seat: str, turn: int) -> Any:
    """The seat's DM prompt for the game's step ``turn``: its order buttons carry the turn."""
    for message in reversed(dms(actor(duel, seat))):
        found = order_components(message)
        if found:
            head = f":{duel.game_id}:{turn}:"
            assert all(head in c["custom_id"] for c in found), (turn, found)
            return message
    raise AssertionError(f"no DM prompt with order buttons for {seat}")


async def order_by_buttons(duel: Any, seat: str, turn: int, rng: random.Random) -> str:
    """One order chosen a group at a time on the DM's buttons (or menu), at random among the
    enabled ones; every answer must be the next group or the acknowledgement, never a refusal.
    Returns the acknowledgement."""
    message = prompt_of(duel, seat, turn)
    for _ in range(8):
        found = order_components(message)
        assert found, message.content
        select = next((c for c in found if c.get("type") == 3), None)
        if select is not None:
            value = rng.choice([o["value"] for o in select["options"]])
            result = await handle(duel, seat).select(
                message, [value], custom_id=select["custom_id"]
            )
        else:
            enabled = [c for c in found if not c.get("disabled")]
            button = rng.choice(enabled)
            result = await handle(duel, seat).click(message, custom_id=button["custom_id"])
        reply = result.response
        content = str(reply.content or "")
        assert not content.startswith("⚠️"), content
        if not order_components(reply):
            assert "Order sealed" in content, content
            return content
        message = reply
    raise AssertionError("an order of more than eight groups")


async def sealed_orders(duel: Any, turn: int) -> dict[str, str]:
    async with duel.bot.table.repo.read() as tx:
        rows = await tx.orders_for_turn(duel.game_id, turn)
    return {seat: row.text for seat, row in rows.items()}


async def play_by_buttons(duel: Any, rng: random.Random, max_steps: int = 300) -> None:
    """The whole game by DM buttons. Each sealed order, as stored, must read back as itself on
    the state it was sealed in: resolution reads it so, and replaces one it cannot read by the
    seat's default without a word (a lost order)."""
    for _ in range(max_steps):
        s = await state(duel)
        if s.ended is not None:
            return
        game = await duel.bot.table.game(duel.game_id)
        turn = game.step
        for seat in rules.awaiting(s):
            if seat in await sealed_orders(duel, turn):
                continue  # in already (by the builder)
            await order_by_buttons(duel, seat, turn, rng)
            orders = await sealed_orders(duel, turn)
            if seat in orders:  # the order is stored under the step until it resolves
                text = orders[seat]
                assert rules.parse(s, seat, text).canonical() == text, (seat, text)
        await duel.bot.outbox.idle()
        after = await duel.bot.table.game(duel.game_id)
        assert after.step > turn or after.status == "finished", "the step did not resolve"
    raise AssertionError("the game did not end")


async def test_square_shaped_unit_ids_lose_no_button_order(duel):
    """Every unit named like a square (``a1`` … ``d3``): the DM buttons sent ``c1 A1 keep``,
    sealed, and resolution read the stored ``A1 keep`` as the wrong unit and played the default
    move. Such a pack is refused at upload; were it accepted, no order may be lost."""
    squares = [f"{c}{r}" for r in range(1, 10) for c in "abcd"]
    text = renamed(dict(zip(UNIT_IDS, squares, strict=False)))
    result = await upload(moderator(duel), duel, text)
    if await stored(duel) is None:
        assert "reads as a square" in said(result), said(result)
        return
    await start(duel, turn_limit=2)
    await play_by_buttons(duel, random.Random(5))


def test_reads_as_is_the_grammars_own_reading():
    """The words the check refuses are those the parser reads: a unit named so would not be
    found by ``unit_id`` first, whatever the language or width the player types it in."""
    for word in ("keep", "そのまま", "none", "なし", "deck", "デッキ", "n", "上", "cw", "左回り"):
        assert rules.reads_as(word) == "word", word
    for word in ("grass", "草原", "attack", "攻撃", "stay", "待機", "ＫＥＥＰ"):
        assert rules.reads_as(word) == "word", word
    for word in ("A1", "i9", "P9", "c4>c5", ">D5", "C4→C5"):
        assert rules.reads_as(word) == "place", word
    for word in ("u01", "j1", "a10", "p10", "Sentinel", "Iron Golem", "森守"):
        assert rules.reads_as(word) is None, word
    assert re.fullmatch(r"[a-z]", "b") and rules.reads_as("B") == "seat"


# --- ids as long as the format allows ------------------------------------------------------------

# Every unit and chest card with an id of 32 characters, the format's limit: the deck prompt's
# buttons carried a whole deck order (fourteen ids, 470 characters) and Discord refused it.
LONG = {old: (old + "-" + "x" * 32)[:32] for old in UNIT_IDS + CHEST_IDS}


def all_components(duel: Any) -> list[dict[str, Any]]:
    return [c for seat in "AB" for m in dms(actor(duel, seat)) for c in components(m)]


async def test_thirty_two_character_ids_keep_every_prompt_and_button_sendable(duel, lang="en"):
    """Neither player could start the game by DM: the deck prompt was never sent. Now both do,
    Alice by the prompt's buttons, Bob by the order builder (whose ids were cut at 100
    characters), and the game is played to its end by the buttons."""
    assert all(len(new) == 32 for new in LONG.values())
    result = await upload(moderator(duel), duel, renamed(LONG))
    assert await stored(duel) is not None, said(result)
    await start(duel, turn_limit=2)
    s = await state(duel)
    assert s.step == rules.DECK
    turn = (await duel.bot.table.game(duel.game_id)).step
    await order_by_buttons(duel, "A", turn, random.Random(1))
    builder = await open_builder(duel, "B", lang)
    builder = await pick(duel, "B", builder, "2")  # the second preset
    assert LONG["u02"] in builder.content
    await seal(duel, "B", builder, lang)
    await duel.bot.outbox.idle()
    s = await state(duel)
    assert s.step == rules.DEPLOY_STEP, s.step
    assert s.decks["A"]["units"][0] == LONG["u01"] and s.decks["B"]["units"][0] == LONG["u02"]
    done = await build_deployment(duel, "B", lang)
    assert LONG["u02"] in done.content and "Order sealed" in done.content
    await play_by_buttons(duel, random.Random(2))
    found = all_components(duel)
    assert found and all(len(c.get("custom_id", "")) <= 100 for c in found)
    values = [o["value"] for c in found for o in c.get("options", ())]
    assert all(len(v) <= 100 for v in values)


# --- Hypothesis: any valid pack plays by the buttons ---------------------------------------------

ID_TEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=32)
VALID_ID = ID_TEXT.filter(lambda s: packs.ID.fullmatch(s) is not None and not rules.reads_as(s))
# A name: any printable text on one line, up to the format's limit.
NAME = st.text(
    alphabet=st.characters(categories=("L", "M", "N", "P", "S", "Zs")),
    min_size=1,
    max_size=packlib.MAX_NAME,
).filter(lambda s: bool(s.strip()) and not rules.reads_as(s))
UNIT_NAMES = [u.name_en for u in packlib.loads(COMMUNITY).units.values()]


@st.composite
def hostile_packs(draw: st.DrawFn) -> str:
    """The community pack with every unit's and chest card's id drawn anew, and some units'
    English names; what the upload would refuse (a name twice, say) is drawn again."""
    ids = draw(st.lists(VALID_ID, min_size=52, max_size=52, unique=True), label="ids")
    text = renamed(dict(zip(UNIT_IDS + CHEST_IDS, ids, strict=True)))
    names = draw(st.lists(NAME, max_size=6, unique_by=str.casefold), label="names")
    for old, new in zip(UNIT_NAMES, names, strict=False):
        text = named("name_en", old, new.replace("\\", "\\\\").replace('"', '\\"'), text)
    try:
        packlib.loads(text)
    except packlib.PackError:
        assume(False)  # kept valid by the upload rules (an id equal to a name, say)
    return text


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=hostile_packs(), seed=st.integers(0, 2**16))
async def test_any_valid_pack_plays_to_its_end_by_dm_buttons(duel, text, seed):
    """Whatever ids and names a pack the upload accepts has, a whole game by the DM buttons
    meets no refused component and loses no order (each sealed order reads back as itself)."""
    if not hasattr(duel, "mod"):  # one duel serves every example (a game after another)
        duel.mod = moderator(duel)
    result = await upload(duel.mod, duel, text)
    row = await stored(duel)
    assert row is not None and row.hash == packlib.loads(text).hash, said(result)
    await start(duel, turn_limit=1)
    await play_by_buttons(duel, random.Random(seed))
