"""The table on both backends: a game of hidden information (Sealed Bids, ``tests/hidden_ruleset``)
played to the end with a missed deadline, a resignation and a ``/roll`` chain, on SQLite and on
PostgreSQL; the export verifies and replays, and with the same entropy both backends keep the
same record, byte for byte (so what one stores, the other stores too: ids, JSON, floats,
booleans, 64-bit Discord ids).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Callable, Iterator

import pytest

from bot import registry
from bot.record import verify
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.storage.backends import Backend

SEATS = ("A", "B", "C", "D")
# Discord snowflakes are 64-bit: 2**60 and above exercise PostgreSQL's BIGINT.
USERS = {seat: 1_152_921_504_606_846_976 + i for i, seat in enumerate(SEATS)}
GUILD, CHANNEL = 1_100_000_000_000_000_001, 1_100_000_000_000_000_002

_records: dict[str, str] = {}  # backend -> the export of the same game


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


def entropy() -> Callable[[int], bytes]:
    drawn = itertools.count()

    def derived(size: int) -> bytes:
        return hashlib.sha256(f"pbp-storage:{next(drawn)}".encode()).digest()[:size]

    return derived


async def test_a_game_plays_to_the_end_and_both_backends_keep_the_same_record(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s} 札") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    assert game.status == "active"
    roll = await table.roll_stream(CHANNEL)
    assert (await table.roll_stream(CHANNEL)).committed_before and not roll.committed_before

    # round 1: nobody plays; the deadline passes and the defaults are played
    clock.now += bids.FIRST_ROUND_SECONDS + 1
    assert await table.tick() >= 1
    rng = random.Random(3)
    resigned = False
    while (game := await table.game(game.id)).status == "active":
        if not resigned and game.step >= 2:
            await table.resign(game.id, USERS["D"])  # the others play on
            resigned = True
            continue
        state = bids.from_json(game.state or {})
        for seat in bids.awaiting(state):
            clock.now += 1.5
            await table.submit(game.id, USERS[seat], ai.choose(state, seat, rng))
    assert game.status == "finished" and resigned
    record = await table.export(game.id)
    checks = verify(record)
    assert checks and all(c.ok for c in checks), [c.what for c in checks if not c.ok]
    async with repo.read() as tx:
        assert await tx.games_for_user(USERS["A"], ("finished",))
        outbox = await tx.outbox_for_game(game.id)
    assert outbox and {row.target_id for row in outbox if row.kind == "dm"} <= set(USERS.values())

    _records[backend.name] = json.dumps(record, ensure_ascii=False, sort_keys=True)
    if len(_records) == len(("sqlite", "postgres")):
        assert _records["sqlite"] == _records["postgres"]
