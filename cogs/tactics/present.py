"""How tactics reads and looks: step names, the tally, event sentences, DM lines, the board.

Pure (i18n and the renderer only). Events name units by id (``A2``); the sentence shows the unit's
name in the reader's language with its label (``Knight A-2``, :func:`cogs.tactics.units.tag`: the
dash keeps it from reading as the square A2), so two knights stay apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    """One field per side (its DP and units on the board, who plays first), then the mana of
    both (it changes every turn, so the sides' fields can be cut when nothing else did), and
    a field of its own on a summon turn."""
    fields = []
    mana = view.get("mana") or {}
    for seat in SEATS:
        value = t(
            lang,
            "tactics.tally.side",
            dp=(view.get("dp") or {}).get(seat, 0),
            alive=(view.get("alive") or {}).get(seat, 0),
        )
        if view.get("first") == seat:
            value += "\n" + t(lang, "tactics.tally.first")
        fields.append((t(lang, "tactics.tally.name", seat=seat, name=names.get(seat, seat)), value))
    if view.get("step") == "play" or view.get("outcome"):
        each = [
            t(lang, "tactics.tally.mana_each", seat=seat, mana=m[0], max=m[1])
            for seat in SEATS
            if len(m := (mana.get(seat) or [0, 0])) >= 2
        ]
        fields.append((t(lang, "tactics.tally.mana"), t(lang, "tactics.tally.sep").join(each)))
        if view.get("summon_turn") and not view.get("outcome"):
            fields.append((t(lang, "tactics.tally.summon"), t(lang, "tactics.tally.summon_turn")))
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
        elif key == "delta" and isinstance(value, int):  # a stat change: its sign in print
            params[key] = _signed(value)
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


def _mine(view: Mapping[str, Any], seat: str, status: str = "board") -> list[Mapping[str, Any]]:
    return [
        u
        for u in view.get("units") or ()
        if u.get("side") == seat and u.get("status", "board") == status
    ]


def _reserve(view: Mapping[str, Any], seat: str) -> list[Mapping[str, Any]]:
    """The seat's units it may still summon (neither on the board nor dead)."""
    return [
        u
        for u in view.get("units") or ()
        if u.get("side") == seat and u.get("status") not in ("board", "dead")
    ]


def _question(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What this step asks: a roster, a lineup and its squares, or a sheet (with the mana it may
    spend, the units it orders where they stand, and what it may summon)."""
    step = view.get("step")
    if step == "roster":
        return [t(lang, "tactics.dm.roster", cap=view.get("cost_cap", 18))]
    if step == "deploy":
        mine = [u for u in view.get("units") or () if u.get("side") == seat]
        roster = t(lang, "tactics.dm.list_sep").join(
            t(lang, "tactics.dm.roster_unit", unit=unit_label(u, lang), cost=u.get("cost"))
            for u in mine
        )
        zone = (view.get("map") or {}).get("zones", {}).get(seat) or []
        lines = [t(lang, "tactics.dm.deploy", cap=view.get("cost_cap", 18), roster=roster)]
        if zone:
            lines.append(t(lang, "tactics.dm.zone", first=zone[0], last=zone[-1]))
        return lines
    if step != "play" or view.get("outcome"):
        return []
    units = t(lang, "tactics.dm.list_sep").join(
        t(
            lang,
            "tactics.dm.unit_short",
            unit=unit_label(u, lang),
            square=u.get("square") or "—",
            hp=u.get("hp"),
            max=u.get("max_hp"),
        )
        + (" 💤" if u.get("exhausted") else "")
        for u in _mine(view, seat)
    )
    lines = [t(lang, "tactics.dm.ask", mana=view.get("next_mana", 0), units=units)]
    if view.get("summon_turn") and (reserve := _reserve(view, seat)):
        listed = t(lang, "tactics.dm.list_sep").join(unit_label(u, lang) for u in reserve)
        key = "tactics.dm.summon" if len(reserve) > 1 else "tactics.dm.summon_one"
        lines.append(t(lang, key, units=listed))
    return lines


def _stats(unit: Mapping[str, Any], lang: str) -> str:
    """``HP 5/5 · ATK 6 DEF 1 MOV 3 RNG 2–5 · ✨ Headshot (4 mana)`` and its marks."""
    low, high = [*(unit.get("range") or ()), 1, 1][:2]
    text = t(
        lang,
        "tactics.dm.stats",
        hp=unit.get("hp"),
        max=unit.get("max_hp"),
        atk=unit.get("atk"),
        defence=unit.get("def"),
        move=unit.get("move"),
        range=t(lang, "tactics.dm.range", low=low, high=high) if low != high else str(low),
    )
    ability = unit.get("ability")
    if isinstance(ability, Mapping):
        names = ability.get("name") or {}
        name = names.get(lang) or names.get("en") or "" if isinstance(names, Mapping) else names
        text += t(lang, "tactics.dm.ability", name=name, mana=ability.get("mana"))
    for effect in unit.get("effects") or ():
        stat = str(effect.get("stat"))
        text += t(
            lang,
            "tactics.dm.effect",
            stat=t(lang, f"tactics.stat.{stat}") if has(f"tactics.stat.{stat}") else stat,
            delta=_signed(int(effect.get("delta", 0))),
            turns=effect.get("turns"),
        )
    if unit.get("master"):
        text += " 👑"
    if unit.get("exhausted"):
        text += " " + t(lang, "tactics.dm.exhausted")
    return text


def _signed(number: int) -> str:
    """``+2`` or ``−1`` (a minus sign, not a hyphen): a stat change keeps its sign in print."""
    return f"+{number}" if number >= 0 else f"−{-number}"


def _private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """The 📋 answer: the seat's units with their squares and stats, the ones it may still
    summon, and the enemy units where they stand."""
    step = view.get("step")
    if step == "roster":
        return [t(lang, "tactics.dm.no_roster_yet")]
    lines = []
    if step == "play":
        lines.append(t(lang, "tactics.dm.mana", mana=view.get("next_mana", 0)))
    on_board = _mine(view, seat)
    waiting = [u for u in view.get("units") or () if u.get("side") == seat and u not in on_board]
    lines.append(t(lang, "tactics.dm.mine"))
    lines += [_sheet_line(lang, "board", unit) for unit in on_board]
    for unit in waiting:
        lines.append(_sheet_line(lang, "dead" if unit.get("status") == "dead" else "reserve", unit))
    enemy = _mine(view, _other(seat))
    if enemy and step == "play":
        lines.append(t(lang, "tactics.dm.theirs"))
        lines += [_sheet_line(lang, "board", unit) for unit in enemy]
    return lines


def _sheet_line(lang: str, status: str, unit: Mapping[str, Any]) -> str:
    """One unit of the 📋 sheet: its name, where it is (``status`` board), or that it waits in
    reserve or died, then its stats."""
    name = unit_label(unit, lang)
    key = f"tactics.dm.unit_{status}"
    where = t(lang, key, unit=name, square=unit.get("square"), cost=unit.get("cost"))
    return where + t(lang, "tactics.dm.stat_sep") + _stats(unit, lang)


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _memo(view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """The turn, both sides' DP, and every unit on the board: HP for the seat's own, the square
    for the enemy's (what the next prompt says changed)."""
    units = view.get("units") or ()
    return {
        "step": view.get("step"),
        "turn": view.get("turn"),
        "dp": dict(view.get("dp") or {}),
        "hp": {u["id"]: u.get("hp") for u in units if u.get("side") == seat and u.get("square")},
        "foe": {
            u["id"]: u.get("square") for u in units if u.get("side") != seat and u.get("square")
        },
    }


def _news(memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """Since the seat's last prompt: DP, what its own units took (or that they fell), and where
    the enemy's went (or that they fell); nothing at the first sheet after deployment."""
    if not isinstance(memo, Mapping) or memo.get("step") != "play" or view.get("step") != "play":
        return []
    if memo.get("turn") == view.get("turn"):
        return []
    sep = t(lang, "tactics.dm.list_sep")
    units = {u["id"]: u for u in view.get("units") or ()}
    foe = _other(seat)
    dp, was = view.get("dp") or {}, memo.get("dp") or {}
    same = was.get(seat, 0) == dp.get(seat, 0) and was.get(foe, 0) == dp.get(foe, 0)
    lines = [
        t(
            lang,
            "tactics.news.dp_same" if same else "tactics.news.dp",
            turn=memo.get("turn"),
            mine_was=was.get(seat, 0),
            mine=dp.get(seat, 0),
            foe=foe,
            foe_was=was.get(foe, 0),
            theirs=dp.get(foe, 0),
        )
    ]

    def hp_change(unit: Mapping[str, Any], hp: Any) -> str | None:
        if unit.get("hp") == hp:
            return None
        change = _signed(int(unit.get("hp", 0)) - int(hp or 0))
        return t(
            lang,
            "tactics.news.hp",
            unit=unit_label(unit, lang),
            change=change,
            hp=unit.get("hp"),
            max=unit.get("max_hp"),
        )

    def moved_to(unit: Mapping[str, Any], square: Any) -> str | None:
        if unit.get("square") == square:
            return None
        return t(
            lang, "tactics.news.moved", unit=unit_label(unit, lang), was=square, now=unit["square"]
        )

    hurt = _changes(units, memo.get("hp") or {}, lang, hp_change)
    lines.append(
        t(lang, "tactics.news.mine", units=sep.join(hurt))
        if hurt
        else t(lang, "tactics.news.mine_unhurt")
    )
    before = memo.get("foe") or {}
    moved = _changes(units, before, lang, moved_to)
    for unit in _mine(view, foe):
        if unit["id"] not in before:  # summoned or revived since
            moved.append(
                t(lang, "tactics.news.came", unit=unit_label(unit, lang), now=unit.get("square"))
            )
    if moved:
        lines.append(t(lang, "tactics.news.theirs", foe=foe, units=sep.join(moved)))
    return lines


def _changes(
    units: Mapping[str, Mapping[str, Any]],
    before: Mapping[str, Any],
    lang: str,
    changed: Callable[[Mapping[str, Any], Any], str | None],
) -> list[str]:
    """What became of each unit the memo held (``before``: id -> what it noted): fell, or
    ``changed`` (None: nothing to say)."""
    found = []
    for uid, then in before.items():
        unit = units.get(uid)
        if unit is None:
            continue
        if unit.get("status") == "dead" or not unit.get("square"):
            found.append(t(lang, "tactics.news.fell", unit=unit_label(unit, lang)))
        elif (line := changed(unit, then)) is not None:
            found.append(line)
    return found


# What a turn's headline is about, most telling first (the end is checked before these).
HEADLINE_ORDER = ("death", "revive", "ability", "attack", "summon", "first", "rosters")
ABILITY_EFFECTS = ("damage", "heal", "push", "pull", "stat", "teleport", "revive", "obstacle")


def _headline(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> str | None:
    """The game's end; a master unit destroyed; the units that fell; else the turn's hardest
    blow, an ability, a summon, who plays first; else how many units moved."""
    units = _units_by_id(events)

    def line(event: Mapping[str, Any], headline: str | None = None) -> str:
        params = _params(event, lang, units)
        params.update(_derived(event, lang, names))
        key = f"tactics.headline.{headline}" if headline else f"tactics.event.{event['type']}"
        return t(lang, key, **params)

    ends = [e for e in events if e["type"] == "end"]
    if ends:
        return line(ends[-1])
    deaths = [e for e in events if e["type"] == "death"]
    # A master unit's death is worth 2 DP (none by friendly fire: then it reads as any death).
    masters = [e for e in deaths if not e.get("friendly") and e.get("points") == 2]
    if masters:
        return line(masters[0], "master")
    if len(deaths) > 1:
        fallen = t(lang, "tactics.dm.list_sep").join(
            unit_label(units.get(str(e["unit"])) or _named(e, str(e["unit"])), lang, str(e["unit"]))
            for e in deaths
        )
        return t(lang, "tactics.headline.deaths", count=len(deaths), units=fallen)
    for kind in HEADLINE_ORDER:
        found = [e for e in events if e["type"] == kind]
        if not found:
            continue
        if kind == "attack":  # the hardest blow of the turn
            return line(max(found, key=lambda e: int(e.get("damage", 0))))
        if kind == "ability":  # with what it did (its first effect: damage, a heal, a push…)
            at = list(events).index(found[0])
            after = events[at + 1] if at + 1 < len(events) else None
            if after is not None and after["type"] in ABILITY_EFFECTS:
                return t(
                    lang, "tactics.headline.ability", ability=line(found[0]), effect=line(after)
                )
        return line(found[0])
    moves = sum(1 for e in events if e["type"] == "move")
    if moves:
        return t(lang, "tactics.headline.moves", count=moves)
    if any(e["type"] == "wait" for e in events):
        return t(lang, "tactics.headline.quiet")
    deployed = [e for e in events if e["type"] == "deployed"]
    return line(deployed[0]) if deployed else None


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

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        found = _headline(events, lang, names)
        # the post sets it in bold: a bold word inside (``**A** plays first``) would break it
        return found.replace("**", "") if found else None

    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
        return _memo(view, seat)

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return _news(memo, view, seat, lang)

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return _question(view, seat, lang)

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
