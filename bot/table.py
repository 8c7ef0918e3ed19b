"""The match table: lobby → setup → steps → finished, with no discord in it.

The transactional core of every game: a challenge accepted and set up, an order sealed, a step
resolved, a seat resigned, a moderator's ruling, a pause, resumption, extension or abandonment,
each in one transaction that loads what it needs once and hands it to the table's parts: the
step lifecycle (:mod:`bot.steps`), the dice streams (:mod:`bot.streams`), the posts
(:mod:`bot.posting`) and a new game's row (:mod:`bot.lobby`). The deadline worker, the queries
and the languages (:mod:`bot.deadlines`, :mod:`bot.reads`, :mod:`bot.languages`) are reached
through the table too. It speaks to the rules engines only through the registered
:class:`~bot.ruleset.RulesetSpec` (a :class:`~bot.loaded.LoadedGame` holds a game, its spec and its
decoded state) and to Discord only through outbox rows (Discord-shaped JSON that
``bot/outbox.py`` posts). Every public method is safe to call concurrently and after a restart.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot import dice as dicelib
from bot import faults, metrics
from bot.away import Absences
from bot.deadlines import Deadlines, worker_name
from bot.handovers import Substitutes
from bot.languages import Languages
from bot.loaded import LoadedGame, StateCache
from bot.lobby import Player as Player  # the cogs import it from here
from bot.lobby import insert_game
from bot.posting import Posting
from bot.priority import Foreground
from bot.reads import Reads, not_seated, require
from bot.reads import TableError as TableError  # the cogs import it from here
from bot.ruleset import Event, Order, OrderRejected, Outcome
from bot.steps import Steps, check_text
from bot.storage import ACTIVE_STATUSES, GameRow, OrderRow, Repository
from bot.storage.base import Transaction
from bot.streams import RollStream, roll_stream
from bot.tablepart import TablePart


@dataclass(frozen=True)
class SubmitResult:
    game: GameRow
    seat: str
    text: str
    receipt: str
    replaced: bool
    submitted: int
    awaited: int
    resolved: bool  # resolved inside submit (``resolve=True``, or ``carry_ack`` and complete)
    complete: bool  # every awaited order is in: the turn resolves now (or already has)
    # The outbox row of the DM that carries this order's acknowledgement (``carry_ack``): the
    # caller posts it at once instead of answering on its own.
    carried: int | None = None


# How long a carried acknowledgement's DM stays held for the caller who posts it at once.
CARRIED_HOLD_SECONDS = 15.0
PartT = TypeVar("PartT", bound=TablePart)  # a part the table builds (_part)


class Table:
    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        default_language: str = "en",
        on_outbox: Callable[[], None] | None = None,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        keyed_entropy: Callable[[int, str], bytes] | None = None,
    ) -> None:
        self.repo = repo
        self.clock = clock
        # Real games draw every seed and salt from ``secrets``; the offline demo passes a
        # deterministic source so that ``demo --seed N`` plays the same game every time.
        self._entropy = entropy
        # End-to-end tests pass a source keyed by what the bytes are for (game, turn, phase or
        # seat), so a run that crashed and restarted draws exactly what an uninterrupted one does.
        self._keyed_entropy = keyed_entropy
        self.default_language = default_language
        self._on_outbox = on_outbox or (lambda: None)
        # Acknowledgements go first: resolutions and the outbox step aside for them.
        self.foreground = Foreground()
        self.states = StateCache()
        # The name this process's background work is claimed under (bot.storage.claims), and
        # the one a row posted at once by its caller is held under (an order's carried
        # acknowledgement: OutboxSender.send_now).
        self.worker = worker_name()
        self.now_holder = f"{self.worker}:now"
        # Its parts draw through ``_draw`` and wake the sender through ``outbox_ready``, which
        # read the entropy sources and ``_on_outbox`` when called (a test may replace them).
        self.steps = Steps(self.states, clock=clock, draw=self._draw)
        self.languages = Languages(repo, default_language)
        self.reads = Reads(repo, self.states)
        self.posting = Posting(
            repo, clock=clock, languages=self.languages, notify=self.outbox_ready
        )
        # Absences (/away) and missed deadlines (issue 34): the deadline worker asks it first.
        self.absences = self._part(Absences)
        self.deadlines = Deadlines(
            repo,
            absences=self.absences,
            resolver=self,
            states=self.states,
            posting=self.posting,
            clock=clock,
            worker=self.worker,
            notify=self.outbox_ready,
        )
        # Seats handed to substitutes mid-game, and seats offered for one (issue 34).
        self.substitutes = self._part(Substitutes)
        # The parts' calls the cogs and the client make on the table, under the names they have
        # always had: the same bound methods (a test may still replace one on the table).
        self.tick = self.deadlines.tick
        self.remember_locale = self.languages.remember_locale
        self.set_language = self.languages.set_language
        self.language = self.languages.language
        self.game = self.reads.game
        self.games_here = self.reads.games_here
        self.current_orders = self.reads.current_orders
        self.games_awaiting = self.reads.games_awaiting
        self.orders_of = self.reads.orders_of
        self.export = self.reads.export

    def _part(self, kind: type[PartT]) -> PartT:
        """A part that reads games and posts about them, built alike (:mod:`bot.tablepart`)."""
        return kind(
            self.repo,
            states=self.states,
            languages=self.languages,
            clock=self.clock,
            notify=self.outbox_ready,
        )

    def _draw(self, size: int, key: str) -> bytes:
        """Fresh secret bytes for a seed or a salt; ``key`` names what they are for."""
        if self._keyed_entropy is not None:
            return self._keyed_entropy(size, key)
        return self._entropy(size)

    def outcome(self, game: GameRow) -> Outcome:
        """How ``game`` stands, as the ruleset's typed :class:`Outcome` (read from its state)."""
        return self.states.load(game).outcome()

    async def roll_stream(self, scope_id: int) -> RollStream:
        """Take the seed committed for a scope's next ``/roll`` and commit the one after it."""
        return await roll_stream(self.repo, scope_id, self._entropy)

    # --- lobby --------------------------------------------------------------------------------

    async def challenge(
        self,
        ruleset: str,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: list[Player],
        options: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
    ) -> GameRow:
        async with self.repo.transaction() as tx:
            return await insert_game(
                tx,
                ruleset,
                guild_id=guild_id,
                channel_id=channel_id,
                players=players,
                options=options,
                turn_seconds=turn_seconds,
                now=self.clock(),
            )

    async def open_in(
        self,
        tx: Transaction,
        ruleset: str,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: list[Player],
        options: Mapping[str, Any] | None,
        turn_seconds: int | None,
        created_by: int | None,
    ) -> GameRow:
        """Create a game and start it at once, inside the caller's transaction (a league match
        paired by a moderator: no lobby, and the league's own writes commit with it). The caller
        calls :meth:`outbox_ready` after its commit."""
        game = await insert_game(
            tx,
            ruleset,
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            options=options,
            turn_seconds=turn_seconds,
            created_by=created_by,
            now=self.clock(),
        )
        await self._begin(tx, game)
        return game

    def outbox_ready(self) -> None:
        """Messages were enqueued in a transaction the caller has committed: post them."""
        self._on_outbox()

    async def decline(self, game_id: str, user_id: int) -> GameRow:
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status != "lobby":
                raise TableError("table.not_in_lobby", game=game_id)
            if game.seat_of(user_id) is None:
                raise TableError("table.not_your_game", game=game_id)
            game.status, game.end_reason, game.updated_at = "abandoned", "declined", self.clock()
            await tx.update_game(game)
            return game

    async def accept(self, game_id: str, user_id: int) -> GameRow:
        """An invited player accepts. When every seat has (a party of three or four waits for
        all of them), set the game up, roll turn 1, and post the prompts; until then the game
        stays in the lobby (see :meth:`GameRow.awaiting_acceptance`)."""
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status != "lobby":
                raise TableError("table.not_in_lobby", game=game_id)
            seat = game.seat_of(user_id)
            # The challenger cannot accept for the others, except alone at the table (a solo
            # dungeon run has no one else to accept it).
            solo = len(game.seats) == 1
            if seat is None or (user_id == game.created_by and not solo):
                raise TableError("table.not_challenged", game=game_id)
            for row in game.seats:
                if row.seat == seat:
                    if row.accepted and not solo:
                        raise TableError("table.already_accepted", game=game_id)
                    row.accepted = True
            await tx.set_accepted(game.id, seat)
            if game.awaiting_acceptance():
                return game
            await self._begin(tx, game)
        self._on_outbox()
        return game

    async def _begin(self, tx: Transaction, game: GameRow) -> None:
        """Set a lobby game up, open its first turn and queue the first prompts."""
        loaded = self.states.load(game)
        streams = self.steps.ledger(tx, loaded)
        await self.steps.setup(loaded, streams)
        events = await self.steps.open(loaded, streams)
        game.status = "active"
        await self.steps.store(tx, loaded, streams, events)
        await self.posting.step_post(
            tx, loaded, streams, result_events=[], opened_events=events, first=True
        )

    # --- orders -------------------------------------------------------------------------------

    async def submit(
        self,
        game_id: str,
        user_id: int,
        text: str,
        *,
        source: str = "dm",
        resolve: bool = True,
        turn: int | None = None,
        carry_ack: bool = False,
        reply_to: int | None = None,
    ) -> SubmitResult:
        """Parse, seal and store an order; resolve when it was the last one awaited.

        With ``resolve=False`` a complete turn is left for the caller, who acknowledges the
        order first and then calls :meth:`resolve_if_ready` (the player is not kept waiting
        for the resolution; a crash in between is caught up by
        :meth:`bot.deadlines.Deadlines.recover`).

        ``turn``: the turn the order was made for (a button or a menu of that turn's prompt).
        It is checked in the transaction that stores the order: a deadline may resolve the turn
        between the click's own check and this write, and the order must not land in the next.

        ``carry_ack`` (an order by DM, ``reply_to`` its message): when the order completes the
        step, the step resolves in the same transaction and the order's acknowledgement rides on
        the player's next DM (``SubmitResult.carried``), not in a message of its own. One
        transaction: the order, the resolution and the acknowledgement are stored together or
        not at all, so the acknowledgement goes out exactly once across restarts.
        """
        check_text(text)
        async with self.repo.transaction() as tx:
            loaded = await self.reads.load(tx, game_id)
            game = loaded.game
            seat = game.seat_of(user_id)
            if seat is None:  # a former player (handed to a substitute) is told so
                raise await not_seated(tx, game, user_id)
            if game.status not in ("active", "paused"):
                raise TableError("table.not_running", game=game_id)
            if turn is not None and game.step != turn:
                raise TableError("order.stale_buttons", turn=turn, current=game.step)
            awaited = loaded.awaiting()
            if seat not in awaited:
                raise TableError("table.not_awaiting_you", game=game_id)
            canonical = loaded.engine.parse(loaded.state, seat, text).canonical()
            row = await tx.put_order(self.steps.seal(game, seat, canonical, user_id=user_id))
            orders = await tx.orders_for_turn(game.id, game.step)
            submitted = sum(1 for s in awaited if s in orders)
            step = game.step
            complete = submitted == len(awaited) and game.status == "active"
            if not complete:
                # A step that resolves now shows no progress: its next post supersedes it.
                await self.posting.progress(tx, game, orders, awaited)
            faults.point("order-storing")
            carried: int | None = None
            if complete and carry_ack:
                ack = {
                    "replaced": row.revisions > 1,
                    "order": canonical,
                    "receipt": row.receipt,
                    "turn": step,
                    "reply_to": reply_to,
                }
                carried = await self._resolve(tx, loaded, orders, acks={seat: ack})
                # Held for the caller, who posts it at once (OutboxSender.send_now): a drain that
                # claimed it first would post it among the background rows, and the player who
                # is waiting for the acknowledgement would wait behind them. If this process dies
                # before it is sent, the hold lapses and a drain posts it.
                if carried is not None:
                    now = self.clock()
                    hold = now + CARRIED_HOLD_SECONDS
                    await tx.claim_outbox_row(self.now_holder, carried, now, hold)
                faults.point("resolve-computing")
        faults.point("order-stored")
        if carried is not None:
            metrics.step_resolved(game.ruleset)
            faults.point("resolve-committed")
        self._on_outbox()
        resolved = carried is not None or (
            complete and resolve and await self.resolve_if_ready(game.id)
        )
        return SubmitResult(
            game,
            seat,
            canonical,
            row.receipt,
            row.revisions > 1,
            submitted,
            len(awaited),
            resolved,
            complete,
            carried,
        )

    # --- resolution ---------------------------------------------------------------------------

    async def resolve_if_ready(
        self, game_id: str, *, fill_defaults: bool = False, left: bool = False
    ) -> bool:
        """Resolve the current turn if every awaited order is in (or ``fill_defaults``).
        ``left``: a seat has just resigned; a step it left awaiting nobody resolves at once (the
        engine could not go on without the step's dice).

        Exactly once: the whole resolution is one transaction that compare-and-sets the game's
        version, so a second caller (a concurrent submit, the deadline worker, a restart) finds
        the turn already resolved and does nothing.
        """
        await self.foreground.yield_to()
        async with self.repo.transaction() as tx:
            game = await tx.get_game(game_id)
            if game is None or game.status != "active" or game.state is None:
                return False
            loaded = self.states.load(game)
            awaited = loaded.awaiting()
            orders = await tx.orders_for_turn(game.id, game.step)
            missing = [s for s in awaited if s not in orders]
            if (not awaited and not left) or (missing and not fill_defaults):
                return False
            await self.absences.missed(tx, game, missing)  # each miss stored once, excused or not
            for seat in missing:
                default = loaded.engine.default_order(loaded.state, seat).canonical()
                sealed = self.steps.seal(game, seat, default, user_id=None)
                orders[seat] = await tx.put_order(sealed)
            await self._resolve(tx, loaded, orders)
            faults.point("resolve-computing")
        faults.point("resolve-committed")
        metrics.step_resolved(game.ruleset)
        self._on_outbox()
        return True

    async def _resolve(
        self,
        tx: Transaction,
        loaded: LoadedGame,
        orders: Mapping[str, OrderRow],
        *,
        acks: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> int | None:
        """Resolve the open step (``acks``: see :meth:`Posting.step_post`); the outbox id of the
        DM carrying an acknowledgement, if any."""
        game, engine, state = loaded.game, loaded.engine, loaded.state
        turn = game.step
        awaited = loaded.awaiting()
        parsed: dict[str, Order] = {}
        for seat, row in orders.items():
            if seat not in awaited:
                continue  # sealed before its seat left the game: kept (and digested), not played
            try:
                parsed[seat] = engine.parse(state, seat, row.text)
            except OrderRejected:
                # The state has not changed since the order was accepted, so this cannot happen
                # unless a ruleset changed between versions; the default keeps the game going.
                parsed[seat] = engine.default_order(state, seat)
        digest = dicelib.orders_digest(orders[s].receipt for s in game.seat_order if s in orders)
        streams = self.steps.ledger(tx, loaded)
        stream = await streams.resolve(turn, digest)
        # Which orders stay private after this step is decided on the state they were given in.
        withheld = [s for s in parsed if loaded.spec.withheld and loaded.spec.withheld(state, s)]
        for seat in awaited:  # the engine plays an order for every awaited seat: the defaults
            if seat not in parsed:
                parsed[seat] = engine.default_order(state, seat)
        # The post names the step it resolved as well as the one it opens.
        resolved_view = loaded.view(None)
        secret = await streams.secret()
        state, events = engine.resolve(state, parsed, stream, secret)
        loaded.advance(state)
        await streams.keep_secret(secret)
        revealed = await self.steps.withhold(tx, loaded, turn, withheld, events)
        await streams.drawn(turn, dicelib.RESOLVE, stream.rolls, reveal=True, orders_digest=digest)
        await streams.reveal(turn, dicelib.PRE)
        await tx.add_events(game.id, turn, [e.to_json() for e in events])
        next_events: list[Event] = []
        if not loaded.outcome().finished:
            next_events = await self.steps.open(loaded, streams)
        await self.steps.store(tx, loaded, streams, next_events)
        # The post shows the step's orders as this transaction leaves them, not read again: one
        # withheld stays so unless the events revealed its step or the game ended here.
        public = turn in revealed or game.status == "finished"
        shown = {
            s: replace(o, withheld=(o.withheld or s in withheld) and not public)
            for s, o in orders.items()
        }
        return await self.posting.step_post(
            tx,
            loaded,
            streams,
            result_events=events,
            opened_events=next_events,
            resolved_turn=turn,
            resolved_orders=shown,
            resolved_view=resolved_view,
            acks=acks,
        )

    # --- player and moderator actions ---------------------------------------------------------

    async def resign(self, game_id: str, user_id: int) -> GameRow:
        async with self.repo.transaction() as tx:
            loaded = await self.reads.load(tx, game_id)
            game = loaded.game
            seat = game.seat_of(user_id)
            if seat is None:
                raise TableError("table.not_your_game", game=game_id)
            if game.status not in ACTIVE_STATUSES:
                raise TableError("table.not_running", game=game_id)
            state, events = loaded.engine.resign(loaded.state, seat)
            loaded.advance(state)
            over = loaded.outcome().finished
            if over:
                game.end_reason = "resign"
                if game.status == "paused":
                    game.status = "active"
            # The record replays the departure in this step: the game went on for the others
            # (the table stops asking this seat), or it ended here.
            await tx.set_left(game.id, seat, game.step)
            streams = self.steps.ledger(tx, loaded)
            await self.steps.store(tx, loaded, streams, events)
            await self.posting.step_post(tx, loaded, streams, result_events=events, prompts=over)
        self._on_outbox()
        if not over:  # the seats still in may all have ordered already
            await self.resolve_if_ready(game_id, left=True)
        return game

    async def adjudicate(self, game_id: str) -> GameRow:
        """A moderator's ruling: the ruleset ends the game now by its documented tie-break."""
        async with self.repo.transaction() as tx:
            loaded = await self.reads.load(tx, game_id)
            game = loaded.game
            if game.status not in ACTIVE_STATUSES:
                raise TableError("table.not_running", game=game_id)
            if loaded.spec.adjudicate is None:
                raise TableError("table.no_adjudication", game=game_id)
            state, events = loaded.spec.adjudicate(loaded.state)
            loaded.advance(state)
            if not loaded.outcome().finished:
                raise TableError("table.adjudication_failed", game=game_id)
            game.end_reason = "adjudicated"
            if game.status == "paused":
                game.status = "active"
            streams = self.steps.ledger(tx, loaded)
            await self.steps.store(tx, loaded, streams, events)
            await self.posting.step_post(tx, loaded, streams, result_events=events)
        self._on_outbox()
        return game

    async def pause(self, game_id: str) -> GameRow:
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status != "active":
                raise TableError("table.not_active", game=game_id)
            now = self.clock()
            game.status = "paused"
            game.paused_remaining = None if game.deadline_at is None else game.deadline_at - now
            game.deadline_at = None
            game.updated_at = now
            await tx.update_game(game)
            await self.posting.notice(tx, game, "table.notice.paused")
        self._on_outbox()
        return game

    async def resume(self, game_id: str) -> GameRow:
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status != "paused":
                raise TableError("table.not_paused", game=game_id)
            now = self.clock()
            game.status = "active"
            if game.paused_remaining is not None:
                game.deadline_at = now + max(game.paused_remaining, 60.0)
            game.paused_remaining = None
            game.updated_at = now
            await tx.update_game(game)
            await self.posting.notice(tx, game, "table.notice.resumed")
        self._on_outbox()
        await self.resolve_if_ready(game_id)
        return game

    async def extend(self, game_id: str, seconds: int) -> GameRow:
        if seconds <= 0:
            raise TableError("table.extend_positive")
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status == "paused" and game.paused_remaining is not None:
                game.paused_remaining += seconds
            elif game.status == "active" and game.deadline_at is not None:
                game.deadline_at += seconds
                # Reminders that were sent stay sent; the next one moves with the deadline.
            else:
                raise TableError("table.no_deadline", game=game_id)
            game.updated_at = self.clock()
            await tx.update_game(game)
            if game.deadline_at is None:  # paused: no deadline until it resumes
                minutes = max(1, round((game.paused_remaining or 0) / 60))
                await self.posting.notice(tx, game, "table.notice.extended_paused", minutes=minutes)
            else:
                await self.posting.notice(
                    tx, game, "table.notice.extended", deadline=game.deadline_at
                )
        self._on_outbox()
        return game

    async def abandon(self, game_id: str) -> GameRow:
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status not in ("lobby", *ACTIVE_STATUSES):
                raise TableError("table.not_running", game=game_id)
            game.status, game.end_reason = "abandoned", "abandon"
            game.deadline_at = None
            game.updated_at = self.clock()
            await self.steps.reveal_hidden(tx, game)  # nothing is left to keep secret
            await tx.update_game(game)
            await self.posting.notice(tx, game, "table.notice.abandoned")
        self._on_outbox()
        return game
