"""SimCord: ``/privacy export`` and ``/privacy forget`` by real users, in English and Japanese
(issue 37).

The export is a private JSON attachment in a server and in DMs. Forgetting is refused while the
player sits in a running game (the reply names it and the ways out), and asks for a button
press otherwise; a forgotten player's finished game still verifies (the record exported and run
through ``python -m bot verify``), and the same record tampered with fails.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot import privacy
from bot.__main__ import main as cli
from bot.i18n import t
from tests.cogs.game.sim import setup_duel, start_duel


@pytest.fixture
def duel(simcord_env: Any, sim_clock: Any) -> Any:
    return setup_duel(simcord_env, sim_clock)


def moderator(duel: Any) -> Any:
    role = duel.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    return duel.guild.add_member(duel.env.create_user("mod"), roles=[role])


async def play_turn(duel: Any) -> None:
    await duel.alice.send_dm("stay none")
    await duel.bob.send_dm("stay none")


async def exported(actor: Any, where: Any = None) -> tuple[str, dict[str, Any]]:
    asking = actor.slash(where, "privacy export") if where else actor.slash("privacy export")
    result = await asking
    assert result.ephemeral
    (attachment,) = result.response.attachments
    assert attachment.filename == f"privacy-{actor.id}.json"
    return str(result.response.content), json.loads(await attachment.read())


def verifies(tmp_path: Path, record: dict[str, Any], capsys: Any) -> bool:
    path = tmp_path / f"{record['game_id']}.json"
    path.write_text(json.dumps(record, ensure_ascii=False), "utf-8")
    ok = cli(["verify", str(path)]) == 0
    capsys.readouterr()
    return ok


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_export_in_a_server_and_in_dms(duel: Any, discord_locale: Any, locale: str) -> None:
    discord_locale(duel.alice, locale)
    discord_locale(duel.alice_dm, locale)
    await start_duel(duel)
    await play_turn(duel)
    text, data = await exported(duel.alice, duel.channel)
    lang = "ja" if locale == "ja" else "en"
    expected = t(
        lang, "privacy.export.done", file=f"privacy-{duel.alice.id}.json",
        format=privacy.EXPORT_FORMAT, date=data["exported_at"][:10], games=1, leagues=0,
        ledger=0, ratings=0, seasons=0, handovers=0, absences=0, misses=0, offers=0,
    )  # fmt: skip
    assert text == expected
    (game,) = data["games"]
    assert (game["game"], game["seat"], game["status"], game["ruleset"]) == (
        duel.game_id, "A", "active", "arena",
    )  # fmt: skip
    assert [o["text"] for o in game["your_orders"]] == ["stay none"]
    assert data["user_id"] == str(duel.alice.id) and data["preferences"]["language"]
    _, again = await exported(duel.alice_dm)  # in DMs too
    assert again["games"] == data["games"]


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_forget_is_refused_in_a_running_game_until_it_ends(
    duel: Any, discord_locale: Any, locale: str, tmp_path: Path, capsys: Any
) -> None:
    lang = "ja" if locale == "ja" else "en"
    discord_locale(duel.alice, locale)
    await start_duel(duel)
    await play_turn(duel)
    refused = await duel.alice.slash(duel.channel, "privacy forget")
    assert refused.ephemeral and not refused.response.components
    games = f"{duel.game_id} (<#{duel.channel.id}>)"
    assert refused.response.content == "⚠️ " + t(lang, "privacy.forget.refused", games=games)
    assert ("/ゲーム 交代" if lang == "ja" else "/game substitute") in refused.response.content

    await duel.alice.slash(duel.channel, "game resign", confirm=True)
    record = await duel.bot.table.export(duel.game_id)
    asked = await duel.alice.slash(duel.channel, "privacy forget")
    assert asked.response.content == t(lang, "privacy.forget.ask")
    with pytest.raises(SetupError):  # ephemeral: nobody else can even see the button
        await duel.bob.click(asked.response, label=t(lang, "privacy.forget.button"))
    assert (await duel.bot.table.game(duel.game_id)).names["A"] == "alice", "nothing yet"
    done = await duel.alice.click(asked.response, label=t(lang, "privacy.forget.button"))
    assert done.response.content == t(lang, "privacy.forget.done", games=1, leagues=0)
    assert not done.response.components

    forgotten = await duel.bot.table.export(duel.game_id)
    assert forgotten["players"] == {"A": "Player A", "B": "bob"}
    assert forgotten["players_digest"] == record["players_digest"]
    assert str(duel.alice.id) not in json.dumps(forgotten)
    assert verifies(tmp_path, forgotten, capsys)
    tampered = copy.deepcopy(forgotten)
    tampered["players"]["B"] = "mallory"
    assert not verifies(tmp_path, tampered, capsys)
    _, left = await exported(duel.alice, duel.channel)
    assert left["games"] == [] and left["preferences"]["dm_channel"] is None
    assert left["preferences"]["language"] is None, "the confirming click stored nothing again"


async def test_a_substituted_player_may_forget_while_the_game_goes_on(
    duel: Any, discord_locale: Any, tmp_path: Path, capsys: Any
) -> None:
    discord_locale(duel.bob, "ja")
    await start_duel(duel)
    await play_turn(duel)
    refused = await duel.bob.slash(duel.channel, "privacy forget")
    assert "/ゲーム 交代" in refused.response.content
    carol = duel.guild.add_member(duel.env.create_user("carol"))
    mod = moderator(duel)
    handed = await mod.slash(duel.channel, "game substitute", seat="B", new_player=carol)
    assert handed.ephemeral and f"<@{carol.id}>" in str(handed.response.content)

    asked = await duel.bob.slash(duel.channel, "privacy forget")
    assert asked.response.content == t("ja", "privacy.forget.ask")
    cancelled = await duel.bob.click(asked.response, label="やめる")
    assert cancelled.response.content == t("ja", "privacy.forget.cancelled")
    asked = await duel.bob.slash(duel.channel, "privacy forget")
    done = await duel.bob.click(asked.response, label="消去する")
    assert done.response.content == t("ja", "privacy.forget.done", games=1, leagues=0)

    game = await duel.bot.table.game(duel.game_id)
    assert game.status == "active" and game.names["B"] == "carol"
    await carol.slash(duel.channel, "game resign", confirm=True)
    record = await duel.bot.table.export(duel.game_id)
    assert record["players"] == {"A": "alice", "B": "Player B"}
    assert [h["from"] for h in record["handovers"]] == ["Player B"]
    assert verifies(tmp_path, record, capsys)
    again = await duel.bob.slash(duel.channel, "privacy forget")
    done = await duel.bob.click(again.response, label="消去する")
    assert done.response.content == t("ja", "privacy.forget.nothing")
