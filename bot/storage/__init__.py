"""Storage: the repository interface, its SQLite and PostgreSQL implementations, numbered SQL
migrations for each, and :func:`open_repository`, which picks one by ``DATABASE_URL``."""

from __future__ import annotations

from bot.storage.base import (
    ACTIVE_STATUSES,
    ClaimStore,
    DatabaseUnavailable,
    DiceStore,
    GameRow,
    GameStore,
    LeagueRow,
    LeagueStore,
    OrderRow,
    OrderStore,
    OutboxRow,
    OutboxStore,
    PreferenceStore,
    Repository,
    SeatRow,
    StorageError,
    StreamRow,
    Transaction,
    VersionConflict,
)
from bot.storage.sqlite import SqliteRepository
from bot.storage.urls import POSTGRES_SCHEMES, DatabaseUrlError, parse


def open_repository(database_url: str) -> Repository:
    """A repository for ``DATABASE_URL`` (not yet opened: ``await repo.open()`` connects and
    applies the pending migrations).

    - ``sqlite:///path/to/file.sqlite3`` (the default), ``sqlite://:memory:``
    - ``postgresql://user@host:5432/db`` or ``postgres://…`` (asyncpg's URL: its query
      parameters, e.g. ``?sslmode=require`` or a server setting such as ``?search_path=pbp``,
      pass through)

    Anything else raises :class:`~bot.storage.urls.DatabaseUrlError` (a :class:`StorageError`)
    saying in one line what is wrong (bot/storage/urls.py reads every URL).
    """
    parsed = parse(database_url)
    if parsed.kind == "sqlite":
        return SqliteRepository(parsed.path)
    # Imported here: an SQLite bot never loads asyncpg.
    from bot.storage.postgres import PostgresRepository

    return PostgresRepository(parsed.text)


__all__ = [
    "ACTIVE_STATUSES",
    "POSTGRES_SCHEMES",
    "ClaimStore",
    "DatabaseUnavailable",
    "DatabaseUrlError",
    "DiceStore",
    "GameRow",
    "GameStore",
    "LeagueRow",
    "LeagueStore",
    "OrderRow",
    "OrderStore",
    "OutboxRow",
    "OutboxStore",
    "PreferenceStore",
    "Repository",
    "SeatRow",
    "SqliteRepository",
    "StorageError",
    "StreamRow",
    "Transaction",
    "VersionConflict",
    "open_repository",
]
