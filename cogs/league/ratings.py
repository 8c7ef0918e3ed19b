"""Players' ratings from finished games: OpenSkill's Plackett-Luce model, pure.

OpenSkill (``openskill`` on PyPI, MIT) is a Weng-Lin Bayesian rating: each player's skill is a
normal belief, ``mu`` its mean and ``sigma`` its uncertainty. Its Plackett-Luce model rates a game
of any number of seats from the game's full ranking, ties allowed, so a two-seat duel and an
eleven-seat Esper war are one call. Nothing is hand-written here but the bookkeeping: a
:class:`Rating` is a plain, JSON-serialisable value, and :func:`rate` is a function from the
ratings before a game and the game's ranking to the ratings after it.

A ranking maps each player of the game to their place: 1 is first, equal places are a tie
(``{"a": 1, "b": 2}`` a won by a, ``{"a": 1, "b": 1}`` a draw). A rating is shown by its
conservative ordinal ``mu - 3 * sigma`` (what a table sorts by: a new player starts at 0 and rises
as games make the belief sure) or as ``mu ± 3 * sigma``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

# OpenSkill's defaults, named here because a stored rating and a new one must agree on them.
MU = 25.0
SIGMA = MU / 3
Z = 3  # how many sigmas the ordinal and the shown interval take off / add
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    """One player's rating: the belief ``mu`` ± ``sigma`` and the games it was made from."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure a table sorts by: ``mu - 3 * sigma`` (0 for a new player)."""
        return self.mu - Z * self.sigma

    @property
    def uncertainty(self) -> float:
        """Half the width of the interval shown with ``mu``: ``3 * sigma``."""
        return Z * self.sigma

    def text(self) -> str:
        """``mu ± uncertainty`` to one decimal (digits and a sign: the same in every language)."""
        return f"{self.mu:.1f} ± {self.uncertainty:.1f}"

    def to_json(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Rating:
        return cls(float(obj["mu"]), float(obj["sigma"]), int(obj.get("games", 0)))


def two_seat(a: str, b: str, winner: str | None) -> dict[str, int]:
    """The ranking of a two-seat game: ``winner`` first, or a tie when it is None (a draw)."""
    if winner is None:
        return {a: 1, b: 1}
    if winner not in (a, b):
        raise ValueError(f"the winner {winner!r} did not play in {a!r} v {b!r}")
    return {winner: 1, (b if winner == a else a): 2}


def rate(ratings: Mapping[str, Rating], ranking: Mapping[str, int]) -> dict[str, Rating]:
    """Every rating after one game: ``ratings`` as they were (a player not in it starts at the
    default :class:`Rating`), the game's players updated from ``ranking`` (player -> place, 1
    first, equal places tied). ``ratings`` itself is left as it is."""
    if len(ranking) < 2:
        raise ValueError("a game is rated with two players or more")
    if any(place < 1 for place in ranking.values()):
        raise ValueError(f"places start at 1: {dict(ranking)}")
    # Seats in a fixed order (by place, then id), so the same game gives the same floats however
    # the caller's mapping was built.
    seats = sorted(ranking, key=lambda p: (ranking[p], p))
    before = [ratings.get(p, Rating()) for p in seats]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = _MODEL.rate(teams, ranks=[float(ranking[p]) for p in seats])
    after = dict(ratings)
    for player, old, [new] in zip(seats, before, rated, strict=True):
        after[player] = Rating(float(new.mu), float(new.sigma), old.games + 1)
    return after


def rate_all(
    rankings: Iterable[Mapping[str, int]], start: Mapping[str, Rating] | None = None
) -> dict[str, Rating]:
    """The ratings after ``rankings``, one finished game each, in the order given (the order
    matters: a rating is a belief updated game by game)."""
    current = dict(start or {})
    for ranking in rankings:
        current = rate(current, ranking)
    return current


def seed_order(ratings: Mapping[str, Rating], players: Iterable[str]) -> tuple[str, ...]:
    """``players`` best first, as a Swiss or a cup seeds them: by ordinal, then mu, then id (a
    player without a rating has the default one)."""

    def key(player: str) -> tuple[float, float, str]:
        r = ratings.get(player, Rating())
        return (-r.ordinal, -r.mu, player)

    return tuple(sorted(set(players), key=key))


def table_to_json(ratings: Mapping[str, Rating]) -> dict[str, dict[str, Any]]:
    return {p: r.to_json() for p, r in sorted(ratings.items())}


def table_from_json(obj: Mapping[str, Mapping[str, Any]]) -> dict[str, Rating]:
    return {str(p): Rating.from_json(r) for p, r in obj.items()}
