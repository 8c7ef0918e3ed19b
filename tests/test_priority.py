"""Foreground priority: background steps wait while an acknowledgement is served, never longer
than ``max_wait``, and never for the task's own served block."""

from __future__ import annotations

import asyncio

from bot.priority import Foreground


async def test_background_waits_until_the_acknowledgement_is_done() -> None:
    foreground = Foreground(max_wait=5.0)
    order: list[str] = []
    release = asyncio.Event()

    async def acknowledge() -> None:
        async with foreground.serving():
            await release.wait()
            order.append("ack")

    async def background() -> None:
        await foreground.yield_to()
        order.append("post")

    ack = asyncio.create_task(acknowledge())
    await asyncio.sleep(0)
    assert foreground.busy
    post = asyncio.create_task(background())
    await asyncio.sleep(0.01)
    assert order == []  # the post waits for the ack
    release.set()
    await asyncio.gather(ack, post)
    assert order == ["ack", "post"] and not foreground.busy


async def test_background_is_never_starved_beyond_max_wait() -> None:
    foreground = Foreground(max_wait=0.05)
    forever = asyncio.Event()

    async def endless() -> None:
        async with foreground.serving():
            await forever.wait()

    task = asyncio.create_task(endless())
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await foreground.yield_to()
    assert 0.04 <= loop.time() - started < 1.0
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert not foreground.busy  # a cancelled block is released too


async def test_a_served_block_does_not_wait_for_itself() -> None:
    foreground = Foreground(max_wait=5.0)
    loop = asyncio.get_running_loop()
    async with foreground.serving():
        started = loop.time()
        await foreground.yield_to()  # e.g. a resolution started inside the block
        assert loop.time() - started < 0.5


async def test_nothing_served_means_no_wait() -> None:
    foreground = Foreground(max_wait=5.0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await foreground.yield_to()
    assert loop.time() - started < 0.5
