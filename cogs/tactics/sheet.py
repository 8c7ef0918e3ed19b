"""Tactics order text: rosters, lineups and action sheets, in Japanese or English (pure).

:func:`parse` turns what a player typed into an :class:`Order` for the current step and refuses,
with an :class:`~bot.ruleset.OrderRejected` (``tactics.reject.<why>`` and parameters), anything
that cannot be carried out on the board as it stands. The rules engine (``rules.py``) owns the
state (``state.py``); this module only reads it.

Text forms (full-width letters and digits are accepted everywhere; NFKC):

- roster: ``warlord knight knight archer`` / ``覇王 剣士 剣士 弓兵`` (one master preset, 1–9 pool
  units, at most 2 copies of a unit; separators: spaces, ``,`` ``、`` ``・``).
  Canonical: ``roster warlord knight knight archer`` (ids).
- lineup: ``knight C9, archer D9`` / ``剣士 C9、弓兵 D9``; a unit by name or id (``A3``).
  Canonical: ``A2 C9, A4 D9``.
- action sheet, one line per unit (newline or ``;``), in the order they act:
  ``knight C4>C6 attack D6``, ``剣士 C4→C6 攻撃 D6``, ``A2 C4>C6 ability D6``, ``魔導士 待機``,
  ``knight C4`` (stays, no action), ``knight >C6`` (moves only); on turns 3 and 7 one
  ``summon knight A9`` / ``召喚 剣士 A9``. Arrows ``>`` ``->`` ``→`` ``＞``; keywords
  attack/atk/攻撃, ability/skill/能力/特技, wait/stay/待機. An empty sheet, or ``wait`` / ``待機``
  alone, means every unit waits. Canonical: ``A2 >C6 attack D6``, ``A3 wait``, ``summon A7 A9``
  joined by newlines (``wait`` for the empty sheet); the origin square is checked, not stored.
  Blank text never reaches this module: the table refuses it (``order.empty``), so a stray space
  cannot replace a real sheet with an empty one; the builder sends ``wait`` for an empty draft.

A unit is named by id or by name in either language; if several of the seat's units share the
name, a written origin square tells them apart, else the only one on the board (during play);
still ambiguous → refused.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.render.squaregrid import label, try_parse
from bot.ruleset import OrderRejected
from cogs.tactics import master, movement, units
from cogs.tactics.state import Square, TacticsState, Unit
from cogs.tactics.units import UnitType, tag, untag

if TYPE_CHECKING:
    from collections.abc import Mapping

SUMMON_TURNS = (3, 7)
MAX_MANA = 10
ROSTER_MAX = 9
MAX_COPIES = 2
LINEUP = (1, 5)
MAX_ORDER_CHARS = 1500

_ARROWS = re.compile(r"->|→|⇒|＞|>")
_CJK = r"\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
# ``A-4`` typed on a Japanese keyboard: ``Aー4`` (kana mode), ``A－4`` (NFKC makes it ``-``).
_DASHED_ID = re.compile(r"(?<![A-Za-z])([ABab])[‐‑‒–—―−ー_](?=[0-9])")
_BOUNDARY = re.compile(rf"(?<=[{_CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_CJK}])")
KEYWORDS = {
    "attack": "attack",
    "atk": "attack",
    "攻撃": "attack",
    "ability": "ability",
    "skill": "ability",
    "能力": "ability",
    "特技": "ability",
    "wait": "wait",
    "stay": "wait",
    "待機": "wait",
    "summon": "summon",
    "召喚": "summon",
    "roster": "roster",
    "ロスター": "roster",
    "デッキ": "roster",  # the seed's word (敗者の敗退時点のデッキ); ロスター kept for old habits
}
_JA_SUFFIXES = ("待機", "攻撃", "能力", "特技")


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def normalise(text: str) -> str:
    """NFKC (full-width → ASCII), every arrow as `` > ``, a space between CJK and ASCII runs."""
    text = unicodedata.normalize("NFKC", text)
    text = _DASHED_ID.sub(r"\1-", text)  # before the CJK boundary would split ``Aー4``
    text = _ARROWS.sub(" > ", text)
    return _BOUNDARY.sub(" ", text)


def words(line: str) -> list[str]:
    found: list[str] = []
    for word in re.split(r"[\s,、・]+", line.strip()):
        if not word:
            continue
        for suffix in _JA_SUFFIXES:  # "魔導士待機" → "魔導士", "待機"
            if word.endswith(suffix) and word != suffix:
                found += [word[: -len(suffix)], suffix]
                break
        else:
            found.append(word)
    return found


def names_of(unit_type: UnitType) -> set[str]:
    return {unit_type.id.lower(), *(n.lower() for n in unit_type.name.values())}


@dataclass(frozen=True)
class Line:
    """One line: a deployment (``dest``), a summon (``target``) or a unit's action."""

    unit: str
    dest: Square | None = None  # None: no move
    action: str = "wait"  # wait | attack | ability | summon
    target: Square | None = None

    def canonical(self) -> str:
        if self.action == "summon":
            return f"summon {self.unit} {label(self.target)}"  # type: ignore[arg-type]
        parts = [self.unit]
        if self.dest is not None:
            parts.append(f">{label(self.dest)}")
        if self.action in ("attack", "ability"):
            parts.append(self.action)
            if self.target is not None:
                parts.append(label(self.target))
        elif self.action == "wait":
            parts.append("wait")
        return " ".join(parts)


@dataclass(frozen=True)
class Order:
    """A parsed order. ``lines`` (deploy, play) and ``roster`` (master id then pool ids)."""

    step: str
    lines: tuple[Line, ...] = ()
    roster: tuple[str, ...] = ()

    def canonical(self) -> str:
        if self.step == "roster":
            return "roster " + " ".join(self.roster)
        if self.step == "deploy":
            return ", ".join(f"{ln.unit} {label(ln.dest)}" for ln in self.lines)  # type: ignore[arg-type]
        return "\n".join(ln.canonical() for ln in self.lines) or "wait"

    def line_texts(self) -> list[str]:
        """The canonical text of each line (the builder shows them one by one)."""
        if self.step == "roster":
            return [self.canonical()]
        if self.step == "deploy":
            return [f"{ln.unit} {label(ln.dest)}" for ln in self.lines]  # type: ignore[arg-type]
        return [ln.canonical() for ln in self.lines]


def reject(key: str, **params: Any) -> OrderRejected:
    return OrderRejected(f"tactics.reject.{key}", **params)


# --- movement on the state (used at submission and at resolution) ----------------------------


def reach(
    state: TacticsState, unit: Unit, start: Square, positions: Mapping[str, Square | None]
) -> set[Square]:
    """Squares ``unit`` may end its move on with the units where ``positions`` puts them."""
    holders = {
        sq: state.units[uid].side
        for uid, sq in positions.items()
        if sq is not None and uid != unit.id
    }
    return _ground(state, unit, holders).reach(start, unit.stat("move"))


def path(state: TacticsState, unit: Unit, start: Square, dest: Square) -> list[Square]:
    holders = {
        u.square: u.side
        for u in state.units.values()
        if u.on_board and u.square is not None and u.id != unit.id
    }
    return _ground(state, unit, holders).path(start, dest)


def _ground(state: TacticsState, unit: Unit, holders: Mapping[Square, str]) -> movement.Ground:
    m = state.map
    return movement.Ground(m.width, m.height, state.obstacles(), holders, unit.side)


# --- parsing ----------------------------------------------------------------------------------


def square(word: str, state: TacticsState) -> Square | None:
    sq = try_parse(word)
    if sq is None or not state.map.inside(sq):
        return None
    return sq


def resolve_unit(state: TacticsState, seat: str, word: str, origin: Square | None) -> Unit:
    """The unit ``word`` names (id or name in either language) among ``seat``'s."""
    low = word.lower()
    by_id = state.units.get(untag(word))
    if by_id is not None:
        if by_id.side != seat:
            raise reject("enemy_unit", unit=tag(by_id.id))
        return by_id
    mine = [u for u in state.side_units(seat) if low in names_of(u.type)]
    if not mine:
        if any(low in names_of(u.type) for u in state.side_units(other(seat))):
            raise reject("enemy_unit", unit=word)
        raise reject("unknown_unit", name=word)
    if len(mine) > 1 and origin is not None:
        mine = [u for u in mine if u.square == origin] or mine
    living = [u for u in mine if u.status != "dead"]
    if len(living) > 1:
        on_board = [u for u in living if u.on_board]
        if len(on_board) == 1 and state.step == "play":
            return on_board[0]
        raise reject("ambiguous", name=word, ids=", ".join(tag(u.id) for u in living))
    return (living or mine)[0]


def parse(state: TacticsState, seat: str, text: str) -> Order:
    if seat not in ("A", "B"):
        raise reject("not_seated")
    if state.step == "finished":
        raise reject("finished")
    if not isinstance(text, str) or len(text) > MAX_ORDER_CHARS:
        raise reject("too_long", limit=MAX_ORDER_CHARS)
    normal = normalise(text)
    if state.step == "roster":
        return parse_roster(normal)
    if state.step == "deploy":
        return parse_deploy(state, seat, normal)
    return parse_sheet(state, seat, normal)


def parse_roster(text: str) -> Order:
    found = [w for w in words(text) if KEYWORDS.get(w.lower()) != "roster"]
    if not found:
        raise reject("empty")
    boss: str | None = None
    chosen: list[str] = []
    for word in found:
        low = word.lower()
        found_master = next((p for p in master.presets() if low in names_of(p)), None)
        if found_master is not None:
            if boss is not None:
                raise reject("two_masters")
            boss = found_master.id
            continue
        unit = next((u for u in units.pool() if low in names_of(u)), None)
        if unit is None:
            raise reject("unknown_unit", name=word)
        chosen.append(unit.id)
    if boss is None:
        raise reject("no_master", known=", ".join(p.name["en"] for p in master.presets()))
    if not 1 <= len(chosen) <= ROSTER_MAX:
        raise reject("roster_size", count=len(chosen), max=ROSTER_MAX)
    for unit_id in sorted(set(chosen)):
        if chosen.count(unit_id) > MAX_COPIES:
            raise reject("too_many_copies", name=unit_id, max=MAX_COPIES)
    return Order("roster", roster=(boss, *chosen))


def parse_deploy(state: TacticsState, seat: str, text: str) -> Order:
    entries = [e for e in re.split(r"[,、;\n]+", text) if e.strip()]
    if not entries:
        raise reject("empty")
    lines: list[Line] = []
    zone = set(state.map.zones[seat])
    for entry in entries:
        parts = words(entry)
        if len(parts) != 2:
            raise reject("deploy_syntax", entry=entry.strip())
        sq = square(parts[1], state)
        if sq is None:
            raise reject("bad_square", square=parts[1])
        unit = _pick_undeployed(state, seat, parts[0], {ln.unit for ln in lines})
        if sq not in zone:
            raise reject("not_in_zone", square=label(sq))
        if sq in state.obstacles() or any(ln.dest == sq for ln in lines):
            raise reject("occupied", square=label(sq))
        lines.append(Line(unit.id, sq))
    if not LINEUP[0] <= len(lines) <= LINEUP[1]:
        raise reject("lineup_size", count=len(lines), max=LINEUP[1])
    cost = sum(state.units[ln.unit].type.cost for ln in lines)
    if cost > state.cap:
        raise reject("over_cap", cost=cost, cap=state.cap)
    return Order("deploy", tuple(lines))


def _pick_undeployed(state: TacticsState, seat: str, word: str, taken: set[str]) -> Unit:
    """For a lineup, ``knight`` twice means both knights: the first not yet taken."""
    by_id = state.units.get(untag(word))
    if by_id is not None:
        if by_id.side != seat:
            raise reject("enemy_unit", unit=tag(by_id.id))
        if by_id.id in taken:
            raise reject("duplicate_line", unit=tag(by_id.id))
        return by_id
    low = word.lower()
    mine = [u for u in state.side_units(seat) if low in names_of(u.type)]
    if not mine:
        if any(low in names_of(u.type) for u in state.side_units(other(seat))):
            raise reject("enemy_unit", unit=word)
        raise reject("unknown_unit", name=word)
    free = [u for u in mine if u.id not in taken]
    if not free:
        raise reject("duplicate_line", unit=tag(mine[0].id))
    return free[0]


_WAIT_ALL = (["wait"], ["待機"], ["stay"])


def parse_sheet(state: TacticsState, seat: str, text: str) -> Order:
    raw_lines = [ln for ln in re.split(r"[\n;；]+", text) if ln.strip()]
    split = [words(ln) for ln in raw_lines]
    split = [w for w in split if w]
    if not split or (len(split) == 1 and [x.lower() for x in split[0]] in _WAIT_ALL):
        return Order("play", ())
    if any([x.lower() for x in w] in _WAIT_ALL for w in split):
        raise reject("mixed")  # "wait" for everyone, and lines for some units
    lines: list[Line] = []
    for parts in split:
        if KEYWORDS.get(parts[0].lower()) == "summon":
            lines.append(_parse_summon(state, seat, parts[1:]))
        else:
            lines.append(_parse_line(state, seat, parts))
    order = Order("play", tuple(lines))
    check_sheet(state, seat, order)
    return order


def _parse_summon(state: TacticsState, seat: str, parts: list[str]) -> Line:
    if len(parts) != 2:
        raise reject("summon_syntax")
    sq = square(parts[1], state)
    if sq is None:
        raise reject("bad_square", square=parts[1])
    candidates = [
        u
        for u in state.side_units(seat)
        if u.status == "reserve"
        and (u.id == untag(parts[0]) or parts[0].lower() in names_of(u.type))
    ]
    if not candidates:
        unit = resolve_unit(state, seat, parts[0], None)
        if unit.status == "dead":
            raise reject("dead_unit", unit=tag(unit.id))
        raise reject("not_in_reserve", unit=tag(unit.id))
    return Line(candidates[0].id, None, "summon", sq)


def _parse_line(state: TacticsState, seat: str, parts: list[str]) -> Line:
    rest = parts[1:]
    origin = dest = target = None
    action = "wait"
    looks_like_square = bool(rest) and try_parse(rest[0]) is not None
    if looks_like_square and KEYWORDS.get(rest[0].lower()) is None:
        origin = square(rest[0], state)  # an origin square; one off the map is refused
        if origin is None:
            raise reject("bad_square", square=rest[0])
        rest = rest[1:]
    if rest and rest[0] == ">":
        if len(rest) < 2 or square(rest[1], state) is None:
            raise reject("bad_square", square=rest[1] if len(rest) > 1 else "")
        dest = square(rest[1], state)
        rest = rest[2:]
    unit = resolve_unit(state, seat, parts[0], origin)
    if rest:
        keyword = KEYWORDS.get(rest[0].lower())
        if keyword not in ("attack", "ability", "wait"):
            raise reject("unknown_word", word=rest[0])
        action = keyword
        rest = rest[1:]
        if action in ("attack", "ability") and rest:
            target = square(rest[0], state)
            if target is None:
                raise reject("bad_square", square=rest[0])
            rest = rest[1:]
        if rest:
            raise reject("unknown_word", word=rest[0])
    if origin is not None and unit.on_board and unit.square != origin:
        raise reject(
            "wrong_origin",
            unit=tag(unit.id),
            square=label(origin),
            actual=label(unit.square),  # type: ignore[arg-type]
        )
    if dest == unit.square:
        dest = None
    return Line(unit.id, dest, action, target)


def check_sheet(state: TacticsState, seat: str, order: Order) -> None:
    """Refuse only what is wrong whatever the opponent does (the digest's "sheets refused at
    submission"): judged on the map, its obstacles and the side's own units, whose places only
    this sheet changes (lines act in order, so a square an earlier line leaves is free for a
    later one). Enemy units are left out: before a line acts they may move away or fall, so a
    path or a square an enemy holds now is no reason to refuse; at resolution such a line falls
    back (``rules._act``). Mana: the summon's cost plus every ability's cost must fit in this
    turn's ``min(turn, 10)``, which depends on nothing but this sheet."""
    seen: set[str] = set()
    have = min(state.turn, MAX_MANA)
    need = 0
    positions = {u.id: u.square for u in state.side_units(seat) if u.on_board}
    summons = [ln for ln in order.lines if ln.action == "summon"]
    if summons:
        if state.turn not in SUMMON_TURNS:
            raise reject("summon_not_now", turns=", ".join(map(str, SUMMON_TURNS)))
        if len(summons) > 1:
            raise reject("two_summons")
        line = summons[0]
        unit = state.units[line.unit]
        if line.target not in state.map.zones[seat]:
            raise reject("not_in_zone", square=label(line.target))  # type: ignore[arg-type]
        if line.target in state.obstacles() or line.target in positions.values():
            raise reject("occupied", square=label(line.target))  # type: ignore[arg-type]
        need += unit.type.cost
        if need > have:
            raise reject("not_enough_mana", need=need, have=have)
    for line in order.lines:
        if line.action == "summon":
            continue
        unit = state.units[line.unit]
        if line.unit in seen:
            raise reject("duplicate_line", unit=tag(unit.id))
        seen.add(line.unit)
        if unit.status == "dead":
            raise reject("dead_unit", unit=tag(unit.id))
        if not unit.on_board:
            raise reject("not_on_board", unit=tag(unit.id))
        if unit.exhausted_turn == state.turn:
            raise reject("exhausted", unit=tag(unit.id))
        where = positions[unit.id]
        assert where is not None
        if line.dest is not None:
            occupied = {sq for uid, sq in positions.items() if uid != unit.id}
            if line.dest in occupied or line.dest in state.obstacles():
                raise reject("occupied", square=label(line.dest))
            if line.dest not in reach(state, unit, where, positions):
                raise reject(
                    "unreachable",
                    unit=tag(unit.id),
                    square=label(line.dest),
                    move=unit.stat("move"),
                )
            positions[unit.id] = where = line.dest
        if line.action == "attack":
            if unit.type.atk <= 0:
                raise reject("cannot_attack", unit=tag(unit.id))
            if line.target is None:
                raise reject("no_target", unit=tag(unit.id))
            if line.target == where:
                raise reject("self_target", unit=tag(unit.id))
            low, high = unit.type.range
            if not low <= movement.distance(where, line.target) <= high:
                raise reject(
                    "out_of_range", unit=tag(unit.id), square=label(line.target), low=low, high=high
                )
        elif line.action == "ability":
            ability = unit.type.ability
            if ability is None:
                raise reject("no_ability", unit=tag(unit.id))
            target = line.target or where
            low, high = ability.range
            if not low <= movement.distance(where, target) <= high:
                raise reject(
                    "out_of_range", unit=tag(unit.id), square=label(target), low=low, high=high
                )
            need += ability.mana
            if need > have:
                raise reject("not_enough_mana", need=need, have=have)
