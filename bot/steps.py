"""A game's steps as the table's transactions open, seal and store them.

Each step of a game (``GameRow.step`` counts them; 0 is the setup) is opened with its dice
committed (:meth:`Steps.open`: its ``pre`` stream drawn, its ``resolve`` stream's commitment
public before any order, its deadline started), takes the awaited seats' orders sealed with a
fresh salt (:meth:`Steps.seal`: only the receipt is public until the step resolves), and ends
with the next version of the state stored once, compare-and-set on the version read, with the
dice streams as it left them (:meth:`Steps.store`; at the end of the game the secret stream and
the withheld orders are revealed, :meth:`Steps.reveal_hidden`). Which call does what, and when,
is the table's (:class:`bot.table.Table`): these run inside its transactions and commit nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot import dice as dicelib
from bot.i18n import strip_invisible
from bot.ruleset import INPUTS_REVEALED, Event, OrderRejected
from bot.storage import ACTIVE_STATUSES, OrderRow
from bot.streams import Draw, Ledger

if TYPE_CHECKING:
    from bot.loaded import LoadedGame, StateCache
    from bot.storage.base import GameRow, Transaction

MAX_ORDER_CHARS = 500


def is_blank(text: str) -> bool:
    """Nothing but spaces (any Unicode space, U+3000 too) and invisible characters."""
    return not strip_invisible(unicodedata.normalize("NFKC", text)).strip()


def check_text(text: str) -> None:
    """Refuse an order's text that is too long or blank, before any ruleset reads it."""
    if len(text) > MAX_ORDER_CHARS:
        raise OrderRejected("order.too_long", limit=MAX_ORDER_CHARS)
    if is_blank(text):
        # Several rulesets read an empty sheet as "wait", and a stray full-width space would
        # silently replace a real order.
        raise OrderRejected("order.empty")


def revealed_steps(events: list[Event]) -> list[int]:
    """The steps whose withheld orders these events make public (``INPUTS_REVEALED``)."""
    return [int(step) for e in events if e.type == INPUTS_REVEALED for step in e.data["steps"]]


class Steps:
    """The step lifecycle over ``states`` (the decoded states it stores are remembered there);
    ``draw`` gives every seed and salt (:data:`bot.streams.Draw`)."""

    def __init__(self, states: StateCache, *, clock: Callable[[], float], draw: Draw) -> None:
        self.states = states
        self.clock = clock
        self.draw = draw

    def ledger(self, tx: Transaction, loaded: LoadedGame) -> Ledger:
        """The game's dice streams for this transaction (read once, saved by :meth:`store`)."""
        secret = loaded.spec.secret_stream
        return Ledger(tx, loaded.game.id, secret_stream=bool(secret), draw=self.draw)

    def seal(self, game: GameRow, seat: str, canonical: str, *, user_id: int | None) -> OrderRow:
        """The seat's order for the current step, sealed with a fresh salt (``user_id`` None: a
        default filled in when the deadline passed)."""
        salt = self.draw(dicelib.SALT_BYTES, f"salt:{game.id}:{game.step}:{seat}:{canonical}")
        return OrderRow(
            game.id,
            game.step,
            seat,
            text=canonical,
            salt=salt.hex(),
            receipt=dicelib.receipt(salt, canonical),
            user_id=user_id,
            defaulted=user_id is None,
            revisions=1,
            submitted_at=self.clock(),
        )

    async def setup(self, loaded: LoadedGame, streams: Ledger) -> None:
        """Set a lobby game up (step 0): draw the new game on the setup's ``pre`` stream,
        revealed at once, and commit the secret stream if the ruleset draws on one."""
        game = loaded.game
        setup = await streams.pre(0)
        if loaded.spec.secret_stream:  # committed now: its commitment is in the first post
            await streams.commit(0, dicelib.SECRET)
        secret = await streams.secret()
        loaded.advance(
            loaded.engine.new_game(game.id, game.seat_order, game.options, setup, secret)
        )
        await streams.keep_secret(secret)
        await streams.drawn(0, dicelib.PRE, setup.rolls, reveal=True)

    async def open(self, loaded: LoadedGame, streams: Ledger) -> list[Event]:
        """Open the next step: commit its streams, draw its ``pre`` dice, start its clock."""
        game = loaded.game
        turn = loaded.engine.step_number(loaded.state) + 1
        pre = await streams.pre(turn)
        # The resolve stream is committed now too, so its commitment is public before any order.
        await streams.commit(turn, dicelib.RESOLVE)
        secret = await streams.secret()
        state, events = loaded.engine.start_step(loaded.state, pre, secret)
        loaded.advance(state)
        await streams.keep_secret(secret)
        # The step's name goes with its pre stream: the match record carries it.
        label = loaded.engine.step_label(state)
        await streams.drawn(turn, dicelib.PRE, pre.rolls, reveal=False, step=label)
        seconds = self._step_seconds(loaded)
        game.step_seconds = seconds or None
        game.deadline_at = self.clock() + seconds if seconds else None
        game.reminders_sent = 0
        return events

    def _step_seconds(self, loaded: LoadedGame) -> int | None:
        """The open step's deadline: the ruleset's own for this step, else the game's."""
        own = loaded.spec.step_seconds(loaded.state) if loaded.spec.step_seconds else None
        return own if own is not None else loaded.game.turn_seconds

    async def store(
        self, tx: Transaction, loaded: LoadedGame, streams: Ledger, events: list[Event]
    ) -> None:
        """Store the next version of the state (compare-and-set on the version read), and the
        dice streams as the step left them."""
        game = loaded.game
        expect = game.version
        game.version += 1
        game.step = loaded.engine.step_number(loaded.state)
        game.state = loaded.engine.to_json(loaded.state)
        game.updated_at = self.clock()
        outcome = loaded.outcome()
        if outcome.finished and game.status in ACTIVE_STATUSES:
            winner = outcome.winner
            game.status = "finished"
            game.outcome = winner if isinstance(winner, str) else None
            game.result = outcome.to_json()
            game.end_reason = game.end_reason or "rules"  # the why is in result["reason"]
            game.deadline_at = None
            loaded.later_orders += await self.reveal_hidden(tx, game, streams)
        await tx.update_game(game, expect_version=expect)
        await tx.put_state(game.id, game.version, game.step, game.state)
        await streams.save()
        self.states.remember(game, loaded.state)
        if events:
            await tx.add_events(game.id, game.step, [e.to_json() for e in events])

    async def withhold(
        self, tx: Transaction, loaded: LoadedGame, turn: int, seats: list[str], events: list[Event]
    ) -> list[int]:
        """Step ``turn`` has resolved: its ``seats``' orders stay private, and the withheld
        orders of the steps its events reveal become public (``match.later_orders``, for the
        post). Returns the revealed steps."""
        game_id = loaded.game.id
        if seats:
            await tx.set_withheld(game_id, turn, seats, True)
        revealed = revealed_steps(events)
        for step in revealed:
            hidden = await tx.orders_for_turn(game_id, step)
            loaded.later_orders += [o for o in hidden.values() if o.withheld]
            await tx.set_withheld(game_id, step, None, False)
        return revealed

    async def reveal_hidden(
        self, tx: Transaction, game: GameRow, streams: Ledger | None = None
    ) -> list[OrderRow]:
        """The game is over: its secret stream and every withheld order become public. Returns
        the orders that were withheld until now. Without ``streams`` (an abandoned game: nothing
        is drawn any more, no state is decoded) the rows are read and saved here."""
        ledger = (
            Ledger(tx, game.id, secret_stream=False, draw=self.draw) if streams is None else streams
        )
        await ledger.reveal_secret()
        hidden = [o for o in await tx.all_orders(game.id) if o.withheld]
        for turn in sorted({o.turn for o in hidden}):
            await tx.set_withheld(game.id, turn, None, False)
        if streams is None:
            await ledger.save()
        return hidden
