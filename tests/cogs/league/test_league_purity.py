"""The league core is pure: it imports neither discord nor aiosqlite nor the storage layer; and
no file of the league imports or names a ruleset."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bot import registry
from tests.test_purity import ROOT, forbidden, import_closure, module_name

# The cog adapts Discord, the service keeps leagues in storage, the demo plays a season on the
# service and a SQLite file, and __init__ loads the cog lazily; the rest is the pure core.
CORE = sorted(
    p
    for p in (ROOT / "cogs/league").glob("*.py")
    if p.stem not in ("__init__", "cog", "service", "demo")
)


def test_the_core_is_there() -> None:
    names = {p.stem for p in CORE}
    assert {"ledger", "draft", "ante", "standings", "ratings", "swiss", "cup"} <= names


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_league_core_imports_no_discord_nor_storage(path: Path) -> None:
    closure = import_closure(path)
    bad = {mod: via for mod, via in closure.items() if forbidden(mod)}
    assert bad == {}, f"{module_name(path)} pulls in {bad}"


# --- no ruleset named ------------------------------------------------------------------------
# A league is ruleset-agnostic (issue 33): what it does with a game comes from that ruleset's
# ``RULESET.league``, found through bot.registry. No file of cogs/league/ imports a ruleset's
# package, nor names a ruleset in its code (identifiers and strings; docstrings and comments may
# say what the digests say).

LEAGUE_FILES = sorted((ROOT / "cogs/league").rglob("*.py"))


def ruleset_names() -> dict[str, str]:
    """Every ruleset the registry finds: its key -> its package (where its engine lives)."""
    found = {}
    for key, spec in registry.rulesets().items():
        engine = spec.engine
        module = engine.__name__ if isinstance(engine, ModuleType) else type(engine).__module__
        found[key] = module.rpartition(".")[0] or module
    return found


def _words(identifier: str) -> set[str]:
    """An identifier's words, lower case: ``TacticsRosters`` and ``tactics_pool`` hold
    ``tactics``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", identifier)
    return {w.lower() for w in spaced.split("_") if w}


def _identifiers(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, node.asname or node.name


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """String constants, but the bare ones (docstrings)."""
    bare = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in bare:
            yield node.lineno, node.value


def _imports_of(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{a.name}") for a in node.names)


def named_rulesets(source: str, rulesets: dict[str, str]) -> list[tuple[int, str]]:
    """Where ``source`` imports a ruleset's package or names a ruleset in code: (line, what)."""
    tree = ast.parse(source)
    found = []
    for line, module in _imports_of(tree):
        for package in rulesets.values():
            if module == package or module.startswith(package + "."):
                found.append((line, f"imports {module}"))
    for line, name in _identifiers(tree):
        found.extend((line, f"names {name}") for key in rulesets if key in _words(name))
    for line, text in _strings(tree):
        for key in rulesets:
            if re.search(rf"(?<![a-z]){re.escape(key)}(?![a-z])", text, re.IGNORECASE):
                found.append((line, f"says {text!r}"))
    return sorted(set(found))


def test_the_rulesets_are_known() -> None:
    found = ruleset_names()
    assert {"arena", "tactics"} <= set(found)
    assert found["tactics"] == "cogs.tactics" and found["arena"] == "cogs.arena"


def test_the_check_finds_a_ruleset_named() -> None:
    """A check on the checker: each way of naming a ruleset is found, a docstring is not."""
    source = '''
"""Tactics leagues are described here, which is fine."""
from cogs.tactics.units import pool
import cogs.arena.rules
from cogs import tactics
from cogs.league.ledger import Roster


class TacticsRosters:
    """Also fine: tactics."""


def tactics_pool(arena_hexes: int) -> str:
    return f"{pool}" + "tactics"


ROSTER = {"Arena": 1}
'''
    found = named_rulesets(source, ruleset_names())
    lines = {line for line, _ in found}
    assert lines == {3, 4, 5, 9, 13, 14, 17}, found
    assert named_rulesets("from cogs.league import season\nx = 'DP'\n", ruleset_names()) == []


@pytest.mark.parametrize("path", LEAGUE_FILES, ids=lambda p: p.name)
def test_the_league_names_no_ruleset(path: Path) -> None:
    found = named_rulesets(path.read_text("utf-8"), ruleset_names())
    assert found == [], f"{module_name(path)} names a ruleset: {found}"
