"""The league service on a real SQLite file and the real table, without Discord: a league match
plays as a tactics game with the league's rosters and options, to the end, and its result (DP
included) reaches the standings exactly once; the ledger cannot be rewritten."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.storage import SqliteRepository
from bot.table import Player, Table
from cogs.league.season import FINISHED, Options
from cogs.league.service import LeagueService
from cogs.tactics import ai
from cogs.tactics import rules as tactics

ALICE, BOB = Player(101, "Alice"), Player(102, "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def service(tmp_path: Path):
    repo = SqliteRepository(tmp_path / "league.sqlite3")
    await repo.open()
    clock = Clock()
    table = Table(repo, clock=clock)
    yield LeagueService(repo, table), clock, tmp_path / "league.sqlite3"
    await repo.close()


async def ready_league(service: LeagueService, clock: Clock) -> str:
    """Two players, a 2-round draft, masters set (no approval needed)."""
    league = await service.create(
        guild_id=1,
        channel_id=10,
        name="Test League",
        ruleset="tactics",
        season_name="S1",
        options=Options(rounds=2, pick_minutes=5, cost_cap=30, turn_minutes=0),
        by=1,
    )
    for p in (ALICE, BOB):
        await service.join(league.id, p.user_id, p.name)
    await service.start_draft(league.id)
    picks = [(ALICE, "knight"), (BOB, "archer"), (BOB, "mage"), (ALICE, "cleric")]
    for number, (player, unit) in enumerate(picks, start=1):
        clock.now += 30
        await service.draft_pick(league.id, player.user_id, unit, number)
    await service.submit_master(league.id, ALICE.user_id, {"preset": "warlord"})
    await service.submit_master(league.id, BOB.user_id, {"preset": "archmage"})
    assert (await service.league(league.id)).masters_revealed
    return league.id


async def test_a_league_match_plays_with_the_rosters_and_records_its_dp(service):
    svc, clock, _ = service
    league_id = await ready_league(svc, clock)
    _, game_id = await svc.pair(league_id, ALICE, BOB, by=1)

    game = await svc.table.game(game_id)
    assert game.options["league"] == league_id and game.options["cost_cap"] == 30
    state = tactics.from_json(game.state)
    assert state.step == "deploy", "league rosters skip the roster step"
    types = {seat: sorted(u.type.id for u in state.side_units(seat)) for seat in ("A", "B")}
    assert types == {"A": ["cleric", "knight", "warlord"], "B": ["archer", "archmage", "mage"]}

    rng = random.Random(4)
    for _ in range(40):
        game = await svc.table.game(game_id)
        if game.status != "active":
            break
        state = tactics.from_json(game.state)
        for seat in tactics.awaiting(state):
            await svc.table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))
        clock.now += 60
    game = await svc.table.game(game_id)
    assert game.status == "finished"
    dp = tactics.from_json(game.state).dp

    assert await svc.tick() >= 1
    assert await svc.tick() == 0, "recorded once"
    league = await svc.league(league_id)
    match = league.match(game_id)
    assert match.status == FINISHED
    assert (match.dp_a, match.dp_b) == (dp["A"], dp["B"])
    rows = {r.player: r for r in league.standings()}
    assert rows[str(ALICE.user_id)].dp_for == dp["A"] == rows[str(BOB.user_id)].dp_against
    winner = {"A": str(ALICE.user_id), "B": str(BOB.user_id)}.get(game.outcome or "")
    assert match.winner == winner
    if winner is not None:
        assert [a.winner for a in league.antes] == [winner], "the winner is offered the ante"

    async with svc.repo.transaction() as tx:
        rows_out = await tx.pending_outbox(clock.now + 1, limit=500)
    recorded = [r for r in rows_out if r.game_id is None and "🏁" in r.payload["content"]]
    assert len(recorded) == 1, "the result is posted once"


async def test_the_roster_ledger_is_append_only(service):
    svc, clock, path = service
    league_id = await ready_league(svc, clock)
    assert len(await svc.ledger(league_id)) == 6  # four picks and two masters
    raw = sqlite3.connect(path)
    try:
        for sql in ("UPDATE roster_ledger SET unit = 'ninja'", "DELETE FROM roster_ledger"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                raw.execute(sql)
    finally:
        raw.close()
    assert len(await svc.ledger(league_id)) == 6


async def test_two_leagues_of_one_name_in_a_server_are_refused(service):
    svc, clock, _ = service
    await ready_league(svc, clock)
    with pytest.raises(Exception) as info:
        await svc.create(
            guild_id=1,
            channel_id=11,
            name="Test League",
            ruleset="tactics",
            season_name="S2",
            options=Options(),
            by=1,
        )
    assert getattr(info.value, "key", "") == "league.name.taken"
