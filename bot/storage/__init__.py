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

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_repository(database_url: str) -> Repository:
    """A repository for ``DATABASE_URL`` (not yet opened: ``await repo.open()`` connects and
    applies the pending migrations).

    - ``sqlite:///path/to/file.sqlite3`` (the default), ``sqlite://:memory:``
    - ``postgresql://user@host:5432/db`` or ``postgres://…`` (asyncpg's URL: its query
      parameters, e.g. ``?sslmode=require`` or a server setting such as ``?search_path=pbp``,
      pass through)

    Anything else raises :class:`StorageError` naming the accepted forms.
    """
    url = database_url.strip()
    if url.startswith("sqlite:///"):
        return SqliteRepository(url.removeprefix("sqlite:///"))
    if url.startswith("sqlite://"):
        return SqliteRepository(url.removeprefix("sqlite://") or ":memory:")
    if url.startswith(POSTGRES_SCHEMES):
        # Imported here: an SQLite bot never loads asyncpg.
        from bot.storage.postgres import PostgresRepository

        return PostgresRepository(url)
    raise StorageError(
        f"unsupported DATABASE_URL scheme {url.split(':', 1)[0]!r}: use sqlite:///path.sqlite3 "
        "or postgresql://user@host:5432/database"
    )


__all__ = [
    "ACTIVE_STATUSES",
    "POSTGRES_SCHEMES",
    "ClaimStore",
    "DatabaseUnavailable",
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
