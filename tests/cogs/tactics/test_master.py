"""The master-unit builder (cogs/tactics/master.py): published formulas, bounds, presets."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.tactics import master

BASE = {"en": "Titan", "ja": "巨人", "hp": 18, "atk": 6, "def": 3, "move": 2, "range_max": 1}


def test_cost_follows_the_published_formula():
    f = master.formulas()
    w = f["weights"]
    unit = master.design(BASE)
    points = w["hp"] * 18 + w["atk"] * 6 + w["def"] * 3 + w["move"] * 2 + w["range"] * 0
    assert unit.cost == math.ceil(points / f["divisor"]) == 10
    assert unit.master and unit.range == (1, 1) and unit.id == "titan"


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
