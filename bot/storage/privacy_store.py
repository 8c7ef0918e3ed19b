"""A player's own data (issue 37): what ``/privacy export`` reads of one user across the schema,
and the writes of ``/privacy forget``.

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``privacy_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.

What to forget and how (labels, pseudonyms, the league documents) is decided by
:mod:`bot.privacy`; these are its reads and its plain writes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ForgottenRow:
    """A player of game ``game_id`` forgotten at their request: ``label`` names them in the game
    now (``Player A``); ``players_digest`` is the game's players digest as its first post
    published it, before any name was replaced (the same on every row of a game)."""

    game_id: str
    label: str
    players_digest: str
    at: float


@dataclass(frozen=True)
class RatingLine:
    """One of a player's ratings: per server and ruleset."""

    guild_id: int
    ruleset: str
    mu: float
    sigma: float
    games: int
    updated_at: float


@dataclass(frozen=True)
class PersonalOrder:
    """An order a player sealed themselves (``user_id`` theirs): their own, so its text is theirs
    to read whether or not it was revealed."""

    game_id: str
    step: int
    seat: str
    text: str
    receipt: str
    defaulted: bool
    withheld: bool
    revisions: int
    submitted_at: float


@dataclass(frozen=True)
class Erased:
    """How many rows ``/privacy forget`` removed or changed, per kind (for its reply and tests)."""

    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class PrivacyStore(ABC):
    """Reads of one user's rows that no other part needs, and the writes of forgetting them."""

    # --- reads (/privacy export) ---------------------------------------------------------------

    @abstractmethod
    async def orders_of_user(self, user_id: int) -> list[PersonalOrder]:
        """Every order the user sealed, by game and step."""

    @abstractmethod
    async def seasons_started_by(self, user_id: int) -> list[tuple[int, str, int, float]]:
        """(server, ruleset, number, started at) of every season the user started."""

    @abstractmethod
    async def leagues_naming(self, user_id: int) -> list[tuple[str, int, dict[str, Any]]]:
        """(id, version, document) of every league whose document names the user's id (as the
        league's players are stored: a string), open or closed."""

    @abstractmethod
    async def ledger_lines_of(self, user_id: int) -> list[dict[str, Any]]:
        """Every roster-ledger line whose ``player`` or ``by`` is the user, in ledger order."""

    @abstractmethod
    async def ratings_of(self, user_id: int) -> list[RatingLine]: ...

    @abstractmethod
    async def misses_of_user(self, user_id: int) -> list[dict[str, Any]]:
        """Every deadline the user let pass (game, step, seat, deadline, excused, waited)."""

    @abstractmethod
    async def handovers_naming(self, user_id: int) -> list[dict[str, Any]]:
        """Every handover the user gave, took or made (as a moderator), oldest first."""

    @abstractmethod
    async def offers_of_user(self, user_id: int) -> list[tuple[str, str, float]]:
        """(game, seat, offered at) of the seats the user offers for a substitute."""

    @abstractmethod
    async def forgotten_players(self, game_id: str) -> list[ForgottenRow]:
        """The game's forgotten players (none: nobody asked)."""

    # --- writes (/privacy forget) --------------------------------------------------------------

    @abstractmethod
    async def add_forgotten(self, row: ForgottenRow) -> None:
        """Insert (or keep) a forgotten player's label in a game."""

    @abstractmethod
    async def rename_seats(self, game_id: str, user_id: int, name: str) -> int:
        """The user's seats in a game take ``name`` (their label)."""

    @abstractmethod
    async def rename_in_handovers(self, game_id: str, user_id: int, name: str) -> int:
        """The user's name in the game's handovers (as the one who gave or took a seat)."""

    @abstractmethod
    async def pseudonymise(self, user_id: int, pseudonym: int) -> dict[str, int]:
        """Replace the user's id by ``pseudonym`` wherever a row must stay for others (seats,
        orders, handovers, missed deadlines, games created, seasons started, the roster ledger's
        ``player`` and ``by``); per table, how many rows changed."""

    @abstractmethod
    async def erase_personal(self, user_id: int, dm_channels: Sequence[int]) -> dict[str, int]:
        """Delete what is the user's alone: their language, reminder settings and marks,
        absences, seat offers, ratings, their DMs in the outbox (sent or not; pending edits of
        them superseded) and the ``/roll`` chains of their DM channels; per table, how many."""
