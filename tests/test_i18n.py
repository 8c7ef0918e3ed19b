"""Catalogues (bot/i18n): both languages complete, placeholders consistent, every key the code uses
exists, and the slash commands carry Japanese names and descriptions."""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import _SOURCES, LANGS, catalogue, missing_keys, normalize_lang, t
from bot.i18n.translator import CatalogueTranslator
from cogs.arena import rules as arena_rules

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
EN, JA = catalogue("en"), catalogue("ja")
# A string literal shaped like a key: dotted lower-case words ("arena.reject.wall").
KEY_LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']""")
# Literals of that shape that are not message keys (file names, modules, formats).
NOT_KEYS = re.compile(r"\.(py|json|sql|png|txt|sqlite3|ttf|otf|ttc|toml)$|^(bot|cogs|discord)\.")


def placeholders(template: str) -> set[str]:
    """The parameters a template needs from its caller (``{cmd:game.status}``, a command's name,
    ``t`` fills itself)."""
    return {
        re.split(r"[.\[]", field)[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field is not None and field != "cmd"
    }


# --- the catalogues ----------------------------------------------------------------------------


def test_same_keys_in_both_languages() -> None:
    assert missing_keys() == {}
    assert set(EN) == set(JA)
    assert len(EN) > 100


def test_each_catalogue_file_has_a_twin() -> None:
    for folder in _SOURCES:
        for path in folder.glob("*.en.json"):
            twin = path.with_name(path.name.replace(".en.json", ".ja.json"))
            assert twin.exists(), twin
            assert (
                json.loads(path.read_text("utf-8")).keys()
                == json.loads(twin.read_text("utf-8")).keys()
            ), path.name


def test_placeholders_match_per_key() -> None:
    mismatched = {
        key: (placeholders(EN[key]), placeholders(JA[key]))
        for key in EN
        if placeholders(EN[key]) != placeholders(JA[key])
    }
    assert mismatched == {}


def test_templates_are_well_formed_and_not_blank() -> None:
    for lang in LANGS:
        for key, template in catalogue(lang).items():
            assert isinstance(template, str) and template.strip(), (lang, key)
            for _, field, _, _ in string.Formatter().parse(template):  # raises on a stray "{"
                # t() passes keywords only: "{}" or "{0}" would raise IndexError at run time
                assert field is None or field.isidentifier(), (lang, key, field)


def test_japanese_is_japanese() -> None:
    """A ja entry copied from English by mistake (identical and with Latin words) is a bug."""
    suspicious = [
        k
        for k in JA
        if JA[k] == EN[k]
        and re.search(r"[A-Za-z]{4,} [A-Za-z]{4,}", re.sub(r"\{[^}]*}", "", EN[k]))
    ]
    assert suspicious == []


def test_t_formats_and_falls_back() -> None:
    assert t("ja-JP", "roll.too_many_dice", limit=100) == JA["roll.too_many_dice"].format(limit=100)
    assert t("fr", "roll.too_many_dice", limit=100) == EN["roll.too_many_dice"].format(limit=100)
    assert t("en", "no.such.key") == "no.such.key"
    assert normalize_lang("en-US") == "en" and normalize_lang("ja") == "ja"
    assert normalize_lang(None) == "en"


# --- keys the code uses ------------------------------------------------------------------------


def literal_keys() -> Iterator[tuple[Path, int, str]]:
    namespaces = {key.split(".")[0] for key in EN}
    for path in SOURCES:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            for match in KEY_LITERAL.finditer(line):
                key = match.group(1)
                if key.split(".")[0] in namespaces and not NOT_KEYS.search(key):
                    yield path.relative_to(ROOT), number, key


def test_every_key_literal_in_the_code_exists() -> None:
    found = list(literal_keys())
    assert len(found) > 50  # the scan does find the keys
    missing = [(str(p), n, k) for p, n, k in found if k not in EN]
    assert missing == []


def _calls_with_keys() -> Iterator[tuple[Path, int, str, set[str]]]:
    """``t(lang, "key", a=…)``, ``RuleError("key", a=…)`` and the like, with literal keyword names.

    Module-level string constants (``R_WALL = "arena.reject.wall"``) are followed.
    """
    for path in SOURCES:
        tree = ast.parse(path.read_text("utf-8"))
        constants = {
            node.targets[0].id: node.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords):
                continue  # **params: nothing to check statically
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    key = arg.value
                elif isinstance(arg, ast.Name):
                    key = constants.get(arg.id)
                else:
                    continue
                if key in EN:
                    given = {k.arg for k in node.keywords if k.arg is not None}
                    for keyword in node.keywords:  # a Choice's label fills ``params={...}``
                        if keyword.arg == "params" and isinstance(keyword.value, ast.Dict):
                            given |= {
                                k.value for k in keyword.value.keys if isinstance(k, ast.Constant)
                            }
                    yield path.relative_to(ROOT), node.lineno, key, given
                    break


def test_every_call_passes_the_placeholders_its_message_needs() -> None:
    calls = list(_calls_with_keys())
    assert len(calls) > 50
    short = [
        (str(path), line, key, lang, sorted(placeholders(catalogue(lang)[key]) - given))
        for path, line, key, given in calls
        for lang in LANGS
        if not placeholders(catalogue(lang)[key]) <= given
    ]
    assert short == []


def test_keys_built_at_runtime_exist() -> None:
    # f"status.{row.status}" for every status the schema allows
    schema = (ROOT / "bot/storage/migrations/001_initial.sql").read_text("utf-8")
    statuses = re.search(r"status IN \(([^)]*)\)", schema)
    assert statuses is not None
    for status in re.findall(r"'(\w+)'", statuses.group(1)):
        assert f"status.{status}" in EN
    # button labels of every move and turn, and the reasons a move may be disabled
    state = arena_rules.new_game("g", ["A", "B"], {}, None)  # type: ignore[arg-type]
    for group in arena_rules.choices(state, "A"):
        assert group.label_key in EN
        for choice in group.choices:
            assert choice.label_key in EN
            assert choice.reason_key is None or choice.reason_key in EN
    # challenge buttons
    for action in ("accept", "decline"):
        assert f"challenge.{action}" in EN
    # every event type the arena engine emits has a sentence
    source = (ROOT / "cogs/arena/rules.py").read_text("utf-8")
    emitted = set(re.findall(r"""(?:emit\(\s*|Event\(\s*)["'](\w+)["']""", source))
    emitted |= {f"turn_{turn}" for turn in arena_rules.TURNS if turn != "none"}
    assert {"combat", "push", "game_over", "turn_left"} <= emitted
    assert sorted(e for e in emitted if f"arena.event.{e}" not in EN) == []
    for facing in arena_rules.FACING_NAMES:
        assert f"arena.facing.{facing}" in EN


# --- slash commands ----------------------------------------------------------------------------


def _commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    from cogs.arena.cog import ArenaCog
    from cogs.game.cog import GameCog

    found = []
    for cog_class in (GameCog, ArenaCog):
        cog = cog_class(None)  # type: ignore[arg-type]
        found.extend(cog.__cog_app_commands__)
    return found


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    result = [await cmd.get_translated_payload(tree, translator) for cmd in _commands()]
    await client.close()
    return result


def _walk(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield payload
    for option in payload.get("options", []):
        yield from _walk(option)
        yield from option.get("choices", [])


SUBCOMMAND, GROUP = 1, 2  # option types that are commands; the others are parameters


def _is_command(item: dict[str, Any], top: bool) -> bool:
    return top or item.get("type") in (SUBCOMMAND, GROUP)


def test_commands_have_japanese_names_and_descriptions(payloads) -> None:
    names = {p["name"] for p in payloads}
    assert {"game", "verify", "config", "order", "roll", "arena"} <= names
    commands = parameters = 0
    for payload in payloads:
        for item in _walk(payload):
            if "value" in item:  # a choice: its name is what the user reads
                assert item.get("name_localizations", {}).get("ja"), item["name"]
                continue
            assert item.get("description_localizations", {}).get("ja"), item["name"]
            assert item.get("name_localizations", {}).get("ja"), item["name"]
            if _is_command(item, item is payload):
                commands += 1
            else:
                parameters += 1
    assert commands > 15 and parameters > 10


def test_japanese_names_follow_discord_rules(payloads) -> None:
    """Names 1-32 characters without spaces or upper case, descriptions 1-100; no two siblings
    share a Japanese name (Discord refuses the whole sync)."""

    def check(items: list[dict[str, Any]], top: bool) -> None:
        commands = [i for i in items if _is_command(i, top)]
        # Siblings (subcommands of a group, options of a command) need distinct names.
        ja_names = [i["name_localizations"]["ja"] for i in items if "value" not in i]
        assert len(ja_names) == len(set(ja_names)), ja_names
        for item in items:
            assert 1 <= len(item["description_localizations"]["ja"]) <= 100
            for choice in item.get("choices", []):
                assert 1 <= len(choice["name_localizations"]["ja"]) <= 100
        for item in items:
            name = item["name_localizations"]["ja"]
            assert 1 <= len(name) <= 32 and name == name.lower(), name
            assert re.fullmatch(r"[-_\w]+", name), name
        for item in commands:
            check(item.get("options", []), top=False)

    check(payloads, top=True)


async def test_translator_uses_the_catalogue_for_japanese_only() -> None:
    translator = CatalogueTranslator()
    string_ = app_commands.locale_str("game", key="cmd.game")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(string_, discord.Locale.japanese, context) == JA["cmd.game"]
    assert await translator.translate(string_, discord.Locale.american_english, context) is None
    no_key = app_commands.locale_str("game")
    assert await translator.translate(no_key, discord.Locale.japanese, context) is None
