"""Background work claimed by one process at a time (issue 21): several "processes" (repositories
and outbox senders of their own) over one database never both post a row, never both handle a
game's deadline, and one holds the league maintenance; a holder that dies or is only slow leaves
its rows to another, and the message still appears once (the Discord nonce). On PostgreSQL a
row enqueued by one process wakes another's sender at once (LISTEN/NOTIFY).

Both backends where both make sense (SQLite runs the same statements under its one writer);
PostgreSQL only for SKIP LOCKED and NOTIFY. PostgreSQL is found as tests/storage finds it
(skipped where no server answers, a failure under ``PBP_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot import faults
from bot.outbox import OutboxSender, discord_nonce
from bot.storage import GameRow, Repository, SeatRow
from bot.table import Table
from tests.storage.backends import Backend, backend  # noqa: F401  (pytest fixture)

POSTGRES_ONLY = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


# --- a Discord that keeps messages by nonce, and a bot around one outbox sender -------------------


@dataclass
class Discordish:
    """Enough of Discord for the outbox: a post with a nonce seen before returns that message."""

    delay: dict[str, float] = field(default_factory=dict)  # holder -> seconds before arriving
    created: list[tuple[int, str, str]] = field(default_factory=list)  # (channel, nonce, content)
    by_nonce: dict[tuple[int, str], int] = field(default_factory=dict)
    attempts: list[tuple[str, str]] = field(default_factory=list)  # (holder, nonce)


class _Message:
    def __init__(self, message_id: int, channel: Any) -> None:
        self.id = message_id
        self.channel = channel


class _Channel(discord.abc.Messageable):
    def __init__(self, discord: Discordish, channel_id: int, holder: str) -> None:
        self.discord, self.id, self.holder = discord, channel_id, holder

    async def send(self, **kwargs: Any) -> _Message:  # type: ignore[override]
        nonce = kwargs["nonce"]
        self.discord.attempts.append((self.holder, nonce))
        await asyncio.sleep(self.discord.delay.get(self.holder, 0.0))
        key = (self.id, nonce)
        if key not in self.discord.by_nonce:
            self.discord.by_nonce[key] = len(self.discord.created) + 1
            self.discord.created.append((self.id, nonce, kwargs.get("content") or ""))
        return _Message(self.discord.by_nonce[key], self)


class _Bot:
    """What OutboxSender reads of the RefereeBot: the table and the channels."""

    def __init__(self, repo: Repository, discord: Discordish) -> None:
        self.table = Table(repo, clock=time.time)
        self.discord = discord
        self.outbox = OutboxSender(self, repo)  # type: ignore[arg-type]

    def get_channel(self, channel_id: int) -> _Channel:
        return _Channel(self.discord, channel_id, self.table.worker)


async def enqueue(repo: Repository, game: str | None, channel: int, text: str) -> int:
    async with repo.transaction() as tx:
        return await tx.enqueue(
            game_id=game,
            kind="channel",
            target_id=channel,
            payload={"lang": "en", "content": text},
            nonce=f"{game}:{text}",
            now=time.time() - 1,
        )


async def insert_games(repo: Repository, count: int, *, due: bool = True) -> list[str]:
    now = time.time()
    ids = []
    async with repo.transaction() as tx:
        for i in range(count):
            game_id = f"g-{i + 1:04d}"
            await tx.insert_game(
                GameRow(
                    game_id,
                    "arena",
                    1,
                    100 + i,
                    "active",
                    {},
                    [SeatRow("A", 1, "a", 0, accepted=True), SeatRow("B", 2, "b", 1)],
                    step_seconds=60,
                    turn_seconds=60,
                    deadline_at=now + (-1 if due else 3600),
                    created_at=now,
                    updated_at=now,
                )
            )
            ids.append(game_id)
    return ids


async def statuses(repo: Repository) -> dict[str, int]:
    found: dict[str, int] = defaultdict(int)
    async with repo.read() as tx:
        for g in range(20):
            for row in await tx.outbox_for_game(f"g-{g + 1}"):
                found[row.status] += 1
    return dict(found)


# --- the outbox --------------------------------------------------------------------------------


async def test_two_processes_draining_one_outbox_never_both_post_a_row(backend: Backend) -> None:  # noqa: F811
    discord = Discordish()
    one, two = await backend.open(), await backend.open()
    bots = [_Bot(one, discord), _Bot(two, discord)]
    # A little network time per post, so that both senders are at work at once.
    discord.delay = {bot.table.worker: 0.003 for bot in bots}
    expected = []
    for n in range(3):
        for g in range(20):
            game = f"g-{g + 1}"
            await enqueue(one if n % 2 else two, game, 500 + g, f"{game} post {n:02d}")
            expected.append(f"{game} post {n:02d}")

    async def work(bot: _Bot) -> int:
        # A worker finds nothing while the other holds every game's next row: it looks again,
        # as a woken or polling sender would.
        sent = 0
        while (await statuses(bot.outbox.repo)).get("pending"):
            sent += await bot.outbox.drain()
            await asyncio.sleep(0.005)
        return sent

    sent = await asyncio.gather(*(work(bot) for bot in bots))

    assert sum(sent) == len(expected) == 60
    nonces = [nonce for _holder, nonce in discord.attempts]
    assert len(nonces) == len(set(nonces)) == 60, "no row was even attempted twice"
    assert sorted(c for _ch, _n, c in discord.created) == sorted(expected)
    assert all(count for count in sent), "both processes posted: the work was shared"
    # Each game's messages appear in the order they were decided, whoever posted them.
    per_channel: dict[int, list[str]] = defaultdict(list)
    for channel, _nonce, content in discord.created:
        per_channel[channel].append(content)
    assert all(posts == sorted(posts) for posts in per_channel.values())
    assert await statuses(one) == {"sent": 60}


@POSTGRES_ONLY
async def test_a_lease_lapsing_while_its_holder_is_only_slow_still_posts_once(
    backend: Backend,  # noqa: F811
) -> None:
    discord = Discordish()
    slow, fast = _Bot(await backend.open(), discord), _Bot(await backend.open(), discord)
    slow.outbox.lease_seconds = 0.3
    discord.delay = {slow.table.worker: 1.0}  # the request reaches Discord a second late
    row_id = await enqueue(slow.outbox.repo, "g-1", 500, "the result")

    first = asyncio.create_task(slow.outbox.drain())
    await asyncio.sleep(0.1)
    assert await fast.outbox.drain() == 0, "the row is claimed: the other process leaves it"
    await asyncio.sleep(0.4)  # the slow holder's lease lapses while its post is on its way
    assert await fast.outbox.drain() == 1
    await first

    assert [holder for holder, _n in discord.attempts] == [slow.table.worker, fast.table.worker]
    assert discord.created == [(500, discord_nonce("g-1:the result"), "the result")]
    async with fast.outbox.repo.read() as tx:
        row = await tx.get_outbox(row_id)
    assert row is not None and row.status == "sent" and row.message_id == 1


@POSTGRES_ONLY
async def test_a_process_that_died_mid_post_leaves_its_row_to_another_which_posts_it_once(
    backend: Backend,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    discord = Discordish()
    dead, alive = _Bot(await backend.open(), discord), _Bot(await backend.open(), discord)
    dead.outbox.lease_seconds = 0.3
    await enqueue(dead.outbox.repo, "g-1", 500, "turn 2")
    await enqueue(dead.outbox.repo, "g-1", 500, "turn 3")

    class Died(BaseException):
        pass

    def point(name: str) -> None:
        if name == "outbox-posted":
            raise Died  # Discord accepted the post; the process dies before marking it sent

    monkeypatch.setattr(faults, "point", point)
    with pytest.raises(Died):
        await dead.outbox.drain()
    monkeypatch.undo()
    assert len(discord.created) == 1
    assert await alive.outbox.drain() == 0, "the dead holder's lease has not lapsed yet"
    await asyncio.sleep(0.35)
    assert await alive.outbox.drain() == 2
    assert [c for _ch, _n, c in discord.created] == ["turn 2", "turn 3"]


@POSTGRES_ONLY
async def test_a_row_enqueued_by_one_process_wakes_the_others_sender_at_once(
    backend: Backend,  # noqa: F811
) -> None:
    discord = Discordish()
    one, two = await backend.open(), await backend.open()
    writer, poster = _Bot(one, discord), _Bot(two, discord)
    await two.listen("outbox", poster.outbox.wake)  # as RefereeBot.setup_hook does
    started = time.monotonic()
    # Nothing drains process 1's outbox and process 2 never polls: only NOTIFY can wake it.
    await enqueue(one, "g-1", 500, "hello")
    while not discord.created and time.monotonic() - started < 5:
        await asyncio.sleep(0.01)
    assert [c for _ch, _n, c in discord.created] == ["hello"]
    assert time.monotonic() - started < 1.0
    assert [h for h, _n in discord.attempts] == [poster.table.worker]
    await poster.outbox.stop()  # its drain marks the row sent: not after the database closes
    del writer


# --- deadlines and maintenance -----------------------------------------------------------------


async def test_due_games_are_claimed_by_one_process_until_released_or_lapsed(
    backend: Backend,  # noqa: F811
) -> None:
    one, two = await backend.open(), await backend.open()
    ids = await insert_games(one, 30)
    await insert_games_not_due(one)
    now = time.time()

    async def claim(repo: Repository, holder: str, until: float) -> list[str]:
        async with repo.transaction() as tx:
            return [g.id for g in await tx.claim_due_games(holder, now, until, 20)]

    first, second = await asyncio.gather(claim(one, "p1", now + 60), claim(two, "p2", now + 60))
    assert not set(first) & set(second), "no game claimed by both"
    assert sorted(first + second) == ids, "every due game (and none that is not due)"
    assert await claim(one, "p3", now + 60) == [], "all held: a third process finds nothing"
    # p1 releases what it handled: another may take those; p2's stay held until they lapse.
    async with one.transaction() as tx:
        await tx.release_games("p1", first)
    assert sorted(await claim(two, "p3", now + 60)) == sorted(first)
    async with one.transaction() as tx:
        lapsed = [g.id for g in await tx.claim_due_games("p4", now + 61, now + 120, 100)]
    assert sorted(lapsed) == ids, "lapsed leases are free"


async def insert_games_not_due(repo: Repository) -> None:
    now = time.time()
    async with repo.transaction() as tx:
        await tx.insert_game(
            GameRow(
                "g-later",
                "arena",
                1,
                99,
                "active",
                {},
                [SeatRow("A", 1, "a", 0, accepted=True)],
                step_seconds=60,
                deadline_at=now + 3600,
                created_at=now,
                updated_at=now,
            )
        )


async def test_league_maintenance_is_held_by_one_process_and_taken_over_when_it_lapses(
    backend: Backend,  # noqa: F811
) -> None:
    one, two = await backend.open(), await backend.open()

    async def take(repo: Repository, holder: str, now: float) -> bool:
        async with repo.transaction() as tx:
            return await tx.take_lease("league-maintenance", holder, now, now + 60)

    results = await asyncio.gather(take(one, "p1", 1000.0), take(two, "p2", 1000.0))
    assert sorted(results) == [False, True]
    holder, other = ("p1", "p2") if results[0] else ("p2", "p1")
    assert await take(one, holder, 1010.0), "the holder renews"
    assert not await take(two, other, 1060.0), "renewed: not lapsed yet"
    assert await take(two, other, 1070.0), "lapsed: the other takes over"
    assert not await take(one, holder, 1080.0)
