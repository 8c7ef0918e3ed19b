"""The pure format steps of a league (cogs/league/season.py, issue 33): a drawn or abandoned cup
game leaves its tie open for the next round to replay; an abandoned Swiss game closes its round
as forfeited by both; rounds seeded from ratings; a Swiss or cup league's document round-trips
and an old one reads as round robin."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import registry
from bot.ruleset import RuleError
from cogs.league import cup as cups
from cogs.league import season
from cogs.league import swiss as swisses
from cogs.league.ratings import Rating
from cogs.league.season import ABANDONED, CUP, FINISHED, FORFEIT, SWISS, League, Options

ARENA = registry.get("arena").league
assert ARENA is not None
PLAYERS = ("1", "2", "3", "4")


def league_of(fmt: str, rounds: int = 0) -> League:
    league = season.create(
        "L1",
        guild_id=1,
        channel_id=10,
        name="Formats",
        ruleset="arena",
        support=ARENA,
        season="S1",
        options=Options(turn_minutes=0),
        by="9",
        at=0.0,
        format=fmt,
        swiss_rounds=rounds,
    )
    for p in PLAYERS:
        league = season.join(league, p, f"P{p}")
    return league


def start(league: League, made: season.Round, at: float) -> tuple[League, list[str]]:
    ids = []
    current = made.league
    for n, (a, b) in enumerate(made.pairs):
        step, _ = season.start_match(current, [], ARENA, a, b, f"g-{at:.0f}-{n}", at)
        current = step.league
        ids.append(f"g-{at:.0f}-{n}")
    return current, ids


def test_a_drawn_cup_tie_is_replayed_and_a_forfeit_is_a_walkover() -> None:
    ratings = {"4": Rating(30.0, 1.0), "3": Rating(28.0, 1.0), "2": Rating(26.0, 1.0)}
    made = season.next_round(league_of(CUP), ratings)
    assert made.league.cup is not None and made.league.cup.seeds == ("4", "3", "2", "1")
    assert made.pairs == (("4", "1"), ("3", "2")) and made.byes == ()
    league, (g1, g2) = start(made.league, made, 1.0)
    league = season.record_result(league, [], ARENA, g1, None, {}, 2.0).league  # a draw
    league = season.record_result(
        league, [], ARENA, g2, "2", {}, 2.0, status=FORFEIT, by="9"
    ).league
    assert league.cup is not None
    assert [t.how for t in league.cup.rounds[0]] == ["", cups.WALKOVER]
    replay = season.next_round(league, {})
    assert replay.pairs == (("4", "1"),) and replay.number == 1, "the drawn tie again"
    league, (g3,) = start(replay.league, replay, 3.0)
    with pytest.raises(RuleError) as playing:
        season.next_round(league, {})
    assert playing.value.key == "league.round.playing"
    league = season.record_result(league, [], ARENA, g3, "4", {}, 4.0, status=ABANDONED).league
    assert season.next_round(league, {}).pairs == (("4", "1"),), "abandoned: replayed too"


def test_an_abandoned_swiss_game_closes_the_round_for_neither() -> None:
    made = season.next_round(league_of(SWISS, rounds=2), {})
    league, (g1, g2) = start(made.league, made, 1.0)
    league = season.record_result(league, [], ARENA, g1, None, {}, 2.0, status=ABANDONED).league
    with pytest.raises(RuleError) as open_round:
        season.next_round(league, {})
    assert open_round.value.key == "league.round.playing"
    winner = league.match(g2).a
    league = season.record_result(league, [], ARENA, g2, winner, {}, 2.0).league
    assert league.match(g2).status == FINISHED and league.swiss is not None
    results = [g.result for g in league.swiss.rounds[0]]
    assert sorted(map(str, results)) == sorted([swisses.NEITHER, swisses.FIRST])
    again = season.next_round(league, {})
    assert again.league.swiss is not None and len(again.league.swiss.rounds) == 2
    assert League.from_json(again.league.to_json()) == again.league
    league, ids = start(again.league, again, 3.0)
    for game_id in ids:
        league = season.record_result(league, [], ARENA, game_id, None, {}, 4.0).league
    with pytest.raises(RuleError) as done:
        season.next_round(league, {})
    assert done.value.key == "league.round.done"


def test_a_substituted_seat_steps_the_swiss_and_the_cup_for_its_entrant() -> None:
    """A seat handed to a substitute (issue 34): the result is the final players', but the Swiss
    records the game for the league players it paired and the cup's tie goes to the entrant."""
    for fmt in (SWISS, CUP):
        made = season.next_round(league_of(fmt, rounds=2), {})
        league, (g1, g2) = start(made.league, made, 1.0)
        first = league.match(g1)
        handed = replace(first, b="sub", entrants=first.players())
        league = replace(league, matches=(handed, league.match(g2)))
        assert League.from_json(league.to_json()) == league
        league = season.record_result(league, [], ARENA, g1, "sub", {}, 2.0).league
        league = season.record_result(league, [], ARENA, g2, league.match(g2).a, {}, 2.0).league
        assert league.match(g1).winner == "sub", "the result is the final player's"
        if fmt == SWISS:
            assert league.swiss is not None and not swisses.round_open(league.swiss)
            assert "sub" not in season.next_round(league, {}).league.swiss.players
        else:
            assert league.cup is not None
            assert first.b in {t.winner for t in league.cup.rounds[0]}, "the entrant goes on"
            assert "sub" not in {p for *_, t in cups.ready(league.cup) for p in t.players()}


def test_an_abandoned_game_of_many_seats_is_recorded() -> None:
    esper = registry.get("esper").league
    assert esper is not None
    league = season.create(
        "L9", guild_id=1, channel_id=10, name="Espers", ruleset="esper", support=esper,
        season="S1", options=Options(turn_minutes=0), by="9", at=0.0,
        counts=registry.get("esper").seats.allowed(),
    )  # fmt: skip
    for p in (*PLAYERS, "5"):
        league = season.join(league, p, f"P{p}")
    step, _ = season.start_match(
        league, [], esper, "1", "2", "g-1", 1.0, rest=("3", "4", "5"), counts=range(5, 12)
    )
    ended = season.record_result(step.league, [], esper, "g-1", None, {}, 2.0, status=ABANDONED)
    assert ended.league.match("g-1").status == ABANDONED
    assert ended.notices[0].key == "league.match.abandoned"
