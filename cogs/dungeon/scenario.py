"""Reads the shared reference situations (``monster-ai-scenarios.json``, format
``monster-ai-scenarios/1``) into the AI's own types. Pure: it parses what it is given; only
:func:`load` opens a file.

Each scenario is one monster turn on the file's map (an odd-q rectangle, 16 x 7 hexes, axial
coordinates) with, per rules variant, the set of acceptable outcomes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.ruleset import StateError
from cogs.dungeon.ai import (
    RULES,
    TERRAIN_KINDS,
    Character,
    DungeonMap,
    MonsterAction,
    Outcome,
    Situation,
)
from cogs.dungeon.hexes import Hex

FORMAT = "monster-ai-scenarios/1"
_GRID = re.compile(r"(\d+)\s*columns\s*x\s*(\d+)\s*rows")


class ScenarioError(StateError):
    """A scenario file the loader cannot read (``key`` names the message)."""


@dataclass(frozen=True)
class Scenario:
    id: int
    note: str
    situation: Situation
    expected: Mapping[str, tuple[Outcome, ...]]  # per rules variant, sorted


def _hex(value: Any, where: str) -> Hex:
    if (
        not isinstance(value, Sequence)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise ScenarioError("dungeon.scenario.bad_hex", where=where, value=value)
    return (value[0], value[1])


def _outcomes(items: Any, where: str) -> tuple[Outcome, ...]:
    if not isinstance(items, list):
        raise ScenarioError("dungeon.scenario.bad_expected", where=where)
    out = set()
    for item in items:
        try:
            move_to = _hex(item["move_to"], where)
            attacks = tuple(sorted(_hex(h, where) for h in item.get("attacks", [])))
        except (KeyError, TypeError):
            raise ScenarioError("dungeon.scenario.bad_expected", where=where) from None
        out.add(Outcome(move_to, attacks))
    return tuple(sorted(out))


def parse_scenario(obj: Mapping[str, Any], board: tuple[int, int] = (16, 7)) -> Scenario:
    """One scenario object of the file."""
    try:
        sid = obj["id"]
        where = f"scenario {sid}"
        terrain: dict[Hex, str] = {}
        for kind, hexes in obj.get("terrain", {}).items():
            if kind not in TERRAIN_KINDS:
                raise ScenarioError("dungeon.scenario.unknown_terrain", where=where, kind=kind)
            for h in hexes:
                terrain[_hex(h, where)] = kind
        thin = [tuple(_hex(h, where) for h in pair) for pair in obj.get("thin_walls", [])]
        a = obj["action"]
        action = MonsterAction(
            move=int(a["move"]),
            range=int(a.get("range", 0)),
            targets=int(a.get("targets", 1)),
            jump=bool(a.get("jump", False)),
            flying=bool(a.get("flying", False)),
            teleport=bool(a.get("teleport", False)),
            muddled=bool(a.get("muddled", False)),
            aoe=tuple(_hex(o, where) for o in a.get("aoe", [])),
        )
        situation = Situation(
            map=DungeonMap.rectangle(board[0], board[1], terrain, thin),
            monster=_hex(obj["monster"], where),
            allies=frozenset(_hex(h, where) for h in obj.get("allies", [])),
            characters=tuple(
                Character(
                    _hex(c["hex"], where), int(c["initiative"]), bool(c.get("invisible", False))
                )
                for c in obj["characters"]
            ),
            action=action,
        )
        expected = {
            rules: _outcomes(items, where)
            for rules, items in obj.get("expected", {}).items()
            if rules in RULES
        }
        return Scenario(int(sid), str(obj.get("note", "")), situation, expected)
    except ScenarioError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ScenarioError("dungeon.scenario.malformed", detail=str(exc)) from None


def parse(document: Mapping[str, Any]) -> tuple[Scenario, ...]:
    """The whole file, already decoded from JSON."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise ScenarioError("dungeon.scenario.format", expected=FORMAT)
    match = _GRID.search(str(document.get("grid", "")))
    board = (int(match.group(1)), int(match.group(2))) if match else (16, 7)
    return tuple(parse_scenario(obj, board) for obj in document.get("scenarios", []))


def load(path: str | Path) -> tuple[Scenario, ...]:
    try:
        document = json.loads(Path(path).read_text("utf-8"))
    except FileNotFoundError:
        raise ScenarioError("dungeon.scenario.no_file", path=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError("dungeon.scenario.not_json", detail=str(exc)) from None
    return parse(document)
