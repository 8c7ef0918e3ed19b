"""Small hand-made dungeons for rules tests: a scenario document is parsed by the real loader and
served in place of the shipped ones for the duration of a test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.dice import DiceStream
from cogs.dungeon import content, rules
from cogs.dungeon.content import parse_label
from cogs.dungeon.rules import DungeonState, Monster


def use_scenario(monkeypatch: pytest.MonkeyPatch, doc: dict[str, Any]) -> content.Scenario:
    """Serve ``doc`` as the scenario ``test``."""
    scen = content.parse_scenario("test", doc)
    real = content.scenario

    def lookup(sid: str) -> content.Scenario:
        return scen if sid == "test" else real(sid)

    monkeypatch.setattr(content, "scenario", lookup)
    return scen


def corridor(**room: Any) -> dict[str, Any]:
    """One room, row 1 from A to L: a line of hexes, each touching only the one before and after."""
    return {
        "level": room.pop("level", 1),
        "starts": ["H1", "I1", "J1", "K1"],
        "rooms": [{"id": "hall", "area": ["A1:L1"], **room}],
    }


def new(
    seats: Sequence[str] = ("A",), classes: dict[str, str] | None = None, **options: Any
) -> DungeonState:
    opts: dict[str, Any] = {"scenario": "test", **options}
    if classes:
        opts["classes"] = classes
    return rules.new_game("g-test", list(seats), opts, DiceStream(b"\x01" * 32, "setup"))


def h(text: str) -> tuple[int, int]:
    found = parse_label(text)
    assert found is not None
    return found


def put_monster(state: DungeonState, mid: str, where: str, hp: int = 5) -> Monster:
    mtype, number = mid.rsplit("-", 1)
    monster = Monster(mid, mtype, int(number), h(where), hp, hp)
    state.monsters.append(monster)
    return monster


def acting(state: DungeonState, seat: str, card: str, where: str | None = None) -> DungeonState:
    """It is ``seat``'s turn with ``card`` (everyone else has already acted this round)."""
    hero = state.heroes[seat]
    if where is not None:
        hero.hex = h(where)
    if card not in hero.hand:  # played earlier in the test: back into the hand
        hero.discard = [c for c in hero.discard if c != card]
        hero.hand.append(card)
    hero.card = card
    state.phase = "act"
    state.order = [seat]
    state.position = 0
    state.step_no = state.resolved + 1
    return state
