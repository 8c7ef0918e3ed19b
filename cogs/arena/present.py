"""How Arena Duel reads and looks: event sentences, the headline, tallies, the seat's prompt (what
changed since its last one, where the opponent stands, what its dice are for), its sheet (📋), the
order help (❓) and the board.

Pure (i18n and the renderer only). Hexes read as ``q,r`` like the labels on the board; dice as
``6·5·3`` (``6・5・3`` in Japanese), never as a pair that would read as a hex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import t
from bot.ruleset import DRAW, OrderRejected, Presenter
from cogs.arena import board
from cogs.arena.rules import (
    DIRECTIONS,
    POSITIONS,
    SEATS,
    START_STAMINA,
    dice_used,
    parse_text,
)

FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# The event fields that hold a hex; every other list of numbers is dice (a combat from a front
# side uses two dice, which must not read as the hex ``3,1``).
HEX_FIELDS = ("hex", "from_hex", "to_hex")


def _hex(value: Sequence[int]) -> str:
    return f"{value[0]},{value[1]}"


def _dice(values: Sequence[int], lang: str) -> str:
    """``6·5·3`` (``6・5・3``), or the words for no dice at all (a fight from behind)."""
    if not values:
        return t(lang, "arena.dice.none")
    return t(lang, "arena.dice.sep").join(str(v) for v in values)


def _param(name: str, value: Any, lang: str) -> Any:
    if name in HEX_FIELDS and isinstance(value, list):
        return _hex(value)
    if isinstance(value, list | tuple):
        return _dice(value, lang)
    if isinstance(value, str) and value in FACINGS:
        return t(lang, f"arena.facing.{value}")
    return value


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _distance(a: Sequence[int], b: Sequence[int]) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _bearing(me: Mapping[str, Any], other: Sequence[int]) -> str:
    """Where ``other`` lies seen from the fighter ``me`` (one of :data:`POSITIONS`): the side of
    its hex it is nearest to, however far (flat-topped hexes, screen y down)."""
    dq, dr = other[0] - me["hex"][0], other[1] - me["hex"][1]
    x, y = 1.5 * dq, (3**0.5) * (dr + dq / 2)

    def along(direction: int) -> float:
        q, r = DIRECTIONS[direction]
        return float(x * 1.5 * q + y * (3**0.5) * (r + q / 2))

    facing = FACINGS.index(me["facing"])
    # A hex straight between two sides is named by the one nearer the front.
    best = max(
        range(6), key=lambda d: (round(along(d), 6), -min((d - facing) % 6, (facing - d) % 6))
    )
    return POSITIONS[(best - facing) % 6]


# What a headline is about, most telling first: the end, then damage, then what stopped a move.
HEADLINE_ORDER = (
    "game_over",
    "game_over_draw",
    "resigned",
    "combat",
    "passing",
    "push_blocked",
    "combat_draw",
    "passing_draw",
    "collision",
    "collision_draw",
    "push_back",
    "push",
)


class ArenaPresenter(Presenter):
    def accepted_text(self, lang: str, **params: Any) -> str:
        return t(lang, "arena.challenge.accepted", **params)  # the dice wait in the DMs

    def order_text(self, text: str, lang: str) -> str:
        """The order in the reader's words (``前進 右を向く``: the labels of its buttons, which
        the parser reads back), or its canonical English tokens; text that does not read as an
        order stays as sent."""
        try:
            order = parse_text(text)
        except OrderRejected:
            return text
        if lang == "en":
            return order.canonical()
        move = t(lang, "arena.move." + order.move.replace("-", "_"))
        return f"{move} {t(lang, 'arena.turn.' + order.turn)}"

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        if event["type"] in ("turn_started", "dice"):
            # The turn header says the first; the dice show in the charge check and the combat.
            return None
        return f"arena.event.{event['type']}"

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        """The events, with both fighters' stamina losses of a turn on one line (a post read on
        a phone: one line per thing that happened)."""
        lines: list[str] = []
        losses: list[Mapping[str, Any]] = []
        for event in [*events, {"type": "end"}]:
            if event["type"] == "stamina_loss":
                losses.append(event)
                continue
            if len(losses) > 1:
                each = t(lang, "arena.event.sep").join(
                    t(lang, "arena.event.stamina_each", **self.event_params(e, lang, names))
                    for e in losses
                )
                lines.append("• " + t(lang, "arena.event.stamina_losses", each=each))
            elif losses:
                lines += super().event_lines(losses, lang, names)
            losses = []
            if event["type"] != "end":
                lines += super().event_lines([event], lang, names)
        return lines

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        params = {k: _param(k, v, lang) for k, v in event.items() if k != "type"}
        # ``move_key="arena.move.front_right"`` shows ``move`` in the reader's language.
        for name, key in event.items():
            if name.endswith("_key") and isinstance(key, str):
                params[name.removesuffix("_key")] = t(lang, key)
        return params

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        fields = []
        for seat in ("A", "B"):
            f = view["fighters"][seat]
            marks = []
            if f["may_charge"]:
                marks.append(t(lang, "arena.tally.may_charge"))
            if f["no_retreat"]:
                marks.append(t(lang, "arena.tally.no_retreat"))
            value = t(
                lang,
                "arena.tally.fighter",
                stamina=max(f["stamina"], 0),
                max=START_STAMINA,
                facing=t(lang, f"arena.facing.{f['facing']}"),
                hex=_hex(f["hex"]),
            )
            if marks:
                value += "\n" + t(lang, "arena.event.sep").join(marks)
            name = t(lang, "arena.tally.name", seat=seat, name=names.get(seat, seat))
            fields.append((name, value))
        return fields

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        """The end of the duel, else the turn's damage (a fight won, with what the loser took in
        all: a wall behind it included), else what stopped a move, else where both went."""
        by_type: dict[str, Mapping[str, Any]] = {}
        for event in events:
            by_type.setdefault(str(event["type"]), event)
        for kind in HEADLINE_ORDER:
            main = by_type.get(kind)
            if main is None:
                continue
            params = self.event_params(main, lang, names)
            if kind == "combat":
                loser = main["loser"]
                params["damage"] = sum(
                    int(e.get("damage", 0))
                    for e in events
                    if e["type"] in ("combat", "cornered")
                    and (e.get("loser") == loser or e.get("target") == loser)
                )
            return t(lang, f"arena.headline.{kind}", **params)
        moves = self._moves(events, lang)
        return t(lang, "arena.event.sep").join(moves) if moves else None

    def _moves(self, events: Sequence[Mapping[str, Any]], lang: str) -> list[str]:
        """Each fighter's way this turn, first hex to last (``A 0,2 → 1,1``), or that it stayed."""
        paths: dict[str, list[str]] = {}
        charged: set[str] = set()
        for event in events:
            if event["type"] == "move":
                path = paths.setdefault(event["seat"], [_hex(event["from_hex"])])
                path.append(_hex(event["to_hex"]))
            elif event["type"] == "order" and str(event.get("move", "")).startswith("charge"):
                charged.add(event["seat"])
        if not any(e["type"] == "order" for e in events):
            return []
        lines = []
        for seat in SEATS:
            path = paths.get(seat) or []
            if not path:
                lines.append(t(lang, "arena.headline.stays", seat=seat))
                continue
            key = "arena.headline.charges" if seat in charged else "arena.headline.moves"
            lines.append(t(lang, key, seat=seat, from_hex=path[0], to_hex=path[-1]))
        return lines

    # the seat's prompt
    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
        """The turn, both fighters' stamina and the opponent's hex and facing."""
        fighters = view.get("fighters") or {}
        if seat not in fighters:
            return None
        foe = fighters[_other(seat)]
        return {
            "turn": view.get("turn"),
            "stamina": {s: f["stamina"] for s, f in fighters.items()},
            "foe": [*foe["hex"], foe["facing"]],
        }

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """Both fighters' stamina then and now with the fight's result, and where the opponent
        went (its hex and facing): one line each."""
        fighters = view.get("fighters") or {}
        if (
            not isinstance(memo, Mapping)
            or seat not in fighters
            or memo.get("turn") == view.get("turn")
        ):
            return []
        foe_seat = _other(seat)
        me, foe = fighters[seat], fighters[foe_seat]
        was = memo.get("stamina") or {}
        last = view.get("last_turn") or {}
        fight = last.get("fight")
        result = (
            "none"
            if fight is None
            else "draw"
            if fight == DRAW
            else "won"
            if fight == seat
            else "lost"
        )
        lines = [
            t(
                lang,
                f"arena.news.stamina_{result}",
                turn=last.get("turn", memo.get("turn")),
                was=max(int(was.get(seat, me["stamina"])), 0),
                now=max(me["stamina"], 0),
                foe=foe_seat,
                foe_was=max(int(was.get(foe_seat, foe["stamina"])), 0),
                foe_now=max(foe["stamina"], 0),
            )
        ]
        before = memo.get("foe") or []
        facing = t(lang, f"arena.facing.{foe['facing']}")
        if list(before[:2]) != list(foe["hex"]) and len(before) >= 2:
            lines.append(
                t(
                    lang,
                    "arena.news.foe_moved",
                    foe=foe_seat,
                    from_hex=_hex(before),
                    to_hex=_hex(foe["hex"]),
                    facing=facing,
                )
            )
        else:
            lines.append(
                t(lang, "arena.news.foe_stayed", foe=foe_seat, hex=_hex(foe["hex"]), facing=facing)
            )
        return lines

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """Where the seat stands and where the opponent is from its point of view (with the
        dice a fight from there would use), then its dice and what each is for."""
        fighters = view.get("fighters") or {}
        if seat not in fighters or view.get("outcome"):
            return []
        foe_seat = _other(seat)
        me, foe = fighters[seat], fighters[foe_seat]
        dice = list((view.get("dice") or {}).get(seat) or [])
        where = _bearing(me, foe["hex"])
        side = t(lang, f"arena.where.{where}")
        if _distance(me["hex"], foe["hex"]) == 1:
            used = dice_used(where)  # (1, 2, 3), (1, 2), (1,) or none: by where the foe is
            foe_line = t(
                lang,
                f"arena.ask.adjacent_{len(used)}",
                foe=foe_seat,
                side=side,
                values=_dice([dice[n - 1] for n in used], lang) if dice else "—",
            )
        else:
            foe_line = t(
                lang,
                "arena.ask.away",
                foe=foe_seat,
                side=side,
                distance=_distance(me["hex"], foe["hex"]),
            )
        lines = [
            t(
                lang,
                "arena.ask.position",
                hex=_hex(me["hex"]),
                facing=t(lang, f"arena.facing.{me['facing']}"),
                foe=foe_line,
            )
        ]
        if dice:
            marks = [t(lang, "arena.dm.may_charge")] if me["may_charge"] else []
            if me["no_retreat"]:
                marks.append(t(lang, "arena.dm.no_retreat"))
            lines.append(" ".join([t(lang, "arena.ask.dice", dice=_faces(dice, lang)), *marks]))
        return lines

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """The 📋 answer: the seat's dice, both fighters' stamina, hex and facing, its marks."""
        dice = view.get("dice", {}).get(seat)
        lines = []
        if dice:
            lines.append(t(lang, "arena.dm.dice", dice=_faces(dice, lang)))
        for s in sorted(view.get("fighters") or {}, key=lambda s: s != seat):
            f = view["fighters"][s]
            lines.append(
                t(
                    lang,
                    "arena.dm.you" if s == seat else "arena.dm.foe",
                    seat=s,
                    stamina=max(f["stamina"], 0),
                    max=START_STAMINA,
                    facing=t(lang, f"arena.facing.{f['facing']}"),
                    hex=_hex(f["hex"]),
                )
            )
        me = view["fighters"][seat]
        if me["may_charge"]:
            lines.append(t(lang, "arena.dm.may_charge"))
        if me["no_retreat"]:
            lines.append(t(lang, "arena.dm.no_retreat"))
        return lines

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """Who moved where, whose stamina and facing changed, and where both fighters stand."""
        return alttext.describe(
            self.title(lang),
            lang,
            names,
            scene,
            _pieces(view, lang, names),
            _pieces(scene.before, lang, names),
        )


def _faces(dice: Sequence[int], lang: str) -> str:
    """``⚅ **6** · ⚁ **2** · ⚀ **1**``: each die's face and number, in the dice's order."""
    return t(lang, "arena.event.sep").join(f"{DIE_FACES[d - 1]} **{d}**" for d in dice)


def _pieces(
    view: Mapping[str, Any] | None, lang: str, names: Mapping[str, str]
) -> dict[str, alttext.Piece]:
    """Each fighter as a description names it: where, stamina, facing, and its marks."""
    pieces = {}
    for seat, f in ((view or {}).get("fighters") or {}).items():
        state = [
            (t(lang, "arena.alt.stamina"), f"{max(f['stamina'], 0)}/{START_STAMINA}"),
            (t(lang, "arena.alt.facing"), t(lang, f"arena.facing.{f['facing']}")),
        ]
        for mark in ("may_charge", "no_retreat"):
            if f.get(mark):
                state.append((t(lang, f"arena.alt.{mark}"), ""))
        label = alttext.seat_label(seat, names)
        pieces[seat] = alttext.Piece(label, _hex(f["hex"]), tuple(state))
    return pieces


PRESENTER = ArenaPresenter("arena")
