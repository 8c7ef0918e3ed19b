"""The hex dungeon's state (pure): the figures, the game, and the reads every module of the
engine makes.

:class:`DungeonState` holds the characters (:class:`Hero`), the monsters (:class:`Monster`), the
round and whose turn it is; the reads below it give a figure's card and initiative, the round's
order, who the step waits for, and the ground: the revealed hexes, the doors a character may open,
the terrain as it is now, and the map as the monsters know it (:func:`ai_map`). :mod:`.orders`,
:mod:`.resolution` and :mod:`.rules` import it; it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cogs.dungeon import content
from cogs.dungeon.ai import DungeonMap
from cogs.dungeon.content import Card, Scenario
from cogs.dungeon.hexes import Hex, neighbours
from cogs.dungeon.movement import Ground

DEFAULT_SCENARIO = "crypt"
PARTY = "party"  # the outcome when the characters win
MONSTERS = "monsters"  # the outcome when they all fall
LOG_KEEP = 12  # a character's log entries kept (more than a round can bring between two prompts)


# --- state ---------------------------------------------------------------------------------------


@dataclass
class Hero:
    seat: str
    cls: str
    hex: Hex | None
    hp: int
    max_hp: int
    hand: list[str]
    discard: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    card: str | None = None  # picked this round
    status: str = "active"  # active | exhausted | dead
    kills: int = 0
    # What befell the character lately, public facts for its player's next prompt ("Guard 2 hit
    # you for 3"): ``[number, cause, by, amount]`` with cause ``hit``, ``trap``, ``hazardous``,
    # ``grounded`` or ``healed``; numbered from 1 over the game, the last LOG_KEEP kept.
    log: list[list[Any]] = field(default_factory=list)

    def note(self, cause: str, by: str | None, amount: int) -> None:
        number = self.log[-1][0] + 1 if self.log else 1
        self.log = [*self.log, [number, cause, by, amount]][-LOG_KEEP:]

    @property
    def in_play(self) -> bool:
        return self.status == "active" and self.hex is not None


@dataclass
class Monster:
    id: str
    type: str
    number: int
    hex: Hex
    hp: int
    max_hp: int
    alive: bool = True


@dataclass
class DungeonState:
    game_id: str
    options: dict[str, Any]
    seats: list[str]
    phase: str = "pick"  # pick | act | tie | over
    round: int = 1
    step_no: int = 0
    resolved: int = 0
    heroes: dict[str, Hero] = field(default_factory=dict)
    monsters: list[Monster] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    open_doors: list[Hex] = field(default_factory=list)
    sprung: list[Hex] = field(default_factory=list)  # traps removed
    used_cards: dict[str, list[str]] = field(default_factory=dict)  # monster decks: drawn so far
    round_cards: dict[str, str] = field(default_factory=dict)  # monster type -> card this round
    order: list[str] = field(default_factory=list)  # actors: seat or monster id
    position: int = -1  # index in ``order`` of the figure acting now
    pending: dict[str, Any] | None = None  # a monster tie: {"monster", "options": [...]}
    # what the last step did, for the board (public facts only, in the order they happened):
    # {"kind": "move", "figure", "from", "path", "forced"?}, {"kind": "attack", "figure",
    # "target", "from", "to", "damage", "killed"} and {"kind": "damage", "figure", "hex",
    # "cause", "damage", "killed"} (a trap, hazardous terrain, or flying ended on an obstacle)
    last: list[dict[str, Any]] = field(default_factory=list)
    outcome: str | None = None

    @property
    def scenario(self) -> Scenario:
        return content.scenario(str(self.options.get("scenario", DEFAULT_SCENARIO)))

    @property
    def level(self) -> int:
        return int(self.options.get("level", self.scenario.level))

    @property
    def rules_variant(self) -> str:
        return str(self.options.get("rules", self.scenario.rules))

    def monster(self, mid: str) -> Monster | None:
        return next((m for m in self.monsters if m.id == mid), None)

    def living_monsters(self) -> list[Monster]:
        return [m for m in self.monsters if m.alive]

    def heroes_in_play(self) -> list[Hero]:
        return [self.heroes[s] for s in self.seats if self.heroes[s].in_play]

    def figure_at(self, h: Hex) -> Hero | Monster | None:
        for hero in self.heroes.values():
            if hero.in_play and hero.hex == h:
                return hero
        for m in self.monsters:
            if m.alive and m.hex == h:
                return m
        return None

    def current(self) -> str | None:
        return self.order[self.position] if 0 <= self.position < len(self.order) else None


def card_of(state: DungeonState, hero: Hero) -> Card | None:
    if hero.card is None:
        return None
    return content.classes()[hero.cls].card(hero.card)


def monster_card(state: DungeonState, mtype: str) -> Card | None:
    cid = state.round_cards.get(mtype)
    return content.monster_types()[mtype].card(cid) if cid else None


def initiative(state: DungeonState, actor: str) -> int:
    if actor in state.heroes:
        card = card_of(state, state.heroes[actor])
        return card.initiative if card else 100
    m = state.monster(actor)
    card = monster_card(state, m.type) if m else None
    return card.initiative if card else 100


def order_key(state: DungeonState, actor: str) -> tuple[int, int, int, str]:
    """Initiative, then characters before monsters, then seat or monster number."""
    if actor in state.heroes:
        return (initiative(state, actor), 0, state.seats.index(actor), "")
    m = state.monster(actor)
    assert m is not None
    return (initiative(state, actor), 1, m.number, m.type)


def awaiting(state: DungeonState) -> list[str]:
    if state.phase == "over" or state.step_no <= state.resolved:
        return []
    if state.phase == "act":
        actor = state.current()
        return [actor] if actor in state.heroes else []
    return [h.seat for h in state.heroes_in_play()]


# --- the ground ----------------------------------------------------------------------------------


def revealed_hexes(state: DungeonState) -> frozenset[Hex]:
    s = state.scenario
    out: set[Hex] = set(state.open_doors)
    for rid in state.revealed:
        out |= s.room(rid).hexes
    return frozenset(out)


def visible_doors(state: DungeonState) -> list[Hex]:
    """Closed doors at the edge of what is revealed (a character may open them)."""
    s = state.scenario
    return [
        d.hex
        for d in s.doors
        if d.hex not in state.open_doors and any(r in state.revealed for r in d.rooms)
    ]


def terrain_now(state: DungeonState) -> dict[Hex, str]:
    shown = revealed_hexes(state)
    return {h: k for h, k in state.scenario.terrain.items() if h in shown and h not in state.sprung}


def ground(state: DungeonState) -> Ground:
    return Ground(
        revealed_hexes(state),
        frozenset(visible_doors(state)),
        terrain_now(state),
        state.scenario.thin_walls,
    )


def ai_map(state: DungeonState) -> DungeonMap:
    """What the monsters know: revealed hexes; closed doors and everything beyond the revealed
    rooms are walls (they block movement and sight alike)."""
    area = revealed_hexes(state)
    terrain = terrain_now(state)
    closed = set(visible_doors(state))
    ring = {n for h in area for n in neighbours(h) if n not in area}
    for h in ring | closed:
        terrain[h] = "wall"
    return DungeonMap(frozenset(area | ring | closed), terrain, state.scenario.thin_walls)
