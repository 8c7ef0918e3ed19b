"""The Esper war pack format (``esper-pack.md``): the sample pack, dealing, the hash, a keyed error
per bad field, and nothing but :class:`PackError` out of any input."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from cogs.esper import pack as packlib
from cogs.esper.pack import PackError

SAMPLE_TEXT = packlib.SAMPLE.read_text("utf-8")
SAMPLE_OBJ = tomllib.loads(SAMPLE_TEXT)
DIGEST_COUNTS = {
    5: (2, 2, 1),
    6: (2, 2, 2),
    7: (3, 3, 1),
    8: (3, 3, 2),
    9: (3, 3, 3),
    10: (4, 4, 2),
    11: (4, 4, 3),
}

Change = Callable[[dict[str, Any]], None]


def mutated(change: Change) -> dict[str, Any]:
    obj = copy.deepcopy(SAMPLE_OBJ)
    change(obj)
    return obj


def refused(obj: Any, *, server: bool = True) -> PackError:
    with pytest.raises(PackError) as info:
        packlib.from_json(obj, server=server)
    return info.value


def d2_tables() -> dict[str, Any]:
    """A small sound set of every D2 table (it replaces the sample's: below a server's sizes)."""
    return {
        "ccard": [
            {
                "id": "k01",
                "name_en": "Blast",
                "name_ja": "衝撃波",
                "kind": "attack",
                "level": 3,
                "firepower": 6,
                "attribute": "E",
                "sync": True,
                "count": 3,
            },
            {
                "id": "k02",
                "name_en": "Crush",
                "name_ja": "圧殺",
                "kind": "attack",
                "level": 5,
                "column": "3:1",
                "attribute": "own",
                "no_defence": True,
            },
            {
                "id": "k03",
                "name_en": "Barrier",
                "name_ja": "障壁",
                "kind": "defence",
                "level": 2,
                "blocks": ["E", "M"],
                "upkeep": 1,
            },
            {
                "id": "k04",
                "name_en": "Jump",
                "name_ja": "跳躍",
                "kind": "escape",
                "level": 2,
                "teleport": True,
            },
            {
                "id": "k05",
                "name_en": "Mend",
                "name_ja": "修復",
                "kind": "special",
                "level": 1,
                "effect": "recover",
                "n": 1,
            },
        ],
        "damage": {"rows": [[min(r, c) for c in range(11)] for r in range(11)]},
        "charts": {"there": ["no"] * 7 + ["late"] + ["yes"] * 3, "alive": ["no"] * 10 + ["yes"]},
        "base_rules": {"keys": 3},
        "base": [
            {
                "id": "b01",
                "name_en": "Turret",
                "name_ja": "砲台",
                "effect": "damage",
                "n": 2,
                "evil": False,
                "count": 2,
            }
        ],
        "key": [{"id": "key1", "name_en": "Reactor", "name_ja": "動力炉", "durability": 10}],
    }


# --- the sample pack -----------------------------------------------------------------------------


def test_sample_loads_as_a_server_pack_and_meets_the_brief() -> None:
    pack = packlib.load_file(packlib.SAMPLE, server=True)
    assert pack == packlib.sample()
    sheets = list(pack.sheets.values())
    by = {a: [s for s in sheets if s.alignment == a] for a in packlib.ALIGNMENTS}
    assert [len(by[a]) for a in packlib.ALIGNMENTS] == [6, 6, 4] and len(sheets) == 16
    locks = [s for s in sheets if s.lock]
    assert len(locks) >= 2 and {s.alignment for s in locks} >= {"GOOD", "EVIL"}
    assert all(1 <= s.esp <= 8 and 0 <= len(s.abilities) <= 3 for s in sheets)
    assert all(4 <= s.power <= 20 and 0 <= s.hand <= 2 for s in sheets)
    assert 1 <= sum(s.henchmen > 0 for s in sheets) <= 2
    assert any(s.can_convert for s in by["SPECIAL"])
    assert not any(s.can_convert for s in by["SPECIAL"] if s.id == "c16")  # the default
    assert {d.kind for s in sheets for d in s.defeat} == set(packlib.DEFEATS)
    assert any(d.kind == "alive" and d.who for s in sheets for d in s.defeat)
    sheet_abilities = [a for s in sheets for a in s.abilities]
    assert {a.timing for a in sheet_abilities} == set(packlib.TIMINGS)
    assert {a.effect for a in sheet_abilities} == set(packlib.EFFECTS)
    assert any(a.cost_mind for a in sheet_abilities)

    planets = list(pack.planets.values())
    deck = pack.planet_deck()
    assert len(deck) >= 36 and {p.effect for p in planets} == set(packlib.PLANET_EFFECTS)

    def copies(effect: str) -> int:
        return sum(p.count for p in planets if p.effect == effect)

    assert copies("info") >= 8 and copies("ability") >= 6
    assert copies("rafnor") == 1 and 1 <= copies("black_hole") <= 2
    assert all(p.once for p in planets if p.effect == "info")

    cards = list(pack.abilities.values())
    assert len(pack.ability_deck()) >= 12
    assert {a.timing for a in cards} == {"support", "main", "always"}
    assert {a.effect for a in cards} == set(packlib.D1_EFFECTS)
    assert any(a.lasting for a in cards) and not all(a.lasting for a in cards)

    ccards = list(pack.ccards.values())
    bases = list(pack.base_cards.values())
    named: list[Any] = [*sheets, *sheet_abilities, *planets, *cards, *ccards, *bases]
    named += pack.keys.values()
    for card in named:
        assert card.name_en and card.name_ja and card.name_en != card.name_ja, card.id
    texted: list[Any] = [*sheet_abilities, *planets, *cards, *ccards, *bases]
    for card in texted:
        assert card.text_en and card.text_ja, card.id
        assert len(card.text_en) <= 60 and len(card.text_ja) <= 40, card.id  # one short line


def test_sample_counts_are_the_digest_table() -> None:
    assert dict(packlib.sample().counts) == DIGEST_COUNTS


def test_every_player_count_is_dealable() -> None:
    pack = packlib.sample()
    for players in range(5, 12):
        assert packlib.dealable(pack, players) is None
    assert packlib.dealable(pack, 4) == packlib.E_NO_ROW
    assert packlib.dealable(pack, 12) == packlib.E_NO_ROW


def test_dealable_needs_a_fitting_lock_and_enough_other_sheets() -> None:
    def good_only(obj: dict[str, Any]) -> None:
        obj["sheet"] = [s for s in obj["sheet"] if s["id"] in ("c01", "c04", "c05", "c06")]

    tiny = packlib.from_json(mutated(good_only))
    assert packlib.dealable(tiny, 5) == packlib.E_CANNOT_DEAL  # GOOD sheets only

    def unlock(obj: dict[str, Any]) -> None:
        for sheet in obj["sheet"]:
            sheet["lock"] = False

    assert packlib.dealable(packlib.from_json(mutated(unlock)), 5) == packlib.E_NO_LOCK

    def special_lock_only(obj: dict[str, Any]) -> None:
        unlock(obj)
        obj["sheet"][12]["lock"] = True  # c13, SPECIAL
        obj["counts"]["6"] = [3, 3, 0]

    pack = packlib.from_json(mutated(special_lock_only))
    assert packlib.dealable(pack, 5) is None
    assert packlib.dealable(pack, 6) == packlib.E_NO_LOCK  # no SPECIAL in a game of 6

    def few_evil(obj: dict[str, Any]) -> None:
        obj["sheet"] = [s for s in obj["sheet"] if s["id"] not in ("c10", "c11", "c12")]

    pack = packlib.from_json(mutated(few_evil))  # EVIL: c07 (L) and two others
    assert packlib.dealable(pack, 5) is None
    # 3 EVIL: enough with c07 dealt first, but c01 (GOOD, L) may be shuffled first, and then
    # three non-(L) EVIL sheets are needed.
    assert packlib.dealable(pack, 7) == packlib.E_CANNOT_DEAL


def test_dealable_rows_bind_a_server_pack() -> None:
    def special_locks(obj: dict[str, Any]) -> None:
        for sheet in obj["sheet"][12:15]:  # c13-c15: one SPECIAL sheet left without (L)
            sheet["lock"] = True

    error = refused(mutated(special_locks))
    # 6 players deal 2 SPECIAL: with a GOOD (L) first, two non-(L) SPECIAL sheets are needed
    assert (error.key, error.params["where"], error.params["field"]) == (
        packlib.E_UNDEALABLE,
        "counts",
        "6",
    )
    assert packlib.dealable(packlib.from_json(mutated(special_locks)), 5) is None
    error = refused(mutated(lambda obj: obj["counts"].pop("9")))
    assert (error.key, error.params["where"], error.params["field"]) == (
        packlib.E_MISSING,
        "counts",
        "9",
    )
    assert 9 not in packlib.from_json(mutated(lambda obj: obj["counts"].pop("9"))).counts


def test_cards_by_id_and_decks() -> None:
    pack = packlib.sample()
    assert pack.card("c07").name("ja") == "ヴェスパー・ケイン卿"
    assert pack.name("c07b", "en") == "Cold Will"  # a sheet's ability
    assert pack.name("p14", "en") == "Black Hole" and pack.name("a02", "ja") == "精神増幅器"
    with pytest.raises(KeyError):
        pack.card("zz")
    assert pack.planet_deck()[:5] == ["p01"] * 4 + ["p02"]
    assert pack.ability_deck().count("a01") == 2
    assert copy.deepcopy(pack) is pack
    assert pack.name("k03", "ja") == "衝撃波" and pack.card("k03") is pack.ccards["k03"]
    assert pack.name("b04", "en") == "Auto Turret" and pack.card("b04") is pack.base_cards["b04"]
    assert pack.name("key2", "ja") == "司令中枢" and pack.card("key2") is pack.keys["key2"]
    assert pack.c_deck()[:5] == ["k01"] * 4 + ["k02"] and pack.c_deck()[-1] == "k31"
    assert pack.base_deck()[:9] == ["b01"] * 8 + ["b02"] and pack.base_deck()[-1] == "b12"


# --- hash and records ----------------------------------------------------------------------------


def test_hash_is_of_canonical_json_and_round_trips() -> None:
    pack = packlib.sample()
    canonical = json.dumps(SAMPLE_OBJ, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert packlib.canonical_json(pack.source) == canonical
    assert pack.hash == packlib.pack_hash(SAMPLE_OBJ)
    assert pack.hash == hashlib.sha256(canonical.encode()).hexdigest()
    again = packlib.from_json(json.loads(packlib.canonical_json(pack.source)), server=True)
    assert again.hash == pack.hash and again == pack
    assert packlib.from_json(pack.source).hash == pack.hash
    reformatted = "# a comment\n\n" + SAMPLE_TEXT.replace("\n\n", "\n\n\n")
    assert packlib.loads(reformatted).hash == pack.hash
    changed = SAMPLE_TEXT.replace('name_en = "Focus"', 'name_en = "Focus!"', 1)
    assert packlib.loads(changed).hash != pack.hash


def test_the_pack_keeps_its_own_copy() -> None:
    obj = copy.deepcopy(SAMPLE_OBJ)
    pack = packlib.from_json(obj)
    obj["pack"]["name_en"] = "Changed"
    assert pack.source["pack"]["name_en"] == "Starfall sample pack"
    assert packlib.pack_hash(pack.source) == pack.hash


def test_d2_tables_are_typed() -> None:
    tables = d2_tables()
    pack = packlib.from_json(mutated(lambda obj: obj.update(copy.deepcopy(tables))))
    assert pack.hash != packlib.sample().hash
    blast, crush, barrier, jump, mend = pack.ccards.values()
    assert (blast.kind, blast.level, blast.attribute, blast.firepower, blast.column) == (
        "attack",
        3,
        "E",
        6,
        None,
    )
    assert blast.sync and not blast.no_defence and blast.count == 3
    assert (crush.firepower, crush.column, crush.attribute, crush.no_defence) == (
        None,
        3,
        "own",
        True,
    )
    assert not crush.sync and crush.count == 1  # the defaults
    assert (barrier.kind, barrier.blocks, barrier.upkeep, barrier.sync) == (
        "defence",
        ("E", "M"),
        1,
        False,
    )
    assert (jump.kind, jump.teleport, jump.sync, jump.attribute) == ("escape", True, False, None)
    assert (mend.kind, mend.effect, mend.n, mend.level) == ("special", "recover", 1, 1)
    assert dict(mend.params) == {"level": 1, "stat": "durability", "target": "self"}
    assert pack.damage == tuple(tuple(min(r, c) for c in range(11)) for r in range(11))
    assert pack.there == ("no",) * 7 + ("late",) + ("yes",) * 3
    assert pack.alive == ("no",) * 10 + ("yes",) and pack.keys_placed == 3
    turret = pack.base_cards["b01"]
    assert (turret.effect, turret.n, turret.evil, turret.count, turret.once) == (
        "damage",
        2,
        False,
        2,
        False,
    )
    assert pack.keys["key1"] == packlib.KeyInstallation("key1", "Reactor", "動力炉", 10)
    assert pack.c_deck() == ["k01"] * 3 + ["k02", "k03", "k04", "k05"]
    assert pack.base_deck() == ["b01", "b01"]
    # a server's pack needs more than this small set
    assert refused(mutated(lambda obj: obj.update(copy.deepcopy(tables)))).key == packlib.E_TOO_FEW


def test_the_sample_d2_part() -> None:
    pack = packlib.sample()
    ccards = list(pack.ccards.values())

    def copies(kind: str) -> int:
        return sum(c.count for c in ccards if c.kind == kind)

    deck = pack.c_deck()
    assert 60 <= len(deck) <= 80 and len(deck) == sum(map(copies, packlib.CCARD_KINDS))
    assert [copies(k) for k in packlib.CCARD_KINDS] == [30, 17, 12, 9]
    attacks = [c for c in ccards if c.kind == "attack"]
    assert {c.level for c in attacks} == set(range(1, 7))
    assert {c.attribute for c in attacks} == {"E", "M", "own"}
    assert all((c.firepower is None) != (c.column is None) for c in attacks)
    fixed = {c.id: c.column for c in attacks if c.column is not None}
    assert fixed == {"k10": 3, "k12": 5}  # "3:1" and "5:1", as ints (the damage column index)
    assert any(c.sync for c in attacks) and not all(c.sync for c in attacks)
    assert [c.level for c in attacks if c.no_defence] == [6]
    defences = [c for c in ccards if c.kind == "defence"]
    assert {c.blocks for c in defences} >= {("E",), ("M",), ("E", "M")}
    assert {c.upkeep for c in defences} == {0, 1, 2} and any(c.sync for c in defences)
    assert {c.level for c in defences} == set(range(1, 7))
    escapes = [c for c in ccards if c.kind == "escape"]
    assert any(c.teleport and c.sync for c in escapes) and any(not c.teleport for c in escapes)
    specials = {c.effect: c for c in ccards if c.kind == "special"}
    assert set(specials) >= {"melee", "henchmen", "there_bonus", "recover"}
    assert dict(specials["melee"].params) == {"level": 1, "x": 2, "weapon": True}
    assert specials["henchmen"].n == 2 and specials["there_bonus"].n == 3
    for card in ccards:  # the typed fields of other kinds keep their defaults
        assert card.kind == "attack" or (card.attribute, card.firepower, card.column) == (
            None,
            None,
            None,
        )
        assert card.kind == "defence" or (card.blocks, card.upkeep) == ((), 0)
        assert card.kind == "special" or (card.effect, card.n) == (None, 0)
        assert card.params["level"] == card.level

    assert pack.damage_at(2, 0) == 0 and pack.damage_at(12, 10) == 12
    assert pack.damage_at(2, 10) == 3 and pack.damage_at(12, 0) == 2
    assert [pack.damage_at(roll, 1) for roll in range(2, 13)] == [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4]
    for roll, column in ((1, 0), (13, 0), (7, -1), (7, 11)):
        with pytest.raises(ValueError):
            pack.damage_at(roll, column)
    assert [pack.there_at(r) for r in range(2, 13)] == ["no"] * 7 + ["late"] * 2 + ["yes"] * 2
    assert [pack.alive_at(r) for r in range(2, 13)] == ["no"] * 10 + ["yes"]
    with pytest.raises(ValueError):
        pack.there_at(13)

    bases = list(pack.base_cards.values())
    assert len(pack.base_deck()) >= 36 and {b.effect for b in bases} == set(packlib.BASE_EFFECTS)
    assert any(b.evil for b in bases) and not all(b.evil for b in bases)
    common = sum(b.count for b in bases if b.effect in ("none", "damage", "recover"))
    assert common > len(pack.base_deck()) * 3 // 4
    assert pack.keys_placed == 3 and len(pack.keys) == 4
    assert all(6 <= k.durability <= 12 for k in pack.keys.values())

    sheet_abilities = {a.id: a for s in pack.sheets.values() for a in s.abilities}
    melee = [a for a in sheet_abilities.values() if a.effect == "melee"]
    assert {a.params["x"] for a in melee} == {1, 2, 3}
    assert {a.params["weapon"] for a in melee} == {True, False}
    lance = sheet_abilities["c07c"]
    assert (lance.timing, lance.params["firepower"], lance.params["column"]) == (
        "pre-emptive",
        12,
        None,
    )
    veil = sheet_abilities["c01c"]
    assert (veil.timing, veil.params["blocks"], veil.params["upkeep"]) == (
        "defence",
        ["E", "M"],
        1,
    )


def test_the_sample_damage_table_is_monotone() -> None:
    rows = packlib.sample().damage
    assert len(rows) == 11 and all(len(row) == 11 for row in rows)
    for row in rows:  # a higher column never hurts less
        assert all(a <= b for a, b in itertools.pairwise(row)), row
    for column in range(11):  # nor a higher roll
        values = [row[column] for row in rows]
        assert all(a <= b for a, b in itertools.pairwise(values)), column
    assert max(rows[-1]) in range(10, 13) and {row[1] for row in rows} <= set(range(5))
    assert rows[0][0] == 0 and rows[-1][-1] > rows[-1][0] and rows[-1][-1] > rows[0][-1]


def test_rafnor_and_spaceports_mean_nothing_in_the_base() -> None:
    assert packlib.BASE_EFFECTS == ("none", "info", "ability", "damage", "recover", "black_hole")
    for effect in ("rafnor", "to_spaceport"):
        error = refused(mutated(_set("base", 0, "effect", effect)), server=False)
        assert (error.params["value"], error.params["allowed"]) == (
            effect,
            " ".join(packlib.BASE_EFFECTS),
        )
        assert "base[1] b01" in t("en", error.key, **error.params)
    planet = packlib.from_json(mutated(_set("planet", 0, "effect", "rafnor")), server=False)
    assert planet.planets["p01"].effect == "rafnor"  # still a planet effect


def test_a_fixed_column_is_an_int_on_abilities_too() -> None:
    def fixed(obj: dict[str, Any]) -> None:
        ability = obj["sheet"][6]["ability"][2]  # c07c, Obsidian Lance
        del ability["firepower"]
        ability["column"] = "10:1"

    ability = packlib.from_json(mutated(fixed)).sheets["c07"].abilities[2]
    assert (ability.params["column"], ability.params["firepower"]) == (10, None)


def test_a_d1_only_tiny_pack_loads_without_d2() -> None:
    tiny = {
        "pack": SAMPLE_OBJ["pack"],
        "counts": {"5": [2, 2, 1]},
        "sheet": [SAMPLE_OBJ["sheet"][0], SAMPLE_OBJ["sheet"][3]],
        "planet": SAMPLE_OBJ["planet"][:1],
    }
    pack = packlib.from_json(copy.deepcopy(tiny))
    assert list(pack.sheets) == ["c01", "c04"]
    assert (pack.ccards, pack.base_cards, pack.keys) == ({}, {}, {})
    assert (pack.damage, pack.there, pack.alive, pack.keys_placed) == ((), (), (), 0)
    assert pack.c_deck() == [] and pack.base_deck() == []
    with pytest.raises(LookupError):
        pack.damage_at(7, 1)
    with pytest.raises(LookupError):
        pack.alive_at(7)
    assert refused(tiny).key == packlib.E_MISSING  # a server's pack: every counts row first


def _drop(table: str) -> Change:
    def change(obj: dict[str, Any]) -> None:
        del obj[table]

    return change


def _ccard_counts(obj: dict[str, Any]) -> None:
    for card in obj["ccard"]:
        card["count"] = 1


def _no_specials(obj: dict[str, Any]) -> None:
    obj["ccard"] = [c for c in obj["ccard"] if c["kind"] != "special"]
    obj["ccard"][0]["count"] = 13  # still 68 C cards


def _few_base(obj: dict[str, Any]) -> None:
    obj["base"][0]["count"] = 5  # 35 base cards


def _many_keys(obj: dict[str, Any]) -> None:
    obj["base_rules"]["keys"] = 5  # four [[key]]


D2_MINIMUMS: list[tuple[Change, str, dict[str, Any]]] = [
    (_ccard_counts, packlib.E_TOO_FEW, {"what": "ccard", "count": 31, "minimum": 60}),
    (_no_specials, packlib.E_TOO_FEW, {"what": "ccard kind = special", "count": 0, "minimum": 1}),
    (_drop("damage"), packlib.E_MISSING, {"where": "pack", "field": "damage"}),
    (_drop("charts"), packlib.E_MISSING, {"where": "pack", "field": "charts"}),
    (_drop("base_rules"), packlib.E_MISSING, {"where": "pack", "field": "base_rules"}),
    (_few_base, packlib.E_TOO_FEW, {"what": "base", "count": 35, "minimum": 36}),
    (
        _many_keys,
        packlib.E_TOO_FEW,
        {"what": "key (base_rules keys = 5)", "count": 4, "minimum": 5},
    ),
]


@pytest.mark.parametrize(("change", "key", "params"), D2_MINIMUMS)
def test_d2_minimums_bind_a_server_pack_only(
    change: Change, key: str, params: dict[str, Any]
) -> None:
    error = refused(mutated(change))
    assert error.key == key and error.all == (error,)
    assert {k: error.params.get(k) for k in params} == params
    for lang in ("en", "ja"):
        text = t(lang, error.key, **error.params)
        assert "{" not in text and str(params.get("what", params.get("field"))) in text
    packlib.from_json(mutated(change), server=False)  # a record's pack may lack them


def test_d2_minimums_are_met_at_the_edge() -> None:
    def edge(obj: dict[str, Any]) -> None:
        obj["base"][0]["count"] = 6  # 36 base cards
        obj["base_rules"]["keys"] = 4  # every [[key]]
        obj["ccard"] = [c for c in obj["ccard"] if c["id"] not in ("k31", "k30", "k29")]
        obj["ccard"][0]["count"] = 1  # 60 C cards, one special kind left

    pack = packlib.from_json(mutated(edge), server=True)
    assert (len(pack.c_deck()), len(pack.base_deck()), pack.keys_placed) == (60, 36, 4)


# --- refusals: one keyed error per bad field -----------------------------------------------------


def _set(table: str, index: int, key: str, value: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        obj[table][index][key] = value

    return change


def _sheet_ability(sheet: int, **changes: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        obj["sheet"][sheet]["ability"][0].update(changes)

    return change


def _defeat(sheet: int, index: int, **changes: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        obj["sheet"][sheet]["defeat"][index].update(changes)

    return change


def _top(key: str, value: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        obj[key] = value

    return change


def _d2(table: str, edit: Callable[[Any], None]) -> Change:
    def change(obj: dict[str, Any]) -> None:
        tables = d2_tables()
        edit(tables[table])
        obj[table] = tables[table]

    return change


def _short_row(damage: dict[str, Any]) -> None:
    damage["rows"][2] = damage["rows"][2][:10]


def _attack(card: dict[str, Any], **changes: Any) -> None:
    card.update(changes)


CASES: list[tuple[Change, str, str, str]] = [
    # unknown keys and values, naming the table and the key
    (_set("sheet", 0, "colour", "red"), packlib.E_UNKNOWN_KEY, "sheet[1] c01", "colour"),
    (_top("weapons", []), packlib.E_UNKNOWN_KEY, "pack", "weapons"),
    (
        _sheet_ability(0, lasting=True),
        packlib.E_UNKNOWN_KEY,
        "sheet[1] c01 ability[1] c01a",
        "lasting",
    ),
    (_set("planet", 0, "n", 1), packlib.E_UNKNOWN_KEY, "planet[1] p01", "n"),  # effect none
    (_defeat(1, 1, n=2), packlib.E_UNKNOWN_KEY, "sheet[2] c02 defeat[2]", "n"),
    (_set("sheet", 0, "alignment", "NEUTRAL"), packlib.E_VALUE, "sheet[1] c01", "alignment"),
    (
        _set("sheet", 0, "convertible_by", ["EVIL", "CHAOS"]),
        packlib.E_VALUE,
        "sheet[1] c01",
        "convertible_by",
    ),
    (_set("planet", 3, "effect", "teleport"), packlib.E_VALUE, "planet[4] p04", "effect"),
    (_set("ability", 0, "effect", "fly"), packlib.E_VALUE, "ability[1] a01", "effect"),
    (
        _sheet_ability(0, effect="attack"),
        packlib.E_MISSING,
        "sheet[1] c01 ability[1] c01a",
        "level",
    ),
    (_defeat(0, 0, **{"if": "bored"}), packlib.E_VALUE, "sheet[1] c01 defeat[1]", "if"),
    (_set("ability", 2, "stat", "luck"), packlib.E_VALUE, "ability[3] a03", "stat"),
    (_set("sheet", 15, "id", "C16"), packlib.E_VALUE, "sheet[16] C16", "id"),
    (_set("planet", 2, "once", False), packlib.E_VALUE, "planet[3] p03", "once"),  # info
    (_defeat(1, 1, who="c02"), packlib.E_VALUE, "sheet[2] c02 defeat[2]", "who"),  # own alive
    (_set("sheet", 0, "name_en", "Aster\nVale"), packlib.E_ONE_LINE, "sheet[1] c01", "name_en"),
    (_set("ability", 2, "timing", "always"), packlib.E_TIMING, "ability[3] a03", "timing"),
    (
        _sheet_ability(0, timing="defence"),
        packlib.E_TIMING,
        "sheet[1] c01 ability[1] c01a",
        "timing",
    ),
    # types and ranges
    (_set("sheet", 0, "esp", 13), packlib.E_RANGE, "sheet[1] c01", "esp"),
    (_set("sheet", 0, "durability", 0), packlib.E_RANGE, "sheet[1] c01", "durability"),
    (_set("sheet", 0, "mind", "7"), packlib.E_TYPE, "sheet[1] c01", "mind"),
    (_set("sheet", 0, "lock", 1), packlib.E_TYPE, "sheet[1] c01", "lock"),
    (_set("planet", 0, "count", 0), packlib.E_RANGE, "planet[1] p01", "count"),
    (_set("ability", 0, "n", 2.0), packlib.E_TYPE, "ability[1] a01", "n"),
    (_set("sheet", 0, "defeat", {"if": "dead"}), packlib.E_TYPE, "sheet[1] c01", "defeat"),
    (_set("sheet", 0, "ability", [{}] * 5), packlib.E_RANGE, "sheet[1] c01", "ability"),
    (_set("ability", 0, "text_en", "x" * 161), packlib.E_RANGE, "ability[1] a01", "text_en"),
    (_set("sheet", 2, "name_ja", ""), packlib.E_RANGE, "sheet[3] c03", "name_ja"),
    # ids, names, references
    (_set("planet", 1, "id", "p01"), packlib.E_DUPLICATE, "planet[2] p01", "id"),
    (_set("ability", 0, "id", "c01a"), packlib.E_DUPLICATE, "ability[1] c01a", "id"),
    (_sheet_ability(0, id="a05"), packlib.E_DUPLICATE, "ability[5] a05", "id"),
    (
        _set("sheet", 1, "name_ja", "アスター・ヴェイル"),
        packlib.E_DUPLICATE,
        "sheet c02",
        "name_ja",
    ),
    (_set("ability", 0, "name_en", "rally"), packlib.E_DUPLICATE, "ability a01", "name_en"),
    (_defeat(1, 1, who="c99"), packlib.E_UNKNOWN_REF, "sheet c02 defeat[2]", "who"),
    (_defeat(0, 0, who="p01"), packlib.E_UNKNOWN_REF, "sheet c01 defeat[1]", "who"),
    # the composition table
    (_top("counts", {"7": [4, 2, 1]}), packlib.E_COUNTS, "counts", "7"),
    (_top("counts", {"6": [2, 2, 1]}), packlib.E_COUNTS, "counts", "6"),  # adds up to 5
    (_top("counts", {"5": [1, 1, 3]}), packlib.E_COUNTS, "counts", "5"),  # SPECIAL > GOOD
    (_top("counts", {"12": [4, 4, 4]}), packlib.E_UNKNOWN_KEY, "counts", "12"),
    (_top("counts", {"5": [2, 2]}), packlib.E_TYPE, "counts", "5"),
    # D2 tables
    (_d2("damage", _short_row), packlib.E_LENGTH, "damage rows[3]", "rows"),
    (_d2("damage", lambda d: d["rows"].pop()), packlib.E_LENGTH, "damage", "rows"),
    (
        _d2("damage", lambda d: d["rows"][0].__setitem__(0, -1)),
        packlib.E_TYPE,
        "damage rows[1]",
        "rows",
    ),
    (
        _d2("charts", lambda c: c["there"].__setitem__(4, "maybe")),
        packlib.E_TYPE,
        "charts there[5]",
        "there",
    ),
    (_d2("charts", lambda c: c.pop("alive")), packlib.E_MISSING, "charts", "alive"),
    (
        _d2("ccard", lambda k: k[0].update(attribute="X")),
        packlib.E_VALUE,
        "ccard[1] k01",
        "attribute",
    ),
    (
        _d2("ccard", lambda k: k[0].update(column="3:1")),
        packlib.E_NEEDS,
        "ccard[1] k01",
        "firepower",
    ),
    (_d2("ccard", lambda k: k[1].update(column="11:1")), packlib.E_VALUE, "ccard[2] k02", "column"),
    (
        _d2("ccard", lambda k: k[2].update(blocks=["E", "E"])),
        packlib.E_DUPLICATE,
        "ccard[3] k03",
        "blocks",
    ),
    (_d2("ccard", lambda k: k[3].update(kind="dodge")), packlib.E_VALUE, "ccard[4] k04", "kind"),
    (
        _d2("ccard", lambda k: k[3].update(upkeep=1)),
        packlib.E_UNKNOWN_KEY,
        "ccard[4] k04",
        "upkeep",
    ),
    (
        _d2("ccard", lambda k: k[4].update(effect="attack")),
        packlib.E_VALUE,
        "ccard[5] k05",
        "effect",
    ),
    (_d2("base", lambda b: b[0].update(evil="yes")), packlib.E_TYPE, "base[1] b01", "evil"),
    (_set("base", 0, "effect", "rafnor"), packlib.E_VALUE, "base[1] b01", "effect"),
    (_set("base", 10, "effect", "to_spaceport"), packlib.E_VALUE, "base[11] b11", "effect"),
    (_set("ccard", 1, "name_en", "psi bolt"), packlib.E_DUPLICATE, "ccard k02", "name_en"),
    (_set("ccard", 5, "name_ja", "集中"), packlib.E_DUPLICATE, "ccard k06", "name_ja"),  # a01
    (_set("ccard", 0, "name_en", "Aster Vale"), packlib.E_DUPLICATE, "ccard k01", "name_en"),
    (_set("ccard", 2, "name_en", "c07c"), packlib.E_DUPLICATE, "ccard k03", "name_en"),
    (_set("ccard", 3, "id", "b01"), packlib.E_DUPLICATE, "base[1] b01", "id"),
    (_set("ccard", 9, "column", "3:2"), packlib.E_VALUE, "ccard[10] k10", "column"),
    (_d2("key", lambda k: k[0].update(durability=0)), packlib.E_RANGE, "key[1] key1", "durability"),
    (_d2("base_rules", lambda r: r.update(keys=0)), packlib.E_RANGE, "base_rules", "keys"),
    (_d2("key", lambda k: k[0].update(id="p01")), packlib.E_DUPLICATE, "key[1] p01", "id"),
]


@pytest.mark.parametrize(("change", "key", "where", "field"), CASES)
def test_each_bad_field_is_named(change: Change, key: str, where: str, field: str) -> None:
    error = refused(mutated(change), server=False)
    assert (error.key, error.params.get("where"), error.params.get("field")) == (key, where, field)
    assert error.all == (error,)  # one bad field, one error
    for lang in ("en", "ja"):
        text = t(lang, error.key, **error.params)
        assert "{" not in text and not text.startswith("esper.")


def test_too_few_sheets_bind_a_server_pack_only() -> None:
    def drop_good(obj: dict[str, Any]) -> None:
        obj["sheet"] = [s for s in obj["sheet"] if s["id"] != "c06"]

    error = refused(mutated(drop_good))
    assert (error.key, error.params["what"], error.params["count"]) == (
        packlib.E_TOO_FEW,
        "sheet",
        15,
    )
    assert "c06" not in packlib.from_json(mutated(drop_good), server=False).sheets

    def drop_info(obj: dict[str, Any]) -> None:
        obj["planet"][3]["count"] = 1  # p04: info 9 copies -> 7
        obj["planet"][0]["count"] = 6  # still 38 planet cards

    error = refused(mutated(drop_info))
    assert (error.key, error.params["what"]) == (packlib.E_TOO_FEW, "planet effect = info")
    tiny = {
        "pack": SAMPLE_OBJ["pack"],
        "counts": {"5": [2, 2, 1]},
        "sheet": SAMPLE_OBJ["sheet"][:1],
    }
    assert refused(tiny).key == packlib.E_MISSING  # a server's pack has every row
    assert list(packlib.from_json(tiny).sheets) == ["c01"]


def test_every_bad_card_is_named_once_and_nothing_is_loaded() -> None:
    def change(obj: dict[str, Any]) -> None:
        obj["sheet"][6]["esp"] = 20  # c07, which c02 and c15 name in their defeats
        obj["planet"][0]["effect"] = "wormhole"
        obj["counts"]["8"] = [2, 4, 2]

    error = refused(mutated(change))
    found = [(e.key, e.params.get("where"), e.params.get("field")) for e in error.all]
    # counts first (the tables are read in file order), then each card once; the defeats naming
    # the broken sheet are not reported again, and the server minimums wait for the cards.
    assert found == [
        (packlib.E_COUNTS, "counts", "8"),
        (packlib.E_RANGE, "sheet[7] c07", "esp"),
        (packlib.E_VALUE, "planet[1] p01", "effect"),
    ]
    assert error is error.all[0]


def test_toml_errors_sizes_and_floats() -> None:
    with pytest.raises(PackError) as info:
        packlib.loads("[pack\nid = 1")
    assert info.value.key == packlib.E_TOML
    for text in ("x = " + "1" * 5000, "x = " + "1" * 20):  # no TOML integer has 20 digits
        with pytest.raises(PackError) as info:
            packlib.loads(text)
        assert info.value.key == packlib.E_NUMBER
    with pytest.raises(PackError) as info:
        packlib.loads("x = " + "[" * 3000 + "]" * 3000)
    assert info.value.key == packlib.E_TOO_DEEP
    with pytest.raises(PackError) as info:
        packlib.loads(SAMPLE_TEXT.replace("esp = 7\n", "esp = 7.0\n", 1))
    assert info.value.key == packlib.E_TYPE and info.value.params["field"] == "esp"
    with pytest.raises(PackError) as info:
        packlib.loads("x" * (packlib.MAX_BYTES + 1))
    assert info.value.key == packlib.E_TOO_BIG
    big = mutated(lambda obj: obj["pack"].update(name_en="x" * packlib.MAX_BYTES * 2))
    assert refused(big).key == packlib.E_TOO_BIG
    assert refused([1, 2]).key == packlib.E_TYPE
    deep: dict[str, Any] = {"pack": {}}
    for _ in range(20):
        deep = {"x": deep}
    assert refused(deep).key == packlib.E_TOO_DEEP


def test_every_message_key_has_both_languages() -> None:
    keys = {value for name, value in vars(packlib).items() if name.startswith("E_")}
    assert len(keys) >= 19
    for lang in ("en", "ja"):
        for key in keys:
            assert t(lang, key) != key, (lang, key)


# --- nothing but PackError -----------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["GOOD", "c01", "p01", "info", "dead", "support", "5", "n"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8)
            | st.sampled_from(["id", "if", "who", "n", "count", "effect", "rows", "ability"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            out += _paths(value, (*prefix, index))
    return out


SAMPLE_PATHS = _paths(SAMPLE_OBJ)[1:]


def _attempt(load: Callable[[], Any]) -> None:
    try:
        load()
    except PackError as error:
        for lang in ("en", "ja"):
            t(lang, error.key, **error.params)  # every refusal can be told


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200) | st.sampled_from([SAMPLE_TEXT[:n] for n in range(0, 4000, 97)]))
def test_garbage_toml_raises_only_pack_errors(text: str) -> None:
    _attempt(lambda: packlib.loads(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=JSON, server=st.booleans())
def test_garbage_json_raises_only_pack_errors(obj: Any, server: bool) -> None:
    _attempt(lambda: packlib.from_json(obj, server=server))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(st.tuples(st.sampled_from(SAMPLE_PATHS), JSON), min_size=1, max_size=3),
    d2=st.booleans(),
    server=st.booleans(),
)
def test_garbled_sample_raises_only_pack_errors(
    edits: list[tuple[tuple[Any, ...], Any]], d2: bool, server: bool
) -> None:
    obj = copy.deepcopy(SAMPLE_OBJ)
    if d2:
        obj.update(d2_tables())
    for path, value in edits:
        target: Any = obj
        try:
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced the way there
    _attempt(lambda: packlib.from_json(obj, server=server))
