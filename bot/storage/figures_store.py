"""What an operator's dashboard reads of the database (issue 37): a health ping, the games by
state and the outbox backlog, each in one cheap query.

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``figures_sql.py``. Nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Figures:
    """The database-wide figures ``bot.metrics`` exports when scraped: the same in every process
    sharing the database."""

    games: dict[str, int] = field(default_factory=dict)  # status -> games
    outbox_pending: int = 0  # rows not yet posted (due or waiting for a retry)
    oldest_pending_at: float | None = None  # created_at of the oldest of them


class FigureStore(ABC):
    """A health ping and the figures of :class:`Figures`."""

    @abstractmethod
    async def ping(self) -> None:
        """The cheapest round trip to the database (raises when it cannot be reached)."""

    @abstractmethod
    async def figures(self) -> Figures:
        """The games by status (one grouped query) and the outbox's pending rows."""
