"""Apeiron's engine core: scenario tests per rule of the digest, from small hand-made situations
(a tiny pack of the tests' own and a fixed field)."""

from __future__ import annotations

import json

import pytest

from bot.dice import ScriptedDice
from bot.render.squaregrid import parse as sq
from bot.ruleset import OrderRejected, RuleError
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron import rules

from .helpers import at, grass_field, play, situation, tiny_pack, unit


def rejected(state: rules.ApeironState, text: str) -> str:
    with pytest.raises(OrderRejected) as info:
        rules.parse(state, state.active or "A", text)
    return info.value.key


def roundtrip(state: rules.ApeironState) -> None:
    again = rules.from_json(json.loads(json.dumps(rules.to_json(state))))
    assert rules.to_json(again) == rules.to_json(state)


# --- the field ----------------------------------------------------------------------------------


def test_field_from_secret_stream_shuffles_then_rotates() -> None:
    pack = packlib.starter()
    # shuffle of 16: 15 draws; "roll(i + 1) = i + 1" keeps the order; then nine d4
    secret = ScriptedDice([*range(16, 1, -1), 1, 2, 3, 4, 1, 2, 3, 4, 1])
    layout = fld.shuffled(pack, secret)
    terrain = [p.id for p in pack.terrain_panels()]
    assert [layout[p].panel for p in fld.POSITIONS] == terrain[:9]  # type: ignore[union-attr]
    assert [layout[p].rot for p in fld.POSITIONS] == [0, 90, 180, 270, 0, 90, 180, 270, 0]  # type: ignore[union-attr]
    assert secret.remaining == 0


def test_event_panels_redraw_while_hitting_an_event_panel() -> None:
    pack = packlib.starter()
    base = [*range(16, 1, -1), *[1] * 9]
    # poison lands on position 3; gravity draws 3 again (an event panel), then 5
    layout = fld.shuffled(pack, ScriptedDice([*base, 3, 3, 5]), ["gravity", "poison"])
    assert layout[3].kind == "poison" and layout[5].kind == "gravity"  # type: ignore[union-attr]


def test_rotation_turns_layout_and_arrows() -> None:
    pack = packlib.from_json(tiny_pack())
    layout = fld.from_option(pack, grass_field(p1="r1@90", p2="ar@90"))
    objects = {s: k for s, k in fld.initial_objects(pack, layout).items() if fld.position(s) == 1}
    # r1 at 0 has obstacles at its top-left and bottom-right; a quarter turn: top-right, bottom-left
    assert objects == {sq("F4"): "obstacle", sq("D6"): "obstacle"}
    assert fld.arrow(pack, layout, sq("B5")) == "S"  # ">" turned a quarter clockwise points down


def test_field_option_caps() -> None:
    pack = packlib.from_json(tiny_pack())
    twice = ["g1@0", *grass_field()[1:8], "g1@0"]
    for bad in (twice, grass_field(p5="g1@45"), grass_field()[:8]):
        with pytest.raises(RuleError) as info:
            fld.from_option(pack, bad)
        assert info.value.key == fld.E_FIELD


# --- setup --------------------------------------------------------------------------------------


def test_deck_and_deploy_steps_then_first_player() -> None:
    pack = packlib.starter()
    secret = ScriptedDice([*range(16, 1, -1), *[1] * 9])
    state = rules.new_game("g", ("A", "B"), {}, ScriptedDice([]), secret)
    state, _ = rules.start_step(state, ScriptedDice([]))
    assert rules.awaiting(state) == ["A", "B"] and rules.withheld(state, "A")
    b = pack.presets[1]
    order_b = rules.parse(state, "B", "deck " + " ".join(b.units) + " chest " + " ".join(b.chest))
    chest_secret = ScriptedDice([6, 5, 4, 3, 2] * 2)
    state, events = rules.resolve(state, {"B": order_b}, ScriptedDice([]), chest_secret)
    assert state.decks["A"]["units"] == list(pack.presets[0].units)  # the default: preset 1
    assert state.chest["B"] == list(b.chest)
    public = [e for e in events if e.public]
    assert all("chest" not in json.dumps(e.to_json()) or e.type == "decks" for e in public)
    state, events = rules.start_step(state, ScriptedDice([]))
    rows = {e.to[0]: e for e in events if e.type == "own_row"}  # type: ignore[index]
    assert set(rows) == {"A", "B"}
    with pytest.raises(OrderRejected) as info:
        rules.parse(state, "A", "deploy u01 A7 S, u03 B1 S, u05 C1 S, u07 D1 S, u09 E1 S")
    assert info.value.key == rules.R_DEPLOY_SQUARE
    state, events = rules.resolve(state, {}, ScriptedDice([3, 3, 2, 5]))
    assert state.first == "B" and state.step == rules.PLAY
    first = next(e for e in events if e.type == "first")
    assert first.data["dice"] == {"A": [3, 2], "B": [3, 5]}
    # the default deployment: first free squares in reading order, facing the opponent
    a_units = state.units["A"]
    assert [u.facing for u in a_units] == ["S"] * 5
    assert all(state.objects.get(u.square) != "obstacle" for u in a_units)  # type: ignore[arg-type]
    roundtrip(state)


def test_no_panel_is_seen_before_the_deck_step_is_over() -> None:
    """Setup step 1 (decks) comes before step 2 (the middle row posted, each own row by DM): while
    decks are chosen no view, board, DM or event shows a panel, so two fields look the same."""
    from cogs.apeiron import board
    from cogs.apeiron.present import private_lines

    def game(panels: list[int]) -> rules.ApeironState:
        secret = ScriptedDice([*panels, *[1] * 9])
        state = rules.new_game("g", ("A", "B"), {}, ScriptedDice([]), secret)
        state, events = rules.start_step(state, ScriptedDice([]))
        assert state.step == rules.DECK and events == []
        return state

    one, two = game(list(range(16, 1, -1))), game([1] * 15)
    assert one.field != two.field
    for seat in (None, "A", "B"):
        views = [rules.view(s, seat) for s in (one, two)]
        assert views[0] == views[1]
        assert views[0]["panels"] == [None] * 9 and "row" not in views[0].get("you", {})
        assert board.render(views[0], "en", {}) == board.render(views[1], "en", {})
        if seat is not None:
            for lang in ("en", "ja"):
                assert private_lines(views[0], seat, lang) == private_lines(views[1], seat, lang)
    assert rules.summary(one)["panels"] == [None] * 9
    # resigned in the deck step: the end shows no panel either
    over, _ = rules.resign(one, "A")
    assert rules.view(over, None)["panels"] == [None] * 9
    # the deck step over: the middle row in public, each seat's own row in its view only
    state, _ = rules.resolve(one, {}, ScriptedDice([]), ScriptedDice([6, 5, 4, 3, 2] * 2))
    state, events = rules.start_step(state, ScriptedDice([]))
    public = rules.view(state, None)
    shown = [i + 1 for i, p in enumerate(public["panels"]) if p is not None]
    assert sorted(shown) == sorted(fld.MIDDLE) and "you" not in public
    assert [p["pos"] for p in rules.view(state, "A")["you"]["row"]] == [3, 4, 5]
    assert {e.to for e in events if e.type == "own_row"} == {("A",), ("B",)}


# --- movement -----------------------------------------------------------------------------------


def test_move_refusals_and_destination_only_path() -> None:
    state = situation([("sol", "B2", "S")], [("tank", "H8", "N")], objects={"B3": "obstacle"})
    assert rejected(state, "B2>B3 S") == rules.R_BLOCKED
    assert rejected(state, "B2>C2>C3>C4 S") == rules.R_TOO_FAR
    assert rejected(state, "B2>C3 S") == rules.R_STEP
    assert rejected(state, "stay S") == rules.R_NOT_BOXED
    order = rules.parse(state, "A", ">C3 E")
    assert order.path == (sq("C2"), sq("C3"))  # type: ignore[union-attr]


def test_destination_prefers_fewer_poison_squares() -> None:
    state = situation([("sol", "B2", "S")], [("tank", "H8", "N")], objects={"C2": "poison"})
    order = rules.parse(state, "A", ">C3 S")
    assert order.path == (sq("B3"), sq("C3"))  # type: ignore[union-attr]


def test_poison_counts_each_square_entered_the_start_not() -> None:
    state = situation(
        [("sol", "B2", "S")],
        [("tank", "H8", "N")],
        objects={"B2": "poison", "B3": "poison", "B4": "poison"},
    )
    state, _events = play(state, "B2>B3>B4 S")
    assert at(state, "B4").hp == 4 - 2  # type: ignore[union-attr]


def test_bomb_on_the_end_square_only() -> None:
    state = situation(
        [("sol", "B2", "S"), ("arc", "E2", "S")], [("tank", "H8", "N")], objects={"B3": "bomb"}
    )
    state, _ = play(state, "B2>B3>B4 S")
    assert at(state, "B4").hp == 4 and sq("B3") in state.objects  # type: ignore[union-attr]
    state = situation([("sol", "B2", "S")], [("tank", "H8", "N")], objects={"B3": "bomb"})
    state, _events = play(state, "B2>B3 S")
    assert at(state, "B3").hp == 2 and sq("B3") not in state.objects  # type: ignore[union-attr]


def test_stop_square_ends_the_move() -> None:
    state = situation([("sol", "B2", "S")], [("tank", "H8", "N")], objects={"B3": "stop"})
    assert rejected(state, "B2>B3>B4 S") == rules.R_STOP
    assert sq("B4") not in rules.reachable(state, rules.acting_unit(state))
    play(state, "B2>B3 S")


def test_flying_passes_over_but_never_stops_on_units_and_obstacles() -> None:
    state = situation(
        [("bird", "B2", "S")],
        [("tank", "B3", "N")],
        objects={"B4": "obstacle", "B5": "poison"},
    )
    assert rejected(state, "B2>B3 S") == rules.R_BLOCKED
    assert rejected(state, "B2>B3>B4 S") == rules.R_BLOCKED
    state, _ = play(state, "B2>B3>B4>B5 S")
    assert at(state, "B5").hp == 3  # type: ignore[union-attr]  # poison does not touch it


def test_off_field_is_never_entered_even_flying() -> None:
    state = situation([("bird", "C2", "E")], [("tank", "H8", "N")])
    state.field[4] = None  # removed panel D1:F3
    assert rejected(state, "C2>D2>E2 S") == rules.R_BLOCKED


def test_boxed_in_unit_may_stay_and_act() -> None:
    state = situation([("sol", "A1", "S")], [("tank", "A2", "N")], objects={"B1": "obstacle"})
    state, _events = play(state, "stay E attack A2")
    assert at(state, "A2").hp == 9 - 2  # type: ignore[union-attr]


def test_gravity_panel_read_when_activation_starts() -> None:
    state = situation([("bird", "E5", "S")], [("tank", "H8", "N")], field=grass_field(p1="gv@0"))
    unit = rules.acting_unit(state)
    assert rules.move_points(state, unit) == 1 and not rules.flying(state, unit)
    assert rejected(state, "E5>E6>E7 S") == rules.R_TOO_FAR


def test_arrow_panel_sets_the_facing() -> None:
    state = situation([("sol", "C5", "W")], [("tank", "H8", "N")], field=grass_field(p1="ar@0"))
    assert rejected(state, "C5>D5 S") == rules.R_ARROW
    state, _ = play(state, "C5>D5")
    assert at(state, "D5").facing == "E"  # type: ignore[union-attr]


# --- combat -------------------------------------------------------------------------------------


def test_back_attack_only_from_behind() -> None:
    # tank faces N: its back square is below it
    state = situation([("sol", "C7", "N")], [("tank", "D5", "N")])
    state, _ = play(state, "C7>D7>D6 N attack D5")  # from the back: +1
    assert at(state, "D5").hp == 9 - 3  # type: ignore[union-attr]
    state = situation([("sol", "C7", "N")], [("tank", "D5", "N")])
    state, _ = play(state, "C7>C6>C5 E attack D5")  # from the side
    assert at(state, "D5").hp == 9 - 2  # type: ignore[union-attr]


def test_ranged_attack_gets_no_back_bonus_and_lines_block_on_obstacles_only() -> None:
    state = situation([("arc", "D8", "N")], [("tank", "D5", "N"), ("sol", "H9", "N")], objects={})
    state, _ = play(state, "D8>D7 N attack D5")  # behind the tank, ranged: no bonus
    assert at(state, "D5").hp == 9 - 2  # type: ignore[union-attr]
    state = situation([("arc", "D8", "N")], [("tank", "D5", "N")], objects={"D6": "obstacle"})
    assert rejected(state, "D8>E8 N; attack D5") == rules.R_SYNTAX
    assert rejected(state, "attack D5; D8>E8 N") == rules.R_LINE
    state = situation([("arc", "D8", "N"), ("sol", "D6", "N")], [("tank", "D5", "N")])
    rules.parse(state, "A", "attack D5; D8>E8 N")  # an ally between does not block
    assert rejected(state, "attack E5; D8>E8 N") == rules.R_TARGET
    state = situation([("arc", "A8", "N")], [("tank", "E8", "N")])
    assert rejected(state, "attack E8; A8>A9 N") == rules.R_OUT_OF_RANGE  # 4 > range 3
    assert rejected(state, "attack B7; A8>A9 N") == rules.R_TARGET


def test_allies_only_on_lawless_and_strike_back() -> None:
    state = situation(
        [("sol", "D4", "S"), ("arc", "E4", "S")],
        [("tank", "D6", "N")],
        field=grass_field(p1="lw@0"),
    )
    state, events = play(state, "D4>D5 S attack D6")
    types = [e["type"] for e in events]
    assert "strike_back" in types
    assert at(state, "D5").hp == 4 - 1 and at(state, "D6").hp == 9 - 2  # type: ignore[union-attr]


def test_ranged_attacker_out_of_reach_is_not_struck_back() -> None:
    state = situation([("arc", "D2", "S")], [("tank", "D5", "N")], field=grass_field(p1="lw@0"))
    state, events = play(state, "D2>D3 S attack D5")
    assert "strike_back" not in [e["type"] for e in events]


# --- graves, end --------------------------------------------------------------------------------


def test_grave_blocks_and_returns_after_n_turns() -> None:
    state = situation(
        [("sol", "C5", "E"), ("arc", "A1", "S")],
        [("ghost", "E5", "N"), ("tank", "I9", "N")],
        first="A",
    )
    state.units["B"][0].hp = 2
    state, events = play(state, "C5>D5 E attack E5")  # turn 1: the ghost falls
    assert sq("E5") in state.graves and state.graves[sq("E5")].returns == 3
    assert rules.summary(state)["objects"][-1]["kind"] == "grave"
    # B's activation in turn 1, then A and B in turn 2; the ghost returns at B's turn-3 start
    state, _ = play(state, "I9>H9 N")
    state, _ = play(state, "A1>A2 S")
    state, _ = play(state, "H9>I9 N")
    state, events = play(state, "D5>D4 E")
    assert any(e["type"] == "returned" for e in events)
    assert at(state, "E5").id == "ghost" and at(state, "E5").hp == 2  # type: ignore[union-attr]


def test_extra_turn_count_and_reset() -> None:
    state = situation(
        [("sol", "A1", "S"), ("arc", "C1", "S")],
        [("tank", "I9", "N")],
        first="A",
    )
    # B has one unit: count turn 1 is turn 1; it deals no damage; it loses at the end of its
    # activation in turn 3
    for _ in range(2):
        state, _ = play(state, rules.default_order(state, "A").canonical())
        state, _ = play(state, rules.default_order(state, "B").canonical())
    assert rules.summary(state)["extra_turn"]["B"] == 3
    state, _ = play(state, rules.default_order(state, "A").canonical())
    state, _events = play(state, rules.default_order(state, "B").canonical())
    assert state.winner == "A" and state.ended == "extra_turn"


def test_extra_turn_resets_on_damage() -> None:
    state = situation(
        [("sol", "A1", "S"), ("tank", "H5", "N")],
        [("arc", "H9", "N")],
        first="A",
    )
    state, _ = play(state, "A1>B1 S")
    state, _ = play(state, "H9>I9 N")  # turn 1 (count 1)
    state, _ = play(state, "H5>H6 N")
    state, events = play(state, "I9>H9 N attack H6")  # turn 2 (count 2): damage
    assert "extra_turn_reset" in [e["type"] for e in events]
    state, _ = play(state, "B1>A1 S")
    assert rules.summary(state)["extra_turn"]["B"] == 1  # turn 3 is count turn 1 again
    state, _ = play(state, "H9>I9 N")
    state, _ = play(state, "H6>H5 N")
    state, _ = play(state, "I9>H9 N")
    assert state.ended is None  # turn 4 is count 2


def test_damage_dealt_before_the_side_drops_to_one_unit_does_not_reset_the_count() -> None:
    """The soldier hits the tank on a lawless panel and falls to its strike back: A is down to
    the archer, which has dealt nothing. Turn 1 is count turn 1 and A loses at the end of its
    activation in turn 3 (the soldier's hit, before A dropped to one unit, resets nothing)."""
    state = situation(
        [("sol", "D4", "S"), ("arc", "A1", "S")],
        [("tank", "D6", "N"), ("ghost", "I9", "N")],
        field=grass_field(p1="lw@0"),
    )
    state.units["A"][0].hp = 1
    state, events = play(state, "D4>D5 S attack D6")
    assert [e["type"] for e in events if e["type"] in ("damage", "death")] == [
        "damage",
        "damage",
        "death",
    ]
    assert "extra_turn_reset" not in [e["type"] for e in events]
    assert state.extra["A"] == 1 and rules.summary(state)["extra_turn"]["A"] == 1
    while state.ended is None:
        state, _ = play(state, rules.default_order(state, state.active or "A").canonical())
    assert (state.ended, state.winner, state.turn, state.active) == ("extra_turn", "B", 3, "A")


@pytest.mark.parametrize(
    ("units_a", "hp_a", "units_b", "hp_b", "first", "winner", "by"),
    [
        (2, 1, 1, 9, "A", "A", "units"),
        (1, 4, 2, 1, "A", "B", "units"),
        (1, 4, 1, 3, "B", "A", "hp"),
        (1, 4, 1, 4, "B", "B", "first"),
    ],
)
def test_turn_limit_tie_break_in_three_steps(
    units_a: int, hp_a: int, units_b: int, hp_b: int, first: str, winner: str, by: str
) -> None:
    a = [("sol", "A1", "S"), ("arc", "C1", "S")][:units_a]
    b = [("sol", "I9", "N"), ("arc", "G9", "N")][:units_b]
    state = situation(a, b, first=first, options={"turn_limit": 1})
    for seat, hp in (("A", hp_a), ("B", hp_b)):
        for u in state.units[seat]:
            u.hp = hp
    state, _ = play(state, rules.default_order(state, state.active or "A").canonical())
    assert state.ended is None
    state, events = play(state, rules.default_order(state, state.active or "A").canonical())
    tie = next(e for e in events if e["type"] == "tie_break")
    assert (state.winner, tie["by"], state.ended) == (winner, by, "turn_limit")


def test_adjudicate_and_annihilation() -> None:
    state = situation([("sol", "C5", "E")], [("ghost", "D5", "W")])
    ruled, _ = rules.adjudicate(state)
    assert ruled.winner == "A" and ruled.ended == "adjudicated"
    state.units["B"][0].hp = 1
    state, _events = play(state, "C5>C4>D4 S attack D5")
    assert state.winner == "A" and state.ended == "annihilation"
    assert rules.outcome(state).winners == ("A",)


def test_json_round_trip_mid_game() -> None:
    state = situation(
        [("sol", "C5", "E")],
        [("ghost", "E5", "W"), ("tank", "I9", "N")],
        objects={"A1": "poison"},
    )
    roundtrip(state)
    state, _ = play(state, "C5>D5 E attack E5")
    roundtrip(state)


def test_order_words_in_japanese() -> None:
    pack = tiny_pack(unit("sol"), unit("tank", hp=9))
    state = situation([("sol", "C7", "N")], [("tank", "D5", "N")], pack=pack)
    order = rules.parse(state, "A", "Ｃ７→Ｄ７→Ｄ６ 上 攻撃 Ｄ５")
    assert order.canonical() == "D7>D6 N attack D5"
    assert rules.parse(state, "A", order.canonical()) == order
