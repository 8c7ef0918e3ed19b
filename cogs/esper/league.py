"""What a league may do with Esper war (``RULESET.league``), pure: graded results, fixed options.

An Esper league plays games of 5–11 seats, round robin (a moderator seats each match; Swiss and
cups pair two). Each finished game is graded per seat (``turns``: A won alive, B won dead, C lost
alive, D lost dead); the standings give A 3 points, B 2, C 1, D 0 (said in ``/league info``), and
ratings read the grades as the game's full ranking (A first … D fourth, equal grades tied). The
league's own finished matches are the season the refusal rule (拒否) reads
(:func:`cogs.esper.history.league_match_options`); there are no rosters, draft or ante.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.leagues import FixedOption, LeagueResult
from bot.ruleset import LeagueSupport, Outcome, Ref
from cogs.esper import rules

GRADE_POINTS = {"A": 3, "B": 2, "C": 1, "D": 0}
GRADE_PLACES = {"A": 1, "B": 2, "C": 3, "D": 4}
# A seat the outcome does not grade (none should be: every end grades every seat) counts as the
# lowest grade, lost and dead, rather than vanishing from the ranking.
UNGRADED = "D"


def result(state: Mapping[str, Any], outcome: Outcome, players: Mapping[str, str]) -> LeagueResult:
    """A finished game's grades as the standings read them: places A–D, points 3–0, and the
    winning side (graded A or B) as the game's winners.

    >>> out = Outcome.win("A", "C", A="A", B="D", C="B", D="C", E="C")
    >>> r = result({}, out, {"A": "1", "B": "2", "C": "3", "D": "4", "E": "5"})
    >>> r.places == {"1": 1, "2": 4, "3": 2, "4": 3, "5": 3}, dict(r.points or {})["3"]
    (True, 2)
    >>> sorted(r.won)
    ['1', '3']
    """
    grades = {seat: str(outcome.grades.get(seat, UNGRADED)) for seat in players}
    return LeagueResult(
        places={player: GRADE_PLACES[grades[seat]] for seat, player in players.items()},
        points={player: GRADE_POINTS[grades[seat]] for seat, player in players.items()},
        winners=frozenset(player for seat, player in players.items() if seat in outcome.winners),
    )


LEAGUE = LeagueSupport(
    result=result,
    options=(
        FixedOption(
            "objection_minutes",
            rules.DEFAULT_OBJECTION_MINUTES,
            "deadlines.league.objection_minutes",
            low=1,
            high=rules.MAX_MINUTES,
        ),
        FixedOption(
            "reaction_minutes",
            rules.DEFAULT_REACTION_MINUTES,
            "deadlines.league.reaction_minutes",
            low=1,
            high=rules.MAX_MINUTES,
        ),
    ),
    minutes_option="minutes",
    points_key="esper.league.points",
    season_options=Ref("cogs.esper.history:league_match_options"),
)
