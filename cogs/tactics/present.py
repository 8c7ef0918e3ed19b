"""How tactics reads and looks: step names, the tally, event sentences, DM lines, the board.

Pure (i18n and the renderer only). Events name units by id (``A2``); the sentence shows the unit's
name in the reader's language with its label (``Knight A-2``, :func:`cogs.tactics.units.tag`: the
dash keeps it from reading as the square A2), so two knights stay apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import has, t
from bot.ordertext import japanese_spellings, reword
from bot.ruleset import Presenter
from cogs.tactics import board, master, units
from cogs.tactics.sheet import KEYWORDS
from cogs.tactics.units import tag

SEATS = ("A", "B")


def unit_label(unit: Mapping[str, Any] | None, lang: str, fallback: str = "?") -> str:
    """``Knight A-2`` (the name in ``lang``, then the label that tells copies apart)."""
    if not unit:
        return tag(fallback)
    names = unit.get("name") or {}
    name = names.get(lang) or names.get("en") or unit.get("kind") or ""
    return f"{name} {tag(str(unit.get('id', '')))}".strip()


def _tallies(view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]:
    fields = []
    mana = view.get("mana") or {}
    for seat in SEATS:
        current, maximum = (mana.get(seat) or [0, 0])[:2]
        value = t(
            lang,
            "tactics.tally.side",
            dp=(view.get("dp") or {}).get(seat, 0),
            mana=current,
            max=maximum,
            alive=(view.get("alive") or {}).get(seat, 0),
        )
        if view.get("first") == seat:
            value += "\n" + t(lang, "tactics.tally.first")
        fields.append((f"{seat} · {names.get(seat, seat)}", value))
    if view.get("step") == "play" or view.get("outcome"):
        turn_value = t(
            lang, "tactics.tally.turn_value", turn=view.get("turn", 0), max=view.get("max_turns")
        )
        if view.get("summon_turn"):
            turn_value += "\n" + t(lang, "tactics.tally.summon_turn")
        fields.append((t(lang, "tactics.tally.turn"), turn_value))
    return fields


def _units_by_id(events: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """Units the events describe (``tactics.revealed`` lists them; others carry ``names``)."""
    known: dict[str, Mapping[str, Any]] = {}
    for event in events:
        for unit in event.get("units") or ():
            if isinstance(unit, Mapping) and "id" in unit:
                known[str(unit["id"])] = unit
        for uid, name in (event.get("names") or {}).items():
            known.setdefault(uid, {"id": uid, "name": name})
    return known


UNIT_FIELDS = ("unit", "target_unit", "killer")
QUIET = ("mana",)


def _params(
    event: Mapping[str, Any], lang: str, units: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key in ("type", "names", "units"):
            continue
        if key in UNIT_FIELDS and isinstance(value, str):
            params[key] = unit_label(units.get(value) or _named(event, value), lang, value)
        elif key == "stat" and has(f"tactics.stat.{value}"):  # a stat a buff changes
            params[key] = t(lang, f"tactics.stat.{value}")
        elif key == "reason" and isinstance(value, str):
            params[key] = t(lang, value) if has(value) else value
        elif isinstance(value, Mapping) and set(value) <= {"en", "ja"}:
            params[key] = value.get(lang) or value.get("en") or ""
        elif key == "path" and isinstance(value, list):
            params[key] = "→".join(map(str, value))
        elif isinstance(value, list) and all(isinstance(v, int) for v in value):
            params[key] = "·".join(map(str, value)) or "—"
        else:
            params[key] = value
    return params


def _named(event: Mapping[str, Any], uid: str) -> Mapping[str, Any] | None:
    name = (event.get("names") or {}).get(uid)
    return {"id": uid, "name": name} if name else None


def _event_key(event: Mapping[str, Any]) -> str | None:
    kind = str(event["type"])
    if kind in QUIET:
        return None  # bookkeeping the log does not need (the tally shows the mana)
    # Nothing moved: "only moves" would mislead, the sentence says the unit does not act.
    if kind == "fallback.move_only" and not event.get("moved", True):
        return "tactics.event.fallback.no_action"
    return "tactics.event." + kind


def _event_lines(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> list[str]:
    units = _units_by_id(events)
    lines: list[str] = []
    for event in events:
        key = _event_key(event)
        if key is None or not has(key):
            continue
        params = _params(event, lang, units)
        params.update(_derived(event, lang, names))
        if event["type"] == "phase":
            lines.append("")
            lines.append("**" + t(lang, key, **params) + "**")
            continue
        lines.append("• " + t(lang, key, **params))
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _derived(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> dict[str, Any]:
    """Parameters some sentences need that are not fields of the event as such."""
    kind = str(event["type"])
    extra: dict[str, Any] = {}
    if "seat" in event:
        extra["player"] = names.get(str(event["seat"]), str(event["seat"]))
    if kind == "first":
        dice = event.get("dice") or {}
        extra["dice_a"] = "·".join(map(str, dice.get("A", []))) or "—"
        extra["dice_b"] = "·".join(map(str, dice.get("B", []))) or "—"
    elif kind == "deployed":
        extra["count"] = len(event.get("units") or ())
    elif kind == "death":
        extra["dp_text"] = (
            t(lang, "tactics.event.death.friendly")
            if event.get("friendly")
            else t(
                lang, "tactics.event.death.dp", points=event.get("points"), dp_to=event.get("dp_to")
            )
        )
    elif kind == "end":
        result = event.get("outcome")
        extra["result"] = (
            t(lang, "tactics.end.draw")
            if result == "draw"
            else t(lang, "tactics.end.win", player=names.get(str(result), str(result)), seat=result)
        )
        dp = event.get("dp") or {}
        extra["dp_a"], extra["dp_b"] = dp.get("A", 0), dp.get("B", 0)
        extra["how"] = t(lang, f"tactics.end.how.{event.get('reason', 'dp')}")
    return extra


def _private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What only this seat is told in its DM: its step's task and its own units' state."""
    step = view.get("step")
    lines = []
    # Each step's DM ends with how to answer that step (the presenter's closing line,
    # ``tactics.dm.help``, only says how to send or replace it, true of every step).
    if step == "roster":
        lines.append(t(lang, "tactics.dm.roster", cap=view.get("cost_cap", 18)))
        return lines
    if step == "deploy":
        mine = [u for u in view.get("units") or () if u.get("side") == seat]
        roster = ", ".join(f"{unit_label(u, lang)} ({u.get('cost')})" for u in mine)
        zone = (view.get("map") or {}).get("zones", {}).get(seat) or []
        lines.append(t(lang, "tactics.dm.deploy", cap=view.get("cost_cap", 18), roster=roster))
        if zone:
            lines.append(t(lang, "tactics.dm.zone", first=zone[0], last=zone[-1]))
        return lines
    # The engine says what this sheet may spend (its mana refills at the start of the phase).
    lines.append(t(lang, "tactics.dm.mana", mana=view.get("next_mana", 0)))
    for unit in view.get("units") or ():
        if unit.get("side") != seat or unit.get("status", "board") != "board":
            continue
        marks = " 💤" if unit.get("exhausted") else ""
        lines.append(
            t(
                lang,
                "tactics.dm.unit",
                unit=unit_label(unit, lang),
                square=unit.get("square") or "—",
                hp=unit.get("hp"),
                max=unit.get("max_hp"),
            )
            + marks
        )
    if view.get("summon_turn"):
        reserve = [
            unit_label(u, lang)
            for u in view.get("units") or ()
            if u.get("side") == seat and u.get("status") == "reserve"
        ]
        if reserve:
            lines.append(t(lang, "tactics.dm.summon", units=", ".join(reserve)))
    mine = [u for u in view.get("units") or () if u.get("side") == seat and u.get("square")]
    lines.append(
        t(lang, "tactics.dm.sheet", id=tag(str(mine[0]["id"])) if mine else tag(seat + "2"))
    )
    return lines


class TacticsPresenter(Presenter):
    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        step = view.get("step")
        if step in ("roster", "deploy"):
            return t(lang, f"tactics.step.{step}")
        return t(lang, "tactics.step.turn", turn=view.get("turn", 0), max=view.get("max_turns", 10))

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        return _tallies(view, lang, names)

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        return _event_key(event)

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        return _event_lines(events, lang, names)

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return _private_lines(view, seat, lang)

    def order_text(self, text: str, lang: str) -> str:
        """A sheet with each line's unit shown as the logs and the board name it (``A4 >D9``
        reads ``A-4 >D9``): only a line's first word is a unit; the others may be squares. In
        Japanese the keywords and unit kinds read as typed in Japanese (``A-4 →D9 待機``,
        ``デッキ 覇王 剣士``)."""
        lines = []
        for line in text.splitlines():
            parts = []  # a lineup's parts (``A2 C9, A4 D9``) each begin with a unit too
            for part in line.split(","):
                first, space, rest = part.strip().partition(" ")
                parts.append(f"{tag(first)}{space}{rest}")
            shown = ", ".join(parts)
            lines.append(shown if lang == "en" else reword(shown, _words(lang), {">": "→"}))
        return "\n".join(lines)

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """Each side's DP, mana and units, the deploy zones while deploying, which units moved,
        came, fell or changed, and where every unit on the board stands."""
        notes = []
        mana = view.get("mana") or {}
        for seat in SEATS:
            current, maximum = (mana.get(seat) or [0, 0])[:2]
            notes.append(
                t(
                    lang,
                    "tactics.alt.side",
                    seat=alttext.seat_label(seat, names),
                    dp=(view.get("dp") or {}).get(seat, 0),
                    mana=current,
                    max=maximum,
                    alive=(view.get("alive") or {}).get(seat, 0),
                )
            )
        zones = (view.get("map") or {}).get("zones") or {}
        if view.get("step") in ("roster", "deploy") and zones:
            spans = [f"{s} {z[0]}–{z[-1]}" for s, z in sorted(zones.items()) if z]
            notes.append(t(lang, "tactics.alt.zones", zones=alttext.listed(lang, spans)))
        return alttext.describe(
            self.title(lang),
            lang,
            names,
            scene,
            _pieces(view, lang),
            _pieces(scene.before, lang),
            notes,
        )


def _pieces(view: Mapping[str, Any] | None, lang: str) -> dict[str, alttext.Piece]:
    """Every unit as a description names it (``Oracle A-1``): its square while on the board,
    its HP, and the master's and an exhausted unit's marks."""
    pieces = {}
    for unit in (view or {}).get("units") or ():
        state = [(t(lang, "tactics.alt.hp"), f"{max(unit.get('hp', 0), 0)}/{unit.get('max_hp')}")]
        if unit.get("master"):
            state.append((t(lang, "tactics.board.legend_master"), ""))
        if unit.get("exhausted"):
            state.append((t(lang, "tactics.board.legend_exhausted"), ""))
        square = unit.get("square") if unit.get("status") == "board" else None
        pieces[str(unit.get("id"))] = alttext.Piece(unit_label(unit, lang), square, tuple(state))
    return pieces


PRESENTER = TacticsPresenter("tactics")


@cache
def _words(lang: str) -> dict[str, str]:
    """The sheet's keywords and the unit kinds (pool units and master presets by id) in
    ``lang``, for :meth:`TacticsPresenter.order_text`."""
    found = japanese_spellings(KEYWORDS)
    found["roster"] = "デッキ"  # the seed's word (ロスター, listed first, is kept for typing)
    for unit in (*units.pool(), *master.presets()):
        found[unit.id] = unit.name.get(lang, unit.id)
    return found
