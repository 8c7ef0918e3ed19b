"""Esper war, part 2: scenario tests of the secret base against the digest
(``../shared/rules/esper.md``, Stage 2): the layout and the key installations' votes, placement,
infiltration and its cumulative bonus, moves and teleport paths, base cards (never face up for
EVIL), key installations found and destroyed, and each ending."""

from __future__ import annotations

from collections.abc import Mapping

from cogs.esper import base as base_stage
from cogs.esper import combat as combats
from cogs.esper import rules
from cogs.esper.board import key_status
from cogs.esper.rules import EsperState
from tests.cogs.esper.test_combat import FIVE, play
from tests.cogs.esper.test_rules import PACK, RandomDice, has, of, one, opened, rejected, table


def based(
    *sheets: str,
    spots: Mapping[str, str | None] | None = None,
    outside: str = "",
    cards: Mapping[str, str] | None = None,
    keys: Mapping[str, str] | None = None,
    active: str = "A",
) -> EsperState:
    """The base at ``active``'s normal turn: every base card "none" (b01) unless ``cards`` says
    otherwise, key installations at ``keys`` (spot -> id, not found yet), pieces at ``spots``,
    the seats in ``outside`` waiting around the base."""
    state = table(*(sheets or FIVE), active=active)
    state.stage = rules.BASE_STAGE
    state.base = dict.fromkeys(base_stage.spots(), "b01") | dict(cards or {})
    state.keys = {
        spot: {"id": key, "damage": 0, "found": False, "destroyed": False}
        for spot, key in (keys or {"F6": "key1"}).items()
    }
    for seat in state.order:
        state.seats[seat].spot = None
    for seat, spot in (spots or {}).items():
        state.seats[seat].spot = spot
    for seat in outside:
        state.seats[seat].outside, state.seats[seat].spot = True, None
    return state


# --- geometry ------------------------------------------------------------------------------------


def test_the_base_is_six_by_six_with_twenty_outer_spots() -> None:
    assert base_stage.spots()[:7] == ("A1", "B1", "C1", "D1", "E1", "F1", "A2")
    assert len(base_stage.outer_spots()) == 20 and "C3" not in base_stage.outer_spots()
    assert sorted(base_stage.neighbours("A1")) == ["A2", "B1"]
    assert base_stage.path_ok("C3", ["C4", "D4", "D3", "C3"])  # a loop of four is allowed
    assert not base_stage.path_ok("C3", ["C4", "C3"])  # never straight back
    assert not base_stage.path_ok("C3", ["D4"])  # orthogonal steps only


# --- opening the base -----------------------------------------------------------------------------


def test_the_stage_end_lays_the_base_and_evil_votes_the_keys_in_secret() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.face_up = [s for s in rules.card_spots() if s != "P2-2"]
    state, events = play(state, {"A": "pass; end"}, secret=RandomDice(5))
    assert has(events, "base") and state.step == base_stage.KEYS and state.waiting == ["D", "E"]
    assert rules.withheld(state, "D")
    # every face down: the summary shows no base card
    assert rules.summary(state)["base"]["up"] == {} and rules.summary(state)["base"]["keys"] == {}
    assert rejected(state, "D", "keys B2 D5 E1 F6") == base_stage.R_KEYS  # three are placed
    # a spot named twice (the buttons cannot keep a key off another's spot) is one vote for it
    twice = rules.parse(opened(state), "D", "keys B 2 B 2 D 5").canonical()
    assert twice == rules.parse(opened(state), "D", "keys B2 D5").canonical()
    # most voted first, ties to the earliest seat's list
    state, events = play(
        state, {"D": "keys B2 D5 E1", "E": "重要拠点 D5 C3 B2"}, secret=RandomDice(6)
    )
    assert list(state.keys) == ["B2", "D5", "E1"]
    assert [k["id"] for k in state.keys.values()] == list(PACK.keys)[:3]
    told = one(events, "keys_at")
    assert told.to == ("D", "E") and of(events, "keys_at")[0].to is not None
    assert rules.view(state, "A")["base"]["keys"] == {}
    assert "keys" not in rules.view(state, "A")["you"] and "keys" in rules.view(state, "D")["you"]


def test_the_most_informed_invader_places_and_the_rest_wait_outside() -> None:
    state = based(keys={"F6": "key1"})
    state.seats["B"].info = 2
    state.seats["C"].info = 1
    base_stage._open_placement(state, RandomDice(0), [])
    assert state.step == base_stage.PLACE and state.waiting == ["B"]
    assert rejected(state, "B", "place C3") == base_stage.R_OUTER
    state.open = False
    state, events = play(state, {"B": "配置 A1"}, rolls=[3, 4, 6, 1])
    assert state.seats["B"].spot == "A1" and not state.seats["B"].outside
    assert state.seats["A"].outside and state.seats["C"].outside
    # EVIL silhouettes by d6 column, d6 row in seat order: D at C4, E at F1
    assert (state.seats["D"].spot, state.seats["E"].spot) == ("C4", "F1")
    assert state.step == rules.TURN and has(events, "base_start")


def test_nobody_with_info_everyone_places_and_one_in_a_black_hole_stops_them_all() -> None:
    state = based()
    base_stage._open_placement(state, RandomDice(0), [])
    assert state.waiting == ["A", "B", "C"]
    state = based()
    state.seats["C"].black_hole = True
    state.active = "C"
    base_stage._open_placement(state, RandomDice(0), [])
    assert state.step == rules.TURN and all(state.seats[s].outside for s in "ABC")


# --- turns ---------------------------------------------------------------------------------------


def test_infiltration_gets_a_cumulative_bonus_per_failure() -> None:
    # A (c05, ESP 4) waits outside: 2D6 = 9 fails, then 9 against 5, 6 passes at 6
    state = based("c05", "c02", "c13", "c08", "c10", outside="ABC", spots={"D": "C3", "E": "D4"})
    assert rejected(state, "A", "move B3") == base_stage.R_OUTSIDE
    state, events = play(state, {"A": "infiltrate; end"}, rolls=[4, 5])
    assert one(events, "check_target").data["target"] == 4 and state.seats["A"].infiltration == 1
    for seat in ("B", "C", "D", "E"):  # everyone's turn comes in the base, EVIL's too
        assert state.active == seat
        state, _ = play(state)
    state, events = play(state, {"A": "侵入 B1; 終了"}, rolls=[4, 5])
    assert one(events, "check_target").data["target"] == 5 and state.seats["A"].infiltration == 2
    for _ in "BCDE":
        state, _ = play(state)
    state, events = play(state, {"A": "infiltrate B1; end"}, rolls=[3, 3])
    assert one(events, "check_target").data["target"] == 6 and one(events, "check").data["success"]
    assert state.seats["A"].spot == "B1" and not state.seats["A"].outside


def test_evil_silhouettes_infiltrate_by_right() -> None:
    state = based(outside="D", spots={"A": "C3"}, active="D")
    state, events = play(state, {"D": "infiltrate F6"})
    assert one(events, "infiltrated").data["auto"] is True and state.seats["D"].spot == "F6"


def test_moves_are_orthogonal_and_teleports_follow_a_path_never_straight_back() -> None:
    state = based(spots={"A": "C3", "B": "A1", "C": "A6", "D": "F1", "E": "F6"})
    assert rejected(state, "A", "move D4") == rules.R_MOVE
    assert rejected(state, "A", "teleport 3 C4>C3") == base_stage.R_PATH
    # 1D6 = 2 below 3: two steps of the path given
    state, _ = play(state, {"A": "teleport 3 C4>D4>D5; end"}, rolls=[2])
    assert state.seats["A"].spot == "D4"


def test_a_teleport_without_a_path_asks_for_one_of_the_rolled_length() -> None:
    state = based(spots={"A": "C3", "B": "A1", "C": "A6", "D": "F1", "E": "F6"})
    state, _ = play(state, {"A": "teleport 4"}, rolls=[3])
    assert state.step == base_stage.PATH and state.pending["distance"] == 3
    assert rejected(state, "A", "C4>D4") == base_stage.R_PATH  # two steps, not three
    state, _ = play(state, {"A": "C4>D4>D3"})
    assert state.seats["A"].spot == "D3" and state.step == rules.AFTER


def test_base_cards_turn_face_up_for_invaders_and_never_for_evil() -> None:
    cards = {"C4": "b04", "D3": "b05", "E3": "b04"}  # turret (2), plasma grid (1, evil too)
    state = based(spots={"A": "C3", "D": "D4", "E": "E4"}, cards=cards)
    state, events = play(state, {"A": "move C4; end"})
    assert one(events, "square").data["card"] == "b04" and state.seats["A"].damage == 2
    assert "C4" in rules.summary(state)["base"]["up"]
    assert state.active == "D"  # B and C are nowhere in the base: no turn
    state, events = play(state, {"D": "move D3; end"})  # EVIL on an evil card: hurt, unseen
    trap = one(events, "base_trap")
    assert trap.data == {"seat": "D", "effect": "damage", "n": 1} and state.seats["D"].damage == 1
    assert trap.to == ("D",)  # the card stays face down: only D hears what worked on it
    assert one(events, "damaged").to is None  # the damage itself is public
    assert "D3" not in rules.summary(state)["base"]["up"] and not of(events, "square")
    state, events = play(state, {"E": "move E3; end"})  # a turret ignores EVIL
    assert not of(events, "base_trap") and state.seats["E"].damage == 0
    assert "E3" not in rules.summary(state)["base"]["up"]


def test_a_hidden_card_that_changes_nothing_public_says_nothing_in_public() -> None:
    # Found by the noninterference check: "A hidden base card works on D: recovers 1" with
    # nothing to recover named a face-down card's effect, though no public fact changed.
    state = based(spots={"A": "A1", "D": "D4", "E": "E4"}, cards={"D3": "b08"}, active="D")
    state, events = play(state, {"D": "move D3; end"})  # an evil recovery card, D unhurt
    assert state.seats["D"].damage == 0 and "D3" not in rules.summary(state)["base"]["up"]
    assert of(events, "base_trap") and all(e.to == ("D",) for e in of(events, "base_trap"))
    assert not of(events, "recovered")  # nothing recovered: nothing said


# --- key installations and the endings -----------------------------------------------------------


def test_an_invader_finds_a_key_installation_and_destroying_the_last_ends_the_game() -> None:
    state = based(spots={"A": "F5", "D": "A1", "E": "A2"}, keys={"F6": "key4"})
    state, events = play(state, {"A": "move F6; fight"}, secret=RandomDice(7))
    found = one(events, "key_found").data
    assert (found["seat"], found["spot"], found["key"]) == ("A", "F6", "key4")
    assert one(events, "combat_start").data["key"] == "F6"
    assert rules.summary(state)["base"]["keys"]["F6"]["id"] == "key4"
    # B and C may rush in; they stay away
    state, _ = play(state, {}, rolls=[1] * 39, secret=RandomDice(8))
    assert state.combat is not None and state.combat.order == ["A"]
    state.seats["A"].sheet = "c07"  # ESP 8 and Nova Burst (20, never defended)
    state.seats["A"].c_hand = ["k13"]
    state.keys["F6"]["damage"] = 3  # 3 of its 6 left
    state, events = play(state, {"A": "card k13 F6"}, rolls=[6, 6])
    roll = one(events, "damage_roll").data
    assert (roll["column"], roll["declared"]) == ("6:1", 3)  # 20 ÷ 3
    assert has(events, "key_destroyed")
    assert state.ended == rules.KEYS_DESTROYED
    assert state.grades["D"] in ("C", "D") and state.grades["A"] in ("A", "B")


def test_evil_does_not_find_key_installations() -> None:
    state = based(spots={"A": "A1", "D": "F5", "E": "A2"}, keys={"F6": "key1"}, active="D")
    state, events = play(state, {"D": "move F6; end"})
    assert not of(events, "key_found") and not state.keys["F6"]["found"]


def test_everyone_dead_or_disabled_ends_the_game_in_the_base() -> None:
    state = based(spots={"A": "C3", "D": "A1", "E": "A2"}, cards={"C4": "b11"})
    for seat in ("B", "C", "D", "E"):
        state.seats[seat].alive = False
    state, events = play(state, {"A": "move C4; end"})
    assert has(events, "black_hole") and state.ended == rules.ALL_DOWN


def test_the_end_shows_where_the_unfound_key_installations_were() -> None:
    state = based(spots={"A": "C3", "D": "A1", "E": "A2"}, keys={"F6": "key1", "B2": "key2"})
    state.keys["B2"]["found"] = True
    keys = rules.view(state, None)["base"]["keys"]
    assert set(keys) == {"B2"} and keys["B2"]["found"]  # before the end: the found one only
    state.ended = rules.ALL_DOWN  # however it ended
    keys = rules.view(state, None)["base"]["keys"]
    assert {spot: k["found"] for spot, k in keys.items()} == {"B2": True, "F6": False}
    # the end board marks it (the final post's fields are the roster only)
    assert key_status(keys["F6"], "en") == "never found"
    assert key_status(keys["F6"], "ja") == "未発見"
    assert key_status(keys["B2"], "en") == "10/10"


def test_the_evil_survival_counts_in_the_base_too() -> None:
    state = based(spots={"A": "C3", "B": "A3", "C": "A6", "D": "A1", "E": "A2"})
    state.seats["D"].declared_turn = state.seats["D"].evil_declared = 0  # EVIL D declared
    state.turn = rules.EVIL_SURVIVAL_TURNS - 1
    state, _ = play(state, {"A": "pass; end"})
    assert state.ended == rules.EVIL_SURVIVAL
    assert {state.grades[s] for s in "AB"} <= {"C", "D"}


def test_combat_steps_are_public_and_hands_stay_private() -> None:
    state = based(spots={"A": "C3", "B": "C3", "D": "A1", "E": "A2"})
    state.seats["A"].c_hand = ["k01", "k05"]
    assert combats.withheld(state, "A") is False
    summary = rules.summary(state)
    assert summary["seats"]["A"]["c_hand"] == 2
    assert "k05" not in str(summary)
