"""Single-elimination cups (cogs/league/cup.py): standard seeding, byes for fields short of a
power of two, the bracket advancing on results, forfeits and withdrawals, and the value's JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.league import cup
from cogs.league.cup import BYE, PLAYED, WALKOVER, Cup, CupError
from cogs.league.ratings import Rating
from tests.cogs.league.refusals import assert_worded


def seeds(count: int) -> list[str]:
    return [str(n) for n in range(1, count + 1)]


def first_round(c: Cup) -> list[tuple[str | None, str | None]]:
    return [(t.a, t.b) for t in c.rounds[0]]


def favourites_win(c: Cup) -> Cup:
    """Play the cup out with the better seed winning every tie."""
    while cup.ready(c):
        _, _, tie = cup.ready(c)[0]
        assert tie.a is not None and tie.b is not None
        c = cup.record(c, tie.a, tie.b, min(tie.a, tie.b, key=int))
    return c


def test_placement_is_the_standard_bracket() -> None:
    assert cup.placement(2) == [1, 2]
    assert cup.placement(4) == [1, 4, 2, 3]
    assert cup.placement(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert cup.placement(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(CupError) as caught:
        cup.placement(12)
    assert (caught.value.key, caught.value.params) == ("league.cup.size", {"size": 12})


def test_eight_players_are_seeded_one_against_eight() -> None:
    c = cup.new(seeds(8))
    assert first_round(c) == [("1", "8"), ("4", "5"), ("2", "7"), ("3", "6")]
    assert cup.byes(c) == []
    done = favourites_win(c)
    assert [(t.a, t.b) for t in done.rounds[1]] == [("1", "4"), ("2", "3")]
    assert [(t.a, t.b) for t in done.rounds[2]] == [("1", "2")]
    assert cup.champion(done) == "1"


def test_sixteen_players_top_seeds_meet_last() -> None:
    c = cup.new(seeds(16))
    assert first_round(c) == [
        ("1", "16"),
        ("8", "9"),
        ("4", "13"),
        ("5", "12"),
        ("2", "15"),
        ("7", "10"),
        ("3", "14"),
        ("6", "11"),
    ]
    done = favourites_win(c)
    assert [(t.a, t.b) for t in done.rounds[1]] == [("1", "8"), ("4", "5"), ("2", "7"), ("3", "6")]
    assert [(t.a, t.b) for t in done.rounds[2]] == [("1", "4"), ("2", "3")]
    assert [(t.a, t.b) for t in done.rounds[3]] == [("1", "2")]
    # seeds 1 and 2 are in different halves, 1-4 in different quarters
    halves = [{p for t in half for p in t.players()} for half in (c.rounds[0][:4], c.rounds[0][4:])]
    assert "1" in halves[0] and "2" in halves[1]


@pytest.mark.parametrize(
    ("count", "size", "through", "played"),
    [
        (5, 8, ["1", "2", "3"], [("4", "5")]),
        (6, 8, ["1", "2"], [("4", "5"), ("3", "6")]),
        (12, 16, ["1", "4", "2", "3"], [("8", "9"), ("5", "12"), ("7", "10"), ("6", "11")]),
    ],
)
def test_byes_go_to_the_top_seeds(
    count: int, size: int, through: list[str], played: list[tuple[str, str]]
) -> None:
    c = cup.new(seeds(count))
    assert c.size == size
    assert cup.byes(c) == through  # in bracket order
    assert sorted(cup.byes(c), key=int) == seeds(size - count)
    assert [(t.a, t.b) for r, _, t in cup.ready(c) if r == 1] == played
    for tie in c.rounds[0]:
        assert (tie.how == BYE) == (tie.b is None)


def test_five_players_byes_meet_in_the_second_round() -> None:
    c = cup.new(seeds(5))
    assert [(t.a, t.b) for t in c.rounds[1]] == [("1", None), ("2", "3")]
    assert [(r, i) for r, i, _ in cup.ready(c)] == [(1, 1), (2, 1)]
    c = cup.record(c, "4", "5", "5")
    assert [(t.a, t.b) for t in c.rounds[1]] == [("1", "5"), ("2", "3")]
    assert cup.still_in(c) == ["1", "2", "3", "5"]


def test_advancing_on_results_to_a_winner() -> None:
    c = cup.new(seeds(4))
    c = cup.record(c, "1", "4", "4")  # an upset
    c = cup.record(c, "3", "2", "3")  # either order of the two players
    assert [(t.a, t.b) for t in c.rounds[1]] == [("4", "3")]
    assert cup.champion(c) is None
    c = cup.record(c, "4", "3", "3")
    assert cup.champion(c) == "3"
    assert cup.ready(c) == []
    assert cup.still_in(c) == ["3"]
    assert c.rounds[-1][0].how == PLAYED


def test_a_forfeit_is_a_walkover() -> None:
    c = cup.new(seeds(4))
    c = cup.record(c, "1", "4", "4", walkover=True)
    assert c.rounds[0][0].how == WALKOVER
    assert c.rounds[1][0].a == "4"


def test_a_withdrawn_player_loses_every_tie_by_walkover() -> None:
    c = cup.new(seeds(8))
    c = cup.withdraw(c, "2")  # in a tie now: 2 v 7 goes to 7
    assert c.rounds[0][2].winner == "7"
    assert c.rounds[0][2].how == WALKOVER
    c = cup.record(c, "3", "6", "3")
    c = cup.withdraw(c, "3")  # through to round 2, against 7: 7 wins that tie by walkover
    assert c.rounds[1][1].winner == "7"
    assert [(t.a, t.b) for _, _, t in cup.ready(c)] == [("1", "8"), ("4", "5")]
    assert cup.withdraw(c, "3") == c


def test_a_withdrawn_player_with_a_bye_gives_the_next_tie_away() -> None:
    c = cup.withdraw(cup.new(seeds(3)), "1")  # 1 has the bye, then meets the winner of 2 v 3
    c = cup.record(c, "2", "3", "3")
    assert cup.champion(c) == "3"
    assert c.rounds[-1][0].how == WALKOVER


def test_refusals() -> None:
    with pytest.raises(CupError) as caught:
        cup.new(["alone"])
    assert (caught.value.key, caught.value.params) == ("league.cup.too_few", {"count": 1})
    with pytest.raises(CupError) as caught:
        cup.new(["a", "a", "b"])
    assert (caught.value.key, caught.value.params) == ("league.cup.seeded_twice", {"player": "a"})
    c = cup.new(seeds(4))
    with pytest.raises(CupError) as caught:
        cup.record(c, "1", "2", "1")  # not a tie
    assert caught.value.key == "league.cup.not_a_tie"
    assert caught.value.params == {"player": "1", "opponent": "2"}
    with pytest.raises(CupError) as caught:
        cup.record(c, "1", "4", "2")  # not in the tie
    assert caught.value.key == "league.cup.not_in_tie"
    assert caught.value.params == {"winner": "2", "player": "1", "opponent": "4"}
    c = cup.record(c, "1", "4", "1")
    with pytest.raises(CupError) as caught:
        cup.record(c, "1", "4", "4")  # decided already
    assert caught.value.key == "league.cup.not_a_tie"
    with pytest.raises(CupError) as caught:
        cup.withdraw(c, "nobody")
    assert (caught.value.key, caught.value.params) == (
        "league.cup.not_in_cup",
        {"player": "nobody"},
    )


def test_refusals_are_worded_in_both_languages() -> None:
    """Every refusal's key has its sentence in English and Japanese, the parameters filled."""
    with pytest.raises(CupError) as caught:
        cup.record(cup.new(["ann", "bob"]), "ann", "bob", "cy")
    assert_worded(caught.value, ("ann", "bob", "cy"))


def test_seeding_from_ratings() -> None:
    ratings = {"ann": Rating(30.0, 2.0, 20), "bob": Rating(28.0, 5.0, 8), "cy": Rating(25.0, 1.0)}
    order = cup.seeded(ratings, ["new", "bob", "cy", "ann"])
    assert order == ("ann", "cy", "bob", "new")  # ordinals 24, 22, 13, 0
    c = cup.new(order)
    assert first_round(c) == [("ann", "new"), ("cy", "bob")]


def test_json_round_trip() -> None:
    c = cup.withdraw(cup.record(cup.new(seeds(6)), "4", "5", "5"), "6")
    back = Cup.from_json(json.loads(json.dumps(c.to_json())))
    assert back == c
    with pytest.raises(CupError) as caught:
        Cup.from_json({**c.to_json(), "schema": 2})
    assert (caught.value.key, caught.value.params) == ("league.cup.schema", {"schema": "2"})


@settings(max_examples=60, deadline=None)
@given(data=st.data(), count=st.integers(2, 64))
def test_any_field_plays_out_to_one_winner(data: st.DataObject, count: int) -> None:
    c = cup.new(seeds(count))
    size = c.size
    assert size // 2 < count <= size
    assert sorted(cup.byes(c), key=int) == seeds(size - count)
    games = 0
    while cup.ready(c):
        _, _, tie = data.draw(st.sampled_from(cup.ready(c)))
        assert tie.a is not None and tie.b is not None
        winner = data.draw(st.sampled_from([tie.a, tie.b]))
        c = cup.record(c, tie.a, tie.b, winner, walkover=data.draw(st.booleans()))
        games += 1
    assert games == count - 1  # every game knocks one player out
    winner = cup.champion(c)
    assert winner is not None
    assert cup.still_in(c) == [winner]
    for r, ties in enumerate(c.rounds):
        assert len(ties) == size >> (r + 1)
        assert all(t.decided for t in ties)
