"""The SQL of :class:`bot.storage.figures_store.FigureStore`, shared by both backends."""

from __future__ import annotations

from bot.storage.figures_store import Figures, FigureStore
from bot.storage.sql import SqlPrimitives


class SqlFigures(SqlPrimitives, FigureStore):
    """:class:`FigureStore` over the backend's primitives."""

    async def ping(self) -> None:
        await self._one("SELECT 1 AS one")

    async def figures(self) -> Figures:
        # Both read indexes only: games_status_deadline (status first) for the grouped count,
        # and outbox_pending (status, id) for the pending rows, a short range when all is well.
        games = await self._all("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
        pending = await self._one(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'"
        )
        return Figures(
            games={r["status"]: int(r["n"]) for r in games},
            outbox_pending=int(pending["n"]) if pending else 0,
            oldest_pending_at=(
                float(pending["oldest"]) if pending and pending["oldest"] is not None else None
            ),
        )
