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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import packs
from bot.packs import canonical_json as canonical_json
from bot.packs import pack_hash as pack_hash
from bot.ruleset import Ref

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
MAX_BYTES = packs.MAX_BYTES
MAX_CARDS = 300  # per table
MAX_NAME = 24
MAX_TEXT = 400
MAX_STAT = 99
MAX_ABILITIES = 2
MAX_OPTIONS = 6
LINE = re.compile(r"line:(\d{1,2})")

# Server packs' minimums (a tiny pack embedded in a hand-made record needs none of them).
MIN_UNITS, MIN_CHEST, DECK_UNITS, DECK_CHEST = 8, 6, 8, 6

# Message keys (cogs/apeiron/locales/pack.*.json).
E_TOML = "apeiron.pack.toml"
E_TOO_BIG = "apeiron.pack.too_big"
E_TOO_DEEP = "apeiron.pack.too_deep"
E_NUMBER = "apeiron.pack.number"
E_ONE_LINE = "apeiron.pack.one_line"
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


class PackError(packs.PackError):
    """A pack that cannot be loaded. ``params``: ``where`` (``unit[3] u04``), ``field`` …;
    ``errors``: every bad field found (:class:`bot.packs.PackError`)."""


# The generic field checks (bot/packs.py) with this format's keys and limits: ids are unique
# within each table, and a table's count error names the field ``count``.
CHECK = packs.Checks(
    "apeiron.pack.",
    PackError,
    max_cards=MAX_CARDS,
    max_name=MAX_NAME,
    max_text=MAX_TEXT,
    count_field="count",
    unique_in_table=True,
    # no id or name orders accept reads as a square, an order word, a number or a seat
    grammar=Ref("cogs.apeiron.orders:reads_as"),
)


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
class Unit(packs.Bilingual):
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


@dataclass(frozen=True)
class ChestCard(packs.Bilingual):
    id: str
    kind: str  # item event
    name_en: str
    name_ja: str
    text_en: str
    text_ja: str
    effect: Effect | None  # None: an event with options
    options: tuple[Effect, ...] = ()
    when: str | None = None


@dataclass(frozen=True)
class Special(packs.Bilingual):
    id: str
    name_en: str
    name_ja: str
    text_en: str
    text_ja: str
    effect: Effect


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
class Pack(packs.Bilingual):
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

    def __deepcopy__(self, memo: dict[int, Any]) -> Pack:
        return self  # immutable: states copied for a trial share their pack

    def terrain_panels(self) -> list[Panel]:
        """The terrain panels in pack order (the order the field's shuffle starts from)."""
        return [p for p in self.panels.values() if p.terrain]

    def event_panel(self, kind: str) -> Panel | None:
        return next((p for p in self.panels.values() if p.kind == kind), None)


# --- loading -------------------------------------------------------------------------------------


def loads(text: str, *, server: bool = True) -> Pack:
    """A pack from TOML text (through the shared guarded reader, :meth:`bot.packs.Checks.read`).
    ``server``: hold it to a server pack's minimums."""
    return from_json(CHECK.read(text), server=server)


def load_file(path: Path | str, *, server: bool = True) -> Pack:
    return loads(Path(path).read_text("utf-8"), server=server)


def from_json(obj: Any, *, server: bool = False) -> Pack:
    """A pack from its parsed form (the TOML's tables, or a record's embedded ``pack``).

    Every card is checked on its own and every bad one reported (:class:`bot.packs.Found`); the
    checks across the whole pack (panel counts, a server's minimums) run once all have passed."""
    CHECK.bounded(CHECK.table(obj, "pack", ""))  # before the copy recurses into it
    obj = copy.deepcopy(obj)  # the pack keeps its own copy: nobody else's change reaches it
    found = CHECK.collect()
    keep = found.keep
    head = found.head(obj, ("unit", "chest", "special", "panel", "preset"))
    specials = CHECK.cards(obj, "special", _special, keep)
    chest = CHECK.cards(obj, "chest", lambda t, w: _chest(t, w, specials), keep)
    units = CHECK.cards(obj, "unit", lambda t, w: _unit(t, w, specials), keep)
    panels = CHECK.cards(obj, "panel", _panel, keep)
    presets: list[Preset] = []
    try:
        tables = CHECK.tables(obj, "preset")
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
        # orders name a unit by its id or either name
        CHECK.unique_names((f"unit {unit.id}", unit) for unit in units.values())
    except PackError as error:
        keep(error)
    if not found.errors:  # counts of a pack with bad cards would only repeat those cards' errors
        try:
            _panel_counts(panels, server=server)
            if server:
                _minimums(units, chest, presets)
        except PackError as error:
            keep(error)
    return Pack(
        *found.result(head),
        units,
        chest,
        specials,
        panels,
        tuple(presets),
        obj,
        pack_hash(obj),
    )


# --- checks ---------------------------------------------------------------------------------------


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
    name = CHECK.choice(table, where, "effect", EFFECTS)
    required, optional = EFFECT_PARAMS[name]
    common = ("target", "hits", "reach", "when", *extra)
    CHECK.keys(table, where, required=("effect", *required), optional=(*optional, *common))
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
    target = CHECK.choice(table, where, "target", allowed_targets) if "target" in table else "self"
    args["target"] = target
    if "hits" in table:
        if target != "each" and "area" not in table:
            raise PackError(E_NEEDS, where=where, field="hits", needs="target = each / area")
        args["hits"] = CHECK.choice(table, where, "hits", HITS)
    if target == "self":
        reach = CHECK.choice(table, where, "reach", ("self",)) if "reach" in table else "self"
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
                E_VALUE,
                where=where,
                field="reach",
                value=packs.quote(value),
                allowed=" ".join(allowed),
            )
        reach = value
    args["reach"] = reach

    # its parameters
    if "amount" in table:
        args["amount"] = CHECK.integer(table, where, "amount", 1, MAX_STAT)
    if "area" in table:
        args["area"] = CHECK.integer(table, where, "area", 1, 2)
    if "steps" in table:
        args["steps"] = CHECK.integer(table, where, "steps", 1, 8)
    if "count" in table:
        args["count"] = CHECK.integer(table, where, "count", 1, 5)
    if name == "place":
        args["object"] = CHECK.choice(table, where, "object", OBJECTS)
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
                    value=packs.quote(item),
                    allowed=" ".join(OBJECTS),
                )
        args["objects"] = tuple(dict.fromkeys(objects))
    if name == "stat":
        stat = CHECK.choice(table, where, "stat", STATS)
        args["stat"] = stat
        if stat == "flying":
            if "delta" in table or "value" not in table:
                raise PackError(E_NEEDS, where=where, field="stat", needs="value")
            args["value"] = CHECK.boolean(table, where, "value")
        else:
            if "value" in table or "delta" not in table:
                raise PackError(E_NEEDS, where=where, field="stat", needs="delta")
            args["delta"] = CHECK.integer(table, where, "delta", -MAX_STAT, MAX_STAT)
        if passive:
            if "turns" in table:
                raise PackError(E_UNKNOWN_KEY, where=where, field="turns")
        else:
            if "turns" not in table:
                raise PackError(E_MISSING, where=where, field="turns")
            args["turns"] = CHECK.integer(table, where, "turns", 1, 20)
    if name == "rotate":
        args["quarters"] = CHECK.integer(table, where, "quarters", 1, 3)
    if name == "change":
        # An arrow panel needs arrows a change cannot invent (no new layout): not a target kind.
        args["into"] = CHECK.choice(
            table, where, "into", (*[k for k in KINDS if k != "arrow"], "choice")
        )
    if name == "summon":
        special = table["special"]
        if specials is None:
            raise PackError(E_UNKNOWN_KEY, where=where, field="special")
        if not isinstance(special, str) or special not in specials:
            raise PackError(E_UNKNOWN_REF, where=where, field="special", value=packs.quote(special))
        args["special"] = special
    if name in ("damage", "heal") and "area" in table and target == "each":
        raise PackError(E_NEEDS, where=where, field="area", needs="a chosen target")
    return Effect(name, **args)


def _when(table: Mapping[str, Any], where: str) -> str | None:
    return CHECK.choice(table, where, "when", KINDS) if "when" in table else None


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
    CHECK.keys(table, where, required=UNIT_KEYS)
    unit_id = CHECK.card_id(table, where)
    texts = CHECK.texts(table, where)
    for field in ("name_en", "name_ja"):
        if len(table[field].split()) != 1:
            raise PackError(
                E_VALUE,
                where=where,
                field=field,
                value=packs.quote(table[field]),
                allowed="one word",
            )
    hp = CHECK.integer(table, where, "hp", 1, MAX_STAT)
    power = CHECK.integer(table, where, "power", 0, MAX_STAT)
    move = CHECK.integer(table, where, "move", 1, 8)
    flying = CHECK.boolean(table, where, "flying")
    reach = CHECK.integer(table, where, "range", 1, 8)
    grave = CHECK.integer(table, where, "grave_turns", 0, 20)
    raw = CHECK.array(table["abilities"], where, "abilities", "array of tables", MAX_ABILITIES)
    abilities = []
    for index, item in enumerate(raw):
        at = f"{where} abilities[{index + 1}]"
        item = CHECK.table(item, at, "abilities")
        if "timing" not in item:
            raise PackError(E_MISSING, where=at, field="timing")
        timing = CHECK.choice(item, at, "timing", TIMINGS)
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
        cost = CHECK.opt_integer(item, at, "cost", 0, MAX_STAT)
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
    CHECK.keys(table, where, required=base, optional=("effect", "options", "when"))
    card_id = CHECK.card_id(table, where)
    kind = CHECK.choice(table, where, "kind", CHEST_KINDS)
    texts = CHECK.texts(table, where)
    when = _when(table, where)
    if ("effect" in table) == ("options" in table):
        raise PackError(E_NEEDS, where=where, field="effect", needs="effect / options")
    if "effect" in table:
        effect = _effect(CHECK.table(table["effect"], where, "effect"), f"{where} effect", specials)
        return ChestCard(card_id, kind, *texts, effect, (), when)
    if kind != "event":
        raise PackError(E_NEEDS, where=where, field="options", needs="kind = event")
    raw = CHECK.array(table["options"], where, "options", "array of tables", MAX_OPTIONS, low=2)
    options = tuple(
        _effect(CHECK.table(item, where, "options"), f"{where} options[{i + 1}]", specials)
        for i, item in enumerate(raw)
    )
    return ChestCard(card_id, kind, *texts, None, options, when)


def _special(table: Mapping[str, Any], where: str) -> Special:
    CHECK.keys(table, where, required=("id", "name_en", "name_ja", "text_en", "text_ja", "effect"))
    card_id = CHECK.card_id(table, where)
    texts = CHECK.texts(table, where)
    # a special unit has no square to stand on and nobody to choose for it
    effect = _effect(CHECK.table(table["effect"], where, "effect"), f"{where} effect", None)
    if effect.target != "each" or effect.reach != "field":
        raise PackError(
            E_NEEDS, where=f"{where} effect", field="target", needs="target = each, reach = field"
        )
    return Special(card_id, *texts, effect)


def _panel(table: Mapping[str, Any], where: str) -> Panel:
    CHECK.keys(table, where, required=("id", "kind", "layout"))
    panel_id = CHECK.card_id(table, where)
    kind = CHECK.choice(table, where, "kind", KINDS)
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
    CHECK.keys(table, where, required=("id", "units", "chest"))
    preset_id = CHECK.card_id(table, where)
    lists = []
    for field, cards, size in (("units", units, DECK_UNITS), ("chest", chest, DECK_CHEST)):
        value = table[field]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PackError(E_TYPE, where=where, field=field, expected="array of strings")
        for card in value:
            if card not in cards:
                raise PackError(E_UNKNOWN_REF, where=where, field=field, value=packs.quote(card))
        if len(value) != size or len(set(value)) != size:
            raise PackError(E_PRESET, where=where, field=field, size=size)
        lists.append(tuple(value))
    return Preset(preset_id, lists[0], lists[1])


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
    CHECK.at_least(
        [
            ("unit", len(units), MIN_UNITS),
            ("chest", len(chest), MIN_CHEST),
            ("preset", len(presets), 1),
        ]
    )


def starter() -> Pack:
    """The project's starter pack (``data/starter.toml``)."""
    return _starter()


_cache: dict[str, Pack] = {}


def _starter() -> Pack:
    if "starter" not in _cache:
        _cache["starter"] = load_file(STARTER)
    return _cache["starter"]
