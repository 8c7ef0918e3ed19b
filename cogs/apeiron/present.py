"""How Apeiron reads and looks: step names, tallies, event sentences, DM lines, the boards.

Pure (i18n and the renderer only). Events name units and cards by id and carry their names in
both languages (``names``, from the game's own pack: :func:`cogs.apeiron.rules._named`); views
carry the public cards' names and stats (``cards``). Nothing here reads the pack itself, so a game
on a server's pack reads with that pack's names, and a record replays the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import has, t
from bot.ordertext import japanese_spellings, reword
from bot.ruleset import Outcome, Presenter
from cogs.apeiron import board
from cogs.apeiron import orders as grammar

SEATS = ("A", "B")
DEPLOY = 5
QUIET = (
    "own_row",
    "inputs_revealed",
)  # the DM's private board and lines say it better than a sentence
FACING_ARROW = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def pick_name(names: Mapping[str, Any] | None, lang: str, fallback: str = "") -> str:
    if not isinstance(names, Mapping):
        return fallback
    return str(names.get(lang) or names.get("en") or fallback)


def card_label(cards: Mapping[str, Any], card_id: str | None, lang: str) -> str:
    """A card's name in ``lang`` from a view's ``cards`` (its id if the view does not name it)."""
    if not card_id:
        return "—"
    entry = cards.get(card_id) or {}
    return pick_name(entry.get("name"), lang, card_id)


def facing_word(lang: str, facing: str | None) -> str:
    if facing not in FACING_ARROW:
        return "—"
    return t(lang, f"apeiron.facing.{facing}")


def kind_word(lang: str, kind: str | None) -> str:
    key = f"apeiron.kind.{kind}"
    return t(lang, key) if kind and has(key) else str(kind or "?")


def _word(lang: str, area: str, value: Any) -> str:
    key = f"apeiron.{area}.{value}"
    return t(lang, key) if has(key) else str(value)


def panel_line(panel: Mapping[str, Any], lang: str) -> str:
    """``P3 Forest 90°`` (a removed panel: ``P3 —``)."""
    if panel.get("panel") == "off" or not panel.get("kind"):
        return f"P{panel.get('pos')} —"
    return t(
        lang,
        "apeiron.panel_line",
        pos=panel.get("pos"),
        kind=kind_word(lang, str(panel.get("kind"))),
        rot=panel.get("rot", 0),
    )


# --- events --------------------------------------------------------------------------------------


def _names_of(event: Mapping[str, Any], lang: str) -> dict[str, str]:
    return {str(k): pick_name(v, lang, str(k)) for k, v in (event.get("names") or {}).items()}


def _per_seat(value: Any) -> str:
    value = value or {}
    return " · ".join(f"{s} {value.get(s, 0)}" for s in SEATS)


def _order_words(text: str, lang: str) -> str:
    """Words of an order (``P3 ccw``) in the reader's language (``P3 左回り``)."""
    return text if lang == "en" else reword(text, _JA_WORDS, _JA_SEPARATORS)


def _args(args: Any, lang: str) -> str:
    """An ability's or item's targets, after an arrow (`` → P3 左回り``); none: nothing."""
    return (" → " + _order_words(" ".join(map(str, args)), lang)) if args else ""


def _params(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> dict[str, Any]:
    """The sentence's parameters: ids as names, words in the reader's language."""
    kind = str(event["type"])
    named = _names_of(event, lang)

    def name(card_id: Any) -> str:
        return named.get(str(card_id), str(card_id)) if card_id else "—"

    def listed(ids: Any) -> str:
        return t(lang, "apeiron.list_sep").join(name(i) for i in ids or ()) or "—"

    params: dict[str, Any] = {
        k: v for k, v in event.items() if k not in ("type", "names") and not k.startswith("_")
    }
    seat = event.get("seat")
    if isinstance(seat, str):
        params["player"] = names.get(seat, seat)
    for key in ("unit", "victim", "card"):
        if key in event:
            params[key] = name(event[key])
    if "facing" in event:
        params["facing"] = facing_word(lang, event.get("facing"))
    if isinstance(event.get("path"), list):
        params["path"] = "→".join(map(str, event["path"]))
    if kind == "decks" or kind == "chests_revealed":
        params["A"], params["B"] = listed(event.get("A")), listed(event.get("B"))
    elif kind == "chest_list":
        params["cards"] = listed(event.get("cards"))
    elif kind in ("own_row", "field_revealed"):
        params["panels"] = ", ".join(panel_line(p, lang) for p in event.get("panels") or ())
    elif kind == "deployed":
        params["units"] = t(lang, "apeiron.list_sep").join(
            f"{name(u.get('unit'))} {u.get('square')} {FACING_ARROW.get(u.get('facing'), '')}"
            for u in event.get("units") or ()
        )
    elif kind == "first":
        dice = event.get("dice") or {}
        params["dice"] = " / ".join(
            f"{s} {'·'.join(map(str, dice.get(s) or ())) or '—'}" for s in SEATS
        )
    elif kind == "drawn":
        params["via"] = _word(lang, "via", event.get("via"))
    elif kind == "zone":
        params["zone"] = names.get(str(event.get("zone")), str(event.get("zone")))
        replaced = event.get("replaced")
        params["replaced"] = (
            t(lang, "apeiron.event.zone_replacing", card=name(replaced)) if replaced else ""
        )
    elif kind == "ability":
        params["timing"] = _word(lang, "timing", event.get("timing"))
        params["args"] = _args(event.get("args"), lang)
        params["cost"] = event.get("cost") or 0
    elif kind == "item":
        params["args"] = _args(event.get("args"), lang)
    elif kind == "stat":
        params["stat"] = _word(lang, "stat", event.get("stat"))
    elif kind in ("placed", "removed"):
        params["object"] = _word(lang, "object", event.get("object"))
        params["squares"] = ", ".join(map(str, event.get("squares") or ()))
    elif kind == "panel_changed":
        params["kind"] = kind_word(lang, event.get("kind"))
    elif kind == "option":  # a token of the grammar: a direction, a panel kind, a square
        params["choice"] = _order_words(str(event.get("choice")), lang)
    elif kind == "panel_rotated":
        params["direction"] = _word(lang, "direction", event.get("direction"))
    elif kind == "attack":
        params["back"] = t(lang, "apeiron.event.back_attack") if event.get("back") else ""
    elif kind == "death":
        params["grave"] = t(lang, "apeiron.event.leaves_grave") if event.get("grave") else ""
    elif kind == "tie_break":
        params["units"], params["hp"] = _per_seat(event.get("units")), _per_seat(event.get("hp"))
        params["by"] = _word(lang, "by", event.get("by"))
    elif kind == "end":
        params["reason"] = _word(lang, "reason", event.get("reason"))
    elif kind == "activation":
        params["player"] = names.get(str(seat), str(seat))
    return params


def event_key(event: Mapping[str, Any]) -> str | None:
    kind = str(event["type"])
    if kind in QUIET:
        return None
    if kind == "move" and not event.get("path"):
        return "apeiron.event.stay"
    return "apeiron.event." + kind


def event_lines(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> list[str]:
    lines: list[str] = []
    for event in events:
        key = event_key(event)
        if key is None or not has(key):
            continue
        sentence = t(lang, key, **_params(event, lang, names))
        # An activation opens a paragraph: in a busy channel the turn and the seat lead.
        lines.append("**" + sentence + "**" if event["type"] == "activation" else "• " + sentence)
    return lines


# --- the channel's tallies -----------------------------------------------------------------------


def _alive(view: Mapping[str, Any], seat: str) -> list[Mapping[str, Any]]:
    return [u for u in (view.get("units") or {}).get(seat) or () if u.get("square")]


def tallies(view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]:
    if view.get("step") == "deck":
        return []
    cards = view.get("cards") or {}
    fields = []
    for seat in SEATS:
        units = (view.get("units") or {}).get(seat) or []
        alive = _alive(view, seat)
        lines: list[str] = (
            []
            if not units
            else [
                t(
                    lang,
                    "apeiron.tally.units",
                    alive=len(alive),
                    total=len(units),
                    hp=sum(int(u.get("hp") or 0) for u in alive),
                )
            ]
        )
        lines.append(
            t(
                lang,
                "apeiron.tally.chest",
                left=(view.get("chest_left") or {}).get(seat, 0),
                chance=t(
                    lang,
                    "apeiron.tally.chance_used"
                    if (view.get("chance_used") or {}).get(seat)
                    else "apeiron.tally.chance_open",
                ),
            )
        )
        zone = (view.get("side") or {}).get(seat)
        if zone:
            lines.append(
                t(lang, "apeiron.tally.zone", card=card_label(cards, zone.get("card"), lang))
            )
        count = (view.get("extra_turn") or {}).get(seat)
        if count is not None:
            lines.append(t(lang, "apeiron.tally.extra_turn", count=count))
        if view.get("first") == seat:
            lines.append(t(lang, "apeiron.tally.first"))
        fields.append((f"{seat} · {names.get(seat, seat)}", "\n".join(lines)))
    return fields


# --- the seat's DM -------------------------------------------------------------------------------


def unit_stats(cards: Mapping[str, Any], unit_id: str, lang: str) -> str:
    card = cards.get(unit_id) or {}
    stats = t(
        lang,
        "apeiron.dm.stats",
        hp=card.get("hp", "?"),
        power=card.get("power", "?"),
        move=card.get("move", "?"),
        range=card.get("range", "?"),
    )
    if card.get("flying"):
        stats += " " + t(lang, "apeiron.dm.flying")
    return f"{card_label(cards, unit_id, lang)} `{unit_id}` {stats}"


def acting(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The unit whose activation is open (by the marker), from the view."""
    seat = view.get("active")
    if not isinstance(seat, str):
        return None
    order = (view.get("marker") or {}).get(seat)
    for unit in (view.get("units") or {}).get(seat) or ():
        if unit.get("order") == order and unit.get("square"):
            return dict(unit)
    return None


def private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    step = view.get("step")
    cards = view.get("cards") or {}
    you = view.get("you") or {}
    lines: list[str] = []
    if step == "deck":
        lines.append(t(lang, "apeiron.dm.deck"))
        held = you.get("collection")
        if held:  # a league match: the deck comes from the seat's collection, as offered
            sep = t(lang, "apeiron.list_sep")
            units = sep.join(card_label(cards, u, lang) for u in held["units"])
            chest = sep.join(card_label(cards, c, lang) for c in held["chest"])
            lines.append(t(lang, "apeiron.dm.collection", units=units, chest=chest))
        for i, preset in enumerate(you.get("presets") or view.get("presets") or (), 1):
            lines.append(
                t(
                    lang,
                    "apeiron.dm.preset",
                    n=i,
                    units=t(lang, "apeiron.list_sep").join(
                        card_label(cards, u, lang) for u in preset["units"]
                    ),
                    chest=t(lang, "apeiron.list_sep").join(
                        card_label(cards, c, lang) for c in preset["chest"]
                    ),
                )
            )
        return lines
    if step == "deploy":
        rows = "1–3" if seat == "A" else "7–9"
        row = you.get("row") or []
        lines.append(
            t(lang, "apeiron.dm.row", panels=", ".join(panel_line(p, lang) for p in row) or "—")
        )
        deck = (view.get("decks") or {}).get(seat) or []
        lines.append(t(lang, "apeiron.dm.deck_units"))
        lines += [f"- {unit_stats(cards, u, lang)}" for u in deck]
        chest = you.get("chest_names") or {}
        if chest:
            lines.append(
                t(
                    lang,
                    "apeiron.dm.chest",
                    cards=t(lang, "apeiron.list_sep").join(
                        pick_name(chest.get(c), lang, c) for c in you.get("chest") or ()
                    ),
                )
            )
        facing = "S" if seat == "A" else "N"
        lines.append(t(lang, "apeiron.dm.deploy", rows=rows, facing=facing_word(lang, facing)))
        return lines
    active = acting(view)
    if step == "play" and active is not None:
        lines.append(
            t(
                lang,
                "apeiron.dm.acting",
                unit=card_label(cards, active.get("id"), lang),
                square=active.get("square"),
                hp=active.get("hp"),
                facing=facing_word(lang, active.get("facing")),
            )
        )
        lines.append("- " + unit_stats(cards, str(active.get("id")), lang))
        zone = (view.get("side") or {}).get(seat)
        if zone:
            lines.append(t(lang, "apeiron.dm.zone", card=card_label(cards, zone.get("card"), lang)))
        left = (view.get("chest_left") or {}).get(seat, 0)
        used = (view.get("chance_used") or {}).get(seat)
        lines.append(
            t(
                lang,
                "apeiron.dm.draws",
                left=left,
                chance=t(
                    lang, "apeiron.tally.chance_used" if used else "apeiron.tally.chance_open"
                ),
            )
        )
        count = (view.get("extra_turn") or {}).get(seat)
        if count is not None:
            lines.append(t(lang, "apeiron.dm.extra_turn", count=count))
        lines.append(t(lang, "apeiron.dm.builder"))
        return lines
    pick = view.get("pick") or {}
    if step == "place":
        lines.append(t(lang, "apeiron.dm.place", card=card_label(cards, pick.get("card"), lang)))
        text = (cards.get(pick.get("card")) or {}).get("text")
        if text:
            lines.append("> " + pick_name(text, lang))
        return lines
    if step == "option":
        lines.append(t(lang, "apeiron.dm.option", card=card_label(cards, pick.get("card"), lang)))
        for n, option in enumerate(pick.get("options") or (), 1):
            lines.append(f"{n}. {_order_words(str(option), lang)}")
        return lines
    if step == "move":
        lines.append(t(lang, "apeiron.dm.move_again"))
    return lines


def _unit_label(view: Mapping[str, Any], seat: str, unit: Mapping[str, Any], lang: str) -> str:
    """``A3 Slinger``: the seat and the number its token shows, and the unit's name."""
    name = card_label(view.get("cards") or {}, unit.get("id"), lang)
    return f"{seat}{unit.get('order', '')} {name}"


def _panel(panel: Any, pos: int, lang: str) -> str:
    """A panel of the view's row as a description says it: placed, removed or face down."""
    if isinstance(panel, Mapping) and panel.get("kind") and panel.get("panel") != "off":
        return panel_line(panel, lang)
    key = "apeiron.alt.removed" if panel else "apeiron.alt.face_down"
    return t(lang, key, pos=pos)


def _pieces(view: Mapping[str, Any] | None, lang: str) -> dict[str, alttext.Piece]:
    """Every unit as a description names it: its square while on the board, H and facing."""
    pieces = {}
    for seat, units in ((view or {}).get("units") or {}).items():
        for unit in units:
            facing = facing_word(lang, unit.get("facing")).strip("↑↓←→ ")
            state = (
                (t(lang, "apeiron.alt.hp"), str(unit.get("hp", 0))),
                (t(lang, "apeiron.alt.facing"), facing),
            )
            label = _unit_label(view or {}, seat, unit, lang)
            pieces[f"{seat}:{unit.get('id')}"] = alttext.Piece(label, unit.get("square"), state)
    return pieces


class ApeironPresenter(Presenter):
    def order_text(self, text: str, lang: str) -> str:
        """In Japanese, the words the grammar reads in Japanese (``C4→C5 下 攻撃 D6``, ``配置 u04
        B2 下、…``, ``自分に置く``); unit and card ids, squares and panels as they are."""
        if lang == "en":
            return text
        for english, japanese in _JA_PLACES.items():
            if text.strip().lower() == english:
                return japanese
        return _order_words(text, lang).replace("、 ", "、").replace("； ", "；")

    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        step = view.get("step")
        if step in ("deck", "deploy", "over"):
            return t(lang, f"apeiron.step.{step}")
        name = t(lang, "apeiron.step.turn", turn=view.get("turn", 0), seat=view.get("active"))
        if step in ("place", "option", "move"):
            name += " · " + t(lang, f"apeiron.step.{step}")
        return name

    def outcome_text(
        self, outcome: Outcome, lang: str, users: Mapping[str, int], end_reason: str | None
    ) -> str:
        text = super().outcome_text(outcome, lang, users, end_reason)
        if outcome.finished and outcome.reason and outcome.reason != "resign":
            text += " — " + _word(lang, "reason", outcome.reason)
        return text

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        return tallies(view, lang, names)

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        return event_key(event)

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        return _params(event, lang, names)

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        return event_lines(events, lang, names)

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return private_lines(view, seat, lang)

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """The panels (a seat's own board: its own row too), the unit acting, which units moved,
        came, fell or changed, and where every unit stands."""
        notes = []
        panels = [_panel(p, i, lang) for i, p in enumerate(view.get("panels") or (), start=1)]
        if panels and view.get("step") != "deck":
            notes.append(t(lang, "apeiron.alt.panels", panels=alttext.listed(lang, panels)))
        row = (view.get("you") or {}).get("row") if scene.seat is not None else None
        if row:
            mine = alttext.listed(lang, [_panel(p, p.get("pos", 0), lang) for p in row])
            notes.append(t(lang, "apeiron.alt.your_row", panels=mine))
        unit = acting(view) if not scene.finished else None
        if unit is not None:
            label = _unit_label(view, str(view.get("active")), unit, lang)
            notes.append(t(lang, "apeiron.alt.acting", unit=label))
        return alttext.describe(
            self.title(lang),
            lang,
            names,
            scene,
            _pieces(view, lang),
            _pieces(scene.before, lang),
            notes,
        )

    def private_board(self, view: Mapping[str, Any], seat: str) -> bool:
        # Before the reveal only a seat's own DM may show its own row of panels.
        return view.get("step") == "deploy" and bool((view.get("you") or {}).get("row"))


PRESENTER = ApeironPresenter("apeiron")


# The grammar's words (cogs/apeiron/orders.py) by their first Japanese spelling; facings as the
# canonical text writes them (``S``), directions and panel kinds.
_JA_WORDS = {
    **japanese_spellings(grammar.KEYWORDS, grammar.DIRECTION_WORDS, grammar.KIND_WORDS),
    **{facing: word for word, facing in grammar.FACING_WORDS.items() if not word.isascii()},
    grammar.KEEP_WORDS[0]: grammar.KEEP_WORDS[1],
    grammar.NO_ACTION_WORDS[0]: grammar.NO_ACTION_WORDS[1],
}
# A drawn item's fate, a whole order of two English words (``place own`` → ``自分に置く``).
_JA_PLACES = {
    english: next(ja for ja, to in grammar.PLACE_WORDS.items() if to == where and not ja.isascii())
    for english, where in grammar.PLACE_WORDS.items()
    if english.isascii()
}
_JA_SEPARATORS = {">": "→", ",": "、", ";": "；"}
