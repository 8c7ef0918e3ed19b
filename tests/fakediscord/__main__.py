"""Run the fake Discord as a script, with a small control API for driving it by hand.

    python -m tests.fakediscord [--port 8765] [--users alice,bob] [--shards N]
                                [--global-limit 50]

Then start the bot with the printed ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` (and
``DISCORD_TOKEN=fake``) and act as the users (JSON bodies, loopback only):

    POST /_control/dm        {"user": "alice", "content": "forward none"}
    POST /_control/slash     {"user": "alice", "path": "arena challenge",
                              "options": {"opponent": "bob", "hours": 0}}
    POST /_control/click     {"user": "bob", "message": <id>, "custom_id": "pbp:c:g-0001:accept"}
    POST /_control/fault     {"pattern": "^/channels/", "status": 429, "times": 3,
                              "retry_after": 1.0, "delay": 0, "global": false}
    POST /_control/gateway   {"action": "reconnect" | "invalid_session" | "drop"}
    GET  /_control/messages?channel=<id>     GET /_control/requests     GET /_control/state
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from aiohttp import web

from tests.fakediscord.server import DISCORD_GLOBAL_LIMIT, FakeDiscord


def control_routes(fake: FakeDiscord, names: dict[str, int]) -> web.Application:
    def user(value: Any) -> int:
        return names[value] if value in names else int(value)

    def options(raw: dict[str, Any]) -> dict[str, Any]:
        return {k: (names[v] if isinstance(v, str) and v in names else v) for k, v in raw.items()}

    async def dm(request: web.Request) -> web.Response:
        body = await request.json()
        message = fake.user_dm(user(body["user"]), body["content"])
        return web.json_response({"message": str(message.id)})

    async def slash(request: web.Request) -> web.Response:
        body = await request.json()
        record = fake.slash(
            user(body["user"]),
            int(body.get("channel", fake.default_channel_id)),
            body["path"],
            **options(body.get("options", {})),
        )
        await record.response()
        return web.json_response({"interaction": str(record.id), "text": record.text()})

    async def click(request: web.Request) -> web.Response:
        body = await request.json()
        record = fake.click(
            user(body["user"]), fake.messages[int(body["message"])], body["custom_id"]
        )
        await record.response()
        return web.json_response({"interaction": str(record.id), "text": record.text()})

    async def fault(request: web.Request) -> web.Response:
        body = await request.json()
        fake.fail(
            body["pattern"],
            method=body.get("method", "*"),
            status=body.get("status", 429),
            times=body.get("times", 1),
            retry_after=body.get("retry_after", 1.0),
            delay=body.get("delay", 0.0),
            global_=body.get("global", False),
        )
        return web.json_response({"faults": len(fake.faults)})

    async def gateway(request: web.Request) -> web.Response:
        action = (await request.json())["action"]
        if action == "reconnect":
            await fake.send_reconnect()
        elif action == "invalid_session":
            await fake.send_invalid_session(resumable=False)
        else:
            await fake.drop_connection()
        return web.json_response({"ok": True})

    async def messages(request: web.Request) -> web.Response:
        channel = int(request.query.get("channel", fake.default_channel_id))
        return web.json_response(
            [fake.message_payload(m) for m in fake.by_channel.get(channel, [])]
        )

    async def requests(request: web.Request) -> web.Response:
        return web.json_response(
            [
                {
                    "route": r.route,
                    "path": r.path,
                    "status": r.status,
                    "ms": 1000 * (r.finished - r.started),
                }
                for r in fake.requests
            ]
        )

    async def state(request: web.Request) -> web.Response:
        return web.json_response(
            {
                "users": {name: str(uid) for name, uid in names.items()},
                "channel": str(fake.default_channel_id),
                "dm_channels": {str(u): str(c) for u, c in fake.dm_channels.items()},
                "identifies": fake.identifies,
                "resumes": fake.resumes,
                "nonce_hits": fake.nonce_hits,
            }
        )

    app = web.Application()
    app.router.add_post("/dm", dm)
    app.router.add_post("/slash", slash)
    app.router.add_post("/click", click)
    app.router.add_post("/fault", fault)
    app.router.add_post("/gateway", gateway)
    app.router.add_get("/messages", messages)
    app.router.add_get("/requests", requests)
    app.router.add_get("/state", state)
    return app


async def main(args: argparse.Namespace) -> None:
    fake = FakeDiscord(shard_count=args.shards, global_limit=args.global_limit or None)
    names = {name: fake.add_user(name) for name in args.users.split(",") if name}
    original_app = fake.app

    def app_with_control() -> web.Application:
        app = original_app()
        app.add_subapp("/_control", control_routes(fake, names))
        return app

    fake.app = app_with_control  # type: ignore[method-assign]
    await fake.start(args.port)
    print(f"DISCORD_TOKEN=fake DISCORD_API_BASE={fake.api_base}")
    print(f"DISCORD_GATEWAY_URL={fake.gateway_url}")
    print(f"control: {fake.base_url}/_control/  users: {names}  channel: {fake.default_channel_id}")
    await asyncio.Event().wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--users", default="alice,bob")
    parser.add_argument("--shards", type=int, default=1, help="shards GET /gateway/bot names")
    parser.add_argument(
        "--global-limit",
        type=int,
        default=DISCORD_GLOBAL_LIMIT,
        help="requests per second per token, all processes together (0: unlimited)",
    )
    asyncio.run(main(parser.parse_args()))
