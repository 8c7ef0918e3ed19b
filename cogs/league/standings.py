"""League standings: played, won, drawn, lost, DP for and against, points and a rating, pure.

The rating comes from OpenSkill's Plackett-Luce model (a Weng-Lin Bayesian rating; a maintained
library, not a hand-written formula): each result updates both players' ``mu`` and ``sigma`` in the
order the results were recorded, and the displayed rating is the conservative ordinal
``mu - 3 * sigma``. The table sorts by points, then rating, then player id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

WIN_POINTS = 3
DRAW_POINTS = 1


@dataclass(frozen=True)
class Result:
    """A recorded league match: ``winner`` is None for a draw."""

    match: str
    a: str
    b: str
    winner: str | None
    dp_a: int = 0
    dp_b: int = 0
    at: float = 0.0
    forfeit: bool = False
    # A ruleset's other tie-break figures (not DP) each player scored, by name.
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "a": self.a,
            "b": self.b,
            "winner": self.winner,
            "dp_a": self.dp_a,
            "dp_b": self.dp_b,
            "at": self.at,
            "forfeit": self.forfeit,
            **({"figures": {p: dict(f) for p, f in self.figures.items()}} if self.figures else {}),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Result:
        winner = obj.get("winner")
        return cls(
            str(obj["match"]),
            str(obj["a"]),
            str(obj["b"]),
            None if winner is None else str(winner),
            int(obj.get("dp_a", 0)),
            int(obj.get("dp_b", 0)),
            float(obj.get("at", 0.0)),
            bool(obj.get("forfeit", False)),
            {
                str(p): {str(k): int(v) for k, v in f.items()}
                for p, f in obj.get("figures", {}).items()
            },
        )


@dataclass(frozen=True)
class Row:
    player: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    dp_for: int = 0
    dp_against: int = 0
    points: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    figures: Mapping[str, int] = field(default_factory=dict)  # totals of a ruleset's figures

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "dp_for": self.dp_for,
            "dp_against": self.dp_against,
            "points": self.points,
            "mu": self.mu,
            "sigma": self.sigma,
            "rating": self.rating,
        }


def ratings(
    players: Iterable[str], results: Iterable[Result], model: PlackettLuce | None = None
) -> dict[str, tuple[float, float]]:
    """Each player's (mu, sigma) after ``results``, rated in the order of their time."""
    model = model or PlackettLuce()
    current = {p: model.rating(name=p) for p in players}
    for r in sorted(results, key=lambda r: r.at):
        for p in (r.a, r.b):
            current.setdefault(p, model.rating(name=p))
        ranks = [1, 1] if r.winner is None else [1, 2] if r.winner == r.a else [2, 1]
        [[a], [b]] = model.rate([[current[r.a]], [current[r.b]]], ranks=ranks)
        current[r.a], current[r.b] = a, b
    return {p: (float(x.mu), float(x.sigma)) for p, x in current.items()}


def standings(
    players: Sequence[str],
    results: Iterable[Result],
    *,
    win: int = WIN_POINTS,
    draw: int = DRAW_POINTS,
) -> list[Row]:
    """The table: every player in ``players`` (and anyone in a result), best first."""
    results = list(results)
    tally: dict[str, dict[str, int]] = {}
    keys = ("played", "won", "drawn", "lost", "dp_for", "dp_against", "points")

    def row(p: str) -> dict[str, int]:
        return tally.setdefault(p, dict.fromkeys(keys, 0))

    for p in players:
        row(p)
    for r in results:
        for me, dp_me, dp_them in ((r.a, r.dp_a, r.dp_b), (r.b, r.dp_b, r.dp_a)):
            t = row(me)
            t["played"] += 1
            t["dp_for"] += dp_me
            t["dp_against"] += dp_them
            if r.winner is None:
                t["drawn"] += 1
                t["points"] += draw
            elif r.winner == me:
                t["won"] += 1
                t["points"] += win
            else:
                t["lost"] += 1
    figures: dict[str, dict[str, int]] = {}
    for r in results:
        for p, scored in r.figures.items():
            totals = figures.setdefault(p, {})
            for name, value in scored.items():
                totals[name] = totals.get(name, 0) + int(value)
    rated = ratings(tally, results)
    rows = [
        Row(p, **t, mu=rated[p][0], sigma=rated[p][1], figures=figures.get(p, {}))
        for p, t in tally.items()
    ]
    return sorted(rows, key=lambda r: (-r.points, -r.rating, r.player))
