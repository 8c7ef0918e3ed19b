"""How the Esper war reads and looks: step names, tallies, event sentences, DM lines, the board.

Pure (i18n and the renderer only). Events name pack ids (sheets, planet cards, abilities) and
carry their names in both languages (``names``: :func:`cogs.esper.rules._named`), and a sheet's
printed contents where one is shown (``detail``); views carry the names of what they show. Nothing
here reads the pack itself, so a game on a community's pack reads with that pack's names, and a
record replays the same.

Hidden information: the channel reads only public events (the framework routes those with
``to`` to their seats' DMs) and the public view; the DM lines read the seat's own ``you``.
Nothing here adds a fact an event or view does not hold.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import has, t
from bot.ruleset import Outcome, Presenter
from cogs.esper import board

ALIGNMENTS = ("GOOD", "EVIL", "SPECIAL")
RAFNOR = "R"
# The engine's ``end`` says no more than the result line the framework adds after the events, a
# ``turn`` no more than the post's first line (which names the step opened: "Turn 20 · C").
QUIET = ("end", "turn")
SEAT_LETTERS = frozenset("ABCDEFGHIJK")
# Events addressed to seats (``to``): worded for the reader of a DM.
PRIVATE = (
    "your_sheet",
    "your_card",
    "peek",
    "conversion_result",
    "ability_drawn",
    "seen",
    "ambush_set",
    "skipped_why",
    "refuse_last_failed",
)


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
    if kind == "combat_skipped":
        why = str(event.get("why"))
        return f"{base}.{why}" if has(f"{base}.{why}") else base + ".fight"
    if kind == "recovered" and not event.get("n"):
        return base + ".none"  # a spring on a character with nothing lost
    if kind == "used":
        return base + (".target" if event.get("target") else "")
    if kind == "flipped":
        return base + (".cards" if event.get("n") else "")
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
        return name(text)

    params: dict[str, Any] = {}
    for key in ("n", "total", "turn", "turns", "level", "roll", "of"):
        if key in event:
            params[key] = event[key]
    for key in ("seat", "by", "runner"):
        if key in event:
            params[key] = seat(event[key])
    if "target" in event:
        # a check's target is the number to roll under; elsewhere a seat, a planet or an id
        params["target"] = event["target"] if kind == "check" else target(event["target"])
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
    if "card" in event:
        params["card"] = (
            name(event["card"]) if kind == "square" else card_label(event["card"], lang)
        )
    if kind in ("your_sheet", "peek", "opened"):
        detail = event.get("detail") or {}
        params["name"] = pick(detail.get("name"), lang, name(event.get("sheet")))
        params["sheet"] = "\n".join(sheet_lines(detail, lang, ids, texts=kind != "opened"))
    elif kind == "check":
        dice = [int(d) for d in event.get("dice") or ()]
        params["dice"] = "+".join(map(str, dice)) or "?"
        params["sum"] = sum(dice)
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
        params["action"] = event.get("action", "")
    elif kind == "skipped_why":
        params["action"] = event.get("action", "")
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
        params["cards"] = joined(lang, [f"{s} {name(c)}" for s, c in spots.items()])
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
    return params


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


def event_lines(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> list[str]:
    lines: list[str] = []
    for event in events:
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
    """One field, a short line per seat, from the public view only."""
    seats = view.get("seats") or {}
    sheets = view.get("sheets") or {}
    reveal = view.get("reveal") or {}
    grades = view.get("grades") or {}
    rows = []
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
        if sil:
            parts.append(_view_name(view, sil, lang))
        if info.get("spot"):
            parts.append(spot_label(info.get("spot"), lang))
        elif sil:
            parts.append(_word(lang, "side", info.get("side")))
        for key, value in (("damage", "damage"), ("info", "info"), ("cards", "abilities")):
            if info.get(value):
                parts.append(t(lang, f"esper.tally.{key}", n=info[value]))
        if parts:
            lines.append(" · ".join(parts))
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
            lines.append(" · ".join(marks))
        # the seat's letter only: players' names are on the board's roster, and the step's
        # first line names the seat to play
        rows.append(f"**{seat}** " + (" · ".join(lines) or "—"))
    return [(t(lang, "esper.tally.title"), "\n".join(rows))] if rows else []


# --- the seat's DM -------------------------------------------------------------------------------


def private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """The DM's status lines from the seat's own view: who it is and what this step asks."""
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
    if view.get("stage") == "over":  # at the deal, the dealt sheet comes as its own event
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
    if seat in (view.get("waiting") or ()):
        lines += _asks(view, seat, lang)
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
        return [
            t(lang, key, card=card_label(you.get("card"), lang)),
            t(lang, "esper.ask.allowed", silhouettes=joined(lang, allowed)),
        ]
    if step == "start":
        if mine.get("side") == "defender":
            runners = [s for s, i in seats.items() if i.get("side") == "defender"]
            return [t(lang, "esper.ask.ambush", runners=joined(lang, runners))]
        return [t(lang, "esper.ask.start")]
    if step == "objection":
        return [t(lang, "esper.ask.objection", seat=view.get("declaration") or "?")]
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
        lines = [
            t(
                lang,
                "esper.ask.turn" if step == "turn" else "esper.ask.after",
                spot=spot_label(spot, lang),
                here=joined(lang, here),
            )
        ]
        usable = you.get("usable") or []
        if usable:
            lines.append(t(lang, "esper.ask.usable"))
            lines += ["- " + ability_line(a, lang) for a in usable]
        return lines
    return []


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


class EsperPresenter(Presenter):
    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        step = str(view.get("step") or "")
        if step in ("deal", "silhouette", "repick", "balance", "balance_card", "start", "see"):
            return t(lang, f"esper.step.{step}")
        if step == "over" or view.get("stage") == "over":
            return t(lang, "esper.step.over")
        if step == "objection":
            return t(lang, "esper.step.objection", seat=view.get("declaration") or "?")
        # ``turn`` counts the normal turns played: the one being played is the next
        value = view.get("turn")
        played = value if isinstance(value, int) else 0
        name = t(lang, "esper.step.turn", turn=played + 1, seat=view.get("active") or "?")
        if step in ("direction", "party", "after"):
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

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def channel_choices(self, view: Mapping[str, Any]) -> bool:
        # Answers to a declaration are public and the same for every voter: the buttons may sit
        # under the channel's post too.
        return view.get("step") == "objection"


PRESENTER = EsperPresenter("esper")
