"""How the dungeon reads and looks: step names, tallies, the log, the DM's lines, the board.

Pure (i18n and the renderer only). Figures are named in the reader's language: a character by its
seat and player (``A · Aurora``), a monster by its type and standee number (``Guard 3`` /
``衛兵3``). A co-operative game has no winning seat, so the outcome reads from this module
(:meth:`DungeonPresenter.outcome_text`), not from the framework's "seat X wins".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import has, t
from bot.ordertext import reword
from bot.ruleset import Outcome, Presenter
from cogs.dungeon import board
from cogs.dungeon import orders as grammar

SEATS = ("A", "B", "C", "D")


def figure_name(fid: Any, lang: str, names: Mapping[str, str]) -> str:
    text = str(fid)
    if text in SEATS:
        return f"{text} · {names.get(text, text)}"
    if "-" in text:
        mtype, number = text.rsplit("-", 1)
        return t(
            lang,
            "dungeon.board.monster_name",
            name=t(lang, f"dungeon.monster.{mtype}"),
            number=number,
        )
    return text


def card_text(card: Mapping[str, Any], lang: str) -> str:
    """``Trample (72): move 3, jump · attack 3``, the card's name and what it does."""
    parts = [t(lang, "dungeon.card_text.move", move=card.get("move", 0))]
    if card.get("jump"):
        parts[-1] += t(lang, "dungeon.card_text.jump")
    if card.get("flying"):
        parts[-1] += t(lang, "dungeon.card_text.flying")
    if card.get("attack"):
        attack = t(lang, "dungeon.card_text.attack", attack=card["attack"])
        if card.get("range"):
            attack += t(lang, "dungeon.card_text.range", range=card["range"])
        if card.get("targets", 1) > 1:
            attack += t(lang, "dungeon.card_text.targets", targets=card["targets"])
        if card.get("push"):
            attack += t(lang, "dungeon.card_text.push", push=card["push"])
        if card.get("pull"):
            attack += t(lang, "dungeon.card_text.pull", pull=card["pull"])
        parts.append(attack)
    if card.get("heal"):
        heal = t(lang, "dungeon.card_text.heal", heal=card["heal"])
        if card.get("heal_range"):
            heal += t(lang, "dungeon.card_text.range", range=card["heal_range"])
        parts.append(heal)
    name = t(lang, f"dungeon.card.{card['id']}")
    return t(
        lang,
        "dungeon.card_text.line",
        name=name,
        initiative=card.get("initiative", 0),
        text=" · ".join(parts),
    )


def _tallies(view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]:
    fields = []
    for hero in view.get("heroes") or []:
        seat = hero["seat"]
        head = f"{seat} · {names.get(seat, seat)} · {t(lang, 'dungeon.class.' + hero['class'])}"
        if hero.get("status") != "active":
            fields.append((head, t(lang, f"dungeon.board.status.{hero.get('status')}")))
            continue
        value = t(
            lang,
            "dungeon.tally.hero",
            hp=hero["hp"],
            max=hero["max_hp"],
            hand=hero["hand"],
            hex=hero.get("hex") or "—",
        )
        if hero.get("card"):
            value += "\n" + card_text(hero["card"], lang)
        fields.append((head, value))
    monsters = view.get("monsters") or []
    rooms = view.get("rooms") or []
    fields.append(
        (
            t(lang, "dungeon.tally.dungeon"),
            # English says "1 monster", the catalogues keep a key for one and one for the rest
            t(
                lang,
                "dungeon.tally.monsters_one" if len(monsters) == 1 else "dungeon.tally.monsters",
                count=len(monsters),
                rooms=len(rooms),
            ),
        )
    )
    return fields


def _param(key: str, value: Any, lang: str, names: Mapping[str, str]) -> Any:
    if key in ("figure", "attacker", "target", "monster", "seat", "by") and value is not None:
        return figure_name(value, lang, names)
    if key == "by":
        return t(lang, "dungeon.event.no_one")
    if key == "path" and isinstance(value, list):
        return "→".join(map(str, value))
    if key == "modifier":
        return t(lang, f"dungeon.modifier.{value}") if value in ("miss", "x2") else f"{value:+d}"
    if key == "reason" and isinstance(value, str):
        return value  # worded in event_lines, with its own parameters
    if key in ("lost", "card") and isinstance(value, str):
        return t(lang, f"dungeon.card.{value}")
    if key == "rooms" and isinstance(value, list):
        return (
            "、".join(t(lang, f"dungeon.room.{r}") for r in value)
            if lang == "ja"
            else ", ".join(t(lang, f"dungeon.room.{r}") for r in value)
        )
    return value


def _event_kind(event: Mapping[str, Any]) -> str:
    """The sentence an event reads as (some read differently when a field is empty)."""
    kind = str(event["type"])
    if kind == "joined_round" and not event.get("next"):
        return "joined_round_later"
    if kind == "killed" and event.get("by") is None:
        return "killed_by_nothing"
    return kind


def _event_lines(
    events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
) -> list[str]:
    lines: list[str] = []
    sep = "、" if lang == "ja" else ", "
    for event in events:
        kind = _event_kind(event)
        params = {k: _param(k, v, lang, names) for k, v in event.items() if k != "type"}
        if kind == "picks":
            cards = sep.join(
                f"{figure_name(s, lang, names)}: {t(lang, 'dungeon.card.' + c)}"
                for s, c in (event.get("cards") or {}).items()
            )
            order = " → ".join(
                f"{figure_name(a, lang, names)} ({i})" for a, i in event.get("order") or []
            )
            lines.append("**" + t(lang, "dungeon.event.picks", round=event["round"]) + "**")
            lines.append("• " + t(lang, "dungeon.event.cards", cards=cards or "—"))
            lines.append("• " + t(lang, "dungeon.event.order", order=order or "—"))
            continue
        if kind == "door_opened":
            params["monsters"] = (
                sep.join(f"{figure_name(m, lang, names)} ({h})" for m, h in event["monsters"])
                or "—"
            )
        elif kind in ("joined_round", "joined_round_later"):
            params["monsters"] = sep.join(
                f"{figure_name(m, lang, names)} ({i})" for m, i in event.get("monsters") or []
            )
            params["next"] = sep.join(figure_name(m, lang, names) for m in event.get("next") or [])
        elif kind == "monster_tie":
            params["options"] = sep.join(
                f"{i}. {option_text(o, lang)}"
                for i, o in enumerate(event.get("options") or [], start=1)
            )
            params["count"] = len(event.get("options") or [])
        elif kind == "tie_chosen":
            params["votes"] = "·".join(map(str, event.get("votes") or [])) or "—"
        elif kind in ("pushed", "pulled"):
            params["to"] = (event.get("path") or ["?"])[-1]
        elif kind == "order_void":
            reason = str(event.get("reason", ""))
            given = dict(event.get("reason_params") or {})
            params["reason"] = t(lang, reason, **given) if has(reason) else reason
        key = f"dungeon.event.{kind}"
        if has(key):
            lines.append("• " + t(lang, key, **params))
    return lines


def option_text(option: Mapping[str, Any], lang: str) -> str:
    attacks = option.get("attacks") or []
    if attacks:
        return t(
            lang, "dungeon.option_text.attack", hex=option["move_to"], targets=" ".join(attacks)
        )
    return t(lang, "dungeon.option_text.move", hex=option["move_to"])


def _targets(view: Mapping[str, Any], reach: Mapping[str, Any], lang: str) -> str:
    """The monsters in range, each by the tag the board shows and that orders accept, with its
    hex: ``#6 (D4), #4 (C2)``."""
    by_hex = {m["hex"]: m for m in view.get("monsters") or []}
    out = []
    for hex_ in reach.get("targets") or []:
        monster = by_hex.get(hex_)
        if monster is None:
            out.append(hex_)
            continue
        tag = t(lang, "dungeon.board.monster_tag", number=monster["number"])
        out.append(t(lang, "dungeon.dm.target", tag=tag, hex=hex_))
    return t(lang, "dungeon.dm.list_sep").join(out)


def _private_lines(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    me = view.get("you") or {}
    phase = view.get("phase")
    lines: list[str] = []
    if phase == "pick":
        hand = me.get("hand") or []
        # the example names a card of the reader's own hand (another class's would be refused)
        example = t(lang, f"dungeon.card.{hand[0]['id']}") if hand else "1"
        lines.append(t(lang, "dungeon.dm.pick", example=example))
        for i, card in enumerate(hand, start=1):
            lines.append(f"{i}. {card_text(card, lang)}")
        if len(me.get("hand") or []) == 1:
            lines.append(t(lang, "dungeon.dm.last_card"))
    elif phase == "act":
        hero = next((h for h in view.get("heroes") or [] if h["seat"] == seat), None)
        if hero and hero.get("card"):
            lines.append(t(lang, "dungeon.dm.your_turn", hex=hero.get("hex") or "—"))
            lines.append(card_text(hero["card"], lang))
        reach = me.get("reach") or {}
        lines.append(t(lang, "dungeon.dm.moves", hexes=" ".join(reach.get("moves") or []) or "—"))
        lines.append(t(lang, "dungeon.dm.targets", targets=_targets(view, reach, lang) or "—"))
        closed = (view.get("doors") or {}).get("closed") or []
        if closed:
            lines.append(t(lang, "dungeon.dm.doors", hexes=" ".join(closed)))
    elif phase == "tie":
        tie = view.get("tie") or {}
        lines.append(
            t(
                lang,
                "dungeon.dm.tie",
                monster=figure_name(tie.get("monster"), lang, {}),
            )
        )
        for i, option in enumerate(view.get("tie_labels") or [], start=1):
            lines.append(f"{i}. {option_text(option, lang)}")
    return lines


class DungeonPresenter(Presenter):
    def order_text(self, text: str, lang: str) -> str:
        """In Japanese, the words a Japanese player types (``移動 C4 攻撃 #6``, ``カード`` and
        the card's name, ``選択 2``); hexes, tags and seats as they are."""
        if lang == "en":
            return text
        word, _, rest = text.partition(" ")
        if word == "card" and has(f"dungeon.card.{rest}"):
            return f"{_JA_WORDS['card']} {grammar.card_name(rest, lang)}"
        return reword(text, _JA_WORDS)

    # ``challenge_text`` is the default's ``dungeon.challenge``: ``opponent`` is everyone invited,
    # ``scenario`` the run's name.

    def accepted_text(self, lang: str, **params: Any) -> str:
        return t(lang, "dungeon.challenge.accepted", **params)  # no dice in a dungeon's DMs

    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        phase = view.get("phase")
        current = view.get("current")
        what = t(lang, f"dungeon.step.{phase}", seat=current or "")
        return t(lang, "dungeon.step.round", round=view.get("round", 1), what=what)

    def outcome_text(
        self, outcome: Outcome, lang: str, users: Mapping[str, int], end_reason: str | None
    ) -> str:
        # A co-operative game has no winning seat: the party wins or falls together.
        if end_reason == "resign":
            return t(lang, "dungeon.outcome.resigned")
        return t(lang, f"dungeon.outcome.{outcome.coop}")

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        return _tallies(view, lang, names)

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        return f"dungeon.event.{_event_kind(event)}"

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        return _event_lines(events, lang, names)

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return _private_lines(view, seat, lang)

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """How the run ended, a monster tie's options, which figures moved, came, fell or
        changed, and where every character and monster stands."""
        notes = []
        if view.get("outcome"):
            notes.append(t(lang, f"dungeon.outcome.{view['outcome']}"))
        options = []
        for number, option in enumerate(view.get("tie_labels") or [], start=1):
            targets = alttext.listed(lang, option.get("attacks") or [])
            key = "dungeon.alt.option_attacks" if targets else "dungeon.alt.option"
            options.append(t(lang, key, number=number, hex=option["move_to"], targets=targets))
        if options:
            notes.append(t(lang, "dungeon.alt.tie", options=alttext.listed(lang, options)))
        return alttext.describe(
            self.title(lang),
            lang,
            names,
            scene,
            _pieces(view, lang, names),
            _pieces(scene.before, lang, names),
            notes,
        )

    def channel_choices(self, view: Mapping[str, Any]) -> bool:
        """A monster tie is the party's vote: its buttons go under the channel post as well."""
        return view.get("phase") == "tie"


def _pieces(
    view: Mapping[str, Any] | None, lang: str, names: Mapping[str, str]
) -> dict[str, alttext.Piece]:
    """The characters (``A Aurora Brute``: HP, hand, a state other than in play) and the
    monsters (``Imp #1``: HP) as a description names them."""
    pieces = {}
    hp = t(lang, "dungeon.alt.hp")
    for hero in (view or {}).get("heroes") or []:
        seat = hero["seat"]
        label = f"{alttext.seat_label(seat, names)} {t(lang, 'dungeon.class.' + hero['class'])}"
        state = [
            (hp, f"{max(hero['hp'], 0)}/{hero['max_hp']}"),
            (t(lang, "dungeon.alt.hand"), str(hero.get("hand", 0))),
        ]
        if hero.get("status") not in (None, "active"):
            state.append((t(lang, f"dungeon.board.status.{hero['status']}"), ""))
        pieces[seat] = alttext.Piece(label, hero.get("hex"), tuple(state))
    for monster in (view or {}).get("monsters") or []:
        label = figure_name(monster["id"], lang, names)
        figures = ((hp, f"{max(monster['hp'], 0)}/{monster['max_hp']}"),)
        pieces[str(monster["id"])] = alttext.Piece(label, monster.get("hex"), figures)
    return pieces


PRESENTER = DungeonPresenter("dungeon")


# Each keyword as the help text spells it in Japanese (the grammar, cogs/dungeon/orders.py, reads
# these among others; a test reads every one back).
_JA_WORDS = {
    "move": "移動",
    "attack": "攻撃",
    "heal": "回復",
    "pass": "パス",
    "card": "カード",
    "option": "選択",
}
