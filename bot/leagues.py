"""What a league reads of a ruleset, pure: its rosters, a finished game's result, fixed options.

A league (``cogs/league``) names no game. A ruleset that may be played in one says what a league
may do with it in its spec's ``league``, a :class:`bot.ruleset.LeagueSupport` made of the parts
defined here:

- :class:`RosterRules`: the ruleset keeps rosters between a league's matches (a draft pool, what
  an ante moves, master units, how each seat's roster becomes a match's options); a ruleset
  without them (None) has leagues of standings and ratings only: no draft, no masters, no ante.
- :class:`LeagueResult`: what the standings read of a finished game (each player's place, the
  tie-break figures each scored, the points where the ruleset sets them).
- :class:`FixedOption`: a game option a league may fix for all its matches.

No discord and no storage here, and nothing of a particular game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

# The tie-break figure the league's standings total per player as "DP for" and "DP against"
# (destruction points). A ruleset's results may carry other figures; the table shows this one.
DP = "dp"


class HeldRoster(Protocol):
    """A player's roster as the league hands it to a ruleset: the normal units it holds, a unit
    id per copy, in the order they were acquired."""

    @property
    def units(self) -> tuple[str, ...]: ...


class RosterRules(Protocol):
    """A ruleset whose league players keep rosters. The league only moves unit ids between them
    (the entry draft, the ante, a moderator's edit, all in its append-only ledger); what a unit
    is, what a master is and how a roster becomes a match's options belong to the ruleset."""

    @property
    def has_masters(self) -> bool:
        """Each player also fixes a master unit (submitted, maybe approved, then revealed)."""
        ...

    def pool(self) -> list[tuple[str, int]]:
        """The entry draft's pool as (unit id, cost), in pool order, one entry per copy."""
        ...

    def unit_name(self, unit: str, lang: str) -> str:
        """A unit's name in ``lang`` (a pool unit, a preset master, or a designed master's id)."""
        ...

    def master(self, spec: Mapping[str, Any]) -> tuple[str, str]:
        """Check a master submitted now (a preset id or a full design); (its id, a one-line
        summary). A designed master's id can never be a pool unit's."""
        ...

    def master_name(self, spec: Mapping[str, Any], lang: str) -> str:
        """A stored master's name in ``lang``, as its player typed it."""
        ...

    def master_id(self, spec: Mapping[str, Any], stored: str) -> str:
        """The id a master stored as ``stored`` has now (a league stored by an older version
        reads as this one would have written it; anything else is unchanged)."""
        ...

    def match_options(
        self,
        options: Mapping[str, Any],
        rosters: Mapping[str, tuple[HeldRoster, Mapping[str, Any]]],
    ) -> dict[str, Any]:
        """A match's game options: ``options`` are the league's fixed ones (every
        :class:`FixedOption` the ruleset declares, with the league's value), ``rosters`` each
        seat's (roster, master spec; empty without masters)."""
        ...


@runtime_checkable
class PickChecked(Protocol):
    """Rosters that also judge each entry-draft pick (optional: rosters without it take any
    pick in the pool). The league asks before every pick, a player's or the automatic one."""

    def check_pick(self, held: Sequence[str], entry: str, picks_left: int) -> None:
        """Refuse (a :class:`bot.ruleset.RuleError` with its key) taking ``entry`` when the
        player holds ``held`` (their picks so far) and has ``picks_left`` picks after this one."""
        ...


@runtime_checkable
class Finds(Protocol):
    """Rosters whose entries a person may type otherwise than stored (optional: without it, a
    typed unit is its id)."""

    def find(self, word: str) -> list[str]:
        """The pool entries ``word`` may mean (an entry as stored, else by id or name); several
        when it names more than one."""
        ...


@runtime_checkable
class AnteChecked(Protocol):
    """Rosters that keep out of an ante what its loser cannot lose (optional: rosters without
    it offer any unit but the master)."""

    def can_lose(self, held: Sequence[str], entry: str) -> bool:
        """Whether a player holding ``held`` (a unit id per copy) may lose one ``entry`` and
        still have what a match needs."""
        ...


@dataclass(frozen=True)
class LeagueResult:
    """A finished game as a league's standings read it.

    ``places``: every seated player's place, 1 first; equal places are tied (a drawn duel places
    both first). It is the full ranking ratings are made from, for two seats or many.
    ``figures``: the tie-break figures each player scored, by name (:data:`DP` for destruction
    points); a ruleset without them gives none. ``points``: standings points per player where
    the ruleset sets them (graded games); None: the league's own for a win, a draw and a loss.
    ``winners``: who won, where that is more than the first place (Esper's winning side, graded
    A and B, placed first and second); None: the player placed first alone, if any.
    """

    places: Mapping[str, int]
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    points: Mapping[str, int] | None = None
    winners: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if len(self.places) < 2:
            raise ValueError(f"a league result places two players or more: {dict(self.places)}")
        places = self.places.values()
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 1 for p in places):
            raise ValueError(f"places are whole numbers from 1: {dict(self.places)}")
        strangers = set(self.figures) | set(self.points or {}) | set(self.winners or ())
        strangers -= set(self.places)
        if strangers:
            raise ValueError(f"figures or points of players not placed: {sorted(strangers)}")

    @property
    def winner(self) -> str | None:
        """The one player placed first, alone; None when first place is shared (a draw)."""
        first = [player for player, place in self.places.items() if place == 1]
        return first[0] if len(first) == 1 else None

    @property
    def won(self) -> frozenset[str]:
        """Every player who won: ``winners``, else the one placed first alone (none: a draw)."""
        if self.winners is not None:
            return self.winners
        return frozenset() if self.winner is None else frozenset({self.winner})

    def figure(self, player: str, name: str) -> int:
        """``player``'s figure ``name`` (0 where the result has none)."""
        return int(self.figures.get(player, {}).get(name, 0))

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"places": dict(self.places)}
        if self.figures:
            obj["figures"] = {p: dict(f) for p, f in self.figures.items()}
        if self.points is not None:
            obj["points"] = dict(self.points)
        if self.winners is not None:
            obj["winners"] = sorted(self.winners)
        return obj


@dataclass(frozen=True)
class FixedOption:
    """A game option a league may fix for all its matches (its moderator sets it at creation).

    ``name`` is the option's name in the game's options (and in the league's), ``default`` its
    value when the league leaves it. It takes one of the ``choices`` (each a value and the
    catalogue key that names it) or, without choices, a whole number from ``low`` to ``high``.
    ``refused`` is the message key (with ``{value}``) of a value it cannot take.
    """

    name: str
    default: int | str
    refused: str
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if not self.allows(self.default):
            raise ValueError(f"the default of {self.name} is not allowed: {self.default!r}")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    def allows(self, value: object) -> bool:
        if self.values:
            return value in self.values
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
