"""Match records (``shared/spec/match-record.md``): export, reading, replay and verification.

Pure: a record is plain JSON, the engines are deterministic given their inputs and dice, so
replaying a record always gives the same game, event for event. One module a job, each importing
only the ones listed before it:

- :mod:`bot.record.export`: what ``/game export`` and the demo write (:func:`build_record`);
- :mod:`bot.record.read`: the one guarded reader of a record (:func:`load_record`,
  :class:`RecordError`, the record's frame and the ruleset's check of its options);
- :mod:`bot.record.forgotten`: players forgotten at their request, their labels bound to the
  published players digest;
- :mod:`bot.record.audit`: the checks that need no playing (commitments, receipts, orders
  digests, players);
- :mod:`bot.record.handovers`: seats handed to substitutes, checked against the seating;
- :mod:`bot.record.replayer`: :func:`replay`, and the checks only playing can make;
- :mod:`bot.record.verifier`: :func:`verify`, every check as a line.

The last two are not named ``replay`` and ``verify``: this package exports functions of those
names, which would hide modules of the same name (``import bot.record.replay as m`` would give
the function).
"""

from __future__ import annotations

from bot.record.audit import Check
from bot.record.export import (
    FORMAT,
    RUNNING_STATUSES,
    STATUSES,
    WITHHELD_KEY,
    build_record,
    forgotten_digest,
    original_players,
    players_digest,
)
from bot.record.handovers import handover_digest
from bot.record.read import MAX_RECORD_BYTES, RecordError, WithheldError, load_record, where
from bot.record.replayer import Replay, replay
from bot.record.verifier import verify

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "RUNNING_STATUSES",
    "STATUSES",
    "WITHHELD_KEY",
    "Check",
    "RecordError",
    "Replay",
    "WithheldError",
    "build_record",
    "forgotten_digest",
    "handover_digest",
    "load_record",
    "original_players",
    "players_digest",
    "replay",
    "verify",
    "where",
]
