"""An Esper league, pure (issue 33): matches of 5–11 seats, round robin only, graded results
(A 3, B 2, C 1, D 0) in the standings with each player's own points, won or lost with their
side, ratings over the full ranking, no forfeit of a many-seat game; the document round-trips
and a two-seat league's is stored as before."""

from __future__ import annotations

import pytest

from bot import registry
from bot.leagues import LeagueResult
from bot.ruleset import Outcome
from cogs.esper import league as esper_league
from cogs.league import season
from cogs.league.ratings import rate
from cogs.league.season import FORFEIT, ROUND_ROBIN, SWISS, League, LeagueError, Match, Options

ESPER = registry.get("esper").league
assert ESPER is not None
COUNTS = registry.get("esper").seats.allowed()
PLAYERS = tuple(str(n) for n in range(1, 9))


def league_of(players: tuple[str, ...] = PLAYERS, fmt: str = ROUND_ROBIN) -> League:
    league = season.create(
        "L1",
        guild_id=1,
        channel_id=10,
        name="Espers",
        ruleset="esper",
        support=ESPER,
        season="S1",
        options=Options(turn_minutes=0),
        by="9",
        at=0.0,
        format=fmt,
        swiss_rounds=3 if fmt == SWISS else 0,
        counts=COUNTS,
    )
    for p in players:
        league = season.join(league, p, f"P{p}")
    return league


def started(league: League, players: tuple[str, ...], match_id: str) -> League:
    a, b, *rest = players
    step, options = season.start_match(
        league, [], ESPER, a, b, match_id, 1.0, rest=rest, counts=COUNTS
    )
    assert options == {"objection_minutes": 3, "reaction_minutes": 3}
    assert step.notices[-1].key == "league.match.started_many"
    return step.league


def graded(players: tuple[str, ...], grades: str, winners: str) -> LeagueResult:
    seats = "ABCDEFGHIJK"[: len(players)]
    outcome = Outcome.win(*winners, **dict(zip(seats, grades, strict=True)))
    return esper_league.result({}, outcome, dict(zip(seats, players, strict=True)))


def test_a_graded_game_gives_each_player_their_points_and_rates_the_whole_ranking() -> None:
    five = PLAYERS[:5]
    league = started(league_of(), five, "g-1")
    # Seats A and C won (A alive, C dead); B, D, E lost (D alive).
    result = graded(five, "ADBCD", "AC")
    step = season.record_result(league, [], ESPER, "g-1", None, {}, 5.0, graded=result)
    match = step.league.match("g-1")
    assert match.points == {"1": 3, "2": 0, "3": 2, "4": 1, "5": 0}
    assert match.winners == ("1", "3") and match.winner is None
    assert step.notices[0].key == "league.match.recorded_graded"
    assert step.notices[0].params["points"].splitlines()[0] == "<@1>: 3", "best first"
    rows = {r.player: r for r in step.league.standings()}
    assert (rows["1"].points, rows["1"].won, rows["1"].lost) == (3, 1, 0)
    assert (rows["3"].points, rows["3"].won) == (2, 1), "a dead winner still won"
    assert (rows["4"].points, rows["4"].lost) == (1, 1)
    assert rows["6"].played == 0
    # The table's ratings are the full ranking's: A above B above C above the two Ds.
    expected = rate({}, {"1": 1, "3": 2, "4": 3, "2": 4, "5": 4})
    assert rows["1"].mu == pytest.approx(expected["1"].mu)
    assert rows["4"].mu == pytest.approx(expected["4"].mu)
    assert rows["1"].mu > rows["3"].mu > rows["4"].mu > rows["2"].mu == pytest.approx(rows["5"].mu)


def test_a_match_seats_as_the_ruleset_does_and_no_player_twice() -> None:
    league = league_of()
    with pytest.raises(LeagueError) as refused:
        season.start_match(league, [], ESPER, "1", "2", "g-1", 1.0, rest=("3",), counts=COUNTS)
    assert refused.value.key == "league.match.seats"
    assert refused.value.params["seats"] == "5–11"
    with pytest.raises(LeagueError) as twice:
        season.start_match(
            league, [], ESPER, "1", "2", "g-1", 1.0, rest=("3", "4", "1"), counts=COUNTS
        )
    assert twice.value.key == "league.match.same_player"
    playing = started(league, PLAYERS[:5], "g-1")
    with pytest.raises(LeagueError) as busy:
        season.start_match(
            playing, [], ESPER, "8", "7", "g-2", 1.0, rest=("6", "5", "4"), counts=COUNTS
        )
    assert busy.value.key == "league.match.busy" and busy.value.params["player"] == "<@4>"


def test_a_many_seat_game_is_not_forfeited_and_its_league_is_round_robin() -> None:
    league = started(league_of(), PLAYERS[:5], "g-1")
    with pytest.raises(LeagueError) as refused:
        season.record_result(league, [], ESPER, "g-1", "1", {}, 2.0, status=FORFEIT)
    assert refused.value.key == "league.forfeit.many_seats"
    with pytest.raises(LeagueError) as swiss:
        league_of(fmt=SWISS)
    assert swiss.value.key == "league.format.two_seats"
    assert league.format == ROUND_ROBIN


def test_a_graded_match_round_trips_and_a_two_seat_match_is_stored_as_before() -> None:
    league = started(league_of(), PLAYERS[:6], "g-1")
    result = graded(PLAYERS[:6], "AABCCD", "ABC")
    league = season.record_result(league, [], ESPER, "g-1", None, {}, 5.0, graded=result).league
    assert League.from_json(league.to_json()) == league
    duel = Match("g-2", "1", "2", 0.0, winner="1", ended_at=3.0)
    assert set(duel.to_json()) == {
        "id", "a", "b", "started_at", "status", "winner", "dp_a", "dp_b", "ended_at", "by",
    }  # fmt: skip
    assert Match.from_json(duel.to_json()) == duel


def test_every_grade_has_its_points_and_place() -> None:
    eleven = tuple(str(n) for n in range(1, 12))
    result = graded(eleven, "ABCDABCDABC", "AB")
    assert result.points is not None and set(result.points.values()) == {0, 1, 2, 3}
    assert result.places["1"] == 1 and result.places["4"] == 4
    assert result.won == frozenset({"1", "2"})
