"""The committed dice streams of a game, as one transaction works on them.

Every step of a game has two streams, committed when the step opens (``spec/dice-and-receipts.md``):
``pre`` (drawn as the step opens: a deal, the monsters' initiative) and ``resolve`` (drawn when it
resolves, keyed by the digest of the orders' receipts). A game of hidden information has a third,
its ``secret`` stream, committed at the setup, drawn on all game long (its block counter runs over
the whole game) and revealed at the end.

A :class:`Ledger` holds the rows one transaction touches: each step's rows are read from the
database at most once, the engine's draws and every reveal are recorded on them in memory, and
:meth:`Ledger.save` writes each new or changed row once, before the transaction commits. (The
secret stream's row used to be read up to six times in one resolution: to draw on it, to store
what was drawn, once more for the next step, for the end of the game and for the post.) The rows
it holds are what the turn post shows (:mod:`bot.posting`): no second read.

A ``/roll`` draws on a chain of its own per channel (:func:`roll_stream`), outside any game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import dice as dicelib
from bot.storage.base import StreamRow

if TYPE_CHECKING:
    from bot.storage.base import Repository, Transaction

# Fresh secret bytes for a seed: (size, what they are for). The table's source: ``secrets`` in a
# real game, a seeded one in the demo, a keyed one in the end-to-end tests.
Draw = Callable[[int, str], bytes]


@dataclass(frozen=True)
class RollStream:
    """The committed stream one ``/roll`` draws on, and the commitment of the next one."""

    label: str
    seed: bytes
    committed_before: bool  # False for a scope's first roll: nothing was published for it yet
    next_commitment: str

    @property
    def commitment(self) -> str:
        return dicelib.commitment(self.seed)


async def roll_stream(
    repo: Repository, scope_id: int, entropy: Callable[[int], bytes]
) -> RollStream:
    """Take the seed committed for a scope's next ``/roll`` and commit the one after it."""
    next_seed = entropy(dicelib.SEED_BYTES)
    async with repo.transaction() as tx:
        stored = await tx.roll_stream(scope_id)
        if stored is None:
            number, seed, committed_before = 1, entropy(dicelib.SEED_BYTES), False
        else:
            number, seed, committed_before = stored[0], bytes.fromhex(stored[1]), True
        await tx.set_roll_stream(
            scope_id, number + 1, next_seed.hex(), dicelib.commitment(next_seed)
        )
    label = dicelib.stream_label(f"roll-{scope_id}", number, dicelib.PRE)
    return RollStream(label, seed, committed_before, dicelib.commitment(next_seed))


class Ledger:
    """The stream rows of one game in one transaction: read once, saved once.

    ``secret_stream``: the ruleset draws on a secret stream (``RulesetSpec.secret_stream``); a
    game without one never reads its setup's rows to look for it.
    """

    def __init__(self, tx: Transaction, game_id: str, *, secret_stream: bool, draw: Draw) -> None:
        self.tx = tx
        self.game_id = game_id
        self.secret_stream = secret_stream
        self._draw = draw
        self._steps: dict[int, dict[str, StreamRow]] = {}
        self._new: list[StreamRow] = []
        self._changed: list[StreamRow] = []

    async def step(self, turn: int) -> list[StreamRow]:
        """The rows of step ``turn`` (0: the setup, with the secret stream), by phase, as the
        database orders them."""
        rows = await self._rows(turn)
        return [rows[phase] for phase in sorted(rows)]

    async def _rows(self, turn: int) -> dict[str, StreamRow]:
        if turn not in self._steps:
            self._steps[turn] = {s.phase: s for s in await self.tx.streams(self.game_id, turn)}
        return self._steps[turn]

    async def _row(self, turn: int, phase: str) -> StreamRow | None:
        return (await self._rows(turn)).get(phase)

    async def commit(self, turn: int, phase: str) -> bytes:
        """Draw a fresh secret seed for a stream: its commitment is public from now on."""
        seed = self._draw(dicelib.SEED_BYTES, f"seed:{self.game_id}:{turn}:{phase}")
        row = StreamRow(
            self.game_id, turn, phase, seed=seed.hex(), commitment=dicelib.commitment(seed)
        )
        (await self._rows(turn))[phase] = row
        self._new.append(row)
        return seed

    async def pre(self, turn: int) -> dicelib.DiceStream:
        """Commit step ``turn``'s ``pre`` stream and draw on it."""
        seed = await self.commit(turn, dicelib.PRE)
        return dicelib.DiceStream(seed, dicelib.stream_label(self.game_id, turn, dicelib.PRE))

    async def resolve(self, turn: int, orders_digest: str) -> dicelib.DiceStream:
        """Step ``turn``'s ``resolve`` stream, keyed by its orders' digest."""
        row = await self._row(turn, dicelib.RESOLVE)
        assert row is not None
        label = dicelib.stream_label(self.game_id, turn, dicelib.RESOLVE)
        return dicelib.DiceStream(bytes.fromhex(row.seed), label, orders_digest)

    async def secret_row(self) -> StreamRow | None:
        """The game's secret stream (None: the ruleset has none)."""
        if not self.secret_stream:
            return None
        return await self._row(0, dicelib.SECRET)

    async def secret(self) -> dicelib.Dice:
        """The game's secret stream where it stopped (its block counter runs over the whole
        game); :data:`~bot.dice.NO_SECRET` for a ruleset that did not ask for one."""
        row = await self.secret_row()
        if row is None:
            return dicelib.NO_SECRET
        label = dicelib.stream_label(self.game_id, 0, dicelib.SECRET)
        return dicelib.DiceStream(bytes.fromhex(row.seed), label, start_block=row.blocks)

    async def keep_secret(self, secret: dicelib.Dice) -> None:
        """Record what the engine drew from the secret stream and where the stream stopped."""
        if not isinstance(secret, dicelib.DiceStream) or not secret.rolls:
            return
        row = await self.secret_row()
        assert row is not None
        row.drawn = [*row.drawn, *secret.rolls]
        row.blocks = secret.blocks
        self._changed.append(row)

    async def drawn(
        self,
        turn: int,
        phase: str,
        rolls: list[int],
        *,
        reveal: bool,
        orders_digest: str | None = None,
        step: str | None = None,
    ) -> None:
        """Record a stream's draws, whether its seed is public now, and (the ``resolve`` stream)
        its orders' digest or (the ``pre`` stream) the step's label, which the record carries."""
        row = await self._row(turn, phase)
        if row is None:
            return
        row.drawn = list(rolls)
        row.revealed = reveal
        row.orders_digest = orders_digest or row.orders_digest
        row.step = step or row.step
        self._changed.append(row)

    async def reveal(self, turn: int, phase: str) -> None:
        """A stream's seed is public now (its draws were recorded when they were made)."""
        row = await self._row(turn, phase)
        if row is not None:
            row.revealed = True
            self._changed.append(row)

    async def reveal_secret(self) -> None:
        """The game is over: its secret seed is public."""
        # Whatever ``secret_stream`` says (an abandoned game's ledger draws nothing): a secret
        # row there is revealed at the end all the same.
        row = await self._row(0, dicelib.SECRET)
        if row is not None and not row.revealed:
            row.revealed = True
            self._changed.append(row)

    async def save(self) -> None:
        """Write the new rows and the changed ones, each once."""
        new = {id(row) for row in self._new}
        for row in self._new:
            await self.tx.put_stream(row)
        saved: set[int] = set()
        for row in self._changed:
            if id(row) not in new and id(row) not in saved:
                saved.add(id(row))
                await self.tx.update_stream(row)
        self._new.clear()
        self._changed.clear()
