"""A new game's row: the players it seats, the checks it must pass first, and its id.

A game is created in the lobby (``/<ruleset> challenge``: the invited players accept or decline
there) or, a league match, started at once; either way :func:`insert_game` refuses what cannot be
played before anyone is asked (the same player twice, a number of players the ruleset does not
take, options it rejects, a player already in a game in that channel) and stores the row, every
seat but the creator's still to accept. Setting it up is the table's (``Table.accept``,
``Table.open_in``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import registry
from bot.reads import TableError
from bot.storage import ACTIVE_STATUSES, GameRow, SeatRow

if TYPE_CHECKING:
    from bot.storage.base import Transaction


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


async def new_game_id(tx: Transaction) -> str:
    """The id the next game created in this transaction gets."""
    return f"g-{await tx.next_game_number():04d}"


async def insert_game(
    tx: Transaction,
    ruleset: str,
    *,
    guild_id: int | None,
    channel_id: int | None,
    players: list[Player],
    options: Mapping[str, Any] | None,
    turn_seconds: int | None,
    created_by: int | None = None,
    now: float,
) -> GameRow:
    """Check and store a new game in the lobby (``created_by``: the challenger, by default the
    first player, who has accepted by challenging)."""
    spec = registry.get(ruleset)
    if len({p.user_id for p in players}) != len(players):
        raise TableError("table.same_player")
    # A ruleset may take a range of players (the dungeon's party of 1 to 4).
    if len(players) not in spec.seats.allowed():
        counts = spec.seats.allowed()
        needed = str(counts[0]) if len(counts) == 1 else f"{min(counts)}–{max(counts)}"
        raise TableError("table.wrong_player_count", needed=needed)
    # Refused now, not when the opponent accepts: a bad option must not leave a dead lobby.
    spec.engine.check_options(options or {})
    creator = players[0].user_id if created_by is None else created_by
    for player in players:
        busy = [
            g
            for g in await tx.games_for_user(player.user_id, ("lobby", *ACTIVE_STATUSES))
            if g.channel_id == channel_id
        ]
        if busy:
            raise TableError("table.already_playing_here", name=player.name, game=busy[0].id)
    game = GameRow(
        id=await new_game_id(tx),
        ruleset=ruleset,
        guild_id=guild_id,
        channel_id=channel_id,
        status="lobby",
        options=dict(options or {}),
        seats=[
            SeatRow(seat, p.user_id, p.name, position=i, accepted=p.user_id == creator)
            for i, (seat, p) in enumerate(zip(spec.seats.names, players, strict=False))
        ],
        turn_seconds=turn_seconds,
        created_by=creator,
        created_at=now,
        updated_at=now,
    )
    await tx.insert_game(game)
    return game
