"""The hex dungeon's orders (pure): a seat's text read into an :class:`Order` and checked.

A card pick (``card``, by its number in the hand or its name in either language), a character's
turn (``move``, ``attack``, ``heal`` or ``pass``: hexes, monster references such as ``#6`` or
``guard 6``, seats), a vote on a monster tie (``option``). A move must follow a path the card's
movement allows, an attack or a heal must reach its target (range counted round walls, line of
sight); :class:`bot.ruleset.OrderRejected` names the rule an order breaks. A seat that sends
nothing is given :func:`default_order`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.i18n import LANGS, t
from bot.ruleset import OrderRejected
from cogs.dungeon import content
from cogs.dungeon.ai import DungeonMap
from cogs.dungeon.content import Card, label, parse_label
from cogs.dungeon.hexes import Hex, distance, neighbours
from cogs.dungeon.movement import Mover, Path, follow, paths
from cogs.dungeon.state import DungeonState, Hero, Monster, ai_map, awaiting, card_of, ground


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


def split_words(text: str) -> list[str]:
    return [tok for tok in _SPLIT.split(text.strip()) if tok]


def card_name(card_id: str, lang: str) -> str:
    return t(lang, f"dungeon.card.{card_id}")


def parse(state: DungeonState, seat: str, text: str) -> Order:
    if state.phase == "over":
        raise OrderRejected("dungeon.reject.over")
    if seat not in awaiting(state):
        raise OrderRejected("dungeon.reject.not_your_turn")
    # NFKC, as tactics and Apeiron read: ``移動 Ａ４`` (a Japanese keyboard) is ``移動 A4``.
    tokens = split_words(unicodedata.normalize("NFKC", text))
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
        names = {
            card.id,
            *(unicodedata.normalize("NFKC", card_name(card.id, lang)).lower() for lang in LANGS),
        }
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
        if section == "heal" and heal is None and tok.upper() in state.heroes:
            # a seat before the keywords: ``heal A`` names seat A, not the ``a`` of attack
            heal = tok.upper()
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


def in_range(
    state: DungeonState, source: Hex, target: Hex, reach: int, known: DungeonMap | None = None
) -> bool:
    """Range counts hexes around walls (as the AI counts them) and needs line of sight; melee
    (``reach`` 0) is a neighbour not behind a thin wall. ``known``: the state's
    :func:`ai_map`, when the caller asks many times (its line of sight is built once a map)."""
    m = known if known is not None else ai_map(state)
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
    known = ai_map(state)
    for h in attacks:
        target = state.figure_at(h)
        if not isinstance(target, Monster):
            raise OrderRejected("dungeon.reject.no_monster_there", hex=label(h))
        if not in_range(state, source, h, card.range, known):
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


def default_order(state: DungeonState, seat: str) -> Order:
    if state.phase == "pick":
        return Order("card", card=state.heroes[seat].hand[0])
    if state.phase == "tie":
        return Order("vote", option=1)
    return Order("act")
