"""The hex dungeon's pure engine (``shared/rules/dungeon.md``): a co-operative round of secret card
picks, figures acting in initiative order, characters moved and attacking by their players'
orders, monsters run by :mod:`cogs.dungeon.ai`.

One table "turn" is one step that needs players' input:

* ``pick``: every character still in play secretly picks a card; revealed together. Monsters then
  draw one ability card per type, and the round's order is set.
* ``act``: the character whose turn it is sends a move and attacks.
* ``tie``: the AI found several equally good outcomes for a monster; the players vote (the most
  votes wins, a tie in votes goes to the lowest option; the default is option 1).

Between steps the engine runs every monster turn it can by itself. Dice (in draw order within a
step): setting a room up draws the standee numbers of each monster type (one shuffle per type,
types in the order they appear in the room); the picks step draws one ability card per monster
type on the board (types sorted by name) from what is left of its deck (a roll of the number left;
the deck is refilled when empty); each attack rolls one d6 modifier per target.

No discord, no storage, no clock, no randomness but the dice it is handed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.dice import NO_SECRET, Dice, shuffle
from bot.i18n import LANGS, t
from bot.ruleset import Choice, ChoiceGroup, Event, OrderRejected, RuleError, StateError
from bot.ruleset import Outcome as GameOutcome
from cogs.dungeon import content
from cogs.dungeon.ai import RULES, Character, DungeonMap, MonsterAction, Outcome, Situation, solve
from cogs.dungeon.content import Card, Scenario, label, parse_label
from cogs.dungeon.hexes import Hex, distance, neighbours, to_offset
from cogs.dungeon.movement import Ground, Mover, Path, follow, forced, paths

NAME = "dungeon"
SEATS = ("A", "B", "C", "D")
SCHEMA_VERSION = 1
DEFAULT_SCENARIO = "crypt"
DEFAULT_CLASSES = ("brute", "scout", "mender", "rogue")
MAX_TIE_OPTIONS = 9
PARTY = "party"  # the outcome when the characters win
MONSTERS = "monsters"  # the outcome when they all fall


class OptionError(RuleError):
    """Options that would not start a game."""


# --- state -------------------------------------------------------------------------------------


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


def _order_key(state: DungeonState, actor: str) -> tuple[int, int, int, str]:
    """Initiative, then characters before monsters, then seat or monster number."""
    if actor in state.heroes:
        return (initiative(state, actor), 0, state.seats.index(actor), "")
    m = state.monster(actor)
    assert m is not None
    return (initiative(state, actor), 1, m.number, m.type)


# --- the ground --------------------------------------------------------------------------------


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


# --- orders ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """``kind``: ``card`` (pick), ``act`` (a character's turn) or ``vote`` (a monster tie)."""

    kind: str
    card: str | None = None
    move: tuple[Hex, ...] = ()
    attacks: tuple[Hex, ...] = ()
    heal: str | None = None  # a seat
    option: int = 0

    def canonical(self) -> str:
        if self.kind == "card":
            return f"card {self.card}"
        if self.kind == "vote":
            return f"option {self.option}"
        parts = []
        if self.move:
            parts.append("move " + " ".join(label(h) for h in self.move))
        if self.attacks:
            parts.append("attack " + " ".join(label(h) for h in self.attacks))
        if self.heal:
            parts.append(f"heal {self.heal}")
        return " ".join(parts) or "pass"


MOVE_WORDS = {"move", "m", "移動", "→", ">"}
ATTACK_WORDS = {"attack", "a", "攻撃"}
HEAL_WORDS = {"heal", "h", "回復"}
PASS_WORDS = {"pass", "stay", "-", "待機", "パス", "なし"}
CARD_WORDS = {"card", "c", "カード"}
OPTION_WORDS = {"option", "opt", "選択", "案"}
_SPLIT = re.compile(r"[\s,、，]+|(?=[→>])|(?<=[→>])")


def _tokens(text: str) -> list[str]:
    return [tok for tok in _SPLIT.split(text.strip()) if tok]


def card_name(card_id: str, lang: str) -> str:
    return t(lang, f"dungeon.card.{card_id}")


def parse(state: DungeonState, seat: str, text: str) -> Order:
    if state.phase == "over":
        raise OrderRejected("dungeon.reject.over")
    if seat not in awaiting(state):
        raise OrderRejected("dungeon.reject.not_your_turn")
    tokens = _tokens(text)
    if not tokens:
        raise OrderRejected("dungeon.reject.empty")
    if state.phase == "pick":
        return _parse_card(state, state.heroes[seat], tokens)
    if state.phase == "tie":
        return _parse_vote(state, tokens)
    return _parse_act(state, state.heroes[seat], tokens)


def _parse_card(state: DungeonState, hero: Hero, tokens: list[str]) -> Order:
    if tokens[0].lower() in CARD_WORDS:
        tokens = tokens[1:]
    wanted = " ".join(tokens).strip()
    if not wanted:
        raise OrderRejected("dungeon.reject.which_card")
    number = _number(wanted)
    if number is not None and 1 <= number <= len(hero.hand):
        return Order("card", card=hero.hand[number - 1])
    lowered = wanted.lower()
    every = content.classes()[hero.cls].cards
    for card in every:
        names = {card.id, *(card_name(card.id, lang).lower() for lang in LANGS)}
        if lowered in names or wanted in names:
            if card.id not in hero.hand:
                raise OrderRejected("dungeon.reject.card_not_in_hand", card=card.id)
            return Order("card", card=card.id)
    raise OrderRejected("dungeon.reject.unknown_card", card=wanted)


def _parse_vote(state: DungeonState, tokens: list[str]) -> Order:
    if tokens[0].lower() in OPTION_WORDS:
        tokens = tokens[1:]
    text = "".join(tokens).lstrip("#")
    count = len((state.pending or {}).get("options", []))
    number = _number(text)
    if number is None or not 1 <= number <= count:
        raise OrderRejected("dungeon.reject.bad_option", count=count)
    return Order("vote", option=number)


def _number(text: str) -> int | None:
    """A small whole number typed in digits (full-width too), else None: ``isdigit`` alone
    lets through "²", which ``int`` refuses, and 5000 digits, which it refuses to read."""
    return int(text) if text.isdecimal() and len(text) <= 4 else None


def _parse_act(state: DungeonState, hero: Hero, tokens: list[str]) -> Order:
    card = card_of(state, hero)
    assert card is not None and hero.hex is not None
    if len(tokens) == 1 and tokens[0].lower() in PASS_WORDS:
        return Order("act")
    section = "move"
    move: list[Hex] = []
    attacks: list[Hex] = []
    heal: str | None = None
    skip = False
    for i, tok in enumerate(tokens):
        if skip:  # the number of a two-word monster reference (``guard 6``)
            skip = False
            continue
        low = tok.lower()
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if section == "attack" or _TAG.match(tok):
            found = _monster_ref(state, tok, after)
            if found is not None:
                monster, used = found
                attacks.append(monster.hex)
                section, skip = "attack", used == 2
                continue
        if low in MOVE_WORDS:
            section = "move"
            continue
        if low in ATTACK_WORDS:
            section = "attack"
            continue
        if low in HEAL_WORDS:
            section = "heal"
            continue
        if low in PASS_WORDS:
            continue
        if section == "heal":
            target = tok.upper() if tok.upper() in state.heroes else None
            h = parse_label(tok)
            if target is None and h is not None:
                fig = state.figure_at(h)
                target = fig.seat if isinstance(fig, Hero) else None
            if target is None:
                raise OrderRejected("dungeon.reject.bad_heal_target", target=tok)
            heal = target
            continue
        h = parse_label(tok)
        if h is None:
            raise OrderRejected("dungeon.reject.unknown_word", word=tok)
        (move if section == "move" else attacks).append(h)
    path = check_move(state, hero, card, move)
    end = path.end if path and path.end else hero.hex
    check_attacks(state, hero, card, end, attacks)
    if heal is not None:
        check_heal(state, hero, card, end, heal)
    return Order("act", move=tuple(move), attacks=tuple(attacks), heal=heal)


_TAG = re.compile(r"^[#＃]\s*(\d+)$")
_NAMED = re.compile(r"^(\D+?)\s*[#＃-]?\s*(\d+)$")  # guard#6, guard-6, 衛兵#6, 射手6


def _type_words(mtype: str) -> tuple[set[str], set[str]]:
    """The names of a monster type in every language and their first letters (the old board
    tags, ``A 6`` for Archer 6): a letter alone counts only followed by a number."""
    names = {mtype, *(t(lang, f"dungeon.monster.{mtype}").lower() for lang in LANGS)}
    return names, {n[:1] for n in names}


def _monster_ref(state: DungeonState, tok: str, after: str | None) -> tuple[Monster, int] | None:
    """The living monster a word names, with how many words it took: ``#6``, ``6`` (the tag on
    the board), ``guard 6``, ``Guard #6``, ``衛兵#6``, ``guard-6`` or the old ``A 6``; None when
    the word is no monster reference (it may be a hex, or a keyword). Refused when the number
    fits no monster, or several (numbers repeat across kinds): then the kind or the hex says."""
    text = tok.translate(_WIDE).lower()
    kind: str | None = None
    number: int | None = None
    used = 1
    tag = _TAG.match(text)
    if tag or _number(text) is not None:
        number = int(tag.group(1) if tag else text)
    elif (named := _NAMED.match(text)) and named.group(1).strip() in _all_type_names(state):
        kind, number = named.group(1).strip(), int(named.group(2))
    elif after is not None:
        follow_up = after.translate(_WIDE).lower()
        follow_tag = _TAG.match(follow_up)
        numbered = follow_tag is not None or _number(follow_up) is not None
        if numbered and (text in _all_type_names(state) or text in _all_initials(state)):
            kind = text
            number = int(follow_tag.group(1) if follow_tag else follow_up)
            used = 2
    if number is None:
        return None
    found = [
        m
        for m in state.living_monsters()
        if m.number == number
        and (kind is None or kind in _type_words(m.type)[0] or kind in _type_words(m.type)[1])
    ]
    shown = f"{tok} {after}" if used == 2 else tok
    if not found:
        raise OrderRejected("dungeon.reject.no_such_monster", monster=shown)
    if len(found) > 1:
        raise OrderRejected(
            "dungeon.reject.which_monster",
            monster=shown,
            hexes=" ".join(label(m.hex) for m in found),
        )
    return found[0], used


_WIDE = str.maketrans("０１２３４５６７８９＃", "0123456789#")


def _all_type_names(state: DungeonState) -> set[str]:
    return {n for m in state.living_monsters() for n in _type_words(m.type)[0]}


def _all_initials(state: DungeonState) -> set[str]:
    return {n for m in state.living_monsters() for n in _type_words(m.type)[1]}


def hero_mover(state: DungeonState, hero: Hero, card: Card) -> Mover:
    assert hero.hex is not None
    friends = frozenset(h.hex for h in state.heroes_in_play() if h.hex is not None)
    foes = frozenset(m.hex for m in state.living_monsters())
    return Mover(hero.hex, card.mode, friends, foes, opens_doors=True)


def check_move(state: DungeonState, hero: Hero, card: Card, move: list[Hex]) -> Path | None:
    """The path of a written move (one hex: the destination, reached by the best path; several:
    each step), or OrderRejected naming the rule it breaks."""
    if not move or move == [hero.hex]:
        return None
    if card.move == 0:
        raise OrderRejected("dungeon.reject.no_move")
    g = ground(state)
    mover = hero_mover(state, hero, card)
    if len(move) == 1:
        dest = move[0]
        if dest not in g.hexes and dest not in g.closed_doors:
            raise OrderRejected("dungeon.reject.not_on_map", hex=label(dest))
        found = paths(g, mover, card.move).get(dest)
        if found is None:
            raise OrderRejected("dungeon.reject.cannot_reach", hex=label(dest), move=card.move)
        return found
    followed = follow(g, mover, list(move), card.move)
    if followed is None:
        raise OrderRejected("dungeon.reject.bad_path", move=card.move)
    return followed


def in_range(state: DungeonState, source: Hex, target: Hex, reach: int) -> bool:
    """Range counts hexes around walls (as the AI counts them) and needs line of sight; melee
    (``reach`` 0) is a neighbour not behind a thin wall."""
    m = ai_map(state)
    if reach <= 0:
        return target in neighbours(source) and frozenset((source, target)) not in m.thin_walls
    if distance(source, target) > reach:
        return False
    steps = {source: 0}
    frontier = [source]
    blocked = {h for h, k in m.terrain.items() if k == "wall"}
    while frontier and target not in steps:
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n in steps or n in blocked or n not in m.hexes:
                    continue
                if frozenset((h, n)) in m.thin_walls:
                    continue
                steps[n] = steps[h] + 1
                if steps[n] < reach:
                    nxt.append(n)
        frontier = nxt
    if steps.get(target, reach + 1) > reach:
        return False
    return m.sight.los(source, target, vertex=state.rules_variant == "gloomhaven")


def check_attacks(
    state: DungeonState, hero: Hero, card: Card, source: Hex, attacks: list[Hex]
) -> None:
    if not attacks:
        return
    if card.attack <= 0:
        raise OrderRejected("dungeon.reject.no_attack")
    if len(attacks) > card.targets or len(set(attacks)) != len(attacks):
        raise OrderRejected("dungeon.reject.too_many_targets", targets=card.targets)
    for h in attacks:
        target = state.figure_at(h)
        if not isinstance(target, Monster):
            raise OrderRejected("dungeon.reject.no_monster_there", hex=label(h))
        if not in_range(state, source, h, card.range):
            raise OrderRejected("dungeon.reject.out_of_range", hex=label(h), range=card.range)


def check_heal(state: DungeonState, hero: Hero, card: Card, source: Hex, seat: str) -> None:
    if card.heal <= 0:
        raise OrderRejected("dungeon.reject.no_heal")
    target = state.heroes.get(seat)
    if target is None or not target.in_play:
        raise OrderRejected("dungeon.reject.bad_heal_target", target=seat)
    if seat == hero.seat:
        return
    assert target.hex is not None
    if card.heal_range <= 0 or not in_range(state, source, target.hex, card.heal_range):
        raise OrderRejected("dungeon.reject.heal_out_of_range", target=seat)


# --- options and setup -------------------------------------------------------------------------


def check_options(options: Mapping[str, Any]) -> None:
    sid = str(options.get("scenario", DEFAULT_SCENARIO))
    scen = content.scenario(sid)  # ContentError for an unknown scenario
    level = options.get("level", scen.level)
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 7:
        raise OptionError("dungeon.option.level", value=level)
    if options.get("rules", scen.rules) not in RULES:
        raise OptionError("dungeon.option.rules", value=options.get("rules"))
    chosen = options.get("classes")
    if chosen is not None:
        if not isinstance(chosen, Mapping):
            raise OptionError("dungeon.option.classes")
        for seat, cls in chosen.items():
            if not isinstance(cls, str):  # a record's options are any JSON
                raise OptionError("dungeon.option.class_type", seat=seat)
            if seat not in SEATS or cls not in content.classes():
                raise OptionError("dungeon.option.unknown_class", seat=seat, cls=cls)


def parse_party(text: str, players: int) -> dict[str, str]:
    """``"rogue mender"`` (class ids or names, either language), one per player in seat order,
    as the ``classes`` option; OptionError when a word is no class or the count is wrong."""
    words = _tokens(text)
    if len(words) != players:
        raise OptionError("dungeon.option.party_size", players=players, given=len(words))
    chosen = {}
    for seat, word in zip(SEATS, words, strict=False):
        found = next(
            (
                cid
                for cid in content.classes()
                if word.lower() == cid
                or word in {t(lang, f"dungeon.class.{cid}") for lang in LANGS}
                or word.lower() == t("en", f"dungeon.class.{cid}").lower()
            ),
            None,
        )
        if found is None:
            raise OptionError("dungeon.option.unknown_class", seat=seat, cls=word)
        chosen[seat] = found
    return chosen


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice = NO_SECRET,
) -> DungeonState:
    seats = list(seats)
    if not 1 <= len(seats) <= len(SEATS) or seats != list(SEATS[: len(seats)]):
        raise OptionError("dungeon.option.seats", max=len(SEATS))
    check_options(options)
    state = DungeonState(str(game_id), dict(options), seats)
    scen = state.scenario
    chosen = dict(options.get("classes") or {})
    for i, seat in enumerate(seats):
        cls = content.classes()[chosen.get(seat, DEFAULT_CLASSES[i % len(DEFAULT_CLASSES)])]
        state.heroes[seat] = Hero(
            seat, cls.id, scen.starts[i], cls.hp, cls.hp, [c.id for c in cls.cards]
        )
    first = scen.rooms[0]
    state.revealed.append(first.id)
    _set_up_room(state, first.id, scen.starts[0], dice)
    return state


def _set_up_room(state: DungeonState, room_id: str, opener: Hex, dice: Dice) -> list[Monster]:
    """Place the room's monsters for this many players: in random standee order, nearest the
    opener first (the digest). Returns the monsters placed."""
    room = state.scenario.room(room_id)
    players = len(state.seats)
    placed: list[Monster] = []
    wanted = [p for p in room.monsters if p.min_players <= players]
    types_in_order: list[str] = []
    for p in wanted:
        if p.type not in types_in_order:
            types_in_order.append(p.type)
    for mtype in types_in_order:
        spots = sorted(
            (p.hex for p in wanted if p.type == mtype),
            key=lambda h: (distance(h, opener), label(h)),
        )
        used = {m.number for m in state.monsters if m.type == mtype}
        free = [n for n in range(1, content.monster_types()[mtype].standees + 1) if n not in used]
        shuffle(dice, free)
        mt = content.monster_types()[mtype]
        for spot, number in zip(spots, free, strict=False):
            if state.figure_at(spot) is not None:
                continue  # a character already stands there (a figure on a door is in no room)
            hp = mt.max_hp(state.level)
            monster = Monster(f"{mtype}-{number}", mtype, number, spot, hp, hp)
            state.monsters.append(monster)
            placed.append(monster)
    return placed


# --- the table's hooks ---------------------------------------------------------------------------


def start_turn(
    state: DungeonState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[DungeonState, list[Event]]:
    new = copy.deepcopy(state)
    new.step_no += 1
    return new, []


def turn(state: DungeonState) -> int:
    return state.step_no


def step_label(state: DungeonState) -> str:
    """``round 2 pick``, ``round 2 A`` (a character's turn), ``round 2 tie`` (the vote)."""
    current = state.current()
    if state.phase == "act" and current is not None:
        return f"round {state.round} {current}"
    return f"round {state.round} {state.phase}"


def awaiting(state: DungeonState) -> list[str]:
    if state.phase == "over" or state.step_no <= state.resolved:
        return []
    if state.phase == "act":
        actor = state.current()
        return [actor] if actor in state.heroes else []
    return [h.seat for h in state.heroes_in_play()]


def outcome(state: DungeonState) -> GameOutcome:
    if state.outcome is None:
        return GameOutcome.ongoing()
    return GameOutcome.cooperative(state.outcome)


def choices(state: DungeonState, seat: str) -> list[ChoiceGroup]:
    if seat not in awaiting(state):
        return []
    if state.phase == "pick":
        hero = state.heroes[seat]
        return [
            ChoiceGroup(
                "card",
                "dungeon.choice.card",
                [Choice(f"card {cid}", f"dungeon.card.{cid}") for cid in hero.hand],
            )
        ]
    if state.phase == "tie":
        count = len((state.pending or {}).get("options", []))
        return [
            ChoiceGroup(
                "option",
                "dungeon.choice.option",
                [Choice(f"option {i}", f"dungeon.choice.option.{i}") for i in range(1, count + 1)],
            )
        ]
    return [
        ChoiceGroup("act", "dungeon.choice.act", [Choice("pass", "dungeon.choice.pass")])
    ]  # moves and attacks are written; one button to pass


def default_order(state: DungeonState, seat: str) -> Order:
    if state.phase == "pick":
        return Order("card", card=state.heroes[seat].hand[0])
    if state.phase == "tie":
        return Order("vote", option=1)
    return Order("act")


# --- resolution ----------------------------------------------------------------------------------


def resolve(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[DungeonState, list[Event]]:
    new = copy.deepcopy(state)
    new.resolved = new.step_no
    new.last = []
    events: list[Event] = []
    if new.phase == "pick":
        _reveal_picks(new, orders, dice, events)
    elif new.phase == "act":
        actor = new.current()
        assert actor is not None
        order = orders.get(actor) or default_order(new, actor)
        _character_turn(new, new.heroes[actor], order, dice, events)
        _check_end(new, events)
    elif new.phase == "tie":
        _settle_tie(new, orders, dice, events)
        _check_end(new, events)
    if new.phase != "over":
        _advance(new, dice, events)
    return new, events


def _reveal_picks(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, events: list[Event]
) -> None:
    for hero in state.heroes_in_play():
        order = orders.get(hero.seat) or default_order(state, hero.seat)
        card = order.card if order.card in hero.hand else hero.hand[0]
        hero.card = card
    state.round_cards = {}
    for mtype in sorted({m.type for m in state.living_monsters()}):
        _draw_monster_card(state, mtype, dice)
    actors = [h.seat for h in state.heroes_in_play()] + [m.id for m in state.living_monsters()]
    state.order = sorted(actors, key=lambda a: _order_key(state, a))
    state.position = -1
    events.append(
        Event(
            "picks",
            {
                "round": state.round,
                "cards": {h.seat: h.card for h in state.heroes_in_play()},
                "monster_cards": dict(state.round_cards),
                "order": [[a, initiative(state, a)] for a in state.order],
            },
        )
    )


def _draw_monster_card(state: DungeonState, mtype: str, dice: Dice) -> None:
    deck = content.monster_types()[mtype].deck
    used = state.used_cards.setdefault(mtype, [])
    left = [c.id for c in deck if c.id not in used]
    if not left:
        used.clear()
        left = [c.id for c in deck]
    chosen = left[dice.roll(len(left)) - 1] if len(left) > 1 else left[0]
    used.append(chosen)
    state.round_cards[mtype] = chosen


def _advance(state: DungeonState, dice: Dice, events: list[Event]) -> None:
    """Run monster turns until a character must act, the players must break a tie, the round
    ends (then the next round's picks are awaited) or the scenario is over."""
    while state.phase != "over":
        state.position += 1
        actor = state.current()
        if actor is None:
            _end_round(state, events)
            return
        if actor in state.heroes:
            if state.heroes[actor].in_play:
                state.phase = "act"
                return
            continue
        monster = state.monster(actor)
        if monster is None or not monster.alive:
            continue
        options = _monster_options(state, monster)
        if len(options) > 1:
            state.phase = "tie"
            state.pending = {"monster": monster.id, "options": [o.to_json() for o in options]}
            events.append(
                Event(
                    "monster_tie",
                    {
                        "monster": monster.id,
                        "options": [_outcome_labels(o) for o in options],
                    },
                )
            )
            return
        _monster_turn(state, monster, options[0] if options else None, dice, events)
        _check_end(state, events)


def _outcome_labels(o: Outcome) -> dict[str, Any]:
    return {"move_to": label(o.move_to), "attacks": [label(h) for h in o.attacks]}


def _monster_action(state: DungeonState, monster: Monster) -> MonsterAction:
    card = monster_card(state, monster.type)
    assert card is not None
    mt = content.monster_types()[monster.type]
    return MonsterAction(
        move=card.move,
        range=card.range,
        targets=card.targets if card.attack > 0 else 0,
        jump=card.jump,
        flying=card.flying or mt.flying,
    )


def situation(state: DungeonState, monster: Monster) -> Situation:
    heroes = state.heroes_in_play()
    return Situation(
        map=ai_map(state),
        monster=monster.hex,
        allies=frozenset(m.hex for m in state.living_monsters() if m.id != monster.id),
        characters=tuple(
            Character(h.hex, initiative(state, h.seat)) for h in heroes if h.hex is not None
        ),
        action=_monster_action(state, monster),
    )


def _monster_options(state: DungeonState, monster: Monster) -> list[Outcome]:
    if not state.heroes_in_play():
        return []
    return list(solve(situation(state, monster), state.rules_variant)[:MAX_TIE_OPTIONS])


def monster_path(state: DungeonState, monster: Monster, dest: Hex) -> Path | None:
    """The path a monster takes to the AI's destination: the fewest traps, then the fewest points
    (the AI's own measure); None when it stays."""
    if dest == monster.hex:
        return None
    action = _monster_action(state, monster)
    mode = "flying" if action.flying else "jump" if action.jump else "normal"
    mover = Mover(
        monster.hex,
        mode,
        friends=frozenset(m.hex for m in state.living_monsters()),
        foes=frozenset(h.hex for h in state.heroes_in_play() if h.hex is not None),
        opens_doors=False,
        jump_pays_last_difficult=state.rules_variant == "gloomhaven",
    )
    return paths(ground(state), mover, action.move).get(dest)


def _monster_turn(
    state: DungeonState, monster: Monster, chosen: Outcome | None, dice: Dice, events: list[Event]
) -> None:
    card = monster_card(state, monster.type)
    assert card is not None
    if chosen is None:
        events.append(Event("monster_idle", {"monster": monster.id}))
        return
    path = monster_path(state, monster, chosen.move_to)
    if chosen.move_to != monster.hex and path is None:
        # cannot happen while the AI and the paths agree; a test keeps them agreeing
        raise StateError("dungeon.error.no_path", monster=monster.id, hex=label(chosen.move_to))
    if path is None and not chosen.attacks:
        events.append(Event("monster_idle", {"monster": monster.id}))
        return
    if path is not None:
        start = monster.hex
        _walk(state, monster, path, None, dice, events)
        state.last.append(
            {
                "kind": "move",
                "figure": monster.id,
                "from": label(start),
                "path": [label(h) for h in path.hexes],
            }
        )
    if not monster.alive:
        return
    attack = card.attack + state.level // 2
    for h in chosen.attacks:
        target = state.figure_at(h)
        if isinstance(target, Hero):
            _hit(state, monster.id, target, attack, dice, events)
    if not content.monster_types()[monster.type].flying:
        _land(state, monster, events)


def _settle_tie(
    state: DungeonState, orders: Mapping[str, Order], dice: Dice, events: list[Event]
) -> None:
    pending = state.pending
    assert pending is not None
    count = len(pending["options"])
    votes = [0] * (count + 1)
    for seat in [h.seat for h in state.heroes_in_play()]:
        order = orders.get(seat) or default_order(state, seat)
        option = order.option if 1 <= order.option <= count else 1
        votes[option] += 1
    chosen = max(range(1, count + 1), key=lambda i: (votes[i], -i))
    monster = state.monster(pending["monster"])
    assert monster is not None
    raw = pending["options"][chosen - 1]
    outcome_ = Outcome(
        (int(raw["move_to"][0]), int(raw["move_to"][1])),
        tuple((int(a), int(b)) for a, b in raw["attacks"]),
    )
    events.append(
        Event("tie_chosen", {"monster": monster.id, "option": chosen, "votes": votes[1:]})
    )
    state.pending = None
    state.phase = "act"  # _advance moves on from this monster
    _monster_turn(state, monster, outcome_, dice, events)


def _character_turn(
    state: DungeonState, hero: Hero, order: Order, dice: Dice, events: list[Event]
) -> None:
    card = card_of(state, hero)
    assert card is not None and hero.hex is not None
    try:
        path = check_move(state, hero, card, list(order.move))
        end = path.end if path and path.end else hero.hex
        check_attacks(state, hero, card, end, list(order.attacks))
        if order.heal:
            check_heal(state, hero, card, end, order.heal)
    except OrderRejected as exc:
        # an order checked when it was sealed is still legal (nothing moves in between); a
        # record edited by hand is not: it acts as a pass, and the log says why
        events.append(
            Event(
                "order_void",
                {"seat": hero.seat, "reason": exc.key, "reason_params": dict(exc.params)},
            )
        )
        return
    if path is not None:
        start = hero.hex
        _walk(state, hero, path, hero.seat, dice, events)
        state.last.append(
            {
                "kind": "move",
                "figure": hero.seat,
                "from": label(start),
                "path": [label(h) for h in path.hexes],
            }
        )
        if not hero.in_play:
            return
    if not order.move and not order.attacks and not order.heal:
        events.append(Event("passed", {"seat": hero.seat}))
    for h in order.attacks:
        target = state.figure_at(h)
        if isinstance(target, Monster):
            _hit(state, hero.seat, target, card.attack, dice, events)
            if target.alive and (card.push or card.pull):
                _force(state, hero, target, card, events)
    if order.heal:
        _heal(state, state.heroes[order.heal], card.heal, events)
    elif card.heal and not order.heal:
        _heal(state, hero, card.heal, events)
    _land(state, hero, events)


def _walk(
    state: DungeonState,
    figure: Hero | Monster,
    path: Path,
    credit: str | None,
    dice: Dice,
    events: list[Event],
) -> None:
    """Move along ``path``, springing its traps and hazards and opening a door at its end."""
    start = figure.hex
    events.append(
        Event(
            "moved",
            {
                "figure": _fid(figure),
                "from": label(start) if start else None,
                "path": [label(h) for h in path.hexes],
            },
        )
    )
    for h in path.hexes:
        figure.hex = h
        if h in path.painful:
            _spring(state, figure, h, credit, events)
            if not _alive(figure):
                return
    end = path.end
    if isinstance(figure, Hero) and end is not None and end in visible_doors(state):
        _open_door(state, figure, end, dice, events)


def _fid(figure: Hero | Monster) -> str:
    return figure.seat if isinstance(figure, Hero) else figure.id


def _alive(figure: Hero | Monster) -> bool:
    return figure.in_play if isinstance(figure, Hero) else figure.alive


def _spring(
    state: DungeonState, figure: Hero | Monster, h: Hex, credit: str | None, events: list[Event]
) -> None:
    """A trap (level + 2, then removed) or hazardous terrain ((level + 2) // 2) on entering."""
    kind = state.scenario.terrain.get(h)
    if kind == "trap" and h not in state.sprung:
        damage = state.level + 2
        state.sprung.append(h)
    elif kind == "hazardous":
        damage = (state.level + 2) // 2
    else:
        return
    events.append(
        Event(kind, {"figure": _fid(figure), "hex": label(h), "damage": damage, "by": credit})
    )
    _damage(state, figure, damage, credit, events)
    _note_damage(state, figure, h, kind, damage)


def _damage(
    state: DungeonState, figure: Hero | Monster, damage: int, by: str | None, events: list[Event]
) -> None:
    figure.hp = max(0, figure.hp - damage)
    if figure.hp > 0:
        return
    if isinstance(figure, Monster):
        figure.alive = False
        if by in state.heroes:
            state.heroes[by].kills += 1
        events.append(Event("killed", {"figure": figure.id, "by": by}))
    else:
        figure.status = "dead"
        figure.hex = None
        events.append(Event("killed", {"figure": figure.seat, "by": by}))


def _note_damage(
    state: DungeonState, figure: Hero | Monster, h: Hex, cause: str, damage: int
) -> None:
    """Note damage that no attack dealt (after it is taken) for the board."""
    state.last.append(
        {
            "kind": "damage",
            "figure": _fid(figure),
            "hex": label(h),
            "cause": cause,
            "damage": damage,
            "killed": not _alive(figure),
        }
    )


def _hex_of(state: DungeonState, fid: str) -> Hex | None:
    if fid in state.heroes:
        return state.heroes[fid].hex
    monster = state.monster(fid)
    return monster.hex if monster else None


def _hit(
    state: DungeonState,
    attacker: str,
    target: Hero | Monster,
    value: int,
    dice: Dice,
    events: list[Event],
) -> None:
    face = content.modifiers()[dice.roll(6) - 1]
    if face == "miss":
        damage = 0
    elif face == "x2":
        damage = value * 2
    else:
        damage = max(0, value + int(face))
    events.append(
        Event(
            "attack",
            {
                "attacker": attacker,
                "target": _fid(target),
                "value": value,
                "modifier": face,
                "damage": damage,
                "hp": max(0, target.hp - damage),
            },
        )
    )
    source, where = _hex_of(state, attacker), target.hex
    _damage(state, target, damage, attacker, events)
    state.last.append(
        {
            "kind": "attack",
            "figure": attacker,
            "target": _fid(target),
            "from": label(source) if source else None,
            "to": label(where) if where else None,
            "damage": damage,
            "killed": not _alive(target),
        }
    )


def _force(
    state: DungeonState, hero: Hero, target: Monster, card: Card, events: list[Event]
) -> None:
    assert hero.hex is not None
    away = card.push > 0
    amount = card.push or card.pull
    blocked = frozenset(
        [m.hex for m in state.living_monsters() if m.id != target.id]
        + [h.hex for h in state.heroes_in_play() if h.hex is not None]
    )
    start = target.hex
    moved = forced(ground(state), target.hex, hero.hex, amount, away=away, blocked=blocked)
    if not moved:
        return
    events.append(
        Event(
            "pushed" if away else "pulled",
            {"figure": target.id, "from": label(start), "path": [label(h) for h in moved]},
        )
    )
    state.last.append(
        {
            "kind": "move",
            "figure": target.id,
            "from": label(start),
            "path": [label(h) for h in moved],
            "forced": True,
        }
    )
    flying = content.monster_types()[target.type].flying
    for h in moved:
        target.hex = h
        if not flying and state.scenario.terrain.get(h) in ("trap", "hazardous"):
            _spring(state, target, h, hero.seat, events)
            if not target.alive:
                return


def _land(state: DungeonState, figure: Hero | Monster, events: list[Event]) -> None:
    """A figure whose flying ends on an obstacle takes trap damage and moves to the nearest
    empty hex (the digest). A character's or a card's flying lasts its turn."""
    if not _alive(figure) or figure.hex is None:
        return
    if state.scenario.terrain.get(figure.hex) != "obstacle":
        return
    damage = state.level + 2
    start = figure.hex
    _damage(state, figure, damage, None, events)
    _note_damage(state, figure, start, "grounded", damage)
    landing = None
    if _alive(figure):
        g = ground(state)
        free = [
            h
            for h in g.hexes
            if g.kind(h) not in ("wall", "obstacle") and state.figure_at(h) is None
        ]
        if free:
            landing = min(free, key=lambda h: (distance(h, start), label(h)))
            figure.hex = landing
    events.append(
        Event(
            "grounded",
            {
                "figure": _fid(figure),
                "hex": label(start),
                "damage": damage,
                "to": label(landing) if landing else None,
            },
        )
    )


def _heal(state: DungeonState, hero: Hero, amount: int, events: list[Event]) -> None:
    before = hero.hp
    hero.hp = min(hero.max_hp, hero.hp + amount)
    events.append(Event("healed", {"seat": hero.seat, "amount": hero.hp - before, "hp": hero.hp}))


def _open_door(
    state: DungeonState, hero: Hero, door_hex: Hex, dice: Dice, events: list[Event]
) -> None:
    """The door opens, the room behind it is set up at once, and each newly placed monster type
    whose initiative is lower than the current figure's acts right after this turn."""
    door = state.scenario.door_at(door_hex)
    assert door is not None
    state.open_doors.append(door_hex)
    rooms = [r for r in door.rooms if r not in state.revealed]
    placed: list[Monster] = []
    for rid in rooms:
        state.revealed.append(rid)
        placed += _set_up_room(state, rid, door_hex, dice)
    events.append(
        Event(
            "door_opened",
            {
                "seat": hero.seat,
                "door": label(door_hex),
                "rooms": rooms,
                "monsters": [[m.id, label(m.hex)] for m in placed],
            },
        )
    )
    if not placed:
        return
    now = initiative(state, hero.seat)
    for mtype in sorted({m.type for m in placed}):
        if mtype not in state.round_cards:
            _draw_monster_card(state, mtype, dice)
    later = state.order[state.position + 1 :]
    soon = [m.id for m in placed if initiative(state, m.id) < now]
    rest = [m.id for m in placed if initiative(state, m.id) >= now]
    soon.sort(key=lambda a: _order_key(state, a))
    later = sorted(later + rest, key=lambda a: _order_key(state, a))
    state.order = state.order[: state.position + 1] + soon + later
    events.append(
        Event(
            "joined_round",
            {
                "monsters": [[m, initiative(state, m)] for m in soon + [x for x in rest]],
                "next": soon,
            },
        )
    )


def _end_round(state: DungeonState, events: list[Event]) -> None:
    for hero in [state.heroes[s] for s in state.seats]:
        if hero.card is not None and hero.status == "active":
            hero.hand.remove(hero.card)
            hero.discard.append(hero.card)
        played = hero.card
        hero.card = None
        if hero.status != "active" or hero.hand:
            continue
        if len(hero.discard) >= 2:
            lost = played if played in hero.discard else hero.discard[-1]
            hero.discard.remove(lost)
            hero.lost.append(lost)
            cards = content.classes()[hero.cls].cards
            hero.hand = [c.id for c in cards if c.id in hero.discard]
            hero.discard = []
            events.append(Event("rested", {"seat": hero.seat, "lost": lost}))
        else:
            hero.status = "exhausted"
            hero.hex = None
            events.append(Event("exhausted", {"seat": hero.seat}))
    events.append(Event("round_end", {"round": state.round}))
    state.round += 1
    state.order = []
    state.position = -1
    state.round_cards = {}
    state.phase = "pick"
    _check_end(state, events)


def _check_end(state: DungeonState, events: list[Event]) -> None:
    if state.phase == "over":
        return
    if not state.heroes_in_play():
        state.phase, state.outcome = "over", MONSTERS
        events.append(Event("lost", {"round": state.round}))
        return
    every_room = len(state.revealed) == len(state.scenario.rooms)
    if every_room and not state.living_monsters():
        state.phase, state.outcome = "over", PARTY
        events.append(Event("won", {"round": state.round}))


def resign(state: DungeonState, seat: str) -> tuple[DungeonState, list[Event]]:
    """Co-operative play has no opponent to hand the game to: a player who resigns takes the
    party out of the dungeon, and the scenario is lost for everyone."""
    new = copy.deepcopy(state)
    hero = new.heroes[seat]
    if hero.status == "active":
        hero.status, hero.hex = "exhausted", None
    new.phase, new.outcome = "over", MONSTERS
    return new, [Event("resigned", {"seat": seat}), Event("lost", {"round": new.round})]


# --- views -------------------------------------------------------------------------------------


def view(state: DungeonState, seat: str | None) -> dict[str, Any]:
    scen = state.scenario
    shown = revealed_hexes(state)
    picks_public = state.phase != "pick"
    heroes = []
    for s in state.seats:
        hero = state.heroes[s]
        card = card_of(state, hero)
        heroes.append(
            {
                "seat": s,
                "class": hero.cls,
                "hex": label(hero.hex) if hero.hex else None,
                "hp": hero.hp,
                "max_hp": hero.max_hp,
                "status": hero.status,
                "hand": len(hero.hand),
                "lost": len(hero.lost),
                "card": card.to_json() if card and picks_public else None,
                "kills": hero.kills,
            }
        )
    monsters = []
    for m in state.living_monsters():
        card = monster_card(state, m.type)
        monsters.append(
            {
                "id": m.id,
                "type": m.type,
                "number": m.number,
                "hex": label(m.hex),
                "hp": m.hp,
                "max_hp": m.max_hp,
                "card": card.to_json() if card else None,
                "flying": content.monster_types()[m.type].flying,
            }
        )
    current = state.current() if state.phase in ("act", "tie") else None
    out: dict[str, Any] = {
        "scenario": scen.id,
        "level": state.level,
        "rules": state.rules_variant,
        "round": state.round,
        "phase": state.phase,
        "hexes": sorted(label(h) for h in shown),
        # the whole map's size (not what is in it), so the board keeps its scale as rooms open
        "extent": _extent(scen),
        "rooms": list(state.revealed),
        "terrain": {label(h): k for h, k in sorted(terrain_now(state).items())},
        "doors": {
            "open": sorted(label(h) for h in state.open_doors),
            "closed": sorted(label(h) for h in visible_doors(state)),
        },
        "thin_walls": sorted(
            sorted(label(h) for h in pair)
            for pair in scen.thin_walls
            if all(h in shown for h in pair)
        ),
        "heroes": heroes,
        "monsters": monsters,
        "order": [[a, initiative(state, a)] for a in state.order] if picks_public else [],
        "current": current,
        "tie": copy.deepcopy(state.pending),
        "tie_labels": [_outcome_labels(_from_json_outcome(o)) for o in state.pending["options"]]
        if state.pending
        else [],
        "last": copy.deepcopy(state.last),
        "outcome": state.outcome,
    }
    if seat is not None and seat in state.heroes:
        hero = state.heroes[seat]
        cards = content.classes()[hero.cls].cards
        out["you"] = {
            "seat": seat,
            "hand": [c.to_json() for c in cards if c.id in hero.hand],
            "discard": list(hero.discard),
            "lost": list(hero.lost),
            "picked": hero.card,
        }
        if state.phase == "act" and state.current() == seat:
            out["you"]["reach"] = hints(state, seat)
    return out


def _extent(scen: Scenario) -> dict[str, int]:
    offsets = [to_offset(h) for h in scen.all_hexes]
    return {
        "cols": max(c for c, _ in offsets) + 1,
        "rows": max(r for _, r in offsets) + 1,
    }


def _from_json_outcome(raw: Mapping[str, Any]) -> Outcome:
    return Outcome(
        (int(raw["move_to"][0]), int(raw["move_to"][1])),
        tuple((int(a), int(b)) for a, b in raw["attacks"]),
    )


def hints(state: DungeonState, seat: str) -> dict[str, Any]:
    """For the acting character: where it can end its move, and whom it can attack from where it
    stands (the DM lists them; the demo's players choose from them)."""
    hero = state.heroes[seat]
    card = card_of(state, hero)
    if card is None or hero.hex is None:
        return {"moves": [], "targets": []}
    reach = paths(ground(state), hero_mover(state, hero, card), card.move) if card.move else {}
    return {
        "moves": [label(h) for h in content.sort_hexes(list(reach))],
        "targets": [label(m.hex) for m in attackable(state, hero, card, hero.hex)],
    }


def attackable(state: DungeonState, hero: Hero, card: Card, source: Hex) -> list[Monster]:
    if card.attack <= 0:
        return []
    return [m for m in state.living_monsters() if in_range(state, source, m.hex, card.range)]


def summary(state: DungeonState) -> dict[str, Any]:
    """The digest's replay summary."""
    figures = [
        {"id": s, "side": "character", "hex": list(h.hex), "hp": h.hp}
        for s, h in state.heroes.items()
        if h.in_play and h.hex is not None
    ] + [
        {"id": m.id, "side": "monster", "hex": list(m.hex), "hp": m.hp}
        for m in state.living_monsters()
    ]
    return {
        "round": state.round,
        "figures": figures,
        "doors": {"open": [list(h) for h in state.open_doors]},
    }


# --- storage -----------------------------------------------------------------------------------


def to_json(state: DungeonState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "options": state.options,
        "seats": list(state.seats),
        "phase": state.phase,
        "round": state.round,
        "step_no": state.step_no,
        "resolved": state.resolved,
        "heroes": [
            {
                "seat": h.seat,
                "class": h.cls,
                "hex": list(h.hex) if h.hex else None,
                "hp": h.hp,
                "max_hp": h.max_hp,
                "hand": list(h.hand),
                "discard": list(h.discard),
                "lost": list(h.lost),
                "card": h.card,
                "status": h.status,
                "kills": h.kills,
            }
            for h in state.heroes.values()
        ],
        "monsters": [
            {
                "id": m.id,
                "type": m.type,
                "number": m.number,
                "hex": list(m.hex),
                "hp": m.hp,
                "max_hp": m.max_hp,
                "alive": m.alive,
            }
            for m in state.monsters
        ],
        "revealed": list(state.revealed),
        "open_doors": [list(h) for h in state.open_doors],
        "sprung": [list(h) for h in state.sprung],
        "used_cards": {k: list(v) for k, v in state.used_cards.items()},
        "round_cards": dict(state.round_cards),
        "order": list(state.order),
        "position": state.position,
        "pending": copy.deepcopy(state.pending),
        "last": copy.deepcopy(state.last),
        "outcome": state.outcome,
    }


def _hex(value: Any) -> Hex:
    return (int(value[0]), int(value[1]))


def from_json(obj: Mapping[str, Any]) -> DungeonState:
    try:
        if obj.get("schema") != SCHEMA_VERSION:
            raise StateError("dungeon.error.schema", found=obj.get("schema"))
        state = DungeonState(
            game_id=str(obj["game_id"]),
            options=dict(obj["options"]),
            seats=[str(s) for s in obj["seats"]],
            phase=str(obj["phase"]),
            round=int(obj["round"]),
            step_no=int(obj["step_no"]),
            resolved=int(obj["resolved"]),
            revealed=[str(r) for r in obj["revealed"]],
            open_doors=[_hex(h) for h in obj["open_doors"]],
            sprung=[_hex(h) for h in obj["sprung"]],
            used_cards={str(k): [str(c) for c in v] for k, v in obj["used_cards"].items()},
            round_cards={str(k): str(v) for k, v in obj["round_cards"].items()},
            order=[str(a) for a in obj["order"]],
            position=int(obj["position"]),
            pending=copy.deepcopy(obj.get("pending")),
            last=[dict(x) for x in copy.deepcopy(obj.get("last", []))],
            outcome=obj.get("outcome"),
        )
        for h in obj["heroes"]:
            state.heroes[str(h["seat"])] = Hero(
                seat=str(h["seat"]),
                cls=str(h["class"]),
                hex=_hex(h["hex"]) if h.get("hex") else None,
                hp=int(h["hp"]),
                max_hp=int(h["max_hp"]),
                hand=[str(c) for c in h["hand"]],
                discard=[str(c) for c in h["discard"]],
                lost=[str(c) for c in h["lost"]],
                card=h.get("card"),
                status=str(h["status"]),
                kills=int(h.get("kills", 0)),
            )
        for m in obj["monsters"]:
            state.monsters.append(
                Monster(
                    id=str(m["id"]),
                    type=str(m["type"]),
                    number=int(m["number"]),
                    hex=_hex(m["hex"]),
                    hp=int(m["hp"]),
                    max_hp=int(m["max_hp"]),
                    alive=bool(m["alive"]),
                )
            )
        if state.phase not in ("pick", "act", "tie", "over"):
            raise StateError("dungeon.error.phase", phase=state.phase)
        return state
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise StateError("dungeon.error.state", detail=str(exc)) from exc
