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

The rest of the round (the "actually alive" checks, drawing up to the hand limit, initiative,
the damage rolls, the round's end) happens between the steps. Hidden facts: the C deck is
shuffled by the secret stream; public rolls (there, alive, initiative, checks, damage) come from
the step's resolve stream.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot.dice import NO_SECRET, Dice, shuffle
from bot.ruleset import Choice, ChoiceGroup, Event, OrderRejected
from cogs.esper import base as base_stage
from cogs.esper.effects import (
    apply_ability,
    do_support,
    esp_check,
    place,
    recover,
)
from cogs.esper.orders import (
    check_action,
    normal,
    seat_word,
    single,
    tokens,
)
from cogs.esper.pack import D1_EFFECTS, Ability, CCard, Pack
from cogs.esper.state import (
    BASE_STAGE,
    PLANET_STAGE,
    R_ABILITY,
    R_COST,
    R_EMPTY,
    R_NO_MAIN,
    R_NOT_NOW,
    R_TIMING,
    R_TWO_MAINS,
    R_UNKNOWN,
    R_USED,
    RAFNOR,
    Action,
    Combat,
    EsperOrder,
    EsperState,
    abilities_of,
    durability,
    key_here,
    mind,
    ring,
    secret_of,
    sheet_of,
    spot_name,
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
        action = _combat_action(state, seat, words)
        main = _is_combat_main(state, seat, action)
        if main:
            if phase != "before":
                raise OrderRejected(R_TWO_MAINS)
            phase = "after"
        elif action.verb not in SUPPORT_VERBS:
            raise OrderRejected(R_UNKNOWN, text=action.text()[:40])
        actions.append(action)
    if phase != "after":
        raise OrderRejected(R_NO_MAIN)
    _check_cturn(state, seat, actions)
    return EsperOrder(tuple(actions))


def _is_combat_main(state: EsperState, seat: str, action: Action) -> bool:
    if action.verb == "use":
        ability = abilities_of(state, seat).get(action.args[0])
        return ability is not None and ability.timing in ("main", "pre-emptive")
    return action.verb in MAIN_VERBS


def _combat_action(state: EsperState, seat: str, words: list[str]) -> Action:
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


def _check_cturn(state: EsperState, seat: str, actions: Sequence[Action]) -> None:
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
                state, seat, action, main=_is_combat_main(state, seat, action)
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
            _check_defence_ability(state, seat, ability)
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


def _check_defence_ability(state: EsperState, seat: str, ability: Ability) -> None:
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


# --- starting a combat ---------------------------------------------------------------------------


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


def start(
    state: EsperState,
    seat: str | None,
    spot: str,
    why: str,
    dice: Dice,
    secret: Dice,
    events: list[Event],
    *,
    runner: str | None = None,
) -> None:
    """A combat starts on ``spot``: everyone there takes part (esper.md, Combat)."""
    seats = [
        s
        for s in state.order
        if state.seats[s].alive
        and not state.seats[s].black_hole
        and state.seats[s].spot == spot
        and not state.seats[s].outside
    ]
    state.combats_started += 1
    combat = Combat(
        spot=spot,
        why=why,
        by=seat,
        key=key_here(state, spot),
        number=state.combats_started,
    )
    state.combat = combat
    if runner is not None and runner not in seats and state.seats[runner].alive:
        seats.append(runner)
        combat.ambush_runner = runner
        if state.seats[runner].spot is None:
            combat.from_stage_one.append(runner)
        state.seats[runner].spot = spot
    combat.seats = seats
    combat.new = list(seats)
    dealt = any(state.seats[s].c_hand for s in state.order)
    if not state.c_deck and not state.c_discard and not dealt:  # the game's first combat
        state.c_deck = state.pack.c_deck()
        shuffle(secret, state.c_deck)
    for s in seats:
        state.seats[s].power_lost = 0  # ESP power refills when a combat starts
    events.append(
        Event(
            "combat_start",
            {"spot": spot, "why": why, "by": seat, "seats": list(seats), "key": combat.key},
        )
    )
    candidates = _entry_candidates(state)
    if candidates:
        state.step, state.waiting = ENTRY, candidates
        return
    _after_entries(state, dice, secret, events)


def _entry_candidates(state: EsperState) -> list[str]:
    combat = state.combat
    assert combat is not None
    out = []
    for seat in state.order:
        s = state.seats[seat]
        if seat in combat.seats or not s.alive or s.black_hole or s.resigned or s.outside:
            continue
        if state.stage == BASE_STAGE and s.spot is None:
            continue
        out.append(seat)
    return out


def there_bonus(state: EsperState, seat: str) -> int:
    """What the seat adds to its "actually there" roll: its sheet's [戦闘前] or ``always`` bonus
    (said as it rolls: the roll comes before the [戦闘前] step) and lasting cards in play."""
    return sum(
        a.n
        for a in abilities_of(state, seat).values()
        if a.effect == "there_bonus"
        and (a.id not in state.pack.abilities or a.id in state.seats[seat].face_up)
    )


def _resolve_entry(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    for seat in state.order:
        order = orders.get(seat)
        if order is None or order.verb != "join":
            continue
        a, b = dice.roll(6), dice.roll(6)
        bonus = there_bonus(state, seat)
        total = max(2, min(12, a + b + bonus))
        result = state.pack.there_at(total)
        # the dice and whether it was there; the bonus (one sheet's ability) to the roller only
        events.append(Event("there", {"seat": seat, "dice": [a, b], "result": result}))
        if bonus:
            events.append(
                Event(
                    "there_bonus",
                    {"seat": seat, "dice": [a, b], "bonus": bonus, "result": result},
                    to=(seat,),
                )
            )
        if result == "yes":
            _enter(state, seat, events)
        elif result == "late":
            combat.late.append(seat)
    _after_entries(state, dice, secret, events)


def _enter(state: EsperState, seat: str, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    s = state.seats[seat]
    if s.spot is None:
        combat.from_stage_one.append(seat)
    if s.spot != combat.spot:
        place(state, seat, combat.spot, "there", events)
    combat.seats.append(seat)
    combat.new.append(seat)
    s.power_lost = 0
    events.append(Event("entered", {"seat": seat}))


def _after_entries(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """ "Actually alive" (the dead of this spot's game roll once per combat), [手下], then the
    [戦闘前] step or the hands."""
    combat = state.combat
    assert combat is not None
    if combat.round == 1:
        for seat in state.order:
            s = state.seats[seat]
            if s.alive or s.resigned or seat in combat.seats:
                continue
            a, b = dice.roll(6), dice.roll(6)
            result = state.pack.alive_at(a + b)
            events.append(Event("alive_check", {"seat": seat, "dice": [a, b], "result": result}))
            if result == "yes":
                s.alive = True
                s.damage = sheet_of(state, seat).durability - 1
                events.append(Event("returned", {"seat": seat}))
                _enter(state, seat, events)
    for seat in combat.new:
        n = sheet_henchmen(state, seat)
        combat.henchmen[seat] = n
        if n:
            events.append(Event("henchmen", {"seat": seat, "n": n}))
    asked = precombat_asked(state)
    if asked:
        state.step, state.waiting = PRECOMBAT, asked
        return
    _draw_and_initiative(state, dice, secret, events)


def _resolve_precombat(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    for seat in state.order:
        order = orders.get(seat)
        if order is None or order.verb != "use":
            continue
        for action in order.actions:
            ability = abilities_of(state, seat)[action.args[0]]
            combat.used.setdefault(seat, []).append(ability.id)
            s = state.seats[seat]
            s.mind_lost += ability.cost_mind
            s.power_lost += ability.cost_power
            # "能力名を宣言する必要は無く効果も宣言しなくてもよい": the name to its user only; the
            # channel learns what it must see (henchmen aloud, durability recovered)
            events.append(
                Event("precombat_used", {"seat": seat, "ability": ability.id}, to=(seat,))
            )
            if ability.id in s.hand:
                s.hand.remove(ability.id)
                if ability.lasting:
                    s.face_up.append(ability.id)
            if ability.effect == "henchmen":
                combat.henchmen[seat] = combat.henchmen.get(seat, 0) + ability.n
                events.append(Event("henchmen", {"seat": seat, "n": combat.henchmen[seat]}))
            else:
                effects: list[Event] = []
                apply_ability(state, seat, ability, None, dice, effects)
                events += [e for e in effects if _seen(e)]
    _draw_and_initiative(state, dice, secret, events)


def _seen(event: Event) -> bool:
    """Whether the channel sees a [戦闘前] effect: damage recovered, as all damage is; not a
    mind recovered (mind is private: its user's sheet shows it)."""
    return not (event.type == "recovered" and event.data.get("stat") == "mind")


def draw(state: EsperState, seat: str, n: int, secret: Dice) -> list[str]:
    """``n`` C cards from the deck (the discards shuffled back by the secret stream when it runs
    out)."""
    drawn: list[str] = []
    for _ in range(n):
        if not state.c_deck:
            if not state.c_discard:
                break
            state.c_deck, state.c_discard = state.c_discard, []
            shuffle(secret, state.c_deck)
        drawn.append(state.c_deck.pop(0))
    state.seats[seat].c_hand += drawn
    return drawn


def _refill(state: EsperState, seat: str, secret: Dice, events: list[Event]) -> None:
    short = hand_limit(state, seat) - len(state.seats[seat].c_hand)
    if short <= 0:
        return
    drawn = draw(state, seat, short, secret)
    if drawn:
        events.append(Event("drew", {"seat": seat, "n": len(drawn)}))
        events.append(Event("c_drawn", {"seat": seat, "cards": drawn}, to=(seat,)))


def _draw_and_initiative(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    for seat in combat.new:
        _refill(state, seat, secret, events)
    combat.new = []
    deck = initiative_deck()
    shuffle(dice, deck)
    combat.cards = {seat: deck[i] for i, seat in enumerate(combat.seats)}
    combat.order = sorted(combat.seats, key=lambda s: initiative_key(combat.cards[s]))
    combat.index = 0
    combat.acted = []
    combat.attacked = False
    events.append(
        Event(
            "initiative",
            {"round": combat.round, "order": [[s, combat.cards[s]] for s in combat.order]},
        )
    )
    _next_actor(state, dice, secret, events)


# --- combat turns --------------------------------------------------------------------------------


def _next_actor(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """Open the next participant's combat turn, or the round's end."""
    combat = state.combat
    assert combat is not None
    while combat.index < len(combat.order):
        seat = combat.order[combat.index]
        if seat in combat.seats and seat not in combat.acted and state.seats[seat].alive:
            state.step, state.waiting = CTURN, [seat]
            state.seats[seat].used = []
            events.append(Event("combat_turn", {"seat": seat, "round": combat.round}))
            return
        combat.index += 1
    _round_end(state, dice, secret, events)


def _resolve_cturn(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    seat = combat.order[combat.index]
    actions = list(_order_of(state, orders, seat).actions)
    combat.acted.append(seat)
    # check phase: a maintained defence is kept (its upkeep paid, a check if above the level)
    if seat in combat.maintained:
        keep = bool(actions) and actions[0].verb == "keep"
        if actions and actions[0].verb in ("keep", "drop"):
            actions.pop(0)
        _check_phase(state, seat, keep, dice, events)
    main_done = False
    while actions:
        action = actions.pop(0)
        if not state.seats[seat].alive or seat not in combat.seats:
            break
        if not main_done and _is_combat_main(state, seat, action):
            main_done = True
            combat.attack = None
            if _valid(state, seat, action, events):
                stopped = _do_main(state, seat, action, dice, secret, events)
                if stopped:
                    state.pending["combat_after"] = [a.text() for a in actions]
                    return
            else:
                events.append(Event("passed", {"seat": seat}))  # no main action, as a pass
            continue
        if _valid(state, seat, action, events):
            do_support(state, seat, action, dice, events)
    _turn_done(state, dice, secret, events)


def _valid(state: EsperState, seat: str, action: Action, events: list[Event]) -> bool:
    """An action checked when its time comes (a target dead since the order was sent): one that
    no longer holds is skipped, told to its seat only. The channel never saw the order (it is
    withheld), and the action's words may name an ability of the sheet or a card of the hand."""
    try:
        if action.verb in ("card", "discard") and action.args[0] not in state.seats[seat].c_hand:
            raise OrderRejected(R_CARD, card=action.args[0])
        if action.verb in ("card", "melee", "use"):
            target = next(
                (a for a in action.args[1:] if a not in TAIL and not a.startswith("+")),
                None,
            )
            if action.verb == "melee":
                target = action.args[0]
            if target is not None and action.verb != "use" and target not in targets(state, seat):
                raise OrderRejected(R_TARGET, target=target)
        _check_cturn(state, seat, [action])
    except OrderRejected as error:
        _skip(seat, action.text(), error.key, events, error.params)
        return False
    return True


def _skip(seat: str, text: str, why: str, events: list[Event], params: Mapping[str, Any]) -> None:
    events.append(
        Event(
            "skipped_why",
            {"seat": seat, "action": text, "why": why, "params": dict(params)},
            to=(seat,),
        )
    )


def _check_phase(state: EsperState, seat: str, keep: bool, dice: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    held = combat.maintained[seat]
    upkeep = int(held.get("upkeep", 0))
    if keep and upkeep > power(state, seat):
        keep = False
    if (
        keep
        and held.get("card") in state.pack.ccards
        and int(held["level"]) > sheet_of(state, seat).esp
    ):
        keep = esp_check(state, seat, dice, events, "keep")
    if keep:
        state.seats[seat].power_lost += upkeep
        events.append(Event("kept", {"seat": seat, "card": held["card"], "upkeep": upkeep}))
    else:
        del combat.maintained[seat]
        events.append(Event("dropped", {"seat": seat, "card": held["card"]}))


def _turn_done(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    combat.attack = None
    combat.escape = None
    state.pending.pop("combat_after", None)
    if _decided(state):
        _end(state, "decided", dice, events)
        return
    combat.index += 1
    _next_actor(state, dice, secret, events)


def _spend(state: EsperState, seat: str, card_id: str) -> None:
    state.seats[seat].c_hand.remove(card_id)
    state.c_discard.append(card_id)


def _level_check(state: EsperState, seat: str, level: int, dice: Dice, events: list[Event]) -> bool:
    """A C card above the user's ESP level works only after an ESP level check (*decided*)."""
    if level <= sheet_of(state, seat).esp:
        return True
    return esp_check(state, seat, dice, events, "card")


def _do_main(
    state: EsperState,
    seat: str,
    action: Action,
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> bool:
    """The main action. True when answers are now due (sync, defence, block)."""
    combat = state.combat
    assert combat is not None
    verb, args = action.verb, action.args
    if verb == "pass":
        events.append(Event("passed", {"seat": seat}))
        return False
    if verb == "discard":
        _spend(state, seat, args[0])
        events.append(Event("discarded", {"seat": seat, "n": 1}))
        return False
    if verb == "melee":
        target, n = args[0], int(args[1])
        weapon = args[2][1:] if len(args) > 2 else None
        return _attack(
            state,
            seat,
            {
                "kind": "melee",
                "by": seat,
                "target": target,
                "level": 1,
                "card_level": 1,
                "attribute": "melee",
                "firepower": n + combat.henchmen.get(seat, 0),
                "declared": n,
                "x": melee_x(state, seat, weapon),
                "weapon": weapon,
                "card": None,
                "sync": [],
            },
            dice,
            secret,
            events,
        )
    if verb == "use":
        ability = abilities_of(state, seat)[args[0]]
        target = args[1] if len(args) > 1 else None
        s = state.seats[seat]
        s.used.append(ability.id)
        s.mind_lost += ability.cost_mind
        s.power_lost += ability.cost_power
        events.append(Event("used", {"seat": seat, "ability": ability.id, "target": target}))
        if ability.id in s.hand:
            s.hand.remove(ability.id)
            if ability.lasting:
                s.face_up.append(ability.id)
        if ability.effect == "attack" and target is not None:
            params = ability.params
            ok = True
            if ability.timing == "pre-emptive":
                # [先制]: "失敗後即座に主要行動を行える" (a failure gives another main action)
                ok = esp_check(state, seat, dice, events, "pre-emptive")
            if not ok:
                combat.acted.remove(seat)  # the turn goes on: its main action is still due
                state.step, state.waiting = CTURN, [seat]
                events.append(Event("combat_turn", {"seat": seat, "round": combat.round}))
                return True
            return _attack(
                state,
                seat,
                _card_attack(seat, target, None, params, ability.id),
                dice,
                secret,
                events,
            )
        apply_ability(state, seat, ability, target, dice, events)
        return False
    # a C card
    card = ccard(state, args[0])
    rest = args[1:]
    target = next((w for w in rest if w not in TAIL), None)
    direction = next((w for w in rest if w in DIRECTIONS), "right")
    _spend(state, seat, card.id)
    events.append(
        Event("played", {"seat": seat, "card": card.id, "target": target, "level": card.level})
    )
    if not _level_check(state, seat, card.level, dice, events):
        return False
    if card.kind == "attack" and target is not None:
        return _attack(
            state,
            seat,
            _card_attack(seat, target, card, card.params, card.id),
            dice,
            secret,
            events,
        )
    if card.kind == "escape":
        return _escape(
            state,
            seat,
            card.level,
            card.teleport,
            card.id,
            direction,
            dice,
            secret,
            events,
            fight="fight" in rest,
        )
    if card.kind == "special":
        _special(state, seat, card, target, dice, events)
    return False


def _card_attack(
    seat: str, target: str, card: CCard | None, params: Mapping[str, Any], source: str
) -> dict[str, Any]:
    return {
        "kind": "card" if card is not None else "ability",
        "by": seat,
        "target": target,
        "level": int(params.get("level", 0)),
        "card_level": int(params.get("level", 0)),
        "attribute": params.get("attribute", "E"),
        "firepower": params.get("firepower"),
        "column": params.get("column"),
        "no_defence": bool(params.get("no_defence")),
        "can_sync": bool(card is not None and card.sync),
        "card": source,
        "sync": [],
    }


def _special(
    state: EsperState,
    seat: str,
    card: CCard,
    target: str | None,
    dice: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    effect = card.effect
    if effect == "henchmen":
        combat.henchmen[seat] = combat.henchmen.get(seat, 0) + card.n
        events.append(Event("henchmen", {"seat": seat, "n": combat.henchmen[seat]}))
    elif effect == "recover":
        who = target if target in combat.seats else seat
        recover(state, who, str(card.params.get("stat", "durability")), card.n, events)
    elif effect == "check_bonus":
        state.seats[seat].bonus += card.n
    # there_bonus: nothing more to join in this combat (it helps only a later "actually there")


def _attack(
    state: EsperState,
    seat: str,
    attack: dict[str, Any],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> bool:
    combat = state.combat
    assert combat is not None
    combat.attacked = True
    combat.attack = attack
    events.append(
        Event(
            "attack",
            {
                k: attack.get(k)
                for k in ("by", "target", "kind", "card", "level", "attribute", "firepower")
            }
            | {"column": _column_label(attack.get("column"))},
        )
    )
    if attack.get("can_sync"):
        helpers = sync_asked(state)
        if helpers:
            state.step, state.waiting = SYNC, helpers
            return True
    return _to_defence(state, dice, secret, events)


def _column_label(column: Any) -> str | None:
    return None if column is None else COLUMNS[int(column)]


def _resolve_sync(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    for seat in combat.order:
        order = orders.get(seat)
        if order is None or order.verb != "sync":
            continue
        card = ccard(state, order.actions[0].args[0])
        _spend(state, seat, card.id)
        combat.acted.append(seat)  # joining uses up the helper's turn (esper.md, *decided*)
        attack["sync"].append([seat, card.id])
        attack["level"] = int(attack["level"]) + 1
        if attack.get("firepower") is not None and card.firepower is not None:
            attack["firepower"] = int(attack["firepower"]) + card.firepower
        events.append(Event("synced", {"seat": seat, "card": card.id}))
    if attack["sync"]:
        events.append(
            Event(
                "sync_total",
                {
                    "by": attack["by"],
                    "level": attack["level"],
                    "firepower": attack.get("firepower"),
                    "helpers": [s for s, _ in attack["sync"]],
                },
            )
        )
    if _to_defence(state, dice, secret, events):
        return
    _after_attack(state, dice, secret, events)


def _to_defence(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> bool:
    """The attacked answers, or (a key installation) takes the roll at once. True when answers
    are due."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    target = attack["target"]
    if target == combat.key:
        _damage_key(state, dice, events)
        return False
    held = combat.maintained.get(target)
    if held is not None:
        if int(attack["level"]) > int(held["level"]):
            del combat.maintained[target]
            attack["broke"] = True  # the attack goes through: no new defence against it
            events.append(Event("defence_broken", {"seat": target, "card": held["card"]}))
        elif attack["attribute"] in held["blocks"]:
            events.append(Event("defended", {"seat": target, "card": held["card"], "held": True}))
            return False
    state.step, state.waiting = DEFEND, [target]
    return True


def _resolve_defend(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    seat = attack["target"]
    actions = list(_order_of(state, orders, seat).actions)
    declared = max(0, durability(state, seat))
    counter: Action | None = None
    tries: list[Action] = []
    for action in actions:
        if action.verb == "durability":
            declared = min(declared, int(action.args[0]))
        elif action.verb == "counter":
            counter = action
        elif action.verb in ("defend", "escape", "use"):
            tries.append(action)
    attack["defender_declared"] = declared
    # a card and abilities, each tried in turn until one works (2011 rule)
    defendable = can_defend(state, seat)
    tries.sort(key=lambda a: a.verb == "use")  # the card first
    for action in tries if defendable else []:
        outcome = _try_defence(state, seat, action, dice, secret, events)
        if outcome == "escaped":
            _after_attack(state, dice, secret, events)
            return
        if outcome == "block":
            return  # the others answer first
        if outcome == "defended":
            _after_attack(state, dice, secret, events)
            return
    _damage_roll(state, declared, counter, dice, events)
    _after_attack(state, dice, secret, events)


def _try_defence(
    state: EsperState,
    seat: str,
    action: Action,
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> str:
    """One try: ``defended``, ``escaped``, ``block`` (answers due) or ``failed``."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    if action.verb == "use":
        ability = abilities_of(state, seat).get(action.args[0])
        if ability is None:
            return "failed"
        try:
            _check_defence_ability(state, seat, ability)
        except OrderRejected:
            return "failed"
        s = state.seats[seat]
        s.mind_lost += ability.cost_mind
        s.power_lost += ability.cost_power
        events.append(Event("used", {"seat": seat, "ability": ability.id, "target": None}))
        params = ability.params
        if ability.effect == "defend":
            return _defended(state, seat, ability.id, params, events)
        return _escape(
            state,
            seat,
            int(params.get("level", 0)),
            bool(params.get("teleport")),
            ability.id,
            "right",
            dice,
            secret,
            events,
            reaction=True,
        )
    card_id = action.args[0]
    if card_id not in state.seats[seat].c_hand:
        return "failed"
    card = ccard(state, card_id)
    _spend(state, seat, card_id)
    events.append(
        Event("played", {"seat": seat, "card": card_id, "target": None, "level": card.level})
    )
    if not _level_check(state, seat, card.level, dice, events):
        return "failed"
    if action.verb == "defend":
        return _defended(state, seat, card_id, card.params, events)
    direction = next((w for w in action.args[1:] if w in DIRECTIONS), "right")
    return _escape(
        state,
        seat,
        card.level,
        card.teleport,
        card_id,
        direction,
        dice,
        secret,
        events,
        reaction=True,
        fight="fight" in action.args[1:],
    )


def _defended(
    state: EsperState,
    seat: str,
    source: str,
    params: Mapping[str, Any],
    events: list[Event],
) -> str:
    combat = state.combat
    assert combat is not None
    combat.maintained[seat] = {
        "card": source,
        "level": int(params.get("level", 0)),
        "blocks": list(params.get("blocks", [])),
        "upkeep": int(params.get("upkeep", 0)),
    }
    events.append(Event("defended", {"seat": seat, "card": source, "held": False}))
    return "defended"


def _escape(
    state: EsperState,
    seat: str,
    level: int,
    teleport: bool,
    source: str,
    direction: str,
    dice: Dice,
    secret: Dice,
    events: list[Event],
    *,
    reaction: bool = False,
    fight: bool = False,
) -> Any:
    """An escape works; a teleport one may still be blocked by the others (then the escaper
    stays, but takes no damage)."""
    combat = state.combat
    assert combat is not None
    combat.escape = {
        "seat": seat,
        "level": level,
        "card": source,
        "direction": direction,
        "reaction": reaction,
        "fight": fight,
    }
    events.append(
        Event("escape", {"seat": seat, "card": source, "level": level, "teleport": teleport})
    )
    if teleport:
        blockers = block_asked(state, seat)
        if blockers:
            state.step, state.waiting = BLOCK, blockers
            return "block" if reaction else True
    _leave(state, seat, direction, dice, events, fight=fight)
    return "escaped" if reaction else False


def _leave(
    state: EsperState,
    seat: str,
    direction: str,
    dice: Dice,
    events: list[Event],
    *,
    fight: bool = False,
) -> None:
    """An escape leaves the combat and moves 1D6 spots, as a teleport that cannot fail; with
    ``fight``, meeting others there starts a combat once this one is over (esper.md)."""
    combat = state.combat
    assert combat is not None
    combat.escape = None
    combat.seats.remove(seat)
    combat.maintained.pop(seat, None)
    combat.escapers.append(seat)
    steps = dice.roll(6)
    events.append(Event("escaped", {"seat": seat, "steps": steps}))
    if seat in combat.from_stage_one and state.stage == PLANET_STAGE:
        state.seats[seat].spot = None  # an EVIL silhouette has no piece on the planets
        return
    _flee(state, seat, steps, direction, events)
    if fight:
        combat.then.append(seat)


def _flee(state: EsperState, seat: str, steps: int, direction: str, events: list[Event]) -> None:
    """An escape's 1D6 spots, as a teleport that cannot fail: round the ring (planets), or
    straight on to the edge (the base, *decided*: a path chosen after the roll would need one
    more step in the middle of a combat)."""
    spot = state.seats[seat].spot
    if spot is None:
        return
    if state.stage == BASE_STAGE:
        place(state, seat, base_stage.line(spot, steps, direction), "escape", events)
        return
    if spot == RAFNOR:
        return
    planet, index = ring(spot) or (1, 0)
    step = -steps if direction == "left" else steps
    place(state, seat, spot_name(planet, index + step), "escape", events)


def _resolve_block(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.escape is not None
    escape = combat.escape
    played = []
    for seat in combat.order + [s for s in combat.seats if s not in combat.order]:
        order = orders.get(seat)
        if order is None or order.verb != "block" or (seat, order) in played:
            continue
        played.append((seat, order))
    cards = [(seat, ccard(state, order.actions[0].args[0])) for seat, order in played]
    blocked = False
    level = 0
    if cards:
        lead_seat, lead = max(cards, key=lambda pair: pair[1].level)
        helpers = [(s, c) for s, c in cards if c.level < lead.level and c.sync]
        used = [(lead_seat, lead), *helpers]
        for s, c in used:
            _spend(state, s, c.id)
            events.append(
                Event(
                    "played", {"seat": s, "card": c.id, "target": escape["seat"], "level": c.level}
                )
            )
        level = lead.level + len(helpers)
        blocked = level > int(escape["level"])
        events.append(
            Event(
                "block",
                {
                    "seat": escape["seat"],
                    "by": [s for s, _ in used],
                    "level": level,
                    "blocked": blocked,
                },
            )
        )
    if blocked:
        combat.escape = None
    else:
        fight = bool(escape.get("fight"))
        _leave(state, escape["seat"], str(escape["direction"]), dice, events, fight=fight)
    if escape.get("reaction"):
        _after_attack(state, dice, secret, events)
    else:
        _continue_turn(state, dice, secret, events)


def _damage_roll(
    state: EsperState,
    declared: int,
    counter: Action | None,
    dice: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    target, by = attack["target"], attack["by"]
    if attack["kind"] == "melee":
        defence_fp = declared + combat.henchmen.get(target, 0)
        weapon = counter.args[0][1:] if counter is not None and counter.args else None
        shift = int(attack["x"]) - melee_x(state, target, weapon)
        mine, theirs = melee_columns(int(attack["firepower"]), defence_fp, shift)
        rolls = [(target, by, mine, declared)]
        if counter is not None:
            events.append(Event("counter", {"seat": target, "firepower": defence_fp}))
            rolls.append((by, target, theirs, int(attack["declared"])))
        hits = []
        for victim, hitter, column, limit in rolls:
            a, b = dice.roll(6), dice.roll(6)
            hits.append(
                (victim, hitter, column, limit, [a, b], state.pack.damage_at(a + b, column))
            )
        for victim, hitter, column, limit, roll, n in hits:  # both at once
            _hit(state, victim, hitter, column, limit, roll, n, events)
        return
    if attack.get("column") is not None:
        column = int(attack["column"])
    else:
        column = column_index(int(attack["firepower"] or 0), declared)
    a, b = dice.roll(6), dice.roll(6)
    _hit(state, target, by, column, declared, [a, b], state.pack.damage_at(a + b, column), events)


def _hit(
    state: EsperState,
    victim: str,
    by: str,
    column: int,
    declared: int,
    roll: list[int],
    n: int,
    events: list[Event],
) -> None:
    """A damage roll's result: more than the declared durability kills (esper.md, Damage)."""
    events.append(
        Event(
            "damage_roll",
            {
                "seat": victim,
                "by": by,
                "dice": roll,
                "column": COLUMNS[column],
                "declared": declared,
                "damage": n,
            },
        )
    )
    s = state.seats[victim]
    if not s.alive:
        return
    if n:
        s.damage += n
        events.append(Event("damaged", {"seat": victim, "n": n, "total": s.damage}))
    if n > declared or s.damage > sheet_of(state, victim).durability:
        die(state, victim, events)


def die(state: EsperState, seat: str, events: list[Event]) -> None:
    """Death in combat: face-up ability cards and the hand are dropped; the dead leave."""
    s = state.seats[seat]
    s.alive = False
    dropped = {"abilities": len(s.face_up), "hand": len(s.c_hand)}
    state.c_discard += s.c_hand
    s.c_hand = []
    s.face_up = []
    events.append(Event("died", {"seat": seat, "dropped": dropped}))
    combat = state.combat
    if combat is not None and seat in combat.seats:
        combat.seats.remove(seat)
        combat.maintained.pop(seat, None)


def _damage_key(state: EsperState, dice: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None and combat.key is not None
    attack = combat.attack
    key = state.keys[combat.key]
    installation = state.pack.keys[key["id"]]
    left = installation.durability - int(key["damage"])
    if attack.get("column") is not None:
        column = int(attack["column"])
    else:
        column = column_index(int(attack["firepower"] or 0), left)
    a, b = dice.roll(6), dice.roll(6)
    n = state.pack.damage_at(a + b, column)
    key["damage"] = int(key["damage"]) + n
    destroyed = key["damage"] > installation.durability
    events.append(
        Event(
            "damage_roll",
            {
                "seat": combat.key,
                "by": attack["by"],
                "dice": [a, b],
                "column": COLUMNS[column],
                "declared": left,
                "damage": n,
            },
        )
    )
    if destroyed:
        key["destroyed"] = True
        events.append(Event("key_destroyed", {"spot": combat.key, "key": key["id"]}))
        combat.key = None


def _after_attack(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    combat.attack = None
    _continue_turn(state, dice, secret, events)


def _continue_turn(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    """Back to the actor: the supports its order planned after the main action, then the next."""
    combat = state.combat
    assert combat is not None
    if state.ended is not None:
        return
    seat = combat.order[combat.index] if combat.index < len(combat.order) else None
    planned = state.pending.pop("combat_after", [])
    if seat is not None and seat in combat.seats and state.seats[seat].alive:
        for text in planned:
            try:  # its target may have left (dead or escaped) while the others answered
                action = _combat_action(state, seat, tokens(text))
            except OrderRejected as error:
                _skip(seat, text, error.key, events, error.params)
                continue
            if _valid(state, seat, action, events):
                do_support(state, seat, action, dice, events)
    _turn_done(state, dice, secret, events)


# --- the round's end and the combat's ------------------------------------------------------------


def _participants(state: EsperState) -> int:
    combat = state.combat
    assert combat is not None
    return len(combat.seats) + (1 if combat.key is not None else 0)


def _decided(state: EsperState) -> bool:
    return _participants(state) <= 1 or state.ended is not None


def _round_end(state: EsperState, dice: Dice, secret: Dice, events: list[Event]) -> None:
    combat = state.combat
    assert combat is not None
    events.append(Event("round_end", {"round": combat.round, "attacked": combat.attacked}))
    if not combat.attacked:
        _end(state, "no_attack", dice, events)
        return
    if _decided(state):
        _end(state, "decided", dice, events)
        return
    asked = [s for s in combat.seats if state.seats[s].alive]
    state.step, state.waiting = ROUND_END, asked


def _resolve_round_end(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    combat = state.combat
    assert combat is not None
    going = [s for s in combat.seats if s in orders and orders[s].verb == "continue"]
    events.append(Event("round_answers", {"continue": going}))
    for seat in list(combat.seats):
        order = orders.get(seat)
        discards = [a.args[0] for a in order.actions if a.verb == "discard"] if order else []
        _trim(state, seat, discards, events)
    if not going:
        _end(state, "stopped", dice, events)
        return
    for seat in combat.seats:
        _refill(state, seat, secret, events)
    combat.round += 1
    combat.new = []
    for seat in list(combat.late):
        if state.seats[seat].alive and not state.seats[seat].black_hole:
            _enter(state, seat, events)
    combat.late = []
    for seat in combat.new:
        combat.henchmen[seat] = sheet_henchmen(state, seat)
    _draw_and_initiative(state, dice, secret, events)


def _trim(state: EsperState, seat: str, discards: list[str], events: list[Event]) -> None:
    """Over the limit: down to it (named cards first, then the last drawn); at the limit, one
    named card may go."""
    hand = state.seats[seat].c_hand
    limit = hand_limit(state, seat)
    named = [c for c in discards if c in hand]
    out: list[str] = []
    if len(hand) > limit:
        excess = len(hand) - limit
        out = named[:excess]
        for card_id in reversed(list(hand)):
            if len(out) >= excess:
                break
            if card_id not in out:
                out.append(card_id)
    elif len(hand) == limit and named:
        out = named[:1]
    for card_id in out:
        _spend(state, seat, card_id)
    if out:
        events.append(Event("discarded", {"seat": seat, "n": len(out)}))


def _end(state: EsperState, why: str, dice: Dice, events: list[Event]) -> None:
    """The combat is over (``state.combat`` None: whoever called into it ends the turn that
    started it), unless an escaper who asked to fight where it landed starts the next one."""
    combat = state.combat
    assert combat is not None
    events.append(
        Event("combat_end", {"spot": combat.spot, "why": why, "seats": list(combat.seats)})
    )
    for seat in combat.from_stage_one:
        if state.seats[seat].alive and state.stage == PLANET_STAGE:
            state.seats[seat].spot = None  # back to no piece (EVIL silhouettes on the planets)
    state.combat = None
    for seat in combat.then:  # an escaper who asked to fight where it landed
        spot = state.seats[seat].spot
        if state.seats[seat].alive and spot is not None and can_fight(state, seat):
            start(state, seat, spot, "escape", dice, secret_of(dice), events)
            return


def _order_of(state: EsperState, orders: Mapping[str, EsperOrder], seat: str) -> EsperOrder:
    """The seat's order; its default when it sent none (it resigned while the step waited on it
    alone, and the step is resolved without it)."""
    return orders.get(seat) or default_order(state, seat)


# --- the framework's dispatch --------------------------------------------------------------------


def resolve_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    RESOLVERS[state.step](state, orders, dice, secret, events)


RESOLVERS = {
    ENTRY: _resolve_entry,
    PRECOMBAT: _resolve_precombat,
    CTURN: _resolve_cturn,
    SYNC: _resolve_sync,
    DEFEND: _resolve_defend,
    BLOCK: _resolve_block,
    ROUND_END: _resolve_round_end,
}


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
        | {"column": _column_label(attack.get("column"))},
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


def withdraw(state: EsperState, seat: str, events: list[Event]) -> bool:
    """A participant resigns mid-combat: it leaves; when the step waited on it alone (its turn,
    its defence) the combat goes on at once. True when handled so."""
    combat = state.combat
    assert combat is not None
    if seat in combat.seats:
        combat.seats.remove(seat)
    combat.maintained.pop(seat, None)
    dice = NO_SECRET
    if state.step == CTURN and current(state) == seat:
        combat.acted.append(seat)
        _turn_done(state, dice, dice, events)
        return True
    if state.step == DEFEND and combat.attack is not None and combat.attack["target"] == seat:
        _after_attack(state, dice, dice, events)
        return True
    return False


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
