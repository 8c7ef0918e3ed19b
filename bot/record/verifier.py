"""Verifying a match record (``python -m bot verify``, ``/verify record``): every check of
``shared/spec/dice-and-receipts.md`` the record allows, each a line that passes, fails or notes
what a mid-game export withholds, where replay (:mod:`bot.record.replayer`) refuses the record at
its first failure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.record.audit import Audit, Check, check_before, check_players
from bot.record.handovers import check_handovers
from bot.record.read import (
    Halted,
    RecordError,
    WithheldError,
    label_of,
    read_record,
    refused_if_malformed,
    where,
)
from bot.record.replayer import Replay, check_result, check_secret_after, play, resign


def verify(record: Mapping[str, Any]) -> list[Check]:
    """Check every commitment, receipt, orders digest and drawn roll of a real export, and its
    players and result.

    Seeds and receipts are checked first, without playing, so an edited order is a receipt
    mismatch on its own step; then the game is replayed to recompute every roll (the secret
    stream's too) and the receipts of defaulted seats; last, the record's ``result`` is compared
    with the game the replay ends in (a forged winner, a record cut short). A mid-game export is
    checked as far as it goes; its withheld parts are ``note`` lines, neither passed nor failed.
    """
    with refused_if_malformed():
        return _verify(record)


def _verify(record: Mapping[str, Any]) -> list[Check]:
    rec = read_record(record)
    audit = Audit(strict=False)
    deferred = check_before(rec, audit)
    check_players(record, rec, audit)
    check_handovers(record, rec, audit)
    out = Replay(rec.spec.key, None, 0)
    complete, replayed = False, "stopped"
    try:
        play(rec, audit, deferred, out)
        complete = True
        check_secret_after(rec, audit, out, complete)  # before a resignation ends the game
        resign(rec, record.get("end"), out)
        replayed = "complete"
    except WithheldError as exc:
        audit.note(f"{exc} (not replayed from here on)", exc.turn or 0, 5)
        replayed = "withheld"
    except Halted as exc:  # the halt's receipt check failed already
        audit.note(f"{exc} (not replayed from here on)", exc.turn or 0, 5)
    except RecordError as exc:
        stopped = exc.turn if exc.turn is not None else len(rec.turns) + 1
        cause = audit.cause_of(exc)
        if cause is None:
            audit.fail(f"replay: {exc}", stopped, 5)
        else:
            # The game differs from the tampered step on (other dice, other orders): whatever
            # stopped it there (an illegal move, a game over early) is not the record's fault
            # to report; the failed check above is.
            place = where(exc.turn, exc.step) or "the end"
            since = where(cause.turn, cause.step) or "the start"
            seat = f", seat {cause.seat}" if cause.seat is not None else ""
            audit.note(
                f"{place}: not replayed from here on ({since}{seat}: {cause.reason})", stopped, 5
            )
    for index, seats in sorted(deferred.items()):
        block = rec.turns[index - 1] if index else rec.setup
        at = where(index, label_of(block))
        for seat, kind in sorted(seats.items()):
            if (index, seat) in audit.done:
                continue
            if kind == "default":  # the replay stopped before: the default order is unknown
                audit.note(f"{at} seat {seat} receipt not checked (a default order)", index, 1)
            else:  # the text as given is not what its receipt seals
                audit.fail(f"{at} seat {seat} receipt", index, 1)
    if not complete:
        check_secret_after(rec, audit, out, complete)
    check_result(record, rec, audit, out, replayed)
    return audit.checks()
