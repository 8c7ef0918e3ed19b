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
from cogs.dungeon import board, words
from cogs.dungeon import orders as grammar
from cogs.dungeon.content import label, parse_label
from cogs.dungeon.hexes import neighbours

SEATS = words.SEATS
figure_name = words.figure_name
card_text = words.card_text


def _tallies(view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]:
    fields = []
    for hero in view.get("heroes") or []:
        seat = hero["seat"]
        dot = " · " if lang == "en" else "・"
        head = f"{figure_name(seat, lang, names)}{dot}{t(lang, 'dungeon.class.' + hero['class'])}"
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
        if value in ("miss", "x2"):
            return t(lang, f"dungeon.modifier.{value}")
        # a minus sign, not a hyphen, where Japanese is read (the "P 1" lost its sign)
        return f"{value:+d}" if lang == "en" else f"{value:+d}".replace("-", "−")
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


def _paren(lang: str, text: str, inner: Any) -> str:
    """``Guard #2 (D1)``, in Japanese with full-width brackets: ``衛兵#2（D1）``."""
    return f"{text} ({inner})" if lang == "en" else f"{text}（{inner}）"


def _event_kind(event: Mapping[str, Any]) -> str:
    """The sentence an event reads as (some read differently when a field is empty)."""
    kind = str(event["type"])
    if kind == "joined_round" and not event.get("next"):
        return "joined_round_later"
    if kind == "killed" and event.get("by") is None:
        return "killed_by_nothing"
    if kind == "attack" and event.get("modifier") in ("miss", "x2"):
        return f"attack_{event['modifier']}"
    if kind == "attack" and not event.get("damage"):
        return "attack_none"
    if kind == "healed" and not event.get("amount"):
        return "healed_full"
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
                f"{figure_name(s, lang, names)}{': ' if lang == 'en' else '：'}"
                + t(lang, "dungeon.card." + c)
                for s, c in (event.get("cards") or {}).items()
            )
            order = " → ".join(
                _paren(lang, figure_name(a, lang, names), i) for a, i in event.get("order") or []
            )
            # the post's headline says the cards are revealed when nothing weighs more
            lines.append(
                "• " + t(lang, "dungeon.event.cards", round=event["round"], cards=cards or "—")
            )
            lines.append("• " + t(lang, "dungeon.event.order", order=order or "—"))
            continue
        if kind == "door_opened":
            params["monsters"] = (
                sep.join(_paren(lang, figure_name(m, lang, names), h) for m, h in event["monsters"])
                or "—"
            )
        elif kind in ("joined_round", "joined_round_later"):
            params["monsters"] = sep.join(
                _paren(lang, figure_name(m, lang, names), i) for m, i in event.get("monsters") or []
            )
            params["next"] = sep.join(figure_name(m, lang, names) for m in event.get("next") or [])
        elif kind == "monster_tie":
            params["options"] = sep.join(
                t(lang, "dungeon.event.tie_option", number=i, text=option_text(o, lang))
                for i, o in enumerate(event.get("options") or [], start=1)
            )
            params["count"] = len(event.get("options") or [])
        elif kind == "tie_chosen":
            params["votes"] = ("·" if lang == "en" else "・").join(
                map(str, event.get("votes") or [])
            ) or "—"
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


def _hero(view: Mapping[str, Any], seat: str) -> Mapping[str, Any] | None:
    return next((h for h in view.get("heroes") or [] if h["seat"] == seat), None)


def _names(view: Mapping[str, Any], ids: Sequence[str], lang: str) -> str:
    """Monsters by name and hex: ``Guard #2 (D1), Archer #1 (E5)``."""
    hexes = {str(m["id"]): m["hex"] for m in view.get("monsters") or []}
    return t(lang, "dungeon.dm.list_sep").join(
        t(lang, "dungeon.plan.target", name=figure_name(i, lang, {}), hex=hexes.get(i, "—"))
        for i in ids
    )


def _adjacent_monsters(view: Mapping[str, Any], hex_label: str | None) -> list[str]:
    """The monsters next to a hex (the ones that will hit a character in melee)."""
    h = parse_label(hex_label) if hex_label else None
    if h is None:
        return []
    around = {label(n) for n in neighbours(h)}
    return sorted(str(m["id"]) for m in view.get("monsters") or [] if m["hex"] in around)


def _sheet(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    """The 📋 answer: the character, its card this round, its hand with what each card does,
    its discard and lost cards; on its turn, every hex it may end on and what it can attack."""
    me = view.get("you") or {}
    hero = _hero(view, seat)
    if hero is None:
        return []
    lines = [
        t(
            lang,
            "dungeon.sheet.head",
            seat=seat,
            cls=t(lang, f"dungeon.class.{hero['class']}"),
            hp=max(hero["hp"], 0),
            max=hero["max_hp"],
            hex=hero.get("hex") or "—",
            kills=hero.get("kills", 0),
        )
    ]
    if hero.get("status") not in (None, "active"):
        lines.append(t(lang, f"dungeon.board.status.{hero['status']}"))
    if hero.get("card"):
        lines.append(t(lang, "dungeon.sheet.card", card=card_text(hero["card"], lang)))
    elif me.get("picked"):
        name = t(lang, f"dungeon.card.{me['picked']}")
        lines.append(t(lang, "dungeon.sheet.sealed", card=name))
    hand = me.get("hand") or []
    lines.append(t(lang, "dungeon.sheet.hand", count=len(hand)))
    lines += [f"{i}. {card_text(card, lang)}" for i, card in enumerate(hand, start=1)]
    sep = t(lang, "dungeon.dm.list_sep")
    for key, cards in (("discard", me.get("discard")), ("lost", me.get("lost"))):
        if cards:
            named = sep.join(t(lang, f"dungeon.card.{c}") for c in cards)
            lines.append(t(lang, f"dungeon.sheet.{key}", cards=named))
    reach = me.get("reach")
    if reach is not None:
        lines.append(t(lang, "dungeon.dm.moves", hexes=" ".join(reach.get("moves") or []) or "—"))
        lines.append(t(lang, "dungeon.dm.targets", targets=_targets(view, reach, lang) or "—"))
        closed = (view.get("doors") or {}).get("closed") or []
        if closed:
            lines.append(t(lang, "dungeon.dm.doors", hexes=" ".join(closed)))
    return lines


# Log causes a character's news words (cogs/dungeon/state.py Hero.log)
_LOSSES = ("hit", "trap", "hazardous", "grounded")


def _cause(entry: Sequence[Any], seat: str, lang: str) -> str:
    _, cause, by, amount = entry
    # a character by its seat alone (its player's name is not in the view), a monster by name
    who = str(by) if by in SEATS else figure_name(by, lang, {}) if by else ""
    if cause == "hit" and not amount:  # a miss, or a blow the modifier took down to nothing
        return t(lang, "dungeon.news.no_harm", who=who)
    if cause == "healed" and by == seat:
        return t(lang, "dungeon.news.by_own_heal", amount=amount)
    if cause == "healed":
        return t(lang, "dungeon.news.by_heal", who=who, amount=amount)
    return t(lang, f"dungeon.news.by_{cause}", who=who, amount=amount)


def _news(memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    hero = _hero(view, seat)
    if not isinstance(memo, Mapping) or hero is None:
        return []
    lines = []
    entries = [e for e in hero.get("log") or [] if e[0] > int(memo.get("log", 0))]
    if entries:
        net = sum(e[3] if e[1] == "healed" else -e[3] for e in entries)
        key = (
            "dungeon.news.hurt"
            if net < 0
            else "dungeon.news.healed"
            if net > 0
            else "dungeon.news.even"
        )
        causes = t(lang, "dungeon.dm.list_sep").join(_cause(e, seat, lang) for e in entries)
        lines.append(
            t(lang, key, amount=abs(net), causes=causes, hp=max(hero["hp"], 0), max=hero["max_hp"])
        )
    lost = list((view.get("you") or {}).get("lost") or [])
    if len(lost) > int(memo.get("lost", 0)):
        hand = len((view.get("you") or {}).get("hand") or [])
        lines.append(
            t(lang, "dungeon.news.rested", card=t(lang, f"dungeon.card.{lost[-1]}"), hand=hand)
        )
    near = _adjacent_monsters(view, hero.get("hex"))
    come = [m for m in near if m not in (memo.get("near") or [])]
    if come:
        lines.append(t(lang, "dungeon.news.near", monsters=_names(view, come, lang)))
    return lines


def _question(view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
    me = view.get("you") or {}
    hero = _hero(view, seat) or {}
    phase = view.get("phase")
    if phase == "pick":
        lines = [
            t(
                lang,
                "dungeon.ask.pick",
                round=view.get("round", 1),
                hp=max(hero.get("hp", 0), 0),
                max=hero.get("max_hp", 0),
                hex=hero.get("hex") or "—",
            )
        ]
        if len(me.get("hand") or []) == 1:
            lines.append(t(lang, "dungeon.dm.last_card"))
        return lines
    if phase == "act":
        lines = []
        if hero.get("card"):
            lines.append(
                t(
                    lang,
                    "dungeon.ask.act",
                    hex=hero.get("hex") or "—",
                    card=card_text(hero["card"], lang),
                )
            )
        moves = (me.get("reach") or {}).get("moves") or []
        # every hex is an option of the menu, with the pass and the attacks: past its 25 the
        # rest are typed (the question says how; the sheet lists them all)
        if len(moves) >= 24:
            lines.append(t(lang, "dungeon.ask.more_hexes", count=len(moves), example=moves[-1]))
        return lines
    if phase == "tie":
        tie = view.get("tie") or {}
        return [
            t(
                lang,
                "dungeon.dm.tie",
                monster=figure_name(tie.get("monster"), lang, {}),
                count=len(view.get("tie_labels") or []),
            )
        ]
    return []


# What a step's headline names first: the end of the run, a character down, a monster down, a
# door opened, a monster tie, then the hardest blow; the first worded event when none is there.
_HEADLINE_ORDER = (
    "won",
    "lost",
    "resigned",
    "hero_killed",
    "exhausted",
    "killed",
    "door_opened",
    "monster_tie",
    "rested",
)


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
        return _sheet(view, seat, lang)

    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
        """The character's last log number, its lost cards and the monsters next to it."""
        hero = _hero(view, seat)
        if hero is None:
            return None
        log = hero.get("log") or []
        return {
            "log": log[-1][0] if log else 0,
            "lost": len((view.get("you") or {}).get("lost") or []),
            "near": _adjacent_monsters(view, hero.get("hex")),
        }

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """Hit points lost or won since the last prompt and who dealt them, a rest, the
        monsters that came next to the character."""
        return _news(memo, view, seat, lang)

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return _question(view, seat, lang)

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        """The step's main event: the end of the run, a character or a monster down, a door
        opened, a monster tie, else the hardest blow dealt, else the first worded event."""

        def rank(event: Mapping[str, Any]) -> int:
            kind = _event_kind(event)
            if kind in ("killed", "killed_by_nothing") and str(event.get("figure")) in SEATS:
                kind = "hero_killed"
            elif kind == "killed_by_nothing":
                kind = "killed"
            return _HEADLINE_ORDER.index(kind) if kind in _HEADLINE_ORDER else len(_HEADLINE_ORDER)

        ranked = sorted(range(len(events)), key=lambda i: rank(events[i]))
        best = (
            [events[ranked[0]]] if ranked and rank(events[ranked[0]]) < len(_HEADLINE_ORDER) else []
        )
        if not best:
            blows = [e for e in events if e.get("type") == "attack" and e.get("damage")]
            best = [max(blows, key=lambda e: int(e["damage"]))] if blows else []
        if not best:
            best = [e for e in events if e.get("type") == "picks"][:1]
        if best and best[0].get("type") == "picks":
            return t(lang, "dungeon.event.picks", round=best[0]["round"])
        lines = _event_lines(best or events, lang, names)
        return lines[0].removeprefix("• ") if lines else None

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
