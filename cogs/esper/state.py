"""Esper war: the engine's types, its words and the small reads every part of it makes
(``../shared/rules/esper.md``).

:class:`EsperState` (its seats' :class:`SeatState`, the :class:`Combat` in progress), an order's
:class:`Action` and :class:`EsperOrder`, the :class:`Streams` a step rolls on; the steps, stages,
sides and refusal keys; and reads such as whose sheet a seat holds, which side its silhouette
shows, who lives, where a spot lies. Every other module of the engine builds on this one and on
no other's internals (:mod:`cogs.esper.rules` is the entry point over them all).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bot.dice import NO_SECRET, Dice
from cogs.esper.pack import Ability, Pack, Sheet

SEATS: tuple[str, ...] = tuple("ABCDEFGHIJK")
PLAYER_COUNTS: tuple[int, ...] = tuple(range(5, 12))
GOOD, EVIL, SPECIAL = "GOOD", "EVIL", "SPECIAL"
INVADER, DEFENDER = "invader", "defender"
EVIL_SURVIVAL_TURNS = 1000
INFO_TO_END = 3  # a character or party holding this many info cards ends the planet stage
PLANETS = 6
RING = 7  # spots per planet: the spaceport Pn-0, then Pn-1 … Pn-6
RAFNOR = "R"
SPENT = "x"

# Steps.
DEAL, SILHOUETTE, REPICK, BALANCE, BALANCE_CARD, START = (
    "deal",
    "silhouette",
    "repick",
    "balance",
    "balance_card",
    "start",
)
TURN, DIRECTION, PARTY, AFTER, OBJECTION, SEE, OVER = (
    "turn",
    "direction",
    "party",
    "after",
    "objection",
    "see",
    "over",
)
SETUP_STEPS = (DEAL, SILHOUETTE, REPICK, BALANCE, BALANCE_CARD, START)
TURN_STEPS = (TURN, DIRECTION, PARTY, AFTER)

PLANET_STAGE, BASE_STAGE = "planets", "base"

# Why a game ended.
DECLARED, SOLO, STAGE_END, ALL_DOWN, EVIL_SURVIVAL, ADJUDICATED, TURN_LIMIT, KEYS_DESTROYED = (
    "declared",
    "solo",
    "stage_end",
    "all_down",
    "evil_survival",
    "adjudicated",
    "turn_limit",
    "keys_destroyed",
)

SUITS = "♠♥♦♣"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Refusals (message keys, cogs/esper/locales/esper.*.json).
R_EMPTY = "esper.reject.empty"
R_UNKNOWN = "esper.reject.unknown"
R_NOT_NOW = "esper.reject.not_now"
R_FINISHED = "esper.reject.finished"
R_REFUSE_USED = "esper.reject.refuse_used"
R_REFUSE_SEASON = "esper.reject.refuse_season"
R_REFUSE_LAST = "esper.reject.refuse_last"
R_SILHOUETTE = "esper.reject.silhouette"
R_ACE = "esper.reject.ace"
R_TEN = "esper.reject.ten"
R_TAKEN = "esper.reject.taken"
R_KEEP_CARD = "esper.reject.keep_card"
R_SPOT = "esper.reject.spot"
R_RUNNER = "esper.reject.runner"
R_PLANET = "esper.reject.planet"
R_SEAT = "esper.reject.seat"
R_SAME_SPOT = "esper.reject.same_spot"
R_SELF = "esper.reject.self"
R_DEAD = "esper.reject.dead"
R_TWO_MAINS = "esper.reject.two_mains"
R_AFTER_DECLARE = "esper.reject.after_declare"
R_NO_MAIN = "esper.reject.no_main"
R_MOVE = "esper.reject.move"
R_TELEPORT = "esper.reject.teleport"
R_CONVERT_SPECIAL = "esper.reject.convert_special"
R_CONVERT_TRIED = "esper.reject.convert_tried"
R_ABILITY = "esper.reject.ability"
R_TIMING = "esper.reject.timing"
R_CHECK_FIRST = "esper.reject.check_first"  # a [check] ability goes first in the turn's order
R_COST = "esper.reject.cost"
R_USED = "esper.reject.used"
R_TARGET = "esper.reject.target"
R_PARTY = "esper.reject.party"
R_DECLARED = "esper.reject.declared"
R_SOLO = "esper.reject.solo"
R_SPECIAL_DECLARE = "esper.reject.special_declare"
R_SEE = "esper.reject.see"
R_FULL = "esper.reject.full"
R_FIGHT = "esper.reject.fight"  # only after a move, a teleport or a pass
R_FIGHT_ALONE = "esper.reject.fight_alone"  # nobody to fight on the spot
E_OPTION = "esper.error.option"
E_PLAYERS = "esper.error.players"


# --- state ---------------------------------------------------------------------------------------


_ATOMIC = frozenset({str, int, bool, float, type(None)})


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a state's value: JSON's own types copied directly (the immutable ones
    kept, without a call for each), anything else (the pack, a seat, the combat) by
    ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMIC else _copied(v, memo) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMIC else _copied(v, memo) for v in value]
    if kind in _ATOMIC:
        return value
    return copy.deepcopy(value, memo)


class JsonCopied:
    """``copy.deepcopy`` of a state, a seat or a combat, several times faster than its generic
    way: every step copies the whole state (a trial of each order sent, a step opened and
    closed), and an AI game spent some 40% of its time in ``copy.deepcopy``. Their values are
    JSON's (what :func:`cogs.esper.rules.to_json` stores) but for the pack, which copies as
    itself; a value shared by two fields is not shared in the copy, as after a step stored and
    loaded again."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        new = object.__new__(type(self))
        new.__dict__.update(_copied(self.__dict__, memo))
        return new


@dataclass
class SeatState(JsonCopied):
    """One player's character. Private: ``sheet``, ``alignment``, ``card``, ``hand``, ``seen``,
    ``bonus``, ``mind_lost``; the rest is public (``summary``)."""

    sheet: str = ""
    alignment: str = ""  # current (a conversion changes it; the sheet keeps the printed one)
    card: str | None = None  # playing card, "A♠"
    silhouette: str | None = None
    spot: str | None = None
    last_spot: str | None = None  # before a black hole
    damage: int = 0
    mind_lost: int = 0
    power_lost: int = 0
    alive: bool = True
    resigned: bool = False
    black_hole: bool = False
    open: bool = False
    info: int = 0
    hand: list[str] = field(default_factory=list)  # ability cards held (private)
    face_up: list[str] = field(default_factory=list)  # lasting ability cards in play (public)
    party: int | None = None
    refused: bool = False  # 拒否 used (once per game)
    refusals: int = 0  # public count of refusals of either kind
    refused_sheets: list[str] = field(default_factory=list)  # sheets this player refused here
    tried_by: list[str] = field(default_factory=list)  # sides that tried to convert it
    declared_turn: int | None = None  # the normal turn it first declared
    # the normal turn it first declared EVIL's victory (the 1000 turns of EVIL survival count
    # from it, whatever alignment a later conversion gives it: the claim was public, a
    # conversion's result is not)
    evil_declared: int | None = None
    bonus: int = 0  # on the next ESP level check
    used: list[str] = field(default_factory=list)  # abilities used this turn
    seen: dict[str, str] = field(default_factory=dict)  # seat -> sheet id seen (peek, views)
    told: list[dict[str, Any]] = field(default_factory=list)  # conversions it was told of
    c_hand: list[str] = field(default_factory=list)  # C cards (private; the count is public)
    outside: bool = False  # waiting around the secret base
    infiltration: int = 0  # failed infiltration checks so far (each +1 on the next)


@dataclass
class Combat(JsonCopied):
    """A combat in progress. Public but for what ``hands`` and the orders keep private."""

    spot: str
    why: str  # "fight" | "twin" | "ambush" | "escape"
    by: str | None  # the seat whose turn started it
    seats: list[str] = field(default_factory=list)  # participants, in the order they came
    key: str | None = None  # a key installation on the spot (the base): a target that never acts
    round: int = 1
    number: int = 0  # the game's combats so far, this one included
    late: list[str] = field(default_factory=list)  # join at the next round's entries
    new: list[str] = field(default_factory=list)  # came this round: they draw
    order: list[str] = field(default_factory=list)  # initiative order of this round
    cards: dict[str, str] = field(default_factory=dict)  # initiative card per seat
    index: int = 0  # the position in ``order`` whose turn is next or now
    acted: list[str] = field(default_factory=list)  # this round (sync helpers included)
    attacked: bool = False  # an attack this round
    attack: dict[str, Any] | None = None  # the attack being answered
    escape: dict[str, Any] | None = None  # a teleport escape others may block
    maintained: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> defence
    henchmen: dict[str, int] = field(default_factory=dict)  # declared, public
    used: dict[str, list[str]] = field(default_factory=dict)  # pre-combat abilities used
    escapers: list[str] = field(default_factory=list)  # left by an escape
    then: list[str] = field(default_factory=list)  # escapers who fight where they land, after
    ambush_runner: str | None = None
    from_stage_one: list[str] = field(default_factory=list)  # pieces that came with no spot

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Combat:
        known = {f.name for f in fields(Combat)}
        return Combat(**{k: v for k, v in obj.items() if k in known})


@dataclass
class EsperState(JsonCopied):
    game_id: str
    pack: Pack
    options: dict[str, Any]
    order: list[str]  # seats in seat order
    seats: dict[str, SeatState]
    step: str = DEAL
    steps: int = 0  # framework steps opened
    open: bool = False
    waiting: list[str] = field(default_factory=list)  # seats this step asks
    turn: int = 0  # normal turns played
    active: str | None = None
    first: str | None = None
    undealt: dict[str, list[str]] = field(default_factory=dict)  # per shuffle: "L", alignments
    deck: list[str] = field(default_factory=list)  # playing cards left
    planets: dict[str, str] = field(default_factory=dict)  # spot -> card (face down or up)
    face_up: list[str] = field(default_factory=list)  # spots whose card is face up
    spent: list[str] = field(default_factory=list)  # spots whose card is spent
    rafnor: str | None = None  # the card the ambush displaced (spot R)
    rafnor_up: bool = False
    ambush: str | None = None
    ambush_runner: str | None = None
    ambush_revealed: bool = False
    ability_deck: list[str] = field(default_factory=list)
    parties: int = 0  # parties formed so far (numbers)
    # the turn in progress: the order's remaining parts and what a sub-step needs
    pending: dict[str, Any] = field(default_factory=dict)
    declaration: dict[str, Any] | None = None  # {"seat", "alignment", "solo", "resume"}
    answers: dict[str, str] = field(default_factory=dict)  # a declaration's answers so far
    last: list[dict[str, Any]] = field(default_factory=list)  # this step's moves
    ended: str | None = None
    declared_by: str | None = None  # the alignment whose unopposed declaration ended the game
    solo: str | None = None
    grades: dict[str, str] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    # D2
    stage: str = PLANET_STAGE
    combat: Combat | None = None
    combats_started: int = 0  # numbers the combats (a combat's rounds are posted by it)
    c_deck: list[str] = field(default_factory=list)  # secret order
    c_discard: list[str] = field(default_factory=list)
    base: dict[str, str] = field(default_factory=dict)  # spot -> base card (face down or up)
    base_up: list[str] = field(default_factory=list)
    base_spent: list[str] = field(default_factory=list)
    keys: dict[str, dict[str, Any]] = field(default_factory=dict)  # spot -> key installation


@dataclass(frozen=True)
class Action:
    verb: str
    args: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join((self.verb, *self.args))


@dataclass(frozen=True)
class EsperOrder:
    """A parsed order: one or more actions (a turn's ``open; convert C; teleport 4; end``)."""

    actions: tuple[Action, ...]

    def canonical(self) -> str:
        return "; ".join(a.text() for a in self.actions)

    @property
    def verb(self) -> str:
        return self.actions[0].verb if self.actions else ""


@dataclass
class Streams:
    """A step's public resolve stream (``roll``) with the game's secret stream beside it, for
    the hidden draws a step reaches deep down (a combat's C cards, the base's layout)."""

    public: Dice
    secret: Dice
    rolls: list[int] = field(init=False)  # the public stream's own record

    def __post_init__(self) -> None:
        self.rolls = self.public.rolls

    def roll(self, sides: int) -> int:
        return self.public.roll(sides)


def secret_of(dice: Any) -> Dice:
    return dice.secret if isinstance(dice, Streams) else NO_SECRET


# --- small reads ---------------------------------------------------------------------------------


def sheet_of(state: EsperState, seat: str) -> Sheet:
    return state.pack.sheets[state.seats[seat].sheet]


def side_of(state: EsperState, seat: str) -> str | None:
    sil = state.seats[seat].silhouette
    if sil is None:
        return None
    return DEFENDER if state.pack.sheets[sil].alignment == EVIL else INVADER


def living(state: EsperState) -> list[str]:
    return [s for s in state.order if state.seats[s].alive]


def durability(state: EsperState, seat: str) -> int:
    return sheet_of(state, seat).durability - state.seats[seat].damage


def mind(state: EsperState, seat: str) -> int:
    return sheet_of(state, seat).mind - state.seats[seat].mind_lost


def can_act(state: EsperState, seat: str) -> bool:
    """Whose normal turns come: on the planets the invaders' pieces; in the base everyone's,
    those waiting around it too."""
    s = state.seats[seat]
    if not s.alive or s.black_hole or s.resigned:
        return False
    if state.stage == BASE_STAGE:
        return s.spot is not None or s.outside
    return side_of(state, seat) == INVADER and s.spot is not None


def key_here(state: EsperState, spot: str | None) -> str | None:
    """The spot, when a found key installation still stands on it (a combat's target)."""
    key = state.keys.get(spot or "")
    if key is None or key["destroyed"] or not key["found"]:
        return None
    return spot


def ring(spot: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"P([1-6])-([0-6])", spot)
    return (int(m.group(1)), int(m.group(2))) if m else None


def spot_name(planet: int, index: int) -> str:
    return f"P{planet}-{index % RING}"


def card_spots() -> list[str]:
    return [spot_name(p, i) for p in range(1, PLANETS + 1) for i in range(1, RING)]


def rank(card: str | None) -> str:
    return "" if card is None else card[:-1]


def party_members(state: EsperState, seat: str) -> list[str]:
    number = state.seats[seat].party
    if number is None:
        return [seat]
    return [s for s in state.order if state.seats[s].party == number]


def party_info(state: EsperState, seat: str) -> int:
    """Info cards counted together: the living members of the seat's party (or the seat)."""
    return sum(state.seats[s].info for s in party_members(state, seat) if state.seats[s].alive)


def abilities_of(state: EsperState, seat: str) -> dict[str, Ability]:
    """What the seat may ``use``: its sheet's abilities and the ability cards it holds or has
    face up."""
    out = {a.id: a for a in sheet_of(state, seat).abilities}
    s = state.seats[seat]
    for card_id in [*s.hand, *s.face_up]:
        card = state.pack.abilities.get(card_id)
        if card is not None:
            out[card_id] = card
    return out


def check_bonus(state: EsperState, seat: str) -> int:
    """Passive bonuses on every ESP level check: ``always`` abilities and lasting cards."""
    total = 0
    s = state.seats[seat]
    for ability in sheet_of(state, seat).abilities:
        if ability.effect == "check_bonus" and ability.timing == "always":
            total += ability.n
    for card_id in s.face_up:
        card = state.pack.abilities.get(card_id)
        if card is not None and card.effect == "check_bonus" and card.lasting:
            total += card.n
    return total


def composition(pack: Pack, players: int) -> tuple[int, int, int]:
    return pack.counts[players]


def history(state: EsperState, seat: str) -> tuple[list[str], str | None]:
    """The seat's season history (sheets played this season) and previous game's sheet, as the
    bot kept them when the game was created (``options["history"]``)."""
    entry = state.options.get("history", {}).get(seat) or {}
    return list(entry.get("season") or []), entry.get("previous")


def sides(state: EsperState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {INVADER: [], DEFENDER: []}
    for seat in state.order:
        side = side_of(state, seat)
        if side is not None and not state.seats[seat].resigned:
            out[side].append(seat)
    return out
