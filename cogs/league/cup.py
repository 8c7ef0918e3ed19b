"""Single-elimination cups, pure: seeding, byes, and the bracket advancing on results.

The bracket has a power of two of slots, the smallest that holds every player. Seeds are placed
the standard way (:func:`placement`): 1 v N, 2 v N-1… in the first round, seed 1 at the top and
seed 2 at the bottom, each half, quarter and eighth built the same way, so that with every
better seed winning the last four are seeds 1-4 and the final is 1 v 2. A field short of a power
of two leaves the slots of the missing seeds (N+1…) empty: the top seeds face them and go
through by a bye, and no first-round tie is two byes.

A tie is decided by a result (:func:`record`), by a walkover when a player forfeits it
(``walkover=True``) or has withdrawn (:func:`withdraw`: every tie they would play is a walkover
to the opponent, now or when the opponent is known); the winner takes the tie's slot in the next
round (tie i of a round feeds tie i // 2 of the next). The cup is over when the final is decided
(:func:`champion`). A cup has no draws: a drawn game is for the caller to settle (a replay, a
tie-break) before the result is recorded.

:class:`Cup` is the value stored (JSON, with a version); every step returns a new one. Players are
ids as strings; seeds come in order, best first (:func:`seeded` orders them by rating).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.ruleset import RuleError
from cogs.league.ratings import Rating, seed_order

SCHEMA = 1
PLAYED, BYE, WALKOVER = "played", "bye", "walkover"  # how a tie was decided


class CupError(RuleError):
    """A cup step refused (``league.cup.*``; players in its parameters are ids, for the caller
    to name): the caller checks first (:func:`ready`, :func:`champion`)."""


@dataclass(frozen=True)
class Tie:
    """One tie: ``a`` the upper slot, ``b`` the lower (None: not known yet, or in the first round
    the empty slot of a bye); ``winner`` and ``how`` once decided."""

    a: str | None = None
    b: str | None = None
    winner: str | None = None
    how: str = ""

    @property
    def decided(self) -> bool:
        return self.winner is not None

    def players(self) -> tuple[str, ...]:
        return tuple(p for p in (self.a, self.b) if p is not None)

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "winner": self.winner, "how": self.how}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Tie:
        def text(key: str) -> str | None:
            value = obj.get(key)
            return None if value is None else str(value)

        return cls(text("a"), text("b"), text("winner"), str(obj.get("how", "")))


@dataclass(frozen=True)
class Cup:
    seeds: tuple[str, ...]  # best first
    rounds: tuple[tuple[Tie, ...], ...]  # the first round first; the last is the final
    withdrawn: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return 1 << len(self.rounds)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "seeds": list(self.seeds),
            "rounds": [[t.to_json() for t in ties] for ties in self.rounds],
            "withdrawn": list(self.withdrawn),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Cup:
        if obj.get("schema", SCHEMA) != SCHEMA:
            raise CupError("league.cup.schema", schema=str(obj.get("schema")))
        return cls(
            seeds=tuple(str(p) for p in obj["seeds"]),
            rounds=tuple(tuple(Tie.from_json(t) for t in ties) for ties in obj["rounds"]),
            withdrawn=tuple(str(p) for p in obj.get("withdrawn", ())),
        )


def placement(size: int) -> list[int]:
    """The seed numbers (1-based) slot by slot down a bracket of ``size`` (a power of two): each
    doubling of the bracket to n slots puts every seed s beside seed n + 1 - s, so
    ``placement(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    if size < 1 or size & (size - 1):
        raise CupError("league.cup.size", size=size)
    order = [1]
    while len(order) < size:
        slots = 2 * len(order)
        order = [s for seed in order for s in (seed, slots + 1 - seed)]
    return order


def seeded(ratings: Mapping[str, Rating], players: Iterable[str]) -> tuple[str, ...]:
    """``players`` in seed order by their ratings (best ordinal first)."""
    return seed_order(ratings, players)


def new(seeds: Sequence[str]) -> Cup:
    """A cup of ``seeds`` (best first), byes already through to the second round."""
    if len(seeds) < 2:
        raise CupError("league.cup.too_few", count=len(seeds))
    if len(set(seeds)) != len(seeds):
        twice = next(p for p in seeds if seeds.count(p) > 1)
        raise CupError("league.cup.seeded_twice", player=twice)
    size = 1
    while size < len(seeds):
        size *= 2
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in placement(size)]
    first = tuple(Tie(slots[i], slots[i + 1]) for i in range(0, size, 2))
    later = tuple(tuple(Tie() for _ in range(size >> r)) for r in range(2, size.bit_length()))
    return _settle(Cup(tuple(seeds), (first, *later)))


# --- reads --------------------------------------------------------------------------------------


def ready(cup: Cup) -> list[tuple[int, int, Tie]]:
    """The ties to play now, as ``(round, index, tie)`` (round 1-based, index 0-based): both
    players known, not decided."""
    return [
        (r, i, tie)
        for r, ties in enumerate(cup.rounds, 1)
        for i, tie in enumerate(ties)
        if tie.a is not None and tie.b is not None and not tie.decided
    ]


def champion(cup: Cup) -> str | None:
    """The cup's winner once the final is decided."""
    return cup.rounds[-1][0].winner


def still_in(cup: Cup) -> list[str]:
    """The players not yet knocked out, in seed order."""
    out = {
        p for ties in cup.rounds for t in ties if t.decided for p in t.players() if p != t.winner
    }
    return [p for p in cup.seeds if p not in out]


def byes(cup: Cup) -> list[str]:
    """The players through the first round by a bye, in seed order."""
    return [t.winner for t in cup.rounds[0] if t.how == BYE and t.winner is not None]


# --- steps --------------------------------------------------------------------------------------


def record(cup: Cup, player: str, opponent: str, winner: str, *, walkover: bool = False) -> Cup:
    """``winner`` wins the tie of ``player`` v ``opponent`` (by a walkover when ``walkover``: the
    other forfeited it); the winner moves on."""
    found = next(((r, i) for r, i, t in ready(cup) if {t.a, t.b} == {player, opponent}), None)
    if found is None:
        raise CupError("league.cup.not_a_tie", player=player, opponent=opponent)
    if winner not in (player, opponent):
        raise CupError("league.cup.not_in_tie", winner=winner, player=player, opponent=opponent)
    r, i = found
    return _settle(_decide(cup, r, i, winner, WALKOVER if walkover else PLAYED))


def withdraw(cup: Cup, player: str) -> Cup:
    """``player`` leaves the cup: the tie they are in, and any they would reach, is a walkover to
    the opponent (both players withdrawn: the upper slot goes on, to a walkover in its turn)."""
    if player not in cup.seeds:
        raise CupError("league.cup.not_in_cup", player=player)
    if player in cup.withdrawn:
        return cup
    return _settle(replace(cup, withdrawn=(*cup.withdrawn, player)))


def _decide(cup: Cup, r: int, i: int, winner: str, how: str) -> Cup:
    """Tie ``i`` of round ``r`` (1-based) goes to ``winner``, who takes their slot in the next."""
    rounds = [list(ties) for ties in cup.rounds]
    rounds[r - 1][i] = replace(rounds[r - 1][i], winner=winner, how=how)
    if r < len(rounds):
        after = rounds[r][i // 2]
        rounds[r][i // 2] = replace(after, a=winner) if i % 2 == 0 else replace(after, b=winner)
    return replace(cup, rounds=tuple(tuple(ties) for ties in rounds))


def _settle(cup: Cup) -> Cup:
    """Decide every tie that needs no game: a first-round tie with an empty slot (a bye), a tie
    with a withdrawn player (a walkover)."""
    gone = set(cup.withdrawn)
    while True:
        for r, ties in enumerate(cup.rounds, 1):
            for i, tie in enumerate(ties):
                if tie.decided:
                    continue
                if r == 1 and (tie.a is None or tie.b is None):
                    lone = tie.a if tie.a is not None else tie.b
                    assert lone is not None  # a field of more than half the slots: never two byes
                    cup = _decide(cup, r, i, lone, BYE)
                    break
                if tie.a is not None and tie.b is not None and gone & {tie.a, tie.b}:
                    winner = tie.b if tie.a in gone and tie.b not in gone else tie.a
                    cup = _decide(cup, r, i, winner, WALKOVER)
                    break
            else:
                continue
            break  # a tie was decided: look again from the start
        else:
            return cup
