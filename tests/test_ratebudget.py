"""Discord's global limit kept by the bot itself (``bot.ratebudget``): never more than 50 grants in
any one-second window, whether one process counts them in memory or several share them in one
PostgreSQL schema; acknowledgements before background posts; interactions never paced."""

from __future__ import annotations

import asyncio
import random
import time

import discord
import pytest

from bot.http import budget_for, paced
from bot.ratebudget import (
    DISCORD_GLOBAL_LIMIT,
    JITTER_SECONDS,
    Budget,
    LocalSlots,
    paced_rate,
    slot_cap,
    slot_seconds,
)
from tests.storage.backends import Backend
from tests.storage.backends import backend as backend  # the pytest fixture

TOKEN = "fake-token"


def busiest_second(times: list[float]) -> int:
    """The most grants in any one-second window (Discord's sliding window)."""
    ordered = sorted(times)
    best = start = 0
    for end, moment in enumerate(ordered):
        while moment - ordered[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def take_all(budget: Budget, count: int, *, foreground: bool = False) -> list[float]:
    times: list[float] = []

    async def one() -> None:
        await budget.acquire(foreground=foreground)
        times.append(time.monotonic())

    await asyncio.gather(*(one() for _ in range(count)))
    return times


def test_the_slot_cap_leaves_room_for_late_arrivals() -> None:
    # Slots of 1/45 s, one grant each: a window of 1 s plus 0.085 s of travel meets 50 of them.
    assert slot_seconds() == 1 / 45 and slot_cap() == 1
    assert slot_cap(DISCORD_GLOBAL_LIMIT, 0.05, 0.1) * 23 <= DISCORD_GLOBAL_LIMIT
    assert slot_cap(DISCORD_GLOBAL_LIMIT, 0.1, 0.1) == 4
    assert slot_cap(1000) == 20  # a raised limit: more grants a slot, 960 a second
    assert slot_cap(10) == 1 and paced_rate(10) < 10  # a lower one: longer slots


def test_the_budget_paces_at_45_of_50_a_second() -> None:
    """The margin the module states: 45 a second sustained, 5 under Discord's 50."""
    assert paced_rate() == pytest.approx(45.0)
    assert DISCORD_GLOBAL_LIMIT - paced_rate() == pytest.approx(5.0)


def saturated_grants(seconds: float, step: float = 0.0005) -> list[float]:
    """Grant times of one process asked for more than it may give, on a simulated clock (a
    request always waiting: the worst case for the limit)."""
    now = [0.0]
    slots = LocalSlots(slot_seconds(), clock=lambda: now[0])
    times: list[float] = []
    while now[0] < seconds:
        granted, _wait = asyncio.run(slots.take(5, slot_cap(), full=slot_cap()))
        times.extend([now[0]] * granted)
        now[0] += step
    return times


def test_the_margin_absorbs_eighty_five_milliseconds_of_travel() -> None:
    """Saturated for 10 simulated seconds: 45 grants a second, and however each request's travel
    to Discord varies within JITTER_SECONDS (85 ms), no one-second window of arrivals holds more
    than 50. Three times the spread could: the margin is what it says, not more."""
    times = saturated_grants(10.0)
    assert len(times) == pytest.approx(450, abs=2)
    rng = random.Random(37)
    for _ in range(20):
        arrivals = [t + rng.uniform(0.0, JITTER_SECONDS) for t in times]
        assert busiest_second(arrivals) <= DISCORD_GLOBAL_LIMIT
    # The worst spread the margin covers, exactly: every other request delayed by the whole of it.
    worst = [t + (JITTER_SECONDS if i % 2 else 0.0) for i, t in enumerate(times)]
    assert busiest_second(worst) <= DISCORD_GLOBAL_LIMIT
    beyond = [t + (3 * JITTER_SECONDS if i < len(times) // 2 else 0.0) for i, t in enumerate(times)]
    assert busiest_second(beyond) > DISCORD_GLOBAL_LIMIT


async def test_one_process_never_exceeds_the_limit_in_any_second() -> None:
    budget = Budget(LocalSlots())
    started = time.monotonic()
    times = await take_all(budget, 130)
    assert busiest_second(times) <= DISCORD_GLOBAL_LIMIT
    # Not far below it either: 45 grants a second (slack for a busy machine).
    assert time.monotonic() - started < 130 / 25
    await budget.close()


async def test_an_acknowledgement_overtakes_a_backlog_of_posts() -> None:
    budget = Budget(LocalSlots())
    posts = asyncio.create_task(take_all(budget, 100))
    await asyncio.sleep(0.3)  # a backlog of some 90 posts, three seconds of them
    asked = time.monotonic()
    await budget.acquire(foreground=True)
    assert time.monotonic() - asked < 0.1  # this slot's kept grant, or the next slot's
    assert not posts.done()
    await posts
    await budget.close()


async def test_a_cancelled_wait_gives_its_grant_to_the_next() -> None:
    budget = Budget(LocalSlots(), cap=1, background_cap=1)
    first = asyncio.create_task(budget.acquire())
    waiting = asyncio.create_task(budget.acquire())
    third = asyncio.create_task(budget.acquire())
    await first
    waiting.cancel()
    await asyncio.wait_for(third, 1.0)
    assert budget.granted == 2
    await budget.close()


@pytest.mark.parametrize(
    ("path", "counts"),
    [
        ("/channels/1/messages", True),
        ("/users/@me/channels", True),
        ("/interactions/123/tok/callback", False),
        ("/webhooks/123/tok/messages/@original", False),
    ],
)
def test_interactions_and_follow_ups_are_exempt(path: str, counts: bool) -> None:
    assert paced(discord.http.Route.BASE + path) is counts
    assert not paced("ws://127.0.0.1:1/gateway")  # the gateway is not REST


# --- several processes on one PostgreSQL schema ----------------------------------------------


def holders(backend: Backend, count: int, token: str = TOKEN) -> list[Budget]:
    from bot.storage.postgres import PostgresRateSlots

    assert backend.url is not None
    return [
        Budget(PostgresRateSlots(backend.url, token, schema=backend.schema)) for _ in range(count)
    ]


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_three_processes_share_fifty_a_second_in_the_database(backend: Backend) -> None:
    await backend.open()  # the migrations: the rate_budget table
    budgets = holders(backend, 3)
    started = time.monotonic()
    results = await asyncio.gather(
        take_all(budgets[0], 60),
        take_all(budgets[1], 50),
        take_all(budgets[2], 30, foreground=True),  # shard 0: the DM acknowledgements
    )
    elapsed = time.monotonic() - started
    times = [t for result in results for t in result]
    assert len(times) == 140
    assert busiest_second(times) <= DISCORD_GLOBAL_LIMIT
    # Shared, not split three ways: together they still send some 45 a second.
    assert elapsed < 140 / 28
    # The acknowledgements went first: all of them before most of the posts.
    assert max(results[2]) < sorted(results[0] + results[1])[60]
    for budget in budgets:
        await budget.close()
    rows = await backend.execute("SELECT count(*), max(used) FROM rate_budget")
    assert rows[0][0] <= 64 and rows[0][1] <= slot_cap()  # a ring: the table never grows


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_acknowledgements_short_of_grants_book_the_next_slot(backend: Backend) -> None:
    """Shard 0's acknowledgements found the slot spent: the next slot keeps their grants from
    the other processes' background requests, whichever process asks first."""
    from bot.storage.postgres import PostgresRateSlots

    await backend.open()
    assert backend.url is not None
    # Slots of one second, so that the test's own steps stay inside one slot.
    ack, posts = (
        PostgresRateSlots(backend.url, TOKEN, schema=backend.schema, slot=1.0) for _ in range(2)
    )
    granted, wait = await ack.take(3, 2, full=2, foreground=True)
    if wait < 0.3:  # too near the slot's end to do the rest inside it: start in the next one
        await asyncio.sleep(wait + 0.01)
        granted, wait = await ack.take(3, 2, full=2, foreground=True)
    assert granted == 2  # the whole slot; the third is booked on the next
    assert (await posts.take(5, 1, full=2, foreground=False))[0] == 0
    await asyncio.sleep(wait + 0.01)
    background, _ = await posts.take(5, 1, full=2, foreground=False)
    assert background <= 1  # the booked grant stays free (a whole even slot holds only one more)
    assert (await ack.take(1, 2, full=2, foreground=True))[0] == 1
    await ack.close()
    await posts.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_process_that_dies_leaves_the_budget_to_the_others(backend: Backend) -> None:
    await backend.open()
    first, second = holders(backend, 2)
    busy = asyncio.create_task(take_all(first, 200))
    await asyncio.sleep(0.5)
    busy.cancel()  # killed mid-run: nothing of it to release, its slots simply pass
    await asyncio.gather(busy, return_exceptions=True)
    await first.close()
    started = time.monotonic()
    times = await take_all(second, 60)
    assert busiest_second(times) <= DISCORD_GLOBAL_LIMIT
    assert time.monotonic() - started < 60 / 25  # the whole budget is the survivor's at once
    # Another token's slots are its own.
    (other,) = holders(backend, 1, token="another-token")
    asked = time.monotonic()
    await take_all(other, 3)
    assert time.monotonic() - asked < 0.3
    await other.close()
    await second.close()


async def test_without_the_database_a_process_paces_itself() -> None:
    from bot.storage.postgres import PostgresRateSlots

    slots = PostgresRateSlots("postgresql://nobody@127.0.0.1:1/none", TOKEN, connect_timeout=1)
    budget = Budget(slots)
    times = await asyncio.wait_for(take_all(budget, 12), 5.0)
    assert busiest_second(times) <= 11  # one grant per slot until the database answers
    await budget.close()


def test_processes_sharing_the_budget_keep_every_odd_slot_for_acknowledgements() -> None:
    """With one grant a slot, a shared budget's background requests take the even slots only
    (22.5 a second of the 45): an acknowledgement of any process finds the odd ones free. One
    process keeps the whole budget for its posts (its pump serves its acknowledgements first)."""
    shared = budget_for("postgresql://nobody@127.0.0.1:1/none", TOKEN)
    alone = budget_for("sqlite:///unused.sqlite3", TOKEN)
    assert (shared.cap, shared.background_cap) == (1, 0)
    assert (alone.cap, alone.background_cap) == (1, 1)

    now = [0.0]
    slots = LocalSlots(slot_seconds(), clock=lambda: now[0])
    background: list[float] = []
    while now[0] < 2.0:  # background requests always waiting, on a simulated clock
        granted, _wait = asyncio.run(slots.take(5, shared.background_cap, full=shared.cap))
        background.extend([now[0]] * granted)
        now[0] += 0.0005
    assert all(int(t / slot_seconds() + 1e-9) % 2 == 0 for t in background)
    assert busiest_second(background) == 23  # 22.5 a second
    now[0] = 3.5 * slot_seconds()  # an odd slot: the background gets nothing, an ack its grant
    assert asyncio.run(slots.take(1, shared.background_cap, full=1))[0] == 0
    assert asyncio.run(slots.take(1, shared.cap, full=1, foreground=True))[0] == 1
