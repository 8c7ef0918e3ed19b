"""How the Esper war reads and looks: step names, tallies, event sentences, DM lines, the board.

Pure (i18n and the renderer only). Events name pack ids (sheets, planet cards, abilities) and
carry their names in both languages (``names``: :func:`cogs.esper.rules._named`), and a sheet's
printed contents where one is shown (``detail``); views carry the names of what they show. Nothing
here reads the pack itself, so a game on a community's pack reads with that pack's names, and a
record replays the same.

Hidden information: the channel reads only public events (the framework routes those with
``to`` to their seats' DMs) and the public view; the DM lines read the seat's own ``you``.
Nothing here adds a fact an event or view does not hold.

Combats (part 2) are read on phones: one short line per public play, a damage roll with its
column, initiative as one line; :func:`compact` folds what a batch says twice (a card played and
the attack it makes, a roll and the damage it does). Hands are never public: the channel shows
counts, the seat's DM its own cards.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import has, t
from bot.ruleset import Outcome, Presenter
from cogs.esper import board, ordertext

ALIGNMENTS = ("GOOD", "EVIL", "SPECIAL")
RAFNOR = "R"
# The engine's ``end`` says no more than the result line the framework adds after the events, a
# ``turn`` no more than the post's first line (which names the step opened: "Turn 20 · C").
QUIET = ("end", "turn", "combat_turn")
SEAT_LETTERS = frozenset("ABCDEFGHIJK")
# Events addressed to seats (``to``): worded for the reader of a DM.
PRIVATE = (
    "base_trap",
    "your_sheet",
    "your_card",
    "peek",
    "conversion_result",
    "ability_drawn",
    "seen",
    "ambush_set",
    "skipped_why",
    "refuse_last_failed",
    "c_drawn",
    "keys_at",
    "there_bonus",
    "precombat_used",
    "check_target",
)
# The silhouettes a select menu offers (25 options, one of them "keep"): more are listed.
SILHOUETTE_MENU = 24
# The combat steps whose question lists the seat's whole C hand (their answers draw on it).
HAND_STEPS = ("cturn", "defend")
COMBAT_STEPS = ("entry", "precombat", "cturn", "sync", "defend", "block", "round_end")
BASE_STEPS = ("keys", "place", "path")
BASE_COLUMNS = "ABCDEF"


# --- small words ---------------------------------------------------------------------------------


def pick(entry: Any, lang: str, fallback: str = "") -> str:
    """A ``{"en": …, "ja": …}`` name in ``lang`` (English, then ``fallback`` if it lacks one)."""
    if not isinstance(entry, Mapping):
        return fallback
    return str(entry.get(lang) or entry.get("en") or fallback)


def _word(lang: str, area: str, value: Any) -> str:
    """A catalogue word (``esper.<area>.<value>``), or the value itself if it has none."""
    key = f"esper.{area}.{str(value).replace('-', '_')}"
    return t(lang, key) if value is not None and has(key) else str(value if value else "—")


def alignment_word(lang: str, alignment: Any) -> str:
    return _word(lang, "alignment", alignment)


def joined(lang: str, items: Sequence[str]) -> str:
    return t(lang, "esper.list_sep").join(items) if items else t(lang, "esper.nobody")


def seat_label(seat: Any, names: Mapping[str, str], lang: str) -> str:
    """``C (player name)``: the seat and its player's display name."""
    seat = str(seat)
    player = names.get(seat)
    return t(lang, "esper.seat", seat=seat, player=player) if player else seat


def seats_label(seats: Sequence[Any], names: Mapping[str, str], lang: str) -> str:
    return joined(lang, [seat_label(s, names, lang) for s in seats or ()])


def spot_label(spot: Any, lang: str) -> str:
    if not spot:
        return "—"
    if spot == RAFNOR:
        return t(lang, "esper.spot.rafnor")
    if str(spot).endswith("-0"):
        return t(lang, "esper.spot.port", spot=spot)
    return str(spot)


def card_label(card: Any, lang: str) -> str:
    """A playing card ("A♠", "10♥") with its meaning for the silhouette pick."""
    if not card:
        return "—"
    rank = str(card)[:-1]
    if rank == "A":
        return t(lang, "esper.card.ace", card=card)
    if rank == "10":
        return t(lang, "esper.card.ten", card=card)
    return t(lang, "esper.card.free", card=card)


def fill(lang: str, key: str, params: Mapping[str, Any]) -> str:
    """``t`` with every placeholder the template names filled ("?" for one the data lacks), so
    that no ``{…}`` reaches a reader."""
    template = t(lang, key)
    needed = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return t(lang, key, **{**{f: "?" for f in needed}, **params})


# --- sheets and abilities ------------------------------------------------------------------------


def ability_line(info: Mapping[str, Any], lang: str) -> str:
    """``**Mind read** `c07a` [support] (mind 1): text``."""
    cost = int(info.get("cost_mind") or 0)
    return t(
        lang,
        "esper.sheet.ability",
        name=pick(info.get("name"), lang, str(info.get("id"))),
        id=info.get("id"),
        timing=_word(lang, "timing", info.get("timing")),
        cost=t(lang, "esper.sheet.cost", n=cost) if cost else "",
        lasting=t(lang, "esper.sheet.lasting") if info.get("lasting") else "",
        text=pick(info.get("text"), lang) or "—",
    )


def defeat_text(condition: Mapping[str, Any], lang: str, names: Mapping[str, Any]) -> str:
    kind = str(condition.get("kind") or condition.get("if") or "")
    who = condition.get("who")
    who_name = pick(condition.get("name") or names.get(str(who)), lang, str(who))
    if kind == "dead":
        return (
            t(lang, "esper.defeat.dead_self")
            if not who
            else t(lang, "esper.defeat.dead", who=who_name)
        )
    if kind == "alive":
        return t(lang, "esper.defeat.alive", who=who_name)
    if kind == "info_below":
        return t(lang, "esper.defeat.info_below", n=condition.get("n", 0))
    if kind == "alone":
        return t(lang, "esper.defeat.alone")
    if kind == "declared":
        return t(
            lang,
            "esper.defeat.declared",
            alignment=alignment_word(lang, condition.get("alignment")),
        )
    return kind or "—"


def sheet_lines(
    detail: Mapping[str, Any], lang: str, names: Mapping[str, Any], *, texts: bool = True
) -> list[str]:
    """A sheet's printed contents (``rules.sheet_info``): head, abilities, defeat, conversion.
    ``texts`` False: abilities by name only (the channel's short form of an opened sheet)."""
    lines = [
        t(
            lang,
            "esper.sheet.head",
            name=pick(detail.get("name"), lang, str(detail.get("id"))),
            lock=t(lang, "esper.sheet.lock") if detail.get("lock") else "",
            alignment=alignment_word(lang, detail.get("alignment")),
            esp=detail.get("esp", "?"),
            durability=detail.get("durability", "?"),
            mind=detail.get("mind", "?"),
        )
    ]
    abilities = list(detail.get("abilities") or ())
    if texts:
        lines += ["- " + ability_line(a, lang) for a in abilities]
    elif abilities:
        lines.append(
            t(
                lang,
                "esper.sheet.abilities",
                abilities=joined(
                    lang,
                    [
                        f"{pick(a.get('name'), lang, str(a.get('id')))} "
                        f"[{_word(lang, 'timing', a.get('timing'))}]"
                        for a in abilities
                    ],
                ),
            )
        )
    defeats = [defeat_text(d, lang, names) for d in detail.get("defeat") or ()]
    lines.append(t(lang, "esper.sheet.defeat", conditions=joined(lang, defeats)))
    by = [alignment_word(lang, a) for a in detail.get("convertible_by") or ()]
    lines.append(
        t(
            lang,
            "esper.sheet.conversion",
            by=joined(lang, by) if by else t(lang, "esper.sheet.not_convertible"),
            converts=t(lang, "esper.yes" if detail.get("can_convert") else "esper.no"),
        )
    )
    return lines


# --- events --------------------------------------------------------------------------------------


def _event_names(event: Mapping[str, Any]) -> Mapping[str, Any]:
    names = event.get("names")
    return names if isinstance(names, Mapping) else {}


def _seat_keys(event: Mapping[str, Any]) -> list[str]:
    """Events keyed by seat (``sides``, ``started``): their seat letters, in seat order."""
    return sorted(k for k in event if k in SEAT_LETTERS)


def _is_seat(value: Any) -> bool:
    return isinstance(value, str) and value in SEAT_LETTERS


def _dice(event: Mapping[str, Any]) -> list[int]:
    return [
        int(d) for d in event.get("dice") or () if isinstance(d, int | str) and str(d).isdigit()
    ]


def event_key(event: Mapping[str, Any]) -> str | None:
    """The catalogue key for ``event``; a variant where the sentence differs with the data."""
    kind = str(event.get("type"))
    if kind in QUIET:
        return None
    base = "esper.event." + kind
    if kind in ("check", "teleport"):
        return base + (".success" if event.get("success") else ".failure")
    if kind == "conversion_result":
        return base + (".changed" if event.get("changed") else ".unchanged")
    if kind == "moved":
        how = str(event.get("how"))
        return f"{base}.{how}" if has(f"{base}.{how}") else base + ".move"
    if kind == "party":
        return base + (".joined" if event.get("joined") else ".alone")
    if kind == "silhouettes_changed":
        return base + (".some" if event.get("picks") else ".none")
    if kind == "recovered" and not event.get("n"):
        return base + ".none"  # a spring on a character with nothing lost
    if kind == "used":
        return base + (".target" if event.get("target") else "")
    if kind == "flipped":
        return base + (".cards" if event.get("n") else "")
    return _part_two_key(kind, base, event)


def _part_two_key(kind: str, base: str, event: Mapping[str, Any]) -> str:
    """Variants of the combat's and the base's sentences."""
    if kind == "combat_start":
        why = str(event.get("why"))
        return f"{base}.{why}" if has(f"{base}.{why}") else base + ".fight"
    if kind in ("there", "alive_check"):
        result = str(event.get("result"))
        return f"{base}.{result}" if has(f"{base}.{result}") else base + ".no"
    if kind == "played":
        return base + (".target" if event.get("target") else "")
    if kind == "attack":
        if event.get("kind") == "melee":
            return base + ".melee"
        return base + (".column" if event.get("firepower") is None and event.get("column") else "")
    if kind == "sync_total":
        return base + (".column" if event.get("firepower") is None else "")
    if kind == "defended":
        return base + (".held" if event.get("held") else "")
    if kind == "escape":
        return base + (".teleport" if event.get("teleport") else "")
    if kind == "escaped":
        return base + (".to" if event.get("to") else "")
    if kind == "block":
        return base + (".blocked" if event.get("blocked") else ".failed")
    if kind == "damage_roll":
        if not _is_seat(event.get("seat")):
            return base + ".key"
        return base + ("" if event.get("damage") else ".none")
    if kind == "died" and isinstance(event.get("dropped"), Mapping):
        dropped = event["dropped"]
        return base + (".dropped" if dropped.get("hand") or dropped.get("abilities") else "")
    if kind == "round_end":
        return base + ("" if event.get("attacked") else ".calm")
    if kind == "round_answers":
        return base + (".some" if event.get("continue") else ".none")
    if kind == "placement":
        return base + (".some" if event.get("seats") else ".none")
    if kind == "alive_checks":
        return "esper.event.alive_check.group"
    if kind == "there_misses":
        return "esper.event.there.group"
    return base


def event_params(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> dict[str, Any]:
    """The sentence's parameters: seats as ``C (player)``, pack ids as names in ``lang``, words
    from the catalogue, sheets as their printed lines."""
    kind = str(event.get("type"))
    ids = _event_names(event)

    def name(item: Any) -> str:
        return pick(ids.get(str(item)), lang, str(item)) if item else "—"

    def seat(value: Any) -> str:
        return seat_label(value, names, lang) if value else "—"

    def target(value: Any) -> str:
        text = str(value or "")
        if text in SEAT_LETTERS:
            return seat(text)
        if text.startswith("P") and len(text) == 2:
            return t(lang, f"esper.planet.{text}") if has(f"esper.planet.{text}") else text
        if _base_spot(text):  # a key installation, attacked on its spot
            return t(lang, "esper.key_at", spot=text)
        return name(text)

    params: dict[str, Any] = {}
    for key in ("n", "total", "turn", "turns", "level", "roll", "of", "round", "steps"):
        if key in event:
            params[key] = event[key]
    for key in ("firepower", "upkeep", "declared", "damage", "column"):
        if key in event:
            params[key] = "—" if event[key] is None else event[key]
    for key in ("seat", "by", "runner"):
        if key in event and not isinstance(event[key], list):
            params[key] = target(event[key]) if key == "seat" else seat(event[key])
    if "target" in event:
        # a check's target is the number to roll under (the roller's DM only); elsewhere a
        # seat, a planet or an id
        params["target"] = event["target"] if kind == "check_target" else target(event["target"])
    for key in ("spot", "to"):
        if key in event:
            params[key] = spot_label(event[key], lang)
    if "seats" in event and isinstance(event["seats"], list):
        params["seats"] = seats_label(event["seats"], names, lang)
    if "alignment" in event:
        params["alignment"] = alignment_word(lang, event["alignment"])
    if "side" in event:
        params["side"] = _word(lang, "side", event["side"])
    if "stat" in event:
        params["stat"] = _word(lang, "stat", event["stat"])
    if "attribute" in event:
        params["attribute"] = _word(lang, "attribute", event["attribute"])
    if "card" in event:
        params["card"] = (
            card_label(event["card"], lang) if kind == "your_card" else name(event["card"])
        )
    if kind in ("your_sheet", "peek", "opened"):
        detail = event.get("detail") or {}
        params["name"] = pick(detail.get("name"), lang, name(event.get("sheet")))
        params["sheet"] = "\n".join(sheet_lines(detail, lang, ids, texts=kind != "opened"))
    elif kind in ("check", "there", "alive_check", "damage_roll"):
        dice = _dice(event)
        params["dice"] = "+".join(map(str, dice)) or "?"
        params["sum"] = sum(dice) + int(event.get("bonus") or 0)
        params["why"] = _word(lang, "why", event.get("why"))
        bonus = int(event.get("bonus") or 0)
        params["bonus"] = f"+{bonus}" if bonus else ""
        params["total"] = (
            t(lang, "esper.event.damage_roll.total", n=event["total"]) if "total" in event else ""
        )
    elif kind == "check_target":
        params["why"] = _word(lang, "why", event.get("why"))
    elif kind == "dealt":
        params["n"] = event.get("seats", 0)
    elif kind in ("silhouettes", "silhouettes_changed"):
        picks = event.get("picks") or {}
        params["picks"] = joined(
            lang, [t(lang, "esper.pick", seat=seat(s), name=name(picks[s])) for s in sorted(picks)]
        )
    elif kind == "sides":
        by_side: dict[str, list[str]] = {"invader": [], "defender": []}
        for s in _seat_keys(event):
            by_side.setdefault(str(event[s]), []).append(s)
        params["invaders"] = seats_label(by_side["invader"], names, lang)
        params["defenders"] = seats_label(by_side["defender"], names, lang)
    elif kind == "started":
        params["pieces"] = joined(
            lang,
            [
                t(lang, "esper.piece", seat=seat(s), spot=spot_label(event[s], lang))
                for s in _seat_keys(event)
            ],
        )
    elif kind == "skipped":
        params["action"] = ordertext.order_text(event.get("action", ""), lang)
    elif kind == "skipped_why":
        params["action"] = ordertext.order_text(event.get("action", ""), lang)
        params["why"] = _skip_reason(event, lang, names)
    elif kind == "conversion_result":
        params["seat"], params["target"] = seat(event.get("seat")), seat(event.get("target"))
    elif kind == "used":
        params["ability"] = name(event.get("ability"))
    elif kind == "party_proposed":
        params["named"] = seats_label(event.get("named") or [], names, lang)
    elif kind == "party":
        params["joined"] = seats_label(event.get("joined") or [], names, lang)
        params["declined"] = seats_label(event.get("declined") or [], names, lang)
    elif kind == "declared":
        params["voters"] = seats_label(event.get("voters") or [], names, lang)
    elif kind == "declaration_opposed":
        params["objectors"] = seats_label(event.get("objectors") or [], names, lang)
    elif kind == "ability_drawn":
        detail = event.get("detail") or {}
        params["cards"] = "\n".join(
            "- " + ability_line(detail[c], lang)
            if isinstance(detail.get(c), Mapping)
            else "- " + name(c)
            for c in event.get("cards") or ()
        )
    elif kind == "flipped":
        spots = event.get("spots") or {}
        # The ambush is a card of no pack: its name is the catalogue's (esper.card.ambush).
        params["cards"] = joined(
            lang,
            [
                f"{s} {t(lang, f'esper.card.{c}') if has(f'esper.card.{c}') else name(c)}"
                for s, c in spots.items()
            ],
        )
    elif kind == "seen":
        params["sheets"] = _seen_lines(event, lang, names)
    elif kind == "revealed":
        params["seats"] = _reveal_lines(event, lang, names)
        ambush = event.get("ambush")
        params["ambush"] = (
            t(lang, "esper.event.revealed.ambush", spot=spot_label(ambush, lang))
            if ambush
            else t(lang, "esper.event.revealed.no_ambush")
        )
    else:
        params.update(_part_two_params(event, lang, names, name))
    return params


def _part_two_params(
    event: Mapping[str, Any],
    lang: str,
    names: Mapping[str, str],
    name: Any,
) -> dict[str, Any]:
    """The combat's and the base's own parameters."""
    kind = str(event.get("type"))
    params: dict[str, Any] = {}
    if kind == "combat_start":
        params["key"] = t(lang, "esper.combat.key_here") if event.get("key") else ""
    elif kind == "initiative":
        params["order"] = " → ".join(
            f"{pair[0]} {pair[1]}"
            for pair in event.get("order") or ()
            if isinstance(pair, list | tuple) and len(pair) == 2
        )
    elif kind in ("drew", "discarded"):
        counts = event.get("counts") or [[event.get("seat"), event.get("n", 0)]]
        params["counts"] = joined(lang, [f"{s} {n}" for s, n in counts])
    elif kind in ("alive_checks", "there_misses"):
        # the dice alone: a sheet's "actually there" bonus is its roller's business
        params["rolls"] = joined(
            lang, [f"{s} {sum(_dice(e))}" for s, e in event.get("checks") or ()]
        )
    elif kind == "precombat_used":
        params["ability"] = name(event.get("ability"))
    elif kind == "there_bonus":
        dice = _dice(event)
        params["dice"] = "+".join(map(str, dice)) or "?"
        params["bonus"] = int(event.get("bonus") or 0)
        params["sum"] = sum(dice) + params["bonus"]
    elif kind == "c_drawn":  # by name and id: the cards' lines are behind 📋
        params["cards"] = joined(lang, [f"{name(c)} `{c}`" for c in event.get("cards") or ()])
    elif kind == "sync_total":
        params["helpers"] = seats_label(event.get("helpers") or [], names, lang)
    elif kind == "block":
        params["by"] = seats_label(event.get("by") or [], names, lang)
    elif kind == "died":
        dropped = event.get("dropped") or {}
        params["hand"] = dropped.get("hand", 0) if isinstance(dropped, Mapping) else 0
        params["abilities"] = dropped.get("abilities", 0) if isinstance(dropped, Mapping) else 0
    elif kind == "combat_end":
        params["why"] = _word(lang, "combat_end", event.get("why"))
    elif kind == "round_answers":
        params["seats"] = seats_label(event.get("continue") or [], names, lang)
    elif kind in ("key_found", "key_destroyed"):
        params["key"] = name(event.get("key"))
    elif kind == "keys_at":
        keys = event.get("keys") or {}
        params["keys"] = joined(lang, [f"{s} {name(k)}" for s, k in sorted(keys.items())])
    elif kind == "evil_placed":
        dice = _dice(event)
        x, y = [*dice, 0, 0][:2]
        params["x"], params["y"] = x, y
        params["to"] = f"{BASE_COLUMNS[x - 1]}{y}" if 1 <= x <= 6 and 1 <= y <= 6 else "?"
    elif kind == "base_trap":
        params["effect"] = fill(lang, f"esper.effect.{event.get('effect')}", {"n": event.get("n")})
        if not has(f"esper.effect.{event.get('effect')}"):
            params["effect"] = str(event.get("effect") or "—")
    elif kind == "base":
        params["spots"] = event.get("spots", 0)
    return params


def _base_spot(text: str) -> bool:
    return len(text) == 2 and text[0] in BASE_COLUMNS and text[1] in "123456"


def ccard_line(info: Mapping[str, Any], lang: str) -> str:
    """A C card as its holder reads it: ``k05`` **Kinetic Lance** — attack · level 3 · E ·
    firepower 8 · sync."""
    kind = str(info.get("kind") or "")
    parts = [_word(lang, "ckind", kind), t(lang, "esper.ccard.level", n=info.get("level", 0))]
    if kind == "attack":
        if info.get("attribute"):
            parts.append(_word(lang, "attribute", info.get("attribute")))
        if info.get("column"):
            parts.append(t(lang, "esper.ccard.column", column=info["column"]))
        elif info.get("firepower") is not None:
            parts.append(t(lang, "esper.ccard.firepower", n=info["firepower"]))
    if kind == "defence":
        stops = [_word(lang, "attribute", a) for a in info.get("blocks") or ()]
        parts.append(t(lang, "esper.ccard.blocks", attributes=joined(lang, stops)))
        if info.get("upkeep"):
            parts.append(t(lang, "esper.ccard.upkeep", n=info["upkeep"]))
    if info.get("teleport"):
        parts.append(t(lang, "esper.ccard.teleport"))
    if info.get("sync"):
        parts.append(t(lang, "esper.ccard.sync"))
    if kind == "special":
        text = pick(info.get("text"), lang)
        if text:
            parts.append(text)
    return t(
        lang,
        "esper.ccard.line",
        id=info.get("id", "?"),
        name=pick(info.get("name"), lang, str(info.get("id"))),
        what=t(lang, "esper.sep").join(parts),
    )


def _skip_reason(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> str:
    """Why an action of an order was skipped when its time came (a refusal key). The refusal's
    own parameters are used if the event carries them; else they come from the action's words
    (``convert C``: the seat, ``use a07``: the ability)."""
    why = str(event.get("why") or "")
    if not has(why):
        return why or "—"
    given = event.get("params")
    params: dict[str, Any] = dict(given) if isinstance(given, Mapping) else {}
    words = str(event.get("action") or "").split()
    args = words[1:]
    if args and "seat" not in params:
        params["seat"] = next((a for a in args if a in SEAT_LETTERS), args[0])
    if args and "ability" not in params:
        params["ability"] = args[0]
    if isinstance(params.get("seat"), str) and params["seat"] in SEAT_LETTERS:
        params["seat"] = seat_label(params["seat"], names, lang)
    ids = _event_names(event)
    for key in ("card", "weapon"):  # a C card or a weapon by its name in the reader's language
        if isinstance(params.get(key), str) and params[key] in ids:
            params[key] = pick(ids[params[key]], lang, params[key])
    if "attribute" in params:
        params["attribute"] = _word(lang, "attribute", params["attribute"])
    return fill(lang, why, params)


def _seen_lines(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> str:
    ids = _event_names(event)
    detail = event.get("detail") or {}
    lines = []
    for seat, sheet in sorted((event.get("sheets") or {}).items()):
        head = seat_label(seat, names, lang)
        info = detail.get(sheet) if isinstance(detail, Mapping) else None
        if isinstance(info, Mapping):
            lines.append(f"**{head}**\n" + "\n".join(sheet_lines(info, lang, ids)))
        else:
            lines.append(
                t(lang, "esper.seen_entry", seat=head, name=pick(ids.get(sheet), lang, str(sheet)))
            )
    return "\n".join(lines)


def _reveal_lines(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> str:
    ids = _event_names(event)
    detail = event.get("detail") or {}
    lines = []
    for seat, info in (event.get("seats") or {}).items():
        sheet = info.get("sheet")
        printed = (detail.get(sheet) or {}) if isinstance(detail, Mapping) else {}
        lines.append(
            t(
                lang,
                "esper.reveal_line",
                seat=seat_label(seat, names, lang),
                name=pick(printed.get("name") or ids.get(sheet), lang, str(sheet)),
                lock=t(lang, "esper.sheet.lock") if printed.get("lock") else "",
                alignment=alignment_word(lang, info.get("alignment")),
                card=info.get("card") or "—",
                grade=info.get("grade") or "—",
            )
        )
    return "\n".join(lines)


def _same(a: Mapping[str, Any], b: Mapping[str, Any], *keys: str) -> bool:
    return all(a.get(k) == b.get(k) for k in keys)


def compact(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A batch as it reads best: what one line already says is not said again (a card played
    and the attack, defence or escape it makes; a damage roll and the damage; an escape and where
    it lands; a rush in and the arrival), and runs of like events are one line (the hands drawn,
    the cards discarded, the "actually alive" checks that failed)."""
    out: list[dict[str, Any]] = []
    items = [dict(e) for e in events]
    announced: set[str] = set()  # seats whose arrival a line already told
    for i, event in enumerate(items):
        kind = event.get("type")
        if kind in ("there", "returned", "evil_placed"):
            announced.add(str(event.get("seat")))
        if _said(event, items[i + 1 :], out, announced):
            continue
        last = out[-1] if out else {}
        if kind in ("drew", "discarded") and last.get("type") == kind:
            counts = last.setdefault("counts", [[last.get("seat"), last.get("n", 0)]])
            counts.append([event.get("seat"), event.get("n", 0)])
            continue
        group = GROUPS.get(str(kind))
        if group is not None and event.get("result") == "no":
            if last.get("type") == kind and last.get("result") == "no":
                last = out[-1] = {"type": group, "checks": [[last.get("seat"), last]]}
            if last.get("type") == group:
                last["checks"].append([event.get("seat"), event])
                continue
        out.append(event)
    return out


# Rolls that failed, one after another, read as one line: "actually alive? D 4, E 5: nobody".
GROUPS = {"alive_check": "alive_checks", "there": "there_misses"}


def _said(
    event: dict[str, Any],
    later: Sequence[Mapping[str, Any]],
    out: list[dict[str, Any]],
    announced: set[str],
) -> bool:
    """Whether another line of the batch already says what ``event`` would (folding it into
    that line where it adds a number)."""
    kind = event.get("type")
    last = out[-1] if out else {}
    if kind == "played":
        return any(
            (e.get("type") == "attack" and e.get("by") == event.get("seat"))
            or (e.get("type") in ("defended", "escape") and e.get("seat") == event.get("seat"))
            for e in later
            if e.get("card") == event.get("card")
        )
    rolled = last.get("type") == "damage_roll" and _same(last, event, "seat")
    if kind == "damaged" and rolled and last.get("damage") == event.get("n"):
        last["total"] = event.get("total")
        return True
    escaped = last.get("type") == "escaped" and _same(last, event, "seat")
    if kind == "moved" and event.get("how") == "escape" and escaped:
        last["to"] = event.get("to")
        return True
    if kind == "moved" and event.get("how") in ("there", "evil"):
        return event.get("seat") in announced
    if kind == "entered":
        return event.get("seat") in announced
    if kind == "round_end" and not event.get("attacked"):
        return bool(later) and later[0].get("type") == "combat_end"  # it says nobody attacked
    return False


def event_lines(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> list[str]:
    lines: list[str] = []
    for event in compact(events):
        key = event_key(event)
        if key is None or not has(key):
            continue
        sentence = fill(lang, key, event_params(event, lang, names))
        lines.append("• " + sentence)
    return lines


# --- the channel's tallies -----------------------------------------------------------------------


def _view_name(view: Mapping[str, Any], item: Any, lang: str) -> str:
    return pick((view.get("names") or {}).get(str(item)), lang, str(item)) if item else "—"


def tallies(view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]:
    """A short line per seat, then (part 2) the secret base and the combat in progress, from
    the public view only."""
    fields = _table(view, lang)
    if view.get("stage") != "over":
        fields += _base_field(view, lang)
        fields += _combat_field(view, lang)
    return fields


def _table(view: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    """A field per seat (named by its letter), one short line."""
    seats = view.get("seats") or {}
    sheets = view.get("sheets") or {}
    reveal = view.get("reveal") or {}
    grades = view.get("grades") or {}
    rows: list[tuple[str, str]] = []
    for seat, info in seats.items():
        lines: list[str] = []
        if seat in reveal:  # the game is over: every sheet is public
            shown = reveal[seat]
            lines.append(
                t(
                    lang,
                    "esper.tally.revealed",
                    name=_view_name(view, shown.get("sheet"), lang),
                    alignment=alignment_word(lang, shown.get("alignment")),
                    card=shown.get("card") or "—",
                    grade=grades.get(seat, "—"),
                )
            )
        # one line: the silhouette, then where and only the counts that are not zero (a phone
        # reads seven of these under every turn; the board has the whole roster)
        sil = info.get("silhouette")
        parts = []
        if sil and (info.get("alive", True) or seat in reveal):  # the dead: their mark only
            parts.append(_view_name(view, sil, lang))
        if info.get("spot"):
            parts.append(str(info.get("spot")))  # the bare spot: a phone reads seven rows
        elif info.get("outside") and info.get("alive", True):
            parts.append(t(lang, "esper.tally.outside"))
        elif sil and info.get("alive", True) and info.get("side") != "defender":
            parts.append(_word(lang, "side", info.get("side")))  # (a defender has no piece)
        # the dead: their counts no longer matter (the board keeps them)
        counts = (("damage", "damage"), ("info", "info"), ("cards", "abilities"))
        for key, value in counts if info.get("alive", True) or seat in reveal else ():
            if info.get(value):
                parts.append(t(lang, f"esper.tally.{key}", n=info[value]))
        if parts:
            lines.append(t(lang, "esper.sep").join(parts))
        opened = info.get("open")
        if opened and seat not in reveal:
            printed = sheets.get(opened) or {}
            lines.append(
                t(
                    lang,
                    "esper.tally.open",
                    name=_view_name(view, opened, lang),
                    alignment=alignment_word(lang, printed.get("alignment")),
                )
            )
        marks = []
        if info.get("resigned"):
            marks.append(t(lang, "esper.tally.resigned"))
        elif not info.get("alive", True):
            marks.append(t(lang, "esper.tally.dead"))
        if info.get("black_hole"):
            marks.append(t(lang, "esper.tally.black_hole"))
        if info.get("party") is not None:
            marks.append(t(lang, "esper.tally.party", n=info["party"]))
        if info.get("declared"):
            marks.append(t(lang, "esper.tally.declared"))
        if info.get("refusals"):
            marks.append(t(lang, "esper.tally.refusals", n=info["refusals"]))
        if marks:
            lines.append(t(lang, "esper.sep").join(marks))
        # the seat's letter only: players' names are on the board's roster, and the step's
        # first line names the seat to play
        rows.append((str(seat), t(lang, "esper.sep").join(lines) or "—"))
    # one field per seat: a post shows only the rows that changed since the step before
    return rows


def _base_field(view: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    """The secret base, once a key installation is found: found and destroyed of all, each
    found one with its damage (before that the board says all there is; posts stay short)."""
    base = view.get("base")
    if not isinstance(base, Mapping) or not base.get("keys"):
        return []
    keys = base.get("keys") or {}
    destroyed = sum(1 for k in keys.values() if isinstance(k, Mapping) and k.get("destroyed"))
    total = int(base.get("keys_total") or 0)
    lines = [
        t(lang, "esper.tally.keys", found=len(keys), destroyed=destroyed, total=total)
        if total
        else t(lang, "esper.tally.keys_pending")
    ]
    for spot, key in sorted(keys.items()):
        if not isinstance(key, Mapping):
            continue
        lines.append(
            t(
                lang,
                "esper.tally.key",
                spot=spot,
                name=_view_name(view, key.get("id"), lang),
                state=key_state(key, lang),
            )
        )
    # who waits around the base: each seat's own row says so (short posts)
    return [(t(lang, "esper.tally.base"), "\n".join(lines))]


def key_state(key: Mapping[str, Any], lang: str) -> str:
    """A found key installation: destroyed, durability left (when the view gives its printed
    durability) or the damage it has taken."""
    if key.get("destroyed"):
        return t(lang, "esper.tally.key_destroyed")
    damage = int(key.get("damage") or 0)
    if isinstance(key.get("durability"), int):
        return t(lang, "esper.tally.key_left", n=key["durability"] - damage, of=key["durability"])
    return t(lang, "esper.tally.key_damage", n=damage)


def attack_text(attack: Mapping[str, Any], lang: str) -> str:
    """The attack being answered, from the public view: "B → C · level 3 E · firepower 8"."""
    if attack.get("kind") == "melee":
        power = t(lang, "esper.ccard.firepower", n=attack.get("firepower"))
        what = t(lang, "esper.attribute.melee")
    else:
        column = board.column_label(attack.get("column"))
        power = (
            t(lang, "esper.ccard.column", column=column)
            if column
            else t(lang, "esper.ccard.firepower", n=attack.get("firepower"))
        )
        what = _word(lang, "attribute", attack.get("attribute"))
    target = str(attack.get("target") or "?")
    return t(
        lang,
        "esper.attack",
        by=attack.get("by") or "?",
        target=t(lang, "esper.key_at", spot=target) if _base_spot(target) else target,
        level=attack.get("level", "?"),
        attribute=what,
        power=power,
    )


def _combat_field(view: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    """The combat in progress: spot and round, the initiative order with the seat to act
    marked, each participant's hand size (never its cards), henchmen and maintained defence,
    the attack being answered."""
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return []
    lines = [t(lang, "esper.tally.combat_head", spot=combat.get("spot"), round=combat.get("round"))]
    order = [s for s in combat.get("order") or () if s in (combat.get("seats") or ())]
    order += [s for s in combat.get("seats") or () if s not in order]
    current = combat.get("current")
    cards = combat.get("cards") or {}
    hands = combat.get("hands") or {}
    henchmen = combat.get("henchmen") or {}
    maintained = combat.get("maintained") or {}
    for seat in order:
        parts = [t(lang, "esper.tally.hand", n=hands.get(seat, 0))]
        if cards.get(seat):
            parts.insert(0, str(cards[seat]))
        if henchmen.get(seat):
            parts.append(t(lang, "esper.tally.henchmen", n=henchmen[seat]))
        held = maintained.get(seat)
        if isinstance(held, Mapping):
            parts.append(
                t(
                    lang,
                    "esper.tally.maintained",
                    card=_view_name(view, held.get("card"), lang),
                    level=held.get("level", "?"),
                )
            )
        mark = "▶ " if seat == current else ""
        lines.append(f"{mark}**{seat}** " + t(lang, "esper.sep").join(parts))
    if combat.get("key"):
        lines.append(t(lang, "esper.tally.key_target", spot=combat["key"]))
    late = list(combat.get("late") or ())
    if late:
        lines.append(t(lang, "esper.tally.late", seats=joined(lang, late)))
    attack = combat.get("attack")
    if isinstance(attack, Mapping):
        lines.append(t(lang, "esper.tally.attack", attack=attack_text(attack, lang)))
    return [(t(lang, "esper.tally.combat"), "\n".join(lines))]


# --- the seat's DM -------------------------------------------------------------------------------


def private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """The seat's own sheet from its own view (the 📋 button's private answer): who it is,
    its printed sheet, its ability cards, what it has seen and been told, the ambush and the
    key installations (EVIL silhouettes), its C cards."""
    you = view.get("you") or {}
    if not you:
        return []
    names = view.get("names") or {}
    sheet = you.get("sheet") or {}
    lines = [
        t(
            lang,
            "esper.dm.character",
            name=pick(sheet.get("name"), lang, str(sheet.get("id"))),
            alignment=alignment_word(lang, you.get("alignment")),
            printed=(
                t(lang, "esper.dm.printed", alignment=alignment_word(lang, sheet.get("alignment")))
                if sheet.get("alignment") and sheet.get("alignment") != you.get("alignment")
                else ""
            ),
            durability=you.get("durability", "?"),
            max_durability=sheet.get("durability", "?"),
            mind=you.get("mind", "?"),
            max_mind=sheet.get("mind", "?"),
            card=you.get("card") or "—",
        )
    ]
    if sheet:  # the printed sheet: its abilities are what the seat plays with
        lines += sheet_lines(sheet, lang, names)
    hand = you.get("hand") or []
    if hand:
        lines.append(t(lang, "esper.dm.hand"))
        lines += ["- " + ability_line(a, lang) for a in hand]
    for seen in you.get("seen") or []:
        other = seen.get("seat")
        lines.append(
            t(
                lang,
                "esper.dm.seen",
                seat=other,
                name=pick(seen.get("name"), lang, seen.get("sheet")),
            )
        )
    for told in you.get("told") or ():
        lines.append(_told_line(told, seat, lang))
    ambush = you.get("ambush")
    if ambush:
        lines.append(
            t(
                lang,
                "esper.dm.ambush",
                spot=spot_label(ambush.get("spot"), lang),
                runner=ambush.get("runner") or "—",
            )
        )
    keys = you.get("keys")
    if isinstance(keys, Mapping) and keys:
        lines.append(t(lang, "esper.dm.keys", keys=joined(lang, _key_names(view, keys, lang))))
    lines += _hand_lines(view, seat, lang, whole=True)
    return lines


def _key_names(view: Mapping[str, Any], keys: Mapping[str, Any], lang: str) -> list[str]:
    """``B2 Main Reactor``: the key installations an EVIL silhouette knows of (a name the view
    gives, else the id)."""
    given = (view.get("you") or {}).get("key_names") or {}
    out = []
    for spot, key in sorted(keys.items()):
        if isinstance(key, Mapping):  # {"id", "name"}: a view that names them itself
            label = pick(key.get("name"), lang, str(key.get("id")))
        elif key in given:
            label = pick(given[key], lang, str(key))
        else:
            label = _view_name(view, key, lang)
        out.append(f"{spot} {label}")
    return out


def _hand_lines(view: Mapping[str, Any], seat: str, lang: str, *, whole: bool = False) -> list[str]:
    """The seat's C hand: every card in a combat it takes part in (or ``whole``: always, the
    📋 answer), else only how many."""
    mine = (view.get("you") or {}).get("combat")
    if not isinstance(mine, Mapping):
        return []
    hand = [c for c in mine.get("c_hand") or () if isinstance(c, Mapping)]
    combat = view.get("combat")
    fighting = isinstance(combat, Mapping) and (
        seat in (combat.get("seats") or ()) or seat in (combat.get("late") or ())
    )
    if not fighting and not (whole and hand):
        return [t(lang, "esper.dm.c_held", n=len(hand))] if hand else []
    lines = [
        t(
            lang,
            "esper.dm.c_hand",
            n=len(hand),
            limit=mine.get("hand_limit", "?"),
            power=mine.get("power", "?"),
        )
    ]
    lines += ["- " + ccard_line(card, lang) for card in hand]
    return lines


def _told_line(told: Mapping[str, Any], seat: str, lang: str) -> str:
    """A conversion this seat was told of, as its converter or its target."""
    changed = bool(told.get("changed"))
    alignment = alignment_word(lang, told.get("alignment"))
    if told.get("target") == seat:
        key = "esper.dm.converted_you" if changed else "esper.dm.not_converted_you"
        return t(lang, key, seat=told.get("seat"), alignment=alignment)
    key = "esper.dm.you_converted" if changed else "esper.dm.you_did_not_convert"
    return t(lang, key, seat=told.get("target"), alignment=alignment)


def _asks(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What the open step asks of this seat."""
    you = view.get("you") or {}
    step = view.get("step")
    seats = view.get("seats") or {}
    mine = seats.get(seat) or {}
    if step in COMBAT_STEPS:
        return _combat_asks(view, seat, lang)
    if step == "keys":
        return [t(lang, "esper.ask.keys")]
    if step == "place":
        return [t(lang, "esper.ask.place")]
    if step == "path":
        return [t(lang, "esper.ask.path")]
    if step == "deal":
        lines = [t(lang, "esper.ask.deal")]
        if you.get("refuse"):
            lines.append(t(lang, "esper.ask.refuse"))
        if you.get("refuse_last"):
            lines.append(t(lang, "esper.ask.refuse_last"))
        return lines
    if step in ("silhouette", "repick", "balance", "balance_card"):
        sil_names = you.get("silhouette_names") or {}
        allowed = [f"{pick(sil_names.get(i), lang, i)} `{i}`" for i in you.get("silhouettes") or ()]
        key = "esper.ask.balance" if step in ("balance", "balance_card") else "esper.ask.silhouette"
        lines = [t(lang, key, card=card_label(you.get("card"), lang))]
        if len(allowed) > SILHOUETTE_MENU:  # more than the menu holds: the rest are typed
            lines.append(t(lang, "esper.ask.allowed", silhouettes=joined(lang, allowed)))
        return lines
    if step == "start":
        if mine.get("side") == "defender":
            runners = [s for s, i in seats.items() if i.get("side") == "defender"]
            return [t(lang, "esper.ask.ambush", runners=joined(lang, runners))]
        return [t(lang, "esper.ask.start")]
    if step == "objection":
        # Who declared and for which side, as the declaration announced it in public.
        side = view.get("declared_for")
        declarer = view.get("declaration") or "?"
        if side == "solo":
            return [t(lang, "deadlines.objection_solo", seat=declarer)]
        return [t(lang, "deadlines.objection", seat=declarer, side=alignment_word(lang, side))]
    if step == "party":
        return [t(lang, "esper.ask.party", seat=view.get("active") or "?")]
    if step == "direction":
        return [t(lang, "esper.ask.direction")]
    if step == "see":
        see = you.get("see") or {}
        return [t(lang, "esper.ask.see", n=see.get("n", 0), of=joined(lang, see.get("of") or []))]
    if step in ("turn", "after"):
        spot = mine.get("spot")
        here = [
            s
            for s, i in seats.items()
            if s != seat and i.get("spot") == spot and i.get("alive") and spot
        ]
        in_base = view.get("stage") == "base" and step == "turn"
        ask = "esper.ask.base_turn" if in_base else f"esper.ask.{step}"
        line = t(lang, ask, spot=spot_label(spot, lang), here=joined(lang, here))
        if view.get("stage") == "base" and mine.get("outside"):
            line = t(lang, "esper.ask.outside", n=you.get("infiltration", 0))
        usable = you.get("usable") or []
        if usable:  # by name and id, on the same line: their texts are behind 📋
            named = [f"{pick(a.get('name'), lang, str(a.get('id')))} `{a['id']}`" for a in usable]
            gap = "" if lang == "ja" else " "  # Japanese sentences follow on without a space
            line += gap + t(lang, "esper.ask.usable", abilities=joined(lang, named))
        # [check] abilities fire only when ordered: the help (❓) says how, once
        lines = [line]
        return lines
    return []


def _combat_asks(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What a combat step asks of this seat, with the order's syntax; the examples are cards of
    its own hand (``ID`` where it holds none of the kind), never another's."""
    step = view.get("step")
    combat = view.get("combat") or {}
    you = view.get("you") or {}
    mine = you.get("combat") or {}
    hand = [c for c in mine.get("c_hand") or () if isinstance(c, Mapping)]
    by_id = {c.get("id"): c for c in hand}

    def cards(ids: Sequence[Any]) -> str:
        shown = [
            f"{pick(by_id[c].get('name'), lang, str(c))} `{c}`" if c in by_id else f"`{c}`"
            for c in dict.fromkeys(ids)
        ]
        return joined(lang, shown)

    def first(kind: str, ids: Sequence[Any] | None = None) -> str:
        pool = [c for c in hand if ids is None or c.get("id") in ids]
        found = next((c for c in pool if kind in ("", c.get("kind"))), None)
        return str(found.get("id")) if found else "ID"

    weapon = next(
        (c.get("id") for c in hand if c.get("kind") == "special" and c.get("effect") == "melee"),
        None,
    )
    n = max(0, int(you.get("durability") or 0))
    attack = combat.get("attack") if isinstance(combat.get("attack"), Mapping) else None
    if step == "entry":
        return [
            t(
                lang,
                "esper.ask.entry",
                spot=spot_label(combat.get("spot"), lang),
                seats=joined(lang, list(combat.get("seats") or ())),
            )
        ]
    if step == "precombat":
        # every newcomer is asked, whatever its sheet holds: one with nothing to use says pass
        usable = mine.get("precombat")
        return [t(lang, "esper.ask.precombat" if usable else "esper.ask.precombat_none")]
    if step == "cturn":
        targets = [str(s) for s in combat.get("seats") or () if s != seat]
        if combat.get("key"):
            targets.append(str(combat["key"]))
        lines = [
            t(
                lang,
                "esper.ask.cturn",
                round=combat.get("round", 1),
                targets=joined(lang, targets),
                attack=first("attack"),
                escape=first("escape"),
                discard=str(hand[-1].get("id")) if hand else "ID",
                target=targets[0] if targets else "?",
                n=n,
                weapon=f" +{weapon}" if weapon else "",
            )
        ]
        held = (combat.get("maintained") or {}).get(seat)
        if isinstance(held, Mapping):
            lines.insert(
                0,
                t(
                    lang,
                    "esper.ask.keep",
                    card=_view_name(view, held.get("card"), lang),
                    upkeep=held.get("upkeep", 0),
                ),
            )
        return lines
    if step == "sync" and attack is not None:
        fits = list(mine.get("sync") or ())
        if not fits:  # asked as everyone yet to act is: nothing to add
            return [t(lang, "esper.ask.sync_none", attack=attack_text(attack, lang))]
        return [
            t(lang, "esper.ask.sync", attack=attack_text(attack, lang), card=first("", fits)),
            t(lang, "esper.ask.fits", cards=cards(fits)),
        ]
    if step == "defend" and attack is not None:
        held = seat in (combat.get("maintained") or {})
        lines = [
            t(
                lang,
                "esper.ask.defend_held" if held else "esper.ask.defend",
                attack=attack_text(attack, lang),
                level=attack.get("level", "?"),
                defence=first("defence"),
                escape=first("escape"),
                n=max(0, n - 1),  # an example below the durability the seat has
            )
        ]
        if attack.get("kind") == "melee":
            with_weapon = t(lang, "esper.ask.counter_weapon", weapon=weapon) if weapon else ""
            lines.append(t(lang, "esper.ask.counter", weapon=with_weapon))
        return lines
    if step == "block":
        fits = list(mine.get("block") or ())
        lines = (
            [
                t(lang, "esper.ask.block", card=first("", fits)),
                t(lang, "esper.ask.fits", cards=cards(fits)),
            ]
            if fits
            else [t(lang, "esper.ask.block_none")]  # asked as every other participant is
        )
        escape = combat.get("escape")  # when the view tells whose teleport it is
        if isinstance(escape, Mapping) and escape.get("seat"):
            who = t(lang, "esper.ask.escaping", seat=escape["seat"], level=escape.get("level"))
            lines.insert(0, who)
        return lines
    if step == "round_end":
        return [
            t(
                lang,
                "esper.ask.round_end",
                round=combat.get("round", 1),
                discard=str(hand[-1].get("id")) if hand else "ID",
            )
        ]
    return []


# --- what changed for the seat since its last prompt ----------------------------------------------


def seat_memo(view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
    """A few numbers and ids from the seat's own view, for its next prompt's news: its
    durability and mind, its ability cards and C cards (ids), its spot and who shares it."""
    you = view.get("you") or {}
    if not you:
        return None
    mine = (view.get("seats") or {}).get(seat) or {}
    held = you.get("combat")
    combat: Mapping[str, Any] = held if isinstance(held, Mapping) else {}
    return {
        "d": you.get("durability"),
        "m": you.get("mind"),
        "a": [str(a.get("id")) for a in you.get("hand") or () if isinstance(a, Mapping)],
        "c": [str(c.get("id")) for c in combat.get("c_hand") or () if isinstance(c, Mapping)],
        "s": mine.get("spot"),
        "n": _sharing(view, seat),
    }


def _area(spot: Any) -> str:
    """What "near" means for a spot: its planet on the rings (``P3-4`` -> ``P3``), else the spot
    itself (a base spot, Rafnor)."""
    text = str(spot or "")
    return text.split("-")[0] if text.startswith("P") and "-" in text else text


def _sharing(view: Mapping[str, Any], seat: str) -> dict[str, str]:
    """The living seats near the seat (its planet, or its spot in the base), with their spots
    (public: the pieces' spots)."""
    seats = view.get("seats") or {}
    area = _area((seats.get(seat) or {}).get("spot"))
    if not area:
        return {}
    return {
        str(s): str(i.get("spot"))
        for s, i in sorted(seats.items())
        if s != seat and i.get("alive") and i.get("spot") and _area(i.get("spot")) == area
    }


def _near_line(near: Mapping[str, str], area: str, lang: str) -> str:
    """``C (P3-4), B (P3-2)`` on a planet; the seats alone on a base spot."""
    planet = area.startswith("P") and "-" not in area
    seats = [t(lang, "esper.news.at", seat=s, spot=at) if planet else s for s, at in near.items()]
    return joined(lang, seats)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def seat_news(memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What changed for the seat since its last prompt, one short line each: durability and
    mind (a combat's damage, a card's, a recovery), ability cards and C cards gained or lost, a
    new spot, who arrived on or left its spot."""
    now = seat_memo(view, seat)
    if not isinstance(memo, Mapping) or now is None:
        return []
    lines: list[str] = []
    for key, stat in (("d", "durability"), ("m", "mind")):
        old, new = memo.get(key), now.get(key)
        if isinstance(old, int) and isinstance(new, int) and old != new:
            lines.append(t(lang, f"esper.news.{stat}", old=old, new=new, delta=_signed(new - old)))
    you = view.get("you") or {}
    names = {str(a.get("id")): a.get("name") for a in you.get("hand") or ()}
    names.update((view.get("names") or {}).items())
    before, after = list(memo.get("a") or ()), list(now.get("a") or ())
    gained = [a for a in after if a not in before]
    lost = [a for a in before if a not in after]
    if gained:
        cards = joined(lang, [pick(names.get(a), lang, a) for a in gained])
        lines.append(t(lang, "esper.news.abilities_gained", cards=cards))
    if lost:
        cards = joined(lang, [pick(names.get(a), lang, a) for a in lost])
        lines.append(t(lang, "esper.news.abilities_lost", cards=cards))
    # C cards: a draw is told by its own event and a play is the seat's own; only a loss it did
    # not make (a death drops the hand) is news
    c_now = list(now.get("c") or ())
    if memo.get("c") and not c_now:
        lines.append(t(lang, "esper.news.c_cards", old=len(memo.get("c") or ()), new=0))
    spot, was = now.get("s"), memo.get("s")
    near = dict(now.get("n") or {})
    held = memo.get("n")
    before_near: Mapping[str, Any] = held if isinstance(held, Mapping) else {}
    area = _area(spot)
    planet = area.startswith("P") and "-" not in area
    where = t(lang, "esper.news.planet", n=area[1:]) if planet else spot_label(spot, lang)
    if spot and spot != was:
        lines.append(t(lang, "esper.news.spot", spot=spot_label(spot, lang)))
        if _area(was) != area and near:
            lines.append(
                t(lang, "esper.news.near", where=where, seats=_near_line(near, area, lang))
            )
    if spot and _area(was) == area:
        came = {s: at for s, at in near.items() if s not in before_near}
        went = [s for s in before_near if s not in near]
        if came:
            lines.append(
                t(lang, "esper.news.arrived", where=where, seats=_near_line(came, area, lang))
            )
        if went:
            lines.append(t(lang, "esper.news.left", where=where, seats=joined(lang, went)))
    return ["🆕 " + line for line in lines]


def question(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """What this step asks of the seat, in a line or two (its answers are the buttons; the
    order's syntax where it is typed)."""
    if seat not in (view.get("waiting") or ()):
        return []
    lines = _asks(view, seat, lang)
    mine = (view.get("you") or {}).get("combat")
    if view.get("step") in HAND_STEPS and isinstance(mine, Mapping):
        # what a combat turn or a defence is chosen from: the hand by name (each card's line is
        # behind 📋; the other steps' menus list the cards that fit)
        hand = [c for c in mine.get("c_hand") or () if isinstance(c, Mapping)]
        copies = Counter(str(c.get("id")) for c in hand)  # a deck holds several of a card
        by_id = {str(c.get("id")): c for c in hand}
        cards = [
            f"{pick(by_id[i].get('name'), lang, i)} `{i}`" + (f"×{n}" if n > 1 else "")
            for i, n in copies.items()
        ]
        if cards:
            lines.append(t(lang, "esper.ask.c_hand", cards=joined(lang, cards)))
    return lines


# The events a post's first line names, the weightiest first (esper.md: the game's turning points
# before its routine); an event type not named here comes after all of them, in log order.
HEADLINE_ORDER = (
    "revealed",
    "turn_limit",
    "declaration_unopposed",
    "declared",
    "declared_solo",
    "declaration_opposed",
    "died",
    "key_destroyed",
    "stage_end",
    "base",
    "ambush",
    "combat_start",
    "combat_end",
    "key_found",
    "returned",
    "black_hole",
    "escaped",
    "defence_broken",
    "damaged",
    "opened",
    "convert",
    "freed",
    "party",
    "silhouettes",
    "silhouettes_changed",
    "refused",
    "refused_last",
    "repick",
    "sheets_fixed",
    "first_player",
    "square",
    "flipped",
    "info",
    "abilities",
    "teleport",
    "moved",
    "infiltrated",
    "attack",
    "damage_roll",
)


def headline(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> str | None:
    """The step's main event in words (the post's first line): the weightiest worded public
    event (:data:`HEADLINE_ORDER`), without its Markdown (the line is bold already)."""
    worded = []
    for index, event in enumerate(compact(events)):
        key = event_key(event)
        if key is None or not has(key):
            continue
        kind = str(event.get("type"))
        rank = HEADLINE_ORDER.index(kind) if kind in HEADLINE_ORDER else len(HEADLINE_ORDER)
        worded.append((rank, index, event, key))
    if not worded:
        return None
    _, _, event, key = min(worded, key=lambda w: (w[0], w[1]))
    line = fill(lang, key, event_params(event, lang, names)).replace("**", "")
    return line.split("\n")[0].strip() or None


# --- the result line -----------------------------------------------------------------------------


def outcome_text(
    outcome: Outcome, lang: str, users: Mapping[str, int], end_reason: str | None
) -> str:
    """Winners and losers with every seat's grade (A–D), and why the game ended."""
    reason = outcome.reason or end_reason
    why = _word(lang, "reason", reason) if reason else ""
    grades = dict(outcome.grades)
    if not grades:
        return ""

    def who(seat: str) -> str:
        return t(
            lang,
            "esper.outcome.seat",
            seat=seat,
            user=f"<@{users.get(seat, 0)}>",
            grade=grades[seat],
        )

    winners = [who(s) for s in sorted(grades) if s in outcome.winners]
    losers = [who(s) for s in sorted(grades) if s not in outcome.winners]
    key = "esper.outcome.result" if winners else "esper.outcome.all_lose"
    return t(lang, key, winners=joined(lang, winners), losers=joined(lang, losers), reason=why)


def combat_step_name(view: Mapping[str, Any], lang: str) -> str:
    """ "⚔️ Combat on P3-2, round 2 · C's turn": the combat, then what its step waits for."""
    combat = view.get("combat") or {}
    step = str(view.get("step"))
    attack = combat.get("attack") if isinstance(combat.get("attack"), Mapping) else {}
    seat = combat.get("current") if step == "cturn" else (attack or {}).get("target")
    head = t(
        lang,
        "esper.step.combat",
        spot=spot_label(combat.get("spot"), lang),
        round=combat.get("round", 1),
    )
    sub = fill(lang, f"esper.step.{step}", {"seat": seat or "?"})
    return t(lang, "esper.step.sub", step=head, sub=sub)


# --- the board's description ---------------------------------------------------------------------


def describe_board(
    title: str, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
) -> str:
    """:meth:`EsperPresenter.board_description`."""
    notes = [
        t(lang, "esper.alt.field", name=name, lines=alttext.listed(lang, map(_plain, lines)))
        for name, value in (_combat_field(view, lang) + _base_field(view, lang))
        if (lines := value.splitlines())
    ]
    if view.get("ambush"):
        notes.append(t(lang, "esper.alt.ambush", spot=spot_label(view["ambush"], lang)))
    now, before = _planets(view), _planets(scene.before) if scene.before is not None else None
    changed = [
        t(lang, "esper.alt.spent", spot=spot)
        if card == "x"
        else t(lang, "esper.alt.revealed", spot=spot, name=_view_name(view, card, lang))
        for spot, card in now.items()
        if before is not None and before.get(spot) != card
    ]
    up = [
        t(lang, "esper.alt.planet", spot=spot, name=_view_name(view, card, lang))
        for spot, card in now.items()
        if card != "x"
    ]
    spent = [spot for spot, card in now.items() if card == "x"]
    before_pieces = _pieces(scene.before, lang, names)
    seats = alttext.describe(
        title, lang, names, scene, _pieces(view, lang, names), before_pieces, notes
    )
    return alttext.compose(
        lang,
        [
            seats,  # the header first: clipping cuts the planets' list, not whose move it is
            alttext.what_changed(lang, changed),
            t(lang, "esper.alt.planets", cards=alttext.listed(lang, up)) if up else "",
            t(lang, "esper.alt.destroyed", spots=alttext.listed(lang, spent)) if spent else "",
        ],
    )


def _plain(line: str) -> str:
    """A field's line without its Markdown and the turn marker (the header names the seat)."""
    return line.replace("**", "").replace("▶ ", "")


def _planets(view: Mapping[str, Any] | None) -> dict[str, str]:
    planets = (view or {}).get("planets") or {}
    return {str(spot): str(card) for spot, card in planets.items() if card}


def _pieces(
    view: Mapping[str, Any] | None, lang: str, names: Mapping[str, str]
) -> dict[str, alttext.Piece]:
    """Every player as a description names it (``C Cirrus Jax Runner``): the spot, the side,
    the counts, and the marks the board draws (dead, black hole, party, declared)."""
    pieces = {}
    view = view or {}
    for seat, info in (view.get("seats") or {}).items():
        label = alttext.seat_label(seat, names)
        if info.get("silhouette") and info.get("alive", True):
            label += " " + _view_name(view, info["silhouette"], lang)
        place = spot_label(info.get("spot"), lang) if info.get("spot") else None
        if place is None and info.get("outside") and info.get("alive", True):
            place = t(lang, "esper.alt.outside")
        state: list[tuple[str, str]] = []
        if info.get("side"):
            state.append((_word(lang, "side", info["side"]), ""))
        for key, name in (("damage", "damage"), ("info", "info"), ("abilities", "cards")):
            state.append((t(lang, f"esper.alt.{name}"), str(info.get(key) or 0)))
        for mark in ("dead", "black_hole", "declared"):
            held = not info.get("alive", True) if mark == "dead" else info.get(mark)
            if held:
                state.append((t(lang, f"esper.board.legend.{mark}"), ""))
        if info.get("party") is not None:
            state.append((t(lang, "esper.board.legend.party"), str(info["party"])))
        pieces[str(seat)] = alttext.Piece(label, place, tuple(state))
    return pieces


class EsperPresenter(Presenter):
    def order_text(self, text: str, lang: str) -> str:
        return ordertext.order_text(text, lang)

    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        step = str(view.get("step") or "")
        if step in ("deal", "silhouette", "repick", "balance", "balance_card", "start", "see"):
            return t(lang, f"esper.step.{step}")
        if step == "over" or view.get("stage") == "over":
            return t(lang, "esper.step.over")
        if step == "objection":
            return t(lang, "esper.step.objection", seat=view.get("declaration") or "?")
        if step in COMBAT_STEPS:
            return combat_step_name(view, lang)
        if step in ("keys", "place"):
            return t(lang, f"esper.step.{step}")
        # ``turn`` counts the normal turns played: the one being played is the next
        value = view.get("turn")
        played = value if isinstance(value, int) else 0
        name = t(lang, "esper.step.turn", turn=played + 1, seat=view.get("active") or "?")
        if step in ("direction", "party", "after", "path"):
            name = t(lang, "esper.step.sub", step=name, sub=t(lang, f"esper.step.{step}"))
        return name

    def outcome_text(
        self, outcome: Outcome, lang: str, users: Mapping[str, int], end_reason: str | None
    ) -> str:
        return outcome_text(outcome, lang, users, end_reason) or super().outcome_text(
            outcome, lang, users, end_reason
        )

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        return tallies(view, lang, names)

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        return event_key(event)

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        return event_params(event, lang, names)

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        return event_lines(events, lang, names)

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return private_lines(view, seat, lang)

    def order_help(self, lang: str) -> str:
        return t(lang, "esper.dm.help") + "\n" + t(lang, "esper.dm.terms")

    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
        return seat_memo(view, seat)

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return seat_news(memo, view, seat, lang)

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return question(view, seat, lang)

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        return headline(events, lang, names)

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """The combat and the base as the post's fields say them, the ambush, which players
        moved, died or changed and which planet cards turned up or were spent since the step
        before, where every player stands, and the planet cards face up."""
        return describe_board(self.title(lang), view, lang, names, scene)

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def channel_choices(self, view: Mapping[str, Any]) -> bool:
        # Answers to a declaration are public and the same for every voter: the buttons may sit
        # under the channel's post too.
        return view.get("step") == "objection"


PRESENTER = EsperPresenter("esper")
