"""Swiss pairings, pure: a weighted-matching Swiss with FIDE's Dutch criteria in priority order.

The system. Each round pairs every active player once (one bye when their number is odd). Like
bbpPairings (the engine Lichess's Swiss runs, which realises FIDE's Dutch system as a
maximum-weight matching), a round is a maximum-weight perfect matching over all possible pairs
(``networkx.max_weight_matching``, Edmonds' blossom algorithm, integer weights). Each pair's
weight encodes the criteria below, each strictly outweighing all beneath it taken together, so
the pairing minimises, in this order:

1. **Repeats**: pairs that have met before (a forfeit counts as a meeting): none while a pairing
   without one exists.
2. **A second bye**: the bye goes to a player with the fewest byes so far, so nobody has a second
   bye while another active player has had none (C.04.1 c-d).
3. **Absolute colour conflicts** (C.04.3 C.3), where the ruleset has a first player: two players
   who both must have the same seat (their first-minus-second difference would pass ±2, or they
   would have the same seat three games running) do not meet.
4. **The bye's score**: the bye goes to the lowest score group.
5. **Score differences**: the sum over the pairs of the squared difference of the two scores.
   Players meet within their score group; an odd group sends one player to a group below (a
   float), and a float across two groups costs more than two floats across one.
6. **Strong colour preferences** denied (a difference of ±1 to even out), then
7. **mild ones** (alternation after an even difference) (C.04.3 C.12-C.13).
8. **Repeated floats**: a player who floated down in the last round (a bye counts) floating down
   again, or up again after floating up (C.04.3 C.14-C.15).
9. **Who floats**: the lowest-ranked players of a group (and the bye: the lowest of its group).
10. **Whom a floater meets**: the highest-ranked of the group below.
11. **The transposition order** (C.04.3 D.1) in each group's remainder (its players but those who
    meet a floater from above): the first half S1 meets the second half S2, S1's first player
    as high in S2 as it can, then the second… (1 v 5, 2 v 6, 3 v 7, 4 v 8 in a group of eight);
    a pair within S1 or within S2 (an exchange) only when no such order will do.

Rank is score, then seed (seed 1 is the first player given to :func:`new`). The remainders of
criterion 11 come from a first matching (which players it gives a floater); the second matching,
the round, takes its fold over them. Ties left after all eleven are broken by the matching's own
order over the players by rank: the same input always gives the same pairing. Left out of the
Dutch rules: the topscorers' last-round exceptions, floats two rounds back, and D.2's order of
exchanges; and the criteria are one global order rather than applied bracket by bracket from the
top, so a pairing can differ from a Dutch program's where those trade off differently.

Who moves first in a pair (where the ruleset has a first player) follows C.04.3 E in order: grant
both preferences; else the stronger preference (two absolute ones: the wider difference); else
alternate to the latest round in which the two had different seats; else the higher-ranked
player's preference; else (no preferences: round 1) the higher-ranked player moves first with an
odd seed number and second with an even one (1 v 5, 6 v 2, 3 v 7, 8 v 4). Without a first player,
``first`` is the higher-ranked player.

:class:`Swiss` is the value stored (JSON, with a version); :func:`new`, :func:`pair_next`,
:func:`record` and :func:`withdraw` step it. Scores are integers: by default 2 for a win, 1 for a
draw and 2 for a bye (half-points), or a league's own points (``win=3, draw=1``). No clock, no
randomness, no storage.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from bot.ruleset import RuleError

SCHEMA = 1
FIRST, SECOND, DRAW, NEITHER = "first", "second", "draw", "neither"  # NEITHER: both forfeited
RESULTS = (FIRST, SECOND, DRAW, NEITHER)
F, S, NO_GAME = "F", "S", "-"  # a round in a player's seat history: first, second, no game played
DOWN, UP = "down", "up"  # floats

# The criteria, highest priority first (the module docstring says what each one is).
(
    REPEATS,
    BYES,
    ABSOLUTE,
    BYE_SCORE,
    SCORE,
    STRONG,
    MILD,
    FLOATS,
    FLOATERS,
    PARTNERS,
    TRANSPOSITION,
) = range(11)
LEVELS = 11
# Colour preference strengths (C.04.3 A.7).
NONE, MILD_PREF, STRONG_PREF, ABSOLUTE_PREF = range(4)


class SwissError(RuleError):
    """A Swiss step refused (``league.swiss.*``; players in its parameters are ids, for the
    caller to name): the caller checks first (:func:`round_open`, :func:`active`)."""


@dataclass(frozen=True)
class Game:
    """One pairing of a round: ``first`` moves first (where the ruleset has a first player);
    ``second`` None is a bye for ``first``. ``result`` is None until recorded."""

    first: str
    second: str | None = None
    result: str | None = None
    forfeit: bool = False

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def done(self) -> bool:
        return self.bye or self.result is not None

    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "result": self.result,
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Game:
        second, result = obj.get("second"), obj.get("result")
        return cls(
            str(obj["first"]),
            None if second is None else str(second),
            None if result is None else str(result),
            bool(obj.get("forfeit", False)),
        )


@dataclass(frozen=True)
class Swiss:
    players: tuple[str, ...]  # in seed order: seed 1 first
    first_player: bool = True  # whether the ruleset has a first player to balance
    win: int = 2
    draw: int = 1
    bye: int = 2
    rounds: tuple[tuple[Game, ...], ...] = ()
    withdrawn: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "players": list(self.players),
            "first_player": self.first_player,
            "win": self.win,
            "draw": self.draw,
            "bye": self.bye,
            "rounds": [[g.to_json() for g in games] for games in self.rounds],
            "withdrawn": list(self.withdrawn),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Swiss:
        if obj.get("schema", SCHEMA) != SCHEMA:
            raise SwissError("league.swiss.schema", schema=str(obj.get("schema")))
        return cls(
            players=tuple(str(p) for p in obj["players"]),
            first_player=bool(obj.get("first_player", True)),
            win=int(obj.get("win", 2)),
            draw=int(obj.get("draw", 1)),
            bye=int(obj.get("bye", 2)),
            rounds=tuple(
                tuple(Game.from_json(g) for g in games) for games in obj.get("rounds", ())
            ),
            withdrawn=tuple(str(p) for p in obj.get("withdrawn", ())),
        )


def new(
    players: Sequence[str],
    *,
    first_player: bool = True,
    win: int = 2,
    draw: int = 1,
    bye: int | None = None,
) -> Swiss:
    """A Swiss of ``players`` in seed order (best first: see
    :func:`cogs.league.ratings.seed_order`); the bye scores a win unless ``bye`` says otherwise."""
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise SwissError("league.swiss.listed_twice", player=twice)
    if not win > draw >= 0:
        raise SwissError("league.swiss.win_over_draw", win=win, draw=draw)
    return Swiss(tuple(players), first_player, win, draw, win if bye is None else bye)


# --- reads -----------------------------------------------------------------------------------


def active(swiss: Swiss) -> tuple[str, ...]:
    """The players still paired, in seed order."""
    gone = set(swiss.withdrawn)
    return tuple(p for p in swiss.players if p not in gone)


def round_open(swiss: Swiss) -> bool:
    """Whether the latest round still waits for a result."""
    return bool(swiss.rounds) and not all(g.done for g in swiss.rounds[-1])


def points(swiss: Swiss, game: Game) -> dict[str, int]:
    """What each player of ``game`` scored (nothing before its result)."""
    if game.second is None:
        return {game.first: swiss.bye}
    one, other = {
        FIRST: (swiss.win, 0),
        SECOND: (0, swiss.win),
        DRAW: (swiss.draw, swiss.draw),
    }.get(game.result or NEITHER, (0, 0))
    return {game.first: one, game.second: other}


def scores(swiss: Swiss) -> dict[str, int]:
    """Every player's score (withdrawn players' too)."""
    total = dict.fromkeys(swiss.players, 0)
    for games in swiss.rounds:
        for game in games:
            for player, got in points(swiss, game).items():
                total[player] += got
    return total


def ranking(swiss: Swiss) -> list[str]:
    """The active players in pairing order: score, then seed."""
    score, seed = scores(swiss), {p: i for i, p in enumerate(swiss.players)}
    return sorted(active(swiss), key=lambda p: (-score[p], seed[p]))


def meetings(swiss: Swiss) -> Counter[frozenset[str]]:
    """How often each pair has been paired (forfeits included)."""
    met: Counter[frozenset[str]] = Counter()
    for games in swiss.rounds:
        for game in games:
            if game.second is not None:
                met[frozenset((game.first, game.second))] += 1
    return met


def byes(swiss: Swiss) -> dict[str, int]:
    counts = dict.fromkeys(swiss.players, 0)
    for games in swiss.rounds:
        for game in games:
            if game.second is None:
                counts[game.first] += 1
    return counts


def seats(swiss: Swiss, player: str) -> str:
    """``player``'s seat in each round so far: F first, S second, - no game played (a bye, a
    forfeit, a round they were not paired in)."""
    history = []
    for games in swiss.rounds:
        seat = NO_GAME
        for game in games:
            if game.second is not None and not game.forfeit and player in game.players():
                seat = F if player == game.first else S
        history.append(seat)
    return "".join(history)


def last_floats(swiss: Swiss) -> dict[str, str]:
    """Who floated in the latest round (C.04.3 A.4): DOWN the higher score of a pair of unequal
    scores and the bye, UP the lower score; players who did not float are left out."""
    if not swiss.rounds:
        return {}
    before = scores(replace(swiss, rounds=swiss.rounds[:-1]))
    floated = {}
    for game in swiss.rounds[-1]:
        if game.second is None:
            floated[game.first] = DOWN
        elif before[game.first] != before[game.second]:
            high, low = sorted(game.players(), key=lambda p: -before[p])
            floated[high], floated[low] = DOWN, UP
    return floated


# --- colour ----------------------------------------------------------------------------------


def _other(seat: str) -> str:
    return S if seat == F else F


def preference(history: str) -> tuple[str | None, int]:
    """The seat a player with this seat history should have next, and how strongly (C.04.3 A.7):
    absolute when the difference would pass ±2 or the last two games had the same seat, strong
    at a difference of ±1, mild (alternate) at 0, none before any game."""
    played = history.replace(NO_GAME, "")
    if not played:
        return None, NONE
    diff = played.count(F) - played.count(S)
    if abs(diff) > 1:
        return (S if diff > 0 else F), ABSOLUTE_PREF
    if len(played) >= 2 and played[-1] == played[-2]:
        return _other(played[-1]), ABSOLUTE_PREF
    if diff:
        return (S if diff > 0 else F), STRONG_PREF
    return _other(played[-1]), MILD_PREF


def orient(high: str, low: str, histories: Mapping[str, str], seed: int) -> tuple[str, str, int]:
    """``(first, second, denied)`` for ``high`` (the higher-ranked, seed number ``seed``, 1-based)
    against ``low``, by C.04.3 E.1-E.5; ``denied`` is the strength of the preference not granted
    (NONE when both are granted)."""
    want_h, strength_h = preference(histories[high])
    want_l, strength_l = preference(histories[low])
    if want_h is None and want_l is None:  # E.5
        return (high, low, NONE) if seed % 2 == 1 else (low, high, NONE)
    if want_h is None or want_l is None or want_h != want_l:  # E.1
        if want_h is not None:
            return (high, low, NONE) if want_h == F else (low, high, NONE)
        return (low, high, NONE) if want_l == F else (high, low, NONE)
    # Both want the same seat: who gets it?
    gets = _tie_winner(high, low, histories, strength_h, strength_l)
    denied = strength_l if gets == high else strength_h
    loser = low if gets == high else high
    return (gets, loser, denied) if want_h == F else (loser, gets, denied)


def _tie_winner(
    high: str, low: str, histories: Mapping[str, str], strength_h: int, strength_l: int
) -> str:
    if strength_h != strength_l:  # E.2: the stronger preference
        return high if strength_h > strength_l else low
    if strength_h == ABSOLUTE_PREF:  # E.2: two absolute ones, the wider difference
        wide_h, wide_l = (abs(_difference(histories[p])) for p in (high, low))
        if wide_h != wide_l:
            return high if wide_h > wide_l else low
    for seat_h, seat_l in reversed(list(zip(histories[high], histories[low], strict=True))):
        if NO_GAME not in (seat_h, seat_l) and seat_h != seat_l:  # E.3: alternate
            return high if _other(seat_h) == preference(histories[high])[0] else low
    return high  # E.4: the higher-ranked player's preference


def _difference(history: str) -> int:
    return history.count(F) - history.count(S)


# --- pairing ---------------------------------------------------------------------------------


def pair_next(swiss: Swiss) -> Swiss:
    """The Swiss with its next round paired (see the module docstring for how)."""
    if round_open(swiss):
        raise SwissError("league.swiss.round_open")
    order = ranking(swiss)
    if len(order) < 2:
        raise SwissError("league.swiss.too_few", count=len(order))
    return replace(swiss, rounds=(*swiss.rounds, _pair(swiss, order)))


def _pair(swiss: Swiss, order: list[str]) -> tuple[Game, ...]:
    """Two matchings. The first shows which players of each score group meet a floater from
    above; the second folds what remains of each group (C.04.3 A.3: a heterogeneous bracket pairs
    its floaters first, then its remainder as a homogeneous one)."""
    score = scores(swiss)
    first = _match(swiss, order, set())
    met_floater = {
        min(g.players(), key=lambda p: score[p])
        for g in first
        if g.second is not None and score[g.first] != score[g.second]
    }
    # No floater: every remainder is its whole group, and the second matching would be the first.
    return _match(swiss, order, met_floater) if met_floater else first


def _match(swiss: Swiss, order: list[str], met_floater: set[str]) -> tuple[Game, ...]:
    """The round's games: a maximum-weight perfect matching over the criteria's costs, the fold
    taken over each score group's players but ``met_floater``."""
    score, met, had = scores(swiss), meetings(swiss), byes(swiss)
    histories = {p: seats(swiss, p) for p in order}
    seed = {p: i + 1 for i, p in enumerate(swiss.players)}
    floated = last_floats(swiss)
    lowest = score[order[-1]]
    group: dict[int, list[str]] = {}  # score -> its players, by rank
    remainder: dict[int, list[str]] = {}  # the same without those meeting a floater
    for p in order:
        group.setdefault(score[p], []).append(p)
        if p not in met_floater:
            remainder.setdefault(score[p], []).append(p)
    place = {p: i for players in group.values() for i, p in enumerate(players)}
    fold_place = {p: i for players in remainder.values() for i, p in enumerate(players)}

    def from_bottom(p: str) -> int:
        return len(group[score[p]]) - 1 - place[p]

    def pair_cost(high: str, low: str) -> tuple[tuple[int, ...], Game]:
        cost = [0] * LEVELS
        cost[REPEATS] = met[frozenset((high, low))]
        cost[SCORE] = (score[high] - score[low]) ** 2
        if score[high] != score[low]:
            cost[FLOATS] = (floated.get(high) == DOWN) + (floated.get(low) == UP)
            cost[FLOATERS] = from_bottom(high)
            cost[PARTNERS] = place[low]
        else:
            size = len(remainder.get(score[high], ()))
            i, j = fold_place.get(high, -1), fold_place.get(low, -1)
            cost[TRANSPOSITION] = _transposition(i, j, size)
        if not swiss.first_player:
            return tuple(cost), Game(high, low)
        first, second, denied = orient(high, low, histories, seed[high])
        if denied == ABSOLUTE_PREF:
            cost[ABSOLUTE] = 1
        elif denied == STRONG_PREF:
            cost[STRONG] = 1
        elif denied == MILD_PREF:
            cost[MILD] = 1
        return tuple(cost), Game(first, second)

    def bye_cost(player: str) -> tuple[int, ...]:
        cost = [0] * LEVELS
        cost[BYES] = had[player]
        cost[BYE_SCORE] = score[player] - lowest
        cost[FLOATS] = int(floated.get(player) == DOWN)
        cost[FLOATERS] = from_bottom(player)
        return tuple(cost)

    # Nodes are ranks (ints, so nothing depends on string hashing); an odd field gets a bye node.
    n = len(order)
    costs: dict[tuple[int, int], tuple[int, ...]] = {}
    games: dict[tuple[int, int], Game] = {}
    for i, j in combinations(range(n), 2):
        costs[i, j], games[i, j] = pair_cost(order[i], order[j])
    if n % 2:
        for i in range(n):
            costs[i, n] = bye_cost(order[i])
            games[i, n] = Game(order[i])
    # Imported here, not at the top: every bot start loads the league (its cog, its demo) and
    # networkx costs 60–100 ms to import; only a Swiss round's pairing needs it.
    import networkx as nx

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n + n % 2))
    for (i, j), weight in _weights(costs, pairs=(n + 1) // 2).items():
        graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    chosen = sorted((min(edge), max(edge)) for edge in matching)
    if len(chosen) != (n + 1) // 2:  # a complete graph always has a perfect matching
        raise AssertionError(f"the matching left players unpaired: {chosen}")
    # Boards in rank order of their higher-ranked player; the bye (its node is n) last.
    return tuple(games[edge] for edge in sorted(chosen, key=lambda e: (e[1] == n, e[0])))


def _transposition(i: int, j: int, size: int) -> int:
    """Where places ``i < j`` of a homogeneous bracket of ``size`` stand in C.04.3 D.1's order:
    S1 (the first ``size // 2``) meets S2, S1's first player the most significant digit, each as
    high in S2 as it can; a pair within S1 or within S2, or with a player outside the bracket
    (place -1), costs more than any order of S1 v S2."""
    half = size // 2
    base = size - half
    if 0 <= i < half <= j:
        return (j - half) * int(base ** (half - 1 - i))
    return int(base**half)


def _weights(
    costs: Mapping[tuple[int, int], tuple[int, ...]], *, pairs: int
) -> dict[tuple[int, int], int]:
    """Integer weights whose maximum-weight perfect matching minimises the costs level by level:
    each level's unit outweighs the most the levels below can add up to over ``pairs`` pairs."""
    maxima = [max((c[level] for c in costs.values()), default=0) for level in range(LEVELS)]
    unit = [0] * LEVELS
    scale = 1
    for level in reversed(range(LEVELS)):
        unit[level] = scale
        scale *= maxima[level] * pairs + 1
    # ``scale`` now exceeds any one pair's whole cost: every weight is positive, and as every
    # perfect matching has the same number of pairs, the heaviest is the cheapest.
    return {
        edge: scale - sum(c * u for c, u in zip(cost, unit, strict=True))
        for edge, cost in costs.items()
    }


# --- results ---------------------------------------------------------------------------------


def record(
    swiss: Swiss, player: str, opponent: str, winner: str | None, *, forfeit: bool = False
) -> Swiss:
    """The result of ``player`` v ``opponent`` in the latest round: ``winner`` None is a draw (or,
    with ``forfeit``, a game both forfeited). A forfeited game counts as a meeting but not as a
    seat played. Recording again replaces the result (a moderator's correction)."""
    if not swiss.rounds:
        raise SwissError("league.swiss.no_round")
    games = list(swiss.rounds[-1])
    index = next(
        (
            i
            for i, g in enumerate(games)
            if g.second is not None and {g.first, g.second} == {player, opponent}
        ),
        None,
    )
    if index is None:
        raise SwissError("league.swiss.not_paired", player=player, opponent=opponent)
    game = games[index]
    if winner is None:
        result = NEITHER if forfeit else DRAW
    elif winner == game.first:
        result = FIRST
    elif winner == game.second:
        result = SECOND
    else:
        raise SwissError(
            "league.swiss.not_in_game", winner=winner, player=player, opponent=opponent
        )
    games[index] = replace(game, result=result, forfeit=forfeit)
    return replace(swiss, rounds=(*swiss.rounds[:-1], tuple(games)))


def withdraw(swiss: Swiss, player: str) -> Swiss:
    """``player`` is paired no more (their games so far stand)."""
    if player not in swiss.players:
        raise SwissError("league.swiss.not_in_swiss", player=player)
    if player in swiss.withdrawn:
        return swiss
    return replace(swiss, withdrawn=(*swiss.withdrawn, player))


def opponents(swiss: Swiss, player: str) -> list[str]:
    """Whom ``player`` was paired with, round by round (byes left out)."""
    return [
        other
        for games in swiss.rounds
        for g in games
        if g.second is not None and player in g.players()
        for other in g.players()
        if other != player
    ]


def games_of(swiss: Swiss, round_number: int) -> tuple[Game, ...]:
    """Round ``round_number`` (1-based)."""
    if not 1 <= round_number <= len(swiss.rounds):
        raise SwissError("league.swiss.no_such_round", round=round_number, rounds=len(swiss.rounds))
    return swiss.rounds[round_number - 1]
