"""The public proofs of a step: what a turn post's "Proofs" button shows in full.

A turn post shows its seeds, salts and commitments short; the button answers with the values
themselves, as far as they are public now, by the rules the match record follows
(``bot.record.build_record``): a stream's seed once revealed, an order's text and salt once its
step is resolved and unless the ruleset withholds it, the secret seed only after the end.

:func:`step_proofs` is pure (the rows in, the proofs out); the read side loads the rows
(:meth:`bot.reads.Reads.proofs`) and ``bot.messages.proofs_text`` words the answer. Neither the
table nor the messages are imported here, so both can name these types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import dice as dicelib
from bot.record import players_digest

if TYPE_CHECKING:
    from bot.storage.base import GameRow, OrderRow, StreamRow


@dataclass(frozen=True)
class StreamProof:
    """A dice stream as far as it is public: its commitment always, its seed once revealed."""

    phase: str
    commitment: str
    seed: str | None = None
    orders_digest: str | None = None


@dataclass(frozen=True)
class OrderProof:
    """A sealed order as far as it is public: its receipt always; its text and salt once its
    step is resolved, unless the ruleset withholds it."""

    seat: str
    receipt: str
    text: str | None = None
    salt: str | None = None
    defaulted: bool = False


@dataclass(frozen=True)
class Proofs:
    """What a turn post's "Proofs" button shows in full: only what is public, by the rules the
    match record follows (``bot.record.build_record``)."""

    game_id: str
    turn: int  # the step the post resolved (0: the game's setup)
    step: str | None  # the ruleset's label of that step
    streams: list[StreamProof]
    orders: list[OrderProof]
    next_streams: list[StreamProof]  # the step the post opened: commitments only
    secret: StreamProof | None
    players_digest: str | None  # with the setup (the first post binds the players to seats)


def step_proofs(
    game: GameRow,
    streams: Sequence[StreamRow],
    orders: Mapping[str, OrderRow],
    turn: int,
    players: Mapping[str, str] | None = None,
) -> Proofs:
    """The proofs of step ``turn`` (0: the setup) and the commitments of the step after it, from
    the game's stream rows (all of them, or at least the secret one and those of ``turn`` and
    ``turn + 1``) and the orders of ``turn``. ``players``: the seating the first post bound (the
    game's seats now, unless a seat was handed to a substitute since)."""
    secret = next((s for s in streams if s.phase == dicelib.SECRET), None)
    own = [s for s in streams if s.turn == turn and s.phase != dicelib.SECRET]
    after = [s for s in streams if s.turn == turn + 1 and s.phase != dicelib.SECRET]
    # A step's orders are public once it is resolved (every stream of it revealed), as in
    # the match record; before that (the open step) only their receipts are.
    resolved = bool(own) and all(s.revealed for s in own)

    def stream(row: StreamRow) -> StreamProof:
        if not row.revealed:
            return StreamProof(row.phase, row.commitment)
        return StreamProof(row.phase, row.commitment, row.seed, row.orders_digest)

    def order(row: OrderRow) -> OrderProof:
        if not resolved or row.withheld:
            return OrderProof(row.seat, row.receipt)
        return OrderProof(row.seat, row.receipt, row.text, row.salt, row.defaulted)

    if players is None:
        players = {s.seat: s.name for s in game.seats}
    return Proofs(
        game_id=game.id,
        turn=turn,
        step=next((s.step for s in own if s.step), None),
        streams=[stream(s) for s in own],
        orders=[order(orders[seat]) for seat in game.seat_order if seat in orders],
        next_streams=[StreamProof(s.phase, s.commitment) for s in after],
        secret=stream(secret) if secret is not None else None,
        players_digest=players_digest(game.id, game.seat_order, players) if turn == 0 else None,
    )
