"""Japanese command names (issue 35): every command and subcommand of every cog has a Japanese
name of its own, and a text that names a command takes the name from the command tree in the
reader's language (``{cmd:game.status}`` → ``/ゲーム 状況``), never a hard-coded
``/game status``."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.i18n import command_name, t
from bot.i18n.translator import CatalogueTranslator

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted([*ROOT.glob("bot/i18n/locales/*.json"), *ROOT.glob("cogs/*/locales/*.json")])
# Files another change owns for now, which still spell a command out (``/config deadlines``).
SUBCOMMAND, GROUP = 1, 2


def _cogs() -> Iterator[commands.Cog]:
    for path in sorted(ROOT.glob("cogs/*/cog.py")):
        module = importlib.import_module(f"cogs.{path.parent.name}.cog")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, commands.Cog) and cls.__module__ == module.__name__:
                yield cls(MagicMock())  # the commands are built without a running bot


@pytest.fixture(scope="module")
def commands_by_path() -> dict[str, dict[str, Any]]:
    """Every command and subcommand, by its English path (``game.status``)."""
    return asyncio.run(_commands_by_path())


async def _commands_by_path() -> dict[str, dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    found: dict[str, dict[str, Any]] = {}

    def walk(payload: dict[str, Any], path: str, ja: str) -> None:
        path = f"{path}.{payload['name']}" if path else payload["name"]
        ja_name = payload.get("name_localizations", {}).get("ja", "")
        shown = f"{ja} {ja_name}" if ja else f"/{ja_name}"
        found[path] = {"payload": payload, "ja": shown}
        for option in payload.get("options", []):
            if option.get("type") in (SUBCOMMAND, GROUP):
                walk(option, path, shown)

    for cog in _cogs():
        for command in cog.__cog_app_commands__:
            walk(await command.get_translated_payload(tree, translator), "", "")
    await client.close()
    return found


def test_every_command_and_subcommand_has_a_japanese_name(
    commands_by_path: dict[str, dict[str, Any]],
) -> None:
    assert {"apeiron", "apeiron.cards", "game.status", "league.round", "order"} <= set(
        commands_by_path
    )
    unnamed = [
        path
        for path, found in commands_by_path.items()
        if found["payload"].get("name_localizations", {}).get("ja", found["payload"]["name"])
        == found["payload"]["name"]
    ]
    assert unnamed == []


def test_command_name_is_the_trees(commands_by_path: dict[str, dict[str, Any]]) -> None:
    assert command_name("game.status", "ja") == "/ゲーム 状況"
    assert command_name("game.status", "en") == "/game status"
    for path, found in commands_by_path.items():
        assert command_name(path, "ja") == found["ja"], path
        assert command_name(path, "en") == "/" + path.replace(".", " "), path


def _texts() -> Iterator[tuple[str, str, str]]:
    for path in CATALOGUES:
        for key, text in json.loads(path.read_text("utf-8")).items():
            if not key.startswith("cmd."):  # command descriptions are read raw by Discord
                yield path.name, key, text


def test_texts_name_commands_through_the_tree(commands_by_path: dict[str, dict[str, Any]]) -> None:
    used = {
        (name, key, path)
        for name, key, text in _texts()
        for path in re.findall(r"{cmd:([^}]+)}", text)
    }
    assert len(used) > 40
    assert [u for u in used if u[2] not in commands_by_path] == []
    top = "|".join(sorted({p.split(".")[0] for p in commands_by_path}, key=len, reverse=True))
    spelled = re.compile(rf"(?<![\w:/.])/({top})(?![\w/-])")
    hard_coded = [(name, key) for name, key, text in _texts() if spelled.search(text)]
    assert hard_coded == []


def test_a_japanese_text_names_the_japanese_command() -> None:
    assert "`/タクティクス ユニット`" in t("ja", "tactics.dm.roster")
    assert "/tactics units" in t("en", "tactics.dm.roster")
    assert "/アペイロン ルール" in t("ja", "apeiron.dm.help")
