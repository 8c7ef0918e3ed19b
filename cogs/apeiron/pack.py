"""Apeiron data packs (``../shared/rules/apeiron-pack.md``): load, validate, hash.

A pack is one UTF-8 TOML file (units, chest cards, special units, panels, preset decks). Loading
is all or nothing: the first bad field raises a :class:`PackError` whose message key says what is
wrong and whose parameters say where (``where``: the table and its index or id, ``field``: the
key), and no :class:`Pack` exists until every table has passed.

The pack's canonical JSON (the TOML parsed, then ``json.dumps(sort_keys=True,
ensure_ascii=False, separators=(",", ":"))``) is what records embed and what ``pack_hash``
hashes; :func:`from_json` loads that JSON back through the same checks.

>>> pack = load_file(STARTER)
>>> len(pack.units) >= 24, len(pack.chest) >= 16, pack.presets[0].id
(True, True, 'starter-a')
>>> from_json(pack.source).hash == pack.hash
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.ruleset import RuleError

DATA = Path(__file__).resolve().parent / "data"
STARTER = DATA / "starter.toml"

TERRAIN_KINDS = ("grass", "forest", "rock", "sea")
EVENT_KINDS = ("poison", "gravity", "arrow", "lawless")
KINDS = TERRAIN_KINDS + EVENT_KINDS
# Orders name panel kinds in either language (``item P2 grass``, ``草原``).
KIND_NAMES_JA = {
    "grass": "草原",
    "forest": "森",
    "rock": "岩場",
    "sea": "海",
    "poison": "毒",
    "gravity": "重力",
    "arrow": "矢印",
    "lawless": "無法",
}
PER_TERRAIN_KIND = 4  # panels of a terrain kind in a server's pack (and at most on the field)
# The layouts the digest gives each terrain kind: (obstacles, treasure).
TERRAIN_LAYOUT = {"grass": (0, 0), "forest": (1, 1), "rock": (2, 0), "sea": (1, 0)}
ARROWS = "^>v<"

OBJECTS = ("obstacle", "poison", "bomb", "stop", "treasure")
EFFECTS = (
    "damage",
    "heal",
    "push",
    "pull",
    "place",
    "remove",
    "stat",
    "rotate",
    "move_panel",
    "change",
    "remove_panel",
    "summon",
)
PANEL_EFFECTS = ("rotate", "move_panel", "change", "remove_panel")
UNIT_EFFECTS = ("damage", "heal", "push", "pull", "stat")
SQUARE_EFFECTS = ("place", "remove")
TARGETS = ("self", "enemy", "ally", "unit", "square", "panel", "each")
UNIT_TARGETS = ("self", "enemy", "ally", "unit", "each")
HITS = ("enemies", "allies", "all")
UNIT_REACHES = ("self", "adjacent", "range:1", "range:2", "field")  # and line:R
PANEL_REACHES = ("panel", "adjacent-panel", "field")
TIMINGS = ("star", "passive", "start", "end")
STATS = ("power", "move", "range", "flying")
CHEST_KINDS = ("item", "event")

# Bounds that keep a community's pack sane (and a record that embeds it small).
MAX_BYTES = 256 * 1024
MAX_CARDS = 300  # per table
MAX_NAME = 24
MAX_TEXT = 400
MAX_STAT = 99
MAX_ABILITIES = 2
MAX_OPTIONS = 6
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
LINE = re.compile(r"line:(\d{1,2})")

# Server packs' minimums (a tiny pack embedded in a hand-made record needs none of them).
MIN_UNITS, MIN_CHEST, DECK_UNITS, DECK_CHEST = 8, 6, 8, 6

# Message keys (cogs/apeiron/locales/pack.*.json).
E_TOML = "apeiron.pack.toml"
E_TOO_BIG = "apeiron.pack.too_big"
E_MISSING = "apeiron.pack.missing"
E_UNKNOWN_KEY = "apeiron.pack.unknown_key"
E_TYPE = "apeiron.pack.type"
E_VALUE = "apeiron.pack.value"
E_RANGE = "apeiron.pack.range"
E_DUPLICATE = "apeiron.pack.duplicate"
E_UNKNOWN_REF = "apeiron.pack.unknown_ref"
E_LAYOUT = "apeiron.pack.layout"
E_PANELS = "apeiron.pack.panels"
E_TOO_FEW = "apeiron.pack.too_few"
E_PRESET = "apeiron.pack.preset"
E_NEEDS = "apeiron.pack.needs"


class PackError(RuleError):
    """A pack that cannot be loaded. ``params``: ``where`` (``unit[3] u04``), ``field`` …

    ``errors``: every bad field the loader found, this one first (just this one where it could
    not go on: a file too big, TOML that does not parse)."""

    errors: tuple[PackError, ...] = ()

    @property
    def all(self) -> tuple[PackError, ...]:
        return self.errors or (self,)


# --- the cards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One effect of the catalogue with its parameters (absent ones None)."""

    effect: str
    target: str = "self"
    hits: str = "enemies"
    reach: str = "self"
    amount: int | None = None
    area: int | None = None
    steps: int | None = None
    object: str | None = None
    objects: tuple[str, ...] = ()  # ``remove``'s list
    count: int | None = None
    stat: str | None = None
    delta: int | None = None
    value: bool | None = None
    turns: int | None = None
    quarters: int | None = None
    into: str | None = None
    special: str | None = None

    @property
    def line(self) -> int | None:
        """R of a ``line:R`` reach."""
        match = LINE.fullmatch(self.reach)
        return int(match[1]) if match else None


@dataclass(frozen=True)
class Ability:
    timing: str  # star passive start end
    effect: Effect
    cost: int = 0
    when: str | None = None  # a panel kind the actor must stand on


@dataclass(frozen=True)
class Unit:
    id: str
    name_en: str
    name_ja: str
    hp: int
    power: int
    move: int
    flying: bool
    range: int
    grave_turns: int
    text_en: str
    text_ja: str
    abilities: tuple[Ability, ...]

    def name(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name_en


@dataclass(frozen=True)
class ChestCard:
    id: str
    kind: str  # item event
    name_en: str
    name_ja: str
    text_en: str
    text_ja: str
    effect: Effect | None  # None: an event with options
    options: tuple[Effect, ...] = ()
    when: str | None = None

    def name(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name_en


@dataclass(frozen=True)
class Special:
    id: str
    name_en: str
    name_ja: str
    text_en: str
    text_ja: str
    effect: Effect

    def name(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name_en


@dataclass(frozen=True)
class Panel:
    id: str
    kind: str
    layout: tuple[str, str, str]  # rotation 0, top row first

    @property
    def terrain(self) -> bool:
        return self.kind in TERRAIN_KINDS


@dataclass(frozen=True)
class Preset:
    id: str
    units: tuple[str, ...]
    chest: tuple[str, ...]


@dataclass(frozen=True)
class Pack:
    id: str
    version: int
    name_en: str
    name_ja: str
    units: Mapping[str, Unit]  # in pack order
    chest: Mapping[str, ChestCard]
    specials: Mapping[str, Special]
    panels: Mapping[str, Panel]
    presets: tuple[Preset, ...]
    source: Mapping[str, Any]  # the parsed pack (its canonical JSON is what records embed)
    hash: str

    def name(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name_en

    def __deepcopy__(self, memo: dict[int, Any]) -> Pack:
        return self  # immutable: states copied for a trial share their pack

    def terrain_panels(self) -> list[Panel]:
        """The terrain panels in pack order (the order the field's shuffle starts from)."""
        return [p for p in self.panels.values() if p.terrain]

    def event_panel(self, kind: str) -> Panel | None:
        return next((p for p in self.panels.values() if p.kind == kind), None)


# --- canonical JSON and the hash -----------------------------------------------------------------


def canonical_json(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def pack_hash(obj: Mapping[str, Any]) -> str:
    """sha256 (hex) of the pack's canonical JSON in UTF-8."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()


# --- loading -------------------------------------------------------------------------------------


def loads(text: str, *, server: bool = True) -> Pack:
    """A pack from TOML text. ``server``: hold it to a server pack's minimums."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise PackError(E_TOO_BIG, limit=MAX_BYTES // 1024)
    try:
        obj = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PackError(E_TOML, detail=str(error)[:200]) from None
    return from_json(obj, server=server)


def load_file(path: Path | str, *, server: bool = True) -> Pack:
    return loads(Path(path).read_text("utf-8"), server=server)


def from_json(obj: Any, *, server: bool = False) -> Pack:
    """A pack from its parsed form (the TOML's tables, or a record's embedded ``pack``).

    Each card is checked on its own, so one upload names every bad card at once: the
    :class:`PackError` raised is the first bad field found, and its ``errors`` are all of them
    (a card naming a card already reported bad is not reported again). The checks across the
    whole pack (panel counts, a server's minimums) run once every card has passed."""
    if not isinstance(obj, Mapping):
        raise PackError(E_TYPE, where="pack", field="", expected="table")
    obj = copy.deepcopy(obj)  # the pack keeps its own copy: nobody else's change reaches it
    errors: list[PackError] = []
    broken: set[str] = set()

    def keep(error: PackError, card: Any = None) -> None:
        if error.key == E_UNKNOWN_REF and error.params.get("value") in broken:
            return  # it names a card already reported bad: one line per bad field
        errors.append(error)
        if isinstance(card, Mapping) and isinstance(card.get("id"), str):
            broken.add(card["id"])

    head: tuple[str, int, str, str] | None = None
    try:
        _keys(
            obj,
            "pack",
            required=("pack",),
            optional=("unit", "chest", "special", "panel", "preset"),
        )
    except PackError as error:
        keep(error)
    if "pack" in obj:
        try:
            table = _table(obj["pack"], "pack", "pack")
            _keys(table, "pack", required=("id", "version", "name_en", "name_ja"))
            head = (
                _id(table, "pack"),
                _int(table, "pack", "version", 1, 10**6),
                _name(table, "pack", "name_en"),
                _name(table, "pack", "name_ja"),
            )
        except PackError as error:
            keep(error)

    specials = _cards(obj, "special", _special, keep)
    chest = _cards(obj, "chest", lambda t, w: _chest(t, w, specials), keep)
    units = _cards(obj, "unit", lambda t, w: _unit(t, w, specials), keep)
    panels = _cards(obj, "panel", _panel, keep)
    presets: list[Preset] = []
    try:
        tables = _tables(obj, "preset")
    except PackError as error:
        keep(error)
        tables = []
    for item, where in tables:
        try:
            presets.append(_preset(item, where, units, chest))
        except PackError as error:
            keep(error, item)
    seen: dict[str, str] = {}
    for table_name, cards in (
        ("special", specials),
        ("chest", chest),
        ("unit", units),
        ("panel", panels),
        ("preset", {p.id: p for p in presets}),
    ):
        for card_id in cards:
            if card_id in seen:
                keep(PackError(E_DUPLICATE, where=table_name, field="id", value=card_id))
            seen[card_id] = table_name
    try:
        _unit_names(units)
    except PackError as error:
        keep(error)
    if not errors:  # counts of a pack with bad cards would only repeat those cards' errors
        try:
            _panel_counts(panels, server=server)
            if server:
                _minimums(units, chest, presets)
        except PackError as error:
            keep(error)
    if errors or head is None:
        first = errors[0] if errors else PackError(E_MISSING, where="pack", field="pack")
        first.errors = tuple(errors) or (first,)
        raise first
    return Pack(
        *head,
        units,
        chest,
        specials,
        panels,
        tuple(presets),
        obj,
        pack_hash(obj),
    )


# --- checks --------------------------------------------------------------------------------------


def _where(table: str, index: int, value: Mapping[str, Any]) -> str:
    card_id = value.get("id") if isinstance(value, Mapping) else None
    return f"{table}[{index + 1}]" + (f" {card_id}" if isinstance(card_id, str) else "")


def _keys(
    table: Mapping[str, Any],
    where: str,
    required: Sequence[str] = (),
    optional: Sequence[str] = (),
) -> None:
    for key in table:
        if key not in required and key not in optional:
            raise PackError(E_UNKNOWN_KEY, where=where, field=str(key)[:40])
    for key in required:
        if key not in table:
            raise PackError(E_MISSING, where=where, field=key)


def _table(value: Any, where: str, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PackError(E_TYPE, where=where, field=field, expected="table")
    return value


def _tables(obj: Mapping[str, Any], table: str) -> list[tuple[Mapping[str, Any], str]]:
    items = obj.get(table, [])
    if not isinstance(items, list):
        raise PackError(E_TYPE, where=table, field=table, expected="array of tables")
    if len(items) > MAX_CARDS:
        raise PackError(
            E_RANGE, where=table, field="count", value=len(items), low=0, high=MAX_CARDS
        )
    out = []
    for index, item in enumerate(items):
        where = _where(table, index, item)
        out.append((_table(item, where, table), where))
    return out


def _cards(
    obj: Mapping[str, Any], table: str, build: Any, keep: Callable[..., None]
) -> dict[str, Any]:
    """The table's cards that pass; each bad one goes to ``keep`` (the error, the card)."""
    cards: dict[str, Any] = {}
    try:
        items = _tables(obj, table)
    except PackError as error:
        keep(error)
        return cards
    for item, where in items:
        try:
            card = build(item, where)
            if card.id in cards:
                raise PackError(E_DUPLICATE, where=where, field="id", value=card.id)
        except PackError as error:
            keep(error, item)
            continue
        cards[card.id] = card
    return cards


def _int(table: Mapping[str, Any], where: str, field: str, low: int, high: int) -> int:
    value = table[field]
    if not isinstance(value, int) or isinstance(value, bool):
        raise PackError(E_TYPE, where=where, field=field, expected="integer")
    if not low <= value <= high:
        raise PackError(E_RANGE, where=where, field=field, value=value, low=low, high=high)
    return value


def _bool(table: Mapping[str, Any], where: str, field: str) -> bool:
    value = table[field]
    if not isinstance(value, bool):
        raise PackError(E_TYPE, where=where, field=field, expected="boolean")
    return value


def _str(table: Mapping[str, Any], where: str, field: str, limit: int) -> str:
    value = table[field]
    if not isinstance(value, str):
        raise PackError(E_TYPE, where=where, field=field, expected="string")
    if not value.strip() or len(value) > limit:
        raise PackError(E_RANGE, where=where, field=field, value=len(value), low=1, high=limit)
    return value


def _name(table: Mapping[str, Any], where: str, field: str) -> str:
    return _str(table, where, field, MAX_NAME)


def _choice(table: Mapping[str, Any], where: str, field: str, allowed: Sequence[str]) -> str:
    value = table[field]
    if not isinstance(value, str):
        raise PackError(E_TYPE, where=where, field=field, expected="string")
    if value not in allowed:
        raise PackError(
            E_VALUE, where=where, field=field, value=value[:40], allowed=" ".join(allowed)
        )
    return value


def _id(table: Mapping[str, Any], where: str) -> str:
    value = table["id"]
    if not isinstance(value, str):
        raise PackError(E_TYPE, where=where, field="id", expected="string")
    if not ID.fullmatch(value):
        raise PackError(E_VALUE, where=where, field="id", value=value[:40], allowed="a-z 0-9 -")
    return value


EFFECT_PARAMS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # effect: (required, optional) parameters besides effect/target/hits/reach/when
    "damage": (("amount",), ("area",)),
    "heal": (("amount",), ("area",)),
    "push": (("steps",), ()),
    "pull": (("steps",), ()),
    "place": (("object", "count"), ()),
    "remove": (("object",), ()),
    "stat": (("stat",), ("delta", "value", "turns")),
    "rotate": (("quarters",), ()),
    "move_panel": ((), ()),
    "change": (("into",), ()),
    "remove_panel": ((), ()),
    "summon": (("special",), ()),
}


def _effect(
    table: Mapping[str, Any],
    where: str,
    specials: Mapping[str, Special] | None,
    *,
    extra: Sequence[str] = (),
    passive: bool = False,
) -> Effect:
    """One effect table (``extra``: the caller's own keys, such as ``timing`` and ``cost``)."""
    if "effect" not in table:
        raise PackError(E_MISSING, where=where, field="effect")
    name = _choice(table, where, "effect", EFFECTS)
    required, optional = EFFECT_PARAMS[name]
    common = ("target", "hits", "reach", "when", *extra)
    _keys(table, where, required=("effect", *required), optional=(*optional, *common))
    args: dict[str, Any] = {}

    # what it aims at
    if name in PANEL_EFFECTS:
        allowed_targets: tuple[str, ...] = ("panel",)
    elif name in SQUARE_EFFECTS:
        allowed_targets = ("square",)
    elif name == "summon":
        allowed_targets = ("self",)
    elif name in ("push", "pull"):
        allowed_targets = ("enemy", "ally", "unit", "each")
    else:
        allowed_targets = UNIT_TARGETS
    if "target" not in table and name not in ("summon",):
        raise PackError(E_MISSING, where=where, field="target")
    target = _choice(table, where, "target", allowed_targets) if "target" in table else "self"
    args["target"] = target
    if "hits" in table:
        if target != "each" and "area" not in table:
            raise PackError(E_NEEDS, where=where, field="hits", needs="target = each / area")
        args["hits"] = _choice(table, where, "hits", HITS)
    if target == "self":
        reach = _choice(table, where, "reach", ("self",)) if "reach" in table else "self"
    else:
        if "reach" not in table:
            raise PackError(E_MISSING, where=where, field="reach")
        value = table["reach"]
        if not isinstance(value, str):
            raise PackError(E_TYPE, where=where, field="reach", expected="string")
        allowed = PANEL_REACHES if target == "panel" else (*UNIT_REACHES[1:], "line:R")
        match = LINE.fullmatch(value)
        ok = (
            value in PANEL_REACHES
            if target == "panel"
            else value in UNIT_REACHES[1:] or (match is not None and 1 <= int(match[1]) <= 8)
        )
        if not ok:
            raise PackError(
                E_VALUE, where=where, field="reach", value=value[:40], allowed=" ".join(allowed)
            )
        reach = value
    args["reach"] = reach

    # its parameters
    if "amount" in table:
        args["amount"] = _int(table, where, "amount", 1, MAX_STAT)
    if "area" in table:
        args["area"] = _int(table, where, "area", 1, 2)
    if "steps" in table:
        args["steps"] = _int(table, where, "steps", 1, 8)
    if "count" in table:
        args["count"] = _int(table, where, "count", 1, 5)
    if name == "place":
        args["object"] = _choice(table, where, "object", OBJECTS)
    if name == "remove":
        objects = table["object"]
        if not isinstance(objects, list) or not objects:
            raise PackError(E_TYPE, where=where, field="object", expected="array of strings")
        for item in objects:
            if item not in OBJECTS:
                raise PackError(
                    E_VALUE,
                    where=where,
                    field="object",
                    value=str(item)[:40],
                    allowed=" ".join(OBJECTS),
                )
        args["objects"] = tuple(dict.fromkeys(objects))
    if name == "stat":
        stat = _choice(table, where, "stat", STATS)
        args["stat"] = stat
        if stat == "flying":
            if "delta" in table or "value" not in table:
                raise PackError(E_NEEDS, where=where, field="stat", needs="value")
            args["value"] = _bool(table, where, "value")
        else:
            if "value" in table or "delta" not in table:
                raise PackError(E_NEEDS, where=where, field="stat", needs="delta")
            args["delta"] = _int(table, where, "delta", -MAX_STAT, MAX_STAT)
        if passive:
            if "turns" in table:
                raise PackError(E_UNKNOWN_KEY, where=where, field="turns")
        else:
            if "turns" not in table:
                raise PackError(E_MISSING, where=where, field="turns")
            args["turns"] = _int(table, where, "turns", 1, 20)
    if name == "rotate":
        args["quarters"] = _int(table, where, "quarters", 1, 3)
    if name == "change":
        # An arrow panel needs arrows a change cannot invent (no new layout): not a target kind.
        args["into"] = _choice(
            table, where, "into", (*[k for k in KINDS if k != "arrow"], "choice")
        )
    if name == "summon":
        special = table["special"]
        if specials is None:
            raise PackError(E_UNKNOWN_KEY, where=where, field="special")
        if not isinstance(special, str) or special not in specials:
            raise PackError(E_UNKNOWN_REF, where=where, field="special", value=str(special)[:40])
        args["special"] = special
    if name in ("damage", "heal") and "area" in table and target == "each":
        raise PackError(E_NEEDS, where=where, field="area", needs="a chosen target")
    return Effect(name, **args)


def _when(table: Mapping[str, Any], where: str) -> str | None:
    return _choice(table, where, "when", KINDS) if "when" in table else None


def _texts(table: Mapping[str, Any], where: str) -> tuple[str, str, str, str]:
    return (
        _name(table, where, "name_en"),
        _name(table, where, "name_ja"),
        _str(table, where, "text_en", MAX_TEXT),
        _str(table, where, "text_ja", MAX_TEXT),
    )


UNIT_KEYS = (
    "id",
    "name_en",
    "name_ja",
    "hp",
    "power",
    "move",
    "flying",
    "range",
    "grave_turns",
    "text_en",
    "text_ja",
    "abilities",
)


def _unit(table: Mapping[str, Any], where: str, specials: Mapping[str, Special]) -> Unit:
    _keys(table, where, required=UNIT_KEYS)
    unit_id = _id(table, where)
    texts = _texts(table, where)
    for field in ("name_en", "name_ja"):
        if len(table[field].split()) != 1:
            raise PackError(
                E_VALUE, where=where, field=field, value=table[field], allowed="one word"
            )
    hp = _int(table, where, "hp", 1, MAX_STAT)
    power = _int(table, where, "power", 0, MAX_STAT)
    move = _int(table, where, "move", 1, 8)
    flying = _bool(table, where, "flying")
    reach = _int(table, where, "range", 1, 8)
    grave = _int(table, where, "grave_turns", 0, 20)
    raw = table["abilities"]
    if not isinstance(raw, list):
        raise PackError(E_TYPE, where=where, field="abilities", expected="array of tables")
    if len(raw) > MAX_ABILITIES:
        raise PackError(
            E_RANGE, where=where, field="abilities", value=len(raw), low=0, high=MAX_ABILITIES
        )
    abilities = []
    for index, item in enumerate(raw):
        at = f"{where} abilities[{index + 1}]"
        item = _table(item, at, "abilities")
        if "timing" not in item:
            raise PackError(E_MISSING, where=at, field="timing")
        timing = _choice(item, at, "timing", TIMINGS)
        extra = ("timing", "cost") if timing == "star" else ("timing",)
        effect = _effect(item, at, specials, extra=extra, passive=timing == "passive")
        if timing == "passive" and effect.effect != "stat":
            raise PackError(E_NEEDS, where=at, field="timing", needs="effect = stat")
        if timing == "passive" and effect.target != "self":
            raise PackError(E_NEEDS, where=at, field="target", needs="self")
        if timing in ("start", "end") and effect.target not in ("self", "each"):
            # nobody is asked for a target at those moments
            raise PackError(E_NEEDS, where=at, field="target", needs="self / each")
        if timing in ("start", "end") and effect.effect in (*PANEL_EFFECTS, *SQUARE_EFFECTS):
            raise PackError(E_NEEDS, where=at, field="effect", needs="timing = star")
        cost = _int(item, at, "cost", 0, MAX_STAT) if "cost" in item else 0
        abilities.append(Ability(timing, effect, cost, _when(item, at)))
    return Unit(
        unit_id,
        texts[0],
        texts[1],
        hp,
        power,
        move,
        flying,
        reach,
        grave,
        texts[2],
        texts[3],
        tuple(abilities),
    )


def _chest(table: Mapping[str, Any], where: str, specials: Mapping[str, Special]) -> ChestCard:
    base = ("id", "kind", "name_en", "name_ja", "text_en", "text_ja")
    _keys(table, where, required=base, optional=("effect", "options", "when"))
    card_id = _id(table, where)
    kind = _choice(table, where, "kind", CHEST_KINDS)
    texts = _texts(table, where)
    when = _when(table, where)
    if ("effect" in table) == ("options" in table):
        raise PackError(E_NEEDS, where=where, field="effect", needs="effect / options")
    if "effect" in table:
        effect = _effect(_table(table["effect"], where, "effect"), f"{where} effect", specials)
        return ChestCard(card_id, kind, *texts, effect, (), when)
    if kind != "event":
        raise PackError(E_NEEDS, where=where, field="options", needs="kind = event")
    raw = table["options"]
    if not isinstance(raw, list):
        raise PackError(E_TYPE, where=where, field="options", expected="array of tables")
    if not 2 <= len(raw) <= MAX_OPTIONS:
        raise PackError(
            E_RANGE, where=where, field="options", value=len(raw), low=2, high=MAX_OPTIONS
        )
    options = tuple(
        _effect(_table(item, where, "options"), f"{where} options[{i + 1}]", specials)
        for i, item in enumerate(raw)
    )
    return ChestCard(card_id, kind, *texts, None, options, when)


def _special(table: Mapping[str, Any], where: str) -> Special:
    _keys(table, where, required=("id", "name_en", "name_ja", "text_en", "text_ja", "effect"))
    card_id = _id(table, where)
    texts = _texts(table, where)
    # a special unit has no square to stand on and nobody to choose for it
    effect = _effect(_table(table["effect"], where, "effect"), f"{where} effect", None)
    if effect.target != "each" or effect.reach != "field":
        raise PackError(
            E_NEEDS, where=f"{where} effect", field="target", needs="target = each, reach = field"
        )
    return Special(card_id, *texts, effect)


def _panel(table: Mapping[str, Any], where: str) -> Panel:
    _keys(table, where, required=("id", "kind", "layout"))
    panel_id = _id(table, where)
    kind = _choice(table, where, "kind", KINDS)
    layout = table["layout"]
    if (
        not isinstance(layout, list)
        or len(layout) != 3
        or not all(isinstance(row, str) and len(row) == 3 for row in layout)
    ):
        raise PackError(E_TYPE, where=where, field="layout", expected="3 strings of 3")
    cells = "".join(layout)
    if kind == "arrow":
        ok = all(c in ARROWS for c in cells)
    elif kind in EVENT_KINDS:
        ok = set(cells) == {"."}
    else:
        obstacles, treasure = TERRAIN_LAYOUT[kind]
        ok = (
            set(cells) <= set(".#T")
            and cells.count("#") == obstacles
            and cells.count("T") == treasure
        )
    if not ok:
        raise PackError(E_LAYOUT, where=where, kind=kind)
    return Panel(panel_id, kind, (layout[0], layout[1], layout[2]))


def _preset(
    table: Mapping[str, Any],
    where: str,
    units: Mapping[str, Unit],
    chest: Mapping[str, ChestCard],
) -> Preset:
    _keys(table, where, required=("id", "units", "chest"))
    preset_id = _id(table, where)
    lists = []
    for field, cards, size in (("units", units, DECK_UNITS), ("chest", chest, DECK_CHEST)):
        value = table[field]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PackError(E_TYPE, where=where, field=field, expected="array of strings")
        for card in value:
            if card not in cards:
                raise PackError(E_UNKNOWN_REF, where=where, field=field, value=card[:40])
        if len(value) != size or len(set(value)) != size:
            raise PackError(E_PRESET, where=where, field=field, size=size)
        lists.append(tuple(value))
    return Preset(preset_id, lists[0], lists[1])


def _unit_names(units: Mapping[str, Unit]) -> None:
    """Orders name a unit by its id or either name: no word may name two units."""
    owner: dict[str, str] = {}
    for unit in units.values():
        for field, word in (("id", unit.id), ("name_en", unit.name_en), ("name_ja", unit.name_ja)):
            key = word.casefold()
            if owner.get(key, unit.id) != unit.id:
                raise PackError(E_DUPLICATE, where=f"unit {unit.id}", field=field, value=word)
            owner[key] = unit.id


def _panel_counts(panels: Mapping[str, Panel], *, server: bool) -> None:
    counts = {kind: 0 for kind in KINDS}
    for panel in panels.values():
        counts[panel.kind] += 1
    for kind in EVENT_KINDS:
        if counts[kind] > 1:
            raise PackError(E_PANELS, kind=kind, count=counts[kind], expected="0-1")
    for kind in TERRAIN_KINDS:
        if server and counts[kind] != PER_TERRAIN_KIND:
            raise PackError(E_PANELS, kind=kind, count=counts[kind], expected=PER_TERRAIN_KIND)


def _minimums(
    units: Mapping[str, Unit], chest: Mapping[str, ChestCard], presets: Sequence[Preset]
) -> None:
    for what, have, need in (
        ("unit", len(units), MIN_UNITS),
        ("chest", len(chest), MIN_CHEST),
        ("preset", len(presets), 1),
    ):
        if have < need:
            raise PackError(E_TOO_FEW, what=what, count=have, minimum=need)


def starter() -> Pack:
    """The project's starter pack (``data/starter.toml``)."""
    return _starter()


_cache: dict[str, Pack] = {}


def _starter() -> Pack:
    if "starter" not in _cache:
        _cache["starter"] = load_file(STARTER)
    return _cache["starter"]
