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

Part 2 (combat and the secret base). Whom a seat fights is what it suspects (:meth:`Mind.threat`):
an alignment it knows (an open or seen sheet, a conversion it was told of) or, unknown, what the
silhouette's side suggests (GOOD suspects the defenders, EVIL the invaders). On the planets an
invader now and then ends a turn with ``fight`` where a suspect stands, and EVIL silhouettes (no
piece there) rush into a combat that involves an enemy of theirs. In a combat each seat attacks a
suspect (or a found key installation: everyone but EVIL wants them down) with the card that does
the most harm, melees when it has no attack card and is healthy, keeps a maintained defence it
can afford, joins a sync against a suspect, defends with a card that stops the attack, escapes
when the attack may kill it, blocks a suspect's teleport escape, and goes on to another round
while it can still attack a suspect. In the base EVIL votes its key installations apart on the
inner spots and hunts the invaders (the nearer a key, the sooner); invaders infiltrate, explore
the face-down spots, fight every key installation they find, and teleport along a path now and
then.

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
from cogs.esper.pack import Pack
from cogs.esper.rules import EVIL, GOOD, SPECIAL, EsperState

GOOD_OR_SPECIAL = (GOOD, SPECIAL)
# chances of the rarer moves
REFUSE_LAST = 0.08  # refuse-last, when the seat may
EVIL_HIDES = 0.7  # an EVIL seat takes a GOOD/SPECIAL silhouette when its card allows
GOOD_OWN = 0.7  # a GOOD seat takes its own silhouette (else another GOOD one)
REPICK_ANY = 0.3  # a repick takes any silhouette left
CONVERT = 0.2  # a GOOD seat tries a conversion on its spot
DECLARE_EARLY = 0.03  # a GOOD seat declares on the strength of two info cards
OPEN_AFTER = 0.15  # a GOOD seat on two info leaves its turn open to declare after the square
DECLARE_AFTER = 0.4  # … and declares once the square gave it the third
JOIN_UNKNOWN = 0.4  # joining a party of a seat whose alignment is unknown
# spot values (a main action's worth is the value of where it leaves the piece)
FACE_DOWN = {GOOD: 10.0, SPECIAL: 10.0, EVIL: 2.0}
TOGO = {GOOD: 1.0, SPECIAL: 1.0, EVIL: 0.3}  # weight of the way to the next face-down card
NOISE = {GOOD: 0.6, SPECIAL: 0.8, EVIL: 3.0}
PARTY = 12.0  # above a face-down card: pooled info is what GOOD plays for
INFO = 14.0  # an info card for sure beats a face-down card
PEEK = 2.5
FREE = 8.0
TREAT = 2.0
RECOVER = 6.0  # resting when badly hurt
BLACK_HOLE = 20.0  # entering a black hole (out of play, not dead)
LETHAL = 50.0  # entering a card that would kill
LONG_GAME = 200  # normal turns after which the noise has doubled
CANDIDATES = 30  # main actions tried (best first) before falling back to the default
# part 2: combat and the base
SUSPECT = 0.5  # a seat whose threat reaches this is a suspected enemy
FIGHT_PLANET = 0.8  # an invader fights a suspect on its spot (times the suspicion)
FIGHT_BASE = 0.7  # … in the base
JOIN_ENEMY = 0.5  # an EVIL silhouette rushes into a combat that involves an enemy of its
JOIN_KEY = 0.5  # EVIL rushes to a key installation under attack
JOIN_FRIEND = 0.15  # an invader rushes in to help a known ally against a suspect
SYNC = 0.85  # a seat yet to act adds a card to an attack on a suspect
ESCAPE_RISK = 0.2  # a seat escapes when the attack kills it with at least this chance
DEFEND_WORTH = 0.25  # expected damage below which a defence card is saved
TELEPORT_BASE = 0.5  # a long way in the base is teleported now and then
DECLARE_CLEAR = 0.5  # GOOD or EVIL declares in the base once every standing one agrees
HUNT_ALL = 150  # from this normal turn EVIL hunts every suspect, not only those near its keys
KEY_NEAR = 2  # EVIL hunts first the invaders this near a key installation
SHUN = 4.0  # what a seeker pays to enter a suspect's spot (a third of it beside one)
KNOWN = 0.9  # a seeker starts a fight with a seat only when it knows it for an enemy
PARANOIA = 0.6  # an unknown standing character, once all is quiet in the base
RESTLESS = 0.3  # a hurt defender leaves its spot instead of resting (a hidden trap may be there)
ROUNDS = 12  # a combat this long is stopped (two seats that cannot hurt each other)
CHECK_WORTH = 0.25  # a card above the ESP level is played when its check passes this often
# 2D6 totals 2..12, out of 36
TOTALS = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)


class DemoAI:
    """The ``DemoPlayer`` of the spec: ``choose(state, seat, rng)`` gives an order text."""

    def choose(self, state: EsperState, seat: str, rng: Any) -> str:
        return choose(state, seat, rng)


@dataclass
class Mind:
    """What one seat knows: its view, the pack, the claimed alignment of a declaration."""

    seat: str
    view: dict[str, Any]
    pack: Pack
    declared: str | None
    rng: random.Random
    _quiet: bool | None = dataclasses.field(default=None, repr=False)

    @property
    def you(self) -> dict[str, Any]:
        you: dict[str, Any] = self.view["you"]
        return you

    @property
    def alignment(self) -> str:
        return str(self.you["alignment"])

    @property
    def seats(self) -> dict[str, dict[str, Any]]:
        seats: dict[str, dict[str, Any]] = self.view["seats"]
        return seats

    @property
    def me(self) -> dict[str, Any]:
        return self.seats[self.seat]

    def known(self, other: str) -> str | None:
        """The other seat's alignment as far as this seat knows it: what a conversion it made
        told it, else the printed alignment of a sheet it saw or that is open."""
        if other == self.seat:
            return self.alignment
        told = None
        for entry in self.you["told"]:
            if entry.get("seat") == self.seat and entry.get("target") == other:
                told = entry.get("alignment")  # the target's alignment after the attempt
            elif entry.get("seat") == other and entry.get("changed"):
                told = entry.get("alignment")  # it converted this seat to its own alignment
        if told is not None:
            return str(told)
        seen = next((s for s in self.you["seen"] if s["seat"] == other), None)
        if seen is not None:
            return self.pack.sheets[seen["sheet"]].alignment
        opened = self.seats[other]["open"]
        if opened is not None:
            return self.pack.sheets[opened].alignment
        return None

    def here(self) -> list[str]:
        """The other living characters on this seat's spot."""
        spot = self.me["spot"]
        return [
            s
            for s, info in self.seats.items()
            if s != self.seat and spot is not None and info["alive"] and info["spot"] == spot
        ]

    def party_info(self, seat: str | None = None) -> int:
        seat = seat or self.seat
        number = self.seats[seat]["party"]
        if number is None:
            return int(self.seats[seat]["info"])
        return sum(
            int(info["info"])
            for info in self.seats.values()
            if info["party"] == number and info["alive"]
        )

    def defeats(self, kind: str) -> bool:
        return any(d.get("kind") == kind for d in self.you["sheet"]["defeat"])

    def seeks_info(self) -> bool:
        return self.alignment != EVIL or self.defeats("info_below")

    def wants_company(self) -> bool:
        return self.defeats("alone") and self.me["party"] is None

    # --- part 2 ---

    @property
    def base(self) -> bool:
        return bool(self.view["stage"] == rules.BASE_STAGE)

    @property
    def combat(self) -> dict[str, Any]:
        combat: dict[str, Any] = self.view["combat"] or {}
        return combat

    @property
    def hand(self) -> list[dict[str, Any]]:
        """The seat's C cards (as the view gives them)."""
        hand: list[dict[str, Any]] = (self.you.get("combat") or {}).get("c_hand", [])
        return hand

    @property
    def power(self) -> int:
        printed = self.pack.sheets[self.you["sheet"]["id"]].power
        return int((self.you.get("combat") or {}).get("power", printed))

    @property
    def esp(self) -> int:
        return int(self.you["sheet"]["esp"])

    def sheet_of(self, other: str) -> str | None:
        """The sheet of another seat, when this seat saw it or it is open."""
        seen = next((s for s in self.you["seen"] if s["seat"] == other), None)
        if seen is not None:
            return str(seen["sheet"])
        opened = self.seats[other]["open"]
        return None if opened is None else str(opened)

    def standing(self, other: str) -> bool:
        """A character that can still act: alive, out of any black hole, and (in the base) in
        it or waiting around it. (A character that came into a base combat with no piece and
        escaped has neither: an engine slip, see the report; it never acts again.)"""
        info = self.seats[other]
        if not info["alive"] or info["black_hole"]:
            return False
        return not self.base or info["spot"] is not None or bool(info.get("outside"))

    def quiet(self) -> bool:
        """In the base, no other standing character this seat suspects: its side has won the
        fight, only its unknowns are left. For SPECIAL: the others standing all look like one
        camp (known alignments, else GOOD for invaders and EVIL for defenders): the war
        between GOOD and EVIL is over."""
        if self._quiet is None:
            others = [s for s in self.seats if s != self.seat and self.standing(s)]
            if not self.base:
                self._quiet = False
            elif self.alignment == SPECIAL:
                camps = {
                    self.known(s) or (GOOD if self.seats[s]["side"] == rules.INVADER else EVIL)
                    for s in others
                }
                self._quiet = len(camps - {SPECIAL}) <= 1
            else:
                self._quiet = not any(self.suspicion(s) >= SUSPECT for s in others)
        return self._quiet

    def threat(self, other: str) -> float:
        """The suspicion, but once all is quiet in the base and this seat has shown its sheet,
        GOOD and EVIL suspect every standing character not known to let their claim stand
        (sheets are opened then; one that stays hidden is taken for a foe), and SPECIAL every
        standing character (they stand between it and its solo claim)."""
        value = self.suspicion(other)
        if value >= SUSPECT or other == self.seat or not self.standing(other):
            return value
        if not self.quiet():
            return value
        if self.alignment == SPECIAL or (self.me["open"] is not None and not self.agreeable(other)):
            return PARANOIA
        return value

    def agreeable(self, other: str) -> bool:
        """Whether ``other`` is known to let this seat's claim stand: the same alignment, or a
        SPECIAL whose open or seen sheet is not defeated by it."""
        known = self.known(other)
        if known == self.alignment:
            return True
        sheet = self.sheet_of(other)
        if known != SPECIAL or sheet is None:
            return False
        return not any(
            d.kind == "declared" and d.alignment == self.alignment
            for d in self.pack.sheets[sheet].defeat
        )

    def suspicion(self, other: str) -> float:
        """How much this seat takes ``other`` for an enemy (0 … 1): a character its defeat
        condition wants dead, an alignment it knows, else what the silhouette's side suggests
        (EVIL hides among the invaders, GOOD never shows an EVIL silhouette)."""
        if other == self.seat:
            return 0.0
        sheet = self.sheet_of(other)
        if sheet is not None:
            for defeat in self.you["sheet"]["defeat"]:
                if defeat.get("kind") == "alive" and defeat.get("who") == sheet:
                    return 1.0
        known = self.known(other)
        mine = self.alignment
        side = self.seats[other]["side"]
        if mine == SPECIAL:
            return 0.3  # it plays alone: it fights back (see _wanted), it does not hunt
        if known is not None:
            if known == mine:
                return 0.0
            return 0.3 if known == SPECIAL else 1.0
        if mine == GOOD:
            return 0.7 if side == rules.DEFENDER else 0.2
        if mine == EVIL:
            if side == rules.INVADER:
                return 0.75 if self.base else 0.55
            return 0.1
        return 0.3

    def wants_keys_down(self) -> bool:
        """Everyone but EVIL gains when the key installations fall (GOOD wins, SPECIAL's game
        ends with it alive)."""
        return self.alignment != EVIL

    def healthy(self) -> bool:
        full = int(self.you["sheet"]["durability"])
        return int(self.you["durability"]) >= max(3, (full + 1) // 2)


def mind_of(state: EsperState, seat: str, rng: Any) -> Mind:
    """The seat's knowledge: its view, the pack and the declared alignment (said aloud)."""
    declared = state.declaration.get("alignment") if state.declaration else None
    return Mind(seat, rules.view(state, seat), state.pack, declared, rng)


def choose(state: EsperState, seat: str, rng: Any = None) -> str:
    rng = rng if rng is not None else random.Random(0)
    k = mind_of(state, seat, rng)
    step = k.view["step"]
    if step in combats.STEPS:
        texts = _combat_step(k, step)
    elif step in base_map.STEPS:
        texts = _base_step(k, step)
    elif step == rules.TURN and k.base:
        texts = _base_turn(k)
    elif step == rules.AFTER and k.base:
        texts = _base_after(k)
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
        return 2.0 * min(card.n, _hurt(k))
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
        if k.alignment == EVIL and ability["id"] in sheet_ids and not _badly_hurt(k):
            continue
        out.append(ability)
    return out


def _hurt(k: Mind) -> int:
    return int(k.you["sheet"]["durability"]) - int(k.you["durability"])


def _badly_hurt(k: Mind) -> bool:
    return _hurt(k) > 0 and k.you["durability"] <= max(2, k.you["sheet"]["durability"] // 3)


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
    hurt = _hurt(k)
    # resting on a harmful card is undone by the card: get off it instead
    rest = (RECOVER if _badly_hurt(k) else 0.8) if hurt and not c.hazard.get(spot, 0.0) else 0.0
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


def _declaration(k: Mind) -> str | None:
    """``declare-solo`` when SPECIAL may; ``declare`` when every other living character is known
    to share the seat's alignment, or (GOOD, rarely) on the strength of two info cards."""
    others = [s for s in k.seats if s != k.seat]
    if k.alignment == SPECIAL:
        down = all(not k.seats[s]["alive"] or k.seats[s]["black_hole"] for s in others)
        return "declare-solo" if down else None
    living = [s for s in others if k.seats[s]["alive"]]
    if living and all(k.known(s) == k.alignment for s in living):
        return "declare"  # again too, once those who objected are dealt with
    if k.me["declared"]:
        return None
    if k.alignment == GOOD and k.party_info() >= 2 and k.rng.random() < DECLARE_EARLY:
        return "declare"
    return None


def _turn(k: Mind) -> list[str]:
    """The turn as one order (``supports; main; end``), best first; a declaration (alone: what
    follows it waits for the answers) before them."""
    declaration = _declaration(k)
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
        if tail and where is not None and _fight_at(k, where, eager, FIGHT_PLANET):
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
    for ability in _own_abilities(k, "check"):
        if ability.id not in offered or ability.cost_mind > budget:
            continue
        if ability.effect == "recover" and ability.target == "self":
            lost = _mind_lost(k) if ability.stat == "mind" else _hurt(k)
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


def _suspects_at(k: Mind, spot: str) -> list[str]:
    """The suspected enemies standing on ``spot`` (those who could be fought there)."""
    return [
        s
        for s, info in k.seats.items()
        if s != k.seat
        and info["alive"]
        and not info["black_hole"]
        and info["spot"] == spot
        and not info.get("outside")
        and k.threat(s) >= SUSPECT
    ]


def _fight_at(k: Mind, spot: str, eager: float, chance: float, least: float = SUSPECT) -> bool:
    """Whether to end the turn with ``fight`` on ``spot``: a suspect (at least ``least``)
    stands there, the seat is healthy, and its eagerness this turn beats the chance times the
    suspicion."""
    suspects = [s for s in _suspects_at(k, spot) if k.threat(s) >= least]
    if not suspects or not k.healthy():
        return False
    return eager < chance * max(k.threat(s) for s in suspects)


def _after(k: Mind) -> str:
    spot = k.me["spot"]
    if spot is not None and _fight_at(k, str(spot), k.rng.random(), FIGHT_PLANET):
        return "fight"  # refused when sent after another main action (then ``end``)
    if k.alignment == SPECIAL:
        return _declaration(k) or "end"
    if (
        not k.me["declared"]
        and k.alignment == GOOD
        and k.party_info() >= rules.INFO_TO_END
        and k.rng.random() < DECLARE_AFTER
    ):
        return "declare"
    return _declaration(k) or "end"


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


# --- combat --------------------------------------------------------------------------------------


def _combat_step(k: Mind, step: str) -> list[str]:
    if step == combats.ENTRY:
        return [_entry(k)]
    if step == combats.PRECOMBAT:
        return _precombat(k)
    if step == combats.CTURN:
        return _cturn(k)
    if step == combats.SYNC:
        return [_sync(k)]
    if step == combats.DEFEND:
        return _defend(k)
    if step == combats.BLOCK:
        return [_block(k)]
    return [_round_end(k)]


def _column(firepower: int, against: int) -> int:
    """The damage column (0 is 1:2, N is N:1), as the engine reckons it."""
    return combats.column_index(firepower, against)


def _expected(k: Mind, column: int) -> float:
    rows = k.pack.damage
    return sum(w * rows[t][column] for t, w in enumerate(TOTALS)) / 36


def _kills(k: Mind, column: int, left: int) -> float:
    """The chance that a roll in ``column`` takes more than ``left`` durability."""
    rows = k.pack.damage
    return sum(w for t, w in enumerate(TOTALS) if rows[t][column] > left) / 36


def _check_chance(level: int) -> float:
    """The chance of an ESP level check (2D6 ≤ level)."""
    return sum(w for t, w in enumerate(TOTALS) if t + 2 <= level) / 36


def _left(k: Mind, target: str) -> int:
    """What a target has left to lose: a key installation's durability (public), the seat's
    own, a known sheet's less the public damage, else the pack's average less the damage."""
    keys = (k.view["base"] or {}).get("keys", {})
    if target in keys:
        key = keys[target]
        return max(0, k.pack.keys[key["id"]].durability - int(key["damage"]))
    if target == k.seat:
        return max(0, int(k.you["durability"]))
    sheet = k.sheet_of(target)
    if sheet is not None:
        full = k.pack.sheets[sheet].durability
    else:
        sheets = list(k.pack.sheets.values())
        full = round(sum(s.durability for s in sheets) / max(len(sheets), 1))
    return max(1, full - int(k.seats[target]["damage"]))


def _ability(k: Mind, ability_id: str) -> Any:
    """One of the seat's own abilities (its sheet's or a deck card's) as the pack prints it."""
    if ability_id in k.pack.abilities:
        return k.pack.abilities[ability_id]
    sheet = k.pack.sheets[k.you["sheet"]["id"]]
    return next((a for a in sheet.abilities if a.id == ability_id), None)


def _own_abilities(k: Mind, *timings: str) -> list[Any]:
    """The seat's abilities of these timings it can pay for; EVIL keeps those printed on its
    sheet (their ids would name it) for when it is badly hurt or in the base, where the war is
    open."""
    printed = [a["id"] for a in k.you["sheet"]["abilities"]]
    ids = [*printed, *(a["id"] for a in k.you["hand"])]
    out = []
    for ability_id in dict.fromkeys(ids):
        ability = _ability(k, ability_id)
        if ability is None or ability.timing not in timings:
            continue
        if ability.cost_mind > int(k.you["mind"]) or ability.cost_power > k.power:
            continue
        shown = _badly_hurt(k) or k.base or k.me["open"] is not None
        if k.alignment == EVIL and ability_id in printed and not shown:
            continue
        out.append(ability)
    return out


def _wanted(k: Mind, target: str) -> float:
    """How much the seat wants ``target`` hurt: a key installation (all but EVIL), else the
    suspicion."""
    if target == k.combat.get("key"):
        return 1.0 if k.wants_keys_down() else 0.0
    if k.alignment == SPECIAL and target in k.combat.get("seats", []):
        # it fights back: whoever started the fight when the view tells, else anyone in it
        by = k.combat.get("by")
        if by is None or by == target:
            return max(k.threat(target), PARANOIA)
    return k.threat(target)


def _foes(k: Mind) -> list[str]:
    """The combat's targets this seat would attack, most wanted first."""
    c = k.combat
    targets = [s for s in c.get("seats", []) if s != k.seat]
    if c.get("key"):
        targets.append(str(c["key"]))
    foes = [t for t in targets if _wanted(k, t) >= SUSPECT]
    return sorted(foes, key=lambda t: (-_wanted(k, t), _left(k, t)))


def _harm(k: Mind, params: Mapping[str, Any], target: str) -> float:
    """What an attack (a C card's or an ability's parameters) is worth against ``target``:
    expected damage plus the chance to kill, less the chance a check above the seat's ESP level
    fails, more for levels that are hard to defend."""
    left = _left(k, target)
    if params.get("column") is not None:
        column = int(params["column"])
    else:
        column = _column(int(params.get("firepower") or 0), left)
    level = int(params.get("level", 0))
    works = 1.0 if level <= k.esp else _check_chance(k.esp)
    hard = 1.5 if params.get("no_defence") else 1 + 0.1 * level
    if params.get("attribute") == "own":
        hard += 0.3
    return works * hard * (_expected(k, column) + 4 * _kills(k, column, left))


def _stopped(k: Mind, params: Mapping[str, Any], target: str) -> bool:
    """Whether the target's maintained defence (public) stops this attack as it stands."""
    held = k.combat.get("maintained", {}).get(target)
    if held is None:
        return False
    return (
        int(params.get("level", 1)) <= int(held["level"])
        and params.get("attribute") in held["blocks"]
    )


def _attacks(k: Mind, target: str) -> list[tuple[float, str]]:
    """Every attack on ``target`` the seat could make that its maintained defence does not
    stop, with its worth."""
    out = []
    for card in k.hand:
        if card["kind"] == "attack":
            params = k.pack.ccards[card["id"]].params
            if not _stopped(k, params, target):
                out.append((_harm(k, params, target), f"card {card['id']} {target}"))
    for ability in _own_abilities(k, "main", "pre-emptive"):
        if ability.effect == "attack" and not _stopped(k, ability.params, target):
            out.append((_harm(k, ability.params, target) + 0.5, f"use {ability.id} {target}"))
    return out


MELEE = {"level": 1, "attribute": "melee"}  # a melee attack, as a maintained defence sees it


def _can_hurt(k: Mind) -> bool:
    """Whether the seat has an attack some foe's maintained defence does not stop (a card, an
    ability, or melee when healthy)."""
    foes = _foes(k)
    if any(_attacks(k, target) for target in foes):
        return True
    return k.healthy() and any(not _stopped(k, MELEE, target) for target in foes)


def _spare(k: Mind) -> str | None:
    """The card the seat misses least (to throw away for a new one): a special that does
    nothing here, else the lowest defence or escape."""
    worth = {"special": 0, "escape": 1, "defence": 2, "attack": 9}
    cards = sorted(
        k.hand,
        key=lambda card: (
            worth.get(card["kind"], 5) - (1 if card["effect"] == "there_bonus" else 0),
            int(card["level"]),
        ),
    )
    if not cards or cards[0]["kind"] == "attack":
        return None
    return str(cards[0]["id"])


def _weapon(k: Mind) -> str | None:
    """The weapon with the biggest [格闘:X] the seat may name (a C card in hand or an ability)."""
    best: tuple[int, str] | None = None
    for card in k.hand:
        c = k.pack.ccards[card["id"]]
        if c.kind == "special" and c.effect == "melee":
            best = max(best or (-1, ""), (int(c.params.get("x", 0)), c.id))
    for ability in _own_abilities(k, "melee"):
        if ability.params.get("weapon"):
            best = max(best or (-1, ""), (int(ability.params.get("x", 0)), ability.id))
    return None if best is None else best[1]


def _direction_away(k: Mind) -> str:
    """An escape's direction: round the ring on a planet; in the base the way with most room."""
    spot = k.me["spot"]
    xy = base_map.coords(str(spot)) if k.base and spot else None
    if xy is None:
        return k.rng.choice(("left", "right"))
    x, y = xy
    room = {"left": x, "right": 5 - x, "up": y, "down": 5 - y}
    best = max(room.values())
    return k.rng.choice([d for d, n in room.items() if n == best])


def _cturn(k: Mind) -> list[str]:
    """``[keep|drop;] main``: the best attack on the most wanted target, else melee when
    healthy, else (badly hurt) a recovery or an escape, else pass."""
    c = k.combat
    head = []
    held = c.get("maintained", {}).get(k.seat)
    if held is not None:
        head = ["keep" if _keep(k, held) else "drop"]
    mains: list[tuple[float, str]] = []
    foes = _foes(k)
    for target in foes:
        for worth, text in _attacks(k, target):
            mains.append((worth * _wanted(k, target), text))
    mains.sort(key=lambda item: -item[0])
    texts = [text for _, text in mains]
    weapon = _weapon(k)
    if foes and k.healthy() and not texts:
        for target in foes:
            if not _stopped(k, MELEE, target):
                texts.append(f"melee {target}" + (f" +{weapon}" if weapon else ""))
                texts.append(f"melee {target}")
                break
    if _badly_hurt(k) and any(f != c.get("key") for f in foes):
        # a seat that may be killed first mends, else leaves (a key installation never hits)
        first = [
            f"card {card['id']}"
            for card in k.hand
            if card["kind"] == "special" and card["effect"] == "recover"
        ]
        escapes = [card for card in k.hand if card["kind"] == "escape" and _playable(k, card)]
        if escapes:
            card = min(escapes, key=lambda e: (bool(e["teleport"]), -int(e["level"])))
            first.append(f"card {card['id']} {_direction_away(k)}")
        texts = first + texts
    elif _hurt(k) >= 2:
        texts += [
            f"card {card['id']}"
            for card in k.hand
            if card["kind"] == "special" and card["effect"] == "recover"
        ]
    spare = _spare(k)
    limit = int((k.you.get("combat") or {}).get("hand_limit", combats.HAND))
    if foes and not texts and spare is not None and len(k.hand) >= limit:
        texts.append(f"discard {spare}")  # a full hand with nothing to attack with: cycle it
    texts.append("pass")
    return ["; ".join([*head, text]) for text in texts]


def _keep(k: Mind, held: Mapping[str, Any]) -> bool:
    """Keep a maintained defence that costs nothing, or one the seat can afford that stops more
    than one attribute (or when it holds no other defence card)."""
    upkeep = int(held.get("upkeep", 0))
    if upkeep == 0:
        return True
    if upkeep > k.power - 1:
        return False
    others = [card for card in k.hand if card["kind"] == "defence"]
    return len(held.get("blocks", [])) > 1 or not others


def _entry(k: Mind) -> str:
    """Rush in: EVIL to a key installation under attack, an EVIL silhouette to a combat with an
    enemy of its, an invader (rarely) to help a known ally against a suspect."""
    c = k.combat
    if _badly_hurt(k):
        return "decline"
    seats = [s for s in c.get("seats", []) if s != k.seat]
    suspects = [s for s in seats if k.threat(s) >= SUSPECT]
    allies = [s for s in seats if k.known(s) == k.alignment]
    draw = k.rng.random()
    if k.alignment == EVIL and c.get("spot") in (k.you.get("keys") or {}):
        return "join" if draw < JOIN_KEY else "decline"
    if k.me["side"] == rules.DEFENDER and k.alignment == EVIL and suspects:
        return "join" if draw < JOIN_ENEMY else "decline"
    if allies and suspects and k.healthy():
        return "join" if draw < JOIN_FRIEND else "decline"
    return "decline"


def _precombat(k: Mind) -> list[str]:
    """Every [戦闘前] ability the seat has, then nothing."""
    texts = [f"use {a.id}" for a in _own_abilities(k, "pre-combat")]
    if len(texts) > 1:
        texts.insert(0, "; ".join(texts))
    return [*texts, "pass"]


def _sync(k: Mind) -> str:
    """Add the strongest allowed card to an attack on a suspect by someone not suspected."""
    attack = k.combat.get("attack") or {}
    cards = list((k.you.get("combat") or {}).get("sync", []))
    target, by = attack.get("target"), attack.get("by")
    if not cards or target is None or by is None:
        return "pass"
    if _wanted(k, str(target)) < SUSPECT or k.threat(str(by)) >= SUSPECT:
        return "pass"
    if k.rng.random() >= SYNC:
        return "pass"
    best = max(cards, key=lambda c: (k.pack.ccards[c].firepower or 0, k.pack.ccards[c].level))
    return f"sync {best}"


def _playable(k: Mind, card: Mapping[str, Any]) -> bool:
    """A card at most the seat's ESP level, or one whose check passes often enough."""
    level = int(card["level"])
    return level <= k.esp or _check_chance(k.esp) >= CHECK_WORTH


def _incoming(k: Mind, attack: Mapping[str, Any]) -> int:
    """The damage column of the attack on this seat (its true durability declared)."""
    mine = max(0, int(k.you["durability"]))
    column = attack.get("column")
    if column is not None:
        return column if isinstance(column, int) else combats.COLUMNS.index(str(column))
    if attack.get("kind") == "melee":
        henchmen = int(k.combat.get("henchmen", {}).get(k.seat, 0))
        return _column(int(attack.get("firepower") or 0), mine + henchmen)
    return _column(int(attack.get("firepower") or 0), mine)


def _no_defence(k: Mind, attack: Mapping[str, Any]) -> bool:
    source = str(attack.get("card") or "")
    if source in k.pack.ccards:
        return k.pack.ccards[source].no_defence
    try:
        card = k.pack.card(source)
    except KeyError:
        return False
    return bool(getattr(card, "params", {}).get("no_defence"))


def _defend(k: Mind) -> list[str]:
    """A defence card that stops the attack (the cheapest that works), with the seat's
    defence abilities as further tries; else an escape when the attack may kill or the seat is
    badly hurt; else nothing. Always the true durability; a counter in melee when healthy."""
    c = k.combat
    attack = c.get("attack") or {}
    level, attribute = int(attack.get("level", 0)), attack.get("attribute")
    mine = max(0, int(k.you["durability"]))
    column = _incoming(k, attack)
    danger = _kills(k, column, mine)
    expected = _expected(k, column)
    tail = [f"durability {mine}"]
    if attack.get("kind") == "melee" and k.healthy():
        weapon = _weapon(k)
        tail.append("counter" + (f" +{weapon}" if weapon else ""))
    free = k.seat not in c.get("maintained", {}) and not _no_defence(k, attack)
    texts: list[str] = []
    if free and (expected >= DEFEND_WORTH or danger > 0):
        cards = [
            card
            for card in k.hand
            if card["kind"] == "defence"
            and int(card["level"]) >= level
            and attribute in card["blocks"]
            and _playable(k, card)
        ]
        cards.sort(key=lambda card: (int(card["level"]) > k.esp, int(card["level"])))
        uses = [
            f"use {a.id}"
            for a in _own_abilities(k, "defence")
            if a.effect == "defend"
            and int(a.params.get("level", 0)) >= level
            and attribute in a.params.get("blocks", [])
        ]
        for card in cards[:2]:
            texts.append("; ".join([f"defend {card['id']}", *uses, *tail]))
        for use in uses:
            texts.append("; ".join([use, *tail]))
        if danger >= ESCAPE_RISK or _badly_hurt(k):
            escapes = [
                card
                for card in k.hand
                if card["kind"] == "escape" and int(card["level"]) >= level and _playable(k, card)
            ]
            escapes.sort(key=lambda card: (bool(card["teleport"]), int(card["level"])))
            way = _direction_away(k)
            for card in escapes[:2]:
                texts.append("; ".join([f"escape {card['id']} {way}", *tail]))
            for ability in _own_abilities(k, "defence"):
                if ability.effect == "escape" and int(ability.params.get("level", 0)) >= level:
                    texts.append("; ".join([f"use {ability.id}", *tail]))
    texts.append("; ".join(tail))
    texts.append(tail[0])
    return texts


def _block(k: Mind) -> str:
    """Block a suspect's teleport escape with a card above its level (the view's escape level
    when it gives one, else the attack's level the escape had to reach)."""
    c = k.combat
    cards = list((k.you.get("combat") or {}).get("block", []))
    attack = c.get("attack")
    escape = c.get("escape") or {}
    escaper = escape.get("seat") or (attack or {}).get("target") or c.get("current")
    if not cards or escaper is None or k.threat(str(escaper)) < SUSPECT:
        return "pass"
    level = escape.get("level")
    if level is None:
        level = int(attack["level"]) if attack else 2
    best = max(cards, key=lambda card_id: k.pack.ccards[card_id].level)
    if k.pack.ccards[best].level > int(level):
        return f"block {best}"
    return "pass"


def _round_end(k: Mind) -> str:
    """Go on while the seat can still attack a standing suspect (a card, or melee when
    healthy) and is not badly hurt; a full hand throws away a card that cannot help here."""
    fresh = int(k.combat.get("round", 1)) < ROUNDS
    going = fresh and _can_hurt(k) and not _badly_hurt(k)
    text = "continue" if going else "stop"
    limit = int((k.you.get("combat") or {}).get("hand_limit", combats.HAND))
    spare = _spare(k)
    if len(k.hand) >= limit and spare is not None:
        text += f"; discard {spare}"
    return text


# --- the secret base -----------------------------------------------------------------------------


def _base_step(k: Mind, step: str) -> list[str]:
    if step == base_map.KEYS:
        return [_keys_vote(k), "pass"]
    if step == base_map.PLACE:
        return [f"place {spot}" for spot in _entry_spots(k)]
    return _path(k)


def _distance(a: str, b: str) -> int:
    xa, ya = base_map.coords(a) or (0, 0)
    xb, yb = base_map.coords(b) or (0, 0)
    return abs(xa - xb) + abs(ya - yb)


def _keys_vote(k: Mind) -> str:
    """EVIL spreads its key installations over the inner spots (the invaders come in on the
    outer ring); a GOOD defender votes them onto the outer ring; SPECIAL stays out of it."""
    n = k.pack.keys_placed
    if k.alignment == EVIL:
        pool = [s for s in base_map.spots() if not base_map.outer(s)]
    elif k.alignment == GOOD:
        pool = base_map.outer_spots()
    else:
        return "pass"
    k.rng.shuffle(pool)
    chosen: list[str] = []
    for apart in (3, 2, 0):
        for spot in pool:
            far = all(_distance(spot, other) >= apart for other in chosen)
            if len(chosen) < n and spot not in chosen and far:
                chosen.append(spot)
    return "keys " + " ".join(chosen)


@dataclass(frozen=True)
class BaseChart:
    """The base as this seat values it: what entering each spot costs beyond the step
    (``hazard``: a face-up card that hurts the seat, the likely harm of a face-down one), the
    spots it heads for (``goals``) and the cheapest way from each spot to one (``togo``)."""

    hazard: Mapping[str, float]
    goals: frozenset[str]
    togo: Mapping[str, float]
    harmful: frozenset[str] = frozenset()  # spots whose card is known to hurt the seat

    def known_safe(self, spot: str) -> bool:
        return spot not in self.harmful

    def enter(self, spot: str) -> float:
        """Entering ``spot`` and going on from it."""
        return 1 + self.hazard[spot] + self.togo[spot]


def _base_harm(k: Mind, card_id: str, evil_side: bool) -> float:
    """What a base card does to this seat each time it fires (a cost, 0 when harmless)."""
    card = k.pack.base_cards[card_id]
    if evil_side and not card.evil:
        return 0.0
    if card.effect == "damage":
        return LETHAL if card.n >= int(k.you["durability"]) else 3.0 * card.n
    if card.effect == "black_hole":
        return BLACK_HOLE
    return 0.0


def _role(k: Mind) -> str:
    """``seeker`` (an invader that wants the key installations down: it explores and fights
    them), or ``hunter`` (EVIL and the defenders, and a seeker left with nothing to find: they
    go for the suspects)."""
    if k.me["side"] == rules.INVADER and k.wants_keys_down() and _findable(k):
        return "seeker"
    return "hunter"


def _findable(k: Mind) -> bool:
    """A face-down card is left that holds nobody in a black hole, or a found key
    installation not on a face-up black hole."""
    up: Mapping[str, str] = (k.view["base"] or {}).get("up", {})
    held = {info["spot"] for info in k.seats.values() if info["alive"] and info["black_hole"]}
    if any(s not in up and s not in held for s in base_map.spots()):
        return True
    return any(k.pack.base_cards[up[key]].effect != "black_hole" for key in _live_keys(k))


def _occupied(k: Mind, spot: str) -> bool:
    return any(
        s != k.seat and info["alive"] and info["spot"] == spot and not info.get("outside")
        for s, info in k.seats.items()
    )


def _live_keys(k: Mind) -> list[str]:
    """Found key installations still standing (public)."""
    keys = (k.view["base"] or {}).get("keys", {})
    return [spot for spot, key in keys.items() if not key["destroyed"]]


def _my_keys(k: Mind) -> list[str]:
    """The key installations EVIL silhouettes know of, but those destroyed."""
    known = (k.view["base"] or {}).get("keys", {})
    mine = k.you.get("keys") or {}
    return [spot for spot in mine if not known.get(spot, {}).get("destroyed")]


def base_chart(k: Mind) -> BaseChart:
    base = k.view["base"] or {}
    up: Mapping[str, str] = base.get("up", {})
    spent = set(base.get("spent", []))
    evil_side = k.me["side"] == rules.DEFENDER
    deck = k.pack.base_deck()
    unknown = sum(_base_harm(k, c, evil_side) for c in deck) / max(len(deck), 1)
    hazard: dict[str, float] = {}
    harmful = set()
    for spot in base_map.spots():
        if spot in up:
            hazard[spot] = 0.0 if spot in spent else _base_harm(k, up[spot], evil_side)
            if hazard[spot]:
                harmful.add(spot)
        else:
            hazard[spot] = unknown
    for s, info in k.seats.items():
        # a character held in a black hole on a face-down card: that card holds anyone (only
        # a card that also works on EVIL silhouettes can hold one face down)
        spot = info["spot"]
        if s != k.seat and info["alive"] and info["black_hole"] and spot in hazard:
            hazard[spot] = hazard[spot] if spot in up else BLACK_HOLE
    if _role(k) == "seeker":
        # a seeker walks round the suspects (it fights key installations, not hunters)
        for spot in _suspect_spots(k):
            hazard[spot] += SHUN
            for n in base_map.neighbours(spot):
                hazard[n] += SHUN / 3
    goals = _goals(k, up, hazard)
    togo = {spot: (0.0 if spot in goals else math.inf) for spot in base_map.spots()}
    changed = bool(goals)
    while changed:
        changed = False
        for spot in base_map.spots():
            if spot in goals:
                continue
            best = min(1 + hazard[n] + togo[n] for n in base_map.neighbours(spot))
            if best < togo[spot]:
                togo[spot], changed = best, True
    if not goals:
        togo = dict.fromkeys(base_map.spots(), 0.0)
    return BaseChart(hazard, frozenset(goals), togo, frozenset(harmful))


def _suspect_spots(k: Mind) -> set[str]:
    """Where the suspects inside the base stand."""
    return {
        str(info["spot"])
        for s, info in k.seats.items()
        if s != k.seat
        and info["alive"]
        and not info["black_hole"]
        and info["spot"] is not None
        and not info.get("outside")
        and k.threat(s) >= SUSPECT
    }


def _goals(k: Mind, up: Mapping[str, str], hazard: Mapping[str, float]) -> set[str]:
    """A seeker's: the found key installations, else the face-down cards. EVIL's: the suspects
    near a key installation, else a key installation no other defender guards (the one it
    stands on), else any suspect. Another hunter's: found key installations (GOOD wants them
    down), else the suspects."""
    keys = [key for key in _live_keys(k) if hazard[key] < BLACK_HOLE]  # reachable
    suspects = _suspect_spots(k)
    if _role(k) == "seeker":
        down = {s for s in base_map.spots() if s not in up and hazard[s] < BLACK_HOLE}
        return set(keys) or down
    if k.alignment != EVIL:
        return set(keys) if keys and k.wants_keys_down() else suspects
    mine = _my_keys(k)
    near = {s for s in suspects if any(_distance(s, key) <= KEY_NEAR for key in mine)}
    if near:
        return near
    if int(k.view["turn"]) >= HUNT_ALL and suspects:
        return suspects
    if k.me["spot"] in mine:
        return {str(k.me["spot"])}
    guarded = {
        str(info["spot"])
        for s, info in k.seats.items()
        if s != k.seat and info["alive"] and info["side"] == rules.DEFENDER
    }
    free = [key for key in mine if key not in guarded]
    return set(free) or suspects


def _fight_tail(k: Mind, spot: str, eager: float, c: BaseChart) -> list[str]:
    """How a turn ending on ``spot`` ends: ``fight`` at a found key installation (a seeker) or
    a suspect; after a step onto a face-down card, ``fight`` when nobody else stands there (it
    starts only if the card hides a key installation), else the ``after`` step decides."""
    seeker = _role(k) == "seeker"
    if seeker and spot in _live_keys(k) and not _badly_hurt(k):
        return ["fight"]
    if _fight_at(k, spot, eager, FIGHT_BASE, KNOWN if seeker else SUSPECT):
        return ["fight"]
    face_down = spot not in (k.view["base"] or {}).get("up", {})
    if _role(k) == "seeker" and face_down:
        return [] if _occupied(k, spot) else ["fight"]
    return ["end"]


def _route(c: BaseChart, start: str, longest: int) -> list[str]:
    """The cheapest way on from ``start``, a step at a time and never straight back, until it
    reaches a goal or ``longest`` steps."""
    path: list[str] = []
    previous, here = None, start
    while len(path) < longest:
        options = [n for n in base_map.neighbours(here) if n != previous]
        nxt = min(options, key=lambda n: (c.enter(n) if n not in c.goals else 1 + c.hazard[n], n))
        path.append(nxt)
        previous, here = here, nxt
        if nxt in c.goals:
            break
    return path


def _entry_spots(k: Mind) -> list[str]:
    """Outer spots to come in on, best first: near what the seat heads for, apart from the
    others, a little at random."""
    c = base_chart(k)
    worth = {
        spot: -c.togo[spot]
        - c.hazard[spot]
        - (2.0 if _occupied(k, spot) else 0.0)
        + k.rng.random() * 2
        for spot in base_map.outer_spots()
    }
    return sorted(worth, key=lambda s: -worth[s])[:8]


def _base_turn(k: Mind) -> list[str]:
    """A normal turn in the base: infiltrate from outside; inside, head for the goals (found key
    installations or face-down cards for a seeker, the suspects for a hunter), fight there, and
    teleport along the way now and then; rest when badly hurt."""
    declaration = _declaration(k) or _standoff(k)
    texts: list[str] = [declaration] if declaration else []
    show = _show(k)
    if k.me.get("outside") or k.me["spot"] is None:
        waits = ["recover durability; end"] if _badly_hurt(k) and k.rng.random() < 0.5 else []
        waits += [f"infiltrate {spot}; end" for spot in _entry_spots(k)[:3]]
        waits += ["infiltrate; end", "pass; end"]
        return [*texts, *(f"{s}; {t}" for s in show for t in waits), *waits]
    spot = str(k.me["spot"])
    c = base_chart(k)
    eager = k.rng.random()
    options: list[tuple[float, str]] = []
    stay = -c.togo[spot] - c.hazard[spot] - 0.5
    here_tail = _fight_tail(k, spot, eager, c)
    if here_tail == ["fight"] and not k.me["black_hole"]:
        stay += 20.0  # the goal is here: fight it
    elif here_tail == []:
        here_tail = ["end"]
    options.append((stay, "; ".join(["pass", *here_tail])))
    for n in base_map.neighbours(spot):
        worth = -(1 + c.hazard[n] + c.togo[n])
        options.append((worth, "; ".join([f"move {n}", *_fight_tail(k, n, eager, c)])))
    if _hurt(k):
        # resting beats waiting (the card here fires either way), but on a card known to hurt
        # it is undone: better get off it
        rest = (RECOVER if _badly_hurt(k) else 0.8) if c.known_safe(spot) else 0.3
        fight = 20.0 if here_tail == ["fight"] else 0.0
        unseen = spot not in (k.view["base"] or {}).get("up", {})
        if k.me["side"] == rules.DEFENDER and unseen and k.rng.random() < RESTLESS:
            # the card under a defender never shows: it may be what keeps hurting it
            rest, stay = 0.0, stay - RECOVER
            options[0] = (stay, options[0][1])
        options.append((stay + rest - fight, "recover durability; end"))
    if k.esp >= 5 and c.togo[spot] >= 3 and k.rng.random() < TELEPORT_BASE:
        route = _route(c, spot, k.esp - 1)
        reach = min(k.esp, len(route) + 1)
        if reach >= 5:  # a roll below it goes that far along the way: worth a step or more
            best = max(worth for worth, _ in options)
            options.append((best + 0.5, f"teleport {reach} {'>'.join(route[: reach - 1])}"))
    noise = NOISE[GOOD] * (1 + int(k.view["turn"]) / LONG_GAME)
    ranked = sorted(((w + noise * k.rng.random(), t) for w, t in options), key=lambda i: -i[0])
    mains = [text for _, text in ranked] + ["pass; end"]
    texts += [f"{s}; {t}" for s in show for t in mains]
    return [*texts, *mains]


def _standoff(k: Mind) -> str | None:
    """In the base GOOD and EVIL claim their victory, now and then, once all is quiet and every
    standing character is known to let the claim stand (those in black holes concede)."""
    if not k.base or k.alignment == SPECIAL or k.me["declared"] or not k.quiet():
        return None
    standing = [s for s in k.seats if s != k.seat and k.standing(s)]
    if not all(k.agreeable(s) for s in standing) or k.rng.random() >= DECLARE_CLEAR:
        return None
    return "declare"


def _show(k: Mind) -> list[str]:
    """Once all is quiet in the base, hiding is over: the sheet is opened, so that the seat's
    allies know it (and a seat that stays hidden is taken for a foe)."""
    return ["open"] if k.quiet() and k.me["open"] is None else []


def _base_after(k: Mind) -> list[str]:
    """After the square (a teleport's landing, a step onto a face-down card among others):
    fight a key installation found here or a suspect, else end."""
    spot = k.me["spot"]
    if spot is not None:
        seeker = _role(k) == "seeker"
        if seeker and spot in _live_keys(k) and not _badly_hurt(k):
            return ["fight", "end"]
        least = KNOWN if seeker else SUSPECT
        if _fight_at(k, str(spot), k.rng.random(), FIGHT_BASE, least):
            return ["fight", "end"]
    declaration = _declaration(k) or _standoff(k)
    return [declaration, "end"] if declaration else ["end"]


def _path(k: Mind) -> list[str]:
    """A teleport's path when it was not given (the roll decides its length): the way on to
    the goals, every length (only the rolled one is an order)."""
    spot = k.me["spot"]
    if spot is None:
        return []
    route = _route(base_chart(k), str(spot), 6)
    while len(route) < 6:  # on past the goal, never straight back
        previous = route[-2] if len(route) > 1 else str(spot)
        options = [n for n in base_map.neighbours(route[-1]) if n != previous]
        route.append(options[0])
    return [">".join(route[:n]) for n in range(1, 7)]
