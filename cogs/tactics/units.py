"""Unit types and the starter pool (``cogs/tactics/data/units.toml``), pure data."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
TARGETS = ("enemy", "ally", "unit", "free", "self", "any")

# A unit's id is its seat and its roster number (``A4``), which reads like a square. People see
# and type it as ``A-4``: the dash keeps it apart from squares (``A4`` is always a square on the
# board), and it is on every phone keyboard; a Japanese keyboard in kana mode gives ``ー`` or the
# full-width ``－``, which are read the same. The stored id (and so records) stays ``A4``.
_TAGGED = re.compile(r"([ABab])[-‐‑‒–—―−ーｰ－_]?([0-9０-９]+)")


def tag(unit_id: str) -> str:
    """``A4`` → ``A-4``: how a unit id is shown everywhere a person reads it."""
    found = _TAGGED.fullmatch(unit_id)
    return f"{found[1].upper()}-{int(found[2])}" if found else unit_id


def untag(word: str) -> str:
    """``A-4``, ``a-4``, ``Aー4`` or the old ``A4`` → the stored id ``A4`` (else ``word``)."""
    found = _TAGGED.fullmatch(word.strip())
    return f"{found[1].upper()}{int(found[2])}" if found else word


@dataclass(frozen=True)
class Ability:
    name: dict[str, str]
    mana: int
    effect: str
    power: int = 0
    range: tuple[int, int] = (1, 1)
    target: str = "enemy"
    radius: int = 0
    stat: str = ""
    turns: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": dict(self.name),
            "mana": self.mana,
            "effect": self.effect,
            "power": self.power,
            "range": list(self.range),
            "target": self.target,
            "radius": self.radius,
            "stat": self.stat,
            "turns": self.turns,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Ability:
        return cls(
            name=dict(obj["name"]),
            mana=int(obj["mana"]),
            effect=str(obj["effect"]),
            power=int(obj.get("power", 0)),
            range=(int(obj["range"][0]), int(obj["range"][1])),
            target=str(obj.get("target", "enemy")),
            radius=int(obj.get("radius", 0)),
            stat=str(obj.get("stat", "")),
            turns=int(obj.get("turns", 0)),
        )


@dataclass(frozen=True)
class UnitType:
    """A unit as it stands in a roster: a pool unit or a player's master."""

    id: str
    name: dict[str, str]
    cost: int
    hp: int
    atk: int
    defence: int
    move: int
    range: tuple[int, int]
    ability: Ability | None = None
    master: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": dict(self.name),
            "cost": self.cost,
            "hp": self.hp,
            "atk": self.atk,
            "def": self.defence,
            "move": self.move,
            "range": list(self.range),
            "ability": self.ability.to_json() if self.ability else None,
            "master": self.master,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> UnitType:
        return cls(
            id=str(obj["id"]),
            name=dict(obj["name"]),
            cost=int(obj["cost"]),
            hp=int(obj["hp"]),
            atk=int(obj["atk"]),
            defence=int(obj["def"]),
            move=int(obj["move"]),
            range=(int(obj["range"][0]), int(obj["range"][1])),
            ability=Ability.from_json(obj["ability"]) if obj.get("ability") else None,
            master=bool(obj.get("master", False)),
        )


def ability_from_toml(obj: Mapping[str, Any], mana: int) -> Ability:
    return Ability(
        name={"en": obj["en"], "ja": obj["ja"]},
        mana=mana,
        effect=obj["effect"],
        power=int(obj.get("power", 0)),
        range=(int(obj["range"][0]), int(obj["range"][1])),
        target=obj.get("target", "enemy"),
        radius=int(obj.get("radius", 0)),
        stat=obj.get("stat", ""),
        turns=int(obj.get("turns", 0)),
    )


@cache
def pool() -> tuple[UnitType, ...]:
    data = tomllib.loads((DATA / "units.toml").read_text("utf-8"))
    found = []
    for u in data["unit"]:
        ability = (
            ability_from_toml(u["ability"], int(u["ability"]["mana"])) if "ability" in u else None
        )
        found.append(
            UnitType(
                id=u["id"],
                name={"en": u["en"], "ja": u["ja"]},
                cost=int(u["cost"]),
                hp=int(u["hp"]),
                atk=int(u["atk"]),
                defence=int(u["def"]),
                move=int(u["move"]),
                range=(int(u["range"][0]), int(u["range"][1])),
                ability=ability,
            )
        )
    return tuple(found)


def by_id(unit_id: str) -> UnitType | None:
    return next((u for u in pool() if u.id == unit_id), None)
