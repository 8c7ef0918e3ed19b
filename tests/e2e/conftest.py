"""Fixtures for end-to-end tests: a fake Discord on loopback and the real bot process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess, Table
from tests.fakediscord import FakeDiscord

ID_START = 10**17  # deterministic ids: two runs with the same setup compare equal
# Players here answer within milliseconds, so Discord's 5-per-5-s channel buckets would make a
# game last minutes; tests of the real buckets pass ``rate_limits=None`` (Discord's defaults).
FAST_LIMITS = {"POST /channels/{}/messages": (50, 1.0), "PATCH /channels/{}/messages/{}": (50, 1.0)}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord(id_start=ID_START, rate_limits=FAST_LIMITS).start()
    yield server
    await server.stop()


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path)
    yield process
    await process.stop()


@pytest.fixture
def table(fake: FakeDiscord, bot: BotProcess) -> Table:
    return Table(fake, bot)
