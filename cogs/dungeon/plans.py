"""A character's turn as a menu of whole orders (pure: i18n for the labels only).

The framework offers a turn's answers one choice group at a time, every group fixed before the
first is picked, and every pick of one group must make an order with every pick of the next: a
"move" menu followed by an "attack" menu would offer targets that the chosen hex cannot reach.
So the turn is one select menu (25 options at most) whose every option is a whole order that the
parser accepts: attack these monsters from the nearest hex that reaches them (one option per set
of targets), open a door, end the move on a hex (attacking from there what it reaches, healing
who needs it most), or pass; every one parses as it is (the tests hold each token to that).
Each is named as the board shows it: the hex, the arrow and the count of hexes from where the
character stands (``C4 ↗2``), what it attacks, whom it heals, the traps on the way.
Any other order is typed (``move C4 attack #6``), as the question says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations

from bot.i18n import LANGS, t
from bot.ruleset import Choice
from cogs.dungeon.ai import DungeonMap
from cogs.dungeon.content import Card, label
from cogs.dungeon.hexes import Hex, distance
from cogs.dungeon.movement import Path, paths
from cogs.dungeon.orders import Order, hero_mover, in_range
from cogs.dungeon.state import DungeonState, Hero, Monster, ai_map, card_of, ground, visible_doors
from cogs.dungeon.words import figure_name, way

ROOM = 25  # a select menu's options
ATTACK_PLANS = 10  # at most, so that moves and doors keep room
LABEL_KEY = "dungeon.choice.plan"  # "{text}": the label is worded here, in every language


@dataclass(frozen=True)
class _Spot:
    hex: Hex
    path: Path | None  # None: where the character stands

    @property
    def cost(self) -> tuple[int, int]:
        """Fewer traps and hazards on the way first, then fewer movement points."""
        return (len(self.path.painful), self.path.cost) if self.path else (0, 0)


def act_choices(state: DungeonState, seat: str) -> list[Choice]:
    """The whole orders a character may give this turn, the likeliest first, each made of what
    the parser checks (a menu never offers what the grammar would refuse)."""
    hero = state.heroes[seat]
    card = card_of(state, hero)
    if card is None or hero.hex is None:
        return [_choice("pass", lambda lang: t(lang, "dungeon.plan.pass", hex="—"))]
    start = hero.hex
    reach = paths(ground(state), hero_mover(state, hero, card), card.move) if card.move else {}
    doors = visible_doors(state)
    spots = [_Spot(start, None), *(_Spot(h, p) for h, p in reach.items())]
    known = ai_map(state)  # one map (and its line of sight) for every range asked below
    targets = {s.hex: _targets(state, card, s.hex, known) for s in spots if s.hex not in doors}

    plans: list[tuple[Order, Callable[[str], str]]] = []
    for chosen, spot in _attack_sets(card, spots, targets)[:ATTACK_PLANS]:
        plans.append(_plan(state, hero, card, spot, chosen, known, attack_first=True))
    # staying put: an ally healed without moving (with nothing to attack it is the pass)
    stay = _plan(state, hero, card, spots[0], targets.get(start, []), known, attack_first=False)
    if stay[0].canonical() != "pass":
        plans.append(stay)
    for spot in sorted((s for s in spots if s.hex in doors), key=lambda s: s.cost):
        plans.append(_door(spot, start))
    near = [m.hex for m in state.living_monsters()] or list(doors)
    moves = [s for s in spots if s.path is not None and s.hex not in doors]
    # toward the monsters (or the doors) first: where a turn usually goes; traps last
    moves.sort(key=lambda s: (len(s.path.painful) if s.path else 0, _nearest(s.hex, near)))
    for spot in moves:
        found = targets.get(spot.hex, [])
        plans.append(_plan(state, hero, card, spot, found, known, attack_first=False))
    plans.append((Order("act"), lambda lang: t(lang, "dungeon.plan.pass", hex=label(start))))

    # Each order is made of what the parser checks (a reachable end, targets in range from
    # it, an ally in heal range), so its canonical text parses back: the tests hold every
    # offered token to that, rather than parsing each again here (a menu is built at every
    # prompt and click).
    choices: list[Choice] = []
    seen: set[str] = set()
    for order, words in plans:
        token = order.canonical()
        if token in seen:
            continue
        seen.add(token)
        choices.append(_choice(token, words))
    if len(choices) > ROOM:  # the pass stays: a player may always choose to do nothing
        choices = [*choices[: ROOM - 1], choices[-1]]
    return choices


def _choice(token: str, words: Callable[[str], str]) -> Choice:
    return Choice(token, LABEL_KEY, params={"text": {lang: words(lang) for lang in LANGS}})


def _targets(state: DungeonState, card: Card, source: Hex, known: DungeonMap) -> list[Monster]:
    """The monsters the card can attack from ``source``, the weakest first (the one to finish)."""
    if card.attack <= 0:
        return []
    found = [
        m for m in state.living_monsters() if in_range(state, source, m.hex, card.range, known)
    ]
    return sorted(found, key=lambda m: (m.hp, m.id))


def _attack_sets(
    card: Card, spots: list[_Spot], targets: dict[Hex, list[Monster]]
) -> list[tuple[list[Monster], _Spot]]:
    """Each set of targets the card can attack together, with the hex that reaches them at the
    least cost; a set inside a larger one is left out (attacking more is never worse)."""
    best: dict[frozenset[str], tuple[list[Monster], _Spot]] = {}
    for spot in spots:
        found = targets.get(spot.hex, [])
        size = min(card.targets, len(found))
        for chosen in combinations(found, size) if size else ():
            key = frozenset(m.id for m in chosen)
            if key not in best or spot.cost < best[key][1].cost:
                best[key] = (list(chosen), spot)
    kept = [v for k, v in best.items() if not any(k < other for other in best)]
    kept.sort(key=lambda v: (-len(v[0]), sum(m.hp for m in v[0]), v[1].cost, _ids(v[0])))
    return kept


def _ids(monsters: Iterable[Monster]) -> list[str]:
    return [m.id for m in monsters]


def _nearest(h: Hex, near: list[Hex]) -> int:
    return min((distance(h, n) for n in near), default=0)


def _heal_target(
    state: DungeonState, hero: Hero, card: Card, source: Hex, known: DungeonMap
) -> str | None:
    """Whom the card heals, if not its own character (which it heals anyway): the ally in range
    who has lost the most, when that is more than the character itself has lost."""
    if card.heal <= 0 or card.heal_range <= 0:
        return None
    lost = hero.max_hp - hero.hp
    best: tuple[int, str] | None = None
    for ally in state.heroes_in_play():
        if ally.seat == hero.seat or ally.hex is None:
            continue
        gone = ally.max_hp - ally.hp
        nearer = gone > lost and in_range(state, source, ally.hex, card.heal_range, known)
        if nearer and (best is None or gone > best[0]):
            best = (gone, ally.seat)
    return best[1] if best else None


def _plan(
    state: DungeonState,
    hero: Hero,
    card: Card,
    spot: _Spot,
    found: list[Monster],
    known: DungeonMap,
    *,
    attack_first: bool,
) -> tuple[Order, Callable[[str], str]]:
    """Move to ``spot`` (or stay), attack what it reaches (``found``, the weakest first), heal
    who needs it: the order text and its label in a language."""
    chosen = found[: card.targets]
    heal = _heal_target(state, hero, card, spot.hex, known)
    order = Order(
        "act",
        move=(spot.hex,) if spot.path is not None else (),
        attacks=tuple(m.hex for m in chosen),
        heal=heal,
    )
    start = hero.hex
    assert start is not None

    def words(lang: str) -> str:
        sep = t(lang, "dungeon.dm.list_sep")
        names = sep.join(
            t(lang, "dungeon.plan.target", name=figure_name(m.id, lang, {}), hex=label(m.hex))
            for m in chosen
        )
        notes = ""
        if chosen and not attack_first:
            notes += t(lang, "dungeon.plan.note_attack", targets=names)
        if heal:
            notes += t(lang, "dungeon.plan.note_heal", seat=heal)
        painful = spot.path.painful if spot.path else ()
        if painful:
            notes += t(lang, "dungeon.plan.note_pain", hexes=sep.join(label(h) for h in painful))
        if attack_first and spot.path is None:
            return t(lang, "dungeon.plan.attack_here", targets=names) + notes
        if spot.path is None:
            return t(lang, "dungeon.plan.stay", hex=label(spot.hex)) + notes
        if attack_first:
            return (
                t(
                    lang,
                    "dungeon.plan.attack_from",
                    targets=names,
                    hex=label(spot.hex),
                    way=way(start, spot.hex),
                )
                + notes
            )
        return t(lang, "dungeon.plan.move", hex=label(spot.hex), way=way(start, spot.hex)) + notes

    return order, words


def _door(spot: _Spot, start: Hex) -> tuple[Order, Callable[[str], str]]:
    def words(lang: str) -> str:
        return t(lang, "dungeon.plan.door", hex=label(spot.hex), way=way(start, spot.hex))

    return Order("act", move=(spot.hex,)), words
