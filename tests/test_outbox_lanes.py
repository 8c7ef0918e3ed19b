"""The outbox drain posts the rows of different games side by side (``bot.outbox.LANES`` at a
time), each game's rows in order; a batch whose posting is slow keeps its lease for the rows no
lane has started, and skips those another process took over. Stepped by hand: no timing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

from bot.outbox import LANES, OutboxSender
from bot.priority import Foreground
from bot.storage import OutboxRow


def row(row_id: int, game_id: str | None) -> OutboxRow:
    return OutboxRow(
        row_id, game_id, "channel", 1, None, {}, f"n{row_id}", "pending", None, None, 0, 0.0, 0.0
    )


class Repo:
    """Hands out one claimed batch, then none; renewals keep what ``keep`` says."""

    def __init__(self, rows: list[OutboxRow], keep: set[int] | None = None) -> None:
        self.batches = [rows]
        self.keep = keep
        self.renewed: list[list[int]] = []

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repo]:
        yield self

    async def claim_outbox(self, *_args: Any) -> list[OutboxRow]:
        return self.batches.pop(0) if self.batches else []

    async def renew_outbox(self, _holder: str, ids: list[int], _lease: float) -> set[int]:
        self.renewed.append(list(ids))
        return set(ids) if self.keep is None else set(ids) & self.keep


def sender(repo: Repo, clock: list[float]) -> OutboxSender:
    table = SimpleNamespace(clock=lambda: clock[0], worker="w", foreground=Foreground())
    return OutboxSender(cast(Any, SimpleNamespace(table=table)), cast(Any, repo), cast(Any, None))


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_games_go_out_side_by_side_each_in_order() -> None:
    rows = [row(1, "g-1"), row(2, "g-2"), row(3, "g-1"), row(4, None), row(5, None)]
    outbox = sender(Repo(rows), [0.0])
    log: list[str] = []
    gates = {r.id: asyncio.Event() for r in rows}

    async def send(r: OutboxRow) -> bool:
        log.append(f"start {r.id}")
        await gates[r.id].wait()
        log.append(f"end {r.id}")
        return True

    outbox.send = send  # type: ignore[method-assign,assignment]
    drain = asyncio.create_task(outbox.drain())
    await settle()
    # g-1's first row, g-2's, and the two rows of no game: side by side (LANES of them).
    assert LANES == 4 and log == ["start 1", "start 2", "start 4", "start 5"]
    gates[2].set()
    await settle()
    assert "start 3" not in log  # g-1's second row waits for its first
    gates[1].set()
    await settle()
    assert log[-2:] == ["end 1", "start 3"]
    for gate in gates.values():
        gate.set()
    assert await drain == 5


async def test_a_slow_batch_keeps_the_rows_not_started_and_skips_those_taken_over() -> None:
    clock = [0.0]
    rows = [row(1, "g-1"), row(2, "g-1"), row(3, "g-1")]
    repo = Repo(rows, keep={2})  # row 3 went to another process while the lease lapsed
    outbox = sender(repo, clock)
    sent: list[int] = []

    async def send(r: OutboxRow) -> bool:
        sent.append(r.id)
        clock[0] += outbox.lease_seconds  # a post held up by rate limits
        return True

    outbox.send = send  # type: ignore[method-assign,assignment]
    assert await outbox.drain() == 2
    assert sent == [1, 2] and repo.renewed == [[2, 3], [3]]  # renewed before each slow row
