"""League standings: played, won, drawn, lost, DP for and against, points and a rating, pure.

The rating comes from OpenSkill's Plackett-Luce model (a Weng-Lin Bayesian rating; a maintained
library, not a hand-written formula): each result updates its players' ``mu`` and ``sigma`` from the
game's full ranking (two seats or eleven), in the order the results were recorded, and the
displayed rating is the conservative ordinal ``mu - 3 * sigma``. A graded game (Esper's A–D) gives
each player the points its ruleset sets instead of a win, a draw or a loss. The table sorts by
points, then rating, then player id.
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
    """A recorded league match: ``winner`` is None for a draw. A game of more seats (``rest``)
    or one its ruleset grades carries its full result: each player's place, points, and who
    won (:class:`cogs.league.season.Match`)."""

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
    rest: tuple[str, ...] = ()
    places: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()

    def players(self) -> tuple[str, ...]:
        return self.a, self.b, *self.rest

    def ranking(self) -> dict[str, int]:
        """Each player's place (1 first, equal places tied), as ratings read it: the places
        kept, else a two-seat game's from its winner."""
        if self.places:
            return dict(self.places)
        if self.winner is None:
            return {self.a: 1, self.b: 1}
        return {self.winner: 1, (self.b if self.winner == self.a else self.a): 2}

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
            **full_result_json(self.rest, self.places, self.points, self.winners),
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
            **full_result_from_json(obj),
        )


def full_result_json(
    rest: Sequence[str],
    places: Mapping[str, int],
    points: Mapping[str, int],
    winners: Sequence[str],
) -> dict[str, Any]:
    """The parts of a stored match or result that only a game of more seats or a graded one has
    (seats C…, places, points, winners), each left out when empty: a two-seat match is stored
    as before they came."""
    out: dict[str, Any] = {}
    if rest:
        out["rest"] = list(rest)
    if places:
        out["places"] = dict(places)
    if points:
        out["points"] = dict(points)
    if winners:
        out["winners"] = list(winners)
    return out


def full_result_from_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`full_result_json` read back, as keyword arguments (empty where left out)."""
    return {
        "rest": tuple(str(p) for p in obj.get("rest", ())),
        "places": {str(p): int(v) for p, v in obj.get("places", {}).items()},
        "points": {str(p): int(v) for p, v in obj.get("points", {}).items()},
        "winners": tuple(str(p) for p in obj.get("winners", ())),
    }


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
    # Deadlines the player let pass unexcused in the league's matches (issue 34): read from the
    # stored misses, not from the results (the caller fills it in; not part of the standing).
    misses: int = 0

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
        ranking = r.ranking()
        seats = list(r.players())
        for p in seats:
            current.setdefault(p, model.rating(name=p))
        rated = model.rate([[current[p]] for p in seats], ranks=[ranking[p] for p in seats])
        for p, [after] in zip(seats, rated, strict=True):
            current[p] = after
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
        if r.points:  # graded: each player's own points, won or lost with their side
            for me in r.players():
                t = row(me)
                t["played"] += 1
                t["points"] += r.points.get(me, 0)
                t["won" if me in r.winners else "lost"] += 1
            continue
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
