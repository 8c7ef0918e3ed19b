"""Forgotten players in a match record: seats whose players asked to be forgotten
(``/privacy forget``; :mod:`bot.privacy`) after the game ended.

Such a record names each forgotten player by a label (``Player A``; a substitute ``Player A
(2)``) in ``players`` and in ``handovers``, and says so::

    "forgotten": {"names": ["Player A"], "digest": "…"}

The players digest covers the players' names (:func:`bot.record.export.players_digest`), and a
forgotten name cannot be hashed again. So:

- ``players_digest`` is the digest as the game's first post published it (kept when the names
  were removed); it is recomputed only when ``players`` still hashes to it (a forgotten
  substitute leaves the first seating whole), otherwise it is taken as published and the check
  says so: compare it with the first post, as for any record;
- ``forgotten.digest`` (:func:`bot.record.export.forgotten_digest`) binds the rest of the
  seating, the labels, the handovers and that published digest together: a name edited, a label
  added or moved, a handover edited, or the published digest swapped fails it;
- a handover naming a forgotten player keeps its digest as published (its chain continues from
  it), since that digest covered the name; a handover naming nobody forgotten is checked as
  ever.

Everything that replays (seeds, receipts, orders, rolls, the result) binds seats, never
players, so it is checked exactly as in any record: a forgotten record whose orders or dice
were tampered with fails as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bot.record.export import forgotten_digest, players_digest
from bot.record.read import RecordError

if TYPE_CHECKING:
    from bot.record.read import Record

KEY = "forgotten"


class Lines(Protocol):
    """What this check writes to: :class:`bot.record.audit.Audit` (which imports this module,
    so it is named by its one method here rather than imported)."""

    def before(
        self, ok: bool, what: str, index: int, rank: int, error: RecordError | None
    ) -> None: ...


def forgotten_names(record: Mapping[str, Any]) -> frozenset[str]:
    """The labels that stand for forgotten players (none: the block is absent or malformed,
    which :func:`check_forgotten` reports)."""
    block = record.get(KEY)
    if not isinstance(block, Mapping):
        return frozenset()
    names = block.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return frozenset()
    return frozenset(names)


def check_forgotten(
    record: Mapping[str, Any], rec: Record, audit: Lines, players: Mapping[str, Any]
) -> RecordError | None:
    """The ``forgotten`` block of a record whose ``players`` are one per seat, and its players
    digest as published; one line each in verify. Returns why replay refuses the record."""
    block, published = record.get(KEY), record.get("players_digest")

    def refuse(why: str) -> RecordError:
        audit.before(False, f"forgotten players: {why}", -2, 1, None)
        return RecordError(f"forgotten players: {why}")

    names = forgotten_names(record)
    if not isinstance(block, Mapping) or not names or not isinstance(block.get("digest"), str):
        return refuse("must be {names: [label, …], digest}")
    if not isinstance(published, str):
        return refuse("a record of forgotten players must keep the published players_digest")
    entries = record.get("handovers", [])
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        entries = []  # check_handovers refuses it
    expected = forgotten_digest(rec.game_id, published, rec.seats, players, entries, sorted(names))
    if block["digest"] != expected:
        return refuse("the seating is not the one its digest binds (edited?)")
    listed = ", ".join(sorted(names))
    audit.before(True, f"forgotten players {listed}: seating bound (forgotten digest)", -2, 1, None)
    if published == players_digest(rec.game_id, rec.seats, players):
        audit.before(True, "players bound to their seats (players_digest)", -2, 1, None)
    else:
        what = (
            "players_digest as published, not recomputed (a forgotten player's name is gone):"
            " compare it with the game's first post"
        )
        audit.before(True, what, -2, 1, None)
    return None
