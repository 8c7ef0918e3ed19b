"""The league core is pure: it imports neither discord nor aiosqlite nor the storage layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_purity import ROOT, forbidden, import_closure, module_name

# The cog adapts Discord, the service keeps leagues in storage and __init__ loads the cog lazily;
# the rest is the pure core.
CORE = sorted(
    p for p in (ROOT / "cogs/league").glob("*.py") if p.stem not in ("__init__", "cog", "service")
)


def test_the_core_is_there() -> None:
    names = {p.stem for p in CORE}
    assert {"ledger", "draft", "ante", "standings", "ratings", "swiss", "cup"} <= names


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_league_core_imports_no_discord_nor_storage(path: Path) -> None:
    closure = import_closure(path)
    bad = {mod: via for mod, via in closure.items() if forbidden(mod)}
    assert bad == {}, f"{module_name(path)} pulls in {bad}"
