"""Hand-made situations for the monster AI: the digest's trap examples, invisible characters, the
three variants' differences, and input errors."""

from __future__ import annotations

import pytest

from cogs.dungeon.ai import (
    Character,
    DungeonMap,
    MonsterAction,
    MonsterAIError,
    Outcome,
    Situation,
    solve,
)

LINE = frozenset((q, 0) for q in range(9))  # a corridor: (0, 0) .. (8, 0)


def corridor(monster, characters, *, allies=(), terrain=None, **action) -> Situation:
    return Situation(
        DungeonMap(LINE, dict(terrain or {})),
        monster,
        frozenset(allies),
        tuple(characters),
        MonsterAction(**{"move": 2, **action}),
    )


def test_walks_up_and_attacks() -> None:
    s = corridor((0, 0), [Character((3, 0), 10)])
    assert solve(s) == (Outcome((2, 0), ((3, 0),)),)


def test_trap_is_crossed_only_when_needed() -> None:
    """The digest's ex1: A needs the trap, B is far but trap-free: B is the focus."""
    a, b = Character((2, 0), 10), Character((8, 0), 90)
    trap = {(3, 0): "trap"}
    s = corridor((4, 0), [a, b], terrain=trap, move=1)
    assert solve(s) == (Outcome((5, 0)),)  # towards B, no attack yet
    # without B, the monster steps onto the trap: the only hex to attack A from
    assert solve(corridor((4, 0), [a], terrain=trap, move=1)) == (Outcome((3, 0), ((2, 0),)),)


def test_enemy_with_every_attack_hex_taken_is_no_focus() -> None:
    """The digest's ex2: B's only attack hex holds an ally, so A (through the trap) is the focus."""
    a, b = Character((2, 0), 10), Character((8, 0), 90)
    s = corridor((4, 0), [a, b], allies=[(7, 0)], terrain={(3, 0): "trap"}, move=1)
    assert solve(s) == (Outcome((3, 0), ((2, 0),)),)


def test_invisible_characters_are_obstacles_not_targets() -> None:
    hidden = Character((1, 0), 5, invisible=True)
    s = corridor((0, 0), [hidden, Character((3, 0), 10)])
    assert solve(s) == (Outcome((0, 0)),)  # the way is shut: no focus, no move
    flying = corridor((0, 0), [hidden, Character((3, 0), 10)], flying=True)
    assert solve(flying) == (Outcome((2, 0), ((3, 0),)),)


def test_difficult_terrain_and_jumps_by_variant() -> None:
    """A jump ignores difficult terrain, except (in Gloomhaven) on its last hex."""
    terrain = {(1, 0): "difficult", (2, 0): "difficult"}
    walk = corridor((0, 0), [Character((4, 0), 10)], terrain=terrain, move=3)
    assert solve(walk) == (Outcome((1, 0)),)  # 2 points into (1, 0); (2, 0) would cost 2 more
    jump = corridor((0, 0), [Character((4, 0), 10)], terrain=terrain, move=2, jump=True)
    assert solve(jump, "frosthaven") == (Outcome((2, 0)),)
    assert solve(jump, "gloomhaven") == (Outcome((1, 0)),)


def test_no_attack_this_turn_means_no_targets() -> None:
    s = corridor((0, 0), [Character((3, 0), 10)], targets=0)
    assert solve(s) == (Outcome((2, 0)),)


def test_ranged_attackers_step_back_unless_muddled() -> None:
    s = corridor((3, 0), [Character((4, 0), 10)], range=2, move=1)
    assert solve(s) == (Outcome((2, 0), ((4, 0),)),)
    muddled = corridor((3, 0), [Character((4, 0), 10)], range=2, move=1, muddled=True)
    assert solve(muddled) == (Outcome((3, 0), ((4, 0),)),)


@pytest.mark.parametrize(
    ("situation", "key"),
    [
        (corridor((0, 0), [Character((0, 0), 1)]), "dungeon.ai.figures_overlap"),
        (corridor((9, 0), [Character((3, 0), 1)]), "dungeon.ai.monster_off_map"),
        (
            corridor((0, 0), [Character((3, 0), 1)], terrain={(3, 0): "wall"}),
            "dungeon.ai.figure_on_wall",
        ),
        (
            corridor((0, 0), [Character((3, 0), 1)], terrain={(3, 0): "lava"}),
            "dungeon.ai.unknown_terrain",
        ),
        (corridor((0, 0), [Character((3, 0), 1)], targets=7), "dungeon.ai.bad_action"),
    ],
)
def test_bad_situations_raise_rule_errors(situation: Situation, key: str) -> None:
    with pytest.raises(MonsterAIError) as err:
        solve(situation)
    assert err.value.key == key
