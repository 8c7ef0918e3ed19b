"""An Arena Duel league on a real database and the real table, without Discord: standings and
ratings only. A moderator creates it, players join and are paired at once (no draft, no masters,
no ante), the match is an arena game played to its end, and its result reaches the standings and
the ratings exactly once; a new service on the same database (a restart) reads the same table.
(That every roster action is refused with ``league.no_rosters`` is tested for every ruleset without
rosters in ``test_every_ruleset.py``.) Every test runs on SQLite and on PostgreSQL
(``tests/storage/backends.py``)."""

from __future__ import annotations

import random

import pytest

from bot import registry
from bot.i18n import t
from bot.ruleset import RuleError
from bot.table import Player, Table
from cogs.arena import ai
from cogs.arena import rules as arena
from cogs.league.season import FINISHED, FORFEIT, Options
from cogs.league.service import LeagueService
from cogs.league.standings import DRAW_POINTS, WIN_POINTS
from tests.cogs.league.test_service import Clock, backend, create, service

__all__ = ["backend", "service"]

ALICE, BOB, CAROL = Player(101, "Alice"), Player(102, "Bob"), Player(103, "Carol")


async def arena_league(svc: LeagueService) -> str:
    league = await create(svc, name="Sand Pit", ruleset="arena", options=Options(turn_minutes=0))
    for p in (ALICE, BOB, CAROL):
        await svc.join(league.id, p.user_id, p.name)
    return league.id


async def play_out(svc: LeagueService, clock: Clock, game_id: str, seed: int) -> None:
    """Both seats play the demo's AI until the duel ends."""
    rng = random.Random(seed)
    for _ in range(400):
        game = await svc.table.game(game_id)
        if game.status != "active":
            return
        state = arena.from_json(game.state)
        for seat in arena.awaiting(state):
            await svc.table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))
        clock.now += 60
    raise AssertionError("the duel did not end in 400 turns")


def test_arena_declares_a_league_without_rosters() -> None:
    found = registry.get("arena").league
    assert found is not None and found.rosters is None
    assert found.options == () and found.figures == () and found.master_options is None


async def test_an_arena_league_pairs_at_once_and_records_a_duel_into_standings_and_ratings(
    service,
):
    svc, clock, _ = service
    league_id = await arena_league(svc)
    league, game_id = await svc.pair(league_id, ALICE, BOB, by=1)
    assert league.draft is None and league.masters == {}, "no draft, no masters first"

    game = await svc.table.game(game_id)
    assert game.ruleset == "arena" and game.status == "active"
    assert game.options == {"league": league_id}, "arena fixes no option; the league tags it"
    assert [s.user_id for s in game.seats] == [ALICE.user_id, BOB.user_id]
    with pytest.raises(RuleError) as busy:
        await svc.pair(league_id, ALICE, CAROL, by=1)
    assert busy.value.key == "league.match.busy"

    await play_out(svc, clock, game_id, seed=3)
    game = await svc.table.game(game_id)
    assert game.status == "finished"
    outcome = svc.table.outcome(game)
    seat_player = {"A": str(ALICE.user_id), "B": str(BOB.user_id)}

    assert await svc.tick() >= 1
    assert await svc.tick() == 0, "recorded once"
    league = await svc.league(league_id)
    match = league.match(game_id)
    assert match.status == FINISHED and (match.dp_a, match.dp_b) == (0, 0)
    winner = seat_player[outcome.winners[0]] if len(outcome.winners) == 1 else None
    assert match.winner == winner
    assert league.antes == (), "no ante without rosters"

    rows = {r.player: r for r in league.standings()}
    a, b, c = (rows[str(p.user_id)] for p in (ALICE, BOB, CAROL))
    assert (a.played, b.played, c.played) == (1, 1, 0)
    start = c.mu, c.sigma  # Carol has not played: the model's first rating
    if winner is None:
        assert (a.drawn, b.drawn, a.points, b.points) == (1, 1, DRAW_POINTS, DRAW_POINTS)
        assert a.mu == pytest.approx(b.mu) and a.sigma < start[1]
    else:
        won, lost = (a, b) if winner == str(ALICE.user_id) else (b, a)
        assert (won.won, won.points, lost.lost, lost.points) == (1, WIN_POINTS, 1, 0)
        assert won.mu > start[0] > lost.mu and won.rating > c.rating > lost.rating
        assert league.standings()[0].player == winner

    async with svc.repo.transaction() as tx:
        rows_out = await tx.pending_outbox(clock.now + 1, limit=500)
    posts = [r.payload["content"] for r in rows_out if r.game_id is None]
    (recorded,) = [p for p in posts if "🏁" in p]
    assert "DP" not in recorded, "arena scores no DP"
    (started,) = [p for p in posts if "⚔️" in p]
    assert "Rosters" not in started and "lineups" not in started


async def test_a_restart_reads_the_same_standings_and_plays_on(service):
    """A resignation ends a duel (a sure winner); after a restart (a new service and table on the
    same database) the standings, ratings and matches read the same, nothing is recorded twice,
    and the next pairing starts."""
    svc, clock, db = service
    league_id = await arena_league(svc)
    _, first = await svc.pair(league_id, ALICE, CAROL, by=1)
    clock.now += 60
    await svc.table.resign(first, ALICE.user_id)
    clock.now += 60
    _, forfeited = await svc.pair(league_id, BOB, ALICE, by=1)  # records the first match
    await svc.forfeit(league_id, forfeited, BOB.user_id, by=1)
    before = await svc.league(league_id)
    assert before.match(first).winner == str(CAROL.user_id)
    assert before.match(forfeited).status == FORFEIT and before.antes == ()
    table = [r.to_json() for r in before.standings()]
    assert {row["player"] for row in table[:2]} == {str(BOB.user_id), str(CAROL.user_id)}
    assert [row["points"] for row in table] == [WIN_POINTS, WIN_POINTS, 0]
    assert table[-1]["player"] == str(ALICE.user_id) and table[-1]["lost"] == 2

    repo = await db.open()  # the restarted process: its own connection, the same database
    again = LeagueService(repo, Table(repo, clock=clock))
    assert await again.tick() == 0, "nothing left to record"
    after = await again.league(league_id)
    assert [r.to_json() for r in after.standings()] == table
    assert after.matches == before.matches and after.to_json() == before.to_json()
    _, third = await again.pair(league_id, ALICE, BOB, by=1)
    assert (await again.table.game(third)).ruleset == "arena"


async def test_options_the_ruleset_does_not_take_are_refused(service):
    svc, _, _ = service
    refusals = [
        ("arena", Options(cost_cap=30), "league.option.not_in_ruleset", {"option": "cost_cap"}),
        ("arena", Options(tie_break="hp"), "league.option.not_in_ruleset", {"option": "tie_break"}),
        ("arena", Options(rounds=3), "league.option.not_in_ruleset", {"option": "rounds"}),
        ("arena", Options(ante=False), "league.option.not_in_ruleset", {"option": "ante"}),
        ("tactics", Options(tie_break="coin"), "tactics.option.tie_break", {"value": "coin"}),
        ("tactics", Options(cost_cap=61), "tactics.option.cap", {"value": 61}),
        ("dungeon", Options(), "league.ruleset.none", {"ruleset": "dungeon"}),
        (
            "apeiron",
            Options(master_approval=True, rounds=16),
            "league.option.not_in_ruleset",
            {"option": "master_approval"},
        ),
        (
            "esper",
            Options(game={"objection_minutes": 10081}),  # a week at most
            "deadlines.league.objection_minutes",
            {"value": 10081},
        ),
    ]
    for ruleset, options, key, params in refusals:
        with pytest.raises(RuleError) as refused:
            await create(svc, name="Refused", ruleset=ruleset, options=options)
        assert (refused.value.key, refused.value.params) == (key, params), (ruleset, options)
        assert t("en", key, **params) != t("ja", key, **params)
    assert await svc.in_guild(1) == []
    kept = await create(
        svc, name="Kept", ruleset="arena", options=Options(turn_minutes=5, cost_cap=18)
    )
    assert kept.options.turn_minutes == 5, "a league option and a default are taken"
