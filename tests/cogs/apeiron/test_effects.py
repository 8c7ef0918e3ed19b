"""Apeiron's effect catalogue, abilities, draws, side zones and follow-up steps: scenario tests
from small hand-made situations (a tiny pack of the tests' own and a fixed field)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.dice import ScriptedDice
from bot.render.squaregrid import parse as sq
from bot.ruleset import OrderRejected
from cogs.apeiron import rules

from .helpers import at, card, grass_field, play, situation, special, star, tiny_pack, types, unit


def rejected(state: rules.ApeironState, text: str) -> str:
    with pytest.raises(OrderRejected) as info:
        rules.parse(state, state.active or "A", text)
    return info.value.key


def roundtrip(state: rules.ApeironState) -> rules.ApeironState:
    again = rules.from_json(json.loads(json.dumps(rules.to_json(state))))
    assert rules.to_json(again) == rules.to_json(state)
    return again


def answer(state: rules.ApeironState, text: str) -> tuple[rules.ApeironState, list[Any]]:
    """A follow-up step's answer (place, option, move), through a JSON round trip first."""
    state = roundtrip(state)
    return play(state, text)


TANK = unit("tank", hp=9, power=1, move=1)
SOL = unit("sol")


def pack_with(*units: dict[str, Any], **more: Any) -> dict[str, Any]:
    return tiny_pack(*units, SOL, TANK, **more)


# --- ★ abilities ----------------------------------------------------------------------------------


def test_star_damage_pays_its_cost_and_gets_no_back_bonus() -> None:
    mage = unit(
        "mage", hp=3, abilities=[star("damage", target="enemy", reach="adjacent", amount=3, cost=1)]
    )
    state = situation([("mage", "B2", "S")], [("tank", "B4", "S")], pack=pack_with(mage))
    # the tank faces S: B3 is its back square, yet a ★ ability gets no back-attack bonus
    state, events = play(state, "B2>B3 S ability B4")
    assert at(state, "B4").hp == 9 - 3  # type: ignore[union-attr]
    assert at(state, "B3").hp == 3 - 1  # type: ignore[union-attr]
    assert "ability" in types(events)


def test_cost_to_zero_still_resolves_then_the_unit_is_removed() -> None:
    mage = unit(
        "mage", hp=1, abilities=[star("damage", target="enemy", reach="adjacent", amount=3, cost=1)]
    )
    state = situation(
        [("mage", "B2", "S"), ("sol", "H2", "S")], [("tank", "B4", "S")], pack=pack_with(mage)
    )
    state, events = play(state, "B2>B3 S ability B4")
    assert at(state, "B4").hp == 6  # type: ignore[union-attr]
    assert at(state, "B3") is None
    died = [e for e in events if e["type"] == "death"]
    assert died and died[0]["unit"] == "mage"


def test_ability_refusals_reach_when_and_none() -> None:
    mage = unit(
        "mage",
        abilities=[
            star("damage", target="enemy", reach="adjacent", amount=1, when="forest"),
        ],
    )
    state = situation(
        [("mage", "B2", "S"), ("sol", "H2", "S")], [("tank", "B4", "S")], pack=pack_with(mage)
    )
    assert rejected(state, "B2>B3 S ability B4") == rules.R_WHEN
    state = situation([("sol", "B2", "S")], [("tank", "B4", "S")], pack=pack_with(mage))
    assert rejected(state, "B2>B3 S ability B4") == rules.R_NO_ABILITY
    hit = unit("hit", abilities=[star("damage", target="enemy", reach="adjacent", amount=1)])
    state = situation([("hit", "B2", "S")], [("tank", "D4", "S")], pack=pack_with(hit))
    assert rejected(state, "B2>B3 S ability D4") == rules.R_NOTHING  # no enemy adjacent
    state = situation(
        [("hit", "B2", "S")], [("tank", "D4", "S"), ("sol", "B4", "N")], pack=pack_with(hit)
    )
    assert rejected(state, "B2>B3 S ability D4") == rules.R_PICK  # not adjacent
    assert rejected(state, "B2>B3 S ability") == rules.R_PICK  # no target named


def test_area_damage_hits_every_enemy_around_the_target_not_allies() -> None:
    bomber = unit(
        "bomber",
        abilities=[star("damage", target="enemy", reach="range:2", amount=1, area=1)],
    )
    state = situation(
        [("bomber", "B2", "S"), ("sol", "C5", "S")],
        [("tank", "C4", "S"), ("sol", "D5", "S")],
        pack=pack_with(bomber),
    )
    state, _ = play(state, "B2>B3 S ability C4")
    assert at(state, "C4").hp == 8 and at(state, "D5").hp == 3  # type: ignore[union-attr]
    assert at(state, "C5").hp == 4  # type: ignore[union-attr]  # the ally is not hit


def test_heal_never_above_printed_h() -> None:
    medic = unit("medic", abilities=[star("heal", target="ally", reach="adjacent", amount=3)])
    state = situation(
        [("medic", "B2", "S"), ("sol", "C3", "S")], [("tank", "H8", "N")], pack=pack_with(medic)
    )
    at(state, "C3").hp = 3  # type: ignore[union-attr]
    state, events = play(state, "B2>B3 S ability C3")
    assert at(state, "C3").hp == 4  # type: ignore[union-attr]
    assert next(e for e in events if e["type"] == "heal")["amount"] == 1


def test_push_stops_at_an_obstacle_then_the_final_squares_bomb() -> None:
    shover = unit("shover", abilities=[star("push", target="enemy", reach="adjacent", steps=3)])
    state = situation(
        [("shover", "B2", "S")],
        [("sol", "B4", "N")],
        pack=pack_with(shover),
        objects={"B5": "poison", "B6": "bomb", "B7": "obstacle"},
    )
    state, events = play(state, "B2>B3 S ability B4")
    pushed = at(state, "B6")
    # passed B5's poison without harm; stopped on B6 by the obstacle; its bomb went off
    assert pushed is not None and pushed.hp == 4 - 2
    assert sq("B6") not in state.objects
    assert "pushed" in types(events) and "bomb" in types(events)


def test_push_onto_poison_and_arrow_final_square() -> None:
    shover = unit("shover", abilities=[star("push", target="enemy", reach="adjacent", steps=1)])
    state = situation(
        [("shover", "B5", "E")],
        [("sol", "C5", "W")],
        pack=pack_with(shover),
        field=grass_field(p1="ar@90"),  # the arrows point S
        objects={"D5": "poison"},
    )
    state, _ = play(state, "ability C5; B5>B4 N")
    moved = at(state, "D5")
    assert moved is not None and moved.hp == 3 and moved.facing == "S"


@pytest.mark.parametrize(("obj", "hp"), [("bomb", 1), ("poison", 2)])
def test_gravity_grounds_a_flier_pushed_onto_the_panel(obj: str, hp: int) -> None:
    """Gravity is a standing state of every unit on the panel, not of the acting unit only: the
    bird pushed onto a gravity panel (position 1) lands there, and the square's bomb or poison
    applies to it."""
    shover = unit("shover", abilities=[star("push", target="enemy", reach="adjacent", steps=1)])
    bird = unit("bird", hp=3, power=1, move=3, flying=True)
    state = situation(
        [("shover", "B5", "E")],
        [("bird", "C5", "W")],
        pack=pack_with(shover, bird),
        field=grass_field(p1="gv@0"),
        objects={"D5": obj},
    )
    state, events = play(state, "ability C5; B5>B4 N")
    moved = at(state, "D5")
    assert moved is not None and moved.id == "bird" and moved.hp == hp
    assert not rules.flying(state, moved) and rules.move_points(state, moved) == 1
    if obj == "bomb":
        assert "bomb" in types(events) and sq("D5") not in state.objects


def test_a_flier_pushed_onto_a_bomb_elsewhere_flies_over_it() -> None:
    shover = unit("shover", abilities=[star("push", target="enemy", reach="adjacent", steps=1)])
    bird = unit("bird", hp=3, power=1, move=3, flying=True)
    state = situation(
        [("shover", "B5", "E")],
        [("bird", "C5", "W")],
        pack=pack_with(shover, bird),
        objects={"D5": "bomb"},
    )
    state, events = play(state, "ability C5; B5>B4 N")
    assert at(state, "D5").hp == 3 and "bomb" not in types(events)  # type: ignore[union-attr]


def test_a_fliers_move_ending_on_a_gravity_panel_lands_on_its_bomb() -> None:
    bird = unit("bird", hp=3, power=1, move=3, flying=True)
    state = situation(
        [("bird", "B5", "E")],
        [("tank", "H8", "N")],
        pack=pack_with(bird),
        field=grass_field(p1="gv@0"),
        objects={"C5": "bomb", "D5": "bomb"},
    )
    # it flies over C5's bomb (off the gravity panel), lands on D5's (on it)
    state, events = play(state, "B5>C5>D5 E")
    assert at(state, "D5").hp == 1 and types(events).count("bomb") == 1  # type: ignore[union-attr]
    assert sq("C5") in state.objects and sq("D5") not in state.objects


def test_pull_toward_the_actor_along_a_line_blocked_by_obstacles() -> None:
    hook = unit("hook", abilities=[star("pull", target="enemy", reach="line:4", steps=3)])
    state = situation(
        [("hook", "B2", "S")],
        [("sol", "B7", "N")],
        pack=pack_with(hook),
        objects={"B5": "obstacle"},
    )
    assert rejected(state, "B2>B3 S ability B7") == rules.R_NOTHING  # the obstacle blocks the line
    state = situation([("hook", "B2", "S")], [("sol", "B7", "N")], pack=pack_with(hook))
    state, _ = play(state, "B2>B3 S ability B7")
    assert at(state, "B4") is not None and at(state, "B4").id == "sol"  # type: ignore[union-attr]


def test_push_each_moves_only_units_on_the_actors_lines_far_one_first() -> None:
    gale = unit(
        "gale", abilities=[star("push", target="each", hits="enemies", reach="range:2", steps=1)]
    )
    state = situation(
        [("gale", "B2", "S")],
        [("sol", "B4", "N"), ("tank", "B5", "N")],
        pack=pack_with(gale),
    )
    state, _ = play(state, "B2>B3 S ability")
    # B5 is pushed first (to B6), then B4 follows to B5; nothing diagonal existed to move
    assert at(state, "B6").id == "tank" and at(state, "B5").id == "sol"  # type: ignore[union-attr]


def test_place_objects_on_empty_squares_up_to_the_cap() -> None:
    layer = unit(
        "layer",
        abilities=[star("place", target="square", reach="range:1", object="bomb", count=2)],
    )
    state = situation([("layer", "B2", "S")], [("tank", "H8", "N")], pack=pack_with(layer))
    assert rejected(state, "B2>B3 S ability B4") == rules.R_PICK  # two squares needed
    assert rejected(state, "B2>B3 S ability B3 B4") == rules.R_PICK  # its own square
    state, _ = play(state, "B2>B3 S ability A4 B4")
    assert state.objects[sq("A4")] == "bomb" and state.objects[sq("B4")] == "bomb"
    # four bombs elsewhere: one more fits (5 of a kind), so one square is asked for
    state = situation(
        [("layer", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack_with(layer),
        objects={"I1": "bomb", "I2": "bomb", "I3": "bomb", "I4": "bomb"},
    )
    assert rejected(state, "B2>B3 S ability A4 B4") == rules.R_ARGS
    state, _ = play(state, "B2>B3 S ability A4")
    assert sum(1 for k in state.objects.values() if k == "bomb") == 5
    state = situation(
        [("layer", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack_with(layer),
        objects={s: "bomb" for s in ("I1", "I2", "I3", "I4", "I5")},
    )
    assert rejected(state, "B2>B3 S ability") == rules.R_NOTHING


def test_remove_objects_from_a_square() -> None:
    sweep = unit(
        "sweep",
        abilities=[star("remove", target="square", reach="adjacent", object=["poison", "bomb"])],
    )
    state = situation(
        [("sweep", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack_with(sweep),
        objects={"B4": "bomb", "C3": "obstacle"},
    )
    assert rejected(state, "B2>B3 S ability C3") == rules.R_PICK  # not a listed object
    state, _ = play(state, "B2>B3 S ability B4")
    assert sq("B4") not in state.objects and state.objects[sq("C3")] == "obstacle"


def test_stat_ability_lasts_its_turns() -> None:
    rage = unit("rage", abilities=[star("stat", target="self", stat="power", delta=2, turns=1)])
    state = situation([("rage", "B2", "S")], [("tank", "H8", "N")], pack=pack_with(rage))
    state, _ = play(state, "B2>B3 S ability")
    me = at(state, "B3")
    assert me is not None and rules.power(state, me) == 4  # turn 1 still
    state, _ = play(state, "H8>H7 N")  # B's activation: turn 2 starts with A's next one
    assert state.turn == 2 and rules.power(state, me) == 2


def test_passive_reads_the_square_and_not_at_zero_h() -> None:
    grassy = unit(
        "grassy",
        abilities=[
            {
                "timing": "passive",
                "effect": "stat",
                "target": "self",
                "stat": "power",
                "delta": 1,
                "when": "grass",
            }
        ],
    )
    state = situation(
        [("grassy", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack_with(grassy),
        field=grass_field(p9="s1@0"),
    )
    me = rules.acting_unit(state)
    assert rules.power(state, me) == 3
    me.square = sq("B8")  # a sea panel now
    assert rules.power(state, me) == 2
    me.square, me.hp = sq("B2"), 0
    assert rules.power(state, me) == 2


def test_start_and_end_abilities() -> None:
    thorn = unit(
        "thorn",
        abilities=[
            {
                "timing": "start",
                "effect": "damage",
                "target": "each",
                "hits": "enemies",
                "reach": "adjacent",
                "amount": 1,
            },
            {"timing": "end", "effect": "heal", "target": "self", "amount": 1},
        ],
    )
    state = situation(
        [("thorn", "B2", "S")], [("sol", "B3", "N"), ("tank", "C2", "W")], pack=pack_with(thorn)
    )
    # the start ability fired when the activation opened
    assert at(state, "B3").hp == 3 and at(state, "C2").hp == 8  # type: ignore[union-attr]
    rules.acting_unit(state).hp = 2
    state, events = play(state, "B2>A2 S")
    assert at(state, "A2").hp == 3  # type: ignore[union-attr]
    assert [e["timing"] for e in events if e["type"] == "ability"] == ["end"]


# --- panels on the live board --------------------------------------------------------------------


def test_rotate_panel_with_units_and_objects_on_it() -> None:
    turner = unit(
        "turner", abilities=[star("rotate", target="panel", reach="adjacent-panel", quarters=1)]
    )
    state = situation(
        [("turner", "B2", "S")],
        [("sol", "D4", "N")],
        pack=pack_with(turner),
        objects={"F4": "bomb"},
    )
    state, _events = play(state, "B2>B3>B4 S ability P1 cw")
    # D4 (local 0,0) turns to F4 (local 2,0); F4's bomb to F6; the facing N turns to E
    moved = at(state, "F4")
    assert moved is not None and moved.facing == "E"
    assert state.objects.get(sq("F6")) == "bomb"
    assert state.field[1].rot == 90  # type: ignore[union-attr]
    state2 = situation([("turner", "B2", "S")], [("sol", "D4", "N")], pack=pack_with(turner))
    state2, _ = play(state2, "B2>B3>B4 S ability P1 ccw")
    assert at(state2, "D6").facing == "W"  # type: ignore[union-attr]
    assert (
        rejected(
            situation([("turner", "B2", "S")], [("sol", "D4", "N")], pack=pack_with(turner)),
            "B2>B3>B4 S ability P7 cw",
        )
        == rules.R_PICK
    )  # not an adjacent panel


def test_move_panel_swaps_or_fills_an_off_field_position() -> None:
    mover = unit("mover", abilities=[star("move_panel", target="panel", reach="field")])
    state = situation(
        [("mover", "B2", "S")], [("sol", "E5", "N"), ("tank", "H8", "N")], pack=pack_with(mover)
    )
    state, _ = play(state, "B2>B3 S ability P1 P7")
    assert at(state, "H8").id == "sol" and at(state, "E5").id == "tank"  # type: ignore[union-attr]
    assert state.field[7].panel == "g1"  # type: ignore[union-attr]
    state = situation(
        [("mover", "B2", "S")], [("sol", "E5", "N"), ("tank", "H8", "N")], pack=pack_with(mover)
    )
    state.field[6] = None
    state, _ = play(state, "B2>B3 S ability P1 P6")
    assert state.field[1] is None and at(state, "H5").id == "sol"  # type: ignore[union-attr]


def test_change_panel_drops_obstacles_keeps_objects_and_keeps_caps() -> None:
    seed = unit(
        "seeder", abilities=[star("change", target="panel", reach="adjacent-panel", into="choice")]
    )
    state = situation(
        [("seeder", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack_with(seed),
        objects={"D4": "obstacle", "E4": "bomb"},
    )
    # positions 1–4 are grass already: a fifth grass would break the cap of 4
    assert rejected(state, "B2>B3>B4 S ability P9 grass") == rules.R_PICK
    state.field[1] = rules.Slot("s1", "sea", 0)
    state.field[8] = rules.Slot("g1", "grass", 0)
    state, _events = play(state, "B2>B3>B4 S ability P1 lawless")
    assert state.field[1].kind == "lawless"  # type: ignore[union-attr]
    assert sq("D4") not in state.objects and state.objects[sq("E4")] == "bomb"


def test_remove_panel_destroys_units_without_graves() -> None:
    quake = unit(
        "quake", abilities=[star("remove_panel", target="panel", reach="adjacent-panel", cost=1)]
    )
    ghost = unit("ghost", hp=1, grave_turns=2)
    state = situation(
        [("quake", "B2", "S"), ("ghost", "H2", "S")],
        [("sol", "E5", "N"), ("tank", "H8", "N")],
        pack=pack_with(quake, ghost),
    )
    state.graves[sq("D6")] = rules.Grave("A", "ghost", 9)
    state, events = play(state, "B2>B3>B4 S ability P1")
    assert state.field[1] is None and at(state, "E5") is None
    assert sq("D6") not in state.graves
    death = next(e for e in events if e["type"] == "death")
    assert death["unit"] == "sol" and death["grave"] is False
    assert rules.off_field(state, sq("E5"))


# --- draws, items, side zones, events ------------------------------------------------------------


CHEST = [
    card("pot", "item", effect="heal", target="self", amount=3),
    card("fire", "item", effect="damage", target="enemy", reach="range:2", amount=2),
    card("snare", "event", effect="damage", target="self", amount=1),
    card(
        "wall", "event", effect="place", target="square", reach="field", object="obstacle", count=1
    ),
    card(
        "fork",
        "event",
        options=[
            {"effect": "heal", "target": "self", "amount": 2},
            {
                "effect": "damage",
                "target": "each",
                "hits": "enemies",
                "reach": "range:1",
                "amount": 1,
            },
        ],
    ),
    card("wisp", "event", effect="summon", special="sp1"),
    card("lamp", "item", effect="summon", special="sp1"),
]
SPECIALS = [special("sp1", effect="damage", target="each", hits="enemies", reach="field", amount=1)]


def drawing(
    a: list[tuple[str, str, str]], b: list[tuple[str, str, str]], chest_a: list[str], **kw: Any
) -> rules.ApeironState:
    return situation(
        a,
        b,
        pack=tiny_pack(
            SOL,
            TANK,
            unit("bird", hp=3, power=1, move=3, flying=True),
            chest=CHEST,
            specials=SPECIALS,
        ),
        chest={"A": chest_a, "B": ["pot"]},
        **kw,
    )


def test_treasure_only_when_standing_on_it_then_the_item_step() -> None:
    state = drawing(
        [("sol", "B2", "S")], [("tank", "H8", "N")], ["fire", "pot"], objects={"B4": "treasure"}
    )
    assert rejected(state, "B2>B3 S treasure") == rules.R_NO_TREASURE
    state, events = play(state, "B2>B3>B4 S treasure")
    assert state.step == rules.PLACE and rules.awaiting(state) == ["A"]
    assert sq("B4") not in state.objects
    drawn = next(e for e in events if e["type"] == "drawn")
    assert drawn["card"] == "fire" and drawn["left"] == 1
    assert rules.view(state, None)["pick"]["card"] == "fire"
    state, events = answer(state, "place own")
    assert state.side["A"] == {"card": "fire", "owner": "A"} and state.active == "B"
    state, _ = play(state, "H8>H7 N")
    # A's next activation uses the item from its zone
    assert rejected(state, "B4>B5 S item H7") == rules.R_NOTHING  # no enemy within range 2
    state.units["B"][0].square = sq("B7")
    state, _ = play(state, "B4>B5 S item B7")
    assert at(state, "B7").hp == 9 - 2 and state.side["A"] is None  # type: ignore[union-attr]


def test_flying_unit_takes_treasure() -> None:
    state = drawing(
        [("bird", "B2", "S")], [("tank", "H8", "N")], ["pot"], objects={"B4": "treasure"}
    )
    state, _ = play(state, "B2>B3>B4 S treasure")
    assert state.step == rules.PLACE


def test_chance_once_per_game_and_never_from_an_empty_chest() -> None:
    state = drawing([("sol", "B2", "S")], [("tank", "H8", "N")], ["snare", "pot"])
    state, _events = play(state, "B2>B3 S chance")
    assert state.chance_used["A"] and at(state, "B3").hp == 3  # type: ignore[union-attr]
    state, _ = play(state, "H8>H7 N")
    assert rejected(state, "B3>B4 S chance") == rules.R_CHANCE_USED
    state = drawing([("sol", "B2", "S")], [("tank", "H8", "N")], [])
    assert rejected(state, "B2>B3 S chance") == rules.R_CHEST_EMPTY


def test_side_zone_overwrite_rules() -> None:
    state = drawing(
        [("sol", "B2", "S")], [("tank", "H8", "N")], ["pot"], objects={"B3": "treasure"}
    )
    state.side["B"] = {"card": "sp1", "owner": "B"}
    state.side["A"] = {"card": "fire", "owner": "A"}
    state, _ = play(state, "B2>B3 S treasure")
    assert rejected(state, "place opponent") == rules.R_ZONE
    state2, events = answer(state, "place own")  # the own zone: anything may be replaced
    assert state2.side["A"] == {"card": "pot", "owner": "A"}
    assert next(e for e in events if e["type"] == "zone")["replaced"] == "fire"
    state.side["B"] = {"card": "fire", "owner": "A"}  # an item there may be replaced
    state3, _ = answer(state, "place opponent")
    assert state3.side["B"] == {"card": "pot", "owner": "A"}
    state4, _ = answer(state, "discard")
    assert state4.side["A"] == {"card": "fire", "owner": "A"}


def test_special_unit_fires_at_its_owners_round_start() -> None:
    state = drawing([("sol", "B2", "S"), ("bird", "C2", "S")], [("tank", "H8", "N")], ["wisp"])
    state, events = play(state, "B2>B3 S chance")
    assert state.side["A"] == {"card": "sp1", "owner": "A"} and "zone" in types(events)
    state, events = play(state, "H8>H7 N")  # A's second unit: not a round start
    assert "special" not in types(events)
    state, _ = play(state, "C2>C3 S")
    state, events = play(state, "H7>H6 N")  # A's round starts again: the wisp fires
    assert "special" in types(events) and at(state, "H6").hp == 9 - 1  # type: ignore[union-attr]


def test_event_options_step_then_the_move_after_a_draw() -> None:
    state = drawing([("sol", "B2", "S")], [("tank", "C3", "N")], ["fork"])
    state, _ = play(state, "chance; B2>A2 S")
    assert state.step == rules.OPTION and rules.option_list(state) == ["1", "2"]
    assert rejected(state, "option 3") == rules.R_OPTION
    state, _events = answer(state, "option 2")
    assert at(state, "C3").hp == 8  # type: ignore[union-attr]
    assert at(state, "A2") is not None and state.active == "B"  # the pending move was walked


def test_event_target_choice_that_blocks_the_move_opens_the_move_step() -> None:
    state = drawing([("sol", "B2", "S")], [("tank", "H8", "N")], ["wall"])
    state, _ = play(state, "chance; B2>B3 S")
    assert state.step == rules.OPTION
    options = rules.option_list(state)
    assert options[0] == "A1" and "B3" in options and "B2" not in options
    state, events = answer(state, f"option {options.index('B3') + 1}")
    assert state.step == rules.MOVE and "move_again" in types(events)
    assert rejected(state, "B2>C2 S attack C3") == rules.R_MOVE_ONLY
    state, _ = answer(state, "B2>C2 S")
    assert at(state, "C2") is not None and state.active == "B"


def test_move_step_default_and_restart() -> None:
    state = drawing([("sol", "B2", "S")], [("tank", "H8", "N")], ["wall"])
    state, _ = play(state, "chance; B2>B3 S")
    state, _ = answer(state, f"option {rules.option_list(state).index('B3') + 1}")
    state = roundtrip(state)
    state, _ = rules.resolve(state, {}, ScriptedDice([]))
    assert at(state, "B1") is not None  # the default: one step N


def test_a_unit_its_own_start_ability_removes_has_had_its_activation() -> None:
    cursed = unit(
        "cursed",
        hp=1,
        abilities=[{"timing": "start", "effect": "damage", "target": "self", "amount": 1}],
    )
    state = situation(
        [("cursed", "B2", "S"), ("sol", "C2", "S")], [("tank", "H8", "N")], pack=pack_with(cursed)
    )
    # A's activation opened, the cursed unit fell at its start: B's activation is open now
    assert at(state, "B2") is None and state.active == "B" and rules.awaiting(state) == ["B"]
    state, _ = play(state, "H8>H7 N")
    assert state.active == "A" and rules.acting_unit(state).id == "sol"


def test_ability_damage_resets_the_extra_turn_count() -> None:
    mage = unit("mage", abilities=[star("damage", target="enemy", reach="range:2", amount=1)])
    state = situation(
        [("mage", "B2", "S")], [("tank", "B5", "N"), ("sol", "H8", "N")], pack=pack_with(mage)
    )
    state, events = play(state, "B2>B3 S ability B5")
    assert state.extra["A"] == 2 and "extra_turn_reset" in types(events)


def test_japanese_words_for_actions_and_follow_up_steps() -> None:
    turner = unit(
        "turner", abilities=[star("rotate", target="panel", reach="adjacent-panel", quarters=1)]
    )
    state = situation([("turner", "B2", "S")], [("sol", "D4", "N")], pack=pack_with(turner))
    order = rules.parse(state, "A", "B2→B3→B4 下 能力 P1 右回り")
    assert order.canonical() == "B3>B4 S ability P1 cw"
    state = drawing(
        [("sol", "B2", "S")], [("tank", "H8", "N")], ["pot", "fork"], objects={"B3": "treasure"}
    )
    assert rules.parse(state, "A", "B2→B3 下 宝箱").canonical() == "B3 S treasure"
    state, _ = play(state, "B2>B3 S treasure")
    assert rules.parse(state, "A", "自分に置く").canonical() == "place own"
    assert rules.parse(state, "A", "相手に置く").canonical() == "place opponent"
    assert rules.parse(state, "A", "捨てる").canonical() == "discard"
    state, _ = answer(state, "place own")
    state, _ = play(state, "H8>H7 N")
    state, _ = play(state, "チャンス; B3→B4 下")
    assert rules.parse(state, "A", "選択 1").canonical() == "option 1"


def test_special_unit_of_the_opponent_is_never_replaced_by_them_but_the_own_zone_is() -> None:
    state = drawing(
        [("sol", "B2", "S")], [("tank", "H8", "N")], ["lamp"], objects={"B3": "treasure"}
    )
    state.side["A"] = {"card": "sp1", "owner": "A"}
    state, _ = play(state, "B2>B3 S treasure")
    state, _ = answer(state, "place own")  # the own special may be replaced by the own item
    assert state.side["A"] == {"card": "lamp", "owner": "A"}
    state, _ = play(state, "H8>H7 N")
    state, _events = play(state, "B3>B4 S item")  # the lamp summons the special unit
    assert state.side["A"] == {"card": "sp1", "owner": "A"}
