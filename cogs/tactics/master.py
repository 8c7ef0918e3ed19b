"""The master-unit builder: published formulas and bounds (``data/masters.toml``), pure.

A design is a mapping ``{"id", "en", "ja", "hp", "atk", "def", "move", "range_max", "ability":
{"en", "ja", "effect", "power", "range": [min, max], "target", "radius"?, "stat"?, "turns"?}}``.
:func:`design` computes the cost and the ability's mana and refuses anything outside the bounds,
saying which bound and by how much.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.ruleset import RuleError
from cogs.tactics.effects import EFFECTS
from cogs.tactics.units import DATA, TARGETS, UnitType, ability_from_toml

STATS = ("hp", "atk", "def", "move", "range_max")


class MasterError(RuleError):
    pass


@cache
def _data() -> dict[str, Any]:
    return tomllib.loads((DATA / "masters.toml").read_text("utf-8"))


def bounds() -> dict[str, tuple[int, int]]:
    return {k: (int(v[0]), int(v[1])) for k, v in _data()["bounds"].items()}


def max_cost() -> int:
    return int(_data()["formula"]["max_cost"])


def cost_of(spec: Mapping[str, Any]) -> int:
    formula = _data()["formula"]
    w = formula["weights"]
    points = (
        w["hp"] * spec["hp"]
        + w["atk"] * spec["atk"]
        + w["def"] * spec["def"]
        + w["move"] * spec["move"]
        + w["range"] * (spec["range_max"] - 1)
    )
    return max(1, math.ceil(points / formula["divisor"]))


def mana_of(ability: Mapping[str, Any]) -> int:
    rule = _data()["mana"][ability["effect"]]
    reach = max(0, int(ability["range"][1]) - 1) / 2
    return max(
        1, math.ceil(rule["base"] + rule["per_power"] * abs(int(ability.get("power", 0))) + reach)
    )


def _int(spec: Mapping[str, Any], key: str) -> int:
    value = spec.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MasterError("tactics.master.missing", stat=key)
    return value


def _within(key: str, value: int) -> None:
    low, high = bounds()[key]
    if not low <= value <= high:
        raise MasterError("tactics.master.bound", stat=key, value=value, low=low, high=high)


def design(spec: Mapping[str, Any]) -> UnitType:
    """The master unit ``spec`` describes, or MasterError saying what is wrong."""
    names = {lang: str(spec.get(lang) or "").strip() for lang in ("en", "ja")}
    if not names["en"] or not names["ja"] or any(len(n) > 20 for n in names.values()):
        raise MasterError("tactics.master.name")
    if " " in names["en"]:
        raise MasterError("tactics.master.name_one_word", name=names["en"])
    stats = {key: _int(spec, key) for key in STATS}
    for key, value in stats.items():
        _within(key, value)
    ability = None
    raw = spec.get("ability")
    if raw:
        if raw.get("effect") not in EFFECTS:
            raise MasterError(
                "tactics.master.effect", effect=raw.get("effect"), known=", ".join(EFFECTS)
            )
        if raw.get("target", "enemy") not in TARGETS:
            raise MasterError("tactics.master.target", target=raw.get("target"))
        rng = raw.get("range") or [1, 1]
        if not (isinstance(rng, list | tuple) and len(rng) == 2 and 0 <= rng[0] <= rng[1]):
            raise MasterError("tactics.master.ability_range")
        _within("ability_range_max", int(rng[1]))
        _within("power", abs(int(raw.get("power", 0))))
        if raw.get("effect") == "stat":
            _within("turns", int(raw.get("turns", 0)))
        ability = ability_from_toml(
            {"en": raw.get("en") or names["en"], "ja": raw.get("ja") or names["ja"], **raw},
            mana_of(raw),
        )
    cost = cost_of(stats)
    if cost > max_cost():
        raise MasterError("tactics.master.too_costly", cost=cost, max=max_cost())
    return UnitType(
        id=str(spec.get("id") or names["en"].lower()),
        name=names,
        cost=cost,
        hp=stats["hp"],
        atk=stats["atk"],
        defence=stats["def"],
        move=stats["move"],
        range=(1, stats["range_max"]),
        ability=ability,
        master=True,
    )


@cache
def presets() -> tuple[UnitType, ...]:
    return tuple(design(p) for p in _data()["preset"])


def preset(master_id: str) -> UnitType | None:
    return next((p for p in presets() if p.id == master_id), None)
