"""A server's own Apeiron pack in SimCord: ``/apeiron pack upload|show|reset`` (moderators), a
refused upload naming every bad field in English and Japanese with nothing stored, challenges and
``/apeiron cards`` on the server's pack, and records that replay after the server's pack changes.
"""

from __future__ import annotations

import gc
import json
import random
from typing import Any

import discord
import pytest

from bot import packs
from bot.record import verify
from cogs.apeiron import pack as packlib
from cogs.apeiron import rules
from tests.cogs.apeiron.test_flow import play_by_text, start, state
from tests.cogs.game.sim import setup_duel

STARTER = packlib.STARTER.read_text("utf-8")
# The community's pack: the starter's cards under its own name, one unit renamed and made sturdier.
COMMUNITY = (
    STARTER.replace('id = "starter"', 'id = "guild-cup"', 1)
    .replace('name_en = "Starter set"', 'name_en = "Guild Cup"', 1)
    .replace('name_ja = "スターターセット"', 'name_ja = "ギルド杯"', 1)
    .replace('name_en = "Sentinel"', 'name_en = "Stalwart"', 1)
    .replace('name_ja = "番兵"', 'name_ja = "守衛"', 1)
    .replace("hp = 5\n", "hp = 7\n", 1)
)
SECOND = COMMUNITY.replace('name_en = "Guild Cup"', 'name_en = "Guild Cup II"', 1)


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def moderator(duel: Any) -> Any:
    role = duel.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return duel.guild.add_member(duel.env.create_user("mod"), roles=[role])


def said(result: Any) -> str:
    """Everything an interaction answered (the response, or the follow-ups after a defer)."""
    parts = [m.content or "" for m in [result.response, *result.followups] if m is not None]
    for m in [result.response, *result.followups]:
        if m is not None:
            parts += [e.description or "" for e in m.embeds]
    return "\n".join(parts)


async def upload(member: Any, duel: Any, text: str | bytes, name: str = "pack.toml") -> Any:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return await member.slash(duel.channel, "apeiron pack upload", file=(name, data))


async def stored(duel: Any) -> Any:
    async with duel.bot.table.repo.read() as tx:
        return await tx.server_pack(duel.guild.id, "apeiron")


# --- upload, show, reset -------------------------------------------------------------------------


async def test_a_moderator_loads_shows_and_resets_the_servers_pack(duel):
    mod = moderator(duel)
    shown = await duel.alice.slash(duel.channel, "apeiron pack show")
    assert shown.ephemeral and "starter pack" in said(shown)
    assert packlib.starter().hash[:12] in said(shown)

    loaded = await upload(mod, duel, COMMUNITY)
    expected = packlib.loads(COMMUNITY)
    assert "Guild Cup" in said(loaded) and expected.hash[:12] in said(loaded)
    row = await stored(duel)
    assert row is not None and row.hash == expected.hash and row.set_by == mod.user.id
    assert row.pack == packlib.canonical_json(expected.source)

    shown = await duel.alice.slash(duel.channel, "apeiron pack show")
    text = said(shown)
    assert "Guild Cup" in text and expected.hash[:12] in text and f"<@{mod.user.id}>" in text
    assert f"{len(expected.units)} units" in text and "starter pack" not in text
    cards = await duel.alice.slash(duel.channel, "apeiron cards")
    assert "Stalwart" in cards.response.embeds[0].fields[0].name
    assert "Guild Cup" in cards.response.embeds[0].title

    reset = await mod.slash(duel.channel, "apeiron pack reset")
    assert "starter pack" in said(reset) and await stored(duel) is None
    again = await mod.slash(duel.channel, "apeiron pack reset")
    assert "already" in said(again)
    cards = await duel.alice.slash(duel.channel, "apeiron cards")
    assert "Sentinel" in cards.response.embeds[0].fields[0].name


async def test_a_player_who_is_not_a_moderator_is_refused(duel, discord_locale):
    refused = await upload(duel.alice, duel, COMMUNITY)
    assert refused.ephemeral and "Only moderators" in said(refused)
    discord_locale(duel.bob, "ja")
    refused = await duel.bob.slash(duel.channel, "apeiron pack reset")
    assert "モデレーター" in said(refused)
    assert await stored(duel) is None


# One bad field in each of the first three units: (the unit's number, the text, its breakage).
BROKEN = {
    "hp": (1, "hp = 7\n", "hp = 0\n"),  # outside its range
    "flying": (2, "flying = false\n", 'flying = "no"\n'),  # not a boolean
    "armor": (3, "grave_turns = 0\n", "grave_turns = 0\narmor = 3\n"),  # an unknown key
}


def broken(*which: str, text: str = COMMUNITY) -> str:
    for name in which:
        unit, old, new = BROKEN[name]
        start = 0
        for _ in range(unit):
            start = text.index("[[unit]]", start) + 1
        at = text.index(old, start)
        text = text[:at] + new + text[at + len(old) :]
    return text


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_bad_pack_names_every_bad_field_and_loads_nothing(duel, discord_locale, lang):
    mod = moderator(duel)
    if lang == "ja":
        discord_locale(mod, "ja")
    await upload(mod, duel, COMMUNITY)
    before = await stored(duel)
    result = await upload(mod, duel, broken("hp", "flying", "armor"))
    text = said(result)
    assert result.ephemeral
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    assert len(lines) == 3, text
    if lang == "en":
        assert "Problems found: 3." in text
        assert "unit[1] u01: hp is 0, outside 1–99." in text
        assert "unit[2] u02: flying must be true or false." in text
        assert "unknown key armor" in text
    else:
        assert "読み込めませんでした（問題3件）" in text
        assert "unit[1] u01：hpが0です。1〜99の範囲にしてください。" in text
        assert "unit[2] u02：flyingはtrueかfalseでなければなりません。" in text
        assert "不明なキーarmor" in text
    # Nothing half-loaded: the server's pack is the one it had.
    assert await stored(duel) == before


@pytest.mark.parametrize(
    ("text", "en", "ja"),
    [
        ('[pack\nid = "x"', "not valid TOML", "TOMLとして読めません"),
        (
            COMMUNITY.replace('"u01", "u03"', '"u01", "u99"', 1),
            "preset[1] starter-a: units names u99, which is not in the pack",
            "preset[1] starter-a：unitsのu99はパックにありません",
        ),
        (
            COMMUNITY.replace('kind = "forest"', 'kind = "grass"', 1),
            "not a layout of a grass panel",
            "草原パネルの配置ではありません",
        ),
        (
            COMMUNITY.replace('effect = "push"', 'effect = "teleport"', 1),
            "effect cannot be teleport",
            "effectにteleportは使えません",
        ),
    ],
)
async def test_each_kind_of_bad_field_is_one_localized_line(duel, discord_locale, text, en, ja):
    mod = moderator(duel)
    assert en in said(await upload(mod, duel, text))
    discord_locale(mod, "ja")
    assert ja in said(await upload(mod, duel, text))
    assert await stored(duel) is None


async def test_too_big_not_utf8_and_too_few_cards(duel):
    mod = moderator(duel)
    big = "# padding\n" * (packlib.MAX_BYTES // 10 + 10) + COMMUNITY
    assert "larger than 256 KB" in said(await upload(mod, duel, big))
    assert "not UTF-8" in said(await upload(mod, duel, "名前".encode("shift_jis")))
    # A hand-made record's tiny pack is fine in a record, not as a server's pack.
    head = COMMUNITY.index("[[unit]]")
    tiny = COMMUNITY[:head]  # no units, chest cards, panels or presets at all
    assert "panels" in said(await upload(mod, duel, tiny))
    assert await stored(duel) is None


# --- games on the server's pack ------------------------------------------------------------------


async def export(duel: Any) -> dict[str, Any]:
    # the export draws every step's board for its viewer (deferred first): seconds when busy
    duel.env.settle_timeout = 60.0
    result = await duel.alice.slash(duel.channel, "game export", game=duel.game_id)
    data: dict[str, Any] = json.loads(await result.response.attachments[0].read())
    return data


async def test_a_challenge_on_the_servers_pack_plays_to_the_end_and_replays(duel):
    mod = moderator(duel)
    await upload(mod, duel, COMMUNITY)
    await start(duel)
    s = await state(duel)
    assert s.pack.id == "guild-cup" and s.pack.units["u01"].name_en == "Stalwart"
    await play_by_text(duel, "en", random.Random(8))
    s = await state(duel)
    assert s.ended is not None and s.winner in "AB"
    record = await export(duel)
    assert record["options"]["pack"]["pack"]["id"] == "guild-cup"
    assert record["options"]["pack_hash"] == packlib.loads(COMMUNITY).hash
    assert [c.what for c in verify(record) if not c.ok] == []
    # The record is the replay: its own pack, whatever the server uses by then.
    await mod.slash(duel.channel, "apeiron pack reset")
    assert [c.what for c in verify(record) if not c.ok] == []


async def test_a_game_keeps_its_pack_when_the_servers_pack_changes(duel):
    mod = moderator(duel)
    await upload(mod, duel, COMMUNITY)
    await start(duel)
    rng = random.Random(9)
    await play_by_text(duel, "en", rng, until=lambda s: s.step == rules.PLAY)
    # Mid-game, the server's pack changes twice: another pack, then back to the starter.
    assert "Guild Cup II" in said(await upload(mod, duel, SECOND))
    s = await state(duel)
    assert s.pack.hash == packlib.loads(COMMUNITY).hash
    await mod.slash(duel.channel, "apeiron pack reset")
    await play_by_text(duel, "en", rng)
    s = await state(duel)
    assert s.ended is not None and s.pack.units["u01"].hp == 7  # the pack it began with
    record = await export(duel)
    assert record["options"]["pack"]["pack"]["name_en"] == "Guild Cup"
    assert [c.what for c in verify(record) if not c.ok] == []
    # A new challenge takes the server's pack of now (the starter).
    assert (await duel.bot.get_cog("ApeironCog").server_pack(duel.guild.id)).id == "starter"


# --- hostile uploads (issue 31) ------------------------------------------------------------------

# TOML that breaks a parser rather than a check: nesting thousands deep, a key of thousands of
# parts, a number of thousands of digits.
BOMBS = {
    "arrays 1,000 deep": "x = " + "[" * 1000 + "]" * 1000,
    "inline tables 400 deep": "x = " + "{ a = " * 400 + "1" + " }" * 400,
    "a 5,000-part dotted key": "a" + ".a" * 4999 + " = 1",
    "a 5,000-part table header": "[a" + ".a" * 4999 + "]\nx = 1",
    "a 5,000-digit integer": "x = " + "9" * 5000,
    "a 4,000-digit integer": "x = " + "9" * 4000,
}
HEAD = '[pack]\nid = "tiny"\nversion = 1\nname_en = "Tiny"\nname_ja = "ちいさな"\n'


def messages_of(result: Any) -> list[Any]:
    return [m for m in [result.response, *result.followups] if m is not None and m.content]


def refusal_lines(result: Any) -> list[str]:
    """The refusal's one message, checked to be one: its lines."""
    (message,) = messages_of(result)
    assert len(message.content) <= 2000
    return str(message.content).splitlines()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("bomb", list(BOMBS))
async def test_a_toml_bomb_is_refused_in_one_localized_line(duel, discord_locale, bomb, lang):
    mod = moderator(duel)
    if lang == "ja":
        discord_locale(mod, "ja")
    result = await upload(mod, duel, BOMBS[bomb])
    lines = refusal_lines(result)
    assert "Something went wrong" not in said(result) and "問題が発生" not in said(result)
    head, *bullets = lines
    assert ("Problems found: 1." in head) if lang == "en" else ("問題1件" in head), lines
    (line,) = bullets
    assert line.startswith("• ") and len(line) < 200, line
    if lang == "ja":
        assert not any(word in line for word in ("nest", "digits", "number", "TOML: ")), line
    assert await stored(duel) is None


async def test_a_refusal_clips_what_it_quotes_to_one_short_message(duel):
    """Ten ids of 25,000 characters each made a refusal of 250 KB (130 follow-ups)."""
    units = "".join(f'[[unit]]\nid = "{str(i) * 25_000}"\n' for i in range(10))
    result = await upload(moderator(duel), duel, HEAD + units)
    lines = refusal_lines(result)
    assert sum(len(line) for line in lines) < 2000, len("".join(lines))
    bullets = [line for line in lines if line.startswith("• ")]
    assert len(bullets) == 10 and all(len(line) < 150 for line in bullets), bullets
    assert "unit[1] 000" in bullets[0] and "…" in bullets[0]
    assert await stored(duel) is None


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_card_name_is_one_line(duel, discord_locale, lang):
    """A chest card named ``x\\n🏆 **A wins!**`` would print a fake result line in the channel."""
    mod = moderator(duel)
    if lang == "ja":
        discord_locale(mod, "ja")
    text = COMMUNITY.replace('name_en = "Tonic"', 'name_en = "x\\n🏆 **A wins!**"', 1)
    assert text != COMMUNITY
    lines = refusal_lines(await upload(mod, duel, text))
    assert not any(line.startswith("🏆") for line in lines), lines
    (line,) = [line for line in lines if line.startswith("• ")]
    if lang == "en":
        assert "chest[1] i01: name_en must be one line" in line, line
    else:
        assert "chest[1] i01：name_enは1行" in line, line
    assert await stored(duel) is None


def live_packs() -> int:
    """Apeiron packs still in memory, the starter's included."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, packlib.Pack))


async def test_forty_servers_packs_do_not_stay_in_memory(duel):
    """Every stored pack shown was parsed and kept until a restart (0.5-0.8 MB each)."""
    mod = moderator(duel)
    before = live_packs()
    for n in range(40):
        text = COMMUNITY.replace('name_en = "Guild Cup"', f'name_en = "Guild Cup {n}"', 1)
        assert f"Guild Cup {n}" in said(await upload(mod, duel, text))
        assert f"Guild Cup {n}" in said(await mod.slash(duel.channel, "apeiron pack show"))
    assert live_packs() - before <= packs.CACHE_SIZE
    # The latest is still kept: showing it again parses nothing.
    kept = live_packs()
    await mod.slash(duel.channel, "apeiron pack show")
    assert live_packs() == kept
