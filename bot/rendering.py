"""Boards rendered off the event loop, for the outbox: in a worker process (``python -m bot``) or
on a thread (in-process tests, the demo).

Apart from :mod:`bot.outbox` so that a worker process, which imports this module to run
:func:`render_board`, loads the rulesets and Pillow but not discord.py and the storage: a worker
starts once per bot process (and again after a crash), and discord.py alone was a third of its
start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import registry

log = logging.getLogger(__name__)


def render_board(ruleset: str, view: dict[str, Any], lang: str, names: dict[str, str]) -> bytes:
    """The board PNG of a view (the public one, or a seat's for its own DM)."""
    return registry.get(ruleset).presenter.render_board(view, lang, names)


def _render_process_init(parent: int) -> None:
    """In a render process: yield the CPU to the bot, and exit when the bot is gone."""
    # Rendering is throughput work and an order's acknowledgement is latency work: on a busy
    # machine every hop of the ack between the event loop and the SQLite thread waits for the
    # scheduler, and a renderer at the same priority takes a whole core's turn first.
    with contextlib.suppress(OSError):
        os.nice(10)
    # A SIGKILLed bot cannot shut its pool down. Its pid comes as an argument: a worker that
    # read its parent itself while still starting up could read init's, and never leave.

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BoardRenderer:
    """Renders boards off the event loop: in worker processes, or (``processes=0``) a thread.

    A thread keeps rendering off the loop but not off the GIL: a ~40 ms render holds it in 5 ms
    slices, and every hop between the loop and the SQLite thread waits for a slice. With several
    boards rendering at once an order's acknowledgement (some twenty hops) waited hundreds of
    milliseconds. A process has its own GIL.
    """

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        # Boards asked for and not drawn yet, and a callback told each one's seconds: what
        # bot.metrics reports (measured here, around the call: renderers import no metrics).
        self.pending = 0
        self.on_rendered: Callable[[float], None] | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes,
                # spawn: forking a process that runs threads (aiosqlite's) is unsafe.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_render_process_init,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def render(
        self, ruleset: str, view: dict[str, Any], lang: str, names: dict[str, str]
    ) -> bytes:
        self.pending += 1
        started = time.perf_counter()
        try:
            png = await self._render((ruleset, view, lang, names))
        finally:
            self.pending -= 1
        if self.on_rendered is not None:
            self.on_rendered(time.perf_counter() - started)
        return png

    async def _render(self, args: tuple[str, dict[str, Any], str, dict[str, str]]) -> bytes:
        if not self.processes:
            return await asyncio.to_thread(render_board, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), render_board, *args)
        except BrokenProcessPool:
            # A worker died (OOM-killed…): start a fresh pool and try once more.
            log.warning("board renderer process died; starting a new one")
            self.close()
            return await loop.run_in_executor(self._executor(), render_board, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
