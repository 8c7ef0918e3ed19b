"""Players' absences (``/away``) and every deadline a seat let pass, excused by an absence or not
(issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``absences_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC


class AbsenceStore(ABC):  # noqa: B024  (its methods come with the feature: issue 34)
    """Players' absences (``/away``) and every deadline a seat let pass, excused by an absence or
    not (issue 34)."""
