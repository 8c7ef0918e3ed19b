"""Tactics in a league (cogs/tactics/league.py): what its RULESET declares and what the league reads
of it: the draft pool, masters, a match's options from the rosters, a finished game's result with
DP, and the options a league may fix. The contract's own types (bot/leagues.py) are checked here
too, with the one ruleset that has rosters."""

from __future__ import annotations

import pytest

from bot import registry
from bot.leagues import DP, FixedOption, LeagueResult
from bot.ruleset import LeagueSupport, OptionRefused, Outcome, RuleError, result_by_outcome
from cogs.league.ledger import Roster
from cogs.tactics import RULESET
from cogs.tactics import rules as tactics
from cogs.tactics.league import LEAGUE, TacticsRosters, result
from cogs.tactics.units import pool

PLAYERS = {"A": "101", "B": "102"}
ZED = {"en": "Zed", "ja": "ゼッド", "hp": 14, "atk": 5, "def": 2, "move": 3, "range_max": 1}


def test_tactics_declares_its_league_in_its_ruleset() -> None:
    assert RULESET.league is LEAGUE and registry.get("tactics").league is LEAGUE
    assert isinstance(LEAGUE.rosters, TacticsRosters) and LEAGUE.rosters.has_masters
    assert LEAGUE.figures == (DP,)
    assert LEAGUE.master_options is not None and callable(LEAGUE.master_options.load())


def test_the_draft_pool_holds_two_copies_of_every_unit() -> None:
    rosters = TacticsRosters()
    drafted = rosters.pool()
    once = [(u.id, u.cost) for u in pool()]
    assert drafted == once + once
    assert rosters.unit_name("knight", "ja") != rosters.unit_name("knight", "en") == "Knight"


def test_masters_a_preset_a_design_and_a_refusal() -> None:
    rosters = TacticsRosters()
    unit, summary = rosters.master({"preset": "warlord"})
    assert unit == "warlord" and "HP" in summary and "cost" in summary
    unit, _ = rosters.master(ZED)
    assert unit == "master:zed", "a design's id is never a pool unit's"
    assert rosters.master_name(ZED, "ja") == "ゼッド"
    assert rosters.master_id(ZED, "zed") == "master:zed", "as stored before ids had a prefix"
    assert rosters.master_id({"preset": "warlord"}, "warlord") == "warlord"
    with pytest.raises(RuleError) as refused:
        rosters.master({"preset": "nobody"})
    assert refused.value.key == "tactics.option.unknown_master"


def test_a_match_takes_the_fixed_options_and_the_rosters() -> None:
    fixed = LEAGUE.fixed({"cost_cap": 30, "turn_minutes": 5, "ante": True})
    assert fixed == {"cost_cap": 30, "tie_break": "none"}, "only the options tactics declares"
    rosters = {
        "A": (Roster("101", ("knight", "cleric")), {"preset": "warlord"}),
        "B": (Roster("102", ("archer",)), ZED),
    }
    options = TacticsRosters().match_options(fixed, rosters)
    assert options["cost_cap"] == 30 and options["tie_break"] == "none"
    assert options["rosters"]["A"] == {"master": "warlord", "units": ["knight", "cleric"]}
    assert options["rosters"]["B"]["master"] == ZED
    tactics.check_options(options)  # the engine takes what the league makes


def test_the_options_a_league_may_fix_are_the_engines() -> None:
    cap, tie_break = LEAGUE.option("cost_cap"), LEAGUE.option("tie_break")
    assert cap is not None and tie_break is not None and LEAGUE.option("map") is None
    assert tie_break.values == tactics.TIE_BREAKS
    assert cap.allows(1) and cap.allows(60) and not cap.allows(61) and not cap.allows(True)
    for value, key in (({"cost_cap": 0}, "tactics.option.cap"), ({"tie_break": "coin"}, None)):
        with pytest.raises(OptionRefused) as refused:
            LEAGUE.fixed(value)
        assert refused.value.key == (key or "tactics.option.tie_break")
        with pytest.raises(RuleError):
            tactics.check_options(value)  # the engine refuses the same value


def test_a_finished_game_gives_the_winner_and_each_sides_dp() -> None:
    won = result({"dp": {"A": 7, "B": 3}}, Outcome.win("B", reason="dp"), PLAYERS)
    assert won.winner == "102" and won.places == {"101": 2, "102": 1}
    assert (won.figure("101", DP), won.figure("102", DP)) == (7, 3)
    drawn = result({"dp": {"A": 4, "B": 4}}, Outcome.drawn(), PLAYERS)
    assert drawn.winner is None and drawn.places == {"101": 1, "102": 1}
    assert drawn.figure("102", DP) == 4
    nothing = result({}, Outcome.win("A"), PLAYERS)
    assert nothing.winner == "101" and nothing.figure("101", DP) == 0


# --- the contract's types ---------------------------------------------------------------------


def test_a_league_result_places_every_player() -> None:
    three = LeagueResult({"a": 1, "b": 2, "c": 2}, points={"a": 3, "b": 1, "c": 1})
    assert three.winner == "a" and three.to_json()["points"] == {"a": 3, "b": 1, "c": 1}
    assert LeagueResult({"a": 1, "b": 1, "c": 3}).winner is None, "a shared first place"
    for bad in ({"a": 1}, {"a": 0, "b": 1}, {"a": True, "b": 2}):
        with pytest.raises(ValueError):
            LeagueResult(bad)
    with pytest.raises(ValueError):
        LeagueResult({"a": 1, "b": 2}, figures={"c": {DP: 1}})


def test_without_a_result_of_its_own_the_outcome_places_the_players() -> None:
    assert result_by_outcome({}, Outcome.win("A"), PLAYERS).places == {"101": 1, "102": 2}
    assert result_by_outcome({}, Outcome.drawn(), PLAYERS).places == {"101": 1, "102": 1}
    assert result_by_outcome({}, Outcome.drawn(), PLAYERS).figures == {}


def test_a_league_support_is_checked_when_declared() -> None:
    cap = FixedOption("cost_cap", 18, "tactics.option.cap", low=1, high=60)
    with pytest.raises(ValueError):
        LeagueSupport(options=(cap, cap))
    with pytest.raises(ValueError):
        LeagueSupport(master_options=LEAGUE.master_options)  # masters need rosters
    with pytest.raises(ValueError):
        FixedOption("cost_cap", 99, "tactics.option.cap", low=1, high=60)
    assert LeagueSupport().fixed({"cost_cap": 30}) == {}, "nothing fixed, nothing kept"
