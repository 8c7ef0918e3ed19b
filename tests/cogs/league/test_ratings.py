"""Ratings over finished games (cogs/league/ratings.py): OpenSkill's Plackett-Luce, two seats or
many, ties, the uncertainty shrinking as games are played, and the values' JSON."""

from __future__ import annotations

import json

import pytest

from cogs.league import ratings
from cogs.league.ratings import MU, SIGMA, Rating


def test_a_new_player_starts_at_the_defaults_with_ordinal_zero() -> None:
    new = Rating()
    assert (new.mu, new.sigma, new.games) == (MU, SIGMA, 0)
    assert new.ordinal == pytest.approx(0.0)
    assert new.text() == "25.0 ± 25.0"


def test_the_winner_rises_and_the_loser_falls() -> None:
    after = ratings.rate({}, ratings.two_seat("a", "b", "a"))
    assert after["a"].mu > MU > after["b"].mu
    assert after["a"].ordinal > 0 > after["b"].ordinal
    assert after["a"].games == after["b"].games == 1


def test_a_draw_between_equals_moves_neither_mean() -> None:
    after = ratings.rate({}, ratings.two_seat("a", "b", None))
    assert after["a"].mu == pytest.approx(MU)
    assert after["b"].mu == pytest.approx(MU)
    assert after["a"].sigma < SIGMA


def test_a_draw_pulls_the_favourite_down_and_the_underdog_up() -> None:
    strong, weak = Rating(30.0, 4.0, 10), Rating(20.0, 4.0, 10)
    after = ratings.rate({"s": strong, "w": weak}, ratings.two_seat("s", "w", None))
    assert after["s"].mu < strong.mu
    assert after["w"].mu > weak.mu


def test_a_win_against_a_stronger_player_moves_more() -> None:
    field = {"me": Rating(), "strong": Rating(35.0, 3.0, 20), "weak": Rating(15.0, 3.0, 20)}
    upset = ratings.rate(field, {"me": 1, "strong": 2})["me"].mu - MU
    expected = ratings.rate(field, {"me": 1, "weak": 2})["me"].mu - MU
    assert upset > expected > 0


def test_many_seats_are_ordered_by_their_places() -> None:
    ranking = {f"p{i}": i for i in range(1, 8)}  # seven seats, all new players
    after = ratings.rate({}, ranking)
    means = [after[f"p{i}"].mu for i in range(1, 8)]
    assert means == sorted(means, reverse=True)
    assert len(set(means)) == 7
    assert after["p1"].mu > MU > after["p7"].mu


def test_tied_places_among_equals_get_equal_ratings() -> None:
    after = ratings.rate({}, {"a": 1, "b": 2, "c": 2, "d": 4})
    assert after["b"] == after["c"]
    assert after["a"].mu > after["b"].mu > after["d"].mu


def test_the_order_of_the_mapping_does_not_matter() -> None:
    one = ratings.rate({}, {"a": 1, "b": 2, "c": 2, "d": 4})
    other = ratings.rate({}, {"d": 4, "c": 2, "b": 2, "a": 1})
    assert one == other


def test_sigma_shrinks_with_games() -> None:
    table: dict[str, Rating] = {}
    sigmas = []
    for n in range(6):
        winner = "a" if n % 2 == 0 else "b"
        table = ratings.rate(table, ratings.two_seat("a", "b", winner))
        sigmas.append(table["a"].sigma)
    assert sigmas == sorted(sigmas, reverse=True)
    assert sigmas[-1] < SIGMA
    assert table["a"].games == 6


def test_rate_leaves_its_input_and_the_other_players_alone() -> None:
    before = {"a": Rating(), "b": Rating(), "idle": Rating(28.0, 2.0, 40)}
    snapshot = dict(before)
    after = ratings.rate(before, {"a": 1, "b": 2})
    assert before == snapshot
    assert after["idle"] == before["idle"]


def test_rate_all_folds_the_games_in_order() -> None:
    games = [{"a": 1, "b": 2}, {"b": 1, "c": 2}, {"a": 1, "b": 1, "c": 3}]
    table: dict[str, Rating] = {}
    for game in games:
        table = ratings.rate(table, game)
    assert ratings.rate_all(games) == table
    assert ratings.rate_all(games[1:], ratings.rate({}, games[0])) == table


def test_refusals() -> None:
    with pytest.raises(ValueError):
        ratings.rate({}, {"alone": 1})
    with pytest.raises(ValueError):
        ratings.rate({}, {"a": 0, "b": 1})
    with pytest.raises(ValueError):
        ratings.two_seat("a", "b", "c")


def test_seed_order_by_ordinal_then_mean_then_id() -> None:
    table = {
        "sure": Rating(30.0, 2.0, 30),  # ordinal 24
        "lucky": Rating(40.0, 8.0, 2),  # ordinal 16
        "b": Rating(25.0, 5.0, 5),  # ordinal 10, mu 25
        "a": Rating(22.0, 4.0, 5),  # ordinal 10, mu 22
    }
    order = ratings.seed_order(table, ["a", "b", "lucky", "sure", "new2", "new1"])
    assert order == ("sure", "lucky", "b", "a", "new1", "new2")


def test_json_round_trip() -> None:
    table = ratings.rate_all([{"a": 1, "b": 2, "c": 3}, {"c": 1, "a": 2}])
    text = json.dumps(ratings.table_to_json(table))
    back = ratings.table_from_json(json.loads(text))
    assert back == table
    assert Rating.from_json({"mu": 20, "sigma": 5}) == Rating(20.0, 5.0, 0)
