"""The entry draft: a snake draft over a unit pool, pure.

The pool is a sequence of unit ids (a unit listed twice can be drafted twice) with a cost for each;
it comes from the ruleset (its rosters' ``pool``). Picks go 1..n, n..1, 1..n… Each pick
has a time limit; when it passes, :func:`auto_pick` chooses for the player (the highest cost still
available, ties by pool order) and the pick is marked automatic.

The state is a frozen dataclass; every step returns a new one. Times are floats passed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.ruleset import RuleError
from cogs.league.ledger import DRAFT_PICK, Entry

SCHEMA = 1
DEFAULT_ROUNDS = 9  # エントリー: each player acquires nine normal units
# A ruleset's judgement of one pick (bot.leagues.PickChecked): (held, entry, picks left after
# it) -> None, or a RuleError saying why not.
Check = Callable[[Sequence[str], str, int], None]


class DraftError(RuleError):
    """A pick the draft refuses (``league.draft.*``)."""


def order(players: Sequence[str], rounds: int) -> list[str]:
    """The snake: ``order(["a", "b", "c"], 2) == ["a", "b", "c", "c", "b", "a"]``."""
    seq: list[str] = []
    for r in range(rounds):
        seq.extend(players if r % 2 == 0 else reversed(players))
    return seq


@dataclass(frozen=True)
class Pick:
    number: int  # 1-based, in draft order
    player: str
    unit: str
    at: float
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "unit": self.unit,
            "at": self.at,
            "auto": self.auto,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Pick:
        return cls(
            int(obj["number"]),
            str(obj["player"]),
            str(obj["unit"]),
            float(obj["at"]),
            bool(obj.get("auto", False)),
        )


@dataclass(frozen=True)
class DraftState:
    league: str
    players: tuple[str, ...]
    pool: tuple[str, ...]
    costs: Mapping[str, int]
    rounds: int
    per_pick: float  # seconds each pick may take
    turn_started_at: float  # when the current pick's clock started
    picks: tuple[Pick, ...] = ()

    # --- derived ---------------------------------------------------------------------------

    @property
    def sequence(self) -> list[str]:
        return order(self.players, self.rounds)

    @property
    def over(self) -> bool:
        return len(self.picks) >= len(self.sequence)

    @property
    def number(self) -> int:
        """The number (1-based) of the pick now due."""
        return len(self.picks) + 1

    @property
    def current(self) -> str | None:
        """Whose pick it is, or None once the draft is over."""
        return None if self.over else self.sequence[len(self.picks)]

    @property
    def deadline_at(self) -> float | None:
        return None if self.over else self.turn_started_at + self.per_pick

    def available(self) -> list[str]:
        """What is still available, in pool order (one entry per remaining copy)."""
        taken = Counter(p.unit for p in self.picks)
        left: list[str] = []
        for unit in self.pool:
            if taken[unit]:
                taken[unit] -= 1
            else:
                left.append(unit)
        return left

    def picks_of(self, player: str) -> list[str]:
        return [p.unit for p in self.picks if p.player == player]

    def picks_left_after(self) -> int:
        """How many picks the player now due has after this one."""
        if self.over:
            return 0
        return self.sequence[self.number :].count(self.sequence[len(self.picks)])

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "league": self.league,
            "players": list(self.players),
            "pool": list(self.pool),
            "costs": dict(self.costs),
            "rounds": self.rounds,
            "per_pick": self.per_pick,
            "turn_started_at": self.turn_started_at,
            "picks": [p.to_json() for p in self.picks],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DraftState:
        return cls(
            league=str(obj["league"]),
            players=tuple(str(p) for p in obj["players"]),
            pool=tuple(str(u) for u in obj["pool"]),
            costs={str(k): int(v) for k, v in obj["costs"].items()},
            rounds=int(obj["rounds"]),
            per_pick=float(obj["per_pick"]),
            turn_started_at=float(obj["turn_started_at"]),
            picks=tuple(Pick.from_json(p) for p in obj["picks"]),
        )


def new_draft(
    league: str,
    players: Sequence[str],
    pool: Iterable[tuple[str, int]],
    *,
    rounds: int = DEFAULT_ROUNDS,
    per_pick: float,
    at: float,
) -> DraftState:
    """A draft starting at ``at``; ``pool`` is (unit id, cost) pairs in pool order."""
    pairs = list(pool)
    return DraftState(
        league=league,
        players=tuple(players),
        pool=tuple(u for u, _ in pairs),
        costs={u: int(c) for u, c in pairs},
        rounds=rounds,
        per_pick=float(per_pick),
        turn_started_at=float(at),
    )


def pick(
    state: DraftState,
    player: str,
    unit: str,
    at: float,
    *,
    auto: bool = False,
    check: Check | None = None,
) -> DraftState:
    """``player`` takes ``unit``; refused if the draft is over, it is not their turn, the unit is
    not in the pool, every copy of it is taken, or the ruleset's ``check`` refuses it."""
    if state.over:
        raise DraftError("league.draft.over")
    if player != state.current:
        raise DraftError("league.draft.not_your_turn", player=state.current)
    if unit not in state.costs:
        raise DraftError("league.draft.unknown_unit", unit=unit)
    if unit not in state.available():
        raise DraftError("league.draft.taken", unit=unit)
    if check is not None:
        check(state.picks_of(player), unit, state.picks_left_after())
    made = Pick(state.number, player, unit, float(at), auto)
    return replace(state, picks=(*state.picks, made), turn_started_at=float(at))


def auto_pick(state: DraftState, check: Check | None = None) -> str:
    """The unit the bot picks for a late player: the highest cost available that the ruleset's
    ``check`` accepts (every one, when it accepts none), ties by pool order."""
    left = state.available()
    if state.over or not left:
        raise DraftError("league.draft.over")
    if check is not None:
        held, after = state.picks_of(state.current or ""), state.picks_left_after()
        accepted = [u for u in dict.fromkeys(left) if _accepts(check, held, u, after)]
        left = [u for u in left if u in accepted] or left
    best = max(state.costs[u] for u in left)
    return next(u for u in left if state.costs[u] == best)


def _accepts(check: Check, held: Sequence[str], unit: str, after: int) -> bool:
    try:
        check(held, unit, after)
    except RuleError:
        return False
    return True


def expired(state: DraftState, now: float) -> bool:
    """Whether the pick now due has run out of time."""
    deadline = state.deadline_at
    return deadline is not None and now >= deadline


def run_expired(state: DraftState, now: float, check: Check | None = None) -> DraftState:
    """Make every automatic pick whose time has passed by ``now`` (after a restart there may be
    several). Each automatic pick is made at its own deadline, so the next clock starts there."""
    while expired(state, now):
        deadline = state.deadline_at
        assert deadline is not None
        state = pick(state, state.current or "", auto_pick(state, check), deadline, auto=True)
    return state


def ledger_entries(state: DraftState, *, by: str = "draft") -> list[Entry]:
    """The draft's picks as roster-ledger entries (``ref`` is the pick number)."""
    return [
        Entry(
            league=state.league,
            player=p.player,
            unit=p.unit,
            kind=DRAFT_PICK,
            at=p.at,
            by=p.player if not p.auto else by,
            ref=str(p.number),
            note="auto" if p.auto else "",
        )
        for p in state.picks
    ]
