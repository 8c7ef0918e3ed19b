"""The dungeon AI modules are pure: neither discord nor aiosqlite nor the storage layer, directly
or through any project module they import; and no randomness or clock either."""

from __future__ import annotations

import ast

import pytest

from tests.test_purity import ROOT, forbidden, import_closure

PURE = ["cogs/dungeon/ai.py", "cogs/dungeon/hexes.py", "cogs/dungeon/scenario.py"]


@pytest.mark.parametrize("path", PURE)
def test_no_discord_nor_storage(path: str) -> None:
    closure = import_closure(ROOT / path)
    assert {m: via for m, via in closure.items() if forbidden(m)} == {}


@pytest.mark.parametrize("path", PURE)
def test_no_randomness_nor_clock(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert not names & {"random", "time", "datetime", "secrets", "uuid"}
