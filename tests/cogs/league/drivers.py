"""How the league suite (``tests/cogs/league/test_every_ruleset.py``) drives each ruleset's league.

The suite runs over every ruleset whose ``RULESET.league`` is set and looks its driver up here by
the ruleset's key: a ruleset with league support and no entry in :data:`DRIVERS` fails the suite.
A driver says what the suite cannot know from the spec alone: the options its league is created
with (and what of them a match's game must carry), how many players a match seats, the master each
player submits where the rosters have masters, which entry a player takes at a draft pick, how a
match is played to its end quickly through the table, and the tie-break figures the finished
game's state should put in the standings. The ruleset's own rules decide everything else (the
pool, the pick check, what an ante may take, the result).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.leagues import DP, RosterRules
from bot.ruleset import RuleError
from bot.storage.base import GameRow
from bot.table import Player, Table
from cogs.apeiron import league as apeiron
from cogs.esper import league as esper
from cogs.league import season
from cogs.league.season import League, Options

# (league, its rosters) -> the entry the player whose pick is due takes.
Pick = Callable[[League, RosterRules], str]
# (table, the running game, its players in seat order) -> each player's expected place (1 first).
Finish = Callable[[Table, GameRow, Sequence[Player]], Awaitable[dict[str, int]]]
# (the finished game's stored state, seat -> player id) -> the figures each player scored.
Figures = Callable[[Mapping[str, Any], Mapping[str, str]], dict[str, dict[str, int]]]


def first_legal(league: League, rules: RosterRules) -> str:
    """The first entry still in the pool (pool order) that the ruleset's pick check accepts."""
    state = league.draft
    assert state is not None and state.current is not None
    check = season.pick_check(rules)
    held, after = state.picks_of(state.current), state.picks_left_after()
    for entry in dict.fromkeys(state.available()):
        try:
            if check is not None:
                check(held, entry, after)
        except RuleError:
            continue
        return entry
    raise AssertionError(f"no legal pick left for {state.current} at pick {state.number}")


async def resign_all_but_last(
    table: Table, game: GameRow, players: Sequence[Player]
) -> dict[str, int]:
    """Every player but the last resigns, first seat first: the last wins, and each who resigned
    is placed below everyone who stayed longer (a duel: the first seat loses)."""
    for player in players[:-1]:
        await table.resign(game.id, player.user_id)
    count = len(players)
    return {str(p.user_id): count - i for i, p in enumerate(players)}


async def resign_all_but_last_then_rule(
    table: Table, game: GameRow, players: Sequence[Player]
) -> dict[str, int]:
    """Esper plays on while any character does: every player but the last resigns (each graded D,
    lost and dead: last place), then a moderator's ruling ends the game; the last player's grade
    is the one its roles and sheets give (esper.league: A first … D fourth)."""
    for player in players[:-1]:
        await table.resign(game.id, player.user_id)
    await table.adjudicate(game.id)
    grades = table.outcome(await table.game(game.id)).grades
    resigned = [game.seat_of(p.user_id) for p in players[:-1]]
    assert all(grades[seat] == "D" for seat in resigned if seat), grades
    return {
        str(p.user_id): esper.GRADE_PLACES[grades[game.seat_of(p.user_id) or ""]] for p in players
    }


def no_figures(state: Mapping[str, Any], players: Mapping[str, str]) -> dict[str, dict[str, int]]:
    return {}


def tactics_dp(state: Mapping[str, Any], players: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Tactics scores each side's destruction points in its state."""
    dp = state.get("dp") or {}
    return {player: {DP: int(dp.get(seat, 0))} for seat, player in players.items()}


def apeiron_left(state: Mapping[str, Any], players: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Apeiron's units on the field and their H, each side's."""
    by_seat = apeiron.figures_of(state)
    return {player: by_seat[seat] for seat, player in players.items()}


@dataclass(frozen=True)
class Driver:
    """One ruleset's league, as the suite drives it (see the module's docstring).

        ``options``: the league's options at creation; ``in_game``: what every match's game options
        must hold because of them (the league's fixed options as the ruleset carries them into a
        game). ``seats``: how many players a match seats (the suite joins that many and seats them
        all). ``master``: the i-th player's master spec, for rosters with masters. ``pick``: the
        entry taken at each draft pick (legal by the ruleset's own check). ``finish``: plays a
        running match to its end through the table, after ``steps`` steps played with every seat's
    default order (the mid-match restart comes after them: enough for the figures to be more than
    nothing where that is cheap). ``figures``: the tie-break figures each player
        scored, read from the finished game's state as the ruleset keeps them.
    """

    ruleset: str
    options: Options
    in_game: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 2
    master: Callable[[int], Mapping[str, Any]] | None = None
    pick: Pick = first_legal
    steps: int = 1
    finish: Finish = resign_all_but_last
    figures: Figures = no_figures


TACTICS_MASTERS = ("warlord", "archmage")

DRIVERS: dict[str, Driver] = {
    d.ruleset: d
    for d in (
        Driver(
            "tactics",
            Options(rounds=2, pick_minutes=5, cost_cap=30, tie_break="hp", turn_minutes=0),
            in_game={"cost_cap": 30, "tie_break": "hp"},
            master=lambda i: {"preset": TACTICS_MASTERS[i % len(TACTICS_MASTERS)]},
            figures=tactics_dp,
        ),
        Driver(
            "apeiron",
            Options(
                rounds=apeiron.DRAFT_PICKS + 2,  # two cards to spare each: an ante leaves a deck
                pick_minutes=1,
                turn_minutes=7,
                game={"time_control": "tournament", "turn_limit": 4},
            ),
            in_game={"minutes": apeiron.TOURNAMENT_MINUTES, "turn_limit": 4},
            steps=2,  # the decks, then the deployment: units and H on the field
            figures=apeiron_left,
        ),
        Driver("arena", Options(turn_minutes=0)),
        Driver(
            "esper",
            Options(turn_minutes=9, game={"objection_minutes": 5, "reaction_minutes": 7}),
            in_game={"objection_minutes": 5, "reaction_minutes": 7, "minutes": 9},
            seats=5,  # the fewest an Esper game seats
            finish=resign_all_but_last_then_rule,
        ),
    )
}


def driver(ruleset: str) -> Driver:
    """The driver of ``ruleset``; a loud failure for a league ruleset nobody wrote one for."""
    found = DRIVERS.get(ruleset)
    if found is None:
        raise AssertionError(
            f"{ruleset!r} declares league support but has no driver in "
            "tests/cogs/league/drivers.py: add one to DRIVERS"
        )
    return found
