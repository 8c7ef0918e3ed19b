"""The table's read side: the games, orders, proofs and records the cogs and views show.

Every query reads in a read transaction of its own (``Repository.read``: beside the writers, never
blocking them) and changes nothing. The table's writes load their game in their own transaction
with the same lookups (:func:`require`: the game, or a :class:`TableError`; :meth:`Reads.load`)
and refuse what they refuse with the same error, so these live here, below the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.proofs import Proofs, step_proofs
from bot.record import build_record, original_players
from bot.ruleset import RuleError
from bot.storage import ACTIVE_STATUSES

if TYPE_CHECKING:
    from bot.loaded import LoadedGame, StateCache
    from bot.storage.base import GameRow, OrderRow, Repository, Transaction


class TableError(RuleError):
    """A request the table refuses (not your game, not running, not a moderator…)."""


async def not_seated(tx: Transaction, game: GameRow, user_id: int) -> TableError:
    """Why ``user_id`` may not act for a seat of ``game``: their seat was handed to a substitute
    (said so, with who holds it now), or they never sat there."""
    handed = await tx.handed_away(game.id, user_id)
    if handed is None:
        return TableError("table.not_your_game", game=game.id)
    return TableError(
        "handover.not_yours_now", game=game.id, seat=handed.seat, user=f"<@{handed.to_user}>"
    )


async def require(tx: Transaction, game_id: str) -> GameRow:
    """The game, or a :class:`TableError` saying there is no such game."""
    game = await tx.get_game(game_id)
    if game is None:
        raise TableError("table.no_such_game", game=game_id)
    return game


class Reads:
    """Queries over ``repo``; ``states`` decodes a game's state once per version."""

    def __init__(self, repo: Repository, states: StateCache) -> None:
        self.repo = repo
        self.states = states

    async def load(self, tx: Transaction, game_id: str) -> LoadedGame:
        """In the caller's transaction: the game, its ruleset and its decoded state (decoded
        once per version)."""
        return self.states.load(await require(tx, game_id))

    async def game(self, game_id: str) -> GameRow:
        async with self.repo.read() as tx:
            return await require(tx, game_id)

    async def seat_for_click(self, game_id: str, user_id: int, turn: int) -> tuple[GameRow, str]:
        """The game and the clicker's seat, for a component made for ``turn`` of that game.

        Refuses a stranger, a game that is not running, and buttons of an earlier turn.
        """
        async with self.repo.read() as tx:
            game = await require(tx, game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise await not_seated(tx, game, user_id)
        if game.status not in ("active", "paused"):
            raise TableError("table.not_running", game=game_id)
        if game.step != turn:
            raise TableError("order.stale_buttons", turn=turn, current=game.step)
        return game, seat

    async def own_seat(self, game_id: str, user_id: int) -> tuple[LoadedGame, str]:
        """The game as it stands and the asker's own seat in it (the 📋 button's sheet: never
        another seat's). Refuses a stranger, and a player whose seat was handed on."""
        async with self.repo.read() as tx:
            loaded = await self.load(tx, game_id)
            seat = loaded.game.seat_of(user_id)
            if seat is None:
                raise await not_seated(tx, loaded.game, user_id)
        return loaded, seat

    async def games_here(
        self, channel_id: int, statuses: tuple[str, ...] = ACTIVE_STATUSES
    ) -> list[GameRow]:
        async with self.repo.read() as tx:
            return await tx.games_in_channel(channel_id, statuses)

    async def current_orders(self, game_id: str) -> dict[str, OrderRow]:
        async with self.repo.read() as tx:
            game = await require(tx, game_id)
            return await tx.orders_for_turn(game.id, game.step)

    async def state_at(self, game_id: str, version: int) -> dict[str, Any] | None:
        async with self.repo.read() as tx:
            return await tx.get_state(game_id, version)

    async def proofs(self, game_id: str, turn: int) -> Proofs:
        """The full proofs of step ``turn`` (0: the setup) and the commitments of the step after
        it, as far as they are public now: a seed once revealed, an order's text and salt once
        its step is resolved and unless withheld, the secret seed only after the end."""
        async with self.repo.read() as tx:
            game = await require(tx, game_id)
            streams = await tx.streams(game_id)
            orders = await tx.orders_for_turn(game_id, turn) if turn > 0 else {}
            handovers = await tx.handovers(game_id) if turn == 0 else []
            forgotten = await tx.forgotten_players(game_id) if turn == 0 else []
        proofs = step_proofs(game, streams, orders, turn, original_players(game, handovers))
        if forgotten:  # a forgotten player's name is gone: the digest as the first post showed it
            proofs = replace(proofs, players_digest=forgotten[0].players_digest)
        return proofs

    async def export(self, game_id: str) -> dict[str, Any]:
        """The match record (``shared/spec/match-record.md``) with seeds, commitments, receipts."""
        async with self.repo.read() as tx:
            game = await require(tx, game_id)
            orders = await tx.all_orders(game_id)
            streams = await tx.streams(game_id)
            handovers = await tx.handovers(game_id)
            forgotten = await tx.forgotten_players(game_id)
        return build_record(game, orders, streams, handovers, forgotten)

    async def games_awaiting(self, user_id: int) -> list[GameRow]:
        """Running games where this user owes (or may still replace) an order."""
        async with self.repo.read() as tx:
            games = await tx.games_for_user(user_id, ("active", "paused"))
        return [g for g in games if g.seat_of(user_id) in self.states.load(g).awaiting()]

    async def orders_of(self, user_id: int) -> list[tuple[GameRow, str, OrderRow | None]]:
        """For ``/game orders``: each running game of the user, their seat and current order."""
        async with self.repo.read() as tx:
            games = await tx.games_for_user(user_id, ("active", "paused"))
            result = []
            for game in games:
                seat = game.seat_of(user_id)
                assert seat is not None
                orders = await tx.orders_for_turn(game.id, game.step)
                result.append((game, seat, orders.get(seat)))
            return result
