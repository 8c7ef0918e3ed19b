"""HEXSYSTEM Arena Duel: the pure rules engine (``shared/rules/arena.md`` is the rule).

Two gladiators on a hexagon of 19 hexes, each with three dice a turn, send secret orders (a move
and a turn); the engine resolves both at once. This module is the ruleset itself: its module-level
functions satisfy :class:`bot.ruleset.Ruleset`.

Pure: no discord, storage, I/O, clock or randomness. The only dice are the ones ``start_step`` is
handed (drawn in the documented order A die 1, 2, 3 then B die 1, 2, 3); ``resolve`` draws none.

>>> compare_dice((1, 6, 6), (2, 6))
1
>>> compare_dice((4, 5, 5), (1, 6))
-1
>>> charge_check((1, 2, 3), (1, 5, 6))
(True, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.ruleset import (
    DRAW,
    Choice,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    RuleError,
    StateError,
)

NAME = "arena"
SEATS: tuple[str, ...] = ("A", "B")
SCHEMA_VERSION = 1

Hex = tuple[int, int]

RADIUS = 2
START_STAMINA = 15
MAX_ORDER_CHARS = 200
DIE_SIDES = 6

# Clockwise from north, screen y down (flat-topped hexes, axial q, r).
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FACING_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

START: dict[str, tuple[Hex, int]] = {"A": ((0, 2), 0), "B": ((0, -2), 3)}

# Where the opponent stands relative to a figure's facing, by (direction - facing) mod 6.
POSITIONS: tuple[str, ...] = (
    "front",
    "front_right",
    "back_right",
    "back",
    "back_left",
    "front_left",
)
# Die numbers (1-based) a figure may use against an opponent at each relative position.
_DICE_BY_POSITION: dict[str, tuple[int, ...]] = {
    "front": (1, 2, 3),
    "front_right": (1, 2),
    "front_left": (1, 2),
    "back_right": (1,),
    "back_left": (1,),
    "back": (),
}

# --- message keys ------------------------------------------------------------------------------

R_EMPTY = "arena.reject.empty"
R_TOO_LONG = "arena.reject.too_long"
R_UNKNOWN = "arena.reject.unknown"
R_NO_MOVE = "arena.reject.no_move"
R_TWO_MOVES = "arena.reject.two_moves"
R_TWO_TURNS = "arena.reject.two_turns"
R_MIXED = "arena.reject.mixed_language"
R_FINISHED = "arena.reject.finished"
R_NOT_SEATED = "arena.reject.not_seated"
R_NOT_STARTED = "arena.reject.not_started"
R_WALL = "arena.reject.wall"
R_CHARGE_NOT_ALLOWED = "arena.reject.charge_not_allowed"
R_CHARGE_BLOCKED = "arena.reject.charge_blocked"
R_RETREAT = "arena.reject.retreat_restricted"


class TurnError(RuleError):
    """A lifecycle call out of place (start a finished game, resolve a turn not started…)."""


class OptionError(RuleError):
    """Game options the ruleset cannot set up (bad obstacle list, unknown option)."""


# --- orders ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveSpec:
    """A movement token: relative direction (None for stay) and number of hexes."""

    rel: int | None
    steps: int

    @property
    def charge(self) -> bool:
        return self.steps == 2

    @property
    def backward(self) -> bool:
        return self.rel in (2, 3, 4)


MOVES: dict[str, MoveSpec] = {
    "forward": MoveSpec(0, 1),
    "front-right": MoveSpec(1, 1),
    "front-left": MoveSpec(5, 1),
    "back-right": MoveSpec(2, 1),
    "back-left": MoveSpec(4, 1),
    "back": MoveSpec(3, 1),
    "stay": MoveSpec(None, 0),
    "charge": MoveSpec(0, 2),
    "charge-fr": MoveSpec(1, 2),
    "charge-fl": MoveSpec(5, 2),
}
TURNS: dict[str, int] = {"none": 0, "right": 1, "left": -1}

# A bare "charge"/"突撃" followed by one of these is one charge order ("突撃 右前進" = charge-fr).
_CHARGE_OF = {"forward": "charge", "front-right": "charge-fr", "front-left": "charge-fl"}


def _label_key(prefix: str, token: str) -> str:
    return f"arena.{prefix}.{token.replace('-', '_')}"


@dataclass(frozen=True)
class Order:
    """One movement and one turn, as canonical English tokens."""

    move: str
    turn: str = "none"

    def __post_init__(self) -> None:
        # An Order built by hand (not by parse) must still be one the engine can resolve.
        if self.move not in MOVES:
            raise OrderRejected(R_UNKNOWN, word=str(self.move)[:32])
        if self.turn not in TURNS:
            raise OrderRejected(R_UNKNOWN, word=str(self.turn)[:32])

    def canonical(self) -> str:
        return f"{self.move} {self.turn}"

    @property
    def spec(self) -> MoveSpec:
        return MOVES[self.move]


# --- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    hex: Hex
    facing: int
    stamina: int = START_STAMINA
    may_charge: bool = False
    no_retreat: bool = False


@dataclass(frozen=True)
class LastTurn:
    """What the last resolution did, for the renderer (and the revealed dice of that turn).

    ``damage``: stamina each figure lost to the other this turn (fights, passing, pushes into a
    wall; not the turn's own point); ``fight``: the winner of the combat or of the passing, or
    :data:`DRAW`, or None when there was none; ``collision``: the hex both figures tried to
    enter, if they did. All public: the events say as much."""

    turn: int
    paths: Mapping[str, tuple[Hex, ...]]
    charged: Mapping[str, bool]
    dice: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    damage: Mapping[str, int] = field(default_factory=dict)
    fight: str | None = None
    collision: Hex | None = None


@dataclass(frozen=True)
class ArenaState:
    game_id: str
    turn: int
    fighters: Mapping[str, Fighter]
    # The current turn's dice (hidden information): drawn by start_step, cleared by resolve.
    dice: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    obstacles: frozenset[Hex] = frozenset()
    last_turn: LastTurn | None = None
    winner: str | None = None
    resigned: str | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def turn_open(self) -> bool:
        """Dice drawn and orders owed: between start_step and resolve."""
        return not self.finished and bool(self.dice)


# --- geometry ----------------------------------------------------------------------------------


def in_arena(h: Hex) -> bool:
    q, r = h
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


ARENA_HEXES: tuple[Hex, ...] = tuple(
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if in_arena((q, r))
)


def neighbor(h: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to the adjacent hex ``b``; None if not adjacent."""
    delta = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


def blocked(state: ArenaState, h: Hex) -> bool:
    """Wall (outside the arena) or obstacle. The opponent never blocks: it collides or is pushed."""
    return not in_arena(h) or h in state.obstacles


def relative_position(fighter: Fighter, other_hex: Hex) -> str | None:
    """Where ``other_hex`` lies relative to the fighter's facing, or None if not adjacent."""
    d = direction_to(fighter.hex, other_hex)
    return None if d is None else POSITIONS[(d - fighter.facing) % 6]


def dice_used(position: str) -> tuple[int, ...]:
    """The die numbers (1, 2, 3) a figure uses against an opponent at ``position``."""
    return _DICE_BY_POSITION[position]


def compare_dice(a: Sequence[int], b: Sequence[int]) -> int:
    """1 if ``a`` wins, -1 if ``b`` wins, 0 for a draw (digest step 4).

    Sorted high to low and compared element by element; a list that runs out while all compared
    values were equal loses to the longer one.

    >>> compare_dice((3, 3, 3), (4,)), compare_dice((6, 2, 3), (3, 6, 3)), compare_dice((), ())
    (-1, -1, 0)
    >>> compare_dice((6, 2, 3), (3, 6))
    1
    """
    sa, sb = sorted(a, reverse=True), sorted(b, reverse=True)
    for x, y in zip(sa, sb, strict=False):
        if x != y:
            return 1 if x > y else -1
    return (len(sa) > len(sb)) - (len(sa) < len(sb))


def charge_check(dice_a: Sequence[int], dice_b: Sequence[int]) -> tuple[bool, bool]:
    """Who may charge next turn, comparing die 1/1, 2/2, 3/3 (digest step 7).

    >>> charge_check((4, 4, 4), (4, 4, 4)), charge_check((6, 6, 1), (1, 1, 6))
    ((False, False), (True, False))
    """
    pairs = list(zip(dice_a, dice_b, strict=True))
    if all(x == y for x, y in pairs):
        return (False, False)
    if any(x == y for x, y in pairs):
        return (True, True)
    a_higher = sum(x > y for x, y in pairs)
    return (a_higher >= 2, len(pairs) - a_higher >= 2)


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _hex_json(h: Hex) -> list[int]:
    return [h[0], h[1]]


# --- lifecycle ---------------------------------------------------------------------------------


def _obstacles_from_options(options: Mapping[str, Any]) -> frozenset[Hex]:
    # An unknown option is refused rather than ignored: a misspelt option would otherwise start a
    # game other than the one the players agreed on. ``league`` names the league a match belongs
    # to (RULESET.league) and changes nothing in play.
    unknown = sorted(set(options) - {"obstacles", "league"})
    if unknown:
        raise OptionError("arena.option.unknown", option=unknown[0])
    raw = options.get("obstacles") or []
    if not isinstance(raw, list | tuple):
        raise OptionError("arena.option.invalid", option="obstacles")
    starts = {h for h, _ in START.values()}
    result: set[Hex] = set()
    for item in raw:
        if not (
            isinstance(item, list | tuple)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise OptionError("arena.option.invalid", option="obstacles")
        h = (item[0], item[1])
        if not in_arena(h):
            raise OptionError("arena.option.obstacle_outside", hex=_hex_json(h))
        if h in starts:
            raise OptionError("arena.option.obstacle_on_start", hex=_hex_json(h))
        result.add(h)
    return frozenset(result)


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse options that would not start a game (unknown names, misplaced obstacles)."""
    _obstacles_from_options(options)


def parse_obstacles(text: str) -> list[list[int]]:
    """Obstacle hexes typed as ``q,r`` pairs: ``"0,0 1,-1"`` (full-width digits accepted).

    The result is the ``obstacles`` option as stored in a match record; whether each hex may hold
    an obstacle is :func:`check_options`'s business.
    """
    normalized = unicodedata.normalize("NFKC", text).replace("、", " ").replace("−", "-")
    hexes: list[list[int]] = []
    for token in normalized.replace(";", " ").split():
        parts = token.strip("()[]").split(",")
        try:
            q, r = (int(p) for p in parts)
        except ValueError:
            raise OptionError("arena.option.bad_hex", hex=token) from None
        hexes.append([q, r])
    return hexes


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice = NO_SECRET,
) -> ArenaState:
    """Both figures at their doors, facing each other; turn 0, no dice yet (setup draws none)."""
    if tuple(seats) != SEATS:
        raise OptionError("arena.error.seats", seats=list(seats))
    fighters = {seat: Fighter(h, f) for seat, (h, f) in START.items()}
    return ArenaState(str(game_id), 0, fighters, {}, _obstacles_from_options(options or {}))


def start_step(
    state: ArenaState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[ArenaState, list[Event]]:
    """Open the next turn: draw A's dice 1, 2, 3 then B's dice 1, 2, 3."""
    if state.finished:
        raise TurnError("arena.error.finished")
    if state.dice:
        raise TurnError("arena.error.turn_open", turn=state.turn)
    drawn: dict[str, tuple[int, int, int]] = {}
    for seat in SEATS:
        d1, d2, d3 = dice.roll(DIE_SIDES), dice.roll(DIE_SIDES), dice.roll(DIE_SIDES)
        drawn[seat] = (d1, d2, d3)
    new = replace(state, turn=state.turn + 1, dice=drawn)
    return new, [Event("turn_started", {"turn": new.turn})]


def awaiting(state: ArenaState) -> list[str]:
    """Both seats while a turn is open (dice drawn, not yet resolved); nobody otherwise."""
    return list(SEATS) if state.turn_open else []


def step_number(state: ArenaState) -> int:
    return state.turn


def step_label(state: ArenaState) -> str:
    return f"turn {state.turn}"


def outcome(state: ArenaState) -> Outcome:
    if state.winner is None:
        return Outcome.ongoing()
    if state.winner == DRAW:
        return Outcome.drawn("stamina")
    return Outcome.win(state.winner, reason="resign" if state.resigned else "stamina")


def default_order(state: ArenaState, seat: str) -> Order:
    """Stay and do not turn: always legal, used when a deadline passes."""
    return Order("stay", "none")


# --- legality ----------------------------------------------------------------------------------


def move_problem(state: ArenaState, seat: str, move: str) -> str | None:
    """The rejection key for ``move`` by ``seat`` now, or None if it is legal."""
    spec = MOVES[move]
    if spec.rel is None:
        return None
    fighter = state.fighters[seat]
    if spec.backward and fighter.no_retreat:
        return R_RETREAT
    if spec.charge and not fighter.may_charge:
        return R_CHARGE_NOT_ALLOWED
    direction = fighter.facing + spec.rel
    first = neighbor(fighter.hex, direction)
    if spec.charge:
        # Both hexes straight ahead must be inside and free of obstacles; the opponent is not an
        # obstacle (a charge may pass over it).
        if blocked(state, first) or blocked(state, neighbor(first, direction)):
            return R_CHARGE_BLOCKED
        return None
    return R_WALL if blocked(state, first) else None


def legal_moves(state: ArenaState, seat: str) -> list[str]:
    return [m for m in MOVES if move_problem(state, seat, m) is None]


def legal(state: ArenaState, seat: str) -> list[Order]:
    """Every order ``seat`` may give now (the turn never restricts)."""
    return [Order(m, t) for m in legal_moves(state, seat) for t in TURNS]


def _check_seat(state: ArenaState, seat: str) -> None:
    if seat not in SEATS:
        raise OrderRejected(R_NOT_SEATED, seat=str(seat)[:32])


def choices(state: ArenaState, seat: str) -> list[ChoiceGroup]:
    """Buttons: all ten moves (illegal ones disabled with the reason) and the three turns."""
    _check_seat(state, seat)
    if state.finished:
        return []
    moves = []
    for token in MOVES:
        problem = move_problem(state, seat, token)
        moves.append(Choice(token, _label_key("move", token), problem is None, problem))
    turns = [Choice(token, _label_key("turn", token)) for token in TURNS]
    return [
        ChoiceGroup("move", "arena.group.move", moves),
        ChoiceGroup("turn", "arena.group.turn", turns),
    ]


# --- parsing -----------------------------------------------------------------------------------

_EN_MOVES: dict[str, str] = {
    "forward": "forward",
    "f": "forward",
    "fwd": "forward",
    "front-right": "front-right",
    "fr": "front-right",
    "front-left": "front-left",
    "fl": "front-left",
    "back-right": "back-right",
    "br": "back-right",
    "back-left": "back-left",
    "bl": "back-left",
    "back": "back",
    "b": "back",
    "backward": "back",
    "stay": "stay",
    "s": "stay",
    "hold": "stay",
    "charge": "charge",
    "charge-forward": "charge",
    "charge-f": "charge",
    "charge-fr": "charge-fr",
    "charge-front-right": "charge-fr",
    "charge-fl": "charge-fl",
    "charge-front-left": "charge-fl",
}
_EN_TURNS: dict[str, str] = {
    "none": "none",
    "-": "none",
    "n": "none",
    "no-turn": "none",
    "right": "right",
    "r": "right",
    "left": "left",
    "l": "left",
}
_JA_MOVES: dict[str, str] = {
    "前進": "forward",
    "前": "forward",
    "右前進": "front-right",
    "右前": "front-right",
    "左前進": "front-left",
    "左前": "front-left",
    "右後退": "back-right",
    "右後ろ": "back-right",
    "右後": "back-right",
    "左後退": "back-left",
    "左後ろ": "back-left",
    "左後": "back-left",
    "後退": "back",
    "後ろ": "back",
    "後": "back",
    "留まる": "stay",
    "とどまる": "stay",
    "止まる": "stay",
    "待機": "stay",
}
for _word in ("突撃", "突進"):  # the seed uses both words for a charge
    _JA_MOVES.update(
        {
            _word: "charge",
            _word + "前": "charge",
            _word + "前進": "charge",
            _word + "右前": "charge-fr",
            _word + "右前進": "charge-fr",
            _word + "左前": "charge-fl",
            _word + "左前進": "charge-fl",
        }
    )
_JA_TURNS: dict[str, str] = {
    "向きを変えない": "none",
    "向き変えない": "none",
    "変えない": "none",
    "方向転換なし": "none",
    "そのまま": "none",
    "なし": "none",
    "無し": "none",
    "右を向く": "right",
    "右回転": "right",
    "右向き": "right",
    "右回り": "right",
    "左を向く": "left",
    "左回転": "left",
    "左向き": "left",
    "左回り": "left",
}
_EN_VOCAB: dict[str, tuple[str, str]] = {
    **{w: ("move", v) for w, v in _EN_MOVES.items()},
    **{w: ("turn", v) for w, v in _EN_TURNS.items()},
}
_JA_VOCAB: dict[str, tuple[str, str]] = {
    **{w: ("move", v) for w, v in _JA_MOVES.items()},
    **{w: ("turn", v) for w, v in _JA_TURNS.items()},
}
_BARE_CHARGE = {"charge", "突撃", "突進"}
_EN_MAX = max(map(len, _EN_VOCAB))
_JA_MAX = max(map(len, _JA_VOCAB))
_DASHES = set("-‐‑‒–—―−_")
_SEPARATOR_CATEGORIES = {"Zs", "Zl", "Zp", "Ps", "Pe", "Pi", "Pf", "Po", "Pd", "Cc", "Cf"}
_ASCII_WORD = set("abcdefghijklmnopqrstuvwxyz0123456789-")


@dataclass(frozen=True)
class _Lexeme:
    kind: str  # "move" or "turn"
    value: str  # canonical token
    lang: str | None  # "en", "ja", or None for the neutral "-"
    word: str  # as typed (normalised)


def _normalise(text: str) -> str:
    # NFKC folds full-width letters, digits, spaces and hyphens; casefold makes English
    # case-insensitive; NFKC again because casefolding can denormalise.
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    out = []
    for ch in text:
        if ch in _DASHES:
            out.append("-")
        elif ch.isspace() or unicodedata.category(ch) in _SEPARATOR_CATEGORIES:
            out.append(" ")  # 「」、・, quotes and the like just separate words
        else:
            out.append(ch)
    return "".join(out)


def _unknown(word: str) -> OrderRejected:
    return OrderRejected(R_UNKNOWN, word=word[:32])


def _segment(word: str, vocab: Mapping[str, tuple[str, str]], longest: int) -> list[str] | None:
    """Greedy longest-match split of ``word`` into vocabulary entries, or None."""
    parts: list[str] = []
    i = 0
    while i < len(word):
        for size in range(min(longest, len(word) - i), 0, -1):
            if word[i : i + size] in vocab:
                parts.append(word[i : i + size])
                i += size
                break
        else:
            return None
    return parts


def _lex_english(word: str) -> list[_Lexeme]:
    # A whole word first ("front-right", "-"); else a hyphenated or run-together word split into
    # known words ("forwardnone", "fr-left"). Words are never joined across spaces: "back right"
    # must stay back + turn right (the canonical text of that order).
    if word in _EN_VOCAB:
        pieces = [word]
    else:
        pieces = []
        for part in word.split("-"):
            split = _segment(part, _EN_VOCAB, _EN_MAX)
            if split is None:
                raise _unknown(word)
            pieces.extend(split)
        if not pieces:
            raise _unknown(word)
    return [_Lexeme(*_EN_VOCAB[p], lang=None if p == "-" else "en", word=p) for p in pieces]


def _lex_other(run: str) -> list[_Lexeme]:
    # Japanese needs no spaces between words ("突撃右前進右を向く"): longest match left to right.
    out: list[_Lexeme] = []
    i = 0
    while i < len(run):
        match = next(
            (
                run[i : i + size]
                for size in range(min(_JA_MAX, len(run) - i), 0, -1)
                if run[i : i + size] in _JA_VOCAB
            ),
            None,
        )
        if match is None:
            # Report the unknown stretch up to the next known word, not the whole rest.
            j = i + 1
            while j < len(run) and not any(run[j:].startswith(w) for w in _JA_VOCAB):
                j += 1
            raise _unknown(run[i:j])
        out.append(_Lexeme(*_JA_VOCAB[match], lang="ja", word=match))
        i += len(match)
    return out


def _lex(text: str) -> list[_Lexeme]:
    lexemes: list[_Lexeme] = []
    for chunk in text.split():
        # Split a chunk into ASCII-word runs and other runs ("forward前進" gives two runs).
        start = 0
        for i in range(1, len(chunk) + 1):
            if i == len(chunk) or (chunk[i] in _ASCII_WORD) != (chunk[start] in _ASCII_WORD):
                run = chunk[start:i]
                lexemes.extend(_lex_english(run) if run[0] in _ASCII_WORD else _lex_other(run))
                start = i
    return lexemes


def _merge_bare_charge(lexemes: list[_Lexeme]) -> list[_Lexeme]:
    """ "突撃 右前進" / "charge fr": a bare charge word and a forward move make one charge."""
    out: list[_Lexeme] = []
    for lex in lexemes:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.word in _BARE_CHARGE
            and prev.lang == lex.lang  # "charge 前進" stays two words: mixed languages
            and lex.kind == "move"
            and lex.word not in _BARE_CHARGE
            and lex.value in _CHARGE_OF
        ):
            out[-1] = _Lexeme("move", _CHARGE_OF[lex.value], prev.lang, prev.word + lex.word)
        else:
            out.append(lex)
    return out


def parse_text(text: str) -> Order:
    """Text to an order, without looking at the game (syntax only)."""
    if not isinstance(text, str):
        raise OrderRejected(R_EMPTY)
    # Checked before normalising so that a huge message costs nothing.
    if len(text) > MAX_ORDER_CHARS:
        raise OrderRejected(R_TOO_LONG, limit=MAX_ORDER_CHARS)
    lexemes = _merge_bare_charge(_lex(_normalise(text)))
    if not lexemes:
        raise OrderRejected(R_EMPTY)
    langs = {lex.lang for lex in lexemes if lex.lang}
    if len(langs) > 1:
        raise OrderRejected(R_MIXED)
    moves = [lex for lex in lexemes if lex.kind == "move"]
    turns = [lex for lex in lexemes if lex.kind == "turn"]
    if len(moves) > 1:
        raise OrderRejected(R_TWO_MOVES, first=moves[0].word, second=moves[1].word)
    if len(turns) > 1:
        raise OrderRejected(R_TWO_TURNS, first=turns[0].word, second=turns[1].word)
    if not moves:
        raise OrderRejected(R_NO_MOVE)
    return Order(moves[0].value, turns[0].value if turns else "none")


def _check_order_now(state: ArenaState, seat: str) -> None:
    _check_seat(state, seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    if not state.dice:
        raise OrderRejected(R_NOT_STARTED)


def _check_legal(state: ArenaState, seat: str, order: Order) -> None:
    problem = move_problem(state, seat, order.move)
    if problem is not None:
        raise OrderRejected(problem, move_key=_label_key("move", order.move))


def parse(state: ArenaState, seat: str, text: str) -> Order:
    """Order text in Japanese or English to an :class:`Order` legal for ``seat`` now.

    >>> from bot.dice import ScriptedDice
    >>> s, _ = start_step(new_game("g", SEATS, {}, ScriptedDice([])), ScriptedDice([1] * 6))
    >>> parse(s, "A", "右前 左回転").canonical(), parse(s, "B", "ＦＲ  l").canonical()
    ('front-right left', 'front-right left')
    """
    _check_order_now(state, seat)
    order = parse_text(text)
    _check_legal(state, seat, order)
    return order


# --- resolution --------------------------------------------------------------------------------


class _Resolution:
    """The working copy of one turn's resolution (mutable; the states stay untouched)."""

    def __init__(self, state: ArenaState, orders: Mapping[str, Order]) -> None:
        self.state = state
        self.orders = orders
        self.dice = state.dice
        self.pos: dict[str, Hex] = {s: state.fighters[s].hex for s in SEATS}
        self.facing: dict[str, int] = {s: state.fighters[s].facing for s in SEATS}
        self.direction: dict[str, int] = {
            s: (state.fighters[s].facing + (orders[s].spec.rel or 0)) % 6 for s in SEATS
        }
        self.damage: dict[str, int] = dict.fromkeys(SEATS, 0)
        self.moved: dict[str, int] = dict.fromkeys(SEATS, 0)
        self.ended: dict[str, bool] = dict.fromkeys(SEATS, False)
        self.stopped: dict[str, bool] = dict.fromkeys(SEATS, False)
        self.paths: dict[str, list[Hex]] = {s: [self.pos[s]] for s in SEATS}
        self.passing = False
        self.fight: str | None = None  # the winner of the combat or passing, or DRAW
        self.collision: Hex | None = None
        self.events: list[Event] = []

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, data))

    def go(self, seat: str, to: Hex, step: int) -> None:
        self.emit(
            "move", seat=seat, step=step, from_hex=_hex_json(self.pos[seat]), to_hex=_hex_json(to)
        )
        self.pos[seat] = to
        self.paths[seat].append(to)
        self.moved[seat] += 1

    def displace(self, seat: str, to: Hex) -> None:
        """Moved by the other figure (push): part of its path, not a move of its own."""
        self.pos[seat] = to
        self.paths[seat].append(to)

    def charged(self, seat: str) -> bool:
        # Charged this turn = the order was a charge and the figure moved at least one hex
        # (a charger stopped by a collision in step 1 never charged).
        return self.orders[seat].spec.charge and self.moved[seat] > 0

    # movement ---------------------------------------------------------------------------------

    def movement(self) -> None:
        for step in (1, 2):
            movers = [s for s in SEATS if self.orders[s].spec.steps >= step and not self.ended[s]]
            if len(movers) == 2:
                self.both_move(step)
            elif len(movers) == 1:
                self.one_moves(movers[0], step)

    def both_move(self, step: int) -> None:
        a, b = SEATS
        ta, tb = neighbor(self.pos[a], self.direction[a]), neighbor(self.pos[b], self.direction[b])
        if ta == self.pos[b] and tb == self.pos[a]:
            # Passing: both complete their moves (and later their turns); die 2 decides.
            da, db = self.dice[a][1], self.dice[b][1]
            self.go(a, ta, step)
            self.go(b, tb, step)
            self.passing = True
            cmp = compare_dice((da,), (db,))
            if cmp == 0:
                self.fight = DRAW
                self.emit("passing_draw", step=step, die_A=da, die_B=db)
            else:
                loser = b if cmp > 0 else a
                self.fight = _other(loser)
                self.damage[loser] += 2
                self.emit("passing", step=step, die_A=da, die_B=db, loser=loser, damage=2)
            return
        if ta == tb:
            # Collision: die 3; the higher completes its plan, a stopped figure neither moves on
            # nor turns.
            da, db = self.dice[a][2], self.dice[b][2]
            self.collision = ta
            cmp = compare_dice((da,), (db,))
            if cmp == 0:
                for s in (a, b):
                    self.ended[s] = self.stopped[s] = True
                self.emit("collision_draw", step=step, hex=_hex_json(ta), die_A=da, die_B=db)
                return
            winner, loser = (a, b) if cmp > 0 else (b, a)
            self.ended[loser] = self.stopped[loser] = True
            self.emit(
                "collision",
                step=step,
                hex=_hex_json(ta),
                die_A=da,
                die_B=db,
                winner=winner,
                loser=loser,
            )
            self.go(winner, ta, step)
            return
        # Otherwise both move; one may enter the hex the other leaves in the same step.
        self.go(a, ta, step)
        self.go(b, tb, step)

    def one_moves(self, seat: str, step: int) -> None:
        # The other figure does not move in this step: it stays, or has finished moving (a figure
        # that has finished moving counts as stationary in step 2).
        other = _other(seat)
        target = neighbor(self.pos[seat], self.direction[seat])
        if target != self.pos[other]:
            self.go(seat, target, step)
            return
        if step == 1 and self.orders[seat].spec.steps == 2:
            # Pass-over: a charger's first hex holds the stationary opponent; no push, go on.
            self.emit("pass_over", seat=seat, target=other, hex=_hex_json(target))
            self.pos[seat] = target
            self.paths[seat].append(target)
            self.moved[seat] += 1
            return
        beyond = neighbor(target, self.direction[seat])
        if blocked(self.state, beyond):
            # A blocked push ends the mover's movement (no further charge step), but unlike a
            # collision it does not cost the mover its turn.
            self.ended[seat] = True
            self.damage[other] += 1
            self.emit("push_blocked", seat=seat, target=other, hex=_hex_json(target), damage=1)
            return
        self.emit(
            "push", seat=seat, target=other, from_hex=_hex_json(target), to_hex=_hex_json(beyond)
        )
        self.displace(other, beyond)
        self.go(seat, target, step)

    def turns(self) -> None:
        for s in SEATS:
            delta = TURNS[self.orders[s].turn]
            if delta == 0:
                continue
            if self.stopped[s]:
                self.emit("turn_prevented", seat=s)
                continue
            self.facing[s] = (self.facing[s] + delta) % 6
            # One event type per side so that each language can say it naturally.
            self.emit(f"turn_{self.orders[s].turn}", seat=s, facing=FACING_NAMES[self.facing[s]])

    # combat -----------------------------------------------------------------------------------

    def combat(self) -> None:
        a, b = SEATS
        figures = {s: Fighter(self.pos[s], self.facing[s]) for s in SEATS}
        where: dict[str, str] = {}
        for s in SEATS:
            position = relative_position(figures[s], self.pos[_other(s)])
            if position is None:
                return  # not adjacent: no combat
            where[s] = position
        used = {
            s: sorted((self.dice[s][n - 1] for n in dice_used(where[s])), reverse=True)
            for s in SEATS
        }
        data: dict[str, Any] = {
            "dice_A": used[a],
            "dice_B": used[b],
            "position_A": where[a],
            "position_B": where[b],
        }
        cmp = compare_dice(used[a], used[b])
        if cmp == 0:
            self.fight = DRAW
            self.emit("combat_draw", **data)
            return
        winner, loser = (a, b) if cmp > 0 else (b, a)
        self.fight = winner
        damage = 2 if self.charged(winner) else 1
        self.damage[loser] += damage
        self.emit(
            "combat",
            **data,
            winner=winner,
            loser=loser,
            damage=damage,
            charged=self.charged(winner),
        )
        if where[winner] != "front":
            return
        # Push-back: the winner advances into the loser's hex, the loser goes one further.
        beyond = neighbor(self.pos[loser], self.facing[winner])
        if blocked(self.state, beyond):
            self.damage[loser] += 1
            self.emit("cornered", seat=winner, target=loser, damage=1)
            return
        old = self.pos[loser]
        self.emit(
            "push_back",
            seat=winner,
            target=loser,
            from_hex=_hex_json(old),
            to_hex=_hex_json(beyond),
        )
        self.displace(loser, beyond)
        self.displace(winner, old)


def _prepare_orders(state: ArenaState, orders: Mapping[str, Any]) -> dict[str, Order]:
    for seat in orders:
        _check_seat(state, seat)
    prepared: dict[str, Order] = {}
    for seat in SEATS:
        order = orders.get(seat)
        if order is None:
            order = default_order(state, seat)  # did not submit: as on a deadline
        elif isinstance(order, str):
            order = parse(state, seat, order)
        elif not isinstance(order, Order):
            raise OrderRejected(R_UNKNOWN, word=type(order).__name__)
        # Orders are checked at submission; check again so that no caller can resolve an illegal
        # one (the state cannot have changed in between, so this never rejects a parsed order).
        _check_legal(state, seat, order)
        prepared[seat] = order
    return prepared


def resolve(
    state: ArenaState, orders: Mapping[str, Order], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[ArenaState, list[Event]]:
    """Resolve the open turn with both orders (digest steps 1-8). Draws no dice."""
    if state.finished:
        raise TurnError("arena.error.finished")
    if not state.dice:
        raise TurnError("arena.error.turn_not_open", turn=state.turn)
    prepared = _prepare_orders(state, orders)
    res = _Resolution(state, prepared)
    for s in SEATS:
        order = prepared[s]
        # The label keys let a reader show the order in its own language (the tokens are English).
        res.emit(
            "order",
            seat=s,
            move=order.move,
            turn=order.turn,
            move_key=_label_key("move", order.move),
            turn_key=_label_key("turn", order.turn),
        )
    for s in SEATS:
        res.emit("dice", seat=s, dice=list(state.dice[s]))

    res.movement()
    res.turns()
    if not res.passing:  # passing combat excludes any other combat this turn
        res.combat()

    # Death and the winner are decided only here, after the turn's stamina loss: damage earlier
    # in the turn does not cut the turn short. Stamina is kept at 0 at least (it means dead).
    stamina: dict[str, int] = {}
    for s in SEATS:
        stamina[s] = max(0, state.fighters[s].stamina - res.damage[s] - 1)
        res.emit("stamina_loss", seat=s, amount=1, stamina=stamina[s])
    dead = [s for s in SEATS if stamina[s] <= 0]
    for s in dead:
        res.emit("death", seat=s)

    a, b = SEATS
    may = dict(zip(SEATS, charge_check(state.dice[a], state.dice[b]), strict=True))
    dice_data = {"dice_A": list(state.dice[a]), "dice_B": list(state.dice[b])}
    if may[a] and may[b]:
        res.emit("charge_check_both", **dice_data)
    elif may[a] or may[b]:
        res.emit("charge_check", seat=a if may[a] else b, **dice_data)
    else:
        res.emit("charge_check_none", **dice_data)

    fighters: dict[str, Fighter] = {}
    for s in SEATS:
        behind = neighbor(res.pos[s], res.facing[s] + 3)
        no_retreat = behind == res.pos[_other(s)]
        if no_retreat:
            res.emit("retreat_restricted", seat=s)
        fighters[s] = Fighter(res.pos[s], res.facing[s], stamina[s], may[s], no_retreat)

    winner: str | None = None
    if len(dead) == 2:
        winner = DRAW
        res.emit("game_over_draw")
    elif dead:
        winner = _other(dead[0])
        res.emit("game_over", winner=winner)

    last = LastTurn(
        state.turn,
        {s: tuple(res.paths[s]) for s in SEATS},
        {s: res.charged(s) for s in SEATS},
        dict(state.dice),
        dict(res.damage),
        res.fight,
        res.collision,
    )
    new = replace(state, fighters=fighters, dice={}, last_turn=last, winner=winner)
    return new, res.events


def resign(state: ArenaState, seat: str) -> tuple[ArenaState, list[Event]]:
    """``seat`` gives up: the other seat wins; positions stay as they are."""
    _check_seat(state, seat)
    if state.finished:
        raise OrderRejected(R_FINISHED)
    winner = _other(seat)
    new = replace(state, dice={}, winner=winner, resigned=seat)
    return new, [Event("resigned", {"seat": seat, "winner": winner})]


# --- views and serialisation -------------------------------------------------------------------


def _fighter_json(f: Fighter) -> dict[str, Any]:
    return {
        "hex": _hex_json(f.hex),
        "facing": FACING_NAMES[f.facing],
        "stamina": f.stamina,
        "may_charge": f.may_charge,
        "no_retreat": f.no_retreat,
    }


def _fighters_json(state: ArenaState) -> dict[str, Any]:
    return {s: _fighter_json(state.fighters[s]) for s in SEATS}


def _obstacles_json(state: ArenaState) -> list[list[int]]:
    return [_hex_json(h) for h in sorted(state.obstacles)]


def _last_turn_view(last: LastTurn | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "turn": last.turn,
        "paths": {s: [_hex_json(h) for h in last.paths[s]] for s in SEATS},
        "charged": {s: last.charged[s] for s in SEATS},
        "damage": {s: last.damage.get(s, 0) for s in SEATS},
        "fight": last.fight,
        "collision": _hex_json(last.collision) if last.collision else None,
    }


def view(state: ArenaState, seat: str | None) -> dict[str, Any]:
    """What ``seat`` may see (None: the public). Only the asking seat's own current dice."""
    own = {seat: list(state.dice[seat])} if seat in SEATS and seat in state.dice else {}
    return {
        "turn": state.turn,
        "fighters": _fighters_json(state),
        "obstacles": _obstacles_json(state),
        "last_turn": _last_turn_view(state.last_turn),
        "dice": own,
        "outcome": state.winner,
    }


def summary(state: ArenaState) -> dict[str, Any]:
    """The replay summary of the digest."""
    return {"fighters": _fighters_json(state)}


def to_json(state: ArenaState) -> dict[str, Any]:
    last = _last_turn_view(state.last_turn)
    if last is not None and state.last_turn is not None:
        last["dice"] = {s: list(d) for s, d in state.last_turn.dice.items()}
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "turn": state.turn,
        "fighters": _fighters_json(state),
        "dice": {s: list(d) for s, d in state.dice.items()},
        "obstacles": _obstacles_json(state),
        "last_turn": last,
        "winner": state.winner,
        "resigned": state.resigned,
    }


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StateError("arena.state.invalid", reason=f"{what}: not an integer")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise StateError("arena.state.invalid", reason=f"{what}: not a boolean")
    return value


def _hex(value: Any, what: str) -> Hex:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise StateError("arena.state.invalid", reason=f"{what}: not a hex")
    h = (_int(value[0], what), _int(value[1], what))
    if not in_arena(h):
        raise StateError("arena.state.invalid", reason=f"{what}: outside the arena")
    return h


def _dice(value: Any, what: str) -> tuple[int, int, int]:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise StateError("arena.state.invalid", reason=f"{what}: not three dice")
    d1, d2, d3 = (_int(v, what) for v in value)
    if not all(1 <= d <= DIE_SIDES for d in (d1, d2, d3)):
        raise StateError("arena.state.invalid", reason=f"{what}: die out of range")
    return (d1, d2, d3)


def _seat_map(value: Any, what: str, *, complete: bool) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not set(value) <= set(SEATS):
        raise StateError("arena.state.invalid", reason=f"{what}: bad seats")
    if complete and set(value) != set(SEATS):
        raise StateError("arena.state.invalid", reason=f"{what}: missing seat")
    return value


def _fighter(value: Any, seat: str) -> Fighter:
    if not isinstance(value, Mapping):
        raise StateError("arena.state.invalid", reason=f"fighter {seat}")
    facing = value.get("facing")
    if facing not in FACING_NAMES:
        raise StateError("arena.state.invalid", reason=f"fighter {seat}: facing")
    return Fighter(
        _hex(value.get("hex"), f"fighter {seat}"),
        FACING_NAMES.index(facing),
        _int(value.get("stamina"), f"fighter {seat} stamina"),
        _bool(value.get("may_charge"), f"fighter {seat} may_charge"),
        _bool(value.get("no_retreat"), f"fighter {seat} no_retreat"),
    )


def _last_turn(value: Any) -> LastTurn | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise StateError("arena.state.invalid", reason="last_turn")
    paths = _seat_map(value.get("paths"), "last_turn paths", complete=True)
    charged = _seat_map(value.get("charged"), "last_turn charged", complete=True)
    dice = _seat_map(value.get("dice", {}), "last_turn dice", complete=False)
    for s in SEATS:
        if not isinstance(paths[s], list | tuple) or not paths[s]:
            raise StateError("arena.state.invalid", reason="last_turn paths")
    # damage, fight and collision came later: a state stored before them loads without them
    damage = _seat_map(value.get("damage", {}), "last_turn damage", complete=False)
    fight = value.get("fight")
    if fight not in (None, DRAW, *SEATS):
        raise StateError("arena.state.invalid", reason="last_turn fight")
    collision = value.get("collision")
    return LastTurn(
        _int(value.get("turn"), "last_turn turn"),
        {s: tuple(_hex(h, "last_turn path") for h in paths[s]) for s in SEATS},
        {s: _bool(charged[s], "last_turn charged") for s in SEATS},
        {s: _dice(d, "last_turn dice") for s, d in dice.items()},
        {s: _int(n, "last_turn damage") for s, n in damage.items()},
        fight,
        _hex(collision, "last_turn collision") if collision is not None else None,
    )


def from_json(obj: Mapping[str, Any]) -> ArenaState:
    """Load a stored state; anything malformed or of another schema is a :class:`StateError`."""
    if not isinstance(obj, Mapping):
        raise StateError("arena.state.invalid", reason="not an object")
    if obj.get("schema") != SCHEMA_VERSION:
        raise StateError(
            "arena.state.schema", found=repr(obj.get("schema")), expected=SCHEMA_VERSION
        )
    game_id = obj.get("game_id")
    if not isinstance(game_id, str):
        raise StateError("arena.state.invalid", reason="game_id")
    turn_no = _int(obj.get("turn"), "turn")
    if turn_no < 0:
        raise StateError("arena.state.invalid", reason="turn")
    fighters_raw = _seat_map(obj.get("fighters"), "fighters", complete=True)
    fighters = {s: _fighter(fighters_raw[s], s) for s in SEATS}
    dice_raw = _seat_map(obj.get("dice", {}), "dice", complete=False)
    dice = {s: _dice(d, f"dice {s}") for s, d in dice_raw.items()}
    if dice and set(dice) != set(SEATS):
        raise StateError("arena.state.invalid", reason="dice: one seat only")
    obstacles_raw = obj.get("obstacles", [])
    if not isinstance(obstacles_raw, list | tuple):
        raise StateError("arena.state.invalid", reason="obstacles")
    obstacles = frozenset(_hex(h, "obstacle") for h in obstacles_raw)
    winner = obj.get("winner")
    if winner not in (None, DRAW, *SEATS):
        raise StateError("arena.state.invalid", reason="winner")
    resigned = obj.get("resigned")
    if resigned not in (None, *SEATS):
        raise StateError("arena.state.invalid", reason="resigned")
    if fighters["A"].hex == fighters["B"].hex or any(f.hex in obstacles for f in fighters.values()):
        raise StateError("arena.state.invalid", reason="fighters overlap or stand on obstacles")
    return ArenaState(
        game_id,
        turn_no,
        fighters,
        dice,
        obstacles,
        _last_turn(obj.get("last_turn")),
        winner,
        resigned,
    )


__all__ = [
    "DIRECTIONS",
    "FACING_NAMES",
    "MOVES",
    "NAME",
    "SCHEMA_VERSION",
    "SEATS",
    "TURNS",
    "ArenaState",
    "Fighter",
    "Hex",
    "LastTurn",
    "OptionError",
    "Order",
    "TurnError",
    "awaiting",
    "charge_check",
    "check_options",
    "choices",
    "compare_dice",
    "default_order",
    "dice_used",
    "from_json",
    "legal",
    "legal_moves",
    "move_problem",
    "new_game",
    "outcome",
    "parse",
    "parse_text",
    "relative_position",
    "resign",
    "resolve",
    "start_step",
    "step_label",
    "step_number",
    "summary",
    "to_json",
    "view",
]
