"""The outbox sender: posts each stored message exactly once, and resumes after a restart.

Every message carries a stable nonce with ``enforce_nonce`` (discord.py sets it when a nonce is
given), so if the process dies between Discord accepting a message and the row being marked sent,
the retry after the restart returns the same message instead of posting a second one. Edits are
naturally idempotent. Boards are rendered here, off the event loop, from the view the payload
carries (computed once, when the table composed the message).

Discord's limits are enforced by :mod:`bot.limits`: a content over 2,000 characters goes out as
several messages, the embed, the board and the buttons on the last. Each part is posted exactly
once too: after Discord accepts a part, the row's ``parts_sent`` is committed, and a retry (after
a failure or a restart) starts at the next part. Each part has its own nonce (the last, the one
that *is* the row's message and that edits update, the row's own), which covers the moment
between Discord accepting a part and ``parts_sent`` being committed, as for whole messages.

Every post sets ``allowed_mentions``: the users the payload names in ``mentions`` (a game's
players) may be pinged, never ``@everyone``, ``@here`` or a role, whatever the text says. A 400
for a message the bot built is a bug, not bad luck: it is logged as an error and the row fails at
once instead of being retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import io
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot import faults, limits, messages, registry
from bot.rendering import BoardRenderer
from bot.storage import OutboxRow, Repository

if TYPE_CHECKING:
    from discord.http import HTTPClient

    from bot.table import Table

log = logging.getLogger(__name__)
CANNOT_DM = 50007
BAD_REQUEST = 400
RETRY_DELAYS = (2, 10, 30, 120, 600)
MAX_ATTEMPTS = 20
# A sender claims a few rows at a time for this long, renewing while it works through them: a
# process that dies mid-post leaves its rows to another after at most this long (the nonce makes
# a post Discord had already accepted come back as the same message).
LEASE_SECONDS = 15.0
CLAIM_BATCH = 20
# Games whose rows are posted side by side: one at a time (a board rendered, the database's
# bookkeeping, the request's round trip) sent some 15 a second, a third of the global budget,
# and the turns waited for their prompts (bench/load.py --games 300: 3.7 turns a second).
LANES = 4
# How long a closing bot lets the post in flight finish before cancelling it.
STOP_GRACE_SECONDS = 10.0


class OriginalNotSentYet(Exception):
    """An edit whose message is still waiting in the outbox: retry the edit later."""


class EmptyMessage(Exception):
    """A payload with nothing to show (Discord refuses an empty message): a bug, not retried."""


def discord_nonce(key: str) -> str:
    """Discord nonces are at most 25 characters: a digest of the outbox key."""
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def part_nonce(key: str, index: int, count: int) -> str:
    """The nonce of one part of a row posted as several messages.

    The last part is the row's message (the one later edits update): it keeps the row's nonce,
    as a message posted whole does. The ones before it get nonces of their own.
    """
    return discord_nonce(key if index == count - 1 else f"{key}#part{index}")


def allowed_mentions(payload: dict[str, Any]) -> discord.AllowedMentions:
    """Who a post may ping: the users its payload names in ``mentions`` (a game's players), no one
    else. ``@everyone``, ``@here`` and role mentions in the text (a player's order, a league's
    name) never ping; nor does a ``<@id>`` the payload does not name. A role pings only when the
    payload names it in ``mention_roles``."""
    users = limits.mention_users(payload.get("mentions") or [])
    # A league's moderator role, named by the bot's own notice (a miss limit reached): only it.
    roles = [discord.Object(int(r)) for r in payload.get("mention_roles") or []]
    return discord.AllowedMentions(
        everyone=False,
        users=[discord.Object(u) for u in users],
        roles=roles or False,
        replied_user=False,
    )


def is_bad_request(exc: discord.HTTPException) -> bool:
    """Discord refused what we sent (400): retrying the same payload cannot help."""
    return exc.status == BAD_REQUEST and exc.code != CANNOT_DM


@dataclass
class _Batch:
    """Rows claimed together: when their lease was last taken, the ones still held, and the
    ones no lane has started yet."""

    claimed_at: float
    held: set[int]
    left: set[int]
    renewing: asyncio.Lock = field(default_factory=asyncio.Lock)


class Host(Protocol):
    """What the sender needs of the bot that builds it (``bot.client.RefereeBot``): the table
    whose messages it posts and the Discord client's calls it posts with. Named by its shape so
    that the sender does not import the client (the client imports the sender)."""

    table: Table
    http: HTTPClient

    def get_channel(self, id: int, /) -> object: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


class OutboxSender:
    def __init__(self, bot: Host, repo: Repository, renderer: BoardRenderer | None = None) -> None:
        self.bot = bot
        self.repo = repo
        self.renderer = renderer or BoardRenderer()
        self._task: asyncio.Task[int] | None = None
        self._again = False
        self._stopping = False
        self.lease_seconds = LEASE_SECONDS
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id
        # Seats whose DMs this process has seen go through: recorded once, not on every DM.
        self._dm_open: set[tuple[str, int]] = set()

    def wake(self) -> None:
        """Drain soon. Safe to call from anywhere on the loop, as often as wanted."""
        if self._stopping:
            return
        if self._task is not None and not self._task.done():
            self._again = True
            return
        # A context of its own: the drain outlives whoever woke it (an order's handler, serving
        # an acknowledgement) and must not carry that handler's context (bot.priority).
        self._task = asyncio.get_running_loop().create_task(
            self.drain(), name="outbox-drain", context=contextvars.Context()
        )

    async def idle(self) -> None:
        """Wait until the current drain (and any wake-ups it absorbed) has finished."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """Stop draining before the repository closes: the row being sent finishes (so nothing
        is posted twice after a restart), the rest of the batch stays claimed until its lease
        lapses or the next start releases it. A drain still busy after ``grace`` seconds (Discord
        holding a request) is cancelled."""
        self._stopping = True
        task, self._task = self._task, None
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        except Exception:
            log.exception("the outbox failed while stopping")

    async def send_now(self, outbox_id: int) -> bool:
        """Post one row at once, in the caller's task: the DM carrying an order's
        acknowledgement, which the player is waiting for (the caller serves it in the
        foreground, so it goes before background posts under the global limit too). Claimed
        first, under a holder of its own: if a drain already holds the row, the drain posts it
        (once). True when it went out here."""
        if self.stopping():
            return False
        now = self.bot.table.clock()
        async with self.repo.transaction() as tx:
            row = await tx.claim_outbox_row(
                self.bot.table.now_holder, outbox_id, now, now + self.lease_seconds
            )
        sent = row is not None and await self.send(row)
        self.wake()  # the step's other rows (and this one, if it failed here)
        return sent

    def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        """A user's DM channel seen on a message they sent: no request to open it later."""
        self._dm_channels[user_id] = channel_id

    def stopping(self) -> bool:
        """A method, not a flag read twice: :meth:`stop` may set it while a drain awaits."""
        return self._stopping

    @property
    def holder(self) -> str:
        return self.bot.table.worker

    async def drain(self) -> int:
        """Claim due rows and post them, until none is left (rows another process holds are
        its to post; a game's rows wait behind the one it is posting). The rows of different
        games go out side by side (``LANES`` at a time), each game's in order."""
        sent = 0
        clock = self.bot.table.clock
        while True:
            self._again = False
            if self.stopping():
                return sent
            claimed_at = clock()
            async with self.repo.transaction() as tx:
                rows = await tx.claim_outbox(
                    self.holder, claimed_at, claimed_at + self.lease_seconds, CLAIM_BATCH
                )
            batch = _Batch(claimed_at, {row.id for row in rows}, {row.id for row in rows})
            lanes: dict[object, list[OutboxRow]] = {}
            for row in rows:  # a row of no game (a league's DM) waits for no other
                lanes.setdefault(row.game_id or row.id, []).append(row)
            gate = asyncio.Semaphore(LANES)
            results = await asyncio.gather(
                *(self._post_lane(lane, batch, gate) for lane in lanes.values()),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, BaseException):
                    raise result  # the other lanes finished what they had
                sent += result
            if not rows and not self._again:
                return sent

    async def _post_lane(
        self, rows: list[OutboxRow], batch: _Batch, gate: asyncio.Semaphore
    ) -> int:
        """One game's claimed rows, in order."""
        sent = 0
        async with gate:
            for row in rows:
                # An order being acknowledged goes first (bot.priority).
                await self.bot.table.foreground.yield_to()
                if self.stopping():
                    return sent
                await self._keep_claim(batch)
                batch.left.discard(row.id)
                if row.id not in batch.held:
                    continue
                if await self.send(row):
                    sent += 1
        return sent

    async def _keep_claim(self, batch: _Batch) -> None:
        """Slow going (rate limits): keep the rows of the batch not started yet, or learn which
        another process has taken over since the lease lapsed (one lane renews for all)."""
        clock = self.bot.table.clock
        if clock() - batch.claimed_at <= self.lease_seconds / 2:
            return
        async with batch.renewing:
            now = clock()
            if now - batch.claimed_at <= self.lease_seconds / 2:
                return  # another lane renewed meanwhile
            async with self.repo.transaction() as tx:
                batch.held = await tx.renew_outbox(
                    self.holder, sorted(batch.left), now + self.lease_seconds
                )
            batch.claimed_at = now

    async def _board_file(self, row: OutboxRow, payload: dict[str, Any]) -> discord.File | None:
        """The board a payload describes (``payload["board"]``), drawn for the row's game."""
        spec = payload["board"]
        if row.game_id is None:
            return None
        async with self.repo.read() as tx:  # one snapshot, beside the writer
            game = await tx.get_game(row.game_id)
            # A row queued by a version that did not carry the view yet: compute it.
            state_json = (
                None if "view" in spec else await tx.get_state(row.game_id, spec["version"])
            )
        if game is None:
            return None
        view = spec.get("view")
        if view is None:
            if state_json is None:
                return None
            engine = registry.get(game.ruleset).engine
            view = engine.view(engine.from_json(state_json), spec.get("seat"))
        png = await self.renderer.render(
            game.ruleset, view, payload.get("lang", "en"), dict(spec.get("names") or game.names)
        )
        # The board's description is its alt text (Discord reads it out to screen readers).
        description = spec.get("description") or None
        return discord.File(io.BytesIO(png), filename="board.png", description=description)

    async def _target_channel(self, row: OutboxRow) -> discord.abc.Messageable:
        assert row.target_id is not None
        if row.kind == "dm":
            # A DM channel's id never changes: look it up once per user, not once per message:
            # here, then where an earlier DM to the user went (any process, before a restart),
            # and only then open it with Discord (one POST; no GET /users/{id}: without the
            # members intent users are rarely cached, and discord.py keeps only 128 DM channels).
            channel_id = self._dm_channels.get(row.target_id)
            if channel_id is None:
                async with self.repo.read() as tx:
                    channel_id = await tx.dm_channel(row.target_id)
            if channel_id is None:
                opened = await self.bot.http.start_private_message(row.target_id)
                channel_id = int(opened["id"])
            self._dm_channels[row.target_id] = channel_id
            return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        channel = self.bot.get_channel(row.target_id)
        if channel is None:
            # Not in this process's cache (another shard's server): posting needs only the id,
            # not a GET /channels/{id} that would spend the token's global budget each time.
            return self.bot.get_partial_messageable(row.target_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def send(self, row: OutboxRow) -> bool:
        """Post one row. True when it went out (or was already out)."""
        if row.kind == "edit" and await self._superseded(row):
            return False
        try:
            if row.kind == "edit":
                message_id, channel_id = await self._edit(row)
            else:
                message_id, channel_id = await self._post(row)
        except discord.HTTPException as exc:
            if exc.code == CANNOT_DM and row.kind == "dm":
                await self._failed(row, exc, retry=False)
                if row.game_id and row.target_id:
                    self._dm_open.discard((row.game_id, row.target_id))
                    await self.bot.table.posting.dm_unreachable(row.game_id, row.target_id)
                elif row.payload.get("undeliverable"):
                    await self._undeliverable(row.payload["undeliverable"])
            elif isinstance(exc, discord.Forbidden | discord.NotFound):
                await self._failed(row, exc, retry=False)
                if row.kind == "edit" and isinstance(exc, discord.NotFound):
                    # The post is gone (deleted): a grouped post's log goes on in a new one.
                    await self.bot.table.posting.post_gone(row)
            elif is_bad_request(exc):
                await self._refused(row, exc)
            else:
                # discord.py already waited out 429s; this is a 5xx.
                await self._failed(row, exc, retry=True)
            return False
        except EmptyMessage as exc:
            log.error("outbox %s (%s): %s; marked failed, not retried", row.id, row.kind, exc)
            async with self.repo.transaction() as tx:
                await tx.mark_failed(row.id, str(exc), retry_at=None)
            return False
        except (OSError, TimeoutError, OriginalNotSentYet) as exc:
            # A network fault, or an edit whose message is not out yet.
            await self._failed(row, exc, retry=True)
            return False
        faults.point("outbox-posted")
        async with self.repo.transaction() as tx:
            await tx.mark_sent(row.id, message_id, channel_id, self.bot.table.clock())
        if row.kind == "dm" and row.game_id and row.target_id:
            key = (row.game_id, row.target_id)
            if key not in self._dm_open:
                await self.bot.table.posting.dm_reachable(row.game_id, row.target_id)
                self._dm_open.add(key)
        return True

    async def _superseded(self, row: OutboxRow) -> bool:
        """An edit superseded since it was claimed (its step resolved, or a newer edit came):
        never sent. Its claim is let go at once, so the game's later rows need not wait for
        the lease to lapse."""
        async with self.repo.transaction() as tx:
            current = await tx.get_outbox(row.id)
            if current is None or current.status != "superseded":
                return False
            await tx.renew_outbox(self.holder, [row.id], self.bot.table.clock())
        return True

    async def _post(self, row: OutboxRow) -> tuple[int, int]:
        """Post a row's message: several, in order, when its content is too long for one.

        The parts Discord accepted before a failure or a restart (``row.parts_sent``) are not
        posted again. The embed, the board and the buttons go on the last part, whose message is
        the row's (the one edits update).
        """
        payload = row.payload
        channel = await self._target_channel(row)
        composed = messages.compose(payload)
        parts = limits.message_parts(composed["content"], composed["embed"])
        mentions = allowed_mentions(payload)
        last = len(parts) - 1
        reply = self._reply_to(payload, channel)
        for index in range(min(row.parts_sent, last), last):
            first: dict[str, Any] = {"reference": reply} if reply and index == 0 else {}
            await channel.send(
                content=parts[index].content,
                nonce=part_nonce(row.nonce, index, len(parts)),
                allowed_mentions=mentions,
                **first,
            )
            faults.point("outbox-posted")
            async with self.repo.transaction() as tx:
                await tx.mark_parts_sent(row.id, index + 1)
        kwargs: dict[str, Any] = {
            "content": parts[last].content,
            "nonce": part_nonce(row.nonce, last, len(parts)),
            "allowed_mentions": mentions,
        }
        if reply is not None and last == 0:
            kwargs["reference"] = reply
        embed = parts[last].embed
        if embed:
            kwargs["embed"] = discord.Embed.from_dict(embed)
        if payload.get("board"):
            board = await self._board_file(row, payload)
            if board is not None:
                kwargs["file"] = board
        view = self._view(payload)
        if view is not None:
            kwargs["view"] = view
        if not (kwargs["content"] or "embed" in kwargs or "file" in kwargs or "view" in kwargs):
            raise EmptyMessage("the payload has no content, embed, board or buttons")
        message = await channel.send(**kwargs)
        return message.id, message.channel.id

    async def _edit(self, row: OutboxRow) -> tuple[int | None, int | None]:
        assert row.ref_id is not None
        async with self.repo.transaction() as tx:
            original = await tx.get_outbox(row.ref_id)
        if original is None or original.status != "sent" or original.message_id is None:
            if original is not None and original.status == "pending":
                # The message to edit is not out yet; it will carry this progress when we retry.
                raise OriginalNotSentYet(row.ref_id)
            return None, None  # the original failed for good: nothing to edit
        channel = self.bot.get_partial_messageable(original.channel_id or original.target_id or 0)
        # A refresh shows the version it carries; a progress edit, the latest version with it.
        payload = row.payload.get("refresh") or original.payload
        composed = messages.compose(payload, row.payload.get("progress"))
        embed = discord.Embed.from_dict(composed["embed"]) if composed["embed"] else None
        kwargs: dict[str, Any] = {"embed": embed}
        if "group" in payload:
            # A post a run of steps edits: the board and the buttons move on with it. Any edit
            # (a progress one too: it may have superseded a refresh) shows its latest version.
            if payload.get("board"):
                board = await self._board_file(row, payload)
                kwargs["attachments"] = [] if board is None else [board]
            kwargs["view"] = self._view(payload)
        await channel.get_partial_message(original.message_id).edit(**kwargs)
        return original.message_id, original.channel_id

    @staticmethod
    def _reply_to(
        payload: dict[str, Any], channel: discord.abc.Messageable
    ) -> discord.MessageReference | None:
        """A DM carrying an order's acknowledgement answers the player's message (its first
        part does); a message deleted meanwhile does not stop it."""
        message_id = (payload.get("ack") or {}).get("reply_to")
        if not message_id:
            return None
        channel_id = getattr(channel, "id", None)
        if channel_id is None:
            return None
        return discord.MessageReference(
            message_id=int(message_id), channel_id=int(channel_id), fail_if_not_exists=False
        )

    @staticmethod
    def _view(payload: dict[str, Any]) -> discord.ui.View | None:
        """The buttons a payload describes (None: none)."""
        if not payload.get("view"):
            return None
        from bot.views import build_view

        view = build_view(payload["view"])
        return view if view.children else None

    async def _undeliverable(self, fallback: dict[str, Any]) -> None:
        """A DM outside a game (a league's draft pick) that cannot be delivered: post the channel
        message its sender attached instead (``target_id``, ``payload``), once: its ``nonce``
        is the sender's, so a second failure of the same message enqueues nothing new."""
        async with self.repo.transaction() as tx:
            await tx.enqueue(
                game_id=None,
                kind="channel",
                target_id=int(fallback["target_id"]),
                payload=dict(fallback["payload"]),
                nonce=str(fallback["nonce"]),
                now=self.bot.table.clock(),
            )
        self.wake()

    async def _refused(self, row: OutboxRow, exc: discord.HTTPException) -> None:
        """Discord answered 400 to a message we built: a bug to fix, not a fault to retry."""
        log.error(
            "outbox %s (%s): Discord refused the message the bot built (400, code %s): %s; "
            "marked failed, not retried",
            row.id,
            row.kind,
            exc.code,
            exc.text or exc,
        )
        async with self.repo.transaction() as tx:
            await tx.mark_failed(row.id, str(exc)[:500], retry_at=None)

    async def _failed(self, row: OutboxRow, exc: BaseException, *, retry: bool) -> None:
        delay = RETRY_DELAYS[min(row.attempts, len(RETRY_DELAYS) - 1)]
        give_up = not retry or row.attempts + 1 >= MAX_ATTEMPTS
        log.warning(
            "outbox %s (%s) failed: %s%s",
            row.id,
            row.kind,
            exc,
            "" if give_up else f"; retry in {delay}s",
        )
        async with self.repo.transaction() as tx:
            await tx.mark_failed(
                row.id, str(exc)[:500], retry_at=None if give_up else self.bot.table.clock() + delay
            )
