"""The Apeiron pack format (``apeiron-pack.md``): the starter pack, the hash, a keyed error per
bad field."""

from __future__ import annotations

import copy
import json
import tomllib
from typing import Any

import pytest

from bot.i18n import t
from cogs.apeiron import pack as packlib
from cogs.apeiron.pack import PackError

STARTER_TEXT = packlib.STARTER.read_text("utf-8")
STARTER_OBJ = tomllib.loads(STARTER_TEXT)


def mutated(change: Any) -> dict[str, Any]:
    obj = copy.deepcopy(STARTER_OBJ)
    change(obj)
    return obj


def refused(obj: Any, *, server: bool = True) -> PackError:
    with pytest.raises(PackError) as info:
        packlib.from_json(obj, server=server)
    return info.value


# --- the starter pack ----------------------------------------------------------------------------


def test_starter_pack_meets_the_issue() -> None:
    pack = packlib.starter()
    units = list(pack.units.values())
    abilities = [a for u in units for a in u.abilities]
    effects = {a.effect.effect for a in abilities}
    assert len(units) >= 24 and len(pack.chest) >= 16 and len(pack.presets) == 3
    assert any(u.flying for u in units)
    assert len({u.range for u in units if u.range >= 2}) >= 3  # several ranges
    assert any(u.grave_turns for u in units)
    assert any(a.timing == "star" and a.cost for a in abilities)
    assert {"passive", "start", "end", "star"} <= {a.timing for a in abilities}
    assert {"push", "pull", "rotate", "move_panel", "change", "remove_panel"} <= effects
    assert any(a.effect.area or a.effect.target == "each" for a in abilities)  # area abilities
    chest = list(pack.chest.values())
    assert {c.kind for c in chest} == {"item", "event"}
    assert any(c.options for c in chest)
    summoned = {c.effect.special for c in chest if c.effect and c.effect.effect == "summon"}
    assert summoned == set(pack.specials) and len(summoned) >= 2
    kinds = [p.kind for p in pack.panels.values()]
    for kind in packlib.TERRAIN_KINDS:
        assert kinds.count(kind) == 4
    for kind in packlib.EVENT_KINDS:
        assert kinds.count(kind) == 1
    cards: list[Any] = [*units, *chest, *pack.specials.values()]
    for card in cards:
        assert card.name_en and card.name_ja and card.text_en and card.text_ja
        assert card.name_en != card.name_ja


def test_presets_are_two_distinct_decks_at_least() -> None:
    pack = packlib.starter()
    a, b, c = pack.presets
    assert set(a.units).isdisjoint(b.units) and set(a.chest).isdisjoint(b.chest)
    assert len({a.id, b.id, c.id}) == 3


def test_hash_is_of_canonical_json_and_ignores_comments_and_layout() -> None:
    pack = packlib.starter()
    canonical = json.dumps(STARTER_OBJ, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert pack.hash == packlib.pack_hash(STARTER_OBJ)
    import hashlib

    assert pack.hash == hashlib.sha256(canonical.encode()).hexdigest()
    reformatted = "# another comment\n\n" + STARTER_TEXT.replace("\n\n", "\n\n\n")
    assert packlib.loads(reformatted).hash == pack.hash
    changed = STARTER_TEXT.replace('name_en = "Sentinel"', 'name_en = "Warden2"', 1)
    assert packlib.loads(changed).hash != pack.hash


def test_embedded_json_round_trip() -> None:
    pack = packlib.starter()
    again = packlib.from_json(json.loads(packlib.canonical_json(pack.source)), server=True)
    assert again.hash == pack.hash and again.units == pack.units and again.panels == pack.panels


# --- refusals: one keyed error per bad field ----------------------------------------------------


def _set(table: str, index: int, key: str, value: Any) -> Any:
    def change(obj: dict[str, Any]) -> None:
        obj[table][index][key] = value

    return change


def _del(table: str, index: int, key: str) -> Any:
    def change(obj: dict[str, Any]) -> None:
        del obj[table][index][key]

    return change


def _ability(index: int, **changes: Any) -> Any:
    def change(obj: dict[str, Any]) -> None:
        obj["unit"][index]["abilities"][0].update(changes)

    return change


CASES = [
    (_set("unit", 0, "hp", 0), packlib.E_RANGE, "hp"),
    (_set("unit", 0, "hp", "5"), packlib.E_TYPE, "hp"),
    (_set("unit", 0, "flying", 1), packlib.E_TYPE, "flying"),
    (_set("unit", 0, "move", 0), packlib.E_RANGE, "move"),
    (_set("unit", 0, "colour", "red"), packlib.E_UNKNOWN_KEY, "colour"),
    (_del("unit", 0, "power"), packlib.E_MISSING, "power"),
    (_set("unit", 0, "name_en", "Big Knight"), packlib.E_VALUE, "name_en"),
    (_set("unit", 1, "name_ja", "番兵"), packlib.E_DUPLICATE, "name_ja"),
    (_set("unit", 1, "id", "u01"), packlib.E_DUPLICATE, "id"),
    (_set("unit", 0, "id", "U 1"), packlib.E_VALUE, "id"),
    (_ability(0, effect="teleport"), packlib.E_VALUE, "effect"),
    (_ability(0, steps=0), packlib.E_RANGE, "steps"),
    (_ability(0, reach="line:0"), packlib.E_VALUE, "reach"),
    (_ability(0, reach="diagonal"), packlib.E_VALUE, "reach"),
    (_ability(0, timing="sometimes"), packlib.E_VALUE, "timing"),
    (_ability(0, force=3), packlib.E_UNKNOWN_KEY, "force"),
    (_ability(0, target="panel"), packlib.E_VALUE, "target"),
    (_ability(1, delta=None), packlib.E_TYPE, "delta"),  # TOML has no null; JSON could
    (_ability(1, timing="passive", effect="damage", amount=1), packlib.E_UNKNOWN_KEY, "stat"),
    (_ability(9, into="arrow"), packlib.E_VALUE, "into"),  # u10 Druid: change
    (_ability(10, quarters=4), packlib.E_RANGE, "quarters"),
    (_ability(13, object="lava"), packlib.E_VALUE, "object"),  # u14: place
    (_ability(18, turns=None), packlib.E_TYPE, "turns"),  # u19: start stat
    (_set("chest", 0, "kind", "trap"), packlib.E_VALUE, "kind"),
    (
        _set("chest", 10, "effect", {"effect": "summon", "special": "s99"}),
        packlib.E_UNKNOWN_REF,
        "special",
    ),
    (
        _set(
            "special",
            0,
            "effect",
            {"effect": "damage", "target": "enemy", "reach": "field", "amount": 1},
        ),
        packlib.E_NEEDS,
        "target",
    ),
    (_set("panel", 4, "layout", ["#..", ".T.", "..#"]), packlib.E_LAYOUT, None),
    (_set("panel", 0, "layout", ["...", "...", ".."]), packlib.E_TYPE, "layout"),
    (_set("panel", 18, "layout", [">>v", "^.v", "^<<"]), packlib.E_LAYOUT, None),
    (_set("panel", 0, "kind", "forest"), packlib.E_LAYOUT, None),
    (_set("panel", 1, "kind", "sea"), packlib.E_LAYOUT, None),
    (_set("preset", 0, "units", ["u01"] * 8), packlib.E_PRESET, "units"),
    (_set("preset", 0, "chest", ["i01", "i02"]), packlib.E_PRESET, "chest"),
    (
        _set("preset", 0, "chest", ["i01", "i02", "i03", "i04", "i05", "zz"]),
        packlib.E_UNKNOWN_REF,
        "chest",
    ),
]


@pytest.mark.parametrize(("change", "key", "field"), CASES)
def test_each_bad_field_is_named(change: Any, key: str, field: str | None) -> None:
    error = refused(mutated(change))
    assert error.key == key, error
    if field is not None:
        assert error.params["field"] == field
    for lang in ("en", "ja"):
        text = t(lang, error.key, **error.params)
        assert "{" not in text and not text.startswith("apeiron.")


def test_where_names_the_card() -> None:
    error = refused(mutated(_set("unit", 3, "power", -1)))
    assert error.params["where"] == "unit[4] u04"


def test_panel_counts_bind_a_server_pack_only() -> None:
    def drop_grass(obj: dict[str, Any]) -> None:
        obj["panel"] = obj["panel"][1:]

    error = refused(mutated(drop_grass))
    assert error.key == packlib.E_PANELS and error.params["kind"] == "grass"
    assert packlib.from_json(mutated(drop_grass), server=False).panels

    def second_lawless(obj: dict[str, Any]) -> None:
        obj["panel"].append({"id": "lawless-2", "kind": "lawless", "layout": ["..."] * 3})

    assert refused(mutated(second_lawless), server=False).key == packlib.E_PANELS


def test_minimums_bind_a_server_pack_only() -> None:
    tiny = {
        "pack": {"id": "tiny", "version": 1, "name_en": "Tiny", "name_ja": "小"},
        "unit": [STARTER_OBJ["unit"][0]],
        "panel": STARTER_OBJ["panel"],
    }
    assert refused(tiny).key == packlib.E_TOO_FEW
    assert list(packlib.from_json(tiny).units) == ["u01"]


def test_toml_errors_and_floats() -> None:
    with pytest.raises(PackError) as info:
        packlib.loads("[pack\nid = 1")
    assert info.value.key == packlib.E_TOML
    with pytest.raises(PackError) as info:
        packlib.loads(STARTER_TEXT.replace("hp = 5\n", "hp = 5.0\n", 1))
    assert info.value.key == packlib.E_TYPE and info.value.params["field"] == "hp"
    with pytest.raises(PackError) as info:
        packlib.loads("x" * (packlib.MAX_BYTES + 1))
    assert info.value.key == packlib.E_TOO_BIG


def test_every_bad_card_is_named_once_and_nothing_is_loaded() -> None:
    def change(obj: dict[str, Any]) -> None:
        obj["unit"][0]["hp"] = 0
        obj["unit"][1]["flying"] = "no"
        obj["special"][0]["effect"]["effect"] = "teleport"  # chest cards summon it

    error = refused(mutated(change))
    found = [(e.key, e.params.get("where", ""), e.params.get("field")) for e in error.all]
    # The special first (the tables are read in dependency order), then each unit once; the
    # chest card that summons the broken special is not reported again.
    assert [k for k, _, _ in found] == [packlib.E_VALUE, packlib.E_RANGE, packlib.E_TYPE]
    assert found[1][1:] == ("unit[1] u01", "hp") and found[2][1:] == ("unit[2] u02", "flying")
    assert error is error.all[0]


def test_pack_wide_checks_wait_for_the_cards() -> None:
    # A broken panel would make the panel counts wrong too: only the panel is named.
    error = refused(mutated(lambda obj: obj["panel"][0].update(layout=["###", "...", "..."])))
    assert [e.key for e in error.all] == [packlib.E_LAYOUT]
    # With every card sound, the pack-wide checks speak.
    error = refused(mutated(lambda obj: obj["panel"].pop(0)))
    assert [e.key for e in error.all] == [packlib.E_PANELS]
