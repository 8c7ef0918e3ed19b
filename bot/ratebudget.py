"""Discord's global limit, kept by every process of one bot token together, acknowledgements first.

Discord allows a bot token 50 requests per second in all (interaction callbacks and follow-ups
excepted), however many processes share the token; beyond it every process of the token gets
429s with ``X-RateLimit-Global``. discord.py only reacts to those 429s, so the bot paces itself:
each REST request takes a grant from a :class:`Budget` first (``bot.http`` hooks it in front of
every request discord.py sends).

**Slots.** Time is cut into slots and each slot grants at most ``cap`` requests. Any one-second
window of Discord's (a sliding window, counted when the request arrives) overlaps at most
``ceil((1 + JITTER) / slot) + 1`` slots, allowing the requests up to ``JITTER`` seconds of spread
between their grant and their arrival, so ``cap`` is the limit divided by that.

**The margin: 45 of 50 a second.** The slot is 1/45 s with one grant each (:func:`slot_seconds`,
:func:`slot_cap`): 45 requests a second sustained. The 5 a second left over are the safety
margin, and what they buy is stated and tested (``tests/test_ratebudget.py``): any 1.085 s of
grants spans at most 50 slots, so Discord never counts more than 50 in a second as long as the
requests' travel (grant to arrival: the event loop, the connection, the network) varies by no
more than ``JITTER_SECONDS``, 85 ms. 48 a second (20 ms of spread) drew 17 global 429s in
``bench/load.py --games 1000`` on two busy cores, where the event loops lag more than 20 ms;
the old 40 (slots of 0.05 s, two grants each, 0.1 s of spread) left a fifth of the budget
unused, and the bot's turns per second are bounded by exactly this budget. A token whose limit
Discord raised gets more grants per slot (``limit // 50``); a limit under 50 gets longer slots.

**Shared by processes.** With PostgreSQL (several shard processes) the slots are a row per
token and slot in the database (``bot.storage.postgres.PostgresRateSlots``), numbered by the
database's own clock and counted up by one atomic upsert: whichever process asks takes what is
left of the current slot. Nothing is registered per process, so nothing has to be rebalanced:
a process that dies simply stops asking (its grants age out with their slot), one that comes
back asks again, and a busy process may use the whole budget while the others are idle (shard 0
receives every DM, so it sends every DM acknowledgement). The simpler alternative, each of N
live processes pacing itself at 50/N from the lease table, wastes the idle processes' shares,
and a process joining must wait until every other has seen it before it may send. With SQLite
there is one process and the slots are counted in memory (:class:`LocalSlots`).

**Acknowledgements first.** A request made inside ``Foreground.serving()`` (an order's reply)
is served before any waiting background request (board posts, prompts, edits). Background
requests take only ``background_cap`` of every odd slot (the rest is kept for the
acknowledgements of whichever process receives them) and the whole of every even one (with one
grant a slot the two caps are the same for one process: its pump's order keeps the
acknowledgements first). Processes sharing the budget (``bot.http.budget_for``) give background
requests ``cap - 1``, none of an odd slot with one grant a slot: their pumps order only their own
requests, and shard 0 (every DM) sends the acknowledgements while the others' posts take what
slots they find, so the odd slots are kept for acknowledgements and background requests get half
the budget, 22.5 a second. An acknowledgement that finds its slot spent waits for the next one,
which a process sharing the budget also books for it (background requests of every process leave
bookings free): alone, it waits a slot or two (21 to 44 ms); several at once take a slot each
(with Discord's 50 a second, as many as 45 a second). Interaction callbacks are exempt from
Discord's limit and never wait here at all (``bot.http.paced``): "Interaction endpoints are not
bound to the bot's Global Rate Limit"
(https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).

Pure asyncio: no discord, no storage.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot token (Discord's default)
# The rate paced at with Discord's default limit: 45 of its 50 (the margin: module docstring).
PACED_RATE = 45
SLOT_SECONDS = 1 / PACED_RATE
# Tolerated spread of the time between a grant and the request's arrival at Discord (sending it,
# the network): what the 2 requests a second under the limit pay for.
JITTER_SECONDS = 0.085


def slot_seconds(limit: int = DISCORD_GLOBAL_LIMIT, jitter: float = JITTER_SECONDS) -> float:
    """The slot length for a token's limit: 1/45 s, longer for a limit under 50 (one grant a
    slot, ``limit`` slots at most in a second plus ``jitter``)."""
    return max(SLOT_SECONDS, (1.0 + jitter) / max(1, limit - 1))


def slot_cap(
    limit: int = DISCORD_GLOBAL_LIMIT, slot: float | None = None, jitter: float = JITTER_SECONDS
) -> int:
    """Grants per slot such that no one-second window of arrivals holds more than ``limit``."""
    slot = slot_seconds(limit, jitter) if slot is None else slot
    slots = math.ceil(round((1.0 + jitter) / slot, 9)) + 1
    return max(1, limit // slots)


def paced_rate(limit: int = DISCORD_GLOBAL_LIMIT) -> float:
    """Requests a second the budget grants at most, sustained, for a token's limit."""
    return slot_cap(limit) / slot_seconds(limit)


class SlotStore(Protocol):
    """Where the slots are counted: in memory (one process) or in the database (several)."""

    async def take(self, count: int, cap: int, *, full: int, foreground: bool) -> tuple[int, float]:
        """Up to ``count`` grants from the current slot while it holds fewer than ``cap``:
        (granted, seconds until the next slot begins). ``full``: the slot's whole cap;
        ``foreground``: acknowledgements, which a store shared by processes books on the next
        slot when this one cannot serve them all (background requests leave bookings free)."""
        ...

    async def close(self) -> None: ...


class LocalSlots:
    """The slots of one process, on its monotonic clock."""

    def __init__(
        self, slot: float = SLOT_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.slot = slot
        self.clock = clock
        self._current = -1
        self._used = 0

    async def take(
        self, count: int, cap: int, *, full: int = 0, foreground: bool = False
    ) -> tuple[int, float]:
        # One process: its pump already serves waiting acknowledgements first in every slot,
        # so nothing needs booking here.
        now = self.clock()
        current = math.floor(now / self.slot)
        if current != self._current:
            self._current, self._used = current, 0
        if full and (foreground or current % 2 == 0):
            cap = max(cap, full)  # background requests may fill every other slot
        granted = max(0, min(count, cap - self._used))
        self._used += granted
        return granted, (current + 1) * self.slot - now

    async def close(self) -> None:
        return None


class Budget:
    """Grants for one token's requests, foreground (acknowledgements) before background."""

    def __init__(
        self,
        store: SlotStore,
        *,
        cap: int | None = None,
        background_cap: int | None = None,
    ) -> None:
        self.store = store
        self.cap = cap if cap is not None else slot_cap()
        # At least one grant of every slot is kept for acknowledgements (when the cap allows).
        self.background_cap = background_cap if background_cap is not None else max(1, self.cap - 1)
        self._waiting: dict[bool, collections.deque[asyncio.Future[None]]] = {
            True: collections.deque(),
            False: collections.deque(),
        }
        self._arrived = asyncio.Event()  # a foreground request arrived while the pump slept
        self._pump: asyncio.Task[None] | None = None
        self.granted = 0

    async def acquire(self, *, foreground: bool = False) -> None:
        """Wait for a grant: a request may be sent now."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[foreground].append(future)
        if foreground:
            self._arrived.set()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run())
        await future

    def _queue(self, foreground: bool) -> collections.deque[asyncio.Future[None]]:
        queue = self._waiting[foreground]
        while queue and queue[0].done():  # cancelled while waiting
            queue.popleft()
        return queue

    async def _run(self) -> None:
        while True:
            foreground = bool(self._queue(True))
            queue = self._queue(foreground)
            if not queue:
                return
            self._arrived.clear()
            try:
                granted, wait = await self.store.take(
                    sum(1 for f in queue if not f.done()),
                    self.cap if foreground else self.background_cap,
                    full=self.cap,
                    foreground=foreground,
                )
            except Exception:  # the store is never supposed to raise: never strand a waiter
                log.exception("rate budget: the slot store failed")
                granted, wait = 0, SLOT_SECONDS
            while granted and queue:
                future = queue.popleft()
                if not future.done():
                    future.set_result(None)
                    self.granted += 1
                    granted -= 1
            if self._queue(foreground):
                # This slot is spent for that class. The wait ends early when an acknowledgement
                # arrives: the slot may still have a grant for it, or (several processes) the
                # next slot must be booked for it too.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._arrived.wait(), max(wait, 0.001))

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        for queue in self._waiting.values():
            while queue:
                future = queue.popleft()
                if not future.done():
                    future.set_result(None)  # closing: let them fail at the closed session
        await self.store.close()
