"""The players' history an Esper game's refusal rule reads (拒否, 直前拒否), from earlier games.

Refusing a character (拒否) depends on what each player played this season, and refusing the last
one (直前拒否) on what they played in their previous game (``../shared/rules/esper.md``, Setup 1).
The bot keeps no separate history: it is read from the server's finished esper games (each
state's ``seats[seat]["sheet"]``) when a game opens, and frozen into the game's options
(``history``), so the record replays without the database and a later season changes nothing in
a game already started. The season is the league's in a league game (its finished matches), else
the server's (``/esper season start``). Game rows in, the option out: no discord here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from bot.storage.base import GameRow, GameStore
from cogs.esper import pack as packlib
from cogs.esper import rules

FINISHED = "finished"  # only a finished game's sheets are public (and count for a season)
RULESET_KEY = "esper"


def sheets_of(game: GameRow) -> dict[int, str]:
    """Who played which character in ``game``: user id -> sheet id (``rules.to_json``'s shape).
    A game that ended before its deal was kept (or a state of another shape) gives nothing."""
    seats = (game.state or {}).get("seats")
    if not isinstance(seats, Mapping):
        return {}
    out: dict[int, str] = {}
    for seat in game.seats:
        entry = seats.get(seat.seat)
        sheet = entry.get("sheet") if isinstance(entry, Mapping) else None
        if isinstance(sheet, str) and sheet:
            out[seat.user_id] = sheet
    return out


def finished_games(games: Iterable[GameRow]) -> list[GameRow]:
    """The finished games, in the order they ended (a finished game is never written again, so
    ``updated_at`` is when it ended); running, abandoned and lobby games are left out: a running
    game's sheets are secret, and an abandoned one was not played out."""
    done = [g for g in games if g.status == FINISHED]
    return sorted(done, key=lambda g: (g.updated_at, g.created_at, len(g.id), g.id))


def build_history(
    users: Sequence[int],
    games: Iterable[GameRow],
    season_start: float | None,
    *,
    season_games: Collection[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """The ``history`` option of a new game whose seats A, B, … are ``users`` in order.

    ``games``: the server's esper games (any status, any age). Per seat, ``season``: the sheets
    the player played in the season's finished games, each once, in the order played: the games
    ``season_games`` names (a league's matches), else those created since ``season_start`` (none
    without a season); ``previous``: the sheet of the player's most recently ended finished
    game, or None.
    """
    done = finished_games(games)
    played = [(g, sheets_of(g)) for g in done]
    history: dict[str, dict[str, Any]] = {}
    for seat, user in zip(rules.SEATS, users, strict=False):
        season: list[str] = []
        previous: str | None = None
        for game, sheets in played:
            sheet = sheets.get(user)
            if sheet is None:
                continue
            previous = sheet
            if season_games is not None:
                in_season = game.id in season_games
            else:
                in_season = season_start is not None and game.created_at >= season_start
            if in_season and sheet not in season:
                season.append(sheet)
        history[seat] = {"season": season, "previous": previous}
    return history


async def league_match_options(
    tx: GameStore, guild_id: int, users: Sequence[int], earlier: Collection[str]
) -> dict[str, Any]:
    """The options a league's Esper match takes from earlier games
    (:attr:`bot.ruleset.LeagueSupport.season_options`): the pack, and each seat's ``history``
    with the league's finished matches ``earlier`` as its season (the previous game, for
    直前拒否, is the player's last finished esper game in the server, in a league or not)."""
    games = await tx.games_of_ruleset(guild_id, RULESET_KEY)
    history = build_history(users, games, None, season_games=frozenset(earlier))
    pack = packlib.sample()
    return {"pack": dict(pack.source), "pack_hash": pack.hash, "history": history}
