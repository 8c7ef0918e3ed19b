"""Player-facing replies first: background work steps aside while an order is being acknowledged.

asyncio runs ready callbacks in arrival order, so under load an order's acknowledgement (a dozen
hops between the event loop and the SQLite thread, then the reply's request) queues behind every
board post, progress edit and resolution that is in flight at the time. Those can wait a little;
the player who just sent an order is looking at their DMs. Background work calls
:meth:`Foreground.yield_to` before each step (each outbox message, each resolution), which waits
while any acknowledgement is being served, never longer than ``max_wait`` so it cannot starve.

The mark belongs to the task that entered the block, not to its context: asyncio copies a task's
context into every task it creates, so a task started inside a served block (the outbox drain an
order wakes, a resolution) would otherwise carry the mark for the rest of its life. A drain
woken by an acknowledgement then posted every board, prompt and edit as foreground, never
stepped aside, and queued the acknowledgements of every later order behind its posts under the
global limit: ``bench/load.py --games 300`` measured own acknowledgements waiting seconds (p50
1 s, p90 5 s) for a grant while background requests waited 11 ms.

Pure asyncio: no discord, no storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

# The task serving an acknowledgement, set inside its served block: that task's own background
# steps (a resolution it starts before it leaves the block) must not wait for itself. A task it
# creates inherits the variable but is another task: not served (module docstring).
_serving: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar(
    "serving", default=None
)


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop
        return None


def in_foreground() -> bool:
    """Whether the running task is serving an acknowledgement: its requests go first under
    Discord's global limit too (``bot.ratebudget``). Tasks it started are not."""
    owner = _serving.get()
    return owner is not None and owner is _current_task()


class Foreground:
    def __init__(self, max_wait: float = 0.25) -> None:
        self.max_wait = max_wait
        self._active = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Told each acknowledgement's seconds, from entering serving() to leaving it (set by
        # bot.metrics when METRICS_PORT is: the order-to-acknowledgement latency).
        self.on_served: Callable[[float], None] | None = None

    @property
    def busy(self) -> bool:
        return self._active > 0

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """Mark the block as an acknowledgement in progress."""
        outermost = not in_foreground()  # a block inside another is part of the same reply
        started = time.perf_counter()
        self._active += 1
        self._idle.clear()
        token = _serving.set(_current_task())
        try:
            yield
        finally:
            _serving.reset(token)
            self._active -= 1
            if not self._active:
                self._idle.set()
            if outermost and self.on_served is not None:
                self.on_served(time.perf_counter() - started)

    async def yield_to(self) -> None:
        """Wait while acknowledgements are being served (at most ``max_wait``)."""
        if not self._active or in_foreground():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), self.max_wait)
