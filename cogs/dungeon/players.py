"""Built-in players for ``python -m bot demo dungeon``: simple, legal, a little greedy. Pure; the
only randomness is the ``random.Random`` the demo hands in (seeded by ``--seed``).

Each answers with order text exactly as a person could type it, so the demo exercises the parser.
"""

from __future__ import annotations

from typing import Any

from cogs.dungeon import content, rules
from cogs.dungeon.content import label
from cogs.dungeon.hexes import distance
from cogs.dungeon.movement import paths


def choose(state: rules.DungeonState, seat: str, rng: Any) -> str:
    if state.phase == "pick":
        return _pick(state, seat, rng)
    if state.phase == "tie":
        count = len((state.pending or {}).get("options", []))
        return f"option {rng.randint(1, count)}"
    return _act(state, seat, rng)


def _pick(state: rules.DungeonState, seat: str, rng: Any) -> str:
    hero = state.heroes[seat]
    cards = [c for c in content.classes()[hero.cls].cards if c.id in hero.hand]
    hurt = hero.hp * 2 <= hero.max_hp
    # hurt: prefer healing; otherwise the strongest attack, with a little chance
    best = max(cards, key=lambda c: (c.heal if hurt else c.attack * c.targets, rng.random()))
    return f"card {best.id}"


def _act(state: rules.DungeonState, seat: str, rng: Any) -> str:
    hero = state.heroes[seat]
    card = rules.card_of(state, hero)
    if card is None or hero.hex is None:
        return "pass"
    g = rules.ground(state)
    reach = paths(g, rules.hero_mover(state, hero, card), card.move) if card.move else {}
    spots = [hero.hex, *reach]
    monsters = state.living_monsters()
    doors = rules.visible_doors(state)

    def score(h: Any) -> tuple[int, int, int, float]:
        targets = rules.attackable(state, hero, card, h) if card.attack else []
        trap = -len(reach[h].painful) if h in reach else 0
        if monsters:
            near = -min(distance(h, m.hex) for m in monsters)
        elif doors:
            near = -min(distance(h, d) for d in doors)
        else:
            near = 0
        opens = int(h in doors and not monsters)
        return (trap, min(len(targets), card.targets) + opens * 2, near, rng.random())

    dest = max(spots, key=score)
    parts = []
    if dest != hero.hex:
        parts.append(f"move {label(dest)}")
    if dest not in doors:
        targets = rules.attackable(state, hero, card, dest)
        targets.sort(key=lambda m: (m.hp, m.id))
        if targets:
            parts.append("attack " + " ".join(label(m.hex) for m in targets[: card.targets]))
    if card.heal and hero.hp < hero.max_hp:
        parts.append(f"heal {seat}")
    text = " ".join(parts) or "pass"
    # The order is checked as a player's would be; a rare refusal (say, a target the move's
    # door would hide) falls back to the move alone.
    try:
        rules.parse(state, seat, text)
    except rules.RuleError:
        text = f"move {label(dest)}" if dest != hero.hex else "pass"
    return text
