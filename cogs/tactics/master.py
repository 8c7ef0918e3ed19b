"""The master-unit builder: published formulas and bounds (``data/masters.toml``), pure.

A design is a mapping ``{"id", "en", "ja", "hp", "atk", "def", "move", "range_max", "ability":
{"en", "ja", "effect", "power", "range": [min, max], "target", "radius"?, "stat"?, "turns"?}}``.
:func:`design` computes the cost and the ability's mana and refuses anything outside the bounds,
saying which bound and by how much.

A designed master's id is ``master:`` and its English name folded (:func:`name_key`), so it can
never be a pool unit's or a preset's id (neither has a colon); :func:`check_names` refuses a new
design named like a pool unit or a preset. Names are kept as typed, without the invisible
characters that could disguise them (bidi controls, zero-width characters).
"""

from __future__ import annotations

import math
import tomllib
import unicodedata
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.ruleset import RuleError
from cogs.tactics.effects import EFFECTS
from cogs.tactics.units import DATA, TARGETS, UnitType, ability_from_toml, pool

STATS = ("hp", "atk", "def", "move", "range_max")
STAT_NAMES = ("atk", "def", "move")  # what a stat-change ability may change
MASTER_PREFIX = "master:"  # designed masters' ids; pool and preset ids never hold a colon
NAME_MAX = 20
INVISIBLE = frozenset(
    [
        *range(0x202A, 0x202F),  # bidi embeddings and overrides
        *range(0x2066, 0x206A),  # bidi isolates
        0x200E,  # left-to-right mark
        0x200F,  # right-to-left mark
        *range(0x200B, 0x200E),  # zero-width space, non-joiner, joiner
        0x2060,  # word joiner
        0xFEFF,  # zero-width no-break space (BOM)
    ]
)


class MasterError(RuleError):
    pass


@cache
def _data() -> dict[str, Any]:
    return tomllib.loads((DATA / "masters.toml").read_text("utf-8"))


def bounds() -> dict[str, tuple[int, int]]:
    return {k: (int(v[0]), int(v[1])) for k, v in _data()["bounds"].items()}


def max_cost() -> int:
    return int(_data()["formula"]["max_cost"])


def formulas() -> dict[str, Any]:
    """The published constants, for a help page: the cost weights and divisor, the cost bound,
    each stat's bounds and each effect's mana base and weight per point of power.

    ``cost = max(1, ceil((Σ weight·stat) / divisor))`` where the range term is ``range_max − 1``;
    ``mana = max(1, ceil(base + per_power·|power| + (ability range_max − 1) / 2))``."""
    formula = _data()["formula"]
    return {
        "weights": dict(formula["weights"]),
        "divisor": formula["divisor"],
        "max_cost": max_cost(),
        "bounds": {k: list(v) for k, v in bounds().items()},
        "mana": {k: dict(v) for k, v in _data()["mana"].items()},
    }


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
        by = low - value if value < low else value - high
        raise MasterError("tactics.master.bound", stat=key, value=value, low=low, high=high, by=by)


def clean_name(text: object) -> str:
    """A name as typed, without invisible or control characters (bidi overrides and isolates,
    zero-width characters, other format and control characters) and outer whitespace."""
    kept = (
        ch
        for ch in str(text or "")
        if ord(ch) not in INVISIBLE and unicodedata.category(ch) not in ("Cc", "Cf")
    )
    return "".join(kept).strip()


def name_key(text: object) -> str:
    """What two names are compared by: clean, NFKC, case-folded (``Ｇｕａｒｄｉａｎ`` is
    ``guardian``)."""
    return unicodedata.normalize("NFKC", clean_name(text)).casefold().strip()


@cache
def _taken() -> frozenset[str]:
    """Every pool unit's and preset's id and names, folded (:func:`name_key`)."""
    return frozenset(
        name_key(name) for unit in (*pool(), *presets()) for name in (unit.id, *unit.name.values())
    )


def check_names(spec: Mapping[str, Any]) -> None:
    """Refuse a new design whose English or Japanese name is a pool unit's or a preset's (or its
    id), compared case-insensitively after NFKC: it would shield that unit, or confuse sheets."""
    for lang in ("en", "ja"):
        if name_key(spec.get(lang)) in _taken():
            raise MasterError("tactics.master.name_taken", name=clean_name(spec.get(lang)))


def parse_reach(text: str) -> list[int]:
    """An ability range written ``min-max`` (``1-3``) or one number (``2``: exactly 2)."""
    low, _, high = text.strip().partition("-")
    try:
        return [int(low), int(high or low)]
    except ValueError:
        raise MasterError("tactics.master.ability_range") from None


def spec_from(
    *,
    name_en: str,
    name_ja: str,
    hp: int,
    atk: int,
    defence: int,
    move: int,
    range_max: int = 1,
    effect: str | None = None,
    power: int = 0,
    reach: str = "1-1",
    target: str = "enemy",
    radius: int = 0,
    stat: str = "atk",
    turns: int = 1,
) -> dict[str, Any]:
    """A design from the builder's flat fields (the slash-command options), for :func:`design`."""
    spec: dict[str, Any] = {
        "en": clean_name(name_en),
        "ja": clean_name(name_ja),
        "hp": hp,
        "atk": atk,
        "def": defence,
        "move": move,
        "range_max": range_max,
    }
    if effect:
        spec["ability"] = {
            "effect": effect,
            "power": power,
            "range": parse_reach(reach),
            "target": target,
            "radius": radius,
            "stat": stat,
            "turns": turns,
        }
    return spec


def design(spec: Mapping[str, Any]) -> UnitType:
    """The master unit ``spec`` describes, or MasterError saying what is wrong. Its id is always
    ``master:<name>`` (an ``id`` in ``spec`` is ignored). Names are not checked against the pool
    here (a design stored before :func:`check_names` existed must still build): a new design goes
    through :func:`new_design`."""
    names = {lang: clean_name(spec.get(lang)) for lang in ("en", "ja")}
    return _build(spec, names, MASTER_PREFIX + name_key(names["en"]))


def new_design(spec: Mapping[str, Any]) -> UnitType:
    """A design submitted now: :func:`design`, and its names are not a pool unit's or a preset's."""
    unit = design(spec)
    check_names(spec)
    return unit


def _build(spec: Mapping[str, Any], names: dict[str, str], unit_id: str) -> UnitType:
    if not names["en"] or not names["ja"] or any(len(n) > NAME_MAX for n in names.values()):
        raise MasterError("tactics.master.name")
    if any(ch.isspace() for ch in names["en"]):
        raise MasterError("tactics.master.name_one_word", name=names["en"])
    stats = {key: _int(spec, key) for key in STATS}
    for key, value in stats.items():
        _within(key, value)
    ability = None
    raw = spec.get("ability")
    if raw:
        if not isinstance(raw, Mapping):
            raise MasterError("tactics.master.effect", effect=str(raw), known=", ".join(EFFECTS))
        if not isinstance(raw.get("effect"), str) or raw["effect"] not in EFFECTS:
            raise MasterError(
                "tactics.master.effect", effect=raw.get("effect"), known=", ".join(EFFECTS)
            )
        if raw.get("target", "enemy") not in TARGETS:
            raise MasterError("tactics.master.target", target=raw.get("target"))
        rng = raw.get("range") or [1, 1]
        if not (
            isinstance(rng, list | tuple)
            and len(rng) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in rng)
            and 0 <= rng[0] <= rng[1]
        ):
            raise MasterError("tactics.master.ability_range")
        _within("ability_range_max", rng[1])
        power = _int({"power": raw.get("power", 0)}, "power")
        _within("power", abs(power))
        _within("radius", _int({"radius": raw.get("radius", 0)}, "radius"))
        turns = 0
        if raw["effect"] == "stat":
            if raw.get("stat") not in STAT_NAMES:
                raise MasterError("tactics.master.stat", stat=str(raw.get("stat")))
            turns = _int({"turns": raw.get("turns", 0)}, "turns")
            _within("turns", turns)
        clean = {
            "en": clean_name(raw.get("en"))[:NAME_MAX] or names["en"],
            "ja": clean_name(raw.get("ja"))[:NAME_MAX] or names["ja"],
            "effect": raw["effect"],
            "power": power,
            "range": [rng[0], rng[1]],
            "target": raw.get("target", "enemy"),
            "radius": raw.get("radius", 0),
            "stat": raw.get("stat", "") if raw["effect"] == "stat" else "",
            "turns": turns,
        }
        ability = ability_from_toml(clean, mana_of(clean))
    cost = cost_of(stats)
    if cost > max_cost():
        raise MasterError(
            "tactics.master.too_costly", cost=cost, max=max_cost(), over=cost - max_cost()
        )
    return UnitType(
        id=unit_id,
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
    found = []
    for p in _data()["preset"]:
        if ":" in str(p["id"]):
            raise ValueError(f"a preset id may not hold a colon: {p['id']!r}")
        found.append(_build(p, {lang: str(p[lang]).strip() for lang in ("en", "ja")}, p["id"]))
    return tuple(found)


def preset(master_id: str) -> UnitType | None:
    return next((p for p in presets() if p.id == master_id), None)
