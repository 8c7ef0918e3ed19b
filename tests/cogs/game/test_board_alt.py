"""SimCord: a turn post's board carries its description (Discord's alt text) in the channel's
language, and so does an Apeiron seat's own deployment board in its DM, in the reader's."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.cogs.apeiron.test_flow import DECKS
from tests.cogs.game.sim import Duel, last_dm, setup_duel, turn_posts


@pytest.fixture
def duel(simcord_env: Any, sim_clock: Any) -> Duel:
    return setup_duel(simcord_env, sim_clock)


async def _japanese_channel(duel: Duel) -> None:
    role = duel.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    mod = duel.guild.add_member(duel.env.create_user("mod"), roles=[role])
    await mod.slash(duel.channel, "config language", language="ja")


@pytest.mark.parametrize(
    ("lang", "accept", "expected"),
    [
        ("en", "Accept", "Arena Duel board: Turn 1 (step 1). To move: A alice; B bob."),
        (
            "ja",
            "受ける",
            "アリーナデュエルの盤面：第1ターン（ステップ1）。行動待ち：A alice、B bob。",
        ),
    ],
)
async def test_a_turn_posts_board_has_its_description(
    duel: Duel, lang: str, accept: str, expected: str
) -> None:
    if lang == "ja":
        await _japanese_channel(duel)
    await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob)
    await duel.bob.click(duel.channel.last_message, label=accept)
    (post,) = turn_posts(duel)
    (board,) = post.attachments
    assert board.filename == "board.png"
    assert board.description is not None
    assert board.description.startswith(expected)
    assert "0,2" in board.description and "0,-2" in board.description  # where both stand
    assert len(board.description) <= 1024

    # after a resolution: what changed
    await duel.alice.send_dm("forward left" if lang == "en" else "前進 左を向く")
    await duel.bob.send_dm("stay" if lang == "en" else "待機")
    board = turn_posts(duel)[-1].attachments[0]
    changed = "Changed: A alice moves 0,2 to" if lang == "en" else "変化：A aliceが0,2から"
    assert changed in (board.description or "")


async def test_a_private_board_is_described_in_the_readers_language(
    duel: Duel, discord_locale: Any
) -> None:
    discord_locale(duel.alice, "ja")  # alice's Discord is in Japanese; the channel in English
    await duel.alice.slash(duel.channel, "apeiron challenge", opponent=duel.bob)
    await duel.bob.click(duel.channel.last_message, label="Accept")
    for player, seat in ((duel.alice, "A"), (duel.bob, "B")):
        await player.send_dm(DECKS[seat])
    await duel.bot.outbox.idle()
    boards = {p: last_dm(p).attachments for p in (duel.alice, duel.bob)}
    (mine,) = boards[duel.alice]
    assert mine.description is not None and "席A" in mine.description
    assert "あなたのパネルの列" in mine.description
    (theirs,) = boards[duel.bob]
    assert theirs.description is not None and "Your row of panels" in theirs.description
    assert "seat B" in theirs.description
