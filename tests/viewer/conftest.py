"""Fixtures of the viewer's tests: seeded demo records of every ruleset (played once per session),
a mid-game export, and one headless Chromium per module.

The browser is Debian's ``chromium`` driven by Playwright's Python package (its own browser
download is not used). Where either is missing the browser tests are skipped with the reason;
``PBP_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) makes that a failure, as ``PBP_REQUIRE_POSTGRES``
does for the PostgreSQL half of the storage tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot import registry
from bot.demo import DEMO_PLAYERS, demo_entropy, play
from bot.storage import SqliteRepository
from bot.table import Player, Table

CHROMIUM = os.environ.get("PBP_CHROMIUM", "/usr/bin/chromium")
# Short seeded games, one per ruleset (Esper: five seats, its shortest demo among the first seeds).
DEMOS = {
    "arena": (7, None),
    "tactics": (7, None),
    "dungeon": (7, None),
    "apeiron": (7, None),
    "esper": (1, 5),
}


def browser_required() -> bool:
    return os.environ.get("PBP_REQUIRE_BROWSER", "").strip() not in ("", "0")


@pytest.fixture(scope="session")
def demo_records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each ruleset's seeded demo, played through the real table and exported at its end."""
    out = tmp_path_factory.mktemp("demos")
    records = {}
    for ruleset, (seed, players) in DEMOS.items():
        path = out / f"{ruleset}.json"
        asyncio.run(play(ruleset, out=out / ruleset, seed=seed, record=path, players=players))
        shutil.rmtree(out / ruleset)  # its boards: the viewer draws its own
        records[ruleset] = json.loads(path.read_text("utf-8"))
    return records


# The substitute who takes seat B of the table's game (exports_of) mid-game.
SUBSTITUTE = Player(2000, "Substitute")


async def exports_of(
    ruleset: str, seed: int, after: int, hand_over: int | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A seeded game's export after ``after`` steps (the game goes on), and at its end; with
    ``hand_over``, seat B is handed to :data:`SUBSTITUTE` once that many steps were played."""
    spec = registry.get(ruleset)
    ai = spec.demo_player.load() if spec.demo_player else None
    assert ai is not None
    rng = random.Random(seed)
    now = [1_800_000_000.0]
    with tempfile.TemporaryDirectory() as tmp:
        repo = SqliteRepository(Path(tmp) / "g.sqlite3")
        await repo.open()
        try:
            table = Table(repo, clock=lambda: now[0], entropy=demo_entropy(seed))
            seats = spec.seats.for_demo()
            names = DEMO_PLAYERS["en"]
            seated = [Player(1000 + i, names[i]) for i in range(len(seats))]
            game = await table.challenge(
                ruleset, guild_id=None, channel_id=1, players=seated, turn_seconds=None
            )
            for player in seated[1:]:
                game = await table.accept(game.id, player.user_id)
            midgame: dict[str, Any] = {}
            for step in range(2000):
                game = await table.game(game.id)
                if step == after:
                    midgame = await table.export(game.id)
                if game.status != "active":
                    break
                if step == hand_over:
                    await table.substitutes.substitute(game.id, "B", SUBSTITUTE)
                    game = await table.game(game.id)
                state = spec.engine.from_json(game.state or {})
                for seat in spec.engine.awaiting(state):
                    await table.submit(game.id, game.user_of(seat), ai.choose(state, seat, rng))
                now[0] += 60
            return midgame, await table.export(game.id)
        finally:
            await repo.close()


@pytest.fixture(scope="session")
def japanese_demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The arena's seeded demo played in Japanese (its players have Japanese names)."""
    out = tmp_path_factory.mktemp("demo-ja")
    path = out / "arena.json"
    game = play("arena", out=out / "boards", seed=7, lang="ja", record=path)
    # In a thread of its own: a module's browser driver may run an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, game).result()
    record: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return record


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests (skipped, or failed under
    ``PBP_REQUIRE_BROWSER=1``, where there is none)."""
    reason = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "Playwright's Python package is not installed (pip install -e '.[test]')"
    if reason is None and not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if reason is not None:
        if browser_required():
            pytest.fail(f"PBP_REQUIRE_BROWSER is set but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()
