"""Absences and missed deadlines on both backends (issue 34).

A game of Sealed Bids (``tests/hidden_ruleset``) whose seat B's player is away when a step's
deadline passes: the deadline worker moves the step's deadline to the absence's end (stored on
the game: a new table on a new connection, as after a restart, finds it), the miss is stored once
(excused, with where the deadline went) and the channel told once, however many ticks and
restarts follow; at the absence's end the default plays, excused; a later deadline with nobody
away stores an unexcused miss, once. A game another worker holds the lease of is left to it
until the lease lapses. An arena league with a miss limit of 2: its moderator role is pinged
once, at the second unexcused miss, not again at the third. Refusals of ``/away``'s bounds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot import registry
from bot.absences import DAY, AbsenceRefused
from bot.storage.base import OutboxRow, Repository
from bot.table import Player, Table
from cogs.league.season import Options
from cogs.league.service import LeagueService
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.storage.backends import Backend
from tests.storage.test_table_on_both import CHANNEL, GUILD, Clock, entropy

SEATS = ("A", "B", "C", "D")
USERS = {seat: 1_152_921_504_606_846_976 + i for i, seat in enumerate(SEATS)}
STEP = 600


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


async def outbox(repo: Repository, game_id: str) -> list[OutboxRow]:
    async with repo.read() as tx:
        return await tx.outbox_for_game(game_id)


async def paused_posts(repo: Repository, game_id: str) -> list[str]:
    return [
        str(r.payload["content"])
        for r in await outbox(repo, game_id)
        if str(r.payload.get("content", "")).startswith("⏸️")
    ]


async def order_all_but(table: Table, game_id: str, seat: str) -> None:
    game = await table.game(game_id)
    state = bids.from_json(game.state or {})
    rng = random.Random(game.step)
    for s in bids.awaiting(state):
        if s != seat:
            await table.submit(game_id, USERS[s], ai.choose(state, s, rng))


async def test_a_deadline_waits_for_an_absent_seat_and_each_miss_is_stored_once(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=STEP
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    until = clock.now + 3 * 3600
    await table.absences.set_away(USERS["B"], GUILD, until, "family, private")
    await order_all_but(table, game.id, "B")
    game = await table.game(game.id)
    deadline, step = game.deadline_at, game.step
    assert deadline is not None

    clock.now = deadline + 1
    assert await table.tick() == 1
    game = await table.game(game.id)
    assert (game.step, game.deadline_at) == (step, until), "the step waits, stored on the game"
    async with repo.read() as tx:
        (miss,) = await tx.misses(game.id)
    assert (miss.seat, miss.user_id, miss.excused, miss.absence_seq, miss.waited_until) == (
        "B",
        USERS["B"],
        True,
        1,
        until,
    )
    assert (miss.step, miss.deadline_at) == (step, deadline)
    posts = await paused_posts(repo, game.id)
    assert posts == [f"⏸️ {game.id} is paused for seat B until <t:{int(until)}:f>."]
    assert not any("family" in str(r.payload) for r in await outbox(repo, game.id))

    # More ticks, and a restart (a new table on a new connection): nothing twice.
    clock.now += 60
    await table.tick()
    restarted = Table(await backend.open(), clock=clock, entropy=entropy())
    clock.now += 60
    await restarted.tick()
    async with repo.read() as tx:
        assert len(await tx.misses(game.id)) == 1
    assert len(await paused_posts(repo, game.id)) == 1
    assert (await restarted.game(game.id)).step == step
    shown = await restarted.absences.of_game(await restarted.game(game.id))
    assert shown.waiting == [("B", until)] and shown.misses == {"B": (1, 0)}

    # The absence ends: the default plays at the moved deadline, the miss excused (still away
    # at that instant), stored once.
    clock.now = until + 1
    assert await restarted.tick() == 1
    game = await restarted.game(game.id)
    assert game.step == step + 1
    async with repo.read() as tx:
        misses = await tx.misses(game.id)
        played = await tx.orders_for_turn(game.id, step)
    assert played["B"].defaulted
    assert [(m.step, m.excused, m.waited_until) for m in misses] == [
        (step, True, until),
        (step, True, None),
    ]

    # Nobody away now: B's next miss is unexcused, stored once whoever ticks.
    await order_all_but(restarted, game.id, "B")
    game = await restarted.game(game.id)
    assert "B" in bids.awaiting(bids.from_json(game.state or {})) and game.deadline_at
    clock.now = game.deadline_at + 1
    assert await restarted.tick() == 1
    await table.tick()
    async with repo.read() as tx:
        misses = await tx.misses(game.id)
    assert [(m.step, m.excused) for m in misses][-1] == (game.step, False)
    assert sum(not m.excused for m in misses) == 1
    shown = await restarted.absences.of_game(await restarted.game(game.id))
    assert shown.misses == {"B": (3, 1)} and shown.waiting == []


async def test_the_worker_still_claims_due_games_with_leases(
    registered: None, backend: Backend
) -> None:
    """A game whose lease another live worker holds is left to it, absence or not; once the lease
    lapses this worker takes it over and waits for the absent seat."""
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=STEP
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    until = clock.now + DAY
    await table.absences.set_away(USERS["C"], GUILD, until, "")
    game = await table.game(game.id)
    assert game.deadline_at is not None
    clock.now = game.deadline_at + 1
    async with repo.transaction() as tx:
        (held,) = await tx.claim_due_games("another-worker", clock.now, clock.now + 60, 10)
    assert held.id == game.id
    assert await table.tick() == 0, "held by another worker"
    assert (await table.game(game.id)).deadline_at == game.deadline_at
    clock.now += 61  # its lease lapsed: the holder died
    assert await table.tick() == 1
    assert (await table.game(game.id)).deadline_at == until


async def test_absence_bounds_are_refused_with_their_reason(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    away = table.absences
    user = USERS["A"]

    async def refused(key: str, until: float, guild: int | None = GUILD) -> None:
        with pytest.raises(AbsenceRefused) as caught:
            await away.set_away(user, guild, until, "")
        assert caught.value.key == key

    await refused("away.refused.past", clock.now - 1)
    await refused("away.refused.too_long", clock.now + 15 * DAY)  # the default: 14 days
    await away.set_setting(GUILD, 20, "defaults")
    assert (await away.setting(GUILD)).max_days == 20
    row = await away.set_away(user, GUILD, clock.now + 15 * DAY, "r")
    await refused("away.refused.already", clock.now + DAY)
    assert (await away.current(user)) == row
    clock.now += DAY
    ended = await away.end_away(user)
    assert ended.end == clock.now and await away.current(user) is None
    with pytest.raises(AbsenceRefused) as caught:
        await away.end_away(user)
    assert caught.value.key == "away.refused.none"


async def test_a_league_pings_its_moderators_once_when_a_player_reaches_the_miss_limit(
    backend: Backend,
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    svc = LeagueService(repo, table)
    alice, bob = Player(101, "Alice"), Player(102, "Bob")
    league = await svc.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="Sand Pit",
        ruleset="arena",
        season_name="S1",
        options=Options(turn_minutes=5, miss_limit=2),
        by=1,
    )
    await svc.set_moderator_role(league.id, 555)
    for p in (alice, bob):
        await svc.join(league.id, p.user_id, p.name)
    _, game_id = await svc.pair(league.id, alice, bob, by=1)

    async def ping_rows() -> list[OutboxRow]:
        async with repo.read() as tx:
            rows = await tx.pending_outbox(clock.now + 10 * DAY, 1000)
        return [r for r in rows if "miss-limit" in r.nonce]

    for miss in range(1, 4):  # Alice orders, Bob lets each deadline pass
        game = await table.game(game_id)
        assert game.status == "active" and game.deadline_at is not None
        await table.submit(game_id, alice.user_id, "stay none")
        clock.now = game.deadline_at + 1
        assert await table.tick() == 1
        assert (await table.absences.league_misses(league.id)) == {bob.user_id: miss}
        pings = await ping_rows()
        assert len(pings) == (0 if miss < 2 else 1), f"after miss {miss}"
    (ping,) = await ping_rows()
    assert ping.target_id == CHANNEL and ping.payload["mention_roles"] == [555]
    text = str(ping.payload["content"])
    assert text.startswith("⚠️ <@&555> <@102> has let 2 deadlines pass unexcused")
    assert "/game substitute" in text
