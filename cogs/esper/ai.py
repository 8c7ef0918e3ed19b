"""The demo AI for the Esper war (``python -m bot demo esper``, the tests' whole games).

It decides from what its seat may know and nothing else: :func:`rules.view` for the seat (the
public facts, its own sheet, alignment, card, hand, what it has seen and been told), the pack
(public data: what a sheet id or a card id prints) and the alignment a declaration claims (said
aloud with it). Every order it sends is checked by :func:`rules.parse` first; parse only says
whether an order is legal, which depends on the seat's own state and public facts.

Each alignment keeps its interest:

- GOOD looks for information: it moves or teleports towards face-down cards, forms parties with
  seats it knows to be GOOD, now and then converts someone on its spot, uses its info and peek
  abilities, and declares (rarely) when it believes GOOD has won;
- EVIL hides: it takes a GOOD or SPECIAL silhouette when its card allows, wanders, never opens
  its sheet or uses an ability printed on it (its id would name the character) unless badly hurt,
  and objects to every declaration but an EVIL one;
- SPECIAL plays alone: it looks for information, joins no party (unless its own defeat condition
  is being alone) and declares its solo victory as soon as the rules allow.

A main action is worth what the spot it leaves the piece on is worth (:class:`Chart`): a
face-down card is the goal, a face-up card is worth what it does to the seat when it fires again,
and every other spot is worth minus the cheapest way on to a face-down card, harmful cards
counting extra. Each worth gets a little noise (EVIL a lot: it wanders), more as a game grows
long, so that no seat repeats one loop for ever; games of AI players end (the tests check it).

Part 2 (combat and the secret base). Whom a seat fights is what it suspects (:meth:`Mind.threat`).
On the planets an invader now and then ends a turn with ``fight`` where a suspect stands.

This module is the entry (:func:`choose`) and plays the deal, the silhouettes, the start and the
planet stage; it sends the rest to the modules it is built of, each importing only those listed
before it:

- :mod:`.ai_mind`: what a seat knows (:class:`Mind`, :func:`mind_of`) and the reads every stage
  shares (how hurt it is, its own abilities, whether to fight where it stands, to declare);
- :mod:`.ai_combat`: an ESP combat's steps;
- :mod:`.ai_base`: the secret base's set-up steps, turns and teleport paths.

``rng`` is a :class:`random.Random` (the demo hands one over); each call draws a few numbers.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.ruleset import OrderRejected
from cogs.esper import base as base_map
from cogs.esper import combat as combats
from cogs.esper import rules
from cogs.esper.ai_base import base_after, base_step, base_turn
from cogs.esper.ai_combat import combat_step
from cogs.esper.ai_mind import (
    BLACK_HOLE,
    LETHAL,
    LONG_GAME,
    NOISE,
    RECOVER,
    SUSPECT,
    Mind,
    badly_hurt,
    declaration_order,
    durability_lost,
    fight_at,
    mind_of,
    own_abilities,
)
from cogs.esper.rules import EVIL, GOOD, SPECIAL, EsperState

GOOD_OR_SPECIAL = (GOOD, SPECIAL)
# chances of the rarer moves
REFUSE_LAST = 0.08  # refuse-last, when the seat may
EVIL_HIDES = 0.7  # an EVIL seat takes a GOOD/SPECIAL silhouette when its card allows
GOOD_OWN = 0.7  # a GOOD seat takes its own silhouette (else another GOOD one)
REPICK_ANY = 0.3  # a repick takes any silhouette left
CONVERT = 0.2  # a GOOD seat tries a conversion on its spot
OPEN_AFTER = 0.15  # a GOOD seat on two info leaves its turn open to declare after the square
DECLARE_AFTER = 0.4  # … and declares once the square gave it the third
JOIN_UNKNOWN = 0.4  # joining a party of a seat whose alignment is unknown
# spot values (a main action's worth is the value of where it leaves the piece)
FACE_DOWN = {GOOD: 10.0, SPECIAL: 10.0, EVIL: 2.0}
TOGO = {GOOD: 1.0, SPECIAL: 1.0, EVIL: 0.3}  # weight of the way to the next face-down card
PARTY = 12.0  # above a face-down card: pooled info is what GOOD plays for
INFO = 14.0  # an info card for sure beats a face-down card
PEEK = 2.5
FREE = 8.0
TREAT = 2.0
CANDIDATES = 30  # main actions tried (best first) before falling back to the default
# part 2: combat
FIGHT_PLANET = 0.8  # an invader fights a suspect on its spot (times the suspicion)


class DemoAI:
    """The ``DemoPlayer`` of the spec: ``choose(state, seat, rng)`` gives an order text."""

    def choose(self, state: EsperState, seat: str, rng: Any) -> str:
        return choose(state, seat, rng)


def choose(state: EsperState, seat: str, rng: Any = None) -> str:
    rng = rng if rng is not None else random.Random(0)
    k = mind_of(state, seat, rng)
    step = k.view["step"]
    if step in combats.STEPS:
        texts = combat_step(k, step)
    elif step in base_map.STEPS:
        texts = base_step(k, step)
    elif step == rules.TURN and k.base:
        texts = base_turn(k)
    elif step == rules.AFTER and k.base:
        texts = base_after(k)
    elif step == rules.DEAL:
        texts = [_deal(k)]
    elif step in (rules.SILHOUETTE, rules.REPICK, rules.BALANCE, rules.BALANCE_CARD):
        texts = [_silhouette(k, step)]
    elif step == rules.START:
        texts = [_start(k)]
    elif step == rules.TURN:
        texts = _turn(k)
    elif step == rules.AFTER:
        texts = [_after(k)]
    elif step == rules.DIRECTION:
        texts = [_direction(k)]
    elif step == rules.PARTY:
        texts = [_party_answer(k)]
    elif step == rules.OBJECTION:
        texts = [_objection(k)]
    elif step == rules.SEE:
        texts = [_see(k)]
    else:
        texts = []
    for text in texts:
        try:
            rules.parse(state, seat, text)
        except OrderRejected:
            continue
        return text
    return rules.default_order(state, seat).canonical()


# --- setup ---------------------------------------------------------------------------------------


def _deal(k: Mind) -> str:
    if k.you["refuse_last"] and k.rng.random() < REFUSE_LAST:
        return "refuse-last"
    return "keep"


def _aligned(k: Mind, ids: Iterable[str], alignments: Iterable[str]) -> list[str]:
    wanted = tuple(alignments)
    return [i for i in ids if k.pack.sheets[i].alignment in wanted]


def _preferred(k: Mind, allowed: list[str]) -> str | None:
    """The silhouette this seat would take among ``allowed`` (its alignment's taste)."""
    if not allowed:
        return None
    own: str = k.you["sheet"]["id"]
    if k.alignment == EVIL:
        hide = _aligned(k, allowed, GOOD_OR_SPECIAL)
        if hide and k.rng.random() < EVIL_HIDES:
            return k.rng.choice(hide)
        evil = [own] if own in allowed else _aligned(k, allowed, (EVIL,))
        return k.rng.choice(evil or allowed)
    if k.alignment == GOOD:
        if own in allowed and k.rng.random() < GOOD_OWN:
            return own
        good = _aligned(k, allowed, (GOOD,)) or _aligned(k, allowed, GOOD_OR_SPECIAL)
        return k.rng.choice(good or allowed)
    return k.rng.choice(allowed)


def _silhouette(k: Mind, step: str) -> str:
    allowed = list(k.you.get("silhouettes", []))
    if step == rules.REPICK and allowed and k.rng.random() < REPICK_ANY:
        # seats of one taste keep meeting on the one silhouette left to it: break the tie
        return f"silhouette {k.rng.choice(allowed)}"
    if step in (rules.SILHOUETTE, rules.REPICK):
        return f"silhouette {_preferred(k, allowed) or k.you['sheet']['id']}"
    return _balance(k, allowed)


def _balance(k: Mind, allowed: list[str]) -> str:
    """The larger side is asked: EVIL seats go back to the defenders, GOOD and SPECIAL ones to
    the invaders, when the card allows; the others keep (unless the card forbids it)."""
    current = k.me["silhouette"]
    own = k.you["sheet"]["id"]
    side = k.me["side"]
    other = [i for i in allowed if _side(k, i) != side]
    if side == rules.INVADER:
        mine = _aligned(k, other, (EVIL,)) if k.alignment == EVIL else []
    else:
        mine = _aligned(k, other, GOOD_OR_SPECIAL)
        if k.alignment in GOOD_OR_SPECIAL and own in other:
            mine = [own]
        elif k.alignment == EVIL and k.rng.random() >= 0.5:
            mine = []
    if mine:
        return f"silhouette {k.rng.choice(mine)}"
    if not allowed:
        return "keep"  # the new card cannot be followed (an Ace whose silhouette is held)
    if current in allowed or current == own or k.view["step"] == rules.BALANCE:
        return "keep"
    return f"silhouette {_preferred(k, allowed) or own}"


def _side(k: Mind, sheet_id: str) -> str:
    return rules.DEFENDER if k.pack.sheets[sheet_id].alignment == EVIL else rules.INVADER


def _start(k: Mind) -> str:
    if k.me["side"] != rules.DEFENDER:
        return f"start P{k.rng.randint(1, rules.PLANETS)}"
    if k.alignment != EVIL:
        return "pass"  # an ambush is EVIL's business
    # invaders start at spaceports: the spots beside them are the likeliest to be entered
    planet = k.rng.randint(1, rules.PLANETS)
    index = k.rng.choice((1, rules.RING - 1, 1, rules.RING - 1, 2, rules.RING - 2, 3, 4))
    defenders = [s for s, info in k.seats.items() if info["side"] == rules.DEFENDER]
    runner = k.seat if k.rng.random() < 0.5 else k.rng.choice(defenders)
    return f"ambush {rules.spot_name(planet, index)} runner {runner}"


# --- the map -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    """The map as this seat values it: what each spot's card does to it when it fires
    (``gain``, ``hazard``), where entering a spot leaves the piece (``land``: a card may send it
    to Rafnor or a spaceport; ``None``: a black hole holds it), and the cheapest way from each
    spot to a face-down card (``cost``: each spot entered counts 1 plus its hazard). A step
    along that way is always worth more than staying, and a harmful card is walked round when
    a way round is cheaper; a seat that has no other way left walks into a black hole rather
    than wait for ever."""

    down: frozenset[str]
    unknown: float  # a face-down card's worth: the bonus of finding it, less its likely harm
    gain: Mapping[str, float]
    hazard: Mapping[str, float]
    land: Mapping[str, str | None]
    cost: Mapping[str, float]
    stranded: bool = False  # the seat's way on passes a black hole or worse

    def enter(self, spot: str) -> float:
        """The cost of a move into ``spot`` and on from where it leaves the piece."""
        if spot in self.down:
            return 1.0
        landing = self.land[spot]
        rest = 0.0 if landing is None else self.cost[landing]
        return 1 + self.hazard[spot] + rest

    def togo(self, spot: str) -> float:
        """From ``spot`` to the nearest face-down card other than its own (0: none left)."""
        best = min((self.enter(n) for n in _neighbours(spot)), default=math.inf)
        return 0.0 if math.isinf(best) else best


def _spots() -> list[str]:
    ring = [rules.spot_name(p, i) for p in range(1, rules.PLANETS + 1) for i in range(rules.RING)]
    return [*ring, rules.RAFNOR]


SPOTS = _spots()


def chart(k: Mind) -> Chart:
    down = frozenset(s for s in rules.card_spots() if s not in k.view["planets"])
    gain: dict[str, float] = {}
    hazard: dict[str, float] = {}
    land: dict[str, str | None] = {}
    for spot in SPOTS:
        card_id = k.view["rafnor"] if spot == rules.RAFNOR else k.view["planets"].get(spot)
        value = 0.0 if card_id in (None, rules.SPENT) else _card_value(k, card_id)
        gain[spot], hazard[spot] = max(value, 0.0), max(-value, 0.0)
        land[spot] = spot if card_id in (None, rules.SPENT) else _landing(k, spot, card_id)
    # the cheapest ways, by relaxing every move until nothing improves (43 spots, costs > 0)
    cost = dict.fromkeys(SPOTS, math.inf)
    result = Chart(down, _unknown(k), gain, hazard, land, cost)
    changed = True
    while changed:
        changed = False
        for spot in SPOTS:
            best = result.togo(spot) or math.inf
            if best < cost[spot]:
                cost[spot], changed = best, True
    spot = k.me["spot"]
    stranded = spot is not None and bool(down) and result.togo(spot) >= BLACK_HOLE
    return dataclasses.replace(result, stranded=stranded)


def _landing(k: Mind, spot: str, card_id: str) -> str | None:
    effect = k.pack.planets[card_id].effect
    if effect == "black_hole":
        return None
    if effect == "rafnor":
        return rules.RAFNOR
    if effect == "to_spaceport" and spot != rules.RAFNOR:
        return f"P{spot[1]}-0"
    return spot


def _neighbours(spot: str) -> list[str]:
    if spot == rules.RAFNOR:
        return [f"P{p}-0" for p in range(1, rules.PLANETS + 1)]
    planet, index = rules.ring(spot) or (1, 0)
    out = [rules.spot_name(planet, index - 1), rules.spot_name(planet, index + 1)]
    if index == 0:
        out += [f"P{p}-0" for p in range(1, rules.PLANETS + 1) if p != planet]
    return out


def _card_value(k: Mind, card_id: str) -> float:
    """What a face-up card does to this seat when it fires again."""
    card = k.pack.planets[card_id]
    if card.effect == "damage":
        # a card that would leave it at 0 durability or kill it is the worst place of all
        return -LETHAL if card.n >= k.you["durability"] else -3.0 * card.n
    if card.effect == "black_hole":
        return -BLACK_HOLE
    if card.effect == "recover":
        return 2.0 * min(card.n, durability_lost(k))
    return 0.0


def _unknown(k: Mind) -> float:
    """The worth of entering a face-down card: the alignment's bonus plus what a card of the
    pack's planet deck does on average (the pack is public; a hurt seat fears a damage card)."""
    deck = k.pack.planet_deck()
    harm = sum(min(_card_value(k, card_id), 0.0) for card_id in deck) / max(len(deck), 1)
    return FACE_DOWN[k.alignment if k.seeks_info() else EVIL] + harm


def _spot_value(k: Mind, spot: str, c: Chart) -> float:
    """Where a main action leaves the piece: a face-down card is the goal (its bonus), else what
    the spot's card does minus the way still to go (EVIL minds the way little: it wanders)."""
    if spot in c.down:
        return c.unknown
    # stranded (only a black hole or worse leads on), nobody gains by waiting: even EVIL goes
    weight = TOGO[GOOD] if c.stranded else TOGO[k.alignment if k.seeks_info() else EVIL]
    landing = c.land[spot]
    way = 0.0 if landing is None else c.togo(landing)
    return c.gain[spot] - c.hazard[spot] - weight * way


def _ring_step(planet: int, index: int, step: int) -> str:
    return rules.spot_name(planet, index + step)


def _moves(k: Mind, c: Chart) -> list[tuple[float, str]]:
    """Each movement main action with its worth (a teleport's is its expectation)."""
    spot = k.me["spot"]
    out: list[tuple[float, str]] = []
    if spot is None:
        return out
    stay = _spot_value(k, spot, c)
    if spot == rules.RAFNOR:
        return [(_spot_value(k, f"P{p}-0", c), f"move P{p}") for p in range(1, 7)]
    planet, index = rules.ring(spot) or (1, 0)
    for word, step in (("left", -1), ("right", 1)):
        out.append((_spot_value(k, rules.spot_name(planet, index + step), c), f"move {word}"))
    if index == 0:
        for p in range(1, rules.PLANETS + 1):
            if p != planet:
                out.append((_spot_value(k, f"P{p}-0", c), f"move P{p}"))
    esp = int(k.you["sheet"]["esp"])
    for n in range(2, min(esp, rules.RING) + 1):
        for word, sign in (("left", -1), ("right", 1)):
            # success on a roll below n, moving that many spots; else the piece stays
            spots = [_ring_step(planet, index, sign * r) for r in range(1, n)]
            hits = sum(_spot_value(k, spot, c) for spot in spots)
            worth = (hits + (7 - n) * stay) / 6
            out.append((worth, f"teleport {n} {word}"))
    return out


# --- a turn --------------------------------------------------------------------------------------


def _usable(k: Mind, *timings: str) -> list[dict[str, Any]]:
    """Abilities of the given timings this seat can pay for; EVIL keeps those printed on its
    sheet (their ids would name it) for when it is badly hurt."""
    sheet_ids = {a["id"] for a in k.you["sheet"]["abilities"]}
    out = []
    for ability in k.you.get("usable", []):
        if ability["timing"] not in timings or ability["cost_mind"] > k.you["mind"]:
            continue
        if k.alignment == EVIL and ability["id"] in sheet_ids and not badly_hurt(k):
            continue
        out.append(ability)
    return out


def _unknown_here(k: Mind) -> list[str]:
    return [s for s in k.here() if k.known(s) is None]


def _allies_here(k: Mind) -> list[str]:
    return [s for s in k.here() if k.known(s) == k.alignment]


def _supports(k: Mind) -> list[str]:
    """Supports before the main action: info abilities, a peek at an unknown seat here, and
    (GOOD, now and then) a conversion; the mind each costs is counted."""
    out: list[str] = []
    if not k.seeks_info():
        return out
    budget = int(k.you["mind"])
    for ability in _usable(k, "support"):
        cost = int(ability["cost_mind"])
        if cost > budget:
            continue
        if ability["effect"] == "info":
            out.append(f"use {ability['id']}")
            budget -= cost
        elif ability["effect"] == "peek":
            unknown = _unknown_here(k)
            if unknown:
                out.append(f"use {ability['id']} {k.rng.choice(unknown)}")
                budget -= cost
    targets = [s for s in k.here() if k.known(s) not in (k.alignment,)]
    if (
        k.alignment == GOOD
        and k.you["sheet"]["can_convert"]
        and targets
        and k.rng.random() < CONVERT
    ):
        for ability in _usable(k, "support"):
            if ability["effect"] == "check_bonus" and ability["cost_mind"] <= budget:
                out.append(f"use {ability['id']}")
                budget -= int(ability["cost_mind"])
                break
        out.append(f"convert {k.rng.choice(targets)}")
    return out


def _mains(k: Mind) -> list[tuple[float, str]]:
    """Every main action worth trying, with its worth."""
    c = chart(k)
    spot = k.me["spot"]
    stay = _spot_value(k, spot, c) if spot else 0.0
    out = _moves(k, c)
    out.append((stay, "pass"))
    hurt = durability_lost(k)
    # resting on a harmful card is undone by the card: get off it instead
    rest = (RECOVER if badly_hurt(k) else 0.8) if hurt and not c.hazard.get(spot, 0.0) else 0.0
    if hurt:
        out.append((stay + rest, "recover durability"))
    if k.alignment != EVIL or k.wants_company():
        allies = [s for s in k.here() if k.seats[s]["party"] is None]
        if not k.wants_company():
            allies = [s for s in allies if k.known(s) == k.alignment]
        if allies and (k.alignment == GOOD or k.wants_company()):
            out.append((stay + PARTY, "party " + " ".join(allies)))
    for ally in _allies_here(k):
        if k.seats[ally]["damage"]:
            out.append((stay + TREAT, f"treat {ally}"))
    for ability in _usable(k, "main"):
        aid, effect = ability["id"], ability["effect"]
        if effect == "info":
            out.append((stay + INFO, f"use {aid}"))
        elif effect == "peek" and k.seeks_info():
            for other in _unknown_here(k):
                out.append((stay + PEEK, f"use {aid} {other}"))
        elif effect == "recover" and hurt:
            out.append((stay + rest + 0.2, f"use {aid}"))
        elif effect == "free":
            for other, info in k.seats.items():
                if info["black_hole"] and info["alive"] and k.known(other) == k.alignment:
                    out.append((stay + FREE, f"use {aid} {other}"))
        elif effect == "to_spaceport":
            for p in range(1, rules.PLANETS + 1):
                out.append((_spot_value(k, f"P{p}-0", c) - 0.5, f"use {aid} P{p}"))
    # a long game makes everyone wander more, so that no seat keeps a loop going for ever
    noise = NOISE[k.alignment] * (1 + int(k.view["turn"]) / LONG_GAME)
    return [(worth + noise * k.rng.random(), text) for worth, text in out]


def _turn(k: Mind) -> list[str]:
    """The turn as one order (``supports; main; end``), best first; a declaration (alone: what
    follows it waits for the answers) before them."""
    declaration = declaration_order(k)
    supports = _supports(k)
    # GOOD one card short of the end may leave the turn open to declare after the square
    tail = ["end"]
    if k.alignment == GOOD and k.party_info() == 2 and k.rng.random() < OPEN_AFTER:
        tail = []
    eager = k.rng.random()  # how ready the seat is to fight a suspect this turn
    ranked = sorted(_mains(k), key=lambda item: -item[0])[:CANDIDATES]
    checks = _checks(k, converting=any(s.startswith("convert") for s in supports))
    texts = [] if declaration is None else [declaration]
    for _, main in ranked:
        ending = tail
        where = _destination(k, main)
        if tail and where is not None and fight_at(k, where, eager, FIGHT_PLANET):
            ending = ["fight"]
        for head in ([*checks, *supports], supports, checks, []):
            text = "; ".join([*head, main, *ending])
            if text not in texts:
                texts.append(text)
    texts.append("pass; end")
    return texts


def _checks(k: Mind, *, converting: bool) -> list[str]:
    """The [check] abilities the seat orders at the head of its turn (nothing fires unordered,
    and only in the check phase: the view offers them then): a recovery of what it has lost,
    a check bonus when the turn converts someone."""
    offered = {a["id"] for a in k.you.get("usable", []) if a["timing"] == "check"}
    out: list[str] = []
    budget = int(k.you["mind"])
    for ability in own_abilities(k, "check"):
        if ability.id not in offered or ability.cost_mind > budget:
            continue
        if ability.effect == "recover" and ability.target == "self":
            lost = _mind_lost(k) if ability.stat == "mind" else durability_lost(k)
            wanted = lost > 0
        else:
            wanted = ability.effect == "check_bonus" and converting
        if wanted:
            out.append(f"use {ability.id}")
            budget -= ability.cost_mind
    return out


def _mind_lost(k: Mind) -> int:
    return int(k.you["sheet"]["mind"]) - int(k.you["mind"])


def _destination(k: Mind, main: str) -> str | None:
    """Where a ``move`` or a ``pass`` leaves the piece (before the square); None for the rest
    (a teleport's landing is rolled, and only those three may be followed by ``fight``)."""
    spot = k.me["spot"]
    words = main.split()
    if spot is None or words[0] not in ("move", "pass"):
        return None
    if words[0] == "pass":
        return str(spot)
    if spot == rules.RAFNOR:
        return f"{words[1].upper()}-0"
    planet, index = rules.ring(spot) or (1, 0)
    if words[1] in ("left", "right"):
        return _ring_step(planet, index, -1 if words[1] == "left" else 1)
    return f"{words[1].upper()}-0"


def _after(k: Mind) -> str:
    spot = k.me["spot"]
    if spot is not None and fight_at(k, str(spot), k.rng.random(), FIGHT_PLANET):
        return "fight"  # refused when sent after another main action (then ``end``)
    if k.alignment == SPECIAL:
        return declaration_order(k) or "end"
    if (
        not k.me["declared"]
        and k.alignment == GOOD
        and k.party_info() >= rules.INFO_TO_END
        and k.rng.random() < DECLARE_AFTER
    ):
        return "declare"
    return declaration_order(k) or "end"


def _direction(k: Mind) -> str:
    """After a teleport sent without a direction (the roll is not in the view): the way with
    the better spots within reach."""
    c = chart(k)
    spot = k.me["spot"] or ""
    planet, index = rules.ring(spot) or (1, 0)
    worth = {
        word: sum(_spot_value(k, _ring_step(planet, index, sign * r), c) for r in range(1, 6))
        + k.rng.random()
        for word, sign in (("left", -1), ("right", 1))
    }
    return max(worth, key=lambda w: worth[w])


def _objection(k: Mind) -> str:
    """Object to every other alignment's claim, but concede it from a black hole when nobody
    this seat does not suspect can still act (waiting changes nothing then); SPECIAL, which
    plays for itself, lets a claim stand unless the claim itself defeats it."""
    if k.declared == k.alignment:
        return "accept"
    helpers = [
        s
        for s in k.seats
        if s != k.seat
        and k.standing(s)
        and k.known(s) in (None, k.alignment)
        and k.threat(s) < SUSPECT
    ]
    hopeless = not k.standing(k.seat) and (k.alignment == SPECIAL or not helpers)
    if k.alignment != SPECIAL and not hopeless:
        return "object"
    # SPECIAL's other defeat conditions do not depend on how the game ends
    claimed = [d for d in k.you["sheet"]["defeat"] if d.get("kind") == "declared"]
    return "object" if any(d.get("alignment") == k.declared for d in claimed) else "accept"


def _party_answer(k: Mind) -> str:
    proposer = k.view["active"]
    known = k.known(proposer) if proposer else None
    if k.wants_company():
        return "join"
    if k.alignment == SPECIAL:
        return "decline"
    if known is not None:
        return "join" if known == k.alignment else "decline"
    return "join" if k.rng.random() < JOIN_UNKNOWN else "decline"


def _see(k: Mind) -> str:
    allowed: Mapping[str, Any] = k.you.get("see") or {}
    of = list(allowed.get("of", []))
    n = min(int(allowed.get("n", 0)), len(of))
    if not n:
        return "see"
    return "see " + " ".join(sorted(k.rng.sample(of, n)))
