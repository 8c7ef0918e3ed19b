"""A tactics league match with a substitution (issue 34), on both backends: seat B is handed from
Bob to Carol mid-game; the result is credited to the seat's final player (the match names Carol,
the standings count her game, the server's ratings rate her), and Bob's standing and rating are
untouched. The league's record of the handover is what ``/league info`` lists."""

from __future__ import annotations

import random

from bot.table import Player
from cogs.league.season import FINISHED
from cogs.league.service import LeagueService
from cogs.tactics import ai
from cogs.tactics import rules as tactics
from tests.cogs.league.test_service import ALICE, BOB, Clock, ready_league, service
from tests.storage.backends import Backend, backend

__all__ = ["backend", "service"]

CAROL = Player(103, "Carol")


async def test_a_substituted_league_match_is_credited_to_the_final_player(
    service: tuple[LeagueService, Clock, Backend],
) -> None:
    svc, clock, _ = service
    league_id = await ready_league(svc, clock)
    _, game_id = await svc.pair(league_id, ALICE, BOB, by=1)
    rng = random.Random(4)
    handed = False
    for step in range(60):
        game = await svc.table.game(game_id)
        if game.status != "active":
            break
        if step == 3:  # mid-game, a moderator hands Bob's seat to Carol
            await svc.table.substitutes.substitute(game_id, "B", CAROL, by=1)
            handed = True
            continue
        state = tactics.from_json(game.state or {})
        for seat in tactics.awaiting(state):
            await svc.table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))
        clock.now += 60
    game = await svc.table.game(game_id)
    assert handed and game.status == "finished" and game.user_of("B") == CAROL.user_id

    assert await svc.tick() >= 1
    league = await svc.league(league_id)
    match = league.match(game_id)
    assert match.status == FINISHED
    assert (match.a, match.b) == (str(ALICE.user_id), str(CAROL.user_id)), "the final players"
    winner = {"A": str(ALICE.user_id), "B": str(CAROL.user_id)}.get(game.outcome or "")
    assert match.winner == winner
    assert league.names[str(CAROL.user_id)] == "Carol"
    assert str(CAROL.user_id) not in league.players, "credited, not enrolled in later pairings"
    rows = {r.player: r for r in league.standings()}
    assert rows[str(CAROL.user_id)].played == 1 and rows[str(ALICE.user_id)].played == 1
    assert rows[str(BOB.user_id)].played == 0, "the original player's standing is untouched"
    async with svc.repo.read() as tx:
        ratings = await tx.ratings(1, "tactics")
    assert ratings[str(CAROL.user_id)]["games"] == 1 and ratings[str(ALICE.user_id)]["games"] == 1
    assert str(BOB.user_id) not in ratings, "the original player's rating is untouched"

    (handover,) = await svc.table.substitutes.of_games([m.id for m in league.matches])
    assert (handover.game_id, handover.seat, handover.from_user, handover.to_user) == (
        game_id,
        "B",
        BOB.user_id,
        CAROL.user_id,
    )
