"""A tactics league match with a substitution (issue 34), on both backends: seat B is handed from
Bob to Carol mid-game; the result is credited to the seat's final player (the match names Carol,
the standings count her game, the server's ratings rate her), and Bob's standing and rating are
untouched. The league's record of the handover is what ``/league info`` lists. Then the same in
SimCord, by the league's own moderator role."""

from __future__ import annotations

import random

from bot.table import Player
from cogs.league.season import FINISHED
from cogs.league.service import LeagueService
from cogs.tactics import ai
from cogs.tactics import rules as tactics
from tests.cogs.league.test_flow import Season, drafted, season_env, submit_masters
from tests.cogs.league.test_service import ALICE, BOB, Clock, ready_league, service
from tests.storage.backends import Backend, backend

__all__ = ["backend", "drafted", "season_env", "service"]

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
    entrant = {"A": str(ALICE.user_id), "B": str(BOB.user_id)}
    assert match.entrants == (entrant["A"], entrant["B"])
    assert game.outcome in entrant, "this seed's game has a winner"
    (ante,) = league.antes  # it moves between the rosters the seats played with
    loser = "B" if game.outcome == "A" else "A"
    assert (ante.winner, ante.loser) == (entrant[game.outcome], entrant[loser])

    (handover,) = await svc.table.substitutes.of_games([m.id for m in league.matches])
    assert (handover.game_id, handover.seat, handover.from_user, handover.to_user) == (
        game_id,
        "B",
        BOB.user_id,
        CAROL.user_id,
    )


async def test_a_league_moderator_substitutes_in_simcord_and_league_info_says_so(
    drafted: Season,
) -> None:
    """Through the commands: the league's own moderator role (no Manage Server) may hand a seat
    of its match (a member without it may not); the substitute resigns, so the loss is hers, not
    Bob's; ``/league info`` shows the substitution."""
    s = drafted
    await submit_masters(s)
    role = s.guild.create_role("League mods")
    referee = s.guild.add_member(s.env.create_user("referee"), roles=[role])
    erin = s.guild.add_member(s.env.create_user("erin"))
    await s.mod.slash(s.channel, "league modrole", role=role)
    result = await s.mod.slash(s.channel, "league match", a=s.players["alice"], b=s.players["bob"])
    match_id = result.response.content.split()[2]
    refused = await erin.slash(
        s.channel, "game substitute", seat="B", new_player=erin, game=match_id
    )
    assert "this league's moderators" in str(refused.response.content)
    done = await referee.slash(
        s.channel, "game substitute", seat="B", new_player=erin, game=match_id
    )
    assert done.ephemeral and f"<@{erin.id}>" in str(done.response.content)
    await s.settle()
    bob = s.players["bob"]
    assert f"<@{erin.id}> takes seat B of game {match_id} from <@{bob.id}>" in "\n".join(
        s.channel_texts()
    )
    late = await bob.slash(s.channel, "game resign", confirm=True, game=match_id)
    assert "was handed to" in str(late.response.content), "no longer his to resign"
    await erin.slash(s.channel, "game resign", confirm=True, game=match_id)
    await s.bot.leagues.tick()
    await s.settle()
    league = await s.league()
    match = league.match(match_id)
    assert (match.b, match.winner) == (str(erin.id), s.uid("alice"))
    rows = {r.player: r for r in league.standings()}
    assert rows[str(erin.id)].lost == 1 and rows[s.uid("bob")].played == 0
    info = await s.mod.slash(s.channel, "league info")
    shown = "\n".join(f"{f.name} {f.value}" for f in info.response.embeds[0].fields)
    assert f"{match_id} seat B at step" in shown and f"<@{bob.id}> → <@{erin.id}>" in shown
