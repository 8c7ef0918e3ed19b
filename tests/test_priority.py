"""Foreground priority: background steps wait while an acknowledgement is served, never longer
than ``max_wait``, and never for the task's own served block."""

from __future__ import annotations

import asyncio

from bot.priority import Foreground, in_foreground


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


async def test_a_task_started_inside_a_served_block_is_background() -> None:
    """asyncio copies the context into every task it creates: the outbox drain an order's
    handler wakes must not inherit the mark (its posts would then be paced as acknowledgements,
    ahead of the acknowledgements of later orders, and never step aside)."""
    foreground = Foreground(max_wait=5.0)
    seen: dict[str, bool] = {}

    async def woken() -> None:
        seen["child"] = in_foreground()

    async with foreground.serving():
        seen["served"] = in_foreground()
        await asyncio.create_task(woken())
        seen["still served"] = in_foreground()
    seen["after"] = in_foreground()
    assert seen == {"served": True, "child": False, "still served": True, "after": False}


async def test_a_task_started_inside_a_served_block_steps_aside_for_it() -> None:
    """Such a task (a drain woken by the order) waits for the block like any background step;
    the block's own task never does."""
    foreground = Foreground(max_wait=5.0)
    order: list[str] = []

    async def drain() -> None:
        await foreground.yield_to()
        order.append("post")

    async with foreground.serving():
        post = asyncio.create_task(drain())
        for _ in range(5):
            await asyncio.sleep(0)  # the drain runs up to its wait
        await foreground.yield_to()  # the served task itself: no wait
        order.append("ack")
    await post
    assert order == ["ack", "post"]


async def test_a_nested_block_is_part_of_the_same_reply() -> None:
    foreground = Foreground(max_wait=5.0)
    served: list[float] = []
    foreground.on_served = served.append
    async with foreground.serving():
        async with foreground.serving():
            assert in_foreground()
        assert in_foreground() and foreground.busy
    assert len(served) == 1 and not foreground.busy


def test_outside_a_running_loop_nothing_is_served() -> None:
    assert not in_foreground()
