"""Apeiron in a league, pure: its rosters, its results and the options a league fixes.

The league (``cogs/league``) names no game; it reads :data:`LEAGUE`, the ``league`` of Apeiron's
``RULESET`` (issue 33, ``../shared/rules/league.md`` with cards in place of units):

- A roster is a *collection* of unit and chest cards drafted from one pack (the built-in starter,
  or a server's pack the league fixed when it was created: :meth:`ApeironRosters.for_pack`). A
  roster entry names its table, ``unit:<id>`` or ``chest:<id>`` (:func:`card`): a pack's ids are
  a-z, 0-9 and ``-`` (never a colon), so an entry reads back without the pack and a unit's id can
  never pass for a chest card's, whatever a community names its cards. The draft pool holds two
  copies of each card (the ledger's roster limit); a deck uses each card once (the source: "デッキ
  のユニット・チェストは全て違うカードでなければならない"). There are no masters.
- Each match's deck is chosen by its player at the game's own deck step, from their collection
  (*decided*: the deck step is where the source builds a deck, secret and both at once; a deck
  chosen before the match would be known to the league before the opponent's): a league match's
  options carry each seat's ``collections`` and the engine refuses a deck that is not drawn from
  it (:func:`check_deck`); its buttons and its deadline default offer :func:`default_deck` and the
  pack's presets that fit the collection.
- A result places the winner first (Apeiron always has one: its tie-break ends in the first
  player) with each side's units left on the field and their total H, the source's tie-break
  figures (:data:`UNITS_LEFT`, :data:`HP_LEFT`).
- A league may fix the time control (the source: "各手順の制限時間は公式大会の制限時間に則る"; its
  deployment step lasts 2 minutes, the one figure it gives: the tournament preset's minutes per
  step) and a turn limit (the tie-break at the end of that game turn).

Costs: Apeiron's cards have none; a draft shows one and its deadline picks the costliest card
still in the pool, so :func:`card_cost` rates a card (*decided*): a unit its H + P + M, its reach
beyond contact, 2 for flying, 1 for a grave and 1 per ability; a chest card 3, and 1 more for an
event's options (a choice). Chest cards cost less than most units, so a player who lets every pick
lapse drafts units first: see :func:`check_collection` for what a deck needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import packs
from bot.leagues import FixedOption, HeldRoster, LeagueResult
from bot.ruleset import LeagueSupport, Outcome, RuleError, places_by_outcome
from cogs.apeiron import pack as packlib
from cogs.apeiron.pack import Pack

UNIT = "unit:"
CHEST = "chest:"
KINDS = {UNIT: "units", CHEST: "chest"}  # a roster entry's prefix -> a deck's list
Deck = tuple[tuple[str, ...], tuple[str, ...]]  # (8 units, 6 chest cards)
POOL_COPIES = 2  # the roster limit is two copies (league.md), so two in the pool

UNITS_LEFT = "units"  # the tie-break figures: units on the field, then their total H
HP_LEFT = "hp"

DRAFT_PICKS = packlib.DECK_UNITS + packlib.DECK_CHEST  # the fewest picks that make a deck
TIME_CONTROLS = ("standard", "tournament")
TOURNAMENT_MINUTES = 2  # the source's deployment step: "2分経過したら次に移る"

# Message keys (cogs/apeiron/locales/apeiron.*.json).
E_NO_MASTERS = "apeiron.league.no_masters"
E_OPTION = "apeiron.option.invalid"
E_PICK = {"units": "apeiron.league.pick.units", "chest": "apeiron.league.pick.chest"}
E_COLLECTION = "apeiron.league.collection"
E_SHORT = {"units": "apeiron.league.short.units", "chest": "apeiron.league.short.chest"}
E_NOT_HELD = "apeiron.league.not_held"
E_DECK = {"units": "apeiron.league.deck.units", "chest": "apeiron.league.deck.chest"}


class CollectionError(RuleError):
    """A collection or a deck chosen from it that a league match refuses (``apeiron.league.*``)."""


def card(kind: str, card_id: str) -> str:
    """A roster entry: ``card(UNIT, "u01") == "unit:u01"``."""
    if kind not in KINDS:
        raise ValueError(f"not a card kind: {kind!r}")
    return kind + card_id


def split(entry: str) -> tuple[str, str] | None:
    """A roster entry's (deck list, card id): ``("units", "u01")``; None for anything else."""
    for prefix, kind in KINDS.items():
        if entry.startswith(prefix) and entry[len(prefix) :]:
            return kind, entry[len(prefix) :]
    return None


def card_cost(pack: Pack, entry: str) -> int:
    """A card's draft cost (see the module's docstring); 0 for a card not in ``pack``."""
    found = split(entry)
    if found is None:
        return 0
    kind, card_id = found
    if kind == "units":
        unit = pack.units.get(card_id)
        if unit is None:
            return 0
        grave = 1 if unit.grave_turns else 0
        return (
            unit.hp
            + unit.power
            + unit.move
            + (unit.range - 1)
            + 2 * unit.flying
            + grave
            + len(unit.abilities)
        )
    chest = pack.chest.get(card_id)
    if chest is None:
        return 0
    return 3 + (1 if chest.options else 0)


# --- collections and decks ---------------------------------------------------------------------


@dataclass(frozen=True)
class Collection:
    """A player's cards as a deck draws on them: each card once, in the order first held."""

    units: tuple[str, ...] = ()
    chest: tuple[str, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[str]) -> Collection:
        """From roster entries (``unit:…``/``chest:…``; copies count once, others are not cards
        and are skipped)."""
        lists: dict[str, list[str]] = {"units": [], "chest": []}
        for entry in entries:
            found = split(entry)
            if found is not None and found[1] not in lists[found[0]]:
                lists[found[0]].append(found[1])
        return cls(tuple(lists["units"]), tuple(lists["chest"]))

    def to_json(self) -> dict[str, list[str]]:
        return {"units": list(self.units), "chest": list(self.chest)}

    @classmethod
    def from_json(cls, obj: Any) -> Collection:
        """A game option's collection; :class:`CollectionError` for any other shape."""
        if not isinstance(obj, Mapping) or set(obj) != {"units", "chest"}:
            raise CollectionError(E_COLLECTION)
        lists = []
        for kind in ("units", "chest"):
            value = obj[kind]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise CollectionError(E_COLLECTION)
            if len(set(value)) != len(value):
                raise CollectionError(E_COLLECTION)
            lists.append(tuple(value))
        return cls(lists[0], lists[1])


def check_collection(pack: Pack, collection: Collection) -> None:
    """A collection a match's deck can be drawn from: every card in ``pack``, and at least a
    deck's 8 units and 6 chest cards (``apeiron.league.short.units`` / ``.chest``: which)."""
    for held, cards in ((collection.units, pack.units), (collection.chest, pack.chest)):
        for card_id in held:
            if card_id not in cards:
                raise CollectionError(E_NOT_HELD, card=card_id[:40])
    for kind, held, size in (
        ("units", collection.units, packlib.DECK_UNITS),
        ("chest", collection.chest, packlib.DECK_CHEST),
    ):
        if len(held) < size:
            raise CollectionError(E_SHORT[kind], have=len(held), size=size)


def check_deck(collection: Collection, units: Sequence[str], chest: Sequence[str]) -> None:
    """A deck chosen for a league match: 8 different units and 6 different chest cards, every
    one held in ``collection`` (``apeiron.league.deck.*`` / ``apeiron.league.not_held``)."""
    for kind, chosen, held, size in (
        ("units", units, collection.units, packlib.DECK_UNITS),
        ("chest", chest, collection.chest, packlib.DECK_CHEST),
    ):
        if len(chosen) != size or len(set(chosen)) != size:
            raise CollectionError(E_DECK[kind], size=size)
        for card_id in chosen:
            if card_id not in held:
                raise CollectionError(E_NOT_HELD, card=card_id[:40])


def check_pick(pack: Pack, held: Iterable[str], entry: str, picks_left: int) -> None:
    """A draft pick that still lets the roster reach a deck: after ``entry``, the ``picks_left``
    picks that follow it (this one not counted) must be able to bring the distinct units and
    chest cards still missing (``apeiron.league.pick.units`` / ``.chest``: which ones must come
    now). The entry draft's rounds must therefore be at least 14 (:data:`DRAFT_PICKS`)."""
    found = split(entry)
    if found is None or found[1] not in (pack.units if found[0] == "units" else pack.chest):
        raise CollectionError(E_NOT_HELD, card=entry[:48])
    after = Collection.of([*held, entry])
    missing = {
        "units": max(0, packlib.DECK_UNITS - len(after.units)),
        "chest": max(0, packlib.DECK_CHEST - len(after.chest)),
    }
    if sum(missing.values()) > picks_left:
        # the other kind, or (a copy of a card already held) a new card of this one
        other = "chest" if found[0] == "units" else "units"
        kind = other if missing[other] else found[0]
        raise CollectionError(E_PICK[kind], need=missing[kind], left=picks_left + 1)


def default_deck(pack: Pack, collection: Collection) -> Deck:
    """The deck a seat gets when its deck step's time runs out: the cards of the pack's first
    preset that the collection holds (the game's own default), then the collection's others in
    the order they were acquired. The collection must hold a deck (:func:`check_collection`)."""
    first = pack.presets[0] if pack.presets else None

    def pick(held: tuple[str, ...], preset: tuple[str, ...], size: int) -> tuple[str, ...]:
        ranked = [c for c in preset if c in held] + [c for c in held if c not in preset]
        return tuple(ranked[:size])

    return (
        pick(collection.units, first.units if first else (), packlib.DECK_UNITS),
        pick(collection.chest, first.chest if first else (), packlib.DECK_CHEST),
    )


def deck_offers(pack: Pack, collection: Collection) -> list[Deck]:
    """The decks a league seat's buttons offer: :func:`default_deck`, then each preset of the
    pack that the collection holds whole (no deck twice)."""
    offers = [default_deck(pack, collection)]
    for preset in pack.presets:
        deck: Deck = (preset.units, preset.chest)
        fits = set(preset.units) <= set(collection.units)
        if fits and set(preset.chest) <= set(collection.chest) and deck not in offers:
            offers.append(deck)
    return offers


# --- the rosters ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ApeironRosters:
    """Apeiron's :class:`bot.leagues.RosterRules` over one pack (None: the built-in starter)."""

    source: Mapping[str, Any] | None = None  # a pack's canonical JSON (a server's pack)
    pool_copies: int = POOL_COPIES
    has_masters: bool = False
    _loaded: list[Pack] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def for_pack(cls, pack: Pack) -> ApeironRosters:
        """The rosters of a league that fixed ``pack`` (its source travels with every match)."""
        return cls(None if pack.hash == packlib.starter().hash else pack.source, _loaded=[pack])

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> ApeironRosters:
        """The rosters of a league whose stored options fix its pack as a game's do: ``pack``
        (the canonical JSON the league copied at creation; absent: the starter), held to
        ``pack_hash`` where given (:class:`bot.ruleset.RuleError` ``apeiron.option.invalid``)."""
        pack = packs.from_options(options, packlib.starter, packlib.from_json, E_OPTION)
        return cls.for_pack(pack)

    @property
    def pack(self) -> Pack:
        if not self._loaded:
            found = packlib.starter() if self.source is None else packlib.from_json(self.source)
            self._loaded.append(found)
        return self._loaded[0]

    def pool(self) -> list[tuple[str, int]]:
        pack = self.pack
        cards = [card(UNIT, u) for u in pack.units] + [card(CHEST, c) for c in pack.chest]
        return [(c, card_cost(pack, c)) for _ in range(self.pool_copies) for c in cards]

    def find(self, word: str) -> list[str]:
        """The pool entries a moderator's typed ``word`` may mean: an entry as stored
        (``chest:a1``), else every card whose id or either name it is (any case; a unit and a
        chest card may share a name or, across tables, read alike: the caller asks which)."""
        word = word.strip()
        pool = dict(self.pool())
        if word in pool:
            return [word]
        key = word.casefold()
        found = []
        for prefix, cards in ((UNIT, self.pack.units), (CHEST, self.pack.chest)):
            for item in cards.values():
                if key in (item.id.casefold(), item.name_en.casefold(), item.name_ja.casefold()):
                    found.append(card(prefix, item.id))
        return found

    def check_pick(self, held: Sequence[str], entry: str, picks_left: int) -> None:
        """:func:`check_pick` over this league's pack (:class:`bot.leagues.PickChecked`)."""
        check_pick(self.pack, held, entry, picks_left)

    def can_lose(self, held: Sequence[str], entry: str) -> bool:
        """Whether a collection keeps a deck without one copy of ``entry`` (an ante takes
        only what its loser can spare: :class:`bot.leagues.AnteChecked`)."""
        rest = list(held)
        if entry in rest:
            rest.remove(entry)
        after = Collection.of(rest)
        return len(after.units) >= packlib.DECK_UNITS and len(after.chest) >= packlib.DECK_CHEST

    def unit_name(self, unit: str, lang: str) -> str:
        found = split(unit)
        if found is not None:
            kind, card_id = found
            item: Any = (self.pack.units if kind == "units" else self.pack.chest).get(card_id)
            if item is not None:
                return str(item.name(lang))
        return unit  # not a card of this pack: its entry as stored

    def master(self, spec: Mapping[str, Any]) -> tuple[str, str]:
        raise RuleError(E_NO_MASTERS)

    def master_name(self, spec: Mapping[str, Any], lang: str) -> str:
        raise RuleError(E_NO_MASTERS)

    def master_id(self, spec: Mapping[str, Any], stored: str) -> str:
        return stored

    def match_options(
        self,
        options: Mapping[str, Any],
        rosters: Mapping[str, tuple[HeldRoster, Mapping[str, Any]]],
    ) -> dict[str, Any]:
        """The game's options: the league's pack (embedded, pinned by its hash), its time
        control and turn limit, and each seat's collection (each must hold a deck)."""
        pack = self.pack
        collections = {}
        for seat, (roster, _) in rosters.items():
            held = Collection.of(roster.units)
            check_collection(pack, held)
            collections[seat] = held.to_json()
        out: dict[str, Any] = {"collections": collections}
        if self.source is not None:
            out["pack"] = dict(self.source)
            out["pack_hash"] = pack.hash
        if options.get("time_control", "standard") == "tournament":
            out["minutes"] = TOURNAMENT_MINUTES
        turn_limit = int(options.get("turn_limit", 0))
        if turn_limit:
            out["turn_limit"] = turn_limit
        return out


# --- results -------------------------------------------------------------------------------------


def figures_of(state: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Per seat, the units on the field and their total H (the source's tie-break), from a
    stored state (graves are no units; a seat that never deployed has none)."""
    out = {}
    for seat in ("A", "B"):
        units = (state.get("units") or {}).get(seat) or []
        living = [u for u in units if u.get("square") is not None and int(u.get("hp", 0)) > 0]
        out[seat] = {UNITS_LEFT: len(living), HP_LEFT: sum(int(u["hp"]) for u in living)}
    return out


def result(state: Mapping[str, Any], outcome: Outcome, players: Mapping[str, str]) -> LeagueResult:
    """A finished match: the winner first (a resignation or forfeit too), with each side's
    units left and their H."""
    by_seat = figures_of(state)
    figures = {player: by_seat.get(seat, {}) for seat, player in players.items()}
    return LeagueResult(places_by_outcome(outcome, players), figures)


STARTER_ROSTERS = ApeironRosters()
# A league's rosters by its pack's hash: a stored league's pack is parsed once while in use.
_league_rosters: packs.PackCache[Pack] = packs.PackCache()


def league_options(options: Mapping[str, Any], server_pack: str | None) -> dict[str, Any]:
    """A new league's stored options (``LeagueSupport.at_creation``): the moderator's, and the
    server's current pack (its stored canonical JSON; None: none, the starter) copied whole and
    pinned by its hash, so a later upload changes nothing for the league."""
    out = {k: v for k, v in options.items() if k not in ("pack", "pack_hash")}
    if server_pack is None:
        return out
    pack = packlib.from_json(json.loads(server_pack))
    if pack.hash != packlib.starter().hash:
        out["pack"] = dict(pack.source)
        out["pack_hash"] = pack.hash
    return out


def league_rosters(options: Mapping[str, Any]) -> ApeironRosters:
    """The rosters of a league from its stored options (``LeagueSupport.rosters_of``)."""
    expected = options.get("pack_hash")
    if options.get("pack") is None or not isinstance(expected, str):
        return ApeironRosters.from_options(options) if options.get("pack") else STARTER_ROSTERS
    decode = lambda: packs.from_options(options, packlib.starter, packlib.from_json, E_OPTION)  # noqa: E731
    return ApeironRosters.for_pack(_league_rosters.get(expected, decode))


LEAGUE = LeagueSupport(
    rosters=STARTER_ROSTERS,
    at_creation=league_options,
    rosters_of=league_rosters,
    draft_rounds=DRAFT_PICKS,
    minutes_option="minutes",
    result=result,
    figures=(UNITS_LEFT, HP_LEFT),
    options=(
        FixedOption(
            "time_control",
            "standard",
            "apeiron.league.option.time_control",
            choices=tuple((v, f"apeiron.league.time_control.{v}") for v in TIME_CONTROLS),
        ),
        FixedOption("turn_limit", 0, "apeiron.league.option.turn_limit", low=0, high=99),
    ),
)
