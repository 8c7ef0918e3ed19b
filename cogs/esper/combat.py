"""Esper war, part 2: ESP combat (``../shared/rules/esper.md``, Combat, D2).

Pure, like the rest of the engine: the combat in progress lives in ``EsperState.combat`` (a
:class:`Combat`), and each framework step of it is one of these (``state.step``):

- ``entry``: characters not on the spot may rush in (``join``: 2D6 on the "actually there"
  chart; ``decline``), at the combat's start only; a ``late`` result joins at round 2;
- ``precombat``: participants holding an unused [戦闘前] ability use it (``use ID``) or ``pass``;
- ``cturn``: the acting participant's combat turn (``[keep|drop;] [supports;] main[; supports]``);
- ``sync``: participants yet to act may add a lower-level sync card to an attack (``sync ID``);
- ``defend``: the attacked answers (``defend ID``, ``escape ID [dir]``, ``use ID``,
  ``durability N``, ``counter [+weapon]``, ``pass``);
- ``block``: the others may block a teleport escape (``block ID``, with lower-level syncs);
- ``round_end``: everyone answers ``continue`` or ``stop`` (and may name a ``discard``).

This module reads a combat: its steps' orders (words, grammar, checks, defaults, choices), the
small reads they need (hand limits, ESP power, targets, who a reaction step asks) and its public
and private views. :mod:`.combat_play` plays it out: the steps resolved, and the rest of the round
between them (the "actually alive" checks, drawing up to the hand limit, initiative, the damage
rolls, the round's end). Hidden facts: the C deck is shuffled by the secret stream; public rolls
(there, alive, initiative, checks, damage) come from the step's resolve stream.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from bot.ruleset import Choice, ChoiceGroup, OrderRejected
from cogs.esper.orders import (
    check_action,
    normal,
    seat_word,
    single,
)
from cogs.esper.pack import D1_EFFECTS, Ability, CCard, Pack
from cogs.esper.state import (
    R_ABILITY,
    R_COST,
    R_EMPTY,
    R_NO_MAIN,
    R_NOT_NOW,
    R_TIMING,
    R_TWO_MAINS,
    R_UNKNOWN,
    R_USED,
    Action,
    EsperOrder,
    EsperState,
    abilities_of,
    durability,
    key_here,
    mind,
    sheet_of,
)
from cogs.esper.state import R_TARGET as R_ABILITY_TARGET  # an ability's target (ours: a combat's)

# Steps.
ENTRY, PRECOMBAT, CTURN, SYNC, DEFEND, BLOCK, ROUND_END = (
    "entry",
    "precombat",
    "cturn",
    "sync",
    "defend",
    "block",
    "round_end",
)
STEPS = (ENTRY, PRECOMBAT, CTURN, SYNC, DEFEND, BLOCK, ROUND_END)
# Answers to what just happened, on the option ``reaction_minutes`` (the rest on ``minutes``).
REACTIONS = (PRECOMBAT, SYNC, DEFEND, BLOCK)
# Steps answered by the named seats only, or by several at once (``awaiting`` lists them).
HAND = 7  # the basic hand limit
COLUMNS = ("1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1")
MAX_COLUMN = len(COLUMNS) - 1
INITIATIVE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
# Black before red; within a colour ♠ before ♣ and ♥ before ♦ (esper.md, *decided*).
INITIATIVE_SUITS = ("♠", "♣", "♥", "♦")
DIRECTIONS = ("left", "right", "up", "down")
TAIL = (*DIRECTIONS, "fight")  # what may follow an escape card

R_CARD = "esper.reject.card"  # not a C card in the hand
R_KIND = "esper.reject.card_kind"  # that card cannot be played so
R_LEVEL = "esper.reject.card_level"  # below the attack's level (or not below the first card's)
R_BLOCKS = "esper.reject.card_blocks"  # a defence that does not stop the attribute
R_TARGET = "esper.reject.combat_target"  # not a participant (or oneself)
R_MAINTAINED = "esper.reject.maintained"  # a maintained defence allows no new defence
R_NO_DEFENCE = "esper.reject.no_defence"  # the attack cannot be defended
R_DURABILITY = "esper.reject.durability"  # a declared durability above the current one
R_WEAPON = "esper.reject.weapon"  # not a weapon the seat holds, or two of them
R_COUNTER = "esper.reject.counter"  # counter only against melee


# --- small reads ---------------------------------------------------------------------------------


def ccard(state: EsperState, card_id: str) -> CCard:
    return state.pack.ccards[card_id]


def hand_limit(state: EsperState, seat: str) -> int:
    combat = state.combat
    henchmen = combat.henchmen.get(seat, 0) if combat is not None else 0
    return HAND + henchmen + sheet_of(state, seat).hand


def power(state: EsperState, seat: str) -> int:
    return sheet_of(state, seat).power - state.seats[seat].power_lost


def column_index(firepower: int, against: int) -> int:
    """firepower ÷ against (floor), at most 10:1; below 1:1 the lowest column, 1:2 (esper.md,
    *decided*); against 0 (nothing left to declare) is the highest."""
    if against <= 0:
        return MAX_COLUMN
    ratio = firepower // against
    return max(0, min(MAX_COLUMN, ratio))


def melee_columns(attack: int, defence: int, shift: int) -> tuple[int, int]:
    """Each side's column in melee: its firepower ÷ the other's, then the [格闘:X] difference
    (``shift`` = the attacker's X − the defender's) moves the higher side's column right and the
    other's left, within 1:2 … 10:1."""
    mine, theirs = column_index(attack, defence), column_index(defence, attack)
    mine = max(0, min(MAX_COLUMN, mine + shift))
    theirs = max(0, min(MAX_COLUMN, theirs - shift))
    return mine, theirs


def initiative_deck() -> list[str]:
    return [f"{r}{s}" for s in INITIATIVE_SUITS for r in INITIATIVE_RANKS]


def initiative_key(card: str) -> tuple[int, int, int]:
    """Black A…10 (♠ before ♣), then red A…10 (♥ before ♦)."""
    suit, rank = card[-1], card[:-1]
    red = suit in "♥♦"
    return (int(red), INITIATIVE_RANKS.index(rank), INITIATIVE_SUITS.index(suit))


def sheet_henchmen(state: EsperState, seat: str) -> int:
    """[手下] the seat brings to every combat: its sheet's and its ``always`` abilities'."""
    total = sheet_of(state, seat).henchmen
    for ability in abilities_of(state, seat).values():
        if ability.effect == "henchmen" and ability.timing == "always":
            if ability.id in state.pack.abilities and ability.id not in state.seats[seat].face_up:
                continue  # a deck card works once played face up
            total += ability.n
    return total


def melee_x(state: EsperState, seat: str, weapon: str | None) -> int:
    """[格闘:X]: every unarmed melee ability the seat has, plus the one weapon named."""
    total = sum(
        int(a.params.get("x", 0))
        for a in abilities_of(state, seat).values()
        if a.effect == "melee" and not a.params.get("weapon")
    )
    if weapon is not None:
        total += _weapon_x(state, seat, weapon)
    return total


def _weapon_x(state: EsperState, seat: str, weapon: str) -> int:
    ability = abilities_of(state, seat).get(weapon)
    if ability is not None:
        return int(ability.params.get("x", 0))
    return int(ccard(state, weapon).params.get("x", 0))


def weapons(state: EsperState, seat: str) -> list[str]:
    """The weapons the seat may name: its weapon abilities and weapon C cards in hand."""
    out = [
        a.id
        for a in abilities_of(state, seat).values()
        if a.effect == "melee" and a.params.get("weapon")
    ]
    out += [
        c
        for c in state.seats[seat].c_hand
        if ccard(state, c).kind == "special" and ccard(state, c).effect == "melee"
    ]
    return list(dict.fromkeys(out))


def targets(state: EsperState, seat: str) -> list[str]:
    """What the seat may attack: the other participants, and the key installation."""
    combat = state.combat
    assert combat is not None
    out = [s for s in combat.seats if s != seat]
    if combat.key is not None:
        out.append(combat.key)
    return out


def current(state: EsperState) -> str | None:
    combat = state.combat
    if combat is None or combat.index >= len(combat.order):
        return None
    return combat.order[combat.index]


def can_fight(state: EsperState, seat: str) -> bool:
    """``fight`` needs someone else on the spot (or a found key installation in the base)."""
    spot = state.seats[seat].spot
    others = [
        o
        for o in state.order
        if o != seat
        and state.seats[o].alive
        and not state.seats[o].black_hole
        and state.seats[o].spot == spot
    ]
    return bool(others) or key_here(state, spot) is not None


def column_label(column: Any) -> str | None:
    return None if column is None else COLUMNS[int(column)]


# --- who a reaction step asks --------------------------------------------------------------------
# A step asks every seat the rules make eligible by public facts (alive, in the combat, yet to
# act), whatever its hand or sheet holds: asking only the holders of a fitting card would tell
# the channel who holds one (esper.md, What the channel may depend on). A seat with nothing to
# play gets the prompt with ``pass`` only.


def sync_asked(state: EsperState) -> list[str]:
    """A sync attack's helpers: the participants yet to act this round, but its target."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    return [
        s
        for s in combat.seats
        if s not in combat.acted
        and s not in (attack["target"], attack["by"])
        and state.seats[s].alive
    ]


def block_asked(state: EsperState, escaper: str) -> list[str]:
    """A teleport escape's blockers: every other participant (those who acted too)."""
    combat = state.combat
    assert combat is not None
    return [s for s in combat.seats if s != escaper and state.seats[s].alive]


def precombat_asked(state: EsperState) -> list[str]:
    """The [戦闘前] step's seats: this round's newcomers, when the pack has a [戦闘前] ability
    one could use there at all (a public fact: the pack is; who was dealt it is not)."""
    combat = state.combat
    assert combat is not None
    if not pack_has_precombat(state.pack):
        return []
    return [s for s in combat.new if state.seats[s].alive]


def pack_has_precombat(pack: Pack) -> bool:
    """Whether any sheet or ability card of the pack has a [戦闘前] ability the step offers."""
    found = _PRECOMBAT.get(pack.hash)
    if found is None:
        abilities = [a for sheet in pack.sheets.values() for a in sheet.abilities]
        found = any(_offered(a) for a in [*abilities, *pack.abilities.values()])
        _PRECOMBAT[pack.hash] = found
    return found


_PRECOMBAT: dict[str, bool] = {}  # by pack hash: packs are immutable


def _offered(ability: Ability) -> bool:
    """A [戦闘前] ability the step offers: a peek needs a target (a support action); a there
    bonus serves its roll, before the step."""
    return ability.timing == "pre-combat" and ability.effect not in ("peek", "there_bonus")


# --- parsing -------------------------------------------------------------------------------------

WORDS = {
    "カード": "card",
    "同調": "sync",
    "防御": "defend",
    "逃避": "escape",
    "妨害": "block",
    "格闘": "melee",
    "反撃": "counter",
    "維持": "keep",
    "解除": "drop",
    "継続": "continue",
    "停止": "stop",
    "捨てる": "discard",
    "破棄": "discard",
    "上": "up",
    "下": "down",
    "defence": "defend",
    "defense": "defend",
}


def _card_word(state: EsperState, word: str) -> str | None:
    """A C card by id or by either name (NFKC, case-insensitive)."""
    low = normal(word).lower()
    if low in state.pack.ccards:
        return low
    for card in state.pack.ccards.values():
        if low in (normal(card.name_en).lower(), normal(card.name_ja).lower()):
            return card.id
    return None


def _held(state: EsperState, seat: str, word: str) -> str:
    card_id = _card_word(state, word)
    if card_id is None or card_id not in state.seats[seat].c_hand:
        raise OrderRejected(R_CARD, card=word[:40])
    return card_id


def _target_word(state: EsperState, seat: str, word: str) -> str:
    combat = state.combat
    assert combat is not None
    up = word.upper()
    if combat.key is not None and up == combat.key.upper():
        return combat.key
    if up not in targets(state, seat):
        raise OrderRejected(R_TARGET, target=word[:16])
    return up


def _words(parts: list[list[str]]) -> list[list[str]]:
    return [[WORDS.get(w, w) for w in part] for part in parts]


def parse(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    step = state.step
    parts = _words(parts)
    if step == ENTRY:
        return single(parts, ("join", "decline"))
    if step == PRECOMBAT:
        return _parse_precombat(state, seat, parts)
    if step == CTURN:
        return _parse_cturn(state, seat, parts)
    if step == SYNC:
        return _parse_sync(state, seat, parts, "sync")
    if step == BLOCK:
        return _parse_sync(state, seat, parts, "block")
    if step == DEFEND:
        return _parse_defend(state, seat, parts)
    if step == ROUND_END:
        return _parse_round_end(state, seat, parts)
    raise OrderRejected(R_NOT_NOW)


def _parse_precombat(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    if len(parts) == 1 and parts[0] == ["pass"]:
        return EsperOrder((Action("pass"),))
    actions = []
    for words in parts:
        if len(words) != 2 or words[0] != "use":
            raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
        ability = _precombat_ability(state, seat, words[1])
        actions.append(Action("use", (ability.id,)))
    return EsperOrder(tuple(actions))


def precombat_abilities(state: EsperState, seat: str) -> list[Ability]:
    combat = state.combat
    assert combat is not None
    used = combat.used.get(seat, [])
    out = []
    for ability in abilities_of(state, seat).values():
        if not _offered(ability) or ability.id in used:
            continue
        if ability.cost_mind > mind(state, seat) or ability.cost_power > power(state, seat):
            continue
        out.append(ability)
    return out


def _precombat_ability(state: EsperState, seat: str, word: str) -> Ability:
    for ability in precombat_abilities(state, seat):
        if word.lower() == ability.id or normal(word).lower() in (
            normal(ability.name_en).lower(),
            normal(ability.name_ja).lower(),
        ):
            return ability
    raise OrderRejected(R_ABILITY, ability=word[:40])


MAIN_VERBS = ("card", "melee", "discard", "pass", "use")
SUPPORT_VERBS = ("open", "use", "convert")


def _parse_cturn(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    """``[keep|drop;] [supports;] main[; supports]``."""
    actions: list[Action] = []
    phase = "check"
    for words in parts:
        if not words:
            continue
        verb = words[0]
        if verb in ("keep", "drop") and len(words) == 1:
            if phase != "check":
                raise OrderRejected(R_UNKNOWN, text=verb)
            if state.combat is None or seat not in state.combat.maintained:
                raise OrderRejected(R_UNKNOWN, text=verb)
            actions.append(Action(verb))
            phase = "before"
            continue
        if phase == "check":
            phase = "before"
        action = combat_action(state, seat, words)
        main = is_combat_main(state, seat, action)
        if main:
            if phase != "before":
                raise OrderRejected(R_TWO_MAINS)
            phase = "after"
        elif action.verb not in SUPPORT_VERBS:
            raise OrderRejected(R_UNKNOWN, text=action.text()[:40])
        actions.append(action)
    if phase != "after":
        raise OrderRejected(R_NO_MAIN)
    check_cturn(state, seat, actions)
    return EsperOrder(tuple(actions))


def is_combat_main(state: EsperState, seat: str, action: Action) -> bool:
    if action.verb == "use":
        ability = abilities_of(state, seat).get(action.args[0])
        return ability is not None and ability.timing in ("main", "pre-emptive")
    return action.verb in MAIN_VERBS


def combat_action(state: EsperState, seat: str, words: list[str]) -> Action:
    verb, args = words[0], words[1:]
    if verb in ("pass", "open") and not args:
        return Action(verb)
    if verb == "card" and args:
        # ``card ID [TARGET] [left|right|up|down] [fight]``: a target, or an escape's direction
        # (and ``fight``: a combat where it lands, after this one)
        tail: list[str] = []
        while len(args) > 1 and (args[-1].lower() in TAIL or _is_target(state, args[-1])):
            tail.insert(0, args.pop())
        card_id = _held(state, seat, " ".join(args))
        return Action("card", (card_id, *[_tail_word(state, seat, w) for w in tail]))
    if verb == "discard" and args:
        return Action("discard", (_held(state, seat, " ".join(args)),))
    if verb == "melee" and args:
        target = _target_word(state, seat, args[0])
        rest = args[1:]
        out = [target]
        n = None
        weapon = None
        for word in rest:
            if word.isdigit() and n is None:
                n = word
            elif word.startswith("+"):
                if weapon is not None:
                    raise OrderRejected(R_WEAPON, weapon=word[:40])
                weapon = _weapon_word(state, seat, word[1:])
            else:
                raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
        out.append(n or str(max(0, durability(state, seat))))
        if weapon is not None:
            out.append("+" + weapon)
        return Action("melee", tuple(out))
    if verb == "use" and args:
        ability = abilities_of(state, seat).get(args[0].lower())
        if ability is None:
            raise OrderRejected(R_ABILITY, ability=args[0][:40])
        if len(args) == 1:
            return Action("use", (ability.id,))
        return Action("use", (ability.id, _tail_word(state, seat, args[1])))
    if verb == "convert" and len(args) == 1:
        return Action("convert", (seat_word(state, args[0]),))
    raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])


def _is_target(state: EsperState, word: str) -> bool:
    combat = state.combat
    if combat is None:
        return False
    up = word.upper()
    return up in state.seats or (combat.key is not None and up == combat.key.upper())


def _tail_word(state: EsperState, seat: str, word: str) -> str:
    if word.lower() in TAIL:
        return word.lower()
    return _target_word(state, seat, word)


def _weapon_word(state: EsperState, seat: str, word: str) -> str:
    found = _card_word(state, word)
    candidates = weapons(state, seat)
    if found in candidates:
        return found
    low = normal(word).lower()
    for weapon in candidates:
        if weapon in state.pack.ccards:
            continue
        ability = abilities_of(state, seat)[weapon]
        if low in (
            weapon,
            normal(ability.name_en).lower(),
            normal(ability.name_ja).lower(),
        ):
            return weapon
    raise OrderRejected(R_WEAPON, weapon=word[:40])


def check_cturn(state: EsperState, seat: str, actions: Sequence[Action]) -> None:
    """Each action, and the order whole against the seat's private facts: the mind and ESP power
    its abilities and a kept defence cost together, each ability once a turn. Refused here, by
    the seat's own answer, rather than skipped in the channel when the turn resolves (esper.md,
    What the channel may depend on)."""
    mind_cost = power_cost = 0
    once: set[str] = set()
    for action in actions:
        if action.verb == "keep":
            held = state.combat.maintained.get(seat) if state.combat is not None else None
            power_cost += int(held.get("upkeep", 0)) if held else 0
            if held and power_cost > power(state, seat):
                raise OrderRejected(R_COST, ability=str(held["card"]))
        elif action.verb == "card":
            _check_card(state, seat, action)
        elif action.verb == "melee":
            n = int(action.args[1])
            if n > max(0, durability(state, seat)):
                raise OrderRejected(R_DURABILITY, n=durability(state, seat))
        elif action.verb == "use":
            ability = _check_combat_use(
                state, seat, action, main=is_combat_main(state, seat, action)
            )
            if ability.id in once:
                raise OrderRejected(R_USED, ability=ability.id)
            once.add(ability.id)
            mind_cost += ability.cost_mind
            power_cost += ability.cost_power
            if mind_cost > mind(state, seat) or power_cost > power(state, seat):
                raise OrderRejected(R_COST, ability=ability.id)
        elif action.verb == "convert":
            check_action(state, seat, action, main=False)


def _check_card(state: EsperState, seat: str, action: Action) -> None:
    card = ccard(state, action.args[0])
    rest = action.args[1:]
    target = next((w for w in rest if w not in TAIL), None)
    direction = next((w for w in rest if w in TAIL), None)
    if card.kind == "attack":
        if target is None or direction is not None:
            raise OrderRejected(R_TARGET, target=direction or "—")
    elif card.kind == "escape":
        if target is not None:
            raise OrderRejected(R_KIND, card=card.id)
    elif card.kind == "defence":
        raise OrderRejected(R_KIND, card=card.id)  # played when attacked
    elif card.kind == "special":
        if card.effect in ("melee",):
            raise OrderRejected(R_KIND, card=card.id)  # a weapon is named in a melee attack
        if target is not None and not (card.effect == "recover" and card.params.get("target")):
            raise OrderRejected(R_TARGET, target=target)


def _check_combat_use(state: EsperState, seat: str, action: Action, *, main: bool) -> Ability:
    ability = abilities_of(state, seat)[action.args[0]]
    target = action.args[1] if len(action.args) > 1 else None
    s = state.seats[seat]
    if ability.id in s.used:
        raise OrderRejected(R_USED, ability=ability.id)
    if ability.cost_mind > mind(state, seat) or ability.cost_power > power(state, seat):
        raise OrderRejected(R_COST, ability=ability.id)
    if main:
        if ability.effect == "attack":
            if target is None or target not in targets(state, seat):
                raise OrderRejected(R_TARGET, target=target or "")
            return ability
        if ability.effect not in D1_EFFECTS:
            raise OrderRejected(R_TIMING, ability=ability.id)
    elif ability.timing != "support" or ability.effect not in D1_EFFECTS:
        raise OrderRejected(R_TIMING, ability=ability.id)
    if ability.effect in ("to_spaceport", "free", "info"):
        raise OrderRejected(R_TIMING, ability=ability.id)  # not in the middle of a fight
    if ability.effect == "peek" or (ability.effect == "recover" and ability.target == "spot"):
        seats = state.combat.seats if state.combat is not None else []
        if target is None or target not in seats:
            raise OrderRejected(R_ABILITY_TARGET, ability=ability.id)
    elif target is not None:
        raise OrderRejected(R_ABILITY_TARGET, ability=ability.id)
    return ability


def _parse_sync(state: EsperState, seat: str, parts: list[list[str]], verb: str) -> EsperOrder:
    if len(parts) == 1 and parts[0] == ["pass"]:
        return EsperOrder((Action("pass"),))
    if len(parts) != 1 or len(parts[0]) < 2 or parts[0][0] != verb:
        raise OrderRejected(R_UNKNOWN, text=" ".join(w for p in parts for w in p)[:40])
    card_id = _held(state, seat, " ".join(parts[0][1:]))
    if card_id not in (sync_cards(state, seat) if verb == "sync" else block_cards(state, seat)):
        raise OrderRejected(R_KIND, card=card_id)
    return EsperOrder((Action(verb, (card_id,)),))


def sync_cards(state: EsperState, seat: str) -> list[str]:
    """Attack cards the seat may add to the attack being synced: sync cards below its level."""
    combat = state.combat
    if combat is None or combat.attack is None:
        return []
    level = int(combat.attack["card_level"])
    return [
        c
        for c in state.seats[seat].c_hand
        if ccard(state, c).kind == "attack"
        and ccard(state, c).sync
        and ccard(state, c).level < level
    ]


def block_cards(state: EsperState, seat: str) -> list[str]:
    """Teleport cards that may block (above the escape) or help a block (sync, any level)."""
    combat = state.combat
    if combat is None or combat.escape is None:
        return []
    out = []
    for c in state.seats[seat].c_hand:
        card = ccard(state, c)
        if card.kind == "escape" and card.teleport:
            out.append(c)
    return out


def _parse_defend(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    actions: list[Action] = []
    card_used = False
    for words in parts:
        if not words:
            continue
        verb, args = words[0], words[1:]
        if verb == "pass" and not args:
            actions.append(Action("pass"))
        elif verb in ("defend", "escape") and args:
            if card_used:
                raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
            tail: list[str] = []
            while verb == "escape" and len(args) > 1 and args[-1].lower() in TAIL:
                tail.insert(0, args.pop().lower())
            card_id = _held(state, seat, " ".join(args))
            _check_defence_card(state, seat, card_id, verb)
            card_used = True
            actions.append(Action(verb, (card_id, *tail)))
        elif verb == "use" and len(args) == 1:
            ability = abilities_of(state, seat).get(args[0].lower())
            if ability is None:
                raise OrderRejected(R_ABILITY, ability=args[0][:40])
            check_defence_ability(state, seat, ability)
            actions.append(Action("use", (ability.id,)))
        elif verb == "durability" and len(args) == 1 and args[0].isdigit():
            n = int(args[0])
            if n > max(0, durability(state, seat)):
                raise OrderRejected(R_DURABILITY, n=durability(state, seat))
            actions.append(Action("durability", (str(n),)))
        elif verb == "counter":
            if attack["kind"] != "melee":
                raise OrderRejected(R_COUNTER)
            weapon = None
            for word in args:
                if word.startswith("+") and weapon is None:
                    weapon = _weapon_word(state, seat, word[1:])
                else:
                    raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
            actions.append(Action("counter", (("+" + weapon),) if weapon else ()))
        else:
            raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
    if not actions:
        raise OrderRejected(R_EMPTY)
    return EsperOrder(tuple(actions))


def can_defend(state: EsperState, seat: str) -> bool:
    """Whether the attacked may still try a defence or an escape: not against an attack that
    cannot be defended, nor while it holds a defence or after this attack broke the one it held
    ("その防御は破壊され、攻撃が成功する")."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    return (
        not attack.get("no_defence") and not attack.get("broke") and seat not in combat.maintained
    )


def _check_defence_card(state: EsperState, seat: str, card_id: str, verb: str) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    if combat.attack.get("no_defence"):
        raise OrderRejected(R_NO_DEFENCE)
    if seat in combat.maintained or combat.attack.get("broke"):
        raise OrderRejected(R_MAINTAINED)
    card = ccard(state, card_id)
    wanted = "defence" if verb == "defend" else "escape"
    if card.kind != wanted:
        raise OrderRejected(R_KIND, card=card_id)
    if card.level < int(attack["level"]):
        raise OrderRejected(R_LEVEL, card=card_id, level=attack["level"])
    if verb == "defend" and attack["attribute"] not in card.blocks:
        raise OrderRejected(R_BLOCKS, card=card_id, attribute=attack["attribute"])
    if verb == "escape" and seat in combat.escapers:
        raise OrderRejected(R_KIND, card=card_id)


def check_defence_ability(state: EsperState, seat: str, ability: Ability) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    if ability.timing != "defence" or ability.effect not in ("defend", "escape"):
        raise OrderRejected(R_TIMING, ability=ability.id)
    if combat.attack.get("no_defence"):
        raise OrderRejected(R_NO_DEFENCE)
    if seat in combat.maintained or combat.attack.get("broke"):
        raise OrderRejected(R_MAINTAINED)
    if ability.cost_mind > mind(state, seat) or ability.cost_power > power(state, seat):
        raise OrderRejected(R_COST, ability=ability.id)
    if int(ability.params.get("level", 0)) < int(attack["level"]):
        raise OrderRejected(R_LEVEL, card=ability.id, level=attack["level"])
    if ability.effect == "defend" and attack["attribute"] not in ability.params.get("blocks", []):
        raise OrderRejected(R_BLOCKS, card=ability.id, attribute=attack["attribute"])


def _parse_round_end(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    actions: list[Action] = []
    verb = None
    for words in parts:
        if words in (["continue"], ["stop"]) and verb is None:
            verb = words[0]
            actions.insert(0, Action(verb))
        elif len(words) >= 2 and words[0] == "discard":
            actions.append(Action("discard", (_held(state, seat, " ".join(words[1:])),)))
        else:
            raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
    if verb is None:
        actions.insert(0, Action("stop"))
    discards = [a for a in actions if a.verb == "discard"]
    if len({a.args[0] for a in discards}) != len(discards):
        raise OrderRejected(R_CARD, card=discards[-1].args[0])
    return EsperOrder(tuple(actions))


def default_order(state: EsperState, seat: str) -> EsperOrder:
    """Deadline defaults: ``decline``; ``pass``; no defence, true durability; ``stop``."""
    step = state.step
    if step == ENTRY:
        return EsperOrder((Action("decline"),))
    if step in (PRECOMBAT, SYNC, BLOCK):
        return EsperOrder((Action("pass"),))
    if step == CTURN:
        combat = state.combat
        if combat is not None and seat in combat.maintained:
            return EsperOrder((Action("drop"), Action("pass")))
        return EsperOrder((Action("pass"),))
    if step == DEFEND:
        return EsperOrder((Action("pass"),))
    if step == ROUND_END:
        return EsperOrder((Action("stop"),))
    raise OrderRejected(R_NOT_NOW)


# --- what the framework reads: withheld orders, views, choices -----------------------------------


def withheld(state: EsperState, seat: str) -> bool:
    """A combat turn's order and a round's answers are withheld: they may name a discarded card
    (a fact of the hand); what is public of them (plays, attacks, who goes on) the events say.
    A [戦闘前] answer names an ability that need not be declared. Syncs, defences and blocks
    are plays: public as sent."""
    return state.step in (CTURN, ROUND_END, PRECOMBAT)


def public(state: EsperState) -> dict[str, Any] | None:
    """The combat's public facts (the replay summary's ``combat``)."""
    combat = state.combat
    if combat is None:
        return None
    attack = combat.attack
    return {
        "spot": combat.spot,
        "why": combat.why,
        "by": combat.by,
        "round": combat.round,
        "seats": list(combat.seats),
        "key": combat.key,
        "order": list(combat.order),
        "cards": dict(combat.cards),
        "current": current(state),
        "hands": {s: len(state.seats[s].c_hand) for s in combat.seats},
        "henchmen": {s: n for s, n in combat.henchmen.items() if n},
        "maintained": copy.deepcopy(combat.maintained),
        "attack": None
        if attack is None
        else {
            k: attack.get(k)
            for k in ("by", "target", "kind", "card", "level", "attribute", "firepower")
        }
        | {"column": column_label(attack.get("column"))},
        "escape": None
        if combat.escape is None
        else {
            "seat": combat.escape["seat"],
            "level": combat.escape["level"],
            "card": combat.escape["card"],
        },
        "late": list(combat.late),
    }


def you(state: EsperState, seat: str) -> dict[str, Any]:
    """The seat's private combat facts: its hand and what it may answer now."""
    out: dict[str, Any] = {
        "c_hand": [ccard_info(ccard(state, c)) for c in state.seats[seat].c_hand],
        "power": power(state, seat),
        "hand_limit": hand_limit(state, seat),
    }
    if state.step == SYNC and seat in state.waiting:
        out["sync"] = sync_cards(state, seat)
    if state.step == BLOCK and seat in state.waiting:
        out["block"] = block_cards(state, seat)
    if state.step == PRECOMBAT and seat in state.waiting:
        out["precombat"] = [a.id for a in precombat_abilities(state, seat)]
    return out


def ccard_info(card: CCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": {"en": card.name_en, "ja": card.name_ja},
        "kind": card.kind,
        "level": card.level,
        "attribute": card.attribute,
        "firepower": card.firepower,
        "column": None if card.column is None else COLUMNS[card.column],
        "sync": card.sync,
        "blocks": list(card.blocks),
        "upkeep": card.upkeep,
        "teleport": card.teleport,
        "effect": card.effect,
        "n": card.n,
        "text": {"en": card.text_en, "ja": card.text_ja},
    }


def choices(state: EsperState, seat: str) -> list[ChoiceGroup]:
    """Buttons for the one-word answers, a select menu of the cards that fit the step (the
    hand's cards, by name); the rest is typed."""
    step = state.step
    combat = state.combat
    if combat is None:
        return []
    Group = ChoiceGroup
    if step == ENTRY:
        return [
            Group(
                "entry",
                "esper.group.entry",
                [Choice(w, f"esper.choice.{w}") for w in ("decline", "join")],
            )
        ]
    if step == ROUND_END:
        return [
            Group(
                "round_end",
                "esper.group.round_end",
                [Choice(w, f"esper.choice.{w}") for w in ("stop", "continue")],
            )
        ]
    names = {
        c: {"en": ccard(state, c).name_en, "ja": ccard(state, c).name_ja} for c in state.pack.ccards
    }
    if step in (SYNC, BLOCK):
        cards = sync_cards(state, seat) if step == SYNC else block_cards(state, seat)
        opts = [Choice("pass", "esper.choice.pass")]
        opts += [
            Choice(f"{step} {c}", "esper.choice.card", params={"name": names[c]})
            for c in dict.fromkeys(cards)
        ]
        # nothing to play (every eligible seat is asked): ``pass`` alone, as a button
        return [Group(step, f"esper.group.{step}", opts[:25], select=len(opts) > 1)]
    if step == DEFEND:
        opts = [Choice("pass", "esper.choice.no_defence")]
        if can_defend(state, seat):
            for c in dict.fromkeys(state.seats[seat].c_hand):
                for verb in ("defend", "escape"):
                    try:
                        _check_defence_card(state, seat, c, verb)
                    except OrderRejected:
                        continue
                    opts.append(
                        Choice(
                            f"{verb} {c}", f"esper.choice.{verb}_card", params={"name": names[c]}
                        )
                    )
        return [Group("defend", "esper.group.defend", opts[:25], select=True)]
    if step == CTURN:
        opts = [Choice("pass", "esper.choice.pass")]
        for c in dict.fromkeys(state.seats[seat].c_hand):
            card = ccard(state, c)
            if card.kind == "attack":
                for target in targets(state, seat):
                    opts.append(
                        Choice(
                            f"card {c} {target}",
                            "esper.choice.attack_card",
                            params={"name": names[c], "target": target},
                        )
                    )
        return [Group("cturn", "esper.group.cturn", opts[:25], select=True)]
    if step == PRECOMBAT:
        opts = [Choice("pass", "esper.choice.pass")]
        opts += [
            Choice(
                f"use {a.id}",
                "esper.choice.card",
                params={"name": {"en": a.name_en, "ja": a.name_ja}},
            )
            for a in precombat_abilities(state, seat)
        ]
        return [Group("precombat", "esper.group.precombat", opts[:25], select=len(opts) > 1)]
    return []
