"""Whole dungeon games played by random legal players (Hypothesis picks the scenario, the party
size and the seeds): at every monster turn the path the engine takes for each of the AI's
outcomes never ends on an occupied hex, never crosses a wall, thin wall or closed door, never
passes an enemy when walking, and never spends more movement than the monster's card gives; the
board never holds two figures on one hex; the state survives JSON."""

from __future__ import annotations

import json
import random
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dice import DiceStream
from cogs.dungeon import content, players, resolution, rules
from cogs.dungeon.ai import solve
from cogs.dungeon.hexes import neighbours

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_monster_paths(state: rules.DungeonState) -> int:
    checked = 0
    amap = rules.ai_map(state)
    walls = {h for h, k in amap.terrain.items() if k == "wall"}
    for monster in state.living_monsters():
        card = rules.monster_card(state, monster.type)
        if card is None:
            continue
        action = resolution._monster_action(state, monster)
        others = {m.hex for m in state.living_monsters() if m.id != monster.id}
        heroes = {x.hex for x in state.heroes_in_play()}
        for outcome in solve(rules.situation(state, monster), state.rules_variant):
            path = rules.monster_path(state, monster, outcome.move_to)
            if outcome.move_to == monster.hex:
                assert path is None
                continue
            assert path is not None, (monster.id, outcome)
            assert path.cost <= action.move  # never more movement than it has
            assert path.end == outcome.move_to
            assert outcome.move_to not in others | heroes  # never ends on a figure
            steps = [monster.hex, *path.hexes]
            for a, b in pairwise(steps):
                assert b in neighbours(a)
                assert frozenset((a, b)) not in amap.thin_walls  # never through a thin wall
                assert b not in walls and b in amap.hexes  # nor a wall, a closed door, the rock
                if not (action.jump or action.flying):
                    assert b not in heroes  # walking never passes an enemy
            if not action.flying:
                assert (
                    content.scenario(state.scenario.id).terrain.get(outcome.move_to) != "obstacle"
                )
            checked += 1
    return checked


def check_board(state: rules.DungeonState) -> None:
    spots = [x.hex for x in state.heroes_in_play()] + [m.hex for m in state.living_monsters()]
    assert len(spots) == len(set(spots))
    shown = rules.revealed_hexes(state)
    for monster in state.living_monsters():
        assert monster.hex in shown
        kind = state.scenario.terrain.get(monster.hex)
        assert kind != "wall"
        assert kind != "obstacle" or content.monster_types()[monster.type].flying
    for hero in state.heroes_in_play():
        assert hero.hex in shown and state.scenario.terrain.get(hero.hex) not in (
            "wall",
            "obstacle",
        )
        assert 0 < hero.hp <= hero.max_hp


@SETTINGS
@given(
    st.sampled_from(content.scenario_ids()),
    st.integers(1, 4),
    st.integers(0, 2**32 - 1),
)
def test_random_games_keep_monster_moves_legal(sid: str, party: int, seed: int) -> None:
    rng = random.Random(seed)

    def dice(i: int) -> DiceStream:
        return DiceStream(seed.to_bytes(8, "big") * 4, f"prop-{i}")

    state = rules.new_game("g", list(rules.SEATS[:party]), {"scenario": sid}, dice(0))
    checked = 0
    for step in range(1, 60):
        if rules.outcome(state).finished:
            break
        state, _ = rules.start_step(state, dice(1000 + step))
        awaited = rules.awaiting(state)
        assert awaited
        orders = {}
        for seat in awaited:
            order = rules.parse(state, seat, players.choose(state, seat, rng))
            assert rules.parse(state, seat, order.canonical()) == order
            orders[seat] = order
        state, _ = rules.resolve(state, orders, dice(step))
        check_board(state)
        checked += check_monster_paths(state)
        state = rules.from_json(json.loads(json.dumps(rules.to_json(state))))
    CHECKED.append(checked)


CHECKED: list[int] = []


def test_the_random_games_did_check_monster_moves() -> None:
    # runs after the property (file order): some monster turns were looked at, not none
    assert sum(CHECKED) > 20
