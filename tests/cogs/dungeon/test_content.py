"""The dungeon's data packs: the shipped files load, every name has a message in both languages,
and a broken scenario is refused with a message key that says where and why."""

from __future__ import annotations

import pytest

from bot.i18n import catalogue
from cogs.dungeon import content
from cogs.dungeon.content import ContentError, label, parse_label, parse_scenario


def test_labels_round_trip() -> None:
    for col in range(16):
        for row in range(8):
            h = content.from_offset(col, row)
            assert parse_label(label(h)) == h
    assert parse_label("Z0") is None and parse_label("hello") is None


def test_shipped_data_loads_and_every_name_is_translated() -> None:
    assert len(content.scenario_ids()) >= 2
    for lang in ("en", "ja"):
        messages = catalogue(lang)
        for sid in content.scenario_ids():
            scen = content.scenario(sid)
            assert f"dungeon.scenario.{sid}" in messages
            for room in scen.rooms:
                assert f"dungeon.room.{room.id}" in messages
        for cls in content.classes().values():
            assert f"dungeon.class.{cls.id}" in messages
            for card in cls.cards:
                assert f"dungeon.card.{card.id}" in messages
        for mtype in content.monster_types():
            assert f"dungeon.monster.{mtype}" in messages


def test_scenarios_use_every_overlay_tile() -> None:
    kinds = {k for sid in content.scenario_ids() for k in content.scenario(sid).terrain.values()}
    assert kinds >= {"wall", "obstacle", "trap", "hazardous", "difficult", "icy"}
    assert any(content.scenario(sid).thin_walls for sid in content.scenario_ids())


BASE = {
    "starts": ["A1", "A2", "B1", "B2"],
    "rooms": [{"id": "a", "area": ["A1:C3"]}, {"id": "b", "area": ["E1:F3"]}],
    "doors": [{"hex": "D2", "rooms": ["a", "b"]}],
}


def broken(**changes):
    doc = {**BASE, **changes}
    with pytest.raises(ContentError) as refused:
        parse_scenario("t", doc)
    return refused.value.key


def test_the_base_document_is_fine() -> None:
    scen = parse_scenario("t", BASE)
    assert [r.id for r in scen.rooms] == ["a", "b"] and scen.door_at(parse_label("D2"))


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"rooms": []}, "dungeon.content.no_rooms"),
        (
            {"rooms": [{"id": "a", "area": ["A1:C3"]}, {"id": "b", "area": ["C3:F3"]}]},
            "dungeon.content.rooms_overlap",
        ),
        (
            {"rooms": [{"id": "a", "area": ["A1:C3"], "traps": ["F9"]}]},
            "dungeon.content.outside_room",
        ),
        (
            {"rooms": [{"id": "a", "area": ["A1:C3"], "traps": ["C3"], "icy": ["C3"]}]},
            "dungeon.content.two_terrains",
        ),
        (
            {
                "rooms": [
                    {"id": "a", "area": ["A1:C3"], "monsters": [{"type": "dragon", "hex": "C3"}]}
                ]
            },
            "dungeon.content.unknown_monster",
        ),
        ({"doors": [{"hex": "B2", "rooms": ["a", "b"]}]}, "dungeon.content.door_in_room"),
        ({"doors": [{"hex": "H2", "rooms": ["a", "b"]}]}, "dungeon.content.door_not_touching"),
        ({"thin_walls": [["A1", "C3"]]}, "dungeon.content.bad_thin_wall"),
        ({"starts": ["A1", "A2"]}, "dungeon.content.starts"),
        ({"starts": ["A1", "A2", "B1", "F3"]}, "dungeon.content.bad_start"),
        ({"level": 9}, "dungeon.content.bad_number"),
        ({"rules": "chess"}, "dungeon.content.unknown_rules"),
        (
            {
                "rooms": [{"id": "a", "area": ["A1:C3"], "obstacles": ["B1", "B2", "B3"]}],
                "doors": [],
                "starts": ["A1", "A2", "A3", "C1"],
            },
            "dungeon.content.cut_in_two",
        ),
        ({"doors": []}, "dungeon.content.cut_in_two"),
        ({"starts": ["A1", "A2", "B1", "Q"]}, "dungeon.content.bad_hex"),
    ],
)
def test_a_broken_scenario_is_refused_with_its_reason(changes, key) -> None:
    assert broken(**changes) == key


def test_broken_cards_are_refused() -> None:
    with pytest.raises(ContentError) as refused:
        content.parse_classes(
            {"x": {"hp": 5, "cards": [{"id": "a", "initiative": 120}, {"id": "b"}]}}
        )
    assert refused.value.key == "dungeon.content.bad_number"
    with pytest.raises(ContentError) as refused:
        content.parse_classes(
            {
                "x": {
                    "hp": 5,
                    "cards": [{"id": "a", "initiative": 5, "jump": True, "flying": True}] * 2,
                }
            }
        )
    assert refused.value.key == "dungeon.content.jump_and_flying"
    with pytest.raises(ContentError) as refused:
        content.parse_modifiers({"d6": [0, 1]})
    assert refused.value.key == "dungeon.content.bad_modifiers"
