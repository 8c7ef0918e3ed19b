"""A league's history as JSON (``/league export``, ``python -m bot demo league``), and the check a
script runs of it against the match records (``/game export``).

:func:`league_export` is pure: the league document, its ledger, each match's seats (seat ->
player id, read from the table's games) and the server's ratings become one JSON object with the
league's identity, options and players, its format and rounds (each pairing with its game id,
the byes), every match (game id, round, seats, status, winner, DP), the ledger, the standings
and the ratings. :func:`check_records` compares it with the records of its matches: every
finished match has a record, of the same game and seats, whose outcome is the export's result.
:func:`collect` gathers what the export needs from a running service.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cogs.league import season
from cogs.league.ledger import Entry
from cogs.league.ratings import Rating
from cogs.league.season import League

if TYPE_CHECKING:
    from cogs.league.service import LeagueService

FORMAT = "pbp-league-export/1"
DRAW = "draw"  # a record's winner when the game was drawn (bot.ruleset.DRAW)

Seats = Mapping[str, Mapping[str, str]]  # game id -> seat -> player id


def _rounds(league: League) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The rounds of a Swiss or a cup with each pairing's game id, and each game's round (from
    1). A round robin has no rounds: its matches are paired one by one. A cup tie drawn and
    replayed names every game it took."""
    games: dict[str, int] = {}
    rounds: list[dict[str, Any]] = []
    unplaced = list(league.matches)

    def take(players: Iterable[str], number: int) -> list[str]:
        wanted = set(players)
        found = [m for m in unplaced if set(m.players()) == wanted]
        if league.format == season.SWISS:
            found = found[:1]  # a Swiss pair meets once: the earliest match left is this game
        for m in found:
            unplaced.remove(m)
            games[m.id] = number
        return [m.id for m in found]

    if league.swiss is not None:
        for number, paired in enumerate(league.swiss.rounds, start=1):
            pairings = [
                {
                    "first": g.first,
                    "second": g.second,
                    "result": g.result,
                    "forfeit": g.forfeit,
                    "games": take((g.first, g.second), number),
                }
                for g in paired
                if g.second is not None
            ]
            byes = [g.first for g in paired if g.second is None]
            rounds.append({"number": number, "pairings": pairings, "byes": byes})
    elif league.cup is not None:
        for number, ties in enumerate(league.cup.rounds, start=1):
            pairings = [
                {
                    "first": tie.a,
                    "second": tie.b,
                    "winner": tie.winner,
                    "how": tie.how,
                    "games": take(tie.players(), number) if len(tie.players()) == 2 else [],
                }
                for tie in ties
                if len(tie.players()) == 2 or not tie.decided
            ]
            byes = [
                tie.winner
                for tie in ties
                if tie.decided and len(tie.players()) == 1 and tie.winner is not None
            ]
            rounds.append({"number": number, "pairings": pairings, "byes": byes})
    return rounds, games


def league_export(
    league: League,
    ledger: Sequence[Entry],
    seats: Seats,
    ratings: Mapping[str, Rating],
) -> dict[str, Any]:
    """The league's history as JSON. ``seats``: each match's game seat -> player id (a match
    missing from it is exported without seats); ``ratings``: the server's ratings of the
    league's ruleset (only the league's players are exported)."""
    rounds, round_of = _rounds(league)
    matches = [
        {
            "game_id": m.id,
            "round": round_of.get(m.id),
            "a": m.a,
            "b": m.b,
            "seats": dict(seats.get(m.id, {})),
            "status": m.status,
            "winner": m.winner,
            **({} if m.graded else {"dp": {m.a: m.dp_a, m.b: m.dp_b}}),
            "started_at": m.started_at,
            "ended_at": m.ended_at,
            **({"by": m.by} if m.by else {}),
            # A game of more seats (Esper): every player in seat order; a graded one's result.
            **({"players": list(m.players())} if m.rest else {}),
            **(
                {"places": dict(m.places), "points": dict(m.points), "winners": list(m.winners)}
                if m.graded
                else {}
            ),
        }
        for m in league.matches
    ]
    return {
        "format": FORMAT,
        "league": {
            "id": league.id,
            "name": league.name,
            "ruleset": league.ruleset,
            "season": league.season,
            "guild_id": league.guild_id,
            "channel_id": league.channel_id,
            "created_by": league.created_by,
            "created_at": league.created_at,
        },
        "options": league.options.to_json(),
        "players": [{"id": p, "name": league.names.get(p, p)} for p in league.players],
        "league_format": league.format,
        "swiss_rounds": league.swiss_rounds if league.format == season.SWISS else None,
        "rounds": rounds,
        "champion": _champion(league),
        "matches": matches,
        "antes": [a.to_json() for a in league.antes],
        "ledger": [e.to_json() for e in ledger],
        "standings": [r.to_json() for r in league.standings()],
        "ratings": {p: ratings[p].to_json() for p in league.players if p in ratings},
    }


def _champion(league: League) -> str | None:
    if league.cup is None or not league.cup.rounds:
        return None
    final = league.cup.rounds[-1]
    return final[0].winner if len(final) == 1 else None


class ExportMismatch(ValueError):
    """What :func:`check_records` found wrong, one line each in ``problems``."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def check_records(exported: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]]) -> int:
    """Compare a league export with its matches' records (game id -> ``/game export`` JSON):
    each finished match must have a record of the same game and ruleset, with the export's
    seats, whose game finished with the export's winner (the record's winning seat is the
    export's winning player; a record's draw, no winner). A forfeit or an abandoned game is
    decided by the league, not the board: its record only has to be of the same game. How many
    matches were checked; :class:`ExportMismatch` listing every difference otherwise."""
    problems: list[str] = []
    ruleset = exported["league"]["ruleset"]
    checked = 0
    for match in exported["matches"]:
        game_id = match["game_id"]
        if match["status"] == season.PLAYING:
            continue
        record = records.get(game_id)
        if record is None:
            problems.append(f"{game_id}: no record")
            continue
        checked += 1
        if record.get("game_id") != game_id or record.get("ruleset") != ruleset:
            problems.append(f"{game_id}: the record is of {record.get('game_id')} ({ruleset})")
            continue
        seats = match["seats"]
        if set(seats) != set(record.get("seats", ())):
            problems.append(f"{game_id}: seats {sorted(seats)} but {record.get('seats')}")
            continue
        if match["status"] != season.FINISHED:
            continue
        result = record.get("result") or {}
        if result.get("status") != "finished":
            problems.append(f"{game_id}: finished in the league, {result.get('status')} on record")
            continue
        winner = result.get("winner")
        if "winners" in match:  # graded: the record's winning seats are the league's winners
            won = (
                [winner] if isinstance(winner, str) else winner if isinstance(winner, list) else []
            )
            players = sorted(str(seats.get(seat)) for seat in won)
            if players != sorted(match["winners"]):
                problems.append(
                    f"{game_id}: the league's winners {sorted(match['winners'])}, "
                    f"the record's {won!r} ({players})"
                )
            continue
        on_record = None if winner == DRAW else seats.get(winner) if isinstance(winner, str) else 0
        if on_record != match["winner"]:
            problems.append(
                f"{game_id}: the league says {match['winner']}, the record {winner!r} ({on_record})"
            )
    if problems:
        raise ExportMismatch(problems)
    return checked


async def collect(service: LeagueService, league_id: str) -> dict[str, Any]:
    """:func:`league_export` of a stored league: its document and ledger, each match's seats
    from the table, the server's ratings of its ruleset (``/league export``)."""
    league = await service.league(league_id)
    ledger = await service.ledger(league_id)
    seats: dict[str, dict[str, str]] = {}
    for m in league.matches:
        game = await service.table.game(m.id)
        seats[m.id] = {s.seat: str(s.user_id) for s in game.seats}
    ratings = await service.ratings(league.guild_id, league.ruleset)
    return league_export(league, ledger, seats, ratings)
