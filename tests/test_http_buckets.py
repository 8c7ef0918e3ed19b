"""discord.py scans every rate-limit bucket each time it creates one; the bot sweeps them at most
once a minute instead (``bot.client.throttle_bucket_sweeps``), and still frees idle ones."""

from __future__ import annotations

import asyncio

import discord

from bot.client import throttle_bucket_sweeps


def idle_buckets(http: discord.http.HTTPClient, count: int, prefix: str) -> None:
    for i in range(count):
        bucket = discord.http.Ratelimit(None)
        bucket._last_request -= 600  # untouched for ten minutes: a sweep frees it
        http._buckets[f"{prefix}{i}"] = bucket


async def test_idle_buckets_are_swept_once_a_minute_not_on_every_new_bucket(monkeypatch) -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    clock = [1000.0]
    monkeypatch.setattr("bot.client.time.monotonic", lambda: clock[0])
    throttle_bucket_sweeps(http)

    idle_buckets(http, 300, "idle-a-")
    http.get_ratelimit("new-1")  # the first new bucket sweeps the idle ones
    assert list(http._buckets) == ["new-1"]

    idle_buckets(http, 300, "idle-b-")
    http.get_ratelimit("new-2")  # seconds later: no scan of all 300
    assert len(http._buckets) == 302

    clock[0] += 61
    http.get_ratelimit("new-3")  # a minute on: swept again
    assert sorted(http._buckets) == ["new-1", "new-2", "new-3"]
    await http.close()
