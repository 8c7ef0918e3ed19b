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
from bot.ruleset import Outcome, Presenter
from cogs.apeiron import board
from cogs.apeiron.labels import JA_PLACES, order_words

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


_order_words = order_words


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
        value = event.get("value")
        params["value"] = f"{value:+d}" if isinstance(value, int) else value
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
    if kind == "heal" and not event.get("amount"):
        return None  # already at its printed H (a blessing over a full team): nothing happened
    if kind == "stat" and event.get("stat") == "flying":
        return "apeiron.event.flying_on" if event.get("value") else "apeiron.event.flying_off"
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
    """Two fields a seat, so a post shows only the one that changed: its units (how many stand,
    their H, the extra-turn count, who plays first), and its cards (chest, chance, side zone)."""
    if view.get("step") == "deck":
        return []
    cards = view.get("cards") or {}
    fields = []
    for seat in SEATS:
        player = names.get(seat, seat)
        units = (view.get("units") or {}).get(seat) or []
        alive = _alive(view, seat)
        if units:
            lines = [
                t(
                    lang,
                    "apeiron.tally.units",
                    alive=len(alive),
                    total=len(units),
                    hp=sum(int(u.get("hp") or 0) for u in alive),
                )
            ]
            count = (view.get("extra_turn") or {}).get(seat)
            if count is not None:
                lines.append(t(lang, "apeiron.tally.extra_turn", count=count))
            if view.get("first") == seat:
                lines.append(t(lang, "apeiron.tally.first"))
            title = t(lang, "apeiron.tally.field.units", seat=seat, player=player)
            fields.append((title, "\n".join(lines)))
        lines = [
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
        ]
        zone = _zone_card(view, seat)
        if zone:
            lines.append(t(lang, "apeiron.tally.zone", card=card_label(cards, zone, lang)))
        title = t(lang, "apeiron.tally.field.cards", seat=seat, player=player)
        fields.append((title, "\n".join(lines)))
    return fields


# --- the seat's DM -------------------------------------------------------------------------------


def _stats(card: Mapping[str, Any], lang: str) -> str:
    """``H5 P2 M2 R1 flying``: a unit card's printed stats."""
    stats = t(
        lang,
        "apeiron.dm.stats",
        hp=card.get("hp", "?"),
        power=card.get("power", "?"),
        move=card.get("move", "?"),
        range=card.get("range", "?"),
    )
    return stats + (" " + t(lang, "apeiron.dm.flying") if card.get("flying") else "")


def unit_stats(cards: Mapping[str, Any], unit_id: str, lang: str) -> str:
    stats = _stats(cards.get(unit_id) or {}, lang)
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


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _zone_card(view: Mapping[str, Any], seat: str) -> str | None:
    zone = (view.get("side") or {}).get(seat)
    return str(zone.get("card")) if isinstance(zone, Mapping) and zone.get("card") else None


def _units_seen(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Every deployed unit of both seats as ``{"A:u01": [square or None, H]}``."""
    return {
        f"{seat}:{unit.get('id')}": [unit.get("square"), int(unit.get("hp") or 0)]
        for seat, units in (view.get("units") or {}).items()
        for unit in units or ()
    }


def _panel_kinds(view: Mapping[str, Any]) -> list[str]:
    """Each position's panel as the view shows it: its kind, ``off`` (removed) or ``?``."""
    out = []
    for panel in view.get("panels") or ():
        if panel == "off":
            out.append("off")
        elif isinstance(panel, Mapping) and panel.get("kind"):
            out.append(str(panel["kind"]))
        else:
            out.append("?")
    return out


def seat_memo(view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """What the seat's next prompt compares against: every unit's square and H, both chests'
    counts, both side zones, the panels as seen, the extra-turn counts (all public, or the
    seat's own)."""
    other = _other(seat)
    left = view.get("chest_left") or {}
    extra = view.get("extra_turn") or {}
    return {
        "u": _units_seen(view),
        "c": [left.get(seat, 0), left.get(other, 0)],
        "z": [_zone_card(view, seat), _zone_card(view, other)],
        "p": _panel_kinds(view),
        "x": [extra.get(seat), extra.get(other)],
        # the seat's unit acting at this prompt: its own move is no news at the next one
        "a": (acting(view) or {}).get("id") if view.get("active") == seat else None,
    }


def _near(a: str | None, b: str | None) -> bool:
    """Whether two squares touch (the 3×3 block around either: range 1)."""
    if not a or not b:
        return False
    return a != b and abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1:]) - int(b[1:])) <= 1


def seat_news(memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What changed for ``seat`` since its last prompt: units hurt, healed, destroyed or back
    (its own first), enemies that came next to its units, cards drawn and side zones, panels
    revealed, changed or removed, extra-turn counts."""
    if not isinstance(memo, Mapping) or not isinstance(memo.get("u"), Mapping):
        return []
    cards = view.get("cards") or {}
    other = _other(seat)
    before: Mapping[str, Any] = memo["u"]
    now = _units_seen(view)
    mine: list[str] = []
    theirs: list[str] = []
    near: list[str] = []
    own_alive = {
        key: square for key, (square, _) in now.items() if key.startswith(seat + ":") and square
    }
    for key, (square, hp) in now.items():
        owner, unit_id = key.split(":", 1)
        was = before.get(key)
        if not isinstance(was, Sequence) or len(was) != 2:
            continue
        old_square, old_hp = was
        whose = "own" if owner == seat else "foe"
        params = {"unit": card_label(cards, unit_id, lang), "square": square, "seat": owner}
        lines = mine if owner == seat else theirs
        if old_square and not square:
            lines.append(t(lang, f"apeiron.news.{whose}_lost", **params))
        elif square and not old_square:
            lines.append(t(lang, f"apeiron.news.{whose}_returned", **params))
        elif square and hp < int(old_hp or 0):
            lines.append(
                t(lang, f"apeiron.news.{whose}_damaged", amount=int(old_hp) - hp, hp=hp, **params)
            )
        elif square and hp > int(old_hp or 0):
            lines.append(t(lang, f"apeiron.news.{whose}_healed", hp=hp, **params))
        moved = square and old_square and square != old_square
        if owner == seat and moved and unit_id != memo.get("a"):  # pushed, pulled, carried
            mine.append(t(lang, "apeiron.news.own_moved", old=old_square, **params))
        if owner != seat and square and square != old_square:
            close = [k for k, at in own_alive.items() if _near(square, at)]
            if close:
                ally = close[0].split(":", 1)[1]
                near.append(
                    t(
                        lang,
                        "apeiron.news.near",
                        mine=card_label(cards, ally, lang),
                        at=own_alive[close[0]],
                        **params,
                    )
                )
    news = [*mine, *theirs, *near]
    left = view.get("chest_left") or {}
    counts = memo.get("c") or [None, None]
    drawn = (counts[1] or 0) - int(left.get(other, 0))
    if counts[1] is not None and drawn > 0:
        news.append(t(lang, "apeiron.news.foe_drew", seat=other, n=drawn, left=left.get(other, 0)))
    zones = memo.get("z") or [None, None]
    for index, who in enumerate((seat, other)):
        card = _zone_card(view, who)
        placer = ((view.get("side") or {}).get(who) or {}).get("owner")
        if who == seat and (not card or placer == seat):
            continue  # the seat's own doing (an item it kept or used): nothing to tell it
        if card != zones[index]:
            whose = "own" if who == seat else "foe"
            if card:
                label = card_label(cards, card, lang)
                news.append(t(lang, f"apeiron.news.{whose}_zone", seat=who, card=label))
            else:
                news.append(t(lang, f"apeiron.news.{whose}_zone_empty", seat=who))
    news += _panel_news(memo.get("p") or [], _panel_kinds(view), view, lang)
    extra = view.get("extra_turn") or {}
    was_extra = memo.get("x") or [None, None]
    if extra.get(seat) is not None and extra.get(seat) != was_extra[0]:
        news.append(t(lang, "apeiron.dm.extra_turn", count=extra.get(seat)))
    if extra.get(other) is not None and extra.get(other) != was_extra[1]:
        news.append(t(lang, "apeiron.news.foe_extra", seat=other, count=extra.get(other)))
    return news


def _panel_news(
    before: Sequence[str], now: Sequence[str], view: Mapping[str, Any], lang: str
) -> list[str]:
    """Panels turned face up (the reveal: one line), changed in kind, or removed."""
    if len(before) != len(now):
        return []
    shown = [i for i, (a, b) in enumerate(zip(before, now, strict=True)) if a == "?" and b != "?"]
    lines = []
    if len(shown) >= 3 and "?" not in now:  # the reveal (the middle row alone: no news)
        first = view.get("first")
        lines.append(t(lang, "apeiron.news.revealed", seat=first or "—"))
    for i, (a, b) in enumerate(zip(before, now, strict=True)):
        if a == "?" or a == b or b == "?":
            continue
        if b == "off":
            lines.append(t(lang, "apeiron.news.panel_removed", pos=i + 1))
        else:
            lines.append(t(lang, "apeiron.news.panel_changed", pos=i + 1, kind=kind_word(lang, b)))
    return lines


def _max_hp(cards: Mapping[str, Any], unit_id: Any) -> Any:
    return (cards.get(unit_id) or {}).get("hp", "?")


def question(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What this prompt asks, in a line or two: the buttons are the answers."""
    step = view.get("step")
    cards = view.get("cards") or {}
    if step == "deck":
        return [t(lang, "apeiron.q.deck"), *_preset_lines(view, lang)]
    if step == "deploy":
        rows = "1–3" if seat == "A" else "7–9"
        facing = facing_word(lang, "S" if seat == "A" else "N")
        # the seat's own row (secret until both have deployed) is what it deploys on
        row = ", ".join(panel_line(p, lang) for p in view.get("you", {}).get("row") or ())
        lines = [t(lang, "apeiron.q.deploy", rows=rows, facing=facing)]
        return [*lines, t(lang, "apeiron.dm.row", panels=row)] if row else lines
    pick = view.get("pick") or {}
    if step == "place":
        card = card_label(cards, pick.get("card"), lang)
        lines = [t(lang, "apeiron.q.place", card=card)]
        text = (cards.get(pick.get("card")) or {}).get("text")
        if text:
            lines.append("> " + pick_name(text, lang))
        return lines
    if step == "option":
        card = card_label(cards, pick.get("card"), lang)
        chosen = " ".join(map(str, pick.get("args") or ()))
        lines = [t(lang, "apeiron.q.option", card=card)]
        if chosen:  # an event asks piece by piece: say what the earlier answers chose
            lines = [t(lang, "apeiron.q.option_more", card=card, chosen=_order_words(chosen, lang))]
        text = (cards.get(pick.get("card")) or {}).get("text")
        if text:
            lines.append("> " + pick_name(text, lang))
        return lines
    active = acting(view)
    if active is None or step not in ("play", "move"):
        return []
    unit_id = str(active.get("id"))
    printed = cards.get(unit_id) or {}
    params = {
        "unit": card_label(cards, unit_id, lang),
        "label": f"{seat}{active.get('order', '')}",
        "square": active.get("square"),
        "hp": active.get("hp"),
        "max": _max_hp(cards, unit_id),
        "move": printed.get("move", "?"),
        "facing": facing_word(lang, active.get("facing")),
    }
    if step == "move":
        return [t(lang, "apeiron.q.move", **params)]
    return [t(lang, "apeiron.q.play", **params)]


def _preset_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """The decks offered (a league seat's collection first): what the deck buttons choose."""
    cards = view.get("cards") or {}
    you = view.get("you") or {}
    sep = t(lang, "apeiron.list_sep")
    lines = []
    held = you.get("collection")
    if held:  # a league match: the deck comes from the seat's collection, as offered
        units = sep.join(card_label(cards, u, lang) for u in held["units"])
        chest = sep.join(card_label(cards, c, lang) for c in held["chest"])
        lines.append(t(lang, "apeiron.dm.collection", units=units, chest=chest))
    for i, preset in enumerate(you.get("presets") or view.get("presets") or (), 1):
        units = sep.join(card_label(cards, u, lang) for u in preset["units"])
        chest = sep.join(card_label(cards, c, lang) for c in preset["chest"])
        lines.append(t(lang, "apeiron.dm.preset", n=i, units=units, chest=chest))
    return lines


def _unit_line(
    cards: Mapping[str, Any], seat: str, unit: Mapping[str, Any], lang: str, acting_id: Any
) -> str:
    """``▶ A1 Sentinel `u01` B2 ↓ · H 3/5 P2 M2 R1``, then the card's text (its ★ abilities)."""
    unit_id = str(unit.get("id"))
    card = cards.get(unit_id) or {}
    mark = "▶ " if unit_id == acting_id else "- "
    label = f"{seat}{unit.get('order', '')} {card_label(cards, unit_id, lang)} `{unit_id}`"
    if unit.get("square"):
        where = f"{unit.get('square')} {FACING_ARROW.get(str(unit.get('facing')), '')}".strip()
        hp = f"H {unit.get('hp')}/{card.get('hp', '?')} "
    else:
        where, hp = t(lang, "apeiron.dm.lost"), ""
    stats = _stats(card, lang).split(" ", 1)[-1]  # H is shown as now/printed
    line = mark + t(lang, "apeiron.dm.unit_line", unit=label, where=where, hp=hp, stats=stats)
    text = pick_name(card.get("text"), lang)
    return line + (f"\n  {text}" if text else "")


def private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """The seat's sheet (📋): its deck offers, its secret row and chest, its units with their
    stats and texts, its side zone, its draws left."""
    step = view.get("step")
    cards = view.get("cards") or {}
    you = view.get("you") or {}
    sep = t(lang, "apeiron.list_sep")
    lines: list[str] = []
    if step == "deck":
        return _preset_lines(view, lang)
    chest = you.get("chest_names") or {}
    chest_line = (
        t(
            lang,
            "apeiron.dm.chest",
            cards=sep.join(pick_name(chest.get(c), lang, c) for c in you.get("chest") or ()),
        )
        if chest
        else None
    )
    if step == "deploy":
        row = you.get("row") or []
        lines.append(
            t(lang, "apeiron.dm.row", panels=", ".join(panel_line(p, lang) for p in row) or "—")
        )
        lines.append(t(lang, "apeiron.dm.deck_units"))
        for unit_id in (view.get("decks") or {}).get(seat) or []:
            lines.append(f"- {unit_stats(cards, unit_id, lang)}")
            text = pick_name((cards.get(unit_id) or {}).get("text"), lang)
            if text:
                lines.append(f"  {text}")
        if chest_line:
            lines.append(chest_line)
        rows = "1–3" if seat == "A" else "7–9"
        facing = facing_word(lang, "S" if seat == "A" else "N")
        lines.append(t(lang, "apeiron.dm.deploy", rows=rows, facing=facing))
        return lines
    active = acting(view) if view.get("active") == seat else None
    acting_id = active.get("id") if active else None
    own = (view.get("units") or {}).get(seat) or []
    if own:
        # the ▶ that marks the unit acting is explained only where one does
        lines.append(
            t(lang, "apeiron.dm.your_units" if acting_id else "apeiron.dm.your_units_idle")
        )
        lines += [_unit_line(cards, seat, u, lang, acting_id) for u in own]
    zone = _zone_card(view, seat)
    if zone:
        text = pick_name((cards.get(zone) or {}).get("text"), lang)
        lines.append(t(lang, "apeiron.dm.zone", card=card_label(cards, zone, lang)))
        if text:
            lines.append(f"  {text}")
    if chest_line:
        lines.append(chest_line)
    used = (view.get("chance_used") or {}).get(seat)
    lines.append(
        t(
            lang,
            "apeiron.dm.draws",
            left=(view.get("chest_left") or {}).get(seat, 0),
            chance=t(lang, "apeiron.tally.chance_used" if used else "apeiron.tally.chance_open"),
        )
    )
    count = (view.get("extra_turn") or {}).get(seat)
    if count is not None:
        lines.append(t(lang, "apeiron.dm.extra_turn", count=count))
    return lines


# What matters most in a step, for the post's first line: the end, a unit lost, a hit, then
# what else changed the board, a draw, and last a move (lower first).
HEADLINE_RANK = {
    "end": 0,
    "extra_turn_lost": 0,
    "tie_break": 1,
    "resigned": 1,
    "death": 2,
    "attack": 3,
    "strike_back": 3,
    "returned": 4,
    "panel_removed": 4,
    "ability": 5,
    "item": 5,
    "special": 5,
    "damage": 6,
    "pushed": 6,
    "pulled": 6,
    "field_revealed": 6,
    "first": 7,
    "drawn": 7,
    "zone": 8,
    "panel_changed": 8,
    "panel_moved": 8,
    "panel_rotated": 8,
    "placed": 8,
    "deployed": 9,
    "decks": 9,
    "option": 9,
    "discarded": 9,
    "move": 10,
    "stay": 10,
}
NOT_HEADLINES = ("activation", "acting")


def headline(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> str | None:
    """The step's main event in words (a unit destroyed over its attacker's move): the worded
    public event of the lowest rank, the earliest among equals."""
    best: tuple[int, int] | None = None
    chosen: Mapping[str, Any] | None = None
    for index, event in enumerate(events):
        kind = str(event.get("type"))
        key = event_key(event)
        if key is None or kind in NOT_HEADLINES or not has(key):
            continue
        rank = (HEADLINE_RANK.get(kind, 9), index)
        if best is None or rank < best:
            best, chosen = rank, event
    if chosen is None:
        return None
    deaths = [e for e in events if e.get("type") == "death"]
    if chosen.get("type") == "death" and len(deaths) > 1:  # a panel removed, a thunder: all
        units = [
            f"{_params(e, lang, names)['unit']}（{e.get('seat')}）"
            if lang == "ja"
            else f"{_params(e, lang, names)['unit']} ({e.get('seat')})"
            for e in deaths
        ]
        listed = t(lang, "apeiron.list_sep").join(units)
        return t(lang, "apeiron.headline.deaths", count=len(deaths), units=listed)
    return t(lang, str(event_key(chosen)), **_params(chosen, lang, names))


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
        for english, japanese in JA_PLACES.items():
            if text.strip().lower() == english:
                return japanese
        return _order_words(text, lang).replace("、 ", "、").replace("； ", "；")

    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        step = view.get("step")
        if step in ("deck", "deploy", "over"):
            return t(lang, f"apeiron.step.{step}")
        name = t(lang, "apeiron.step.turn", turn=view.get("turn", 0), seat=view.get("active"))
        if step in ("place", "option", "move"):
            name = t(lang, "apeiron.step.sub", turn=name, step=t(lang, f"apeiron.step.{step}"))
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

    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any]:
        return seat_memo(view, seat)

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return seat_news(memo, view, seat, lang)

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return question(view, seat, lang)

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        return headline(events, lang, names)

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
