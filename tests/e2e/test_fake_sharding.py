"""The fake Discord shards as Discord does (issue 21): ``GET /gateway/bot`` names the shard count,
each IDENTIFY's ``[shard_id, shard_count]`` opens that shard's session, a server's GUILD_CREATE
and interactions go to shard ``(guild_id >> 22) % shard_count``, DMs to shard 0, and the global
limit (50 requests per second per token, all processes together) answers 429 with
``X-RateLimit-Global`` beyond it, unless raised."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import DISCORD_GLOBAL_LIMIT

SHARDS = 3


class Shard:
    """A raw gateway client of one shard: everything dispatched to it, by event name."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            frame = json.loads(msg.data)
            if frame.get("op") == 0:
                self.events.append((frame["t"], frame["d"]))

    def of(self, event: str) -> list[dict[str, Any]]:
        return [d for t, d in self.events if t == event]


@pytest.fixture
async def sharded():
    fake = await FakeDiscord(shard_count=SHARDS).start()
    async with aiohttp.ClientSession() as http:
        yield fake, http
    await fake.stop()


async def connect(fake: FakeDiscord, http: aiohttp.ClientSession, shard: int) -> Shard:
    ws = await http.ws_connect(fake.gateway_url)
    hello = await ws.receive_json()
    assert hello["op"] == 10
    await ws.send_json(
        {"op": 2, "d": {"token": "fake", "intents": 0, "properties": {}, "shard": [shard, SHARDS]}}
    )
    client = Shard(ws)
    await asyncio.wait_for(fake.shard_ready[shard].wait(), 5)
    return client


async def settle() -> None:
    await asyncio.sleep(0.1)


async def test_servers_events_go_to_their_shard_and_dms_to_shard_zero(sharded) -> None:
    fake, http = sharded
    async with http.get(fake.api_base + "/gateway/bot") as response:
        assert (await response.json())["shards"] == SHARDS
    guilds = {shard: fake.add_guild(f"club-{shard}", shard=shard) for shard in range(SHARDS)}
    assert {shard: (g >> 22) % SHARDS for shard, g in guilds.items()} == {0: 0, 1: 1, 2: 2}
    alice = fake.add_user("alice")
    shards = [await connect(fake, http, n) for n in range(SHARDS)]
    await settle()
    for n, client in enumerate(shards):
        (ready,) = client.of("READY")
        assert ready["shard"] == [n, SHARDS]
        created = {int(g["id"]) for g in client.of("GUILD_CREATE")}
        assert guilds[n] in created
        assert all(fake.shard_of(g) == n for g in created), "only this shard's servers"
    fake.commands["game"] = {"id": "1", "name": "game", "options": []}
    channel = fake.channels_of(guilds[2])[0]
    fake.slash(alice, channel, "game")
    fake.user_dm(alice, "forward none")
    await settle()
    assert [len(c.of("INTERACTION_CREATE")) for c in shards] == [0, 0, 1]
    assert shards[2].of("INTERACTION_CREATE")[0]["guild_id"] == str(guilds[2])
    assert [len(c.of("MESSAGE_CREATE")) for c in shards] == [1, 0, 0], "a DM: shard 0"
    # A server added later arrives on its own shard only.
    late = fake.add_guild("late", shard=1)
    await settle()
    assert [late in {int(g["id"]) for g in c.of("GUILD_CREATE")} for c in shards] == [
        False,
        True,
        False,
    ]
    for client in shards:
        await client.ws.close()


async def test_an_identify_with_the_wrong_shard_count_is_refused(sharded) -> None:
    fake, http = sharded
    ws = await http.ws_connect(fake.gateway_url)
    await ws.receive_json()
    await ws.send_json({"op": 2, "d": {"token": "fake", "shard": [0, 1]}})
    closing = await ws.receive()
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 4011  # sharding required


@pytest.mark.parametrize("limit", [DISCORD_GLOBAL_LIMIT, 1000])
async def test_the_global_limit_is_shared_by_every_process_of_the_token(limit: int) -> None:
    fake = await FakeDiscord(global_limit=limit).start()
    try:
        # Two "processes" (sessions of their own), one token: 40 requests each within a second.
        async with aiohttp.ClientSession() as one, aiohttp.ClientSession() as two:

            async def burst(http: aiohttp.ClientSession) -> list[aiohttp.ClientResponse]:
                found = []
                for _ in range(40):
                    async with http.get(fake.api_base + "/users/@me") as response:
                        await response.read()
                        found.append(response)
                return found

            answers = [r for rs in await asyncio.gather(burst(one), burst(two)) for r in rs]
        limited = [r for r in answers if r.status == 429]
        if limit == DISCORD_GLOBAL_LIMIT:
            assert len(answers) - len(limited) == 50
            assert all(r.headers.get("X-RateLimit-Global") == "true" for r in limited)
            assert len(fake.global_violations) == 30
        else:
            assert limited == [] and fake.global_violations == []
    finally:
        await fake.stop()
