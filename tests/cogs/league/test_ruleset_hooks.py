"""What a ruleset may add to a league, pure: a pick check (the automatic pick takes the costliest
entry it accepts), an ante's spare check, the draft's fewest rounds, options fixed at creation
and rosters from a league's stored options; a ruleset without them (tactics) as before."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot import packs
from bot.ruleset import RuleError
from cogs.apeiron import league as lg
from cogs.apeiron import pack as packlib
from cogs.league import ante as antes
from cogs.league import draft as drafts
from cogs.league import season
from cogs.league.ledger import DRAFT_PICK, Entry
from cogs.league.rulesets import typed_unit
from cogs.league.season import LeagueError, Options
from cogs.tactics.league import LEAGUE as TACTICS
from tests.cogs.apeiron.test_league import HOSTILE

POOL = [("big", 9), ("mid", 5), ("small", 1)]


def no_big_twice(held: Sequence[str], entry: str, picks_left: int) -> None:
    if entry == "big" and "big" in held:
        raise RuleError("test.no_big_twice")
    if entry == "mid" and picks_left == 0:
        raise RuleError("test.no_mid_last")


def test_the_pick_check_refuses_and_the_automatic_pick_keeps_within_it() -> None:
    state = drafts.new_draft("L1", ["a"], POOL * 2, rounds=3, per_pick=60, at=0)
    state = drafts.pick(state, "a", "big", 1, check=no_big_twice)
    with pytest.raises(RuleError) as refused:
        drafts.pick(state, "a", "big", 2, check=no_big_twice)
    assert refused.value.key == "test.no_big_twice"
    assert drafts.auto_pick(state) == "big", "without the check: the costliest"
    assert drafts.auto_pick(state, no_big_twice) == "mid"
    state = drafts.run_expired(state, 1000, no_big_twice)
    assert [p.unit for p in state.picks] == ["big", "mid", "small"], "mid refused last"
    assert all(p.auto for p in state.picks[1:])


def test_the_automatic_pick_takes_the_costliest_when_the_check_accepts_none() -> None:
    def none(held: Sequence[str], entry: str, picks_left: int) -> None:
        raise RuleError("test.none")

    state = drafts.new_draft("L1", ["a"], POOL, rounds=1, per_pick=60, at=0)
    assert drafts.auto_pick(state, none) == "big"


def test_an_ante_offers_only_what_the_loser_can_spare() -> None:
    entries = [
        Entry("L1", "b", unit, DRAFT_PICK, 1.0, "b", str(i))
        for i, unit in enumerate(["x", "y", "y"])
    ]

    def spare(held: Sequence[str], unit: str) -> bool:
        return list(held).count(unit) > 1

    offered = antes.offer(entries, "L1", "g1", "a", "b", 2.0, spare=spare)
    assert offered.candidates == ("y",)
    assert antes.offer(entries, "L1", "g1", "a", "b", 2.0).candidates == ("x", "y")


def test_apeiron_can_lose_only_what_keeps_a_deck() -> None:
    starter = packlib.starter()
    units = [lg.card(lg.UNIT, u) for u in list(starter.units)[:8]]
    chest = [lg.card(lg.CHEST, c) for c in list(starter.chest)[:7]]
    rules = lg.ApeironRosters()
    held = [*units, *chest, units[0]]
    assert rules.can_lose(held, chest[0]), "a seventh chest card is spare"
    assert rules.can_lose(held, units[0]), "a copy is spare"
    assert not rules.can_lose(held, units[1]), "the eighth unit is not"


def test_options_store_the_rulesets_own_flat_and_read_back() -> None:
    plain = Options(rounds=3)
    assert "game" not in plain.to_json() and Options.from_json(plain.to_json()) == plain
    fixed = Options(rounds=14, game={"time_control": "tournament", "turn_limit": 4})
    stored = fixed.to_json()
    assert stored["time_control"] == "tournament" and stored["turn_limit"] == 4
    assert Options.from_json(stored) == fixed
    with pytest.raises(LeagueError) as too_many:
        Options(rounds=season.ROUNDS_MAX + 1)
    assert too_many.value.key == "league.option.rounds"


def test_the_draft_is_as_long_as_the_rulesets_rosters_need() -> None:
    with pytest.raises(LeagueError) as short:
        Options(rounds=lg.DRAFT_PICKS - 1).check_for(lg.LEAGUE)
    assert short.value.key == "league.option.rounds_min"
    Options(rounds=lg.DRAFT_PICKS).check_for(lg.LEAGUE)
    Options(rounds=2).check_for(TACTICS)  # tactics: no minimum
    assert TACTICS.draft_rounds is None and season.pick_check(TACTICS.rosters) is None


def test_a_leagues_pack_comes_from_its_options_not_the_server() -> None:
    starter, hostile = packlib.starter(), packlib.loads(HOSTILE)
    assert lg.league_options({"turn_limit": 3}, None) == {"turn_limit": 3}
    assert lg.league_options({}, packs.canonical_json(starter.source)) == {}, "the starter"
    filled = lg.league_options({"turn_limit": 3}, packs.canonical_json(hostile.source))
    assert filled["pack_hash"] == hostile.hash and filled["turn_limit"] == 3
    rules = lg.LEAGUE.rosters_for(filled)
    assert rules is not None and rules.pool() == lg.ApeironRosters.for_pack(hostile).pool()
    assert lg.LEAGUE.rosters_for({}) is lg.STARTER_ROSTERS
    with pytest.raises(RuleError):
        lg.LEAGUE.rosters_for({**filled, "pack_hash": "0" * 64})
    assert TACTICS.rosters_for({"pack": "anything"}) is TACTICS.rosters


def test_a_typed_card_is_found_by_its_name_or_refused_when_it_names_two() -> None:
    hostile = packlib.loads(HOSTILE)
    rules = lg.ApeironRosters.for_pack(hostile)
    stalwart = next(u for u in hostile.units.values() if u.name_en == "守衛長")
    assert typed_unit(rules, " 守衛長 ", "ja") == f"unit:{stalwart.id}"
    assert typed_unit(rules, "chest:a1", "en") == "chest:a1"
    assert typed_unit(rules, "nothing-like-it", "en") == "nothing-like-it", "refused later"
    tonic = hostile.chest["keep"]
    shared = packlib.loads(HOSTILE.replace(f'name_en = "{tonic.name_en}"', 'name_en = "守衛長"', 1))
    with pytest.raises(LeagueError) as two:
        typed_unit(lg.ApeironRosters.for_pack(shared), "守衛長", "en")
    assert two.value.key == "league.unit.ambiguous"
    assert "`chest:keep`" in two.value.params["choices"]
    assert typed_unit(TACTICS.rosters, " knight ", "en") == "knight", "tactics: as typed"
