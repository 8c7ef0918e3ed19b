"""Seats handed to a substitute mid-game and seats offered for one (``/game substitute``,
``/game replace-me``; issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``handovers_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class HandoverRow:
    """One seat handed from one player to another during step ``step`` of a game (``seq``: the
    game's 1st, 2nd … handover). ``digest`` chains it to the game's players digest (the match
    record's ``handovers``, :mod:`bot.record.handovers`)."""

    game_id: str
    seq: int
    step: int
    seat: str
    from_user: int
    from_name: str
    to_user: int
    to_name: str
    by_user: int | None
    digest: str
    at: float


@dataclass(frozen=True)
class SeatOffer:
    """A seat its player offered for a substitute (``/game replace-me``)."""

    game_id: str
    seat: str
    user_id: int
    offered_at: float


class HandoverStore(ABC):
    """Seats handed to a substitute mid-game and seats offered for one (``/game substitute``,
    ``/game replace-me``; issue 34)."""

    @abstractmethod
    async def hand_seat(
        self,
        *,
        game_id: str,
        step: int,
        seat: str,
        from_user: int,
        from_name: str,
        to_user: int,
        to_name: str,
        by_user: int | None,
        digest: str,
        now: float,
    ) -> HandoverRow:
        """Give ``seat`` to ``to_user`` (its row in ``seats``: user, name, DMs unknown again),
        store the handover as the game's next one, and drop the seat's offer. The caller holds
        the game (read in this write transaction), so the numbering cannot race."""

    @abstractmethod
    async def handovers(self, game_id: str) -> list[HandoverRow]:
        """The game's handovers, first first."""

    @abstractmethod
    async def handovers_of_games(self, game_ids: Sequence[str]) -> list[HandoverRow]:
        """The handovers of several games (a league's matches), by game then order."""

    @abstractmethod
    async def handed_away(self, game_id: str, user_id: int) -> HandoverRow | None:
        """The latest handover of a seat of ``game_id`` away from ``user_id`` (None: none)."""

    @abstractmethod
    async def handed_away_running(self, user_id: int) -> list[HandoverRow]:
        """The latest handover away from ``user_id`` in each running game they no longer sit in
        (the reason a DM order of theirs is refused)."""

    @abstractmethod
    async def supersede_dms(self, game_id: str, user_id: int) -> int:
        """Mark the game's pending DMs to ``user_id`` superseded (never sent); how many."""

    @abstractmethod
    async def offer_seat(self, game_id: str, seat: str, user_id: int, now: float) -> bool:
        """Store the seat's offer; False when it was offered already."""

    @abstractmethod
    async def withdraw_offer(self, game_id: str, seat: str) -> bool:
        """Drop the seat's offer; False when there was none."""

    @abstractmethod
    async def seat_offers(self, game_id: str) -> list[SeatOffer]:
        """The game's offered seats, in seat name order."""
