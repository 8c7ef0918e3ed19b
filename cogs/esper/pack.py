"""Esper war data packs (``../shared/rules/esper-pack.md``): load, validate, hash.

A pack is one UTF-8 TOML file: the composition table, the character sheets (each also its
silhouette), the planet cards and the ability deck for D1; the C cards, damage table, charts and
base for D2. Loading is all or nothing: every bad field found raises, as one :class:`PackError`
whose message key says what is wrong and whose parameters say where (``where``: the table and its
index or id, ``field``: the key); no :class:`Pack` exists until every table has passed.

The pack's canonical JSON (the TOML parsed, then ``json.dumps(sort_keys=True,
ensure_ascii=False, separators=(",", ":"))``) is what records embed and what :func:`pack_hash`
hashes; :func:`from_json` loads that JSON back through the same checks.

>>> pack = sample()
>>> len(pack.sheets) >= 16, len(pack.planet_deck()) >= 36, pack.counts[11]
(True, True, (4, 4, 3))
>>> from_json(pack.source).hash == pack.hash
True
>>> [dealable(pack, n) for n in range(5, 12)] == [None] * 7
True
>>> len(pack.c_deck()) >= 60, len(pack.base_deck()) >= 36, pack.damage_at(7, 1), pack.there_at(12)
(True, True, 1, 'yes')
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot import packs
from bot.packs import ID
from bot.packs import canonical_json as canonical_json
from bot.packs import pack_hash as pack_hash
from bot.ruleset import Ref

DATA = Path(__file__).resolve().parent / "data"
SAMPLE = DATA / "sample.toml"

ALIGNMENTS = ("GOOD", "EVIL", "SPECIAL")
TIMINGS = ("check", "support", "main", "pre-emptive", "pre-combat", "defence", "melee", "always")
D1_EFFECTS = ("check_bonus", "recover", "peek", "info", "to_spaceport", "free")
D2_EFFECTS = ("attack", "defend", "escape", "henchmen", "melee", "there_bonus")
EFFECTS = D1_EFFECTS + D2_EFFECTS
PLANET_EFFECTS = (
    "none",
    "info",
    "ability",
    "damage",
    "recover",
    "rafnor",
    "black_hole",
    "to_spaceport",
)
DEFEATS = ("dead", "alive", "info_below", "alone", "declared")
STATS = ("durability", "mind")
RECOVER_TARGETS = ("self", "spot")
PLAYERS = range(5, 12)  # the rows a [counts] table may have

# D2
CCARD_KINDS = ("attack", "defence", "escape", "special")
ATTRIBUTES = ("E", "M", "own", "melee")
THERE = ("no", "yes", "late")
ALIVE = ("no", "yes")
ROLLS = 11  # 2D6 totals 2..12: rows of the damage table, entries of a chart
COLUMNS = 11  # damage columns 1:2, 1:1, 2:1 … 10:1
COLUMN = re.compile(r"(\d{1,2}):1")  # a C card's fixed column [N:1]

# When each effect can be used (its timings): a timing that never reaches the effect's moment
# (a recovery ``always``, an attack at ``check``) would be a card nobody can play.
EFFECT_TIMINGS: Mapping[str, tuple[str, ...]] = {
    "check_bonus": ("check", "support", "main", "pre-combat", "always"),
    "recover": ("check", "support", "main", "pre-emptive", "pre-combat"),
    "peek": ("support", "main", "pre-combat"),
    "info": ("support", "main"),
    "to_spaceport": ("support", "main"),
    "free": ("support", "main"),
    "attack": ("pre-emptive", "main"),
    "defend": ("defence", "always"),
    "escape": ("defence",),
    "henchmen": ("pre-combat", "always"),
    "melee": ("melee",),
    "there_bonus": ("pre-combat", "always"),
}
# effect: (required, optional) parameters
EFFECT_PARAMS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "check_bonus": (("n",), ()),
    "recover": (("n",), ("stat", "target")),
    "peek": ((), ()),
    "info": (("n",), ()),
    "to_spaceport": ((), ()),
    "free": ((), ()),
    "attack": (("level", "attribute"), ("firepower", "column", "no_defence", "sync")),
    "defend": (("level", "blocks"), ("upkeep", "sync")),
    "escape": (("level",), ("teleport", "sync")),
    "henchmen": (("n",), ()),
    "melee": (("x",), ("weapon",)),
    "there_bonus": (("n",), ()),
}
EFFECT_N: Mapping[str, tuple[int, int]] = {
    "check_bonus": (1, 12),
    "recover": (1, 99),
    "info": (1, 9),
    "henchmen": (1, 9),
    "there_bonus": (1, 11),
}
PLANET_N: Mapping[str, tuple[int, int]] = {
    "info": (1, 3),
    "ability": (1, 3),
    "damage": (1, 99),
    "recover": (1, 99),
}
CCARD_EFFECT = {"attack": "attack", "defence": "defend", "escape": "escape"}
# A special C card's effects: every effect but the three the other kinds are.
SPECIAL_EFFECTS = tuple(e for e in EFFECTS if e not in CCARD_EFFECT.values())
# Base card effects: the planet cards' but ``rafnor`` and ``to_spaceport``, which mean nothing in
# the base (it has no Rafnor and no spaceport).
BASE_EFFECTS = tuple(e for e in PLANET_EFFECTS if e not in ("rafnor", "to_spaceport"))

TABLES = ("sheet", "planet", "ability", "ccard", "base", "key")
D2_TABLES = ("ccard", "damage", "charts", "base_rules", "base", "key")

# Bounds that keep a community's pack sane (and a record that embeds it small).
MAX_BYTES = packs.MAX_BYTES
MAX_DEPTH = packs.MAX_DEPTH  # tables and arrays nested (the format needs 5)
MAX_CARDS = 300  # per table
MAX_COPIES = 36
MAX_NAME = 32
MAX_TEXT = 160  # one line in /esper
MAX_STAT = 99
MAX_ESP = 12
MAX_ABILITIES = 4  # per sheet
MAX_DEFEATS = 6

# Server packs' minimums for D1 (a tiny pack embedded in a hand-made record needs none of them).
MIN_SHEETS = 16
MIN_ALIGNED = {"GOOD": 6, "EVIL": 6, "SPECIAL": 4}
MIN_LOCKS = 2
MIN_PLANETS = 36  # counting copies: one per spot
MIN_INFO = 8
MIN_WHITE = 6
MIN_ABILITY_CARDS = 12
# ... and for D2: the C deck (counting copies, every kind), the damage table and both charts, a
# base card per spot, ``base_rules`` and at least that many key installations.
MIN_CCARDS = 60
MIN_BASE = 36

# Message keys (cogs/esper/locales/pack.*.json).
E_TOML = "esper.pack.toml"
E_TOO_BIG = "esper.pack.too_big"
E_TOO_DEEP = "esper.pack.too_deep"
E_NUMBER = "esper.pack.number"
E_ONE_LINE = "esper.pack.one_line"
E_MISSING = "esper.pack.missing"
E_UNKNOWN_KEY = "esper.pack.unknown_key"
E_TYPE = "esper.pack.type"
E_VALUE = "esper.pack.value"
E_RANGE = "esper.pack.range"
E_LENGTH = "esper.pack.length"
E_DUPLICATE = "esper.pack.duplicate"
E_UNKNOWN_REF = "esper.pack.unknown_ref"
E_NEEDS = "esper.pack.needs"
E_TIMING = "esper.pack.timing"
E_COUNTS = "esper.pack.counts"
E_TOO_FEW = "esper.pack.too_few"
E_UNDEALABLE = "esper.pack.undealable"
# dealable()'s answers: the engine raises with them as they are (no parameters).
E_NO_ROW = "esper.pack.no_row"
E_NO_LOCK = "esper.pack.no_lock"
E_CANNOT_DEAL = "esper.pack.cannot_deal"


class PackError(packs.PackError):
    """A pack that cannot be loaded. ``params``: ``where`` (``sheet[3] c03``), ``field`` …;
    ``errors``: every bad field found (:class:`bot.packs.PackError`)."""


# The generic field checks (bot/packs.py) with this format's keys and limits: ids are unique
# across the whole pack (checked in from_json).
CHECK = packs.Checks(
    "esper.pack.",
    PackError,
    max_cards=MAX_CARDS,
    max_name=MAX_NAME,
    max_text=MAX_TEXT,
    # no id or name orders accept reads as a spot, an order word, a number or a seat
    grammar=Ref("cogs.esper.rules:reads_as"),
)


# --- the cards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ability(packs.Bilingual):
    """A sheet's ``[[sheet.ability]]`` or an ``[[ability]]`` deck card."""

    id: str
    name_en: str
    name_ja: str
    timing: str  # one of TIMINGS
    effect: str  # D1_EFFECTS or D2_EFFECTS
    n: int = 0  # check_bonus / info / recover amount; henchmen n; there_bonus n
    stat: str = "durability"  # recover: "durability" | "mind"
    target: str = "self"  # recover: "self" | "spot" (a character on the user's spot)
    cost_mind: int = 0
    cost_power: int = 0
    lasting: bool = False  # deck cards: stays face up and keeps working after use
    count: int = 1  # deck cards: copies in the ability deck
    text_en: str = ""
    text_ja: str = ""
    # D2 parameters (attack/defend/escape as C cards, melee x/weapon), as validated
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Defeat:
    kind: str  # the TOML key `if`: one of DEFEATS
    who: str | None = None  # dead: None = this character; alive: a sheet id
    n: int = 0  # info_below
    alignment: str | None = None  # declared


@dataclass(frozen=True)
class Sheet(packs.Bilingual):
    id: str
    name_en: str
    name_ja: str
    alignment: str  # GOOD | EVIL | SPECIAL
    lock: bool  # (L)
    esp: int  # ESP level 0..12
    durability: int  # 1..99
    mind: int  # 0..99
    power: int  # D2: ESP power
    hand: int  # D2: hand-size bonus
    henchmen: int  # D2
    can_convert: bool  # default False for SPECIAL, True otherwise
    convertible_by: tuple[str, ...]  # alignments that may convert it (may be empty)
    defeat: tuple[Defeat, ...]
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class PlanetCard(packs.Bilingual):
    id: str
    name_en: str
    name_ja: str
    effect: str  # PLANET_EFFECTS
    n: int = 0
    once: bool = False  # ``info`` is always once (forced at load)
    count: int = 1
    text_en: str = ""
    text_ja: str = ""


@dataclass(frozen=True)
class CCard(packs.Bilingual):
    """A ``[[ccard]]`` (combat card). ``params`` holds the card's effect parameters as an
    :class:`Ability` of that effect holds them (attack / defend / escape for those kinds, the
    special's effect otherwise; see ``_combat``), plus ``level``, and ``stat`` and ``target`` for
    a recover; the typed fields repeat what each kind needs."""

    id: str
    name_en: str
    name_ja: str
    kind: str  # CCARD_KINDS: attack | defence | escape | special
    level: int  # 0..12
    attribute: str | None = None  # attack: E | M | own | melee
    firepower: int | None = None  # attack: exactly one of firepower and column
    column: int | None = None  # attack: N of a fixed [N:1] (1..10: the damage column index)
    no_defence: bool = False  # attack: "防御が不可能"
    sync: bool = False  # attack, defence, escape: usable in a sync
    blocks: tuple[str, ...] = ()  # defence: the attributes it stops
    upkeep: int = 0  # defence: ESP power per check phase to keep it
    teleport: bool = False  # escape: a teleport (can be blocked)
    effect: str | None = None  # special: one of SPECIAL_EFFECTS
    n: int = 0  # special: the effect's n (check_bonus, recover, info, henchmen, there_bonus)
    params: Mapping[str, Any] = field(default_factory=dict)
    count: int = 1  # copies in the C deck
    text_en: str = ""
    text_ja: str = ""


@dataclass(frozen=True)
class BaseCard(packs.Bilingual):
    """A ``[[base]]`` card: a planet card's fields (effects BASE_EFFECTS) and ``evil``."""

    id: str
    name_en: str
    name_ja: str
    effect: str  # BASE_EFFECTS
    n: int = 0
    once: bool = False  # ``info`` is always once (forced at load)
    count: int = 1
    text_en: str = ""
    text_ja: str = ""
    evil: bool = False  # it also affects EVIL silhouettes


@dataclass(frozen=True)
class KeyInstallation(packs.Bilingual):
    """A ``[[key]]``: a key installation (重要拠点), a combat target that never acts."""

    id: str
    name_en: str
    name_ja: str
    durability: int  # 1..99


@dataclass(frozen=True)
class Pack:
    id: str
    version: int
    name_en: str
    name_ja: str
    counts: Mapping[int, tuple[int, int, int]]  # players -> (GOOD, EVIL, SPECIAL)
    sheets: Mapping[str, Sheet]  # in file order
    planets: Mapping[str, PlanetCard]  # in file order
    abilities: Mapping[str, Ability]  # the ability deck's cards, in file order
    source: Mapping[str, Any]  # the canonical JSON object (what records embed)
    hash: str  # sha256 hex of canonical_json(source)
    # D2 (empty in a pack without those tables: a hand-made record's tiny pack needs none)
    ccards: Mapping[str, CCard] = field(default_factory=dict)  # in file order
    base_cards: Mapping[str, BaseCard] = field(default_factory=dict)  # in file order
    keys: Mapping[str, KeyInstallation] = field(default_factory=dict)  # in file order
    # [damage] rows: damage[roll - 2][column], 11 rows (2D6 = 2..12) of 11 columns (1:2, 1:1,
    # 2:1 … 10:1: column index N is N:1, 0 is 1:2)
    damage: tuple[tuple[int, ...], ...] = ()
    there: tuple[str, ...] = ()  # [charts] there[roll - 2]: THERE

    @functools.cached_property
    def source_text(self) -> str:
        """``source`` as JSON text, made once: a state stores its pack at every step, and a fresh
        copy is parsed from this faster than ``source`` is deep-copied."""
        return json.dumps(self.source, ensure_ascii=False)

    alive: tuple[str, ...] = ()  # [charts] alive[roll - 2]: ALIVE
    keys_placed: int = 0  # [base_rules] keys (0: no base_rules)

    def __deepcopy__(self, memo: dict[int, Any]) -> Pack:
        return self  # immutable: states copied for a trial share their pack

    def planet_deck(self) -> list[str]:
        """Planet card ids, each repeated ``count`` times, in file order (before the shuffle)."""
        return [p.id for p in self.planets.values() for _ in range(p.count)]

    def ability_deck(self) -> list[str]:
        """Ability-deck card ids with their copies, in file order (before the shuffle)."""
        return [a.id for a in self.abilities.values() for _ in range(a.count)]

    def c_deck(self) -> list[str]:
        """C card ids with their copies, in file order (before the shuffle)."""
        return [c.id for c in self.ccards.values() for _ in range(c.count)]

    def base_deck(self) -> list[str]:
        """Base card ids with their copies, in file order (before the shuffle)."""
        return [b.id for b in self.base_cards.values() for _ in range(b.count)]

    def damage_at(self, roll: int, column: int) -> int:
        """Durability lost at a 2D6 ``roll`` (2..12) in damage ``column`` (0 is 1:2, 1 is 1:1,
        N is N:1, up to 10). ValueError for a roll or column off the table, LookupError for a
        pack without one."""
        if not 2 <= roll <= 12 or not 0 <= column < COLUMNS:
            raise ValueError(f"no damage for roll {roll}, column {column}")
        if not self.damage:
            raise LookupError("this pack has no damage table")
        return self.damage[roll - 2][column]

    def there_at(self, roll: int) -> str:
        """The "actually there" chart at a 2D6 ``roll`` (2..12): no | yes | late."""
        return _chart(self.there, roll, "there")

    def alive_at(self, roll: int) -> str:
        """The "actually alive" chart at a 2D6 ``roll`` (2..12): no | yes."""
        return _chart(self.alive, roll, "alive")

    def card(
        self, card_id: str
    ) -> Sheet | PlanetCard | Ability | CCard | BaseCard | KeyInstallation:
        """Any card by id: a sheet, a planet card, a deck card or a sheet's ability, a C card, a
        base card or a key installation."""
        if card_id in self.sheets:
            return self.sheets[card_id]
        if card_id in self.planets:
            return self.planets[card_id]
        if card_id in self.abilities:
            return self.abilities[card_id]
        if card_id in self.ccards:
            return self.ccards[card_id]
        if card_id in self.base_cards:
            return self.base_cards[card_id]
        if card_id in self.keys:
            return self.keys[card_id]
        for sheet in self.sheets.values():
            for ability in sheet.abilities:
                if ability.id == card_id:
                    return ability
        raise KeyError(card_id)

    def name(self, card_id: str, lang: str) -> str:
        return self.card(card_id).name(lang)


def _chart(chart: tuple[str, ...], roll: int, name: str) -> str:
    if not 2 <= roll <= 12:
        raise ValueError(f"no {name} entry for roll {roll}")
    if not chart:
        raise LookupError(f"this pack has no {name} chart")
    return chart[roll - 2]


# --- loading -------------------------------------------------------------------------------------


def loads(text: str, *, server: bool = True) -> Pack:
    """A pack from TOML text (through the shared guarded reader, :meth:`bot.packs.Checks.read`).
    ``server``: hold it to a server pack's minimums."""
    return from_json(CHECK.read(text), server=server)


def load_file(path: Path | str, *, server: bool = True) -> Pack:
    return loads(Path(path).read_text("utf-8"), server=server)


@functools.lru_cache(maxsize=packs.CACHE_SIZE)
def decoded(text: str) -> Pack:
    """The pack of a stored state's ``pack`` (its JSON text): checked once per process and
    shared, since a game decodes the same pack at every step (a pack is never changed)."""
    return from_json(json.loads(text))


def from_json(obj: Any, *, server: bool = False) -> Pack:
    """A pack from its parsed form (the TOML's tables, or a record's embedded ``pack``).

    Every card is checked on its own and every bad one reported (:class:`bot.packs.Found`); the
    checks across the whole pack (a server's minimums, dealing every row) run once all have
    passed."""
    CHECK.bounded(CHECK.table(obj, "pack", ""))  # before the copy recurses into it
    obj = copy.deepcopy(obj)  # the pack keeps its own copy: nobody else's change reaches it
    found = CHECK.collect()
    keep, errors = found.keep, found.errors
    head = found.head(obj, ("counts", *TABLES, *D2_TABLES))

    counts: dict[int, tuple[int, int, int]] = {}
    if "counts" in obj:
        try:
            counts = _counts(obj["counts"])
        except PackError as error:
            keep(error)
    sheets: dict[str, Sheet] = CHECK.cards(obj, "sheet", _sheet, keep)
    planets: dict[str, PlanetCard] = CHECK.cards(obj, "planet", _planet, keep)
    abilities: dict[str, Ability] = CHECK.cards(
        obj, "ability", lambda t, w: _ability(t, w, deck=True), keep
    )
    ccards: dict[str, CCard] = CHECK.cards(obj, "ccard", _ccard, keep)
    base_cards: dict[str, BaseCard] = CHECK.cards(obj, "base", _base, keep)
    keys: dict[str, KeyInstallation] = CHECK.cards(obj, "key", _key, keep)
    damage: tuple[tuple[int, ...], ...] = ()
    there: tuple[str, ...] = ()
    alive: tuple[str, ...] = ()
    keys_placed = 0
    try:
        if "damage" in obj:
            damage = _damage(obj["damage"])
    except PackError as error:
        keep(error)
    try:
        if "charts" in obj:
            there, alive = _charts(obj["charts"])
    except PackError as error:
        keep(error)
    try:
        if "base_rules" in obj:
            keys_placed = _base_rules(obj["base_rules"])
    except PackError as error:
        keep(error)

    # Ids are unique across the pack, sheet abilities included (``use ID`` names either).
    seen: set[str] = set()
    for table_name in TABLES:
        items = obj.get(table_name)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, Mapping):
                continue
            where = CHECK.where(table_name, index, item)
            ids = [(where, item.get("id"))]
            if table_name == "sheet" and isinstance(item.get("ability"), list):
                ids += [
                    (f"{where} {CHECK.where('ability', i, a)}", a.get("id"))
                    for i, a in enumerate(item["ability"])
                    if isinstance(a, Mapping)
                ]
            for where, card_id in ids:
                if not isinstance(card_id, str) or not ID.fullmatch(card_id):
                    continue  # the card's own check names it
                if card_id in seen:
                    keep(PackError(E_DUPLICATE, where=where, field="id", value=card_id))
                seen.add(card_id)
    for sheet in sheets.values():
        for index, defeat in enumerate(sheet.defeat):
            if defeat.who is not None and defeat.who not in sheets:
                where = f"sheet {sheet.id} defeat[{index + 1}]"
                keep(
                    PackError(
                        E_UNKNOWN_REF, where=where, field="who", value=packs.quote(defeat.who)
                    )
                )
    try:
        _names(sheets, abilities, ccards)
    except PackError as error:
        keep(error)
    if not errors and server:  # the minimums of a pack with bad cards would only repeat them
        try:
            _minimums(counts, sheets, planets, abilities)
            _d2_minimums(ccards, base_cards, keys, damage, there, keys_placed)
        except PackError as error:
            keep(error)
    return Pack(
        *found.result(head),
        counts=counts,
        sheets=sheets,
        planets=planets,
        abilities=abilities,
        source=obj,
        hash=pack_hash(obj),
        ccards=ccards,
        base_cards=base_cards,
        keys=keys,
        damage=damage,
        there=there,
        alive=alive,
        keys_placed=keys_placed,
    )


def sample() -> Pack:
    """The project's sample pack (``data/sample.toml``), loaded once."""
    if "sample" not in _cache:
        _cache["sample"] = load_file(SAMPLE)
    return _cache["sample"]


_cache: dict[str, Pack] = {}


def dealable(pack: Pack, players: int) -> str | None:
    """None if a game of ``players`` can be dealt from ``pack``, else a message key.

    The deal (digest, setup 1) shuffles the (L) sheets whose alignment the row has room for and
    deals the first, then each alignment's other, non-(L) sheets until the row is full: so every
    such (L) sheet, whichever the shuffle puts first, must leave enough non-(L) sheets."""
    row = pack.counts.get(players)
    if row is None:
        return E_NO_ROW
    need = dict(zip(ALIGNMENTS, row, strict=True))
    free = {a: 0 for a in ALIGNMENTS}
    for sheet in pack.sheets.values():
        if not sheet.lock:
            free[sheet.alignment] += 1
    locked = {s.alignment for s in pack.sheets.values() if s.lock and need[s.alignment] >= 1}
    if not locked:
        return E_NO_LOCK
    for first in locked:
        if any(free[a] < need[a] - (a == first) for a in ALIGNMENTS):
            return E_CANNOT_DEAL
    return None


# --- checks --------------------------------------------------------------------------------------


def _choices(table: Mapping[str, Any], where: str, field: str, allowed: Sequence[str]) -> list[str]:
    """An array of distinct values from ``allowed``."""
    value = CHECK.array(table[field], where, field, "array of strings", len(allowed))
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise PackError(E_TYPE, where=where, field=field, expected="array of strings")
        if item not in allowed:
            raise PackError(
                E_VALUE,
                where=where,
                field=field,
                value=packs.quote(item),
                allowed=" ".join(allowed),
            )
        if item in out:
            raise PackError(E_DUPLICATE, where=where, field=field, value=item)
        out.append(item)
    return out


def _count(table: Mapping[str, Any], where: str) -> int:
    return CHECK.integer(table, where, "count", 1, MAX_COPIES) if "count" in table else 1


# --- [counts] ------------------------------------------------------------------------------------


def _counts(value: Any) -> dict[int, tuple[int, int, int]]:
    table = CHECK.table(value, "counts", "counts")
    rows: dict[int, tuple[int, int, int]] = {}
    for key, row in table.items():
        if key not in [str(n) for n in PLAYERS]:
            raise PackError(E_UNKNOWN_KEY, where="counts", field=packs.quote(key))
        if (
            not isinstance(row, list)
            or len(row) != len(ALIGNMENTS)
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in row)
        ):
            raise PackError(E_TYPE, where="counts", field=key, expected="[GOOD, EVIL, SPECIAL]")
        players = int(key)
        good, evil, special = row
        if sum(row) != players or good != evil or not 0 <= special <= good:
            raise PackError(E_COUNTS, where="counts", field=key, players=players)
        rows[players] = (good, evil, special)
    return dict(sorted(rows.items()))


# --- abilities (sheet abilities, ability deck cards) and C card parameters ------------------------


def _combat(table: Mapping[str, Any], where: str, effect: str) -> dict[str, Any]:
    """The validated D2 parameters of an attack / defend / escape / melee (as on C cards), every
    optional one with its default: attack ``level``, ``attribute``, ``firepower`` and ``column``
    (one of them an int, the other None; ``column`` is N of a fixed [N:1]), ``no_defence``,
    ``sync``; defend ``level``, ``blocks`` (list), ``upkeep``, ``sync``; escape ``level``,
    ``teleport``, ``sync``; melee ``x``, ``weapon``."""
    params: dict[str, Any] = {}
    if "level" in table:
        params["level"] = CHECK.integer(table, where, "level", 0, MAX_ESP)
    if effect == "attack":
        params["attribute"] = CHECK.choice(table, where, "attribute", ATTRIBUTES)
        if ("firepower" in table) == ("column" in table):
            raise PackError(E_NEEDS, where=where, field="firepower", needs="firepower / column")
        params["firepower"] = params["column"] = None
        if "firepower" in table:
            params["firepower"] = CHECK.integer(table, where, "firepower", 1, MAX_STAT)
        else:
            value = table["column"]
            if not isinstance(value, str):
                raise PackError(E_TYPE, where=where, field="column", expected="string")
            match = COLUMN.fullmatch(value)
            if match is None or not 1 <= int(match[1]) <= 10:
                raise PackError(
                    E_VALUE,
                    where=where,
                    field="column",
                    value=packs.quote(value),
                    allowed="1:1 … 10:1",
                )
            params["column"] = int(match[1])
        for flag in ("no_defence", "sync"):
            params[flag] = CHECK.boolean(table, where, flag)
    elif effect == "defend":
        params["blocks"] = _choices(table, where, "blocks", ATTRIBUTES)
        if not params["blocks"]:
            raise PackError(E_RANGE, where=where, field="blocks", value=0, low=1, high=4)
        params["upkeep"] = CHECK.opt_integer(table, where, "upkeep", 0, 9)
        params["sync"] = CHECK.boolean(table, where, "sync")
    elif effect == "escape":
        for flag in ("teleport", "sync"):
            params[flag] = CHECK.boolean(table, where, flag)
    elif effect == "melee":
        params["x"] = CHECK.integer(table, where, "x", 0, 9)
        params["weapon"] = CHECK.boolean(table, where, "weapon")
    return params


def _effect_args(table: Mapping[str, Any], where: str, effect: str) -> dict[str, Any]:
    """n / stat / target and the D2 ``params`` of ``effect`` (keys already checked)."""
    args: dict[str, Any] = {}
    if effect in EFFECT_N:
        args["n"] = CHECK.integer(table, where, "n", *EFFECT_N[effect])
    if effect == "recover":
        if "stat" in table:
            args["stat"] = CHECK.choice(table, where, "stat", STATS)
        if "target" in table:
            args["target"] = CHECK.choice(table, where, "target", RECOVER_TARGETS)
    if effect in ("attack", "defend", "escape", "melee"):
        args["params"] = _combat(table, where, effect)
    return args


ABILITY_KEYS = ("id", "name_en", "name_ja", "timing", "effect")


def _ability(table: Mapping[str, Any], where: str, *, deck: bool) -> Ability:
    for key in ABILITY_KEYS:
        if key not in table:
            raise PackError(E_MISSING, where=where, field=key)
    effect = CHECK.choice(table, where, "effect", EFFECTS)
    required, optional = EFFECT_PARAMS[effect]
    own = ("text_en", "text_ja", "cost_mind", "cost_power")
    CHECK.keys(
        table,
        where,
        required=(*ABILITY_KEYS, *required),
        optional=(*optional, *own, *(("lasting", "count") if deck else ())),
    )
    card_id = CHECK.card_id(table, where)
    timing = CHECK.choice(table, where, "timing", TIMINGS)
    if timing not in EFFECT_TIMINGS[effect]:
        raise PackError(
            E_TIMING,
            where=where,
            field="timing",
            value=timing,
            effect=effect,
            allowed=" ".join(EFFECT_TIMINGS[effect]),
        )
    name_en, name_ja, text_en, text_ja = CHECK.texts(table, where)
    return Ability(
        card_id,
        name_en,
        name_ja,
        timing,
        effect,
        cost_mind=CHECK.opt_integer(table, where, "cost_mind", 0, MAX_STAT),
        cost_power=CHECK.opt_integer(table, where, "cost_power", 0, MAX_STAT),
        lasting=CHECK.boolean(table, where, "lasting"),
        count=_count(table, where),
        text_en=text_en,
        text_ja=text_ja,
        **_effect_args(table, where, effect),
    )


# --- [[sheet]] -----------------------------------------------------------------------------------

SHEET_REQUIRED = ("id", "name_en", "name_ja", "alignment", "esp", "durability", "mind")
SHEET_OPTIONAL = (
    "lock",
    "power",
    "hand",
    "henchmen",
    "can_convert",
    "convertible_by",
    "defeat",
    "ability",
)


def _sheet(table: Mapping[str, Any], where: str) -> Sheet:
    CHECK.keys(table, where, required=SHEET_REQUIRED, optional=SHEET_OPTIONAL)
    sheet_id = CHECK.card_id(table, where)
    name_en, name_ja, _, _ = CHECK.texts(table, where)
    alignment = CHECK.choice(table, where, "alignment", ALIGNMENTS)
    lock = CHECK.boolean(table, where, "lock")
    esp = CHECK.integer(table, where, "esp", 0, MAX_ESP)
    durability = CHECK.integer(table, where, "durability", 1, MAX_STAT)
    mind = CHECK.integer(table, where, "mind", 0, MAX_STAT)
    power = CHECK.opt_integer(table, where, "power", 0, MAX_STAT)
    hand = CHECK.opt_integer(table, where, "hand", 0, 9)
    henchmen = CHECK.opt_integer(table, where, "henchmen", 0, 9)
    can_convert = CHECK.boolean(table, where, "can_convert", alignment != "SPECIAL")
    convertible_by = (
        tuple(_choices(table, where, "convertible_by", ALIGNMENTS))
        if "convertible_by" in table
        else ()
    )
    defeats = []
    raw = CHECK.array(table.get("defeat", []), where, "defeat", "array of tables", MAX_DEFEATS)
    for index, item in enumerate(raw):
        at = f"{where} defeat[{index + 1}]"
        defeats.append(_defeat(CHECK.table(item, at, "defeat"), at, sheet_id))
    abilities = []
    raw = CHECK.array(table.get("ability", []), where, "ability", "array of tables", MAX_ABILITIES)
    for index, item in enumerate(raw):
        at = f"{where} {CHECK.where('ability', index, item)}"
        abilities.append(_ability(CHECK.table(item, at, "ability"), at, deck=False))
    return Sheet(
        sheet_id,
        name_en,
        name_ja,
        alignment,
        lock,
        esp,
        durability,
        mind,
        power,
        hand,
        henchmen,
        can_convert,
        convertible_by,
        tuple(defeats),
        tuple(abilities),
    )


DEFEAT_PARAMS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "dead": ((), ("who",)),
    "alive": (("who",), ()),
    "info_below": (("n",), ()),
    "alone": ((), ()),
    "declared": (("alignment",), ()),
}


def _defeat(table: Mapping[str, Any], where: str, sheet_id: str) -> Defeat:
    if "if" not in table:
        raise PackError(E_MISSING, where=where, field="if")
    kind = CHECK.choice(table, where, "if", DEFEATS)
    required, optional = DEFEAT_PARAMS[kind]
    CHECK.keys(table, where, required=("if", *required), optional=optional)
    who = None
    if "who" in table:
        value = table["who"]
        if not isinstance(value, str):
            raise PackError(E_TYPE, where=where, field="who", expected="string")
        if kind == "alive" and value == sheet_id:
            # its own character alive can never be what makes it lose
            raise PackError(
                E_VALUE, where=where, field="who", value=packs.quote(value), allowed="another sheet"
            )
        who = value[:40]  # whether it names a sheet is checked once every sheet is read
    n = CHECK.integer(table, where, "n", 1, 36) if kind == "info_below" else 0
    alignment = CHECK.choice(table, where, "alignment", ALIGNMENTS) if kind == "declared" else None
    return Defeat(kind, who, n, alignment)


# --- [[planet]] and D2 tables --------------------------------------------------------------------


def _planet(
    table: Mapping[str, Any],
    where: str,
    *,
    effects: Sequence[str] = PLANET_EFFECTS,
    extra: Sequence[str] = (),
) -> PlanetCard:
    if "effect" not in table:
        raise PackError(E_MISSING, where=where, field="effect")
    effect = CHECK.choice(table, where, "effect", effects)
    params = ("n",) if effect in PLANET_N else ()
    CHECK.keys(
        table,
        where,
        required=("id", "name_en", "name_ja", "effect", *params),
        optional=("once", "count", "text_en", "text_ja", *extra),
    )
    card_id = CHECK.card_id(table, where)
    texts = CHECK.texts(table, where)
    n = CHECK.integer(table, where, "n", *PLANET_N[effect]) if params else 0
    once = CHECK.boolean(table, where, "once", effect == "info")
    if effect == "info" and not once:
        # an info card is collected: it cannot fire again
        raise PackError(E_VALUE, where=where, field="once", value="false", allowed="true")
    return PlanetCard(
        card_id, texts[0], texts[1], effect, n, once, _count(table, where), *texts[2:]
    )


def _base(table: Mapping[str, Any], where: str) -> BaseCard:
    card = _planet(table, where, effects=BASE_EFFECTS, extra=("evil",))
    return BaseCard(
        card.id,
        card.name_en,
        card.name_ja,
        card.effect,
        card.n,
        card.once,
        card.count,
        card.text_en,
        card.text_ja,
        evil=CHECK.boolean(table, where, "evil"),
    )


def _ccard(table: Mapping[str, Any], where: str) -> CCard:
    base = ("id", "name_en", "name_ja", "kind", "level")
    for key in base:
        if key not in table:
            raise PackError(E_MISSING, where=where, field=key)
    kind = CHECK.choice(table, where, "kind", CCARD_KINDS)
    own = ("count", "text_en", "text_ja")
    if kind == "special":
        if "effect" not in table:
            raise PackError(E_MISSING, where=where, field="effect")
        effect = CHECK.choice(table, where, "effect", SPECIAL_EFFECTS)
        required, optional = EFFECT_PARAMS[effect]
        CHECK.keys(table, where, required=(*base, "effect", *required), optional=(*optional, *own))
    else:
        effect = CCARD_EFFECT[kind]
        required, optional = EFFECT_PARAMS[effect]
        CHECK.keys(table, where, required=(*base, *required), optional=(*optional, *own))
    card_id = CHECK.card_id(table, where)
    name_en, name_ja, text_en, text_ja = CHECK.texts(table, where)
    level = CHECK.integer(table, where, "level", 0, MAX_ESP)
    count = _count(table, where)
    args = _effect_args(table, where, effect)
    params: dict[str, Any] = {**args.get("params", {}), "level": level}
    if effect == "recover":
        params["stat"] = args.get("stat", "durability")
        params["target"] = args.get("target", "self")
    card = CCard(
        card_id,
        name_en,
        name_ja,
        kind,
        level,
        params=params,
        count=count,
        text_en=text_en,
        text_ja=text_ja,
    )
    if kind == "attack":
        return replace(
            card,
            attribute=params["attribute"],
            firepower=params["firepower"],
            column=params["column"],
            no_defence=params["no_defence"],
            sync=params["sync"],
        )
    if kind == "defence":
        return replace(
            card, blocks=tuple(params["blocks"]), upkeep=params["upkeep"], sync=params["sync"]
        )
    if kind == "escape":
        return replace(card, teleport=params["teleport"], sync=params["sync"])
    return replace(card, effect=effect, n=args.get("n", 0))


def _key(table: Mapping[str, Any], where: str) -> KeyInstallation:
    CHECK.keys(table, where, required=("id", "name_en", "name_ja", "durability"))
    card_id = CHECK.card_id(table, where)
    name_en, name_ja, _, _ = CHECK.texts(table, where)
    durability = CHECK.integer(table, where, "durability", 1, MAX_STAT)
    return KeyInstallation(card_id, name_en, name_ja, durability)


def _rolls(
    table: Mapping[str, Any], where: str, field: str, check: Callable[[Any], bool], expected: str
) -> None:
    """An array of ROLLS entries (2D6 = 2..12), each passing ``check``."""
    value = table[field]
    if not isinstance(value, list):
        raise PackError(E_TYPE, where=where, field=field, expected="array")
    if len(value) != ROLLS:
        raise PackError(E_LENGTH, where=where, field=field, count=len(value), size=ROLLS)
    for index, item in enumerate(value):
        if not check(item):
            raise PackError(
                E_TYPE, where=f"{where} {field}[{index + 1}]", field=field, expected=expected
            )


def _damage(value: Any) -> tuple[tuple[int, ...], ...]:
    table = CHECK.table(value, "damage", "damage")
    CHECK.keys(table, "damage", required=("rows",))
    _rolls(table, "damage", "rows", lambda row: isinstance(row, list), "array")
    for index, row in enumerate(table["rows"]):
        where = f"damage rows[{index + 1}]"  # the row of 2D6 = index + 2
        if len(row) != COLUMNS:
            raise PackError(E_LENGTH, where=where, field="rows", count=len(row), size=COLUMNS)
        for item in row:
            if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= MAX_STAT:
                raise PackError(E_TYPE, where=where, field="rows", expected="integers 0–99")
    return tuple(tuple(row) for row in table["rows"])


def _charts(value: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The "there" and "alive" charts."""
    table = CHECK.table(value, "charts", "charts")
    CHECK.keys(table, "charts", required=("there", "alive"))
    _rolls(table, "charts", "there", lambda v: v in THERE, " / ".join(THERE))
    _rolls(table, "charts", "alive", lambda v: v in ALIVE, " / ".join(ALIVE))
    return tuple(table["there"]), tuple(table["alive"])


def _base_rules(value: Any) -> int:
    """How many key installations are placed."""
    table = CHECK.table(value, "base_rules", "base_rules")
    CHECK.keys(table, "base_rules", required=("keys",))
    return CHECK.integer(table, "base_rules", "keys", 1, 36)


# --- across the pack -----------------------------------------------------------------------------


def _names(
    sheets: Mapping[str, Sheet], abilities: Mapping[str, Ability], ccards: Mapping[str, CCard]
) -> None:
    """Orders name a character's silhouette, an ability or a C card by id or by either name: no
    word may name two of them."""
    cards: list[tuple[str, Sheet | Ability | CCard]] = []
    for sheet in sheets.values():
        cards.append((f"sheet {sheet.id}", sheet))
        cards += [(f"sheet {sheet.id} ability {a.id}", a) for a in sheet.abilities]
    cards += [(f"ability {a.id}", a) for a in abilities.values()]
    cards += [(f"ccard {c.id}", c) for c in ccards.values()]
    CHECK.unique_names(cards)


def _minimums(
    counts: Mapping[int, tuple[int, int, int]],
    sheets: Mapping[str, Sheet],
    planets: Mapping[str, PlanetCard],
    abilities: Mapping[str, Ability],
) -> None:
    """A server's pack: every composition row, the sample pack's sizes, every row dealable."""
    for players in PLAYERS:
        if players not in counts:
            raise PackError(E_MISSING, where="counts", field=str(players))
    listed = list(sheets.values())
    planet_cards = list(planets.values())
    checks = [
        ("sheet", len(listed), MIN_SHEETS),
        *(
            (f"sheet alignment = {a}", sum(s.alignment == a for s in listed), MIN_ALIGNED[a])
            for a in ALIGNMENTS
        ),
        ("sheet lock = true", sum(s.lock for s in listed), MIN_LOCKS),
        ("planet", sum(p.count for p in planet_cards), MIN_PLANETS),
        (
            "planet effect = info",
            sum(p.count for p in planet_cards if p.effect == "info"),
            MIN_INFO,
        ),
        (
            "planet effect = ability",
            sum(p.count for p in planet_cards if p.effect == "ability"),
            MIN_WHITE,
        ),
        ("ability", sum(a.count for a in abilities.values()), MIN_ABILITY_CARDS),
    ]
    CHECK.at_least(checks)
    probe = Pack("", 1, "", "", counts, sheets, planets, abilities, {}, "")
    for players in counts:
        if dealable(probe, players) is not None:
            raise PackError(E_UNDEALABLE, where="counts", field=str(players))


def _d2_minimums(
    ccards: Mapping[str, CCard],
    base_cards: Mapping[str, BaseCard],
    keys: Mapping[str, KeyInstallation],
    damage: tuple[tuple[int, ...], ...],
    there: tuple[str, ...],
    keys_placed: int,
) -> None:
    """A server's pack plays D2 too: a C deck of every kind, the damage table and both charts, a
    base card per spot, ``base_rules`` and the key installations it places."""
    for table, present in (("damage", damage), ("charts", there), ("base_rules", keys_placed)):
        if not present:
            raise PackError(E_MISSING, where="pack", field=table)
    cards = list(ccards.values())
    CHECK.at_least(
        [
            ("ccard", sum(c.count for c in cards), MIN_CCARDS),
            *(
                (f"ccard kind = {kind}", sum(c.count for c in cards if c.kind == kind), 1)
                for kind in CCARD_KINDS
            ),
            ("base", sum(b.count for b in base_cards.values()), MIN_BASE),
            (f"key (base_rules keys = {keys_placed})", len(keys), keys_placed),
        ]
    )
