"""The fake Discord: enough REST and gateway for discord.py 2.7 and the referee bot, on loopback.

What it does, as Discord does it:

- REST under ``/api/v10``: ``users/@me``, ``applications/@me``, ``gateway`` and ``gateway/bot``,
  command sync (``PUT /applications/{app}/commands`` and the guild variant), channels and messages
  (JSON or multipart with files, ``PATCH`` edits, nonces with ``enforce_nonce`` returning the
  first message again), DM channels (``POST /users/@me/channels``), interaction callbacks
  (``?with_response=1``), follow-ups and ``@original`` through the webhook routes, ``GET`` of a
  channel, a user, a message. Per-channel buckets (5 messages per 5 s) with Discord's
  ``X-RateLimit-*`` headers; a request over the limit gets a real 429 and is counted as a
  violation. Interaction callbacks later than 3 s get ``404 Unknown interaction`` (10062).
- The gateway websocket (JSON text frames): HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats and
  ACKs, RESUME → replay of the events missed + RESUMED (or INVALID_SESSION when the session is
  gone), RECONNECT and INVALID_SESSION sent on demand, the socket dropped on demand.
- Sharding, as Discord does it: ``GET /gateway/bot`` names ``shard_count`` shards; IDENTIFY
  carries ``[shard_id, shard_count]`` and each shard is a session of its own; a server
  (``add_guild``) belongs to shard ``(guild_id >> 22) % shard_count``: its GUILD_CREATE, its
  interactions and the echo of messages in its channels go there; DMs go to shard 0.
- Discord's global limit: ``global_limit`` requests per second per bot token (Discord's is
  ``DISCORD_GLOBAL_LIMIT``, 50, what the command line and the sharded benchmarks use; a large
  bot's is raised, and so is this one's by the argument; None, the constructor's default, keeps
  the older tests' unlimited fake), shared by every process using the token. Beyond it: 429 with
  ``X-RateLimit-Global`` (counted in ``global_violations``). Interaction callbacks and
  follow-ups are exempt, as on Discord.
- Injection: a user's DM (MESSAGE_CREATE), a slash command or a button click (INTERACTION_CREATE).
- Faults on demand: 429 with ``Retry-After`` (route or global), 5xx, slow answers, per route
  pattern, for N requests or until cleared.
- Records every request (method, route, status, timings) and every message (with its nonce and
  files' digests), so a test can count what the bot posted.

It binds to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
INTERACTION_DEADLINE = 3.0  # seconds to the first callback
DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot token
# The permissions @everyone has in the fake guild: view, send, embed, attach, read history, etc.
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


@dataclass
class Recorded:
    """One request the bot made."""

    method: str
    path: str
    route: str  # the path with ids replaced: "POST /channels/{}/messages"
    status: int
    started: float  # time.monotonic()
    finished: float
    injected: bool = False  # the status came from a Fault


@dataclass
class Fault:
    """Answer matching requests with ``status`` (or slowly), ``times`` times (None: always)."""

    method: str
    pattern: re.Pattern[str]
    status: int | None = 429  # None: a normal answer, only delayed
    times: int | None = 1
    retry_after: float = 1.0
    delay: float = 0.0
    global_: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method)) and bool(self.pattern.search(path))


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # (filename, sha256)
    nonce: str | None = None
    flags: int = 0
    reference_id: int | None = None
    interaction_id: int | None = None
    created: float = field(default_factory=time.monotonic)
    created_wall: float = field(default_factory=time.time)
    edits: int = 0
    edited_wall: float | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[tuple[str, str, bool]]:
        """(custom_id, label, disabled) of every button."""
        found = []
        for row in self.components:
            for item in row.get("components", []):
                if item.get("custom_id"):
                    found.append(
                        (item["custom_id"], item.get("label") or "", bool(item.get("disabled")))
                    )
        return found


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    created: float
    message_id: int | None = None
    responses: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)  # the response and follow-ups
    late: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    async def response(self, timeout: float = 10.0) -> tuple[int, dict[str, Any]]:
        await asyncio.wait_for(self.answered.wait(), timeout)
        return self.responses[0]

    def text(self) -> str:
        """Everything the user was shown: response and follow-up contents."""
        return "\n".join(m.content for m in self.messages)


@dataclass
class Session:
    id: str
    user_id: int
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    queue: asyncio.Queue[str] | None = None  # frames for the connected socket, in order
    valid: bool = True
    shard: int = 0


class FakeDiscord:
    def __init__(
        self,
        *,
        heartbeat_interval_ms: int = 41250,
        rate_limits: dict[str, tuple[int, float]] | None = None,
        echo_messages: bool = True,
        keep_buffer: int = 5000,
        id_start: int | None = None,
        shard_count: int = 1,
        global_limit: int | None = None,
    ) -> None:
        self.shard_count = shard_count
        self.global_limit = global_limit
        self._global_window: deque[float] = deque()
        self.global_violations: list[Recorded] = []
        # ``id_start``: ids are id_start + 1, + 2 … (two runs that set up the same users and
        # channels in the same order get the same ids, so their stored payloads compare equal).
        self._id_start = id_start
        self._last_id = id_start or 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        # Route → (limit, seconds), bucketed per major parameter (the channel).
        self.rate_limits = (
            rate_limits
            if rate_limits is not None
            else {
                "POST /channels/{}/messages": (5, 5.0),
                "PATCH /channels/{}/messages/{}": (5, 5.0),
            }
        )
        self.echo_messages = echo_messages
        self.keep_buffer = keep_buffer
        self.bot_id = self.snowflake()
        self.users: dict[int, dict[str, Any]] = {}
        self.users[self.bot_id] = self._user_payload(self.bot_id, "Referee", bot=True)
        self.guild_id = self.snowflake()
        self.guild_name = "Fake Arena Club"
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}  # id -> name
        self.members: dict[int, str] = {self.bot_id: iso(time.time())}
        self.channels: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, Message] = {}
        self.by_channel: dict[int, list[Message]] = defaultdict(list)
        self.nonces: dict[tuple[int, int, str], Message] = {}
        self.nonce_hits = 0
        self.commands: dict[str, dict[str, Any]] = {}  # global, by name
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.requests: list[Recorded] = []
        self.faults: list[Fault] = []
        self.violations: list[Recorded] = []  # 429s the bot earned by exceeding a bucket
        self._buckets: dict[tuple[str, str], list[float]] = {}
        self._global_block_until = 0.0
        self.sessions: dict[str, Session] = {}
        self.shard_sessions: dict[int, Session] = {}  # the live session of each shard
        self.shard_ready: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.identified: list[tuple[int, int]] = []  # the [shard_id, shard_count] of IDENTIFYs
        # (shard, event, channel id) of every dispatch that reached a session
        self.dispatch_log: list[tuple[int, str, int | None]] = []
        self.identifies = 0
        self.resumes = 0
        self.connects = 0
        self.heartbeats = 0
        # An outage (gateway_outage): every new gateway connection is refused until it ends.
        self.gateway_refused = False
        self.refused_connects = 0
        self.ready = asyncio.Event()
        self._listeners: list[Callable[[Message], None]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.default_channel_id = self.add_channel("duels")

    # --- ids, users, channels --------------------------------------------------------------------

    def snowflake(self) -> int:
        if self._id_start is not None:
            self._last_id += 1
            return self._last_id
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, now)
        return self._last_id

    @staticmethod
    def _user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(user_id),
            "username": name,
            "discriminator": "0",
            "global_name": name,
            "avatar": None,
            "bot": bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
        }

    def add_user(self, name: str, *, member: bool = True) -> int:
        user_id = self.snowflake()
        self.users[user_id] = self._user_payload(user_id, name)
        if member:
            self.members[user_id] = iso(time.time())
        return user_id

    def shard_of(self, guild_id: int | None) -> int:
        """The shard a server's events go to (Discord's formula); DMs (None) go to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def channel_shard(self, channel_id: int) -> int:
        guild = self.channels.get(channel_id, {}).get("guild_id")
        return self.shard_of(int(guild) if guild else None)

    def add_guild(self, name: str, *, shard: int | None = None) -> int:
        """Another server, with a channel of its own (``channels_of(guild)[0]``). ``shard``:
        an id that Discord's formula puts on that shard (ids step by 2**22 until it does)."""
        guild_id = self.snowflake()
        if shard is not None:
            while self.shard_of(guild_id) != shard:
                guild_id += 1 << 22
            self._last_id = guild_id
        self.guilds[guild_id] = name
        self.add_channel(f"{name}-games", guild_id=guild_id)
        session = self.shard_sessions.get(self.shard_of(guild_id))
        if session is not None and session.valid:
            self._send(session, {"op": 0, "t": "GUILD_CREATE", "d": self.guild_payload(guild_id)})
        return guild_id

    def channels_of(self, guild_id: int) -> list[int]:
        return [c for c, data in self.channels.items() if data.get("guild_id") == str(guild_id)]

    def add_channel(self, name: str, *, guild_id: int | None = None) -> int:
        channel_id = self.snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id or self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        return channel_id

    def dm_channel(self, user_id: int) -> int:
        if user_id not in self.dm_channels:
            channel_id = self.snowflake()
            self.dm_channels[user_id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.users[user_id]],
                "flags": 0,
            }
        return self.dm_channels[user_id]

    def member_payload(self, user_id: int, *, with_user: bool = True) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [],
            "nick": None,
            "joined_at": self.members.get(user_id, iso(time.time())),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "avatar": None,
        }
        if with_user:
            payload["user"] = self.users[user_id]
        return payload

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "owner_id": str(next(iter(self.members))),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "member_count": len(self.members),
            "large": len(self.members) > 250,
            "unavailable": False,
            "joined_at": iso(time.time()),
            "members": [self.member_payload(uid) for uid in self.members],
            "channels": [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_progress_bar_enabled": False,
        }

    def message_payload(self, message: Message) -> dict[str, Any]:
        channel = self.channels.get(message.channel_id, {})
        payload: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": self.users[message.author_id],
            "content": message.content,
            "timestamp": iso(message.created_wall),
            "edited_timestamp": iso(message.edited_wall) if message.edited_wall else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": message.attachments,
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": 19 if message.reference_id else 0,
            "flags": message.flags,
            "nonce": message.nonce,
        }
        if channel.get("guild_id"):
            payload["guild_id"] = channel["guild_id"]
        if message.reference_id:
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(message.reference_id),
                "channel_id": str(message.channel_id),
            }
        return payload

    # --- queries for tests ---------------------------------------------------------------------

    def posted(self, channel_id: int, *, by_bot: bool = True) -> list[Message]:
        return [
            m
            for m in self.by_channel.get(channel_id, [])
            if (m.author_id == self.bot_id) == by_bot and not m.ephemeral
        ]

    def dms_to(self, user_id: int) -> list[Message]:
        channel = self.dm_channels.get(user_id)
        return self.posted(channel) if channel else []

    def count(self, route: str, *, status: int | None = None) -> int:
        return sum(
            1 for r in self.requests if r.route == route and (status is None or r.status == status)
        )

    def on_message(self, listener: Callable[[Message], None]) -> None:
        """Call ``listener`` with every message the bot creates (not with deduplicated retries)."""
        self._listeners.append(listener)

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 15.0, interval: float = 0.02
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError("condition not met in time")
            await asyncio.sleep(interval)

    # --- faults --------------------------------------------------------------------------------

    def fail(
        self,
        pattern: str,
        *,
        method: str = "*",
        status: int | None = 429,
        times: int | None = 1,
        retry_after: float = 1.0,
        delay: float = 0.0,
        global_: bool = False,
    ) -> Fault:
        """Answer requests whose path (after /api/v10) matches ``pattern`` with a fault."""
        fault = Fault(
            method, re.compile(pattern), status, times, retry_after, delay, global_=global_
        )
        self.faults.append(fault)
        return fault

    def slow(
        self, pattern: str, delay: float, *, method: str = "*", times: int | None = 1
    ) -> Fault:
        return self.fail(pattern, method=method, status=None, times=times, delay=delay)

    def clear_faults(self) -> None:
        self.faults.clear()

    def _fault_for(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path) and (fault.times is None or fault.hits < fault.times):
                fault.hits += 1
                return fault
        return None

    @staticmethod
    def _rate_limited(retry_after: float, *, global_: bool, scope: str) -> web.Response:
        headers = {
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
        }
        if global_:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after}
        body["global"] = global_
        return _json(body, status=429, headers=headers)

    # --- the HTTP app ----------------------------------------------------------------------------

    def _routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Any]]]:
        table = [
            ("GET", r"/users/@me", self.get_me),
            ("GET", r"/applications/@me", self.get_application),
            ("GET", r"/oauth2/applications/@me", self.get_application),
            ("GET", r"/gateway/bot", self.get_gateway_bot),
            ("GET", r"/gateway", self.get_gateway),
            ("PUT", r"/applications/(\d+)/commands", self.put_commands),
            ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands", self.put_guild_commands),
            ("GET", r"/applications/(\d+)/commands", self.get_commands),
            ("POST", r"/users/@me/channels", self.create_dm),
            ("GET", r"/users/(\d+)", self.get_user),
            ("GET", r"/channels/(\d+)", self.get_channel),
            ("POST", r"/channels/(\d+)/messages", self.create_message),
            ("GET", r"/channels/(\d+)/messages/(\d+)", self.get_message),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self.edit_message),
            ("POST", r"/channels/(\d+)/typing", self.typing),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self.interaction_callback),
            ("POST", r"/webhooks/(\d+)/([^/]+)", self.followup),
            ("GET", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.get_webhook_message),
            ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.edit_webhook),
            ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self.delete_webhook),
        ]
        return [(m, re.compile(p + r"\Z"), h) for m, p, h in table]

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self._table = self._routes()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest)
        return app

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """What the bot process needs to talk to this fake (and the token's global limit, as
        Discord tells a large bot the limit it raised)."""
        env = {
            "DISCORD_TOKEN": "fake",
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }
        if self.global_limit is not None:
            env["DISCORD_GLOBAL_LIMIT"] = str(self.global_limit)
        return env

    async def start(self, port: int = 0) -> FakeDiscord:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @staticmethod
    def route_name(method: str, path: str) -> str:
        path = re.sub(r"/\d{5,}", "/{}", path)
        path = re.sub(r"^/(interactions|webhooks)/\{\}/[^/]+", r"/\1/{}/{token}", path)
        return f"{method} {path}"

    async def rest(self, request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        path = "/" + request.match_info["tail"]
        method = request.method
        route = self.route_name(method, path)
        injected = False
        response: web.StreamResponse
        limited = self._over_global_limit(path, started)
        if limited is not None:
            self.requests.append(Recorded(method, path, route, 429, started, started))
            self.global_violations.append(self.requests[-1])
            return limited
        fault = self._fault_for(method, path)
        if fault is not None and fault.delay:
            await asyncio.sleep(fault.delay)
        if fault is not None and fault.status is not None:
            injected = True
            if fault.status == 429:
                if fault.global_:
                    self._global_block_until = time.monotonic() + fault.retry_after
                response = self._rate_limited(
                    fault.retry_after,
                    global_=fault.global_,
                    scope="global" if fault.global_ else "user",
                )
            else:
                response = _json(
                    {"message": "Internal Server Error", "code": 0}, status=fault.status
                )
        else:
            response = await self._dispatch(request, method, path, route)
        self.requests.append(
            Recorded(method, path, route, response.status, started, time.monotonic(), injected)
        )
        return response

    def _over_global_limit(self, path: str, now: float) -> web.Response | None:
        """Discord's global limit: ``global_limit`` requests in any second, per bot token (all
        the bot's processes together: they share the token). Interactions are exempt."""
        if self.global_limit is None or path.startswith(("/interactions/", "/webhooks/")):
            return None
        window = self._global_window
        while window and now - window[0] >= 1.0:
            window.popleft()
        if len(window) >= self.global_limit:
            return self._rate_limited(1.0 - (now - window[0]), global_=True, scope="global")
        window.append(now)
        return None

    async def _dispatch(
        self, request: web.Request, method: str, path: str, route: str
    ) -> web.StreamResponse:
        limit = self.rate_limits.get(route)
        bucket_headers: dict[str, str] = {}
        if limit is not None:
            major = re.findall(r"\d{5,}", path)[:1]
            key = (route, major[0] if major else "")
            count, per = limit
            now = time.monotonic()
            window = [t for t in self._buckets.get(key, []) if now - t < per]
            if len(window) >= count:
                retry = per - (now - window[0])
                self._buckets[key] = window
                self.violations.append(Recorded(method, path, route, 429, now, now))
                return self._rate_limited(retry, global_=False, scope="user")
            window.append(now)
            self._buckets[key] = window
            reset_after = per - (now - window[0])
            bucket_headers = {
                "X-RateLimit-Limit": str(count),
                "X-RateLimit-Remaining": str(count - len(window)),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
            }
        for m, pattern, handler in self._table:
            if m != method:
                continue
            match = pattern.match(path)
            if match:
                try:
                    response = await handler(request, *match.groups())
                except web.HTTPException:
                    raise
                except _ApiError as exc:
                    response = _json({"message": exc.message, "code": exc.code}, status=exc.status)
                response.headers.update(bucket_headers)
                return response
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    # --- REST handlers -------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return _json(self.users[self.bot_id])

    async def get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.bot_id),
                "name": "Referee",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.users[self.bot_id],
                "flags": 0,
                "team": None,
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _store_commands(self, body: list[dict[str, Any]], guild_id: int | None) -> list[dict]:
        stored = []
        for command in body:
            existing = (
                self.commands if guild_id is None else self.guild_commands.get(guild_id, {})
            ).get(command["name"])
            full = {
                **command,
                "id": existing["id"] if existing else str(self.snowflake()),
                "application_id": str(self.bot_id),
                "version": str(self.snowflake()),
                "type": command.get("type", 1),
                "default_member_permissions": command.get("default_member_permissions"),
                "dm_permission": command.get("dm_permission", True),
                "nsfw": command.get("nsfw", False),
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        return stored

    async def put_commands(self, request: web.Request, app_id: str) -> web.Response:
        stored = self._store_commands(await request.json(), None)
        self.commands = {c["name"]: c for c in stored}
        return _json(stored)

    async def put_guild_commands(
        self, request: web.Request, app_id: str, guild_id: str
    ) -> web.Response:
        stored = self._store_commands(await request.json(), int(guild_id))
        self.guild_commands[int(guild_id)] = {c["name"]: c for c in stored}
        return _json(stored)

    async def get_commands(self, request: web.Request, app_id: str) -> web.Response:
        return _json(list(self.commands.values()))

    async def create_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user_id = int(body["recipient_id"])
        if user_id not in self.users:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return _json(self.channels[self.dm_channel(user_id)])

    async def get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return _json(user)

    async def get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return _json(channel)

    async def typing(self, request: web.Request, channel_id: str) -> web.Response:
        return web.Response(status=204)

    async def _read_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]``."""
        if request.content_type.startswith("multipart/"):
            body: dict[str, Any] = {}
            files: list[tuple[str, bytes]] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(data)
                elif part.filename:  # type: ignore[union-attr]
                    files.append((part.filename, bytes(data)))  # type: ignore[union-attr]
            return body, files
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    def _attachments(
        self, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> list[dict[str, Any]]:
        """The message's attachments as Discord returns them: ``files[n]`` with the metadata
        ``payload_json`` gives it under ``attachments`` (``id`` n), such as its description."""
        meta = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
        attachments = []
        for index, (filename, data) in enumerate(files):
            attachment = {
                "id": str(self.snowflake()),
                "filename": filename,
                "size": len(data),
                "url": f"{self.base_url}/attachments/{filename}",
                "proxy_url": f"{self.base_url}/attachments/{filename}",
                "content_type": "image/png" if filename.endswith(".png") else None,
            }
            description = meta.get(str(index), {}).get("description")
            if description is not None:
                attachment["description"] = description
            attachments.append(attachment)
        return attachments

    def _new_message(
        self,
        channel_id: int,
        author_id: int,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        interaction_id: int | None = None,
    ) -> Message:
        attachments = self._attachments(body, files)
        digests = [(filename, hashlib.sha256(data).hexdigest()) for filename, data in files]
        reference = body.get("message_reference") or {}
        message = Message(
            id=self.snowflake(),
            channel_id=channel_id,
            author_id=author_id,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=attachments,
            files=digests,
            nonce=body.get("nonce"),
            flags=int(body.get("flags") or 0),
            reference_id=int(reference["message_id"]) if reference.get("message_id") else None,
            interaction_id=interaction_id,
        )
        self.messages[message.id] = message
        self.by_channel[channel_id].append(message)
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(message.id)
        return message

    def _announce(self, message: Message) -> None:
        for listener in self._listeners:
            listener(message)
        if self.echo_messages and not message.ephemeral:
            self.dispatch(
                "MESSAGE_CREATE",
                self.message_payload(message),
                shard=self.channel_shard(message.channel_id),
            )

    async def create_message(self, request: web.Request, channel_id: str) -> web.Response:
        channel = int(channel_id)
        if channel not in self.channels:
            raise _ApiError(404, 10003, "Unknown Channel")
        body, files = await self._read_body(request)
        if not (body.get("content") or body.get("embeds") or files or body.get("components")):
            raise _ApiError(400, 50006, "Cannot send an empty message")
        if len(body.get("content") or "") > 2000:
            raise _ApiError(400, 50035, "Invalid Form Body: content too long")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            key = (channel, self.bot_id, str(nonce))
            if key in self.nonces:  # (shared by every process of the bot: one token)
                # What Discord does: the message created earlier with this nonce, not a new one.
                self.nonce_hits += 1
                return _json(self.message_payload(self.nonces[key]))
        message = self._new_message(channel, self.bot_id, body, files)
        if nonce is not None and body.get("enforce_nonce"):
            self.nonces[(channel, self.bot_id, str(nonce))] = message
        self._announce(message)
        return _json(self.message_payload(message))

    def _message(self, channel_id: str, message_id: str) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.channel_id != int(channel_id):
            raise _ApiError(404, 10008, "Unknown Message")
        return message

    async def get_message(self, request: web.Request, channel_id: str, message_id: str):
        return _json(self.message_payload(self._message(channel_id, message_id)))

    def _apply_edit(self, message: Message, body: dict[str, Any], files: list) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = body["components"] or []
        if files:
            message.files = [(n, hashlib.sha256(d).hexdigest()) for n, d in files]
            message.attachments = self._attachments(body, files)
        message.edits += 1
        message.edited_wall = time.time()

    async def edit_message(self, request: web.Request, channel_id: str, message_id: str):
        message = self._message(channel_id, message_id)
        if message.author_id != self.bot_id:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._apply_edit(message, body, files)
        if self.echo_messages:
            self.dispatch(
                "MESSAGE_UPDATE",
                self.message_payload(message),
                shard=self.channel_shard(message.channel_id),
            )
        return _json(self.message_payload(message))

    # --- interactions --------------------------------------------------------------------------

    def _interaction(self, interaction_id: str | None, token: str) -> Interaction:
        found = self.interactions_by_token.get(token)
        if found is None or (interaction_id is not None and found.id != int(interaction_id)):
            raise _ApiError(404, 10062, "Unknown interaction")
        return found

    async def interaction_callback(self, request: web.Request, interaction_id: str, token: str):
        record = self._interaction(interaction_id, token)
        if record.responses:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - record.created > INTERACTION_DEADLINE:
            record.late = True
            raise _ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        record.responses.append((kind, data))
        record.answered.set()
        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind == 4:
            message = self._new_message(
                record.channel_id, self.bot_id, data, files, interaction_id=record.id
            )
            record.messages.append(message)
            self._announce(message)
        elif kind == 5:
            message = self._new_message(
                record.channel_id,
                self.bot_id,
                {"content": "", "flags": int(data.get("flags") or 0)},
                [],
                interaction_id=record.id,
            )
            record.messages.append(message)
        elif kind == 7 and record.message_id is not None:
            message = self.messages[record.message_id]
            self._apply_edit(message, data, files)
        if message is not None:
            resource["message"] = self.message_payload(message)
        return _json(
            {
                "interaction": {
                    "id": str(record.id),
                    "type": record.type,
                    "activity_instance_id": None,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(message and message.ephemeral),
                },
                "resource": resource,
            }
        )

    def _webhook_message(self, record: Interaction, which: str) -> Message:
        if which == "@original":
            if not record.messages:
                raise _ApiError(404, 10008, "Unknown Message")
            return record.messages[0]
        message = self.messages.get(int(which))
        if message is None:
            raise _ApiError(404, 10008, "Unknown Message")
        return message

    async def followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        record = self._interaction(None, token)
        body, files = await self._read_body(request)
        message = self._new_message(
            record.channel_id, self.bot_id, body, files, interaction_id=record.id
        )
        record.messages.append(message)
        self._announce(message)
        return _json(self.message_payload(message))

    async def get_webhook_message(self, request: web.Request, app_id: str, token: str, which: str):
        record = self._interaction(None, token)
        return _json(self.message_payload(self._webhook_message(record, which)))

    async def edit_webhook(self, request: web.Request, app_id: str, token: str, which: str):
        record = self._interaction(None, token)
        message = self._webhook_message(record, which)
        body, files = await self._read_body(request)
        self._apply_edit(message, body, files)
        return _json(self.message_payload(message))

    async def delete_webhook(self, request: web.Request, app_id: str, token: str, which: str):
        record = self._interaction(None, token)
        message = self._webhook_message(record, which)
        self.by_channel[message.channel_id].remove(message)
        return web.Response(status=204)

    # --- the gateway ---------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self.gateway_refused:
            # Discord's gateway unreachable: the upgrade fails and the client backs off.
            self.refused_connects += 1
            raise web.HTTPServiceUnavailable()
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.connects += 1
        session: Session | None = None
        queue: asyncio.Queue[str] = asyncio.Queue()
        writer = asyncio.create_task(self._writer(ws, queue))
        queue.put_nowait(
            json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    self.heartbeats += 1
                    queue.put_nowait(json.dumps({"op": 11}))
                elif op == 2:
                    session = self._identify(ws, queue, frame["d"])
                elif op == 6:
                    session = self._resume(ws, queue, frame["d"])
        finally:
            writer.cancel()
            if session is not None and session.ws is ws:
                session.ws = session.queue = None
        return ws

    @staticmethod
    async def _writer(ws: web.WebSocketResponse, queue: asyncio.Queue[str]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not ws.closed:
                await ws.send_str(await queue.get())

    def _identify(
        self, ws: web.WebSocketResponse, queue: asyncio.Queue[str], data: dict[str, Any]
    ) -> Session:
        self.identifies += 1
        shard_id, shard_count = data.get("shard") or (0, 1)
        self.identified.append((shard_id, shard_count))
        if shard_count != self.shard_count or not 0 <= shard_id < shard_count:
            # Discord: 4010 Invalid shard / 4011 Sharding required.
            asyncio.get_running_loop().create_task(
                ws.close(code=4011 if shard_count < self.shard_count else 4010)
            )
            return Session("", self.bot_id, valid=False)
        old = self.shard_sessions.get(shard_id)
        if old is not None:
            old.valid = False
        session = Session(secrets.token_hex(16), self.bot_id, ws=ws, queue=queue)
        session.shard = shard_id
        self.sessions[session.id] = session
        self.shard_sessions[shard_id] = session
        guilds = [g for g in self.guilds if self.shard_of(g) == shard_id]
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.users[self.bot_id],
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.bot_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": [],
            },
            shard=shard_id,
        )
        for guild_id in guilds:
            self.dispatch("GUILD_CREATE", self.guild_payload(guild_id), shard=shard_id)
        self.ready.set()
        self.shard_ready[shard_id].set()
        return session

    def _resume(
        self, ws: web.WebSocketResponse, queue: asyncio.Queue[str], data: dict[str, Any]
    ) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not session.valid:
            queue.put_nowait(json.dumps({"op": 9, "d": False}))
            return None
        self.resumes += 1
        session.ws, session.queue = ws, queue
        self.shard_sessions[session.shard] = session
        since = data.get("seq") or 0
        for frame in session.buffer:
            if frame["s"] > since:
                queue.put_nowait(json.dumps(frame))
        self._send(session, {"op": 0, "t": "RESUMED", "d": {}})
        self.ready.set()
        self.shard_ready[session.shard].set()
        return session

    def _send(self, session: Session, frame: dict[str, Any]) -> None:
        if frame.get("op") == 0:
            session.seq += 1
            frame["s"] = session.seq
            session.buffer.append(frame)
            if len(session.buffer) > self.keep_buffer:
                del session.buffer[: len(session.buffer) - self.keep_buffer]
        if session.queue is not None:
            session.queue.put_nowait(json.dumps(frame))

    @property
    def current(self) -> Session | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        return self.shard_sessions.get(0)

    def dispatch(self, event: str, data: dict[str, Any], *, shard: int = 0) -> None:
        """Send a DISPATCH to the session of ``shard`` (buffered for a RESUME if it is
        disconnected; dropped, as Discord drops it, when no session of that shard is valid)."""
        session = self.shard_sessions.get(shard)
        if session is None or not session.valid:
            return
        channel = data.get("channel_id")
        self.dispatch_log.append((shard, event, int(channel) if channel else None))
        self._send(session, {"op": 0, "t": event, "d": data})

    async def wait_ready(self, timeout: float = 30.0) -> None:
        await asyncio.wait_for(self.ready.wait(), timeout)

    def bot_gone(self, shards: Iterable[int] | None = None) -> None:
        """The bot process (running ``shards``; None: every shard) died: its sessions cannot be
        resumed and nothing is connected for them."""
        for shard in list(self.shard_sessions) if shards is None else list(shards):
            session = self.shard_sessions.pop(shard, None)
            if session is not None:
                session.valid = False
                session.ws = session.queue = None
            self.shard_ready[shard].clear()
        if not self.shard_sessions:
            self.ready.clear()

    async def send_reconnect(self, shard: int = 0) -> None:
        """OP 7: the bot must close and RESUME."""
        session = self.shard_sessions.get(shard)
        if session is not None and session.queue is not None:
            session.queue.put_nowait(json.dumps({"op": 7, "d": None}))

    async def send_invalid_session(self, resumable: bool = False, shard: int = 0) -> None:
        """OP 9: resumable False forgets the session; the bot must IDENTIFY again."""
        session = self.shard_sessions.get(shard)
        if session is None or session.queue is None:
            return
        if not resumable:
            session.valid = False
            self.ready.clear()
            self.shard_ready[shard].clear()
        session.queue.put_nowait(json.dumps({"op": 9, "d": resumable}))

    async def drop_connection(self, code: int = 4000, shard: int = 0) -> None:
        """Close the socket from our side (a network blip): the bot should RESUME."""
        session = self.shard_sessions.get(shard)
        if session is not None and session.ws is not None:
            ws, session.ws, session.queue = session.ws, None, None
            await ws.close(code=code)

    async def gateway_outage(self, shard: int = 0) -> None:
        """The gateway goes away: the shard's socket drops and every new connection is refused
        until :meth:`gateway_back` (the session stays resumable, as after a short outage)."""
        self.gateway_refused = True
        await self.drop_connection(shard=shard)

    def gateway_back(self) -> None:
        """The outage is over: the bot's next attempt connects (and RESUMEs)."""
        self.gateway_refused = False

    # --- injection: what users do ----------------------------------------------------------------

    def user_dm(self, user_id: int, content: str) -> Message:
        """A user writes to the bot by DM: MESSAGE_CREATE in the DM channel."""
        channel = self.dm_channel(user_id)
        message = Message(
            id=self.snowflake(), channel_id=channel, author_id=user_id, content=content
        )
        self.messages[message.id] = message
        self.by_channel[channel].append(message)
        payload = self.message_payload(message)
        self.dispatch("MESSAGE_CREATE", payload, shard=0)  # DMs: shard 0, always
        return message

    def replies_to(self, message: Message) -> list[Message]:
        return [
            m
            for m in self.by_channel.get(message.channel_id, [])
            if m.reference_id == message.id and m.author_id == self.bot_id
        ]

    def _new_interaction(
        self, kind: int, user_id: int, channel_id: int, data: dict[str, Any], **extra: Any
    ) -> Interaction:
        record = Interaction(
            id=self.snowflake(),
            token="tok-" + secrets.token_urlsafe(24),
            type=kind,
            user_id=user_id,
            channel_id=channel_id,
            created=time.monotonic(),
            message_id=extra.pop("message_id", None),
        )
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        channel = self.channels[channel_id]
        in_guild = bool(channel.get("guild_id"))
        guild_id = int(channel["guild_id"]) if in_guild else None
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.bot_id),
            "type": kind,
            "token": record.token,
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "channel": channel,
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)} if in_guild else {},
            "context": 0 if in_guild else 1,
            "attachment_size_limit": 26214400,
            **extra,
        }
        if in_guild:
            member = self.member_payload(user_id)
            member["permissions"] = str(EVERYONE_PERMISSIONS)
            payload.update(
                guild_id=str(guild_id),
                member=member,
                guild_locale="en-US",
                app_permissions=str(EVERYONE_PERMISSIONS),
            )
        else:
            payload.update(user=self.users[user_id], app_permissions="0")
        self.dispatch("INTERACTION_CREATE", payload, shard=self.shard_of(guild_id))
        return record

    def slash(self, user_id: int, channel_id: int, path: str, **options: Any) -> Interaction:
        """A slash command, e.g. ``slash(alice, channel, "arena challenge", opponent=bob_id)``.

        Option types come from the commands the bot synced; user options carry ``resolved``.
        """
        names = path.split()
        command = self.commands.get(names[0])
        if command is None:
            raise KeyError(f"no synced command {names[0]!r}")
        resolved: dict[str, dict[str, Any]] = {}
        node = command
        chain: list[dict[str, Any]] = []
        for name in names[1:]:
            node = next(o for o in node.get("options", []) if o["name"] == name)
            chain.append(node)
        leaf_options = []
        for name, value in options.items():
            spec = next(o for o in node.get("options", []) if o["name"] == name)
            kind = spec["type"]
            if kind == 6:  # USER: the id, with the user (and member) resolved
                resolved.setdefault("users", {})[str(value)] = self.users[int(value)]
                if int(value) in self.members:
                    resolved.setdefault("members", {})[str(value)] = self.member_payload(
                        int(value), with_user=False
                    )
                value = str(value)
            leaf_options.append({"name": name, "type": kind, "value": value})
        options_tree: list[dict[str, Any]] = leaf_options
        for sub in reversed(chain):
            options_tree = [{"name": sub["name"], "type": sub["type"], "options": options_tree}]
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": options_tree,
        }
        if resolved:
            data["resolved"] = resolved
        if self.channels[channel_id].get("guild_id"):
            data["guild_id"] = self.channels[channel_id]["guild_id"]
        return self._new_interaction(2, user_id, channel_id, data)

    def click(self, user_id: int, message: Message, custom_id: str) -> Interaction:
        """A button click on a message the bot posted."""
        return self._new_interaction(
            3,
            user_id,
            message.channel_id,
            {"custom_id": custom_id, "component_type": 2},
            message=self.message_payload(message),
            message_id=message.id,
        )


def _json(obj: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with exactly ``application/json``: discord.py compares the header verbatim."""
    return web.Response(
        body=json.dumps(obj).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
