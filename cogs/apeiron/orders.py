"""Apeiron's orders: the order types (one per kind of step) and the grammar that reads a text
into one, in either language (NFKC, the English and Japanese words), with :func:`reads_as` for
the pack loader.

Reading checks what a text names (a unit of the deck, the seat's own squares, a zone that takes
the card), not what the board allows: :mod:`.legality` checks a play on the board, and
:func:`.rules.parse` does both. It reads only :mod:`.state`; :mod:`.effects` and
:mod:`.legality` read and build these orders.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.render.squaregrid import label
from bot.ruleset import OrderRejected
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.field import Square
from cogs.apeiron.pack import Pack
from cogs.apeiron.state import (
    DEPLOY,
    R_DECK,
    R_DEPLOY_COUNT,
    R_DEPLOY_SQUARE,
    R_DEPLOY_UNIT,
    R_NOT_ACTING,
    R_SYNTAX,
    R_UNKNOWN_CARD,
    R_ZONE,
    SEATS,
    ApeironState,
    acting_unit,
    other,
    read_square,
    zone_open,
)

# --- the order types -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckOrder:
    units: tuple[str, ...]
    chest: tuple[str, ...]

    def canonical(self) -> str:
        return f"deck {' '.join(self.units)} chest {' '.join(self.chest)}"


@dataclass(frozen=True)
class Placement:
    unit: str
    square: Square
    facing: str


@dataclass(frozen=True)
class DeployOrder:
    placements: tuple[Placement, ...]

    def canonical(self) -> str:
        return "deploy " + ", ".join(
            f"{p.unit} {label(p.square)} {p.facing}" for p in self.placements
        )


ACTIONS = ("attack", "ability", "treasure", "item", "chance")


@dataclass(frozen=True)
class Action:
    """``attack D6``, ``ability [2] D6 E6`` / ``ability P4 cw``, ``treasure``, ``item [args]``,
    ``chance``. ``args``: canonical tokens (squares ``D6``, panels ``P4``, ``cw``/``ccw``, panel
    kinds); ``index``: which ★ ability (1 or 2)."""

    kind: str
    args: tuple[str, ...] = ()
    index: int = 1

    @property
    def target(self) -> Square:
        return read_square(self.args[0])

    def text(self) -> str:
        bits = [self.kind]
        if self.kind == "ability" and self.index != 1:
            bits.append(str(self.index))
        return " ".join([*bits, *self.args])


@dataclass(frozen=True)
class PlayOrder:
    path: tuple[Square, ...]  # squares entered, in order (empty: stay)
    facing: str | None
    action: Action | None = None
    action_first: bool = False

    def move_text(self) -> str:
        move = "stay" if not self.path else ">".join(label(s) for s in self.path)
        return move + (f" {self.facing}" if self.facing else "")

    def canonical(self) -> str:
        if self.action is None:
            return self.move_text()
        if self.action_first:
            return f"{self.action.text()}; {self.move_text()}"
        return f"{self.move_text()} {self.action.text()}"


@dataclass(frozen=True)
class PlaceOrder:
    """A drawn item's fate: ``own``, ``opponent`` or ``discard``."""

    where: str

    def canonical(self) -> str:
        return "discard" if self.where == "discard" else f"place {self.where}"


@dataclass(frozen=True)
class OptionOrder:
    number: int  # 1-based, in the step's list

    def canonical(self) -> str:
        return f"option {self.number}"


Order = DeckOrder | DeployOrder | PlayOrder | PlaceOrder | OptionOrder


# --- the grammar's words -------------------------------------------------------------------------

FACING_WORDS = {"n": "N", "e": "E", "s": "S", "w": "W", "上": "N", "右": "E", "下": "S", "左": "W"}
KEEP_WORDS = ("keep", "そのまま")  # the facing kept (as if omitted): the buttons' token
NO_ACTION_WORDS = ("none", "なし")  # no action (as if omitted): the buttons' token
KEYWORDS = {
    "deck": "deck", "デッキ": "deck", "chest": "chest", "チェスト": "chest",
    "deploy": "deploy", "配置": "deploy", "attack": "attack", "攻撃": "attack",
    "stay": "stay", "待機": "stay", "ability": "ability", "能力": "ability",
    "treasure": "treasure", "宝箱": "treasure", "item": "item", "アイテム": "item",
    "chance": "chance", "チャンス": "chance", "option": "option", "選択": "option",
    "place": "place", "discard": "discard", "捨てる": "discard",
}  # fmt: skip
PLACE_WORDS = {
    "place own": "own", "place opponent": "opponent", "discard": "discard",
    "自分に置く": "own", "相手に置く": "opponent", "捨てる": "discard",
}  # fmt: skip
DIRECTION_WORDS = {"cw": "cw", "ccw": "ccw", "右回り": "cw", "左回り": "ccw"}
KIND_WORDS = {
    **{k: k for k in packlib.KINDS},
    **{v: k for k, v in packlib.KIND_NAMES_JA.items()},
}
_PANEL = re.compile(r"p([1-9])")


# --- reading an order ----------------------------------------------------------------------------


def normalized(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    for a, b in (("→", ">"), ("、", ","), ("；", ";"), ("，", ",")):
        text = text.replace(a, b)
    return " ".join(text.split())


def _word(token: str) -> str:
    return KEYWORDS.get(token, token)


def reads_as(word: str) -> str | None:
    """What an order would read ``word`` as besides a card: ``place`` (a square, a path, a
    panel), ``word`` (one of the grammar's words, either language), ``number`` or ``seat``;
    None when it can only name a card. Orders name a unit by its id or either name, so the pack
    loader refuses ids and names with a reading (:class:`bot.packs.Checks`): a unit ``a1`` made
    ``A1 keep`` a move of the wrong unit, and its canonical text, re-read at resolution, lost the
    order to the default. A word with a space is never one token of an order."""
    token = normalized(word)
    if not token or " " in token:
        return None
    words = {
        *KEYWORDS, *FACING_WORDS, *KEEP_WORDS, *NO_ACTION_WORDS, *DIRECTION_WORDS, *KIND_WORDS,
        *ACTIONS, *(w for w in PLACE_WORDS if " " not in w),
    }  # fmt: skip
    if token in words:
        return "word"
    if fld.parse_square(token) or _PANEL.fullmatch(token) or _PATH.match(token):
        return "place"
    if re.fullmatch(r"[+-]?[0-9]+", token):
        return "number"
    if token.upper() in SEATS:
        return "seat"
    return None


def unit_id(pack: Pack, word: str) -> str | None:
    """A unit by id or either name, any case."""
    key = word.casefold()
    for unit in pack.units.values():
        if key in (unit.id.casefold(), unit.name_en.casefold(), unit.name_ja.casefold()):
            return unit.id
    return None


def drop_unit(state: ApeironState, word: str) -> str:
    """An order may name the acting unit first (``u04 C4>C5 S``, as the buttons do)."""
    bits = word.split(" ", 1)
    uid = unit_id(state.pack, bits[0])
    if uid is None:
        return word
    if uid != acting_unit(state).id:
        raise OrderRejected(R_NOT_ACTING, unit=bits[0][:24])
    if len(bits) < 2:
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.play")
    return bits[1]


def parse_place(state: ApeironState, seat: str, word: str) -> PlaceOrder:
    where = PLACE_WORDS.get(word)
    if where is None:
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.place")
    if where == "opponent" and not zone_open(state, seat, other(seat)):
        raise OrderRejected(R_ZONE)
    return PlaceOrder(where)


def parse_option(word: str) -> OptionOrder:
    """``option 3``: a number (:func:`.legality.check_option` checks that the list has it)."""
    bits = word.split()
    if len(bits) != 2 or _word(bits[0]) != "option" or not bits[1].isdigit():
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.option")
    return OptionOrder(int(bits[1]))


def parse_deck(state: ApeironState, seat: str, word: str) -> DeckOrder:
    tokens = word.replace(",", " ").split()
    if not tokens or _word(tokens[0]) != "deck" or "chest" not in map(_word, tokens):
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.deck")
    cut = [_word(t) for t in tokens].index("chest")
    units = []
    for token in tokens[1:cut]:
        uid = unit_id(state.pack, token)
        if uid is None:
            raise OrderRejected(R_UNKNOWN_CARD, card=token[:24])
        units.append(uid)
    chest = []
    for token in tokens[cut + 1 :]:
        if token not in state.pack.chest:
            raise OrderRejected(R_UNKNOWN_CARD, card=token[:24])
        chest.append(token)
    if len(set(units)) != packlib.DECK_UNITS or len(units) != packlib.DECK_UNITS:
        raise OrderRejected(R_DECK, what="units", size=packlib.DECK_UNITS)
    if len(set(chest)) != packlib.DECK_CHEST or len(chest) != packlib.DECK_CHEST:
        raise OrderRejected(R_DECK, what="chest", size=packlib.DECK_CHEST)
    return DeckOrder(tuple(units), tuple(chest))


def _facing(token: str) -> str | None:
    return FACING_WORDS.get(token)


def _own_squares(seat: str) -> list[Square]:
    return [s for pos in fld.ROWS[seat] for s in fld.squares_of(pos)]


def parse_deploy(state: ApeironState, seat: str, word: str) -> DeployOrder:
    tokens = word.split(" ", 1)
    if _word(tokens[0]) != "deploy" or len(tokens) < 2:
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.deploy")
    deck = state.decks[seat]["units"]
    own = set(_own_squares(seat))
    placements: list[Placement] = []
    for part in filter(None, (p.strip() for p in tokens[1].split(","))):
        bits = part.split()
        if len(bits) != 3:
            raise OrderRejected(R_SYNTAX, example_key="apeiron.example.placement")
        uid = unit_id(state.pack, bits[0])
        square = fld.parse_square(bits[1])
        facing = _facing(bits[2])
        if uid is None or uid not in deck or uid in [p.unit for p in placements]:
            raise OrderRejected(R_DEPLOY_UNIT, unit=bits[0][:24])
        if square is None or facing is None:
            raise OrderRejected(R_SYNTAX, example_key="apeiron.example.placement")
        if (
            square not in own
            or state.objects.get(square) == "obstacle"
            or square in [p.square for p in placements]
        ):
            raise OrderRejected(R_DEPLOY_SQUARE, square=label(square))
        placements.append(Placement(uid, square, facing))
    if len(placements) != DEPLOY:
        raise OrderRejected(R_DEPLOY_COUNT, count=DEPLOY)
    return DeployOrder(tuple(placements))


_PATH = re.compile(r"^(?:stay|待機|[a-i][1-9](?:>[a-i][1-9])*|(?:>[a-i][1-9])+)$")


def _parse_move(word: str) -> tuple[tuple[Square, ...], str | None, bool]:
    """``C4>C5 S`` / ``>D5 S`` / ``stay S``: (path or None for a destination-only move, facing,
    whether only the destination was named)."""
    bits = word.split()
    if not bits or not _PATH.match(bits[0]):
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.play")
    if len(bits) > 2:
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.play")
    facing = None
    if len(bits) == 2 and bits[1] not in KEEP_WORDS:
        facing = _facing(bits[1])
        if facing is None:
            raise OrderRejected(R_SYNTAX, example_key="apeiron.example.move")
    if bits[0] in ("stay", "待機"):
        return (), facing, False
    parts = bits[0].split(">")
    only_end = parts[0] == ""
    squares = tuple(fld.parse_square(p) for p in parts if p)
    if any(s is None for s in squares):
        raise OrderRejected(R_SYNTAX, example_key="apeiron.example.move")
    return tuple(s for s in squares if s is not None), facing, only_end


def _arg(token: str) -> str:
    """One target token in canonical form: ``D6``, ``P4``, ``cw``/``ccw``, a panel kind."""
    square = fld.parse_square(token)
    if square is not None:
        return label(square)
    if _PANEL.fullmatch(token):
        return "P" + token[1]
    if token in DIRECTION_WORDS:
        return DIRECTION_WORDS[token]
    if token in KIND_WORDS:
        return KIND_WORDS[token]
    raise OrderRejected(R_SYNTAX, example_key="apeiron.example.ability")


def _parse_action(word: str) -> Action:
    bits = word.split()
    kind = _word(bits[0]) if bits else ""
    if kind == "attack":
        if len(bits) != 2 or fld.parse_square(bits[1]) is None:
            raise OrderRejected(R_SYNTAX, example_key="apeiron.example.attack")
        return Action("attack", (_arg(bits[1]),))
    if kind in ("treasure", "chance"):
        if len(bits) != 1:
            raise OrderRejected(R_SYNTAX, example_key=f"apeiron.example.{kind}")
        return Action(kind)
    if kind == "ability":
        rest = bits[1:]
        index = 1
        if rest and rest[0] in ("1", "2"):
            index = int(rest[0])
            rest = rest[1:]
        return Action("ability", tuple(_arg(b) for b in rest), index)
    if kind == "item":
        return Action("item", tuple(_arg(b) for b in bits[1:]))
    raise OrderRejected(R_SYNTAX, example_key="apeiron.example.attack")


@dataclass(frozen=True)
class RawPlay:
    path: tuple[Square, ...]
    facing: str | None
    only_end: bool
    action: Action | None
    action_first: bool


def parse_play(word: str) -> RawPlay:
    if ";" in word:
        first, second = (p.strip() for p in word.split(";", 1))
        path, facing, only_end = _parse_move(second)
        return RawPlay(path, facing, only_end, _parse_action(first), True)
    bits = word.split()
    if len(bits) > 1 and bits[-1] in NO_ACTION_WORDS:
        bits = bits[:-1]
    cut = next((i for i, b in enumerate(bits) if _word(b) in ACTIONS), len(bits))
    path, facing, only_end = _parse_move(" ".join(bits[:cut]))
    action = _parse_action(" ".join(bits[cut:])) if cut < len(bits) else None
    return RawPlay(path, facing, only_end, action, False)
