"""Named crash points for the end-to-end fault tests. Off (a no-op) unless armed.

``PBP_FAULT_POINT=<name>[@<n>]`` (read by :mod:`bot.config`, armed by ``python -m bot``) makes the
process kill itself with SIGKILL the ``n``-th time (default 1) execution reaches ``point(name)``:
no ``finally``, no flush, no clean shutdown, exactly as an OOM-kill or a power cut. The points:

``order-storing``     inside the order's transaction, the order written, not committed
``order-stored``      the order committed, before resolution and before the acknowledgement
``resolve-computing`` inside the resolution's transaction, the new state written, not committed
``resolve-committed`` the resolution committed, before the outbox is woken (nothing posted yet)
``outbox-posted``     Discord accepted a message, before the outbox row is marked sent

Tests only (``tests/e2e``, ``bench/faults.py``); production never sets the variable.
"""

from __future__ import annotations

import os
import signal

POINTS = (
    "order-storing",
    "order-stored",
    "resolve-computing",
    "resolve-committed",
    "outbox-posted",
)

_armed: str | None = None
_remaining = 0


def arm(spec: str | None) -> None:
    """``"resolve-committed@2"``: die on the second time that point is reached."""
    global _armed, _remaining
    if not spec:
        _armed, _remaining = None, 0
        return
    name, _, count = spec.partition("@")
    if name not in POINTS:
        raise ValueError(f"unknown fault point {name!r} (known: {', '.join(POINTS)})")
    _armed, _remaining = name, int(count or 1)


def point(name: str) -> None:
    global _remaining
    if _armed != name:
        return
    _remaining -= 1
    if _remaining <= 0:
        os.kill(os.getpid(), signal.SIGKILL)
