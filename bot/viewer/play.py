"""A match record played again step by step, keeping what the viewer shows of every step.

The replayer plays it (:func:`bot.record.replayer.play`, asked to keep its steps): the state after
each step opened and after it resolved (the channel's board is drawn from them), who was awaited,
the orders as the rules read them, and the size of every die each stream drew (a stream's rolls
can be recomputed from its seed only when the sizes are known, and the rules choose them: the
page checks the dice in the browser so). Unlike ``replay`` the viewer never refuses a record
whose checks fail: it plays it as far as the engine accepts it (the checks are the browser's),
and :attr:`Played.stopped` says where and why it could not go on (the page marks that step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.record import RecordError, Replay, WithheldError
from bot.record.audit import Audit
from bot.record.read import Record, read_record
from bot.record.replayer import PlayedStep, resign
from bot.record.replayer import play as replay_steps
from bot.ruleset import Event

Step = PlayedStep


@dataclass
class Stop:
    """Where playing stopped: ``index`` the step, ``withheld`` when it is a mid-game export's
    withheld part (not a fault), ``reason`` in English as replay would say it."""

    index: int
    reason: str
    withheld: bool


@dataclass
class Played:
    rec: Record
    steps: list[Step]
    stopped: Stop | None
    final: Any  # the last state (after the record's ``end``: resignations, a ruling)
    ended: list[Event] = field(default_factory=list)  # the events of that ``end``
    ended_by: str | None = None

    @property
    def finished(self) -> bool:
        return self.final is not None and self.rec.rules.outcome(self.final).finished

    def withheld(self, step: Step) -> list[str]:
        """The seats of ``step`` whose orders stayed private once it resolved."""
        private = self.rec.spec.withheld
        if private is None or step.ordered is None:
            return []
        return [s for s in step.awaited if private(step.ordered, s)]


def play(record: Mapping[str, Any]) -> Played:
    """Play ``record`` as far as its engine takes it. :class:`RecordError` only for what is not
    a record at all (its frame: format, ruleset, seats); anything inside it stops the play."""
    rec = read_record(record)
    out = Replay(rec.spec.key, None, 0, steps=[])
    assert out.steps is not None
    played = Played(rec, out.steps, None, None)
    # No receipt is checked while playing (``deferred`` empty) and no failed check stops it
    # (``strict`` off): the page makes every check itself, from the record.
    try:
        replay_steps(rec, Audit(strict=False), {}, out)
    except RecordError as exc:
        index = exc.turn if exc.turn is not None else len(played.steps) - 1
        played.stopped = Stop(max(index, 0), exc.reason, isinstance(exc, WithheldError))
    played.final, played.ended_by = out.state, out.ended_by
    if played.stopped is None:
        before = len(out.events)
        try:
            resign(rec, record.get("end"), out)
        except RecordError as exc:
            played.stopped = Stop(len(rec.turns), exc.reason, False)
        else:
            played.final, played.ended = out.state, [e for _, e in out.events[before:]]
            played.ended_by = out.ended_by
    return played
