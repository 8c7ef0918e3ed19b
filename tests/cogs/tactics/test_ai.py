"""The built-in player (cogs/tactics/ai.py): its text always parses, it plays whole games."""

from __future__ import annotations

import random

import pytest

from bot.dice import DiceStream, ScriptedDice
from cogs.tactics import ai, rules, units
from tests.cogs.tactics.test_rules_scenarios import board, play


def run_game(seed: bytes, options: dict | None = None) -> tuple[rules.TacticsState, list]:
    dice = DiceStream(seed, "ai")
    state = rules.new_game("g", rules.SEATS, options or {}, dice)
    events: list = []
    while not rules.outcome(state).finished:
        state, _ = rules.start_step(state, dice)
        orders = {
            s: rules.parse(state, s, ai.choose(state, s, dice)) for s in rules.awaiting(state)
        }
        state, more = rules.resolve(state, orders, dice)
        events += [e.to_json() for e in more]
    return state, events


def test_ai_plays_whole_games_on_every_map_with_dice():
    seen: set[str] = set()
    for index, name in enumerate(["default", "narrow_pass", "ruined_fort"]):
        state, events = run_game(bytes([index + 1]) * 32, {"map": name})
        assert rules.outcome(state).winner in ("A", "B", "draw")
        seen |= {e["type"] for e in events}
    assert {"attack", "move", "ability", "summon", "death"} <= seen


def test_ai_accepts_a_random_source_too():
    state = rules.new_game("g", rules.SEATS, {}, ScriptedDice([]))
    state, _ = rules.start_step(state, ScriptedDice([]))
    assert rules.parse(state, "A", ai.choose(state, "A", random.Random(3)))


def test_ai_heals_a_hurt_ally_and_summons_on_turn_3():
    state = board({"warlord": "E9", "cleric": "E8", "knight": None}, {"archmage": "A1"}, turn=3)
    state.units["A1"].hp = 4
    text = ai.choose(state, "A", DiceStream(b"\x02" * 32, "ai"))
    assert "summon A3" in text
    order = rules.parse(state, "A", text)
    _, events = play(state, order.canonical())
    assert any(e["type"] == "summon" for e in events)
    state.turn = 4
    state.step_no += 1
    text = ai.choose(state, "A", DiceStream(b"\x02" * 32, "ai"))
    assert "A2" in text and "ability E9" in text


def test_ai_attacks_an_enemy_in_reach():
    state = board({"warlord": "E9", "knight": "C6"}, {"archmage": "A1", "scout": "C3"})
    text = ai.choose(state, "A", DiceStream(b"\x03" * 32, "ai"))
    assert "attack C3" in text


def test_a_league_roster_grown_by_antes_plays_a_whole_game():
    """A league roster is the nine drafted units plus what antes won: ten or more open a match
    (unit ids A10 on) and play to the end; only the copies stay bounded."""
    pool = [u.id for u in units.pool()]
    for size in (10, 14):
        roster = {"master": "warlord", "units": [p for p in pool for _ in range(2)][:size]}
        state, _events = run_game(bytes([size]) * 32, {"rosters": {s: roster for s in rules.SEATS}})
        assert rules.outcome(state).winner in ("A", "B", "draw")
        assert f"A{size}" in state.units and f"B{size}" in state.units
    three = {"master": "warlord", "units": ["knight"] * 3}
    with pytest.raises(rules.OptionError) as refused:
        rules.check_options({"rosters": {s: three for s in rules.SEATS}})
    assert refused.value.key == "tactics.option.too_many_copies"
