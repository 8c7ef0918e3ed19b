"""Handovers in a match record: a seat handed to a substitute mid-game (``/game substitute``).

A record names its players as the game's first post bound them: ``players`` is the *original*
seating and ``players_digest`` still verifies against that post after any handover. Each handover
is then an entry of ``handovers``, in the order they happened::

    {"step": 7, "seat": "B", "from": "Bob", "to": "Carol", "digest": "…"}

``step`` is the index in ``turns`` of the step that was open (the substitute played it and every
later one; an order the former player had already sealed for it stays, as any accepted order
does), ``from`` and ``to`` the players' names as ``players`` names them. ``digest``
(:func:`handover_digest`) chains the entry to the one before it (the first to ``players_digest``),
and the channel post that announced the handover shows it: an entry edited, dropped or added
without its digest fails ``verify``, and a whole chain forged anew no longer matches the posts.
The dice and receipts bind orders to seats, never to players, so a handover changes nothing that
replays: ``replay`` and ``verify`` check the chain first (each ``from`` is the seat's player at
that moment, steps in order and not beyond the record) and then play the game as usual. An entry
naming a forgotten player (:mod:`bot.record.forgotten`) keeps its digest as published.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.record.export import players_digest
from bot.record.forgotten import forgotten_names
from bot.record.read import RecordError, one_line

if TYPE_CHECKING:
    from bot.record.audit import Audit
    from bot.record.read import Record

KEYS = ("step", "seat", "from", "to", "digest")


def handover_digest(
    game_id: str, previous: str, step: int, seat: str, old: str | None, new: str | None
) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of ``{"game_id", "previous",
    "step", "seat", "from", "to"}``: ``previous`` is the digest of the handover before it, or the
    record's ``players_digest`` for the first."""
    body = {
        "game_id": game_id,
        "previous": previous,
        "step": step,
        "seat": seat,
        "from": old,
        "to": new,
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def check_handovers(record: Mapping[str, Any], rec: Record, audit: Audit) -> RecordError | None:
    """Each handover against the seating before it and its digest; one line each in verify.
    Returns why replay refuses the record (None: nothing to refuse)."""
    entries = record.get("handovers")
    if entries is None:
        return None

    def refuse(why: str) -> RecordError:
        audit.before(False, f"handovers: {why}", -2, 2, None)
        return RecordError(f"handovers: {why}")

    if not isinstance(entries, list) or not all(
        isinstance(e, Mapping) and all(k in e for k in KEYS) for e in entries
    ):
        return refuse("must be a list of {" + ", ".join(KEYS) + "}")
    players = record.get("players")
    holders: dict[str, Any] = dict(players) if isinstance(players, Mapping) else {}
    previous = record.get("players_digest")
    if not isinstance(previous, str):
        previous = players_digest(rec.game_id, rec.seats, holders)
    last_step = 0
    forgotten = forgotten_names(record)
    for number, entry in enumerate(entries, start=1):
        step, seat, old, new, digest = (entry[k] for k in KEYS)
        what = f"handover {number}: seat {one_line(seat)} {one_line(old)} → {one_line(new)}"
        if seat not in rec.seats:
            return refuse(f"{what}: not a seat of this game")
        if not isinstance(step, int) or isinstance(step, bool) or step < 1:
            return refuse(f"{what}: step must be a step number (1, 2, …)")
        if step < last_step or step > len(rec.turns) + 1:
            return refuse(f"{what}: step {step} out of order or beyond the record")
        if not isinstance(old, str) or not isinstance(new, str):
            return refuse(f"{what}: from and to must be player names")
        if holders and holders.get(seat) != old:
            held = one_line(holders.get(seat))
            return refuse(f"{what} at step {step}: the seat was {held}'s, not {one_line(old)}'s")
        if old in forgotten or new in forgotten:
            # The digest covered a name that is gone: taken as published (the post showed it),
            # and bound with the rest of the seating by the forgotten digest.
            audit.before(True, f"{what} at step {step} (digest as published)", -2, 2, None)
        elif digest != handover_digest(rec.game_id, previous, step, seat, old, new):
            return refuse(f"{what} at step {step}: its digest does not match (edited?)")
        else:
            audit.before(True, f"{what} at step {step} (digest)", -2, 2, None)
        holders[seat], previous, last_step = new, digest, step
    return None
