"""Swiss and cup leagues on a real database and the real table, without Discord (issue 33), on
SQLite and on PostgreSQL (``tests/storage/backends.py``), with Arena Duel (no rosters) as the
game: ``/league round`` (``LeagueService.start_round``) pairs a Swiss round or opens the cup's
ready ties as league matches in one transaction with one channel post; results (played, resigned,
forfeited) step the Swiss and the bracket; a repeated round opens nothing twice; a restart reads
the same league and pairs on; every finished game updates the server's rating of the ruleset
once, kept across leagues, and the cup is seeded from those ratings."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.i18n import t
from bot.ruleset import RuleError
from bot.table import Player, Table
from cogs.league import cup as cups
from cogs.league import swiss as swisses
from cogs.league.bracket import render_bracket
from cogs.league.ratings import Rating
from cogs.league.season import CUP, FINISHED, FORFEIT, ROUND_ROBIN, SWISS, League, Options
from cogs.league.service import LeagueService
from tests.cogs.league.test_arena_league import play_out
from tests.cogs.league.test_service import Clock, backend, create, service

__all__ = ["backend", "service"]

PLAYERS = [Player(101 + i, name) for i, name in enumerate(["Ann", "Ben", "Cy", "Di", "Ed"])]
PNG = b"\x89PNG\r\n\x1a\n"


async def league_of(svc: LeagueService, fmt: str, *, name: str = "Open", rounds: int = 0) -> str:
    league = await create(
        svc,
        name=name,
        ruleset="arena",
        options=Options(turn_minutes=0),
        format=fmt,
        swiss_rounds=rounds,
    )
    for p in PLAYERS:
        await svc.join(league.id, p.user_id, p.name)
    return league.id


async def round_posts(svc: LeagueService, clock: Clock) -> list[str]:
    async with svc.repo.transaction() as tx:
        rows = await tx.pending_outbox(clock.now + 1, limit=1000)
    return [
        r.payload["content"] for r in rows if r.game_id is None and "📣" in r.payload["content"]
    ]


async def ratings_games(svc: LeagueService, guild: int = 1) -> int:
    return sum(r.games for r in (await svc.ratings(guild, "arena")).values())


async def test_a_swiss_league_pairs_rounds_records_results_and_survives_a_restart(service):
    svc, clock, db = service
    league_id = await league_of(svc, SWISS, rounds=3)
    with pytest.raises(RuleError) as by_round:
        await svc.pair(league_id, PLAYERS[0], PLAYERS[1], by=1)
    assert by_round.value.key == "league.pair.by_round"

    seen: Counter[frozenset[str]] = Counter()
    byes: list[str] = []
    for number in range(1, 4):
        league, ids = await svc.start_round(league_id, by=1)
        assert league.swiss is not None and len(league.swiss.rounds) == number
        games = league.swiss.rounds[-1]
        assert len(ids) == 2, "five players: two games and a bye"
        (bye,) = [g.first for g in games if g.bye]
        byes.append(bye)
        for game_id, game in zip(ids, [g for g in games if not g.bye], strict=True):
            row = await svc.table.game(game_id)
            assert [str(s.user_id) for s in row.seats] == [game.first, game.second], "first seat"
            assert row.options == {"league": league_id}
            seen[frozenset(game.players())] += 1
        # Repeated while the round is being played, even at once: nothing opened twice.
        again = await asyncio.gather(
            svc.start_round(league_id, by=1),
            svc.start_round(league_id, by=2),
            return_exceptions=True,
        )
        assert all(isinstance(e, RuleError) and e.key == "league.round.playing" for e in again)
        assert len((await svc.league(league_id)).matches) == 2 * number
        posts = await round_posts(svc, clock)
        assert len(posts) == number, "one post per round"
        assert all(f"<@{p}>" in posts[-1] for g in games for p in g.players())
        assert f"Bye: <@{bye}>" in posts[-1] or f"<@{bye}>" in posts[-1].split("\n")[-1]

        for i, game_id in enumerate(ids):
            await play_out(svc, clock, game_id, seed=10 * number + i)
        if number == 2:  # a restart between rounds: a new service and table, the same database
            repo = await db.open()
            svc = LeagueService(repo, Table(repo, clock=clock))
        assert await svc.tick() == 2
        league = await svc.league(league_id)
        assert not swisses.round_open(league.swiss)
        assert all(league.match(i).status == FINISHED for i in ids)

    assert max(seen.values()) == 1, "no pair meets twice"
    assert len(set(byes)) == 3, "byes go to different players"
    with pytest.raises(RuleError) as done:
        await svc.start_round(league_id, by=1)
    assert done.value.key == "league.round.done" and done.value.params["rounds"] == 3
    league = await svc.league(league_id)
    assert await ratings_games(svc) == 2 * 6, "each of the six games rated once"
    assert await svc.tick() == 0 and await ratings_games(svc) == 12
    scores = swisses.scores(league.swiss)
    played = sum(3 if m.winner else 2 for m in league.matches)  # a win 3, a draw 1 + 1
    assert sum(scores.values()) == played + 3 * 3, "results and the three byes scored"
    for m in league.matches:  # the Swiss's points are the standings' points
        assert scores[m.a] == next(r.points for r in league.standings() if r.player == m.a) + (
            3 * sum(1 for b in byes if b == m.a)
        )
    assert league.to_json()["format"] == SWISS
    assert League.from_json(league.to_json()) == league


async def test_a_cup_is_seeded_from_ratings_advances_on_results_and_forfeits(service):
    svc, clock, db = service
    # Ratings this server already holds for arena: Ed best, then Di, Cy, Ben, Ann.
    stored = {str(p.user_id): Rating(20.0 + 3 * i, 2.0, 5) for i, p in enumerate(PLAYERS)}
    async with svc.repo.transaction() as tx:
        await tx.put_ratings(1, "arena", {p: r.to_json() for p, r in stored.items()}, clock.now)
    league_id = await league_of(svc, CUP, name="Cup")
    ann, ben, cy, di, ed = (str(p.user_id) for p in PLAYERS)

    league, ids = await svc.start_round(league_id, by=1)
    assert league.cup is not None and league.cup.seeds == (ed, di, cy, ben, ann)
    assert cups.byes(league.cup) == [ed, di, cy], "three byes in an eight-slot bracket"
    # Seeds 2 v 3 meet in the second round at once (both through by byes), beside 4 v 5.
    seats = [{str(s.user_id) for s in (await svc.table.game(g)).seats} for g in ids]
    assert seats == [{ben, ann}, {di, cy}]
    first, second = ids
    (post,) = await round_posts(svc, clock)
    assert all(f"<@{p}>" in post for p in (ed, di, cy, ben, ann)) and "Bye" in post
    with pytest.raises(RuleError) as playing:
        await svc.start_round(league_id, by=1)
    assert playing.value.key == "league.round.playing"

    # A forfeit: the tie goes to Ben by a walkover, and no rating changes.
    await svc.forfeit(league_id, first, int(ben), by=1)
    league = await svc.league(league_id)
    assert league.match(first).status == FORFEIT
    assert league.cup.rounds[0][1] == cups.Tie(ben, ann, ben, cups.WALKOVER)
    assert league.cup.rounds[1][0].players() == (ed, ben), "Ben goes on to meet Ed"
    assert await svc.ratings(1, "arena") == stored
    # Ed v Ben is ready while Di v Cy still plays: the next round opens it alone.
    league, ids = await svc.start_round(league_id, by=1)
    assert [{str(s.user_id) for s in (await svc.table.game(g)).seats} for g in ids] == [{ed, ben}]
    assert len(await round_posts(svc, clock)) == 2
    with pytest.raises(RuleError) as playing:
        await svc.start_round(league_id, by=1)
    assert playing.value.key == "league.round.playing"

    # A restart; Cy and Ben resign: Di and Ed go on to the final.
    repo = await db.open()
    svc = LeagueService(repo, Table(repo, clock=clock))
    clock.now += 60
    await svc.table.resign(second, int(cy))
    await svc.table.resign(ids[0], int(ben))
    league, (final,) = await svc.start_round(league_id, by=1)  # records it, opens the final
    assert {str(s.user_id) for s in (await svc.table.game(final)).seats} == {ed, di}
    rated = await svc.ratings(1, "arena")
    assert (rated[ed].games, rated[di].games, rated[cy].games) == (6, 6, 6)
    assert (rated[ben].games, rated[ann].games) == (6, 5), "the forfeit is not rated"
    assert rated[ed].mu > stored[ed].mu and rated[ben].mu < stored[ben].mu

    clock.now += 60
    await svc.table.resign(final, int(di))
    assert await svc.tick() == 1
    league = await svc.league(league_id)
    assert cups.champion(league.cup) == ed
    with pytest.raises(RuleError) as over:
        await svc.start_round(league_id, by=1)
    assert over.value.key == "league.round.cup_over"
    async with svc.repo.transaction() as tx:
        rows = await tx.pending_outbox(clock.now + 1, limit=1000)
    assert sum("🏆" in (r.payload.get("content") or "") for r in rows) == 1
    png = render_bracket(league.cup, league.names, "en", title=league.name)
    assert png.startswith(PNG)


async def test_ratings_are_kept_across_leagues_of_a_server_and_ruleset(service):
    svc, clock, db = service
    ann, ben = PLAYERS[0], PLAYERS[1]
    first = await league_of(svc, ROUND_ROBIN, name="Spring")
    _, game = await svc.pair(first, ann, ben, by=1)
    clock.now += 60
    await svc.table.resign(game, ben.user_id)
    assert await svc.tick() == 1 and await svc.tick() == 0
    after_one = await svc.ratings(1, "arena")
    assert after_one[str(ann.user_id)].games == 1 and after_one[str(ben.user_id)].games == 1
    assert after_one[str(ann.user_id)].mu > after_one[str(ben.user_id)].mu

    second = await league_of(svc, SWISS, name="Autumn", rounds=1)
    league, ids = await svc.start_round(second, by=1)
    assert league.swiss is not None
    assert league.swiss.players[0] == str(ann.user_id), "seeded by the server's ratings"
    for game_id in ids:
        clock.now += 60
        row = await svc.table.game(game_id)
        await svc.table.resign(game_id, row.seats[1].user_id)
    repo = await db.open()  # a restart reads the same ratings
    svc = LeagueService(repo, Table(repo, clock=clock))
    assert await svc.tick() == 2
    rated = await svc.ratings(1, "arena")
    assert sum(r.games for r in rated.values()) == 2 + 4
    assert rated[str(ann.user_id)].games == 2
    assert await svc.ratings(2, "arena") == {}, "another server's ratings are its own"


async def test_rounds_are_refused_in_a_round_robin_and_formats_checked(service):
    svc, _, _ = service
    league_id = await league_of(svc, ROUND_ROBIN, name="Plain")
    with pytest.raises(RuleError) as refused:
        await svc.start_round(league_id, by=1)
    assert refused.value.key == "league.round.round_robin"
    plain = await svc.league(league_id)
    assert "format" not in plain.to_json(), "a round robin is stored as before formats"
    data = {k: v for k, v in plain.to_json().items()}
    assert League.from_json(data).format == ROUND_ROBIN
    for fmt, rounds, key in [
        ("ladder", 0, "league.format.unknown"),
        (SWISS, 0, "league.format.swiss_rounds"),
        (SWISS, 16, "league.format.swiss_rounds"),
    ]:
        with pytest.raises(RuleError) as bad:
            await create(svc, name="Bad", ruleset="arena", format=fmt, swiss_rounds=rounds)
        assert bad.value.key == key
        assert t("en", key, **bad.value.params) != t("ja", key, **bad.value.params)
    cup_id = await league_of(svc, CUP, name="Joinless")
    await svc.start_round(cup_id, by=1)
    with pytest.raises(RuleError) as late:
        await svc.join(cup_id, 999, "Late")
    assert late.value.key == "league.join.format_started"
    with pytest.raises(RuleError) as gone:
        await svc.leave(cup_id, PLAYERS[0].user_id)
    assert gone.value.key == "league.leave.format_started"
