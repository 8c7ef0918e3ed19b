"""What the table posts: a step's channel post and DMs, order progress, notices, and what the
outbox sender tells it back about the posts it could not deliver.

Every message is an outbox row (Discord-shaped JSON that ``bot/outbox.py`` posts), enqueued in
the caller's transaction with a stable nonce (:func:`outbox_nonce`), so a message enqueued twice
is stored once. The table hands :class:`Posting` what its transaction has already read (the
game, its decoded state, the step's orders, the dice streams' :class:`~bot.streams.Ledger`): a
post reads nothing again but the languages and the post it continues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot import messages

if TYPE_CHECKING:
    from bot.languages import Languages
    from bot.loaded import LoadedGame
    from bot.ruleset import Event
    from bot.storage.base import GameRow, OrderRow, OutboxRow, Repository, Transaction
    from bot.streams import Ledger


def outbox_nonce(*parts: object) -> str:
    """A stable key per message: enqueueing the same message twice stores it once."""
    return ":".join(str(p) for p in parts)


class Posting:
    """Composes and enqueues the table's messages. ``notify`` is called after a transaction of
    its own has committed messages (the caller's commits call it themselves)."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float],
        languages: Languages,
        notify: Callable[[], None],
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.languages = languages
        self.notify = notify

    async def step_post(
        self,
        tx: Transaction,
        loaded: LoadedGame,
        streams: Ledger,
        *,
        result_events: list[Event],
        opened_events: Sequence[Event] = (),
        resolved_turn: int | None = None,
        resolved_orders: Mapping[str, OrderRow] | None = None,
        resolved_view: Mapping[str, Any] | None = None,
        first: bool = False,
        prompts: bool = True,
        acks: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> int | None:
        """One channel message (result + next prompt) and one DM per awaited seat, and to each
        seat the events addressed to it: the resolution's, then those of the step it opened (a
        dealt character, a playing card). ``resolved_orders``: the orders of ``resolved_turn``
        as the transaction left them (withheld or not). ``prompts=False``: the step did not
        change (a seat left mid-step), so the awaited seats keep the prompt they have.

        ``acks``: per seat, the acknowledgement of the order that completed the step
        (:func:`bot.messages.carried_ack`), carried by that seat's DM (its prompt, or a DM of
        its own when the step owes it none) instead of a message of its own: one request fewer
        per step, and exactly once, since it is stored with the DM. Returns that DM's outbox id
        (the caller posts it at once: the player is waiting for it)."""
        game = loaded.game
        lang = await self.languages.of_guild(tx, game.guild_id)
        now = self.clock()
        revealed = []
        if resolved_turn is not None:
            revealed = [s for s in await streams.step(resolved_turn) if s.revealed]
        secret = await streams.secret_row()
        if secret is not None and secret.revealed and game.status in ("finished", "abandoned"):
            revealed.append(secret)  # the game is over: its secret seed is public
        commitments = (
            [s for s in await streams.step(game.step) if not s.revealed]
            if game.status == "active"
            else []
        )
        if first and secret is not None:
            commitments.insert(0, secret)  # committed before the first draw, revealed at the end
        group = loaded.post_group()
        continued = await self._group_post(tx, game, group) if not first else None
        events = [e.to_json() for e in result_events]
        if continued is None and not first:
            quiet = messages.quiet_step(
                loaded,
                lang=lang,
                events=events,
                revealed_orders=resolved_orders or {},
                later_orders=loaded.later_orders,
                resolved_view=resolved_view,
            )
            if quiet and (continued := await self._latest_post(tx, game)) is not None:
                group = (continued.payload.get("group") or {}).get("key") or "quiet"
        earlier: dict[str, Any] | None = None
        if continued is not None:
            earlier = dict(continued.payload.get("group") or self._as_group(continued.payload))
            if continued.status == "failed":  # refused for good: the log goes on in a new post
                earlier["log"] = messages.continued_log(earlier["log"], lang)
        payload = messages.turn_message(
            loaded,
            lang=lang,
            events=events,
            revealed_streams=revealed,
            revealed_orders=resolved_orders or {},
            commitments=commitments,
            first=first,
            later_orders=loaded.later_orders,
            resolved_turn=resolved_turn,
            resolved_view=resolved_view,
            group=group,
            earlier=earlier,
        )
        nonce = outbox_nonce(game.id, "turn", game.version)
        earlier_post = game.prompt_outbox_id
        # A post refused for good cannot be edited: its log goes on in a post of its own.
        if continued is not None and continued.status != "failed":
            # The post is edited, not posted again. Its row holds the latest version (what a
            # progress edit, or the post itself if it is not out yet, shows); the edit carries
            # it too, so every version the channel saw is in the outbox.
            channel_outbox = continued.id
            await tx.update_outbox_payload(continued.id, payload)
            await self._channel(tx, game, {"refresh": payload}, nonce, now, edits=continued.id)
        else:
            channel_outbox = await self._channel(tx, game, payload, nonce, now)
            if resolved_turn is not None and earlier_post is not None:
                # The step it showed has resolved: its order progress still waiting is not
                # sent (the new post supersedes it), whatever process would have sent it.
                await tx.supersede_edits(earlier_post, channel_outbox)
        if game.status == "active":
            game.prompt_outbox_id = channel_outbox
            await tx.update_game(game)
        awaited = loaded.awaiting() if game.status == "active" and prompts else []
        # Each seat's last prompt, for what changed since (read only when someone is prompted).
        memos = await tx.seat_memos(game.id) if awaited else {}
        carried: int | None = None
        for seat in game.seat_order:
            user_id = game.user_of(seat)
            user_lang = await self.languages.of_user(tx, user_id, lang)
            told = [
                e.to_json()
                for e in (*result_events, *opened_events)
                if e.to is not None and seat in e.to
            ]
            dm = messages.seat_dm(
                loaded,
                seat,
                lang=user_lang,
                awaited=seat in awaited,
                private_events=told,
                prompted=memos.get(seat),
            )
            if seat in awaited:  # what its next prompt will say changed since this one
                await tx.set_seat_memo(game.id, seat, messages.seat_memo(loaded, seat))
            ack = (acks or {}).get(seat)
            if ack is not None:
                text = messages.carried_ack(loaded, ack, user_lang)
                dm = messages.with_ack(dm, text, ack, user_lang)
            if dm is None:
                continue
            row = await tx.enqueue(
                game_id=game.id,
                kind="dm",
                target_id=user_id,
                payload=dm,
                nonce=outbox_nonce(game.id, "dm", game.version, seat),
                now=now,
            )
            if ack is not None:
                carried = row
        return carried

    async def progress(
        self, tx: Transaction, game: GameRow, orders: Mapping[str, OrderRow], awaited: list[str]
    ) -> None:
        """Edit the step's post to show which awaited orders are in (their receipts, short)."""
        if game.prompt_outbox_id is None:
            return
        progress = {
            "in": [s for s in awaited if s in orders],
            "awaited": awaited,
            "receipts": {s: orders[s].receipt[:12] for s in awaited if s in orders},
        }
        revision = sum(o.revisions for o in orders.values())
        nonce = outbox_nonce(game.id, game.step, "progress", revision)
        await self._channel(tx, game, {"progress": progress}, nonce, edits=game.prompt_outbox_id)

    async def notice(self, tx: Transaction, game: GameRow, key: str, **params: Any) -> None:
        """A moderator's action told in the game's channel (paused, resumed, extended…)."""
        lang = await self.languages.of_guild(tx, game.guild_id)
        payload = messages.notice(game, key, lang=lang, **params)
        await self._channel(tx, game, payload, outbox_nonce(game.id, key, game.updated_at))

    async def reminder(
        self, tx: Transaction, loaded: LoadedGame, missing: list[str], tag: str
    ) -> None:
        """Remind the ``missing`` seats of the step's deadline in the game's channel (``tag``:
        which reminders, e.g. ``"50%"``, so that the same reminder is enqueued once)."""
        game = loaded.game
        lang = await self.languages.of_guild(tx, game.guild_id)
        payload = messages.reminder(loaded, missing, lang=lang)
        await self._channel(tx, game, payload, outbox_nonce(game.id, game.step, "remind", tag))

    async def reminder_dm(
        self, tx: Transaction, loaded: LoadedGame, user_id: int, slot: str, *, final: bool
    ) -> None:
        """Remind a player of the step's deadline by DM (their choice: ``/reminders``)."""
        game = loaded.game
        lang = await self.languages.of_user(
            tx, user_id, await self.languages.of_guild(tx, game.guild_id)
        )
        await tx.enqueue(
            game_id=game.id,
            kind="dm",
            target_id=user_id,
            payload=messages.reminder_dm(loaded, lang=lang, final=final),
            nonce=outbox_nonce(game.id, game.step, "remind", user_id, slot),
            now=self.clock(),
        )

    async def digest(
        self, tx: Transaction, user_id: int, games: list[LoadedGame], day: float
    ) -> None:
        """A player's daily digest DM (``day``: when it was due, its key)."""
        guild = games[0].game.guild_id if games else None
        lang = await self.languages.of_user(tx, user_id, await self.languages.of_guild(tx, guild))
        await tx.enqueue(
            game_id=None,
            kind="dm",
            target_id=user_id,
            payload=messages.digest(games, lang=lang),
            nonce=outbox_nonce("digest", user_id, int(day)),
            now=self.clock(),
        )

    async def _channel(
        self,
        tx: Transaction,
        game: GameRow,
        payload: dict[str, Any],
        nonce: str,
        now: float | None = None,
        *,
        edits: int | None = None,
    ) -> int:
        """A post in the game's channel, or (``edits``: its outbox id) an edit of one of its
        posts, which supersedes the post's edits still waiting. Returns the new row's id."""
        row = await tx.enqueue(
            game_id=game.id,
            kind="channel" if edits is None else "edit",
            target_id=game.channel_id,
            ref_id=edits,
            payload=payload,
            nonce=nonce,
            now=self.clock() if now is None else now,
        )
        if edits is not None:
            await tx.supersede_edits(edits, row)
        return row

    @staticmethod
    async def _latest_post(tx: Transaction, game: GameRow) -> OutboxRow | None:
        """The game's latest turn post (that a step which says nothing public edits)."""
        if game.prompt_outbox_id is None:
            return None
        posted = await tx.get_outbox(game.prompt_outbox_id)
        return posted if posted is not None and posted.kind == "channel" else None

    @staticmethod
    def _as_group(payload: Mapping[str, Any]) -> dict[str, Any]:
        """A post of no group, as a group's record (its log and the steps its proofs cover):
        what a quiet step that continues it needs (:meth:`_latest_post`)."""
        proofs = payload["view"].get("proofs") or {}
        turn = int(proofs.get("turn", 0))
        description = (payload.get("embed") or {}).get("description") or ""
        return {
            "key": "quiet",
            "since": int(proofs.get("since", turn)),
            "log": description.split("\n") if description else [],
            # what its tallies are cut against: nothing, so that the edited post shows them all
            # (the post it replaces showed those that changed in its own step)
            "tallies": [],
        }

    @staticmethod
    async def _group_post(tx: Transaction, game: GameRow, group: str | None) -> OutboxRow | None:
        """The channel post the open step's post continues: the game's last turn post, when it
        belongs to the same post group."""
        if group is None or game.prompt_outbox_id is None:
            return None
        posted = await tx.get_outbox(game.prompt_outbox_id)
        if posted is None or posted.kind != "channel":
            return None
        if (posted.payload.get("group") or {}).get("key") != group:
            return None
        return posted

    # --- what the outbox sender tells back --------------------------------------------------

    async def post_gone(self, edit: OutboxRow) -> None:
        """``edit`` found its post deleted (404: a moderator cleaning the channel). A grouped
        post's log goes on in a new post that says so, showing the post's latest version (what
        the edits that failed would have shown) and the order progress its latest edit did; the
        group's later steps edit the new post. Once per post: its row is marked failed (a post
        refused for good is the same case to :meth:`turn`). Any other post loses only the order
        progress an edit would have shown."""
        if edit.ref_id is None or edit.game_id is None:
            return
        async with self.repo.transaction() as tx:
            game = await tx.get_game(edit.game_id)  # first: the game's row is what writers lock
            post = await tx.get_outbox(edit.ref_id)
            if game is None or post is None or post.status != "sent":
                return
            if post.kind != "channel" or "group" not in post.payload:
                return
            await tx.mark_failed(post.id, "deleted: its group goes on in a new post", retry_at=None)
            edits = [
                row
                for row in await tx.outbox_for_game(game.id)
                if row.kind == "edit" and row.ref_id == post.id
            ]
            latest = max(edits, key=lambda row: row.id).payload if edits else {}
            progress = None if "refresh" in latest else latest.get("progress")
            new = await tx.enqueue(
                game_id=game.id,
                kind="channel",
                target_id=post.target_id,
                payload=messages.continued_post(post.payload, progress),
                nonce=outbox_nonce(game.id, "continued", post.id),
                now=self.clock(),
            )
            if game.prompt_outbox_id == post.id:
                game.prompt_outbox_id = new
                await tx.update_game(game)
        self.notify()

    async def dm_unreachable(self, game_id: str, user_id: int) -> None:
        """A DM to this player failed: tell the channel once how to open DMs or use /order."""
        async with self.repo.transaction() as tx:
            game = await tx.get_game(game_id)
            if game is None:
                return
            seat = game.seat_of(user_id)
            if seat is None:
                return
            already_known = next(s.dm_open for s in game.seats if s.seat == seat) is False
            await tx.set_dm_open(game.id, seat, False)
            if not already_known:
                lang = await self.languages.of_guild(tx, game.guild_id)
                payload = messages.dm_closed(game, user_id, lang=lang)
                await self._channel(tx, game, payload, outbox_nonce(game.id, "dm-closed", seat))
        self.notify()

    async def dm_reachable(self, game_id: str, user_id: int) -> None:
        """A DM to this player went through: their DMs are open (again)."""
        async with self.repo.transaction() as tx:
            game = await tx.get_game(game_id)
            seat = game.seat_of(user_id) if game else None
            if game and seat:
                await tx.set_dm_open(game.id, seat, True)
