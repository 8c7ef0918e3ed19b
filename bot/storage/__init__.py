"""Storage: the repository interface, its SQLite implementation and numbered SQL migrations."""

from bot.storage.base import (
    ACTIVE_STATUSES,
    GameRow,
    LeagueRow,
    OrderRow,
    OutboxRow,
    Repository,
    SeatRow,
    StorageError,
    StreamRow,
    Transaction,
    VersionConflict,
)
from bot.storage.sqlite import SqliteRepository, open_repository

__all__ = [
    "ACTIVE_STATUSES",
    "GameRow",
    "LeagueRow",
    "OrderRow",
    "OutboxRow",
    "Repository",
    "SeatRow",
    "SqliteRepository",
    "StorageError",
    "StreamRow",
    "Transaction",
    "VersionConflict",
    "open_repository",
]
