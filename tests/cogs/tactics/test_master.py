"""The master-unit builder (cogs/tactics/master.py): published formulas, bounds, presets."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.tactics import master
from cogs.tactics.units import pool

BASE = {"en": "Titan", "ja": "巨人", "hp": 18, "atk": 6, "def": 3, "move": 2, "range_max": 1}


def test_cost_follows_the_published_formula():
    f = master.formulas()
    w = f["weights"]
    unit = master.design(BASE)
    points = w["hp"] * 18 + w["atk"] * 6 + w["def"] * 3 + w["move"] * 2 + w["range"] * 0
    assert unit.cost == math.ceil(points / f["divisor"]) == 10
    assert unit.master and unit.range == (1, 1) and unit.id == "master:titan"


def test_ability_mana_follows_the_published_formula():
    ability = {"effect": "damage", "power": 6, "range": [1, 3], "target": "enemy"}
    unit = master.design({**BASE, "hp": 10, "ability": ability})
    rule = master.formulas()["mana"]["damage"]
    assert unit.ability is not None
    assert unit.ability.mana == math.ceil(rule["base"] + rule["per_power"] * 6 + (3 - 1) / 2)


def test_a_broken_bound_says_which_and_by_how_much():
    with pytest.raises(master.MasterError) as caught:
        master.design({**BASE, "hp": 2})
    assert caught.value.key == "tactics.master.bound"
    assert caught.value.params == {"stat": "hp", "value": 2, "low": 5, "high": 30, "by": 3}
    with pytest.raises(master.MasterError) as caught:
        master.design({**BASE, "hp": 30, "atk": 10, "def": 6, "move": 5})
    assert caught.value.key == "tactics.master.too_costly"
    assert caught.value.params["over"] == caught.value.params["cost"] - master.max_cost() > 0


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"en": ""}, "tactics.master.name"),
        ({"en": "Two words"}, "tactics.master.name_one_word"),
        ({"atk": "6"}, "tactics.master.missing"),
        ({"ability": {"effect": "nuke"}}, "tactics.master.effect"),
        ({"ability": {"effect": "damage", "target": "moon"}}, "tactics.master.target"),
        ({"ability": {"effect": "damage", "range": [3, 1]}}, "tactics.master.ability_range"),
        ({"ability": {"effect": "damage", "power": 11}}, "tactics.master.bound"),
        ({"ability": {"effect": "area_damage", "radius": 3}}, "tactics.master.bound"),
        ({"ability": {"effect": "stat", "stat": "hp", "turns": 1}}, "tactics.master.stat"),
        ({"ability": "fireball"}, "tactics.master.effect"),
    ],
)
def test_bad_designs(change, key):
    with pytest.raises(master.MasterError) as caught:
        master.design({**BASE, **change})
    assert caught.value.key == key


def test_presets_are_valid_designs_with_names_in_both_languages():
    presets = master.presets()
    assert len(presets) >= 3 and master.preset("warlord") is presets[0]
    for unit in presets:
        assert unit.master and unit.name["en"] and unit.name["ja"]
        assert unit.cost <= master.max_cost()


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["en", "ja", "hp", "atk", "def", "move", "range_max", "ability"]),
        st.one_of(
            st.integers(-5, 40),
            st.text(max_size=5),
            st.none(),
            st.dictionaries(
                st.sampled_from(["effect", "power", "range", "target", "radius", "stat", "turns"]),
                st.one_of(
                    st.integers(-3, 12),
                    st.sampled_from(["damage", "stat", "atk", "enemy", "heal"]),
                    st.lists(st.integers(-1, 8), max_size=3),
                ),
            ),
        ),
    )
)
def test_any_design_is_a_master_or_a_master_error(spec):
    try:
        unit = master.design({**BASE, **spec})
    except master.MasterError:
        return
    assert 1 <= unit.cost <= master.max_cost()


# --- names and ids ------------------------------------------------------------------------------


def test_designed_ids_never_meet_pool_or_preset_ids():
    """A designed master's id lives in its own namespace: a master named after a pool unit (from
    a design stored before names were checked) still cannot be mistaken for that unit."""
    pool_ids = {u.id for u in pool()}
    preset_ids = {p.id for p in master.presets()}
    assert not pool_ids & preset_ids
    assert all(":" not in i for i in pool_ids | preset_ids)
    for name in ("Guardian", "guardian", "Warlord"):
        unit = master.design({**BASE, "en": name, "ja": "守護者"})
        assert unit.id.startswith(master.MASTER_PREFIX)
        assert unit.id not in pool_ids | preset_ids
    spoof = master.design({**BASE, "id": "guardian"})
    assert spoof.id == "master:titan", "a design cannot choose its id"
    assert master.preset("warlord").id == "warlord", "presets keep theirs"


@pytest.mark.parametrize(
    ("en", "ja"),
    [
        ("Guardian", "守護者"),  # a pool unit's English name
        ("GUARDIAN", "守護者"),  # in any case
        ("Ｇｕａｒｄｉａｎ", "守護者"),  # full-width: NFKC
        ("Gu\u200bardian", "守護者"),  # a zero-width space hides nothing
        ("Titan", "重装兵"),  # a pool unit's Japanese name
        ("Titan", "Knight"),  # an English pool name as the Japanese name
        ("Warlord", "大将"),  # a preset's name
        ("Titan", "覇王"),  # a preset's Japanese name
        ("crossbow", "弩"),  # a pool unit's id
    ],
)
def test_a_new_design_named_like_a_pool_unit_or_preset_is_refused(en, ja):
    spec = {**BASE, "en": en, "ja": ja}
    master.design(spec)  # a stored design of that name still builds
    with pytest.raises(master.MasterError) as caught:
        master.new_design(spec)
    assert caught.value.key == "tactics.master.name_taken"
    assert caught.value.params["name"] in (master.clean_name(en), master.clean_name(ja))


def test_names_keep_their_case_and_lose_invisible_characters():
    unit = master.new_design({**BASE, "en": "  TiTan ", "ja": " 巨人 "})
    assert unit.name == {"en": "TiTan", "ja": "巨人"}
    hidden = "\u202eTi\u200dtan\u2066\u200f\ufeff"
    spec = master.spec_from(
        name_en=hidden, name_ja="\u200b巨\u2069人", hp=18, atk=6, defence=3, move=2
    )
    assert (spec["en"], spec["ja"]) == ("Titan", "巨人"), "the stored spec is clean too"
    assert master.design({**BASE, "en": hidden}).name["en"] == "Titan"
    for bidi in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F]:
        assert master.clean_name(f"A{chr(bidi)}b") == "Ab"
    for zero_width in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF):
        assert master.clean_name(f"A{chr(zero_width)}b") == "Ab"


@pytest.mark.parametrize("name", ["\u202e\u200b", "\u2066 \u2069", "\ufeff", "   "])
def test_a_name_of_nothing_but_invisible_characters_is_refused(name):
    with pytest.raises(master.MasterError) as caught:
        master.design({**BASE, "en": name})
    assert caught.value.key == "tactics.master.name"
    with pytest.raises(master.MasterError):
        master.design({**BASE, "ja": name})
