"""What every ruleset's data-pack loader shares: the guarded TOML reader, the field checks, the
collecting of errors, the canonical JSON and its hash, and the cache of decoded packs.

A ruleset's pack module keeps its own format (tables, cards, limits, message catalogue) and binds
these checks to it through one :class:`Checks`: its message keys are ``prefix`` + a fixed name
(``apeiron.pack.`` + ``type``), so each ruleset's catalogue holds ``type``, ``missing``,
``unknown_key``, ``value``, ``range``, ``duplicate``, ``unknown_ref``, ``too_few``,
``one_line``, ``toml``, ``too_big``, ``too_deep`` and ``number`` under its prefix, with the
parameters each check below passes (and, for a format whose ids orders name, ``reserved.place``,
``reserved.word``, ``reserved.number`` and ``reserved.seat``). Pure: no discord, no storage.

A pack is data a stranger wrote, and every loader takes the same path through it, so that no
ruleset's loader drifts from the others': :meth:`Checks.read` bounds the file's size, its
nesting and its dotted keys *before* the parser sees it (the parser recurses, and its time grows
with the square of a key's parts), then the parsed object's (:meth:`Checks.bounded`, which a
record's embedded pack goes through too); names and texts are one line; a message quotes a bad
value short and on one line (:func:`quote`); an id or a name orders accept is never one of the
order grammar's own words (:meth:`Checks.own_word`).

>>> checks = Checks("demo.pack.", PackError, max_cards=2, max_name=8, max_text=20)
>>> try:
...     checks.integer({"hp": 120}, "unit[1] u1", "hp", 1, 99)
... except PackError as error:
...     print(error.key, error.params)
demo.pack.range {'where': 'unit[1] u1', 'field': 'hp', 'value': 120, 'low': 1, 'high': 99}
>>> pack_hash({"b": 1, "a": "é"}) == pack_hash({"a": "é", "b": 1}), canonical_json({"a": "é"})
(True, '{"a":"é"}')
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.ruleset import Ref, RuleError

ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")  # a card's or a pack's id
QUOTE = 40  # at most this much of a bad value is quoted back in a message
MAX_BYTES = 256 * 1024  # a pack file
MAX_DEPTH = 8  # tables and arrays nested (the formats need 6)
INT_BITS = 64  # TOML's integers are 64-bit: a longer one is no pack's number
CACHE_SIZE = 16  # decoded packs a process keeps (each is 0.5-0.8 MB in memory)
# What breaks a line, in Discord or in a terminal (a name is printed inside others' lines).
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")

# ``[pack]``: id, version, name_en, name_ja
Head = tuple[str, int, str, str]


class PackError(RuleError):
    """A pack that cannot be loaded. ``params``: ``where`` (``unit[3] u04``), ``field`` …

    ``errors``: every bad field the loader found, this one first (just this one where it could
    not go on: a file too big, TOML that does not parse)."""

    errors: tuple[PackError, ...] = ()

    @property
    def all(self) -> tuple[PackError, ...]:
        return self.errors or (self,)


def canonical_json(obj: Any) -> str:
    """What records embed and :func:`pack_hash` hashes: keys sorted, UTF-8 kept, no spaces."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def pack_hash(obj: Any) -> str:
    """sha256 (hex) of the pack's canonical JSON in UTF-8."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()


def breaks_line(char: str) -> bool:
    """A line break or a control character: none belongs in a name, a text or a quote."""
    return char in LINE_BREAKS or unicodedata.category(char) == "Cc"


def quote(value: Any) -> str:
    """A bad value as a message quotes it: at most :data:`QUOTE` characters (cut short with
    ``…``), on one line (a line break or control character shown as ``�``)."""
    text = str(value)
    if len(text) > QUOTE:
        text = text[: QUOTE - 1] + "…"
    return "".join("�" if breaks_line(c) else c for c in text)


# TOML's tokens as far as its nesting goes: strings and comments (a bracket or a dot in them means
# nothing), a string that does not close (the parser stops there and reads no further), what
# opens and closes a level, the dot of a dotted key, a word (a bare key, a number, a date) or
# spaces (neither ends a key), and anything else (``=``, ``,``, a line break: a new key follows).
_TOKEN = re.compile(
    r"""(?P<string>\"\"\"(?:[^\\]|\\.)*?\"{3,5}|'''.*?'{3,5})"""
    r"""|(?P<open>\"\"\"|''')"""
    r"""|(?P<string1>"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
    r"""|(?P<open1>["'])"""
    r"""|(?P<comment>\#[^\n]*)"""
    r"""|(?P<nest>[\[{])|(?P<close>[\]}])|(?P<dot>\.)"""
    r"""|(?P<word>[^\s"'\#\[\]{}.=,]+|[ \t]+)"""
    r"""|(?P<end>.)""",
    re.S,
)


class Bilingual:
    """A card (or pack) named in both languages: ``name_en`` and ``name_ja`` are its dataclass's
    fields."""

    name_en: str
    name_ja: str

    def name(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name_en


class HasPack(Protocol):
    @property
    def hash(self) -> str: ...


P = TypeVar("P", bound=HasPack)


class PackCache(Generic[P]):
    """Packs decoded lately, by hash: a stored pack is parsed once while it is in use, and at
    most ``size`` are kept (the least recently used goes first), however many packs a process
    meets (every server's upload, every game's embedded pack)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._packs: OrderedDict[str, P] = OrderedDict()

    def __len__(self) -> int:
        return len(self._packs)

    def get(self, key: str, decode: Callable[[], P]) -> P:
        """The pack under ``key``, decoded by ``decode`` unless kept."""
        pack = self._packs.get(key)
        if pack is not None:
            self._packs.move_to_end(key)
            return pack
        pack = decode()
        self._packs[key] = pack
        while len(self._packs) > self.size:
            self._packs.popitem(last=False)
        return pack


def from_options(
    options: Mapping[str, Any],
    default: Callable[[], P],
    from_json: Callable[[Any], P],
    error_key: str,
) -> P:
    """A game's pack from its options: the embedded ``pack`` (else the ruleset's ``default``),
    held to the ``pack_hash`` the options pin, if any (``error_key``: the ruleset's bad-option
    message, with ``option`` and ``value``)."""
    raw = options.get("pack")
    pack = default() if raw is None else from_json(raw)
    expected = options.get("pack_hash")
    if expected is not None and expected != pack.hash:
        raise RuleError(error_key, option="pack_hash", value=str(expected)[:16])
    return pack


class Named(Protocol):
    """A card orders may name by its id or either of its names."""

    @property
    def id(self) -> str: ...

    @property
    def name_en(self) -> str: ...

    @property
    def name_ja(self) -> str: ...


@dataclass(frozen=True)
class Checks:
    """The field checks of one ruleset's packs. Each raises ``error`` with the key ``prefix`` +
    its name and the parameters that say where (``where``: the table and its index or id,
    ``field``: the key)."""

    prefix: str  # "apeiron.pack."
    error: type[PackError]
    max_cards: int  # per table
    max_name: int
    max_text: int
    # Where the rulesets' formats differ:
    # the field an over-long table's range error names (None: the table's own name);
    count_field: str | None = None
    # a table's second card with an id is an error there (else the first is kept, and the
    # caller checks ids across the whole pack).
    unique_in_table: bool = False
    max_bytes: int = MAX_BYTES  # a pack file
    max_depth: int = MAX_DEPTH  # tables and arrays nested
    # The ruleset's order grammar, ``reads_as(word) -> str | None``: what its orders would read
    # a card's id or name as besides a card (``place``, ``word``, ``number``, ``seat``), or None.
    # A reference, loaded when first asked: the grammar (rules) sits above the pack format.
    grammar: Ref | None = None

    def key(self, name: str) -> str:
        return self.prefix + name

    def fail(self, name: str, **params: Any) -> PackError:
        return self.error(self.key(name), **params)

    def collect(self) -> Found:
        """A collector of one load's errors (see :class:`Found`)."""
        return Found(self)

    # --- the file and its parsed object ----------------------------------------------------------

    def read(self, text: str) -> dict[str, Any]:
        """A pack file's parsed TOML, within every bound: its size, then its nesting and dotted
        keys (:meth:`scan`, before the parser meets them), then the parsed object's
        (:meth:`bounded`). Whatever the text, the only error is this format's :class:`PackError`.
        """
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate: no file can hold it
            raise self.fail("toml", detail="not UTF-8") from None
        if size > self.max_bytes:
            raise self.fail("too_big", limit=self.max_bytes // 1024)
        self.scan(text)
        try:
            obj = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise self.fail("toml", detail=" ".join(str(error).split())[:200]) from None
        except ValueError:  # an integer of thousands of digits (Python will not convert it)
            raise self.fail("number", bits=INT_BITS) from None
        except RecursionError:  # the scan keeps the parser shallow; should the stack be deep
            raise self.fail("too_deep", limit=self.max_depth) from None
        self.bounded(obj)
        return obj

    def scan(self, text: str) -> None:
        """Refuse TOML nested deeper than :attr:`max_depth` or with a dotted key of more parts,
        before the parser meets it: the parser recurses once per level (a thousand levels end in
        RecursionError), and its time grows with the square of a key's parts (a 60,000-part key
        takes minutes). Never stricter than :meth:`bounded`: ``k`` levels of brackets or a
        ``k``-part key make at least ``k`` levels of tables and arrays."""
        level = dots = 0
        pos, end = 0, len(text)
        while pos < end:
            token = _TOKEN.match(text, pos)
            assert token is not None  # its last alternative takes any character
            kind, pos = token.lastgroup, token.end()
            if kind in ("open", "open1"):
                return  # a string that never closes: the parser refuses the file here
            if kind == "dot":
                dots += 1
                if dots >= self.max_depth:
                    raise self.fail("too_deep", limit=self.max_depth)
            elif kind == "nest":
                level, dots = level + 1, 0
                if level > self.max_depth:
                    raise self.fail("too_deep", limit=self.max_depth)
            elif kind == "close":
                level, dots = max(level - 1, 0), 0
            elif kind in ("end", "comment"):
                dots = 0

    def bounded(self, obj: Any) -> None:
        """Refuse, before any copy or recursion, an object nested deeper than
        :attr:`max_depth`, larger than twice :attr:`max_bytes` or holding an integer TOML has
        no room for (a record's embedded pack is JSON: no file's size bounds it)."""
        stack: list[tuple[Any, int]] = [(obj, 1)]
        size = 0
        while stack:
            value, depth = stack.pop()
            size += len(value) if isinstance(value, str) else 8
            if size > 2 * self.max_bytes:
                raise self.fail("too_big", limit=self.max_bytes // 1024)
            if isinstance(value, int) and not -(2 ** (INT_BITS - 1)) <= value < 2 ** (INT_BITS - 1):
                raise self.fail("number", bits=INT_BITS)
            if isinstance(value, Mapping):
                if depth > self.max_depth:
                    raise self.fail("too_deep", limit=self.max_depth)
                for key, item in value.items():
                    size += len(key) if isinstance(key, str) else 8
                    stack.append((item, depth + 1))
            elif isinstance(value, list | tuple):
                if depth > self.max_depth:
                    raise self.fail("too_deep", limit=self.max_depth)
                stack.extend((item, depth + 1) for item in value)

    # --- tables and arrays -----------------------------------------------------------------------

    def where(self, table: str, index: int, value: Any) -> str:
        """``unit[3] u04``: the table, the card's place (from 1) and its id if it has one."""
        card_id = value.get("id") if isinstance(value, Mapping) else None
        return f"{table}[{index + 1}]" + (f" {quote(card_id)}" if isinstance(card_id, str) else "")

    def keys(
        self,
        table: Mapping[str, Any],
        where: str,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
    ) -> None:
        for key in table:
            if key not in required and key not in optional:
                raise self.fail("unknown_key", where=where, field=quote(key))
        for key in required:
            if key not in table:
                raise self.fail("missing", where=where, field=key)

    def table(self, value: Any, where: str, field: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail("type", where=where, field=field, expected="table")
        return value

    def array(
        self, value: Any, where: str, field: str, expected: str, high: int, low: int = 0
    ) -> list[Any]:
        """A list of ``low`` to ``high`` items (the items are the caller's to check)."""
        if not isinstance(value, list):
            raise self.fail("type", where=where, field=field, expected=expected)
        if not low <= len(value) <= high:
            raise self.fail("range", where=where, field=field, value=len(value), low=low, high=high)
        return value

    def tables(self, obj: Mapping[str, Any], table: str) -> list[tuple[Mapping[str, Any], str]]:
        """The pack's array of tables ``table`` (none if absent), each with its ``where``."""
        items = obj.get(table, [])
        if not isinstance(items, list):
            raise self.fail("type", where=table, field=table, expected="array of tables")
        if len(items) > self.max_cards:
            field = self.count_field or table
            raise self.fail(
                "range", where=table, field=field, value=len(items), low=0, high=self.max_cards
            )
        out = []
        for index, item in enumerate(items):
            where = self.where(table, index, item)
            out.append((self.table(item, where, table), where))
        return out

    def cards(
        self,
        obj: Mapping[str, Any],
        table: str,
        build: Callable[[Mapping[str, Any], str], Any],
        keep: Callable[..., None],
    ) -> dict[str, Any]:
        """The table's cards that pass, by id; each bad one goes to ``keep`` (the error, the
        card)."""
        cards: dict[str, Any] = {}
        try:
            items = self.tables(obj, table)
        except PackError as error:
            keep(error)
            return cards
        for item, where in items:
            try:
                card = build(item, where)
                if self.unique_in_table and card.id in cards:
                    raise self.fail("duplicate", where=where, field="id", value=card.id)
            except PackError as error:
                keep(error, item)
                continue
            cards.setdefault(card.id, card)
        return cards

    # --- fields ----------------------------------------------------------------------------------

    def integer(self, table: Mapping[str, Any], where: str, field: str, low: int, high: int) -> int:
        value = table[field]
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail("type", where=where, field=field, expected="integer")
        if not low <= value <= high:
            shown: int | str = value
            if abs(value) >= 10**9:  # nobody means it: the size of the number is what is wrong
                shown = ("-" if value < 0 else "") + "…"
            raise self.fail("range", where=where, field=field, value=shown, low=low, high=high)
        return value

    def opt_integer(
        self, table: Mapping[str, Any], where: str, field: str, low: int, high: int
    ) -> int:
        """:meth:`integer`, 0 when absent."""
        return self.integer(table, where, field, low, high) if field in table else 0

    def boolean(
        self, table: Mapping[str, Any], where: str, field: str, default: bool = False
    ) -> bool:
        if field not in table:
            return default
        value = table[field]
        if not isinstance(value, bool):
            raise self.fail("type", where=where, field=field, expected="boolean")
        return value

    def string(self, table: Mapping[str, Any], where: str, field: str, limit: int) -> str:
        value = table[field]
        if not isinstance(value, str):
            raise self.fail("type", where=where, field=field, expected="string")
        if not value.strip() or len(value) > limit:
            raise self.fail("range", where=where, field=field, value=len(value), low=1, high=limit)
        if any(breaks_line(c) for c in value):
            # printed inside the channel's lines: a second line could pass for the referee's
            raise self.fail("one_line", where=where, field=field)
        return value

    def name(self, table: Mapping[str, Any], where: str, field: str) -> str:
        return self.string(table, where, field, self.max_name)

    def texts(self, table: Mapping[str, Any], where: str) -> tuple[str, str, str, str]:
        """name_en, name_ja (required), text_en, text_ja ("" when absent: a format that requires
        them says so in its :meth:`keys` check, made first)."""
        return (
            self.name(table, where, "name_en"),
            self.name(table, where, "name_ja"),
            self.string(table, where, "text_en", self.max_text) if "text_en" in table else "",
            self.string(table, where, "text_ja", self.max_text) if "text_ja" in table else "",
        )

    def choice(
        self, table: Mapping[str, Any], where: str, field: str, allowed: Sequence[str]
    ) -> str:
        value = table[field]
        if not isinstance(value, str):
            raise self.fail("type", where=where, field=field, expected="string")
        if value not in allowed:
            raise self.fail(
                "value", where=where, field=field, value=quote(value), allowed=" ".join(allowed)
            )
        return value

    def card_id(self, table: Mapping[str, Any], where: str) -> str:
        value = table["id"]
        if not isinstance(value, str):
            raise self.fail("type", where=where, field="id", expected="string")
        if not ID.fullmatch(value):
            raise self.fail(
                "value", where=where, field="id", value=quote(value), allowed="a-z 0-9 -"
            )
        return value

    def own_word(self, word: str, where: str, field: str) -> None:
        """Refuse an id or name that the ruleset's orders would read as something else than a
        card (a square, an order word, a number, a seat): pack words live in their own namespace,
        or an order naming one is refused or, re-read at resolution, lost."""
        if self.grammar is None:
            return
        reading = self.grammar.load()(word)
        if reading is not None:
            raise self.fail(f"reserved.{reading}", where=where, field=field, value=quote(word))

    # --- across the pack -------------------------------------------------------------------------

    def unique_names(self, cards: Iterable[tuple[str, Named]]) -> None:
        """Orders name a card by its id or either name: no word may name two cards, nor read
        as anything but a card in the ruleset's orders (:meth:`own_word`; ``cards``: each with
        its ``where``)."""
        owner: dict[str, str] = {}
        for where, card in cards:
            for field, word in (
                ("id", card.id),
                ("name_en", card.name_en),
                ("name_ja", card.name_ja),
            ):
                self.own_word(word, where, field)
                key = word.casefold()
                if owner.get(key, card.id) != card.id:
                    raise self.fail("duplicate", where=where, field=field, value=quote(word))
                owner[key] = card.id

    def at_least(self, counts: Iterable[tuple[str, int, int]]) -> None:
        """A server's minimums: each (what, how many the pack has, how many it needs)."""
        for what, have, need in counts:
            if have < need:
                raise self.fail("too_few", what=what, count=have, minimum=need)


class Found:
    """Every bad field of one load, in the order found, so that one upload names them all: the
    :class:`PackError` raised is the first, and its ``errors`` are all of them. A card already
    reported bad is not reported again where another card names it."""

    def __init__(self, checks: Checks) -> None:
        self.checks = checks
        self.errors: list[PackError] = []
        self.broken: set[str] = set()

    def keep(self, error: PackError, card: Any = None) -> None:
        """Note ``error``, found in ``card`` (a table) if it was a card's."""
        if error.key == self.checks.key("unknown_ref") and error.params.get("value") in self.broken:
            return  # it names a card already reported bad: one line per bad field
        self.errors.append(error)
        if isinstance(card, Mapping) and isinstance(card.get("id"), str):
            self.broken.add(card["id"])

    def head(self, obj: Mapping[str, Any], tables: Sequence[str]) -> Head | None:
        """The pack's top-level keys (``[pack]`` and the format's ``tables``) and its ``[pack]``
        table: id, version, names (None if it is bad: the error is kept)."""
        checks = self.checks
        try:
            checks.keys(obj, "pack", required=("pack",), optional=tables)
        except PackError as error:
            self.keep(error)
        if "pack" not in obj:
            return None
        try:
            table = checks.table(obj["pack"], "pack", "pack")
            checks.keys(table, "pack", required=("id", "version", "name_en", "name_ja"))
            return (
                checks.card_id(table, "pack"),
                checks.integer(table, "pack", "version", 1, 10**6),
                checks.name(table, "pack", "name_en"),
                checks.name(table, "pack", "name_ja"),
            )
        except PackError as error:
            self.keep(error)
            return None

    def result(self, head: Head | None) -> Head:
        """The pack's head if nothing was found, else raise the first error, carrying them all."""
        if self.errors or head is None:
            errors = self.errors
            first = errors[0] if errors else self.checks.fail("missing", where="pack", field="pack")
            first.errors = tuple(errors) or (first,)
            raise first
        return head
