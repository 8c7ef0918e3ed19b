"""What the viewer shows of each step, in the reader's language: the board the channel saw, the
log, the tallies, the orders, who is awaited next, and (a finished game only) each seat's DM.

A frame ``k`` is the channel post made once step ``k`` resolved (``0``: the game's first post,
after the setup): its log is the step's public events, its board the public view as the post
drew it (the next step already open, its ``pre`` dice drawn), and its orders those of step ``k``.
A record has one frame per step whether or not it could be played: a step the rules could not
play (or a mid-game export's withheld part) keeps its record's facts and says why it has no board.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from bot.record.read import is_withheld, order_text
from bot.ruleset import Event, Presenter
from bot.viewer.pictures import Images
from bot.viewer.play import Played, Step

_MENTION = re.compile(r"<@(\d+)>")
_MARKUP = re.compile(r"\*\*|__|`")


def plain(text: str) -> str:
    """A post's line without Discord's markup, on one line (alt text)."""
    return " ".join(_MARKUP.sub("", text).split())


def names_at(record: Mapping[str, Any], seats: Sequence[str], index: int) -> dict[str, str]:
    """Seat -> the player who held it at step ``index`` (handovers applied up to it)."""
    players = record.get("players")
    names = {s: str(players.get(s, s)) for s in seats} if isinstance(players, Mapping) else {}
    handovers = record.get("handovers")
    for entry in handovers if isinstance(handovers, list) else []:
        step = entry.get("step") if isinstance(entry, Mapping) else None
        if isinstance(step, int) and step <= index and entry.get("seat") in names:
            names[str(entry["seat"])] = str(entry.get("to"))
    return names or {s: s for s in seats}


def _lines(
    presenter: Presenter, events: Sequence[Event], lang: str, names: Mapping[str, str]
) -> list[str]:
    return presenter.event_lines([e.to_json() for e in events], lang, names)


@dataclass
class FrameMaker:
    """Frames of one played record, in ``lang``; ``private``: a finished game's (every seat's
    DM view at every step), else only what was public."""

    played: Played
    record: Mapping[str, Any]
    lang: str
    private: bool
    images: Images = field(default_factory=Images)

    @property
    def presenter(self) -> Presenter:
        return self.played.rec.spec.presenter

    def frames(self) -> list[dict[str, Any]]:
        turns = self.played.rec.turns
        frames = [self.frame(k) for k in range(len(turns) + 1)]
        # A seat's private view that did not change since an earlier frame is that frame's
        # number (a seat's sheet and hand stay the same for many steps): the page looks it up.
        seen: dict[str, tuple[int, Any]] = {}
        for k, frame in enumerate(frames):
            for seat, private in frame["private"].items():
                if seat in seen and seen[seat][1] == private:
                    frame["private"][seat] = seen[seat][0]
                else:
                    seen[seat] = (k, private)
        return frames

    def _step(self, k: int) -> Step | None:
        steps = self.played.steps
        return steps[k] if k < len(steps) else None

    def _board_state(self, k: int) -> Any:
        """The state the post of step ``k`` drew: the next step open, else the step's own end
        (the game's end for the last)."""
        step, after = self._step(k), self._step(k + 1)
        if step is None or step.state is None:
            return None
        if after is not None and after.opened is not None:
            return after.opened
        if k == len(self.played.steps) - 1 and self.played.stopped is None:
            return self.played.final
        return step.state

    def frame(self, k: int) -> dict[str, Any]:
        rules, present, lang = self.played.rec.rules, self.presenter, self.lang
        rec = self.played.rec
        block = rec.setup if k == 0 else rec.turns[k - 1]
        block = block if isinstance(block, Mapping) else {}
        names = names_at(self.record, rec.seats, k)
        step, after = self._step(k), self._step(k + 1)
        state = self._board_state(k)
        frame: dict[str, Any] = {"n": k, "label": block.get("step") if k else None}
        if step is not None and step.opened is not None:
            opened = rules.view(step.opened, None)
            frame["name"] = plain(present.step_name(opened, lang, step.turn))
        else:
            frame["name"] = t(lang, "viewer.setup") if k == 0 else str(block.get("step") or k)
        events: list[Event] = []
        opened_next: list[Event] = []
        if step is not None:
            events = [*step.resolved]
            if after is not None:
                opened_next = after.started
            if k == len(self.played.steps) - 1 and state is self.played.final:
                events += self.played.ended
        log = _lines(present, [e for e in [*events, *opened_next] if e.public], lang, names)
        log = [*self._handover_lines(k), *log]
        if k == 0:
            players = " · ".join(f"{s} {names.get(s, s)}" for s in rec.seats)
            log.insert(0, t(lang, "viewer.players", players=players))
        frame["orders"] = self._orders(step, block, lang)
        frame["v"] = self._verify_inputs(step)
        if state is None:
            frame.update(board=None, log=log, tallies=[], awaited=None, private={})
            frame["missing"] = self._why_no_board(k)
            return frame
        view = rules.view(state, None)
        outcome = rules.outcome(state)
        if outcome.finished:
            log.append("**" + self._outcome_line(outcome, names) + "**")
        tallies = [[plain(n), v] for n, v in present.tallies(view, lang, names)]
        now = plain(present.step_name(view, lang, rules.step_number(state)))
        facts = "; ".join(f"{n}: {plain(v)}" for n, v in tallies)
        frame.update(
            board=self.images.board(present, view, lang, names, self.played.rec.spec.key),
            alt=t(lang, "viewer.alt", step=now, facts=facts or "—"),
            now=now,
            log=log,
            tallies=tallies,
            awaited=[] if outcome.finished else list(rules.awaiting(state)),
        )
        frame["private"] = (
            self._private(state, [*events, *opened_next], names) if self.private else {}
        )
        return frame

    def _handover_lines(self, k: int) -> list[str]:
        handovers = self.record.get("handovers")
        return [
            t(self.lang, "viewer.handover", seat=h.get("seat"), old=h.get("from"), new=h.get("to"))
            for h in (handovers if isinstance(handovers, list) else [])
            if isinstance(h, Mapping) and h.get("step") == k
        ]

    def _outcome_line(self, outcome: Any, names: Mapping[str, str]) -> str:
        seats = self.played.rec.seats
        users = {s: i + 1 for i, s in enumerate(seats)}
        text = self.presenter.outcome_text(outcome, self.lang, users, self.played.ended_by)
        # The channel mentions the winner; the page names the player.
        return _MENTION.sub(lambda m: names.get(seats[int(m.group(1)) - 1], "?"), text)

    def _why_no_board(self, k: int) -> str:
        stopped = self.played.stopped
        if stopped is not None and k >= stopped.index:
            key = "viewer.no_board.withheld" if stopped.withheld else "viewer.no_board.stopped"
            return t(self.lang, key, step=stopped.index, reason=stopped.reason)
        return t(self.lang, "viewer.no_board.stopped", step=k, reason="—")

    def _orders(
        self, step: Step | None, block: Mapping[str, Any], lang: str
    ) -> list[dict[str, Any]]:
        """The step's orders as they can be shown now: each awaited seat's text (its default's
        when it sent none), a withheld one by its receipt; a finished game's orders that were
        private at the time say so."""
        inputs = block.get("inputs")
        inputs = inputs if isinstance(inputs, Mapping) else {}
        receipts = block.get("receipts")
        receipts = receipts if isinstance(receipts, Mapping) else {}
        seats = step.awaited if step is not None and step.state is not None else []
        seats = seats or [s for s in self.played.rec.seats if s in inputs or s in receipts]
        shown = []
        for seat in seats:
            given = inputs.get(seat)
            entry: dict[str, Any] = {"seat": seat}
            if given is None:
                canonical = step.canonical.get(seat) if step is not None else None
                entry.update(kind="default", text=self.presenter.order_text(canonical or "—", lang))
            elif is_withheld(given):
                entry.update(kind="withheld", receipt=str(given["receipt"])[:12])
            else:
                text = self.presenter.order_text(order_text(given), lang)
                kept = step is not None and seat in self.played.withheld(step)
                entry.update(kind="kept" if kept else "given", text=text)
            shown.append(entry)
        return shown

    def _verify_inputs(self, step: Step | None) -> dict[str, Any]:
        """What the browser's check takes from the rules (the rest it reads from the record):
        each die's sides per stream, the stream's turn, the canonical orders, the rolls used."""
        if step is None or step.state is None:
            return {"played": False}
        return {
            "played": True,
            "turn": step.turn,
            "sides": step.sides,
            "rolls": step.rolls,
            "secret": step.secret_sides,
            "canonical": step.canonical,
        }

    def _private(
        self, state: Any, events: Sequence[Event], names: Mapping[str, str]
    ) -> dict[str, Any]:
        """Each seat's DM of this post: what it was told alone, its own view's lines, and its
        own board where the ruleset draws one."""
        rules, present, lang = self.played.rec.rules, self.presenter, self.lang
        out = {}
        for seat in self.played.rec.seats:
            view = rules.view(state, seat)
            told = _lines(
                present, [e for e in events if e.to is not None and seat in e.to], lang, names
            )
            board = (
                self.images.board(present, view, lang, names, self.played.rec.spec.key, False)
                if present.private_board(view, seat)
                else None
            )
            out[seat] = {
                "told": told,
                "lines": present.private_lines(view, seat, lang),
                "board": board,
            }
        return out
