"""Seats handed to a substitute mid-game and seats offered for one (``/game substitute``, ``/game
replace-me``; issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``handovers_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC


class HandoverStore(ABC):  # noqa: B024  (its methods come with the feature: issue 34)
    """Seats handed to a substitute mid-game and seats offered for one (``/game substitute``,
    ``/game replace-me``; issue 34)."""
