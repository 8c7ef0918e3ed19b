"""Which requests the global budget serves first: an order's acknowledgement, sent by the task
that serves it, and nothing that task merely started. The outbox drain an order wakes posts
boards, prompts and edits for every game: paced as an acknowledgement it would queue the
acknowledgements of later orders behind its posts (``bench/load.py --games 300`` measured
seconds), so it is background, whoever woke it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.http import PacingTrace
from bot.outbox import OutboxSender
from bot.priority import Foreground, in_foreground
from bot.ratebudget import Budget, LocalSlots


class Recording(Budget):
    """A budget that grants at once and remembers each request's class."""

    def __init__(self) -> None:
        super().__init__(LocalSlots())
        self.classes: list[bool] = []

    async def acquire(self, *, foreground: bool = False) -> None:
        self.classes.append(foreground)


def request(path: str) -> Any:
    return SimpleNamespace(url=discord.http.Route.BASE + path, headers={"Authorization": "Bot t"})


async def send(trace: PacingTrace, path: str) -> None:
    await trace._before_request(cast(Any, None), SimpleNamespace(), request(path))


async def test_only_the_serving_task_is_paced_as_an_acknowledgement() -> None:
    foreground = Foreground(max_wait=5.0)
    budget = Recording()
    trace = PacingTrace(lambda _token: budget)

    async def drain() -> None:  # woken by the order, posting the step's board
        await send(trace, "/channels/1/messages")

    await send(trace, "/channels/1/messages")  # a background post
    async with foreground.serving():
        woken = asyncio.create_task(drain())
        await send(trace, "/channels/2/messages")  # the acknowledgement
    await woken
    assert budget.classes == [False, True, False]


async def test_the_drain_an_acknowledgement_wakes_is_background() -> None:
    foreground = Foreground(max_wait=5.0)
    sender = OutboxSender(cast(Any, SimpleNamespace()), cast(Any, None), cast(Any, object()))
    seen: list[bool] = []

    async def drain() -> int:
        seen.append(in_foreground())
        await foreground.yield_to()  # steps aside for the acknowledgement that woke it
        seen.append(foreground.busy)
        return 0

    sender.drain = drain  # type: ignore[method-assign]
    async with foreground.serving():
        sender.wake()
        for _ in range(5):
            await asyncio.sleep(0)  # the drain runs up to its wait
    await sender.idle()
    assert seen == [False, False]
