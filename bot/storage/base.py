"""The repository interface: a small async API over games, orders, dice, events and the outbox.

Every read and write happens inside ``async with repo.transaction() as tx`` (or ``repo.read()``
for lookups). Implementations: SQLite (``sqlite.py``, the default) and, for several shard
processes, PostgreSQL (``postgres.py``) with the same semantics: compare-and-set on
``games.version`` and ``leagues.version``; a write transaction holds the game or league it read
until it ends (SQLite's single writer; PostgreSQL's ``FOR UPDATE``); the roster ledger refused
UPDATE and DELETE by the database itself.

The transaction interface is composed of one part per aggregate (:class:`GameStore`,
:class:`OrderStore`, :class:`DiceStore`, :class:`OutboxStore`, :class:`LeagueStore`,
:class:`PackStore`, :class:`SeasonStore`, :class:`PreferenceStore`, :class:`ClaimStore`);
``Transaction`` is all of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from bot.storage.absences_store import AbsenceStore
from bot.storage.figures_store import FigureStore
from bot.storage.handovers_store import HandoverStore
from bot.storage.privacy_store import PrivacyStore
from bot.storage.reminders_store import ReminderStore

ACTIVE_STATUSES = ("setup", "active", "paused")


class StorageError(RuntimeError):
    pass


class DatabaseUnavailable(StorageError):
    """The database cannot be opened (no server answers, refused credentials, a file that cannot
    be created). ``str()`` is one line naming where, never a password."""


class VersionConflict(StorageError):
    """Another resolver moved the game on first (compare-and-set failed)."""


@dataclass
class SeatRow:
    seat: str
    user_id: int
    name: str
    position: int
    dm_open: bool | None = None
    accepted: bool = False  # in a lobby: has this player accepted (the challenger has)
    left_turn: int | None = None  # the step during which the seat left a game that went on


@dataclass
class GameRow:
    id: str
    ruleset: str
    guild_id: int | None
    channel_id: int | None
    status: str
    options: dict[str, Any]
    seats: list[SeatRow]
    state: dict[str, Any] | None = None
    version: int = 0
    # The step the table has opened (1, 2, …; 0 before the first). Its column is ``turn``, the
    # name match records give a step (``shared/spec/match-record.md``).
    step: int = 0
    outcome: str | None = None
    end_reason: str | None = None
    result: dict[str, Any] | None = None  # the typed Outcome as JSON (several winners, grades)
    turn_seconds: int | None = None
    step_seconds: int | None = None  # the open step's deadline length (its own, or turn_seconds)
    deadline_at: float | None = None
    reminders_sent: int = 0
    paused_remaining: float | None = None
    prompt_outbox_id: int | None = None
    created_by: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> str | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def awaiting_acceptance(self) -> list[SeatRow]:
        """In a lobby: the invited seats whose players have not accepted yet."""
        return [s for s in self.seats if not s.accepted]

    def user_of(self, seat: str) -> int:
        return next(s.user_id for s in self.seats if s.seat == seat)

    @property
    def names(self) -> dict[str, str]:
        return {s.seat: s.name for s in self.seats}

    @property
    def seat_order(self) -> list[str]:
        return [s.seat for s in sorted(self.seats, key=lambda s: s.position)]


@dataclass
class OrderRow:
    game_id: str
    turn: int
    seat: str
    text: str
    salt: str
    receipt: str
    user_id: int | None
    defaulted: bool
    revisions: int
    submitted_at: float
    withheld: bool = False  # private after its step: only the receipt is public (until revealed)


@dataclass
class StreamRow:
    game_id: str
    turn: int
    phase: str
    seed: str
    commitment: str
    orders_digest: str | None = None
    drawn: list[int] = field(default_factory=list)
    revealed: bool = False
    blocks: int = 0  # blocks drawn so far (the game's secret stream resumes from here)
    step: str | None = None  # the ruleset's label of the step ("turn 3", "deploy")


@dataclass
class OutboxRow:
    id: int
    game_id: str | None
    kind: str
    target_id: int | None
    ref_id: int | None
    payload: dict[str, Any]
    nonce: str
    status: str
    message_id: int | None
    channel_id: int | None
    attempts: int
    not_before: float
    created_at: float
    # A content too long for one message is posted as several (bot.limits): how many are out.
    parts_sent: int = 0


@dataclass
class LeagueRow:
    """A league: its identity and its document (the league's own JSON, opaque to storage)."""

    id: str
    guild_id: int
    name: str
    data: dict[str, Any]
    status: str = "active"
    version: int = 1
    next_due: float | None = None


class GameStore(ABC):
    """Games and their seats, the versioned states, and the events of each step."""

    @abstractmethod
    async def insert_game(self, game: GameRow) -> None: ...
    @abstractmethod
    async def get_game(self, game_id: str) -> GameRow | None:
        """In a write transaction the game stays locked until it ends (PostgreSQL: ``FOR
        UPDATE``; SQLite: its single writer), so two writers of one game take turns."""

    @abstractmethod
    async def update_game(self, game: GameRow, *, expect_version: int | None = None) -> None:
        """Write every mutable column; with ``expect_version`` it is a compare-and-set."""

    @abstractmethod
    async def games_for_user(self, user_id: int, statuses: tuple[str, ...]) -> list[GameRow]: ...
    @abstractmethod
    async def games_in_channel(
        self, channel_id: int, statuses: tuple[str, ...]
    ) -> list[GameRow]: ...
    @abstractmethod
    async def games_with_status(self, statuses: tuple[str, ...]) -> list[GameRow]: ...
    @abstractmethod
    async def games_of_ruleset(
        self, guild_id: int, ruleset: str, since: float = 0.0
    ) -> list[GameRow]:
        """Every game of ``ruleset`` in the server created at or after ``since``, whatever its
        status, oldest first (a season's history: what each player played since it began)."""

    @abstractmethod
    async def due_games(self, now: float) -> list[GameRow]:
        """Active games whose deadline or a reminder time has come (see ``Table.tick``)."""

    @abstractmethod
    async def set_accepted(self, game_id: str, seat: str) -> None: ...
    @abstractmethod
    async def set_dm_open(self, game_id: str, seat: str, is_open: bool) -> None: ...
    @abstractmethod
    async def seat_memos(self, game_id: str) -> dict[str, Any]:
        """Each prompted seat's memo of its last prompt (``Presenter.seat_memo``, wrapped:
        ``{"memo": …}``); a seat never prompted in this game is absent."""

    @abstractmethod
    async def set_seat_memo(self, game_id: str, seat: str, memo: Any) -> None: ...
    @abstractmethod
    async def set_left(self, game_id: str, seat: str, turn: int) -> None:
        """The seat left during step ``turn`` while the game went on for the others."""

    @abstractmethod
    async def next_game_number(self) -> int:
        """The number of the next game; writers that ask at once are answered in turn (the
        number is taken when the asking transaction ends)."""

    # states
    @abstractmethod
    async def put_state(
        self, game_id: str, version: int, turn: int, state: dict[str, Any]
    ) -> None: ...
    @abstractmethod
    async def get_state(self, game_id: str, version: int) -> dict[str, Any] | None: ...

    # events
    @abstractmethod
    async def add_events(self, game_id: str, turn: int, events: list[dict[str, Any]]) -> None: ...
    @abstractmethod
    async def events(self, game_id: str) -> list[tuple[int, dict[str, Any]]]: ...


class OrderStore(ABC):
    """Sealed orders, one per seat and step."""

    @abstractmethod
    async def put_order(self, order: OrderRow) -> OrderRow:
        """Insert or replace the seat's order for the turn (revisions counts replacements)."""

    @abstractmethod
    async def orders_for_turn(self, game_id: str, turn: int) -> dict[str, OrderRow]: ...
    @abstractmethod
    async def all_orders(self, game_id: str) -> list[OrderRow]: ...
    @abstractmethod
    async def set_withheld(
        self, game_id: str, turn: int, seats: Iterable[str] | None, withheld: bool
    ) -> None:
        """Withhold the orders of ``seats`` for ``turn`` (at its resolution), or reveal them
        (``seats`` None: every order of the turn)."""


class DiceStore(ABC):
    """Committed dice streams of games, and the ``/roll`` seed chains."""

    @abstractmethod
    async def put_stream(self, stream: StreamRow) -> None: ...
    @abstractmethod
    async def streams(self, game_id: str, turn: int | None = None) -> list[StreamRow]: ...
    @abstractmethod
    async def update_stream(self, stream: StreamRow) -> None: ...

    @abstractmethod
    async def roll_stream(self, scope_id: int) -> tuple[int, str] | None:
        """The next roll's number and seed (hex) in a scope, if a seed is committed there.

        In a write transaction the scope stays locked until it ends: two rolls never take the
        same seed, and a chain's first seed is committed once."""

    @abstractmethod
    async def set_roll_stream(
        self, scope_id: int, number: int, seed: str, commitment: str
    ) -> None: ...


class OutboxStore(ABC):
    """Messages to post, written in the transaction that decided them, posted after it."""

    @abstractmethod
    async def enqueue(
        self,
        *,
        game_id: str | None,
        kind: str,
        target_id: int | None,
        payload: dict[str, Any],
        nonce: str,
        ref_id: int | None = None,
        now: float,
    ) -> int: ...
    @abstractmethod
    async def pending_outbox(
        self, now: float, limit: int = 50, *, after_id: int = 0
    ) -> list[OutboxRow]:
        """Due pending rows in id order; ``after_id`` skips the ones a sender has already seen.

        (Several writer processes may commit ids out of order: a sender that reads after an id
        also rescans from 0 now and then, as the outbox sender does on every maintenance tick.)
        """

    @abstractmethod
    async def get_outbox(self, outbox_id: int) -> OutboxRow | None: ...
    @abstractmethod
    async def mark_sent(
        self, outbox_id: int, message_id: int | None, channel_id: int | None, now: float
    ) -> None: ...
    @abstractmethod
    async def mark_failed(self, outbox_id: int, error: str, *, retry_at: float | None) -> None: ...
    @abstractmethod
    async def mark_parts_sent(self, outbox_id: int, parts_sent: int) -> None:
        """A row posted as several messages: the first ``parts_sent`` are out (the row stays
        pending until its last part is, and a retry resumes after them)."""

    @abstractmethod
    async def update_outbox_payload(self, outbox_id: int, payload: dict[str, Any]) -> None:
        """A posted message's latest version (edited since): what later edits of it start from,
        and what it says if it is not out yet."""

    @abstractmethod
    async def supersede_edits(self, ref_id: int, below_id: int) -> None:
        """Older pending edits of the same message are pointless once a newer one exists."""

    @abstractmethod
    async def outbox_for_game(self, game_id: str, after_id: int = 0) -> list[OutboxRow]:
        """A game's outbox rows in order, those after ``after_id`` (a reader catching up)."""

    @abstractmethod
    async def dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel, as the last DM sent to them found it (None: none sent yet)."""


class LeagueStore(ABC):
    """League documents, league matches, the append-only roster ledger, and players' ratings
    per ruleset per server (kept across leagues)."""

    @abstractmethod
    async def next_league_number(self) -> int:
        """As :meth:`GameStore.next_game_number`, for leagues."""

    @abstractmethod
    async def insert_league(self, league: LeagueRow, now: float) -> None:
        """Raises VersionConflict when the server already has a league of that name."""

    @abstractmethod
    async def get_league(self, league_id: str) -> LeagueRow | None:
        """In a write transaction the league stays locked until it ends (as ``get_game``)."""

    @abstractmethod
    async def leagues_in_guild(self, guild_id: int) -> list[LeagueRow]: ...
    @abstractmethod
    async def active_leagues(self) -> list[LeagueRow]: ...
    @abstractmethod
    async def due_leagues(self, now: float) -> list[LeagueRow]: ...
    @abstractmethod
    async def update_league(self, league: LeagueRow, *, expect_version: int, now: float) -> None:
        """Compare-and-set on the version read; VersionConflict if another writer came first."""

    @abstractmethod
    async def add_league_match(self, league_id: str, game_id: str) -> None: ...
    @abstractmethod
    async def unrecorded_league_games(self) -> list[tuple[str, str]]: ...
    @abstractmethod
    async def mark_league_match_recorded(self, game_id: str) -> None: ...
    @abstractmethod
    async def append_ledger(self, league_id: str, entries: Sequence[dict[str, Any]]) -> None:
        """Append roster changes; nothing in the ledger is ever updated or deleted (the database
        itself refuses it: a trigger on both backends)."""

    @abstractmethod
    async def ledger(self, league_id: str) -> list[dict[str, Any]]: ...

    @abstractmethod
    async def ratings(self, guild_id: int, ruleset: str) -> dict[str, dict[str, Any]]:
        """The server's ratings of a ruleset: player -> ``{"mu", "sigma", "games"}``."""

    @abstractmethod
    async def put_ratings(
        self, guild_id: int, ruleset: str, rows: Mapping[str, Mapping[str, Any]], now: float
    ) -> None:
        """Write (insert or replace) these players' ratings of the ruleset in the server."""


class PreferenceStore(ABC):
    """A server's language and deadline defaults, and a user's last seen Discord locale."""

    @abstractmethod
    async def guild_language(self, guild_id: int) -> str | None: ...
    @abstractmethod
    async def set_guild_language(self, guild_id: int, language: str) -> None: ...
    @abstractmethod
    async def guild_deadlines(self, guild_id: int) -> tuple[str, int] | None:
        """The server's deadline defaults (``/config deadlines``): its preset and minutes a step;
        None when it never set them."""

    @abstractmethod
    async def set_guild_deadlines(
        self, guild_id: int, preset: str, step_minutes: int, now: float
    ) -> None: ...
    @abstractmethod
    async def user_locale(self, user_id: int) -> str | None: ...
    @abstractmethod
    async def set_user_locale(self, user_id: int, locale: str) -> None: ...


@dataclass
class PackRow:
    """A server's own data pack for a ruleset: the pack's canonical JSON (the ruleset's
    format, opaque to storage), its hash, who set it and when."""

    guild_id: int
    ruleset: str
    pack: str
    hash: str
    set_by: int
    set_at: float


class PackStore(ABC):
    """One current data pack per (server, ruleset), set by the server's moderators. A new pack
    replaces the old one outright: a game already started keeps its own copy in its options."""

    @abstractmethod
    async def server_pack(self, guild_id: int, ruleset: str) -> PackRow | None: ...
    @abstractmethod
    async def set_server_pack(self, row: PackRow) -> None:
        """Insert or replace the server's pack for ``row.ruleset``."""

    @abstractmethod
    async def clear_server_pack(self, guild_id: int, ruleset: str) -> bool:
        """Back to the ruleset's own pack; False when the server had none of its own."""


@dataclass
class SeasonRow:
    """One season of a ruleset in a server: its number (1, 2, … per server and ruleset), when it
    started and which moderator started it. The season's history is not stored here: it is read
    from the ruleset's games created since ``started_at`` (:meth:`GameStore.games_of_ruleset`)."""

    guild_id: int
    ruleset: str
    number: int
    started_at: float
    started_by: int


class SeasonStore(ABC):
    """A server's numbered seasons per ruleset; the highest number is the current season."""

    @abstractmethod
    async def current_season(self, guild_id: int, ruleset: str) -> SeasonRow | None:
        """The season with the highest number; None before the server's first."""

    @abstractmethod
    async def start_season(
        self, guild_id: int, ruleset: str, started_by: int, now: float
    ) -> SeasonRow:
        """Open the next season (the current one's number + 1; the first is 1). Two moderators
        starting one at once open two seasons, one after the other, never the same number."""


class ClaimStore(ABC):
    """Background work claimed by one process at a time, each claim a lease that lapses when its
    holder dies (``claimed_by``, ``lease_until`` on the table's clock).

    PostgreSQL claims with ``FOR UPDATE SKIP LOCKED`` (a process never waits for rows another is
    claiming); SQLite runs the same statements under its single writer. A holder may always
    re-claim what it holds: its earlier attempt is over (each process runs one worker of each
    kind), so a failed attempt is retried at once, as before leases existed.
    """

    @abstractmethod
    async def claim_outbox(
        self, holder: str, now: float, lease_until: float, limit: int = 20
    ) -> list[OutboxRow]:
        """Claim due pending rows (in id order) that no other live holder has claimed.

        A row waits while an earlier pending row of the same game is held by another live
        holder, so a game's messages go out in the order they were decided even when several
        processes post."""

    @abstractmethod
    async def claim_outbox_row(
        self, holder: str, outbox_id: int, now: float, lease_until: float
    ) -> OutboxRow | None:
        """Claim one pending row now, if no other live holder has it (an order's acknowledgement
        carried by a prompt DM, posted by the task that took the order: a DM goes before its
        game's earlier rows, which are channel posts)."""

    @abstractmethod
    async def renew_outbox(self, holder: str, ids: Sequence[int], lease_until: float) -> set[int]:
        """Extend ``holder``'s claims on ``ids``; the ids it still holds, not yet sent."""

    @abstractmethod
    async def claim_due_games(
        self, holder: str, now: float, lease_until: float, limit: int = 100
    ) -> list[GameRow]:
        """As :meth:`GameStore.due_games`, only the games no other live holder has claimed,
        now claimed by ``holder``."""

    @abstractmethod
    async def release_games(self, holder: str, game_ids: Sequence[str]) -> None: ...

    @abstractmethod
    async def take_lease(self, name: str, holder: str, now: float, lease_until: float) -> bool:
        """The named singleton job (``"league-maintenance"``): True when ``holder`` holds it
        until ``lease_until`` (it was free, lapsed, or already ``holder``'s)."""

    @abstractmethod
    async def release_all_claims(self) -> None:
        """Forget every claim (a database only one process uses, at its start: whoever held
        them was this process before a restart)."""


class Transaction(
    GameStore,
    OrderStore,
    DiceStore,
    OutboxStore,
    LeagueStore,
    PackStore,
    SeasonStore,
    PreferenceStore,
    ClaimStore,
    ReminderStore,
    AbsenceStore,
    HandoverStore,
    PrivacyStore,
    FigureStore,
):
    """The operations available inside one database transaction: one part per aggregate.

    Callers keep writing ``tx.method(...)``. Both backends implement every part with the same
    SQL (``sql.py``: games, orders, dice, outbox, preferences, packs and seasons; ``leagues.py``:
    leagues; ``reminders_sql.py``, ``absences_sql.py``, ``handovers_sql.py``: the parts of long
    games with real people; ``privacy_sql.py``: a player's own data; ``figures_sql.py``: an
    operator's dashboard) over their own primitives (``sqlite.py``, ``postgres.py``).
    """


class Repository(ABC):
    #: Several processes may use the database at once (PostgreSQL): claims are then leased
    #: between them, and :meth:`listen` carries wake-ups from one process to the others.
    shared: bool = False

    async def listen(self, channel: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) whenever another process's transaction that
        :meth:`notify`-ed ``channel`` commits. Nothing to do where one process uses the database
        (SQLite): its own writers wake its workers directly."""
        return None

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    @abstractmethod
    async def close(self) -> None: ...
    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A read-only transaction: committed data only, and it never waits for a writer.

        For lookups that write nothing (SQLite: a pool of read-only WAL connections; PostgreSQL:
        ``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`` on a pooled connection: one snapshot,
        no locks). A backend without one may read inside an
        ordinary transaction, as this default does.
        """
        return self.transaction()
