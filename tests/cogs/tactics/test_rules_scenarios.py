"""Scenario tests of the tactics engine (../shared/rules/tactics.md), one rule at a time.

Hand-placed boards: ``board({"warlord": "E9", "knight": "D5"}, {...})`` puts each seat's master
(the first entry) and pool units where the values say (``None``: in reserve).
"""

from __future__ import annotations

import json

import pytest

from bot.dice import NoDice, ScriptedDice
from bot.ruleset import OrderRejected, RuleError
from cogs.tactics import rules
from cogs.tactics.rules import TacticsState


def sq(text: str) -> tuple[int, int]:
    found = rules.try_parse(text)
    assert found is not None
    return found


def board(
    a: dict[str, str | None],
    b: dict[str, str | None],
    *,
    turn: int = 1,
    first: str = "A",
    **options: object,
) -> TacticsState:
    rosters = {}
    for seat, placed in (("A", a), ("B", b)):
        names = list(placed)
        units = names[1:] or ["militia"]
        rosters[seat] = {"master": names[0], "units": units}
    state = rules.new_game("g", rules.SEATS, {"rosters": rosters, **options}, NoDice())
    for seat, placed in (("A", a), ("B", b)):
        spots = list(placed.values())
        for index, unit in enumerate(state.side_units(seat)):
            where = spots[index] if index < len(spots) else None
            if index >= len(spots):
                unit.status, unit.hp = "dead", 0  # the padding militia has already fallen
            elif where is not None:
                unit.status, unit.square = "board", sq(where)
    state.step, state.turn, state.first = "play", turn, first
    state.step_no = turn + 1  # deploy was step 1 (no roster step): play turn n is step n + 1
    state.resolved = turn
    return state


def play(state: TacticsState, a: str = "", b: str = "") -> tuple[TacticsState, list[dict]]:
    orders = {"A": rules.parse(state, "A", a or "wait"), "B": rules.parse(state, "B", b or "wait")}
    new, events = rules.resolve(state, orders, NoDice())
    return new, [e.to_json() for e in events]


def next_turn(state: TacticsState) -> TacticsState:
    opened, events = rules.start_step(state, NoDice())
    assert events == []
    return opened


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def refused(state: TacticsState, seat: str, text: str) -> OrderRejected:
    before = json.dumps(rules.to_json(state), sort_keys=True)
    with pytest.raises(OrderRejected) as caught:
        rules.parse(state, seat, text)
    assert json.dumps(rules.to_json(state), sort_keys=True) == before  # nothing changed
    assert caught.value.key.startswith("tactics.reject.")
    return caught.value


# --- steps, turns, options --------------------------------------------------------------------


def test_turn_counts_steps_roster_deploy_then_play():
    state = rules.new_game("g", rules.SEATS, {}, NoDice())
    assert rules.step_number(state) == 0 and rules.awaiting(state) == []
    state = next_turn(state)
    assert (state.step, rules.step_number(state), rules.awaiting(state)) == (
        "roster",
        1,
        ["A", "B"],
    )
    state, events = rules.resolve(state, {s: rules.default_order(state, s) for s in "AB"}, NoDice())
    assert types([e.to_json() for e in events]) == ["rosters"] and rules.awaiting(state) == []
    state = next_turn(state)
    assert (state.step, rules.step_number(state)) == ("deploy", 2)
    state, _ = rules.resolve(
        state, {s: rules.default_order(state, s) for s in "AB"}, ScriptedDice([4, 2])
    )
    state = next_turn(state)
    assert (state.step, state.turn, rules.step_number(state)) == ("play", 1, 3)


def test_league_rosters_skip_the_roster_step():
    rosters = {
        "A": {"master": "warlord", "units": ["knight", "archer"]},
        "B": {
            "master": {
                "id": "titan",
                "en": "Titan",
                "ja": "巨人",
                "hp": 20,
                "atk": 5,
                "def": 2,
                "move": 2,
                "range_max": 1,
            },
            "units": ["cleric"],
        },
    }
    state = next_turn(rules.new_game("g", rules.SEATS, {"rosters": rosters}, NoDice()))
    assert state.step == "deploy" and rules.step_number(state) == 1
    assert [u.type.id for u in state.side_units("B")] == ["master:titan", "cleric"]
    assert state.units["B1"].type.master


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"map": "moon"}, "tactics.map.unknown"),
        ({"cost_cap": 0}, "tactics.option.cap"),
        ({"cost_cap": 61}, "tactics.option.cap"),
        ({"cost_cap": "18"}, "tactics.option.cap"),
        ({"tie_break": "coin"}, "tactics.option.tie_break"),
        ({"turns": 0}, "tactics.option.turns"),
        ({"rosters": {"A": {}}}, "tactics.option.rosters"),
        (
            {
                "rosters": {
                    "A": {"master": "warlord", "units": ["knight"] * 3},
                    "B": {"master": "warlord", "units": ["knight"]},
                }
            },
            "tactics.option.too_many_copies",
        ),
        (
            {
                "rosters": {
                    "A": {"master": "nobody", "units": ["knight"]},
                    "B": {"master": "warlord", "units": ["knight"]},
                }
            },
            "tactics.option.unknown_master",
        ),
    ],
)
def test_bad_options_are_refused_with_a_key(options, key):
    with pytest.raises(RuleError) as caught:
        rules.check_options(options)
    assert caught.value.key == key


def test_good_options_pass():
    rules.check_options({})
    rules.check_options({"map": "narrow_pass", "cost_cap": 60, "tie_break": "hp", "turns": 10})


# --- deployment -------------------------------------------------------------------------------


def deploy_state(cap: int = 18) -> TacticsState:
    rosters = {
        seat: {
            "master": "warlord",
            "units": ["knight", "knight", "archer", "scout", "militia", "cleric"],
        }
        for seat in "AB"
    }
    return next_turn(
        rules.new_game("g", rules.SEATS, {"rosters": rosters, "cost_cap": cap}, NoDice())
    )


def test_deployment_cap_is_inclusive_and_lineups_have_one_to_five_units():
    state = deploy_state()
    order = rules.parse(state, "A", "warlord E9, knight C9, archer D9, scout F9, militia G9")
    assert order.canonical() == "A1 E9, A2 C9, A4 D9, A5 F9, A6 G9"  # 10+3+3+1+1 = 18
    assert refused(state, "A", "warlord E9, knight C9, knight D9, archer F9").params == {
        "cost": 19,
        "cap": 18,
    }
    assert refused(state, "A", "knight C9, knight D9, archer E9, scout F9, militia G9, cleric H9")
    assert refused(state, "A", "knight C3").key == "tactics.reject.not_in_zone"
    assert refused(state, "B", "knight C9").key == "tactics.reject.not_in_zone"
    assert refused(state, "A", "knight C9, scout C9").key == "tactics.reject.occupied"


def test_a_copy_is_picked_by_id_and_a_name_twice_means_both_copies():
    state = deploy_state()
    assert rules.parse(state, "A", "A3 C9").canonical() == "A3 C9"
    assert rules.parse(state, "A", "剣士 C9、剣士 D9").canonical() == "A2 C9, A3 D9"
    assert refused(state, "A", "A3 C9, A3 D9").key == "tactics.reject.duplicate_line"
    assert refused(state, "A", "B2 C9").key == "tactics.reject.enemy_unit"


def test_deployments_are_secret_until_both_are_in_then_revealed_together():
    state = deploy_state()
    secret = rules.view(state, "B")
    assert all(u["square"] is None and u["status"] == "reserve" for u in secret["units"])
    orders = {
        "A": rules.parse(state, "A", "warlord E9, knight C9"),
        "B": rules.parse(state, "B", "cleric E2"),
    }
    state, events = rules.resolve(state, orders, ScriptedDice([3, 3, 2, 5]))
    events = [e.to_json() for e in events]
    assert types(events) == ["deployed", "deployed", "first"]
    assert events[0]["units"] == [{"unit": "A1", "square": "E9"}, {"unit": "A2", "square": "C9"}]
    assert events[2]["dice"] == {"A": [3, 2], "B": [3, 5]} and events[2]["seat"] == "B"
    public = rules.view(state, None)
    assert {u["id"]: u["square"] for u in public["units"] if u["status"] == "board"} == {
        "A1": "E9",
        "A2": "C9",
        "B7": "E2",
    }
    assert public["first"] == "B" and public["step"] == "play" and public["turn"] == 1


def test_default_lineup_is_the_master_then_pool_order_within_the_cap():
    state = deploy_state(cap=15)
    order = rules.default_order(state, "A")
    lineup = [state.units[ln.unit].type.id for ln in order.lines]
    assert lineup == ["warlord", "knight", "scout", "militia"]  # 10+3+1+1; knight 2 and archer over
    assert rules.parse(state, "A", order.canonical()) == order


# --- mana and summons -------------------------------------------------------------------------


def test_mana_ramps_with_the_turn_and_never_carries_over():
    state = board({"warlord": "E9"}, {"archmage": "E2"})
    seen = []
    for _ in range(11):
        state, events = play(state)
        mana_events = [e for e in events if e["type"] == "mana"]
        seen.append([(e["seat"], e["mana"], e["max"]) for e in mana_events])
        if state.step == "finished":
            break
        state = next_turn(state)
    assert [row[0][1] for row in seen] == list(range(1, 11))
    assert all(row[0] == ("A", n, n) and row[1] == ("B", n, n) for n, row in enumerate(seen, 1))


def test_a_summon_and_abilities_must_fit_in_this_turns_mana():
    state = board({"warlord": "E9", "knight": None, "cleric": "C9"}, {"archmage": "E2"}, turn=3)
    error = refused(state, "A", "summon knight A9\ncleric ability C9")
    assert error.key == "tactics.reject.not_enough_mana"
    assert error.params == {"need": 5, "have": 3}


def test_summoned_unit_pays_and_waits_a_turn():
    state = board({"warlord": "E9", "knight": None}, {"archmage": "E2"}, turn=3)
    assert rules.view(state, "A")["summon_turn"] is True
    new, events = play(state, "召喚 剣士 A9")
    summon = next(e for e in events if e["type"] == "summon")
    assert summon == {
        "type": "summon",
        "unit": "A2",
        "to": "A9",
        "cost": 3,
        "names": {"A2": {"en": "Knight", "ja": "剣士"}},
    }
    assert new.mana["A"] == [0, 3]
    assert {"kind": "summon", "side": "A", "unit": "A2", "to": "A9"} in new.last
    new = next_turn(new)
    assert rules.parse(new, "A", "knight A9>A7").lines[0].dest == sq("A7")
    assert "A2" in rules.own_units(new, "A")


@pytest.mark.parametrize("turn", [1, 2, 4, 6, 8, 10])
def test_summons_are_refused_outside_turns_3_and_7(turn):
    state = board({"warlord": "E9", "knight": None}, {"archmage": "E2"}, turn=turn)
    assert refused(state, "A", "summon knight A9").key == "tactics.reject.summon_not_now"


def test_a_summon_must_land_on_a_free_square_of_the_zone_and_not_bring_back_the_dead():
    state = board({"warlord": "E9", "knight": None, "scout": "A9"}, {"archmage": "E2"}, turn=7)
    assert refused(state, "A", "summon knight A5").key == "tactics.reject.not_in_zone"
    assert refused(state, "A", "summon knight A9").key == "tactics.reject.occupied"
    assert refused(state, "A", "summon knight A9\nsummon scout B9").key in (
        "tactics.reject.two_summons",
        "tactics.reject.not_in_reserve",
    )
    state.units["A2"].status = "dead"
    assert refused(state, "A", "summon knight B9").key == "tactics.reject.dead_unit"


def test_a_summon_onto_a_square_taken_in_the_first_phase_falls_through():
    state = board({"warlord": "J10", "knight": None}, {"shadow": "A7"}, turn=3, first="B")
    new, events = play(state, "summon knight A9", "shadow A7>A9")
    fallback = next(e for e in events if e["type"] == "fallback.no_summon")
    assert fallback["reason"] == "tactics.why.occupied"
    assert new.units["A2"].status == "reserve" and new.mana["A"] == [3, 3]


# --- movement (ZOC) ---------------------------------------------------------------------------


def test_zoc_a_move_never_passes_an_enemy_square_but_passes_allies():
    # Corridor of the narrow pass: row 5 is walled except C5 and F5.
    state = board({"warlord": "C7", "cavalry": "C6"}, {"archmage": "C4"}, map="narrow_pass")
    # Accepted (the enemy may move or fall first); it falls back while the enemy stays.
    _, events = play(state, rules.parse(state, "A", "cavalry C6>C3").canonical())
    assert any(e["type"] == "fallback.no_move" and e["unit"] == "A2" for e in events)
    assert "C3" not in rules.reachable(state, "A2")
    assert "C4" not in rules.reachable(state, "A2")  # held by the enemy: never an end square
    # An ally blocks nothing: the warlord walks through the cavalry's square.
    assert "C5" in rules.reachable(state, "A1")
    order = rules.parse(state, "A", "warlord C7>C5")
    new, events = play(state, order.canonical())
    move = next(e for e in events if e["type"] == "move")
    assert move["path"] == ["C7", "C6", "C5"] and new.units["A1"].square == sq("C5")


def test_a_move_ends_on_a_free_square_unless_an_earlier_line_leaves_it():
    state = board({"warlord": "E9", "knight": "E8", "scout": "E7"}, {"archmage": "A1"})
    assert refused(state, "A", "warlord E9>E8").key == "tactics.reject.occupied"
    assert refused(state, "A", "warlord E9>E8\nknight E8>F8").key == "tactics.reject.occupied"
    order = rules.parse(state, "A", "knight E8>F8\nwarlord E9>E8")
    new, _ = play(state, order.canonical())
    assert new.units["A1"].square == sq("E8") and new.units["A2"].square == sq("F8")
    assert rules.reachable(state, "A1")[0] == "E9"  # its own square first (no move)
    assert "E8" not in rules.reachable(state, "A1")


def test_obstacles_block_moves():
    state = board({"warlord": "D6", "scout": "A10"}, {"archmage": "A1"})  # D4 is an obstacle
    assert "D4" not in rules.reachable(state, "A1")
    assert refused(state, "A", "warlord D6>D4").key == "tactics.reject.occupied"


# --- attacks, friendly fire, DP ---------------------------------------------------------------


def test_friendly_fire_hurts_but_scores_nothing():
    state = board({"warlord": "E9", "knight": "E8", "scout": "E7"}, {"archmage": "A1"})
    new, events = play(state, "knight attack E7")  # ATK 5 vs DEF 0, scout HP 4
    death = next(e for e in events if e["type"] == "death")
    assert death["unit"] == "A3" and death["friendly"] is True and death["points"] == 0
    assert new.dp == {"A": 0, "B": 0} and new.units["A3"].status == "dead"
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["target"] == "E7" and attack["target_unit"] == "A3" and attack["damage"] == 5
    assert {"kind": "attack", "side": "A", "unit": "A2", "from": "E8", "to": "E7"}.items() <= next(
        x for x in new.last if x["kind"] == "attack"
    ).items()
    assert next(x for x in new.last if x["kind"] == "attack")["friendly"] is True


def test_an_area_ability_that_kills_a_friend_scores_nothing_but_an_enemy_scores():
    state = board(
        {"warlord": "J10", "mage": "E9", "scout": "E6"}, {"archmage": "A1", "militia": "E5"}
    )
    state.turn = 3
    state.step_no = state.resolved + 1
    state.units["B2"].hp = 4
    new, events = play(state, "mage ability E5")  # Fireball: 4 to E5 and around, scout HP 4
    deaths = {e["unit"]: e for e in events if e["type"] == "death"}
    assert deaths["A3"]["friendly"] is True and deaths["A3"]["points"] == 0
    assert deaths["B2"]["friendly"] is False and deaths["B2"]["dp_to"] == "A"
    assert new.dp == {"A": 1, "B": 0}
    damage = [e for e in events if e["type"] == "damage"]
    assert all(e["by"] == "A2" for e in damage)


def test_attacks_are_refused_at_submission_when_they_cannot_be_made():
    state = board(
        {"warlord": "E9", "saint": "C9", "archer": "G9", "knight": "E8"}, {"archmage": "E2"}
    )
    assert refused(state, "A", "saint attack C8").key == "tactics.reject.cannot_attack"
    assert refused(state, "A", "archer attack G8").key == "tactics.reject.out_of_range"  # min 2
    assert refused(state, "A", "knight attack E8").key == "tactics.reject.self_target"
    assert refused(state, "A", "knight attack E6").key == "tactics.reject.out_of_range"


def test_a_master_death_scores_two_and_a_revived_unit_scores_again():
    state = board(
        {"warlord": "E9", "saint": "C9", "militia": "C7"},
        {"archmage": "J1", "lancer": "C5"},
        turn=6,
        first="B",
    )
    new, events = play(state, "", "lancer C5>C6 attack C7")  # 5 vs 0: militia (HP 6) survives
    state.units["A3"].hp = 2
    new, events = play(state, "", "lancer C5>C6 attack C7")
    assert new.dp == {"A": 0, "B": 1}
    new = next_turn(new)
    new, events = play(new, "saint ability C8")  # Resurrection, 6 mana on turn 7
    revive = next(e for e in events if e["type"] == "revive")
    assert revive["unit"] == "A3" and revive["hp"] == 3 and revive["to"] == "C8"
    assert new.dp == {"A": 0, "B": 1}  # DP not returned
    view = {u["id"]: u for u in rules.view(new, None)["units"]}
    assert view["A3"]["status"] == "board" and view["A3"]["square"] == "C8"
    new = next_turn(new)
    assert "A3" in rules.own_units(new, "A")  # acts from the next turn
    assert "A2" not in rules.own_units(new, "A")  # the saint is exhausted
    assert refused(new, "A", "saint wait").key == "tactics.reject.exhausted"
    new, events = play(new, "", "lancer attack C8")  # 5 vs 0 on 3 HP: dies again
    assert new.dp == {"A": 0, "B": 2}
    new.units["B1"].hp = 1
    new.units["B1"].square = sq("E8")
    new = next_turn(new)
    new, events = play(new, "warlord attack E8")
    death = next(e for e in events if e["type"] == "death")
    assert death["points"] == 2 and new.dp["A"] == 2


# --- fallbacks --------------------------------------------------------------------------------


def test_fallback_no_move_when_the_path_is_cut_by_the_first_phase():
    # B's cavalry steps into the gap the knight meant to pass: the knight cannot get through.
    state = board(
        {"warlord": "A12", "knight": "C7"},
        {"archmage": "H1", "cavalry": "C2"},
        first="B",
        map="narrow_pass",
    )
    new, events = play(state, "knight C7>C4", "cavalry C2>C5")
    fallback = next(e for e in events if e["type"] == "fallback.no_move")
    assert fallback == {
        "type": "fallback.no_move",
        "unit": "A2",
        "to": "C4",
        "reason": "tactics.why.unreachable",
        "names": {"A2": {"en": "Knight", "ja": "剣士"}},
    }
    assert new.units["A2"].square == sq("C7")


def test_fallback_move_only_when_the_target_moved_out_of_range():
    state = board({"warlord": "J10", "archer": "E9"}, {"archmage": "J1", "scout": "E6"}, first="B")
    new, events = play(state, "archer E9>E8 attack E6", "scout E6>B5")
    fallback = next(e for e in events if e["type"] == "fallback.move_only")
    assert fallback["reason"] == "tactics.why.target_gone" and fallback["moved"] is True
    assert new.units["A2"].square == sq("E8")


def test_a_line_for_a_unit_killed_earlier_in_the_turn_is_skipped():
    state = board(
        {"warlord": "J10", "scout": "E6"}, {"archmage": "J1", "berserker": "E5"}, first="B"
    )
    _, events = play(state, "scout attack E5", "berserker attack E6")
    assert "fallback.gone" in types(events)


# --- exhaustion and stat changes --------------------------------------------------------------


def test_a_stat_change_lasts_its_turns_and_shows_in_the_view():
    state = board({"warlord": "E9", "knight": "E8"}, {"archmage": "A1"}, turn=3)
    new, events = play(state, "warlord ability E8")  # Warcry: ATK +2 for 2 turns
    assert next(e for e in events if e["type"] == "stat")["turns"] == 2
    knight = next(u for u in rules.view(new, None)["units"] if u["id"] == "A2")
    assert knight["atk"] == 7 and knight["effects"] == [{"stat": "atk", "delta": 2, "turns": 1}]
    new = next_turn(new)
    new, _ = play(new)
    assert new.units["A2"].stat("atk") == 5 and new.units["A2"].effects == []


# --- the end ----------------------------------------------------------------------------------


def test_both_sides_wiped_out_with_nothing_left_to_summon_is_a_draw():
    state = board({"warlord": None, "knight": "E5"}, {"archmage": None, "knight": "E4"}, turn=8)
    for uid in ("A1", "B1"):
        state.units[uid].status = "dead"
    state.units["A2"].hp = state.units["B2"].hp = 1
    new, events = play(state, "knight attack E4", "knight attack E5")
    assert new.winner == "A" and events[-1]["reason"] == "annihilation"  # A moved first
    state.units["A2"].status = state.units["B2"].status = "dead"
    new, events = play(state)
    assert new.winner == "draw" and events[-1]["outcome"] == "draw"


def test_the_last_turn_ends_the_match_and_the_hp_tie_break_can_still_draw():
    state = board({"warlord": "E9"}, {"warlord": "E2"}, turn=10, tie_break="hp")
    new, events = play(state)
    assert events[-1] == {"type": "end", "outcome": "draw", "reason": "hp", "dp": {"A": 0, "B": 0}}
    state.units["B1"].hp -= 1
    new, events = play(state)
    assert new.winner == "A" and rules.outcome(new).winner == "A" and rules.awaiting(new) == []
    with pytest.raises(OrderRejected):
        rules.parse(new, "A", "wait")


def test_turns_option_shortens_the_match():
    state = board({"warlord": "E9"}, {"archmage": "E2"}, turn=4, turns=4)
    state.dp = {"A": 0, "B": 1}
    new, events = play(state)
    assert new.winner == "B" and events[-1]["reason"] == "dp"


def test_resign():
    state = board({"warlord": "E9"}, {"archmage": "E2"})
    new, events = rules.resign(state, "B")
    assert rules.outcome(new).winner == "A"
    assert events[0].to_json() == {"type": "resigned", "seat": "B"}


# --- refusals leave the state as it was --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("dragon attack E5", "tactics.reject.unknown_unit"),
        ("militia wait", "tactics.reject.dead_unit"),
        ("archmage wait", "tactics.reject.enemy_unit"),
        ("B1 wait", "tactics.reject.enemy_unit"),
        ("knight >E7\nknight attack E5", "tactics.reject.duplicate_line"),
        ("knight E8>E3", "tactics.reject.unreachable"),
        ("knight ability E7", "tactics.reject.not_enough_mana"),
        ("knight D8>D7", "tactics.reject.wrong_origin"),
        ("knight Z40>D7", "tactics.reject.bad_square"),
        ("knight >E7 dance", "tactics.reject.unknown_word"),
        ("wait\nknight >E7", "tactics.reject.mixed"),
        ("warlord ability A1", "tactics.reject.out_of_range"),
        ("knight " + "x" * 2000, "tactics.reject.too_long"),
    ],
)
def test_bad_sheets_are_refused_with_a_key_and_change_nothing(text, key):
    state = board(
        {"warlord": "E9", "knight": "E8", "militia": None}, {"archmage": "E2", "scout": "A1"}
    )
    state.units["A3"].status = "dead"
    assert refused(state, "A", text).key == key


def test_two_units_of_one_name_need_the_origin_square():
    state = board({"warlord": "E9", "knight": "C9", "lancer": "D9"}, {"archmage": "E2"})
    state.units["A3"].type = state.units["A2"].type  # two knights on the board
    error = refused(state, "A", "knight wait")
    assert error.key == "tactics.reject.ambiguous" and error.params["ids"] == "A-2, A-3"
    assert rules.parse(state, "A", "knight D9>D8").lines[0].unit == "A3"
    assert rules.parse(state, "A", "剣士 C9→C8").lines[0].unit == "A2"


# --- views ------------------------------------------------------------------------------------


def test_view_and_summary_shapes():
    state = board({"warlord": "E9", "knight": None}, {"archmage": "E2"}, turn=3)
    view = rules.view(state, "A")
    assert set(view) >= {
        "step",
        "turn",
        "max_turns",
        "first",
        "map",
        "units",
        "dp",
        "mana",
        "alive",
        "cost_cap",
        "summon_turn",
        "last",
        "outcome",
    }
    assert view["map"]["width"] == 10 and view["map"]["name"]["ja"]
    assert set(view["map"]["zones"]["A"]) >= {"A9", "J10"}
    unit = view["units"][0]
    assert set(unit) >= {
        "id",
        "side",
        "kind",
        "name",
        "square",
        "status",
        "hp",
        "max_hp",
        "atk",
        "def",
        "move",
        "range",
        "cost",
        "master",
        "exhausted",
        "ability",
        "effects",
    }
    assert view["alive"] == {"A": 1, "B": 1} and view["summon_turn"] is True
    state.units["A1"].hp = 7
    assert rules.summary(state) == {
        "turn": 2,  # turn 3 is being played: turn 2 is the last resolved, whose mana this is
        "dp": {"A": 0, "B": 0},
        "mana": {"A": [0, 0], "B": [0, 0]},
        "units": {
            "A": [{"id": "A1", "square": "E9", "hp": 7}],
            "B": [{"id": "B1", "square": "E2", "hp": 12}],
        },
    }
    json.dumps(view)


def test_builder_helpers():
    state = board({"warlord": "E9", "archer": "G9"}, {"archmage": "E2"})
    assert rules.own_units(state, "A") == ["A1", "A2"] and rules.own_units(state, "B") == ["B1"]
    found = rules.targets(state, "A2", "G9")
    assert "G8" not in found["attack"] and "G7" in found["attack"] and "G5" in found["attack"]
    assert "G4" not in found["attack"]  # archer range 2–4
    assert "E9" in found["ability"] or found["ability"]
    # one quick button beside the builder: the step's default, every unit waiting
    (quick,) = rules.choices(state, "A")
    assert [c.token for c in quick.choices] == ["wait"]
    assert rules.default_order(state, "A").canonical() == "wait"
